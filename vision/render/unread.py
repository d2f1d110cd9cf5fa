"""Ink that rink does not read: marks of the Eldritch and Electricity expansions (portal
letters, ritual sites, clues, street lamps, lightning, charges) and a player's scribbles and
corrections, drawn into spaces whose route truth stays as it is. The reader should put such
spaces in review ("unexplained ink"); the truth lists them so that this can be measured.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .style import Color

KINDS = ("portal", "ritual", "clue", "lamp", "lightning", "charge", "scribble", "correction")
_KIND_P = (0.14, 0.1, 0.14, 0.12, 0.14, 0.12, 0.12, 0.12)
_SHIFT = 4
_ONE = 1 << _SHIFT


def choose_marks(rng: np.random.Generator, grid: list[list[str]]) -> list[tuple[int, int, str]]:
    """1 to 6 spaces with a mark, mostly drawn ones: (row, col, kind)."""
    drawn = [(r, c) for r in range(7) for c in range(7) if grid[r][c] != "."]
    empty = [(r, c) for r in range(7) for c in range(7) if grid[r][c] == "."]
    chosen: set[tuple[int, int]] = set()
    for _ in range(int(rng.integers(1, 7))):
        pool = drawn if drawn and (not empty or rng.random() < 0.7) else empty
        chosen.add(pool[int(rng.integers(len(pool)))])
    return [(r, c, KINDS[int(rng.choice(len(KINDS), p=_KIND_P))]) for r, c in sorted(chosen)]


def mark_drawer(
    origin: np.ndarray,
    cell: float,
    kind: str,
    color: Color,
    width: float,
    rng: np.random.Generator,
) -> Callable[[np.ndarray], None]:
    """A function that draws mark ``kind`` into the space at ``origin`` (px) of an image."""
    params = rng.integers(1 << 31)  # the mark's shape, fixed now, drawn later

    def draw(img: np.ndarray) -> None:
        _draw(img, origin, cell, kind, color, width, np.random.default_rng(params))

    return draw


def _pts(origin: np.ndarray, cell: float, pts) -> np.ndarray:
    return np.round((origin + np.asarray(pts, float) * cell) * _ONE).astype(np.int32)


def _lines(img, origin, cell, pts, color, w, closed=False) -> None:
    cv2.polylines(img, [_pts(origin, cell, pts)], closed, color, w, cv2.LINE_AA, shift=_SHIFT)


def _draw(
    img: np.ndarray,
    origin: np.ndarray,
    cell: float,
    kind: str,
    color: Color,
    width: float,
    rng: np.random.Generator,
) -> None:
    w = max(1, int(round(width * cell)))
    centre = rng.uniform(0.3, 0.7, 2)
    size = rng.uniform(0.14, 0.22)
    if kind == "portal":  # a letter in a circle or under an arc
        letter = "ABC"[int(rng.integers(3))]
        c = tuple(int(v) for v in _pts(origin, cell, centre))
        radius = int(size * cell * _ONE)
        if rng.random() < 0.6:
            cv2.circle(img, c, radius, color, w, cv2.LINE_AA, shift=_SHIFT)
        else:
            cv2.ellipse(img, c, (radius, radius), 0, 180, 360, color, w, cv2.LINE_AA, _SHIFT)
        _text(img, origin, cell, centre, letter, color, size * 1.1, w)
    elif kind == "ritual":  # a star (or a pentagram drawn in one line)
        angles = -np.pi / 2 + rng.normal(0, 0.15) + np.arange(5) * 4 * np.pi / 5
        star = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * size
        _lines(img, origin, cell, star, color, w, closed=True)
    elif kind == "clue":
        _text(img, origin, cell, centre, "?", color, size * 1.6, w)
    elif kind == "lamp":  # a dot with rays, or a small lamp post
        dot = tuple(int(v) for v in _pts(origin, cell, centre))
        cv2.circle(img, dot, int(size * 0.3 * cell * _ONE), color, -1, cv2.LINE_AA, shift=_SHIFT)
        for a in np.arange(int(rng.integers(5, 9))) * 2 * np.pi / 7 + rng.uniform(0, 1):
            d = np.array([np.cos(a), np.sin(a)])
            _lines(img, origin, cell, [centre + d * size * 0.5, centre + d * size], color, w)
    elif kind == "lightning":  # a zigzag bolt
        top = centre - [rng.uniform(-0.05, 0.05), size * 1.3]
        bolt = [
            top,
            centre + [size * 0.35, -0.02],
            centre + [-size * 0.3, 0.02],
            centre + [rng.uniform(-0.05, 0.05), size * 1.3],
        ]
        _lines(img, origin, cell, bolt, color, w)
    elif kind == "charge":  # one to three small circles, some filled
        for k in range(int(rng.integers(1, 4))):
            at = centre + [(k - 1) * size * 0.8, 0]
            c = tuple(int(v) for v in _pts(origin, cell, at))
            fill = -1 if rng.random() < 0.4 else w
            cv2.circle(img, c, int(size * 0.3 * cell * _ONE), color, fill, cv2.LINE_AA, _SHIFT)
    elif kind == "scribble":  # a scratched-out patch: a dense zigzag
        n = int(rng.integers(6, 14))
        span = rng.uniform(0.25, 0.5)
        xs = np.linspace(-span / 2, span / 2, n)
        ys = np.where(np.arange(n) % 2 == 0, -1, 1) * rng.uniform(0.1, 0.2) + rng.normal(0, 0.02, n)
        angle = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        _lines(img, origin, cell, centre + np.column_stack([xs, ys]) @ rot.T, color, w)
    elif kind == "correction":  # a cross over most of the space, or a strike-through
        a, b = rng.uniform(0.1, 0.25, 2), rng.uniform(0.75, 0.9, 2)
        _lines(img, origin, cell, [a, b], color, w)
        if rng.random() < 0.7:
            _lines(img, origin, cell, [[b[0], a[1]], [a[0], b[1]]], color, w)
    else:
        raise ValueError(f"unknown mark {kind!r}")


def _text(img, origin, cell, centre, text, color, height, w) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = cv2.getFontScaleFromHeight(font, max(4, int(height * cell)), w)
    (tw, th), _ = cv2.getTextSize(text, font, scale, w)
    x, y = origin + np.asarray(centre) * cell
    cv2.putText(img, text, (int(x - tw / 2), int(y + th / 2)), font, scale, color, w, cv2.LINE_AA)
