"""Ink that rink does not read: marks of the Eldritch and Electricity expansions (portal
letters, ritual sites, clues, street lamps, lightning, charges) and a player's scribbles and
corrections, drawn into spaces whose route truth stays as it is. The reader should put such
spaces in review ("unexplained ink"); the truth lists them so that this can be measured.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.space_parts import side_letters

from .style import Color

KINDS = ("portal", "ritual", "clue", "lamp", "lightning", "charge", "scribble", "correction",
         "investigator", "tentacle")
_KIND_P = (0.12, 0.09, 0.13, 0.1, 0.12, 0.09, 0.09, 0.1, 0.07, 0.09)
_SIDES = np.array([[0.5, 0.0], [1.0, 0.5], [0.5, 1.0], [0.0, 0.5]])  # N, E, S, W midpoints
_SHIFT = 4
_ONE = 1 << _SHIFT


def choose_marks(rng: np.random.Generator, grid: list[list[str]]) -> list[tuple[int, int, str]]:
    """1 to 6 spaces with a mark, mostly drawn ones: (row, col, kind). A tentacle goes only
    where the Tentacle rules let it (an empty space, across a straight route, round a curve);
    elsewhere its space gets a scribble."""
    drawn = [(r, c) for r in range(7) for c in range(7) if grid[r][c] != "."]
    empty = [(r, c) for r in range(7) for c in range(7) if grid[r][c] == "."]
    chosen: set[tuple[int, int]] = set()
    for _ in range(int(rng.integers(1, 7))):
        pool = drawn if drawn and (not empty or rng.random() < 0.7) else empty
        chosen.add(pool[int(rng.integers(len(pool)))])
    marks = [(r, c, KINDS[int(rng.choice(len(KINDS), p=_KIND_P))]) for r, c in sorted(chosen)]
    return [(r, c, "scribble" if kind == "tentacle" and tentacle_sides(grid[r][c]) is None
             else kind) for r, c, kind in marks]


def tentacle_sides(token: str) -> tuple[tuple[int, int], ...] | None:
    """The side pairs (N=0, E, S, W) a Tentacle may take through a space holding ``token``:
    any straight or curve through an empty space, the crossing straight under a straight
    route, the two free sides round a curve; None where it may not go."""
    if token == ".":
        return ((0, 2), (1, 3), (0, 1), (1, 2), (2, 3), (3, 0))
    letters = side_letters(token)
    if any(ch not in "HR_" for ch in letters):  # water: the rules name routes only
        return None
    used = tuple(i for i, ch in enumerate(letters) if ch != "_")
    free = tuple(i for i in range(4) if i not in used)
    if len(used) != 2:
        return None
    return (free,)  # under a straight route, or round a curve: its two free sides


def mark_drawer(
    origin: np.ndarray,
    cell: float,
    kind: str,
    color: Color,
    width: float,
    rng: np.random.Generator,
    token: str = ".",
) -> Callable[[np.ndarray], None]:
    """A function that draws mark ``kind`` into the space at ``origin`` (px) of an image
    (``token``: what the space holds, for a tentacle's way through it)."""
    params = rng.integers(1 << 31)  # the mark's shape, fixed now, drawn later

    def draw(img: np.ndarray) -> None:
        mark_rng = np.random.default_rng(params)
        if kind == "tentacle":
            _tentacle(img, origin, cell, token, color, width, mark_rng)
        else:
            _draw(img, origin, cell, kind, color, width, mark_rng)

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
    # anywhere inside the space, most often near its middle; from small to half the space
    centre = np.clip(rng.normal(0.5, 0.14, 2), 0.22, 0.78)
    size = rng.uniform(0.1, 0.26)
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
    elif kind == "clue":  # a "?" or a magnifying glass, circled once collected
        if rng.random() < 0.5:
            _text(img, origin, cell, centre, "?", color, size * 1.6, w)
        else:
            lens = tuple(int(v) for v in _pts(origin, cell, centre))
            cv2.circle(img, lens, int(size * 0.5 * cell * _ONE), color, w, cv2.LINE_AA, _SHIFT)
            a = rng.uniform(0, 2 * np.pi)
            d = np.array([np.cos(a), np.sin(a)])
            _lines(img, origin, cell, [centre + d * size * 0.5, centre + d * size * 1.1], color, w)
        if rng.random() < 0.3:
            c = tuple(int(v) for v in _pts(origin, cell, centre))
            cv2.circle(img, c, int(size * 1.3 * cell * _ONE), color, w, cv2.LINE_AA, _SHIFT)
    elif kind == "lamp":  # a dot with rays, or a small lamp post
        dot = tuple(int(v) for v in _pts(origin, cell, centre))
        cv2.circle(img, dot, int(size * 0.3 * cell * _ONE), color, -1, cv2.LINE_AA, shift=_SHIFT)
        for a in np.arange(int(rng.integers(5, 9))) * 2 * np.pi / 7 + rng.uniform(0, 1):
            d = np.array([np.cos(a), np.sin(a)])
            _lines(img, origin, cell, [centre + d * size * 0.5, centre + d * size], color, w)
    elif kind == "lightning":  # a zigzag bolt, often small in the bottom right (the rulebook)
        if rng.random() < 0.5:
            centre, size = rng.uniform(0.68, 0.8, 2), rng.uniform(0.07, 0.12)
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
    elif kind == "investigator":  # a little figure: a head over a body
        head = centre - [0, size * 0.6]
        c = tuple(int(v) for v in _pts(origin, cell, head))
        cv2.circle(img, c, int(size * 0.3 * cell * _ONE), color, -1 if rng.random() < 0.5 else w,
                   cv2.LINE_AA, _SHIFT)
        body = [centre + [-size * 0.5, size * 0.9], centre - [0, size * 0.25],
                centre + [size * 0.5, size * 0.9]]
        _lines(img, origin, cell, body, color, w, closed=rng.random() < 0.6)
    else:
        raise ValueError(f"unknown mark {kind!r}")


def _tentacle(img, origin, cell, token, color, width, rng) -> None:
    """A Tentacle through the space (Eldritch: Tentacle): a thick wavy stroke between two
    side midpoints, straight across or round the corner, with suckers along one side."""
    pairs = tentacle_sides(token) or ((0, 2),)
    a, b = pairs[int(rng.integers(len(pairs)))]
    t = np.linspace(0.0, 1.0, 24)
    start, end = _SIDES[a], _SIDES[b]
    if (b - a) % 2 == 0:  # straight across
        path = start + np.outer(t, end - start)
        normal = np.tile([-(end - start)[1], (end - start)[0]], (len(t), 1))
    else:  # round the corner the two sides share, a quarter circle about it
        corner = start + end - 0.5
        a0 = np.arctan2(*(start - corner)[::-1])
        a1 = np.arctan2(*(end - corner)[::-1])
        if abs(a1 - a0) > np.pi:
            a1 += -2 * np.pi if a1 > a0 else 2 * np.pi
        angles = a0 + t * (a1 - a0)
        path = corner + 0.5 * np.column_stack([np.cos(angles), np.sin(angles)])
        normal = path - corner
    normal = normal / np.linalg.norm(normal, axis=1, keepdims=True)
    wave = rng.uniform(0.03, 0.07) * np.sin(2 * np.pi * rng.uniform(1.0, 2.0) * t
                                            + rng.uniform(0, 2 * np.pi))
    path = path + wave[:, None] * normal
    w = max(1, int(round(width * cell * rng.uniform(1.5, 2.5))))
    _lines(img, origin, cell, path, color, w)
    side = 1 if rng.random() < 0.5 else -1
    for k in np.linspace(0.25, 0.75, int(rng.integers(2, 5))):
        i = int(k * (len(t) - 1))
        at = path[i] + side * normal[i] * rng.uniform(0.06, 0.09)
        c = tuple(int(v) for v in _pts(origin, cell, at))
        cv2.circle(img, c, max(_ONE, int(rng.uniform(0.02, 0.035) * cell * _ONE)), color,
                   max(1, w // 2), cv2.LINE_AA, _SHIFT)


def _text(img, origin, cell, centre, text, color, height, w) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = cv2.getFontScaleFromHeight(font, max(4, int(height * cell)), w)
    (tw, th), _ = cv2.getTextSize(text, font, scale, w)
    x, y = origin + np.asarray(centre) * cell
    cv2.putText(img, text, (int(x - tw / 2), int(y + th / 2)), font, scale, color, w, cv2.LINE_AA)
