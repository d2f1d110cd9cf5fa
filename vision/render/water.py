"""A Deep Blue board's water on the flat board: lake areas over the whole lattice first, then
space by space the rivers, bridges and piers (``draw_grid``'s space drawer).

    painter = WaterPainter(grid, style, ink, (board_style.box_corner, board_style.box_size), rng)
    painter.draw_lakes(board)                            # before the routes
    draw_grid(..., space_drawer=painter.draw_space)      # True where it drew the space

Spaces without a river or lake side are left to ``pieces.draw_piece``, as on any board.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.sides import LAKE, RIVER, ROUTE_KINDS
from scoring.space import Piece

from .board_art import FlatBoard
from .lakes import Lakes, draw_lakes
from .marks import draw_marker
from .pieces import (
    CENTRE,
    MIDPOINTS,
    SHIFT,
    SIDE_DRAWERS,
    Pen,
    Stroke,
    freehand,
    piece_strokes,
    polyline,
)
from .rivers import draw_river
from .style import BoardStyle, Color, InkStyle
from .tokens import markers, read_token
from .water_games import EXPANSIONS, is_water
from .water_style import WaterStyle, sample_water_style

_AXES = (("N", "S"), ("E", "W"))


def _route_half_width(style: InkStyle, kind: str) -> float:
    """Half the drawn width of a highway or railway, in cells."""
    if kind == "H":
        return style.highway_width * (0.5 if style.highway_style.startswith("thick") else 0.55)
    if style.railway_style == "ladder":
        return style.rail_gap * 0.5 + 0.03
    return style.tie_length * 0.5


def _straight_axis(piece: Piece) -> tuple[str, str] | None:
    ends = {side.name for side, _ in piece.ends()}
    return next((axis for axis in _AXES if ends == set(axis)), None)


def _line(a, b, n: int = 24) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) * np.asarray(a, float) + t * np.asarray(b, float)


class WaterPainter:
    """Draws rivers, lakes, bridges and piers of one grid in one player's water style."""

    def __init__(
        self,
        grid: list[list[str]],
        style: WaterStyle,
        ink: InkStyle,
        box: tuple[str, float] | None,
        rng: np.random.Generator,
    ) -> None:
        """``box``: the round-number box (its corner and side in spaces) a fill may leave."""
        self.grid = grid
        self.style = style
        self.ink = ink
        self.box = box
        self.lakes = Lakes(grid, style, rng)
        self.rng = rng

    def color(self, pen_color: Color) -> Color:
        return self.style.color or pen_color

    def draw_lakes(self, board: FlatBoard) -> None:
        """Every lake area, before the routes (piers are drawn over the water)."""
        width = max(1, int(round(self.style.river_width * board.cell)))
        color = self.color(self.ink.colors[0])
        draw_lakes(board, self.lakes, color, width, self.ink.opacity, self.box, self.rng)

    def draw_space(self, pen: Pen, row: int, col: int) -> bool:
        """Ink the rivers, bridges and piers of a water space; False for any other space."""
        token = self.grid[row][col]
        if not is_water(token):
            return False
        space = read_token(token)
        pieces = space.pieces
        if len(pieces) == 2 and not any(p.has_kind(LAKE) for p in pieces):
            axes = [_straight_axis(p) for p in pieces]
            if None not in axes and axes[0] != axes[1]:
                self._crossing(pen, pieces)
                pieces = ()
        for piece in pieces:
            if piece.has_kind(LAKE):
                self._pier(pen, row, col, piece)
            else:
                self._strokes(pen, piece)
        for marker in markers(space):
            draw_marker(pen.img, pen.origin, pen.cell, marker, pen.color, pen.rng, True)
        return True

    # --- pieces ----------------------------------------------------------------------------

    def _route(self, pen: Pen, kind: str, path: np.ndarray, open_ends=(True, True)) -> None:
        """A highway, railway or river stroke along ``path`` (cells), freehand."""
        drawn = freehand(Stroke(kind, path, open_ends), pen.style, pen.rng)
        if kind == RIVER:
            draw_river(pen, drawn, self.style, self.color(pen.color))
        else:
            SIDE_DRAWERS[kind](pen, drawn)

    def _strokes(self, pen: Pen, piece: Piece) -> None:
        """A piece without lake sides (a river, or an odd drawing) stroke by stroke."""
        ends = {side.name: kind for side, kind in piece.ends()}
        for stroke in piece_strokes(ends, pen.style, pen.rng):
            self._route(pen, stroke.kind, stroke.path, stroke.open_ends)
        if {"H", "R"} <= set(ends.values()):
            self._square(pen, CENTRE)

    def _crossing(self, pen: Pen, pieces: tuple[Piece, ...]) -> None:
        """Two straight pieces across each other: a bridge carries the route over the river
        (a river over a river: the second passes under)."""
        under, over = sorted(pieces, key=lambda p: not p.has_kind(RIVER))
        kind = next(k for _, k in over.ends())
        under_axis, over_axis = _straight_axis(under), _straight_axis(over)
        half = _route_half_width(pen.style, kind) if kind in ROUTE_KINDS else 0.1
        river = _line(MIDPOINTS[under_axis[0]], MIDPOINTS[under_axis[1]], 40)
        gap = None
        if self.style.bridge_gap or kind == RIVER:
            margin = pen.rng.uniform(0.03, 0.08)
            gap = (0.5 - half - margin, 0.5 + half + margin)
        draw_river(pen, river, self.style, self.color(pen.color), gap)
        if kind == RIVER:
            self._route(pen, RIVER, _line(MIDPOINTS[over_axis[0]], MIDPOINTS[over_axis[1]]))
            return
        self._route(pen, kind, _line(MIDPOINTS[over_axis[0]], MIDPOINTS[over_axis[1]]))
        if self.style.bridge_rails:
            self._rails(pen, over_axis, half)

    def _rails(self, pen: Pen, axis: tuple[str, str], half: float) -> None:
        """Bridge parapets: a short line on each side of the route over the river, flared."""
        along = np.subtract(MIDPOINTS[axis[1]], MIDPOINTS[axis[0]])
        across = np.array([-along[1], along[0]])
        span = (self.style.bank_gap if self.style.river == "banks" else 0.1) * 0.5 + 0.07
        width = pen.width(pen.style.line_width)
        for sign in (-1, 1):
            offset = CENTRE + across * sign * (half + pen.rng.uniform(0.03, 0.06))
            a, b = offset - along * span, offset + along * span
            flare = across * sign * 0.05
            path = np.array([a - along * 0.04 + flare, a, b, b + along * 0.04 + flare])
            polyline(
                pen.img, pen.to_px(path + pen.rng.normal(0, 0.006, path.shape)), pen.color, width
            )

    def _pier(self, pen: Pen, row: int, col: int, piece: Piece) -> None:
        """Route (or river) ends of a lake piece run out to the water: one ends in the lake
        (a jetty: bar, square or plain end), several meet at a pier square on the shore."""
        ends = {side.name: kind for side, kind in piece.ends() if kind != LAKE}
        if not ends:
            return  # water only: drawn with the lake areas
        lake = [side.name for side, kind in piece.ends() if kind == LAKE]
        lake_mid = np.mean([MIDPOINTS[s] for s in lake], axis=0)
        rng = pen.rng
        if len(ends) == 1:
            ((side, kind),) = ends.items()
            start = np.array(MIDPOINTS[side])
            far = 2 * CENTRE - start
            shore = self.lakes.shore(row, col, start, far)
            stop = CENTRE if shore is None else shore
            direction = (far - start) / np.linalg.norm(far - start)
            stop = stop + direction * rng.uniform(0.03, 0.1)
            self._route(pen, kind, _line(start, stop, 16), (True, False))
            self._pier_end(pen, stop, direction)
            return
        end_mid = np.mean([MIDPOINTS[s] for s in ends], axis=0)
        shore = self.lakes.shore(row, col, end_mid, lake_mid)
        junction = CENTRE if shore is None else shore - (lake_mid - end_mid) * 0.12
        junction = junction + rng.normal(0, 0.01, 2)
        for side, kind in ends.items():
            self._route(pen, kind, _line(MIDPOINTS[side], junction, 16), (True, False))
        self._square(pen, junction)

    def _pier_end(self, pen: Pen, at: np.ndarray, direction: np.ndarray) -> None:
        kind = self.style.pier_end
        if kind == "bar":
            across = np.array([-direction[1], direction[0]]) * pen.rng.uniform(0.07, 0.11)
            path = np.array([at - across, at + across]) + pen.rng.normal(0, 0.005, (2, 2))
            polyline(pen.img, pen.to_px(path), pen.color, pen.width(pen.style.line_width * 1.2))
        elif kind == "square":
            self._square(pen, at, 0.11)

    def _square(self, pen: Pen, at: np.ndarray, size: float | None = None) -> None:
        """A small square (filled or outlined, as the player draws stations) at ``at``."""
        size = (size or min(max(pen.style.station_size, 0.14), 0.3)) * pen.rng.uniform(0.9, 1.1)
        angle = pen.rng.normal(0, 0.1)
        c, s = np.cos(angle), np.sin(angle)
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2
        square = square @ np.array([[c, -s], [s, c]]).T + at
        px = np.round(pen.to_px(square) * (1 << SHIFT)).astype(np.int32)
        filled = pen.style.station_fill == "filled" or (
            pen.style.station_fill == "mixed" and pen.rng.random() < 0.5
        )
        cv2.fillPoly(pen.img, [px], pen.color if filled else pen.paper, cv2.LINE_AA, shift=SHIFT)
        if not filled:
            width = pen.width(pen.style.line_width * 1.2)
            cv2.polylines(pen.img, [px], True, pen.color, width, cv2.LINE_AA, shift=SHIFT)



def water_painter(
    grid: list[list[str]],
    expansions: tuple[str, ...],
    seed: int,
    ink: InkStyle,
    board_style: BoardStyle,
) -> WaterPainter | None:
    """The painter of a photo played with ``expansions`` (None for a base-game photo): its
    water style from sub-seed 10 of the photo seed, its drawing from sub-seed 11, so the rest
    of the photo draws as before."""
    unknown = [name for name in expansions if name not in EXPANSIONS]
    if unknown:
        raise ValueError(f"cannot draw expansion {unknown[0]!r}: expected river and/or lake")
    if not expansions:
        return None
    style = sample_water_style(np.random.default_rng([seed, 10]), ink)
    box = (board_style.box_corner, board_style.box_size)
    return WaterPainter(grid, style, ink, box, np.random.default_rng([seed, 11]))
