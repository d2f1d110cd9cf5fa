"""Lake areas (Lake expansion): where the water lies in each space, and how a player inks it.

The water of a space is a field over the cell (cell units, 0..1 from the top-left corner):
below 1 is water. Each lake side carries water in from that side to a depth that tapers off
towards a corner (so the water touches the side and no other), unless the next side of the
same piece is a lake side too (the corner fills). A full space is all water. A smooth noise
shared by the whole lattice makes the shoreline wobble, and since the water of a lake side
reaches that whole side, two spaces whose lake sides meet form one area with no line between.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scoring.sides import LAKE, Side

from .board_art import FlatBoard
from .style import Color
from .tokens import read_token
from .water_style import WaterStyle

_SOFT = 0.12  # soft-min width: rounds the inner corner of two lake sides
_ENDS = {"N": ("W", "E"), "S": ("W", "E"), "W": ("N", "S"), "E": ("N", "S")}


@dataclass(frozen=True)
class WaterPiece:
    """The water of one piece of a space: its lake sides and how deep each reaches."""

    sides: str  # lake sides, a subset of "NESW"
    depths: tuple[float, ...]  # per lake side, in cells


def _side_geometry(side: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance from the side, position along it from its first end in _ENDS)."""
    if side == "N":
        return y, x
    if side == "S":
        return 1 - y, x
    if side == "W":
        return x, y
    return 1 - x, y


def _taper(u: np.ndarray, length: float) -> np.ndarray:
    """1 away from a corner, falling to 0 at it along a quarter ellipse of ``length``."""
    v = 1 - np.clip(u / length, 0, 1)
    return np.sqrt(1 - v * v)


def piece_field(piece: WaterPiece, taper: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The water field of one piece at cell points (x, y): below 1 is water."""
    if len(piece.sides) == 4:
        return np.zeros_like(x)
    ratios = []
    for side, depth in zip(piece.sides, piece.depths, strict=True):
        dist, along = _side_geometry(side, x, y)
        first, last = _ENDS[side]
        length = max(taper, 0.8 * depth)  # deep water keeps clear of the next side's middle
        reach = depth * (1.0 if first in piece.sides else _taper(along, length))
        reach = reach * (1.0 if last in piece.sides else _taper(1 - along, length))
        ratios.append(dist / np.maximum(reach, 1e-4))
    stack = np.minimum(np.stack(ratios), 50.0)
    low = stack.min(axis=0)
    return low - _SOFT * np.log(np.exp(-(stack - low) / _SOFT).sum(axis=0))


def water_pieces(token: str, style: WaterStyle, rng: np.random.Generator) -> list[WaterPiece]:
    """The water pieces of a space token with their depths (a few random choices)."""
    found = []
    for piece in read_token(token).pieces:
        lake = "".join(side.name for side, kind in piece.ends() if kind == LAKE)
        if not lake:
            continue
        routes = any(kind != LAKE for _, kind in piece.ends())
        scale = style.depth * rng.uniform(0.85, 1.15)
        depths = []
        for side in lake:
            depth = scale * (1.2 if len(lake) == 2 else 1.0)
            if len(lake) == 3 and Side[side].opposite.name not in lake:
                depth = min(0.75, scale * 1.5)  # the middle one of three sides
            if routes:
                depth = min(depth, 0.4)  # leave the pier room
            if len(lake) == 2 and Side[side].opposite.name in lake:
                depth = min(depth, 0.42)  # opposite sides stay apart
            depths.append(float(depth))
        found.append(WaterPiece(lake, tuple(depths)))
    return found


class ShoreNoise:
    """A smooth random field over the lattice (cell units), about -1..1."""

    def __init__(self, rng: np.random.Generator) -> None:
        angles = rng.uniform(0, 2 * np.pi, 3)
        freqs = 2 * np.pi / rng.uniform(0.35, 0.9, 3)
        self._k = np.stack([np.cos(angles), np.sin(angles)], axis=1) * freqs[:, None]
        self._phase = rng.uniform(0, 2 * np.pi, 3)
        self._amp = rng.dirichlet(np.ones(3)) * 1.4

    def __call__(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        total = np.zeros_like(x)
        for (kx, ky), phase, amp in zip(self._k, self._phase, self._amp, strict=True):
            total += amp * np.sin(kx * x + ky * y + phase)
        return np.clip(total, -1, 1)


class Lakes:
    """The water of every space of a grid: field values anywhere on the lattice."""

    def __init__(self, grid: list[list[str]], style: WaterStyle, rng: np.random.Generator):
        self.style = style
        self.noise = ShoreNoise(rng)
        self.pieces: dict[tuple[int, int], list[WaterPiece]] = {}
        for r in range(7):
            for c in range(7):
                found = water_pieces(grid[r][c], style, rng)
                if found:
                    self.pieces[r, c] = found

    def field(self, row: int, col: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The field at points (x, y) in cell units of space (row, col): below 1 is water."""
        pieces = self.pieces.get((row, col))
        if not pieces:
            return np.full(np.shape(x), 3.0)
        low = np.min([piece_field(p, self.style.taper, x, y) for p in pieces], axis=0)
        return low + self.style.shore_wobble * self.noise(x + col, y + row)

    def shore(self, row: int, col: int, start, end, steps: int = 60) -> np.ndarray | None:
        """The first water point going from ``start`` to ``end`` (cell units), or None."""
        t = np.linspace(0, 1, steps)[:, None]
        pts = (1 - t) * np.asarray(start, float) + t * np.asarray(end, float)
        wet = np.nonzero(self.field(row, col, pts[:, 0], pts[:, 1]) < 1)[0]
        return pts[wet[0]] if len(wet) else None


def _lattice_field(board: FlatBoard, lakes: Lakes) -> tuple[np.ndarray, tuple[int, int]]:
    """The field over the pixels of the lake spaces' bounding box, and its top-left pixel."""
    rows = [r for r, _ in lakes.pieces]
    cols = [c for _, c in lakes.pieces]
    cell, (ox, oy) = board.cell, board.origin
    h, w = board.image.shape[:2]
    x0, y0 = max(0, int(ox + min(cols) * cell) - 3), max(0, int(oy + min(rows) * cell) - 3)
    x1 = min(w, int(np.ceil(ox + (max(cols) + 1) * cell)) + 3)
    y1 = min(h, int(np.ceil(oy + (max(rows) + 1) * cell)) + 3)
    xs = (np.arange(x0, x1) + 0.5 - ox) / cell
    ys = (np.arange(y0, y1) + 0.5 - oy) / cell
    field = np.full((y1 - y0, x1 - x0), 3.0, np.float32)
    for r, c in lakes.pieces:
        i0, i1 = np.searchsorted(ys, [r, r + 1])
        j0, j1 = np.searchsorted(xs, [c, c + 1])
        if i1 <= i0 or j1 <= j0:
            continue
        gx, gy = np.meshgrid(xs[j0:j1] - c, ys[i0:i1] - r)
        field[i0:i1, j0:j1] = lakes.field(r, c, gx, gy)
    return field, (x0, y0)


def _box_mask(
    shape, board: FlatBoard, lakes: Lakes, corner: str, size: float, top_left
) -> np.ndarray:
    """1 except in the round-number boxes of the lake spaces."""
    keep = np.ones(shape, np.float32)
    for r, c in lakes.pieces:
        origin = board.cell_origin(r, c) - np.asarray(top_left)
        box = size * board.cell
        bx = origin[0] + (0 if corner in ("tl", "bl") else board.cell - box)
        by = origin[1] + (0 if corner in ("tl", "tr") else board.cell - box)
        cv2.rectangle(keep, (int(bx), int(by)), (int(bx + box), int(by + box)), 0.0, -1)
    return keep


def _parallel_lines(img, angle: float, spacing: float, color, width: int, rng) -> None:
    """Lines across the whole image at ``angle`` degrees, ``spacing`` px apart, a little
    uneven (a hand hatching)."""
    h, w = img.shape[:2]
    a = np.deg2rad(angle)
    d = np.array([np.cos(a), np.sin(a)])
    n = np.array([-d[1], d[0]])
    centre = np.array([w / 2, h / 2])
    half = np.hypot(w, h) / 2 + spacing
    for k in np.arange(-half, half, spacing):
        offset = centre + n * (k + rng.normal(0, spacing * 0.08))
        turn = d + n * rng.normal(0, 0.02)
        p, q = offset - turn * half, offset + turn * half
        cv2.line(
            img,
            tuple(np.round(p * 16).astype(int)),
            tuple(np.round(q * 16).astype(int)),
            color,
            width,
            cv2.LINE_AA,
            shift=4,
        )


def _scatter(mask: np.ndarray, spacing: float, rng) -> np.ndarray:
    """Jittered grid points (x, y) px inside ``mask``."""
    h, w = mask.shape
    ys, xs = np.mgrid[spacing / 2 : h : spacing, spacing / 2 : w : spacing]
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    pts[:, 0] += (np.arange(len(pts)) // max(1, xs.shape[1]) % 2) * spacing / 2  # staggered rows
    pts += rng.normal(0, spacing * 0.15, pts.shape)
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    pts = pts[inside]
    return pts[mask[pts[:, 1].astype(int), pts[:, 0].astype(int)]]


def _wave_mark(img, centre, length: float, color, width: int, rng) -> None:
    """A small '~' wave mark."""
    t = np.linspace(-0.5, 0.5, 14)
    amp = length * rng.uniform(0.12, 0.2)
    pts = np.stack([centre[0] + t * length, centre[1] + amp * np.sin(2 * np.pi * t * 1.5)], axis=1)
    cv2.polylines(
        img, [np.round(pts * 16).astype(np.int32)], False, color, width, cv2.LINE_AA, shift=4
    )


def _paint(roi, alpha, style: WaterStyle, color: Color, cell: float, width: int, rng) -> np.ndarray:
    """The fill drawn over the whole ROI (to be kept where the water is) and its opacity."""
    paint = roi.copy()
    fill = style.lake_fill
    spacing = max(3.0, style.hatch_spacing * cell)
    inside = alpha > 0.5
    strength = 1.0
    if fill == "wash":
        paint[:] = color
        strength = style.fill_alpha * 0.75
    elif fill == "scribble":  # coloured in with a marker: overlapping strokes, streaky
        stroke = max(width + 1, int(spacing * 0.9))
        for shade in (0, 1):
            tone = tuple(int(np.clip(v + (18 if shade else -10), 0, 255)) for v in color)
            _parallel_lines(
                paint, style.hatch_angle + shade * rng.normal(0, 6), stroke * 0.8, tone, stroke, rng
            )
        strength = style.fill_alpha
    elif fill in ("hatched", "crosshatched"):
        thin = max(1, int(round(width * 0.7)))
        _parallel_lines(paint, style.hatch_angle, spacing, color, thin, rng)
        if fill == "crosshatched":
            _parallel_lines(paint, style.hatch_angle + 90, spacing * 1.3, color, thin, rng)
    elif fill == "dotted":
        radius = max(1, int(width * rng.uniform(0.6, 1.0)))
        for x, y in _scatter(inside, spacing * 1.3, rng):
            cv2.circle(paint, (int(x), int(y)), radius, color, -1, cv2.LINE_AA)
    elif fill == "waves":
        length = cell * rng.uniform(0.18, 0.28)
        for centre in _scatter(inside, max(spacing * 4.5, 0.32 * cell), rng):
            ends = (centre + [[-length / 2, 0], [length / 2, 0]]).astype(int)
            h, w = inside.shape
            if all(0 <= x < w and 0 <= y < h and inside[y, x] for x, y in ends):
                _wave_mark(paint, centre, length, color, width, rng)
    return paint, strength


def _on_lines(pts: np.ndarray, origin: np.ndarray, cell: float) -> np.ndarray:
    """Whether each contour point (board px) lies on a printed line of the lattice."""
    u = (pts - origin) / cell
    return (np.abs(u - np.round(u)) * cell < 2.0).any(axis=1)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of the runs of True in a cyclic sequence (start may wrap)."""
    n = len(flags)
    if flags.all():
        return [(0, n)]
    first = int(np.argmin(flags))  # a False: start scanning there
    runs, start = [], None
    for k in range(1, n + 1):
        i = (first + k) % n
        if flags[i] and start is None:
            start = i
        elif not flags[i] and start is not None:
            runs.append((start, (i - start) % n))
            start = None
    return runs


def _shore_paths(inside: np.ndarray, top_left, board: FlatBoard, closed: bool) -> list:
    """The shoreline as (polyline in board px, closed) pairs: the contour of the water,
    smoothed; without the stretches that run along a space's side unless ``closed``."""
    contours, _ = cv2.findContours(inside.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    window = max(3, int(board.cell * 0.03)) | 1
    kernel = np.ones(window) / window
    paths = []
    for contour in contours:
        pts = contour.reshape(-1, 2).astype(np.float64) + np.asarray(top_left) + 0.5
        n = len(pts)
        if n < 12:
            continue
        along = np.zeros(n, bool)  # long stretches on a lattice line (not crossings)
        for start, length in _runs(_on_lines(pts, board.origin, board.cell)):
            if length > max(4, 0.08 * board.cell):
                along[(start + np.arange(length)) % n] = True
        pad = np.concatenate([pts[-window:], pts, pts[:window]])
        smooth = np.stack([np.convolve(pad[:, k], kernel, "same") for k in (0, 1)], axis=1)
        smooth = smooth[window:-window]
        smooth[along] = pts[along]  # straight where it follows a side
        if closed or not along.any():
            paths.append((smooth[::2], True))
            continue
        for start, length in _runs(~along):
            if length > 4:
                paths.append((smooth[(start + np.arange(length)) % n][::2], False))
    return paths


def draw_lakes(
    board: FlatBoard,
    lakes: Lakes,
    color: Color,
    width_px: int,
    opacity: float,
    box: tuple[str, float] | None,
    rng: np.random.Generator,
) -> None:
    """Ink every lake area of ``lakes`` onto the board: fill, marks and shoreline."""
    if not lakes.pieces:
        return
    style = lakes.style
    field, (x0, y0) = _lattice_field(board, lakes)
    alpha = np.clip(0.5 + (1.0 - field) * 0.35 * board.cell, 0, 1).astype(np.float32)
    roi = board.image[y0 : y0 + field.shape[0], x0 : x0 + field.shape[1]]
    paint, strength = _paint(roi, alpha, style, color, board.cell, width_px, rng)
    fill_alpha = alpha * (strength * opacity)
    if style.avoid_box and box is not None:
        fill_alpha *= _box_mask(alpha.shape, board, lakes, box[0], box[1], (x0, y0))
    blended = roi * (1 - fill_alpha[..., None]) + paint * fill_alpha[..., None]
    roi[:] = np.clip(blended, 0, 255).astype(np.uint8)
    if style.shore == "none":
        return
    layer = roi.copy()
    for path, closed in _shore_paths(alpha > 0.5, (x0, y0), board, style.shore == "closed"):
        local = path - [x0, y0]
        local += rng.normal(0, 0.15, 2)
        cv2.polylines(
            layer,
            [np.round(local * 16).astype(np.int32)],
            closed,
            color,
            width_px,
            cv2.LINE_AA,
            shift=4,
        )
    cv2.addWeighted(layer, opacity, roi, 1 - opacity, 0, dst=roi)
