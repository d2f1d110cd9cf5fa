"""Expansion drawings that are not route strokes: lake areas and the markers of
docs/NOTATION.md (portal letters, ritual sites, clues, street lamps, the Accumulator).

Positions and sizes are in cell units (0..1 across the space), like pieces.py.
"""

from __future__ import annotations

import cv2
import numpy as np

from .style import Color

_SHIFT = 4
LAKE_COLORS: tuple[Color, ...] = ((200, 150, 60), (220, 180, 110), (180, 120, 40), (230, 200, 150))


def _px(origin: np.ndarray, cell: float, pts: np.ndarray) -> np.ndarray:
    return np.round((origin + np.asarray(pts) * cell) * (1 << _SHIFT)).astype(np.int32)


def _lake_outline(sides: str, depth: float, rng: np.random.Generator) -> np.ndarray:
    """Polygon (cell units) of water reaching ``depth`` in from the given sides, wavy shore."""
    if len(sides) == 4:
        return np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    n = 64
    grid = (np.arange(n + 1) / n).astype(np.float32)
    xx, yy = np.meshgrid(grid, grid)
    dist = np.full(xx.shape, np.inf, np.float32)
    for side in sides:
        dist = np.minimum(dist, {"N": yy, "S": 1 - yy, "W": xx, "E": 1 - xx}[side])
    phase = xx * rng.uniform(6, 12) + yy * rng.uniform(6, 12) + rng.uniform(0, 6)
    mask = ((dist + 0.04 * np.sin(phase)) < depth).astype(np.uint8) * 255
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    contours, _ = cv2.findContours(
        (mask > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    if not contours:
        return np.zeros((0, 2))
    return max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float) / n


def draw_lake(
    img: np.ndarray,
    origin: np.ndarray,
    cell: float,
    sides: str,
    color: Color,
    rng: np.random.Generator,
    hatched: bool,
) -> None:
    """Water against ``sides`` (a subset of 'NESW'): a filled or hatched area with a shore line."""
    poly = _lake_outline(sides, rng.uniform(0.22, 0.3), rng)
    if len(poly) < 3:
        return
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(origin).astype(int), 0)
    x1, y1 = min(w, int(np.ceil(origin[0] + cell)) + 1), min(h, int(np.ceil(origin[1] + cell)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    local = _px(origin - np.array([x0, y0]), cell, poly)
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(mask, [local], 255, cv2.LINE_AA, shift=_SHIFT)
    paint = roi.copy()
    if hatched:
        step = max(3, int(cell * rng.uniform(0.07, 0.12)))
        size = max(roi.shape[:2])
        for k in range(0, 2 * size, step):
            cv2.line(paint, (k, 0), (k - size, size), color, max(1, int(cell * 0.02)), cv2.LINE_AA)
        strength = 1.0
    else:
        paint[:] = LAKE_COLORS[int(rng.integers(len(LAKE_COLORS)))]
        strength = rng.uniform(0.5, 0.85)
    alpha = (mask.astype(np.float32) / 255 * strength)[..., None]
    roi[:] = (roi * (1 - alpha) + paint * alpha).astype(np.uint8)
    if len(sides) < 4:
        cv2.polylines(
            roi, [local], True, color, max(1, int(cell * 0.025)), cv2.LINE_AA, shift=_SHIFT
        )


def _circle(img, origin, cell, centre, radius, color, width) -> None:
    c = _px(origin, cell, centre)
    cv2.circle(
        img,
        tuple(int(v) for v in c),
        int(radius * cell * (1 << _SHIFT)),
        color,
        width,
        cv2.LINE_AA,
        shift=_SHIFT,
    )


def _backing(img, origin, cell, centre, radius) -> None:
    """A paper-white disc that sets a marker off from the strokes under it."""
    c = tuple(int(v) for v in origin + centre * cell)
    cv2.circle(img, c, int(radius * cell), (250, 250, 250), -1, cv2.LINE_AA)


def _lines(img, origin, cell, pts, color, width, closed=False) -> None:
    cv2.polylines(img, [_px(origin, cell, pts)], closed, color, width, cv2.LINE_AA, shift=_SHIFT)


def _letter(img, origin, cell, centre, text, color, height) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, int(cell * 0.03))
    scale = cv2.getFontScaleFromHeight(font, max(4, int(height * cell)), thickness)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    x, y = origin + np.asarray(centre) * cell
    cv2.putText(
        img, text, (int(x - tw / 2), int(y + th / 2)), font, scale, color, thickness, cv2.LINE_AA
    )


def draw_marker(
    img: np.ndarray,
    origin: np.ndarray,
    cell: float,
    marker: str,
    color: Color,
    rng: np.random.Generator,
    has_route: bool,
) -> None:
    """One expansion marker in the space."""
    width = max(1, int(cell * 0.03))
    jitter = rng.normal(0, 0.02, 2)
    if marker.startswith("@"):  # a portal: its letter in a circle, where the route ends
        centre = np.array([0.5, 0.5]) + jitter
        _backing(img, origin, cell, centre, 0.17)
        _circle(img, origin, cell, centre, 0.17, color, width)
        _letter(img, origin, cell, centre, marker[1], color, 0.18)
    elif marker == "!":  # a ritual site: a five-pointed star where the routes meet
        centre = np.array([0.5, 0.5]) + jitter
        if has_route:
            _backing(img, origin, cell, centre, 0.16)
        angles = -np.pi / 2 + np.arange(10) * np.pi / 5
        radii = np.where(np.arange(10) % 2 == 0, 0.13, 0.055)
        star = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * radii[:, None]
        cv2.fillPoly(img, [_px(origin, cell, star)], color, cv2.LINE_AA, shift=_SHIFT)
    elif marker == "?":  # a clue: a magnifying glass
        centre = np.array([0.7, 0.7]) + jitter
        _circle(img, origin, cell, centre, 0.08, color, width)
        _lines(img, origin, cell, np.array([centre + 0.06, centre + 0.16]), color, width + 1)
    elif marker == "*":  # a street lamp: a dot with rays
        centre = np.array([0.3, 0.78]) + jitter
        _circle(img, origin, cell, centre, 0.045, color, -1)
        for a in np.arange(8) * np.pi / 4:
            d = np.array([np.cos(a), np.sin(a)])
            ray = np.array([centre + d * 0.07, centre + d * 0.12])
            _lines(img, origin, cell, ray, color, max(1, width - 1))
    elif marker == "#":  # the Accumulator: a battery with three charge circles
        box = np.array([[0.27, 0.32], [0.7, 0.32], [0.7, 0.68], [0.27, 0.68]]) + jitter
        _lines(img, origin, cell, box, color, width, closed=True)
        tip = np.array([[0.7, 0.43], [0.75, 0.43], [0.75, 0.57], [0.7, 0.57]]) + jitter
        cv2.fillPoly(img, [_px(origin, cell, tip)], color, cv2.LINE_AA, shift=_SHIFT)
        for k in range(3):
            _circle(
                img, origin, cell, np.array([0.36 + 0.125 * k, 0.5]) + jitter, 0.045, color, width
            )
