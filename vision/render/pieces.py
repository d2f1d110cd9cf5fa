"""Hand-drawn route pieces: draw any space token into one cell of the flat board image.

A piece is broken into *strokes*: paths in cell units (0..1, origin at the cell's top-left,
side midpoints N=(0.5,0), E=(1,0.5), S=(0.5,1), W=(0,0.5)), each tagged with its side kind.
``SIDE_DRAWERS`` maps a side kind ('H', 'R', later expansion kinds) to the function that inks
a path in that kind's style, so expansion drawings can register their own drawers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from scoring.sides import LAKE, RIVER
from scoring.space import Piece

from .marks import draw_lake, draw_marker
from .style import Color, InkStyle
from .tokens import markers, read_token

SHIFT = 4  # sub-pixel bits for cv2 drawing
_SCALE = 1 << SHIFT
MIDPOINTS = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
CENTRE = np.array([0.5, 0.5])
_AXES = (("N", "S"), ("E", "W"))


@dataclass
class Stroke:
    """One path of a piece, in cell units; ``open_ends`` marks which ends touch a side."""

    kind: str
    path: np.ndarray  # (n, 2) float
    open_ends: tuple[bool, bool] = (True, True)


class Habits(Protocol):
    """A hand's way of drawing (habits.StrokeHabits): how pieces sit and how lines go."""

    turn_sd: float
    shift_sd: float
    legs: float

    def stroke(self, pen: Pen, px: np.ndarray, width: float) -> None: ...


@dataclass
class Pen:
    """Everything a drawer needs: target image, cell geometry, colour, style and rng."""

    img: np.ndarray
    origin: np.ndarray  # (2,) pixel position of the cell's top-left corner
    cell: float  # cell side in pixels
    color: Color
    style: InkStyle
    rng: np.random.Generator
    paper: Color = (240, 240, 240)  # the space's background, for outlined station squares
    habits: Habits | None = None  # a shaky hand, worn or faint ink (phone profile)

    def to_px(self, path: np.ndarray) -> np.ndarray:
        return self.origin + path * self.cell

    def width(self, cells: float) -> int:
        return max(1, int(round(cells * self.cell)))

    def line(self, px: np.ndarray, width: int, cells: float) -> None:
        """Ink one line along ``px`` (pixels): ``width`` px wide, or, with habits, about
        ``cells`` wide as the hand and pen draw it."""
        if self.habits is None:
            polyline(self.img, px, self.color, width)
        else:
            self.habits.stroke(self, px, cells * self.cell)


# --- geometry helpers -------------------------------------------------------------------


def _line(
    a: tuple[float, float] | np.ndarray, b: tuple[float, float] | np.ndarray, n: int = 16
) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    return (1 - t) * np.asarray(a, float) + t * np.asarray(b, float)


def _arc(a: str, b: str, n: int = 24) -> np.ndarray:
    """Quarter arc of radius 0.5 round the corner shared by adjacent sides a and b."""
    pa, pb = np.array(MIDPOINTS[a]), np.array(MIDPOINTS[b])
    corner = np.array(
        [pa[0] if pa[0] in (0.0, 1.0) else pb[0], pa[1] if pa[1] in (0.0, 1.0) else pb[1]]
    )
    ang_a = np.arctan2(*(pa - corner)[::-1])
    ang_b = np.arctan2(*(pb - corner)[::-1])
    diff = (ang_b - ang_a + np.pi) % (2 * np.pi) - np.pi
    t = ang_a + np.linspace(0, diff, n)
    return corner + 0.5 * np.stack([np.cos(t), np.sin(t)], axis=1)


def _rounded_l(a: str, b: str, radius: float, n: int = 24) -> np.ndarray:
    """Side a -> near the centre -> side b, with a rounded corner of the given radius."""
    pa, pb = np.array(MIDPOINTS[a]), np.array(MIDPOINTS[b])
    da, db = (CENTRE - pa) / 0.5, (pb - CENTRE) / 0.5  # unit directions
    start_turn = CENTRE - da * radius
    end_turn = CENTRE + db * radius
    t = np.linspace(0, 1, n // 2)[:, None]
    # quadratic Bezier through the centre as control point: a smooth rounded corner
    bez = (1 - t) ** 2 * start_turn + 2 * (1 - t) * t * CENTRE + t**2 * end_turn
    return np.concatenate([_line(pa, start_turn, n // 4), bez[1:], _line(end_turn, pb, n // 4)[1:]])


def _normals(path: np.ndarray) -> np.ndarray:
    """Unit normals of a polyline (central differences)."""
    tangent = np.empty_like(path)
    tangent[1:-1] = path[2:] - path[:-2]
    tangent[0] = path[1] - path[0]
    tangent[-1] = path[-1] - path[-2]
    norm = np.hypot(tangent[:, 0], tangent[:, 1]) + 1e-9
    return np.column_stack([-tangent[:, 1] / norm, tangent[:, 0] / norm])


def _arc_length(path: np.ndarray) -> np.ndarray:
    step = np.diff(path, axis=0)
    length = np.zeros(len(path))
    np.cumsum(np.hypot(step[:, 0], step[:, 1]), out=length[1:])
    return length


def _resample(path: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Points at arc lengths ``s`` along ``path``."""
    length = _arc_length(path)
    return np.column_stack([np.interp(s, length, path[:, 0]), np.interp(s, length, path[:, 1])])


def freehand(stroke: Stroke, style: InkStyle, rng: np.random.Generator) -> np.ndarray:
    """Add overshoot/undershoot at the open ends and a low-frequency wobble."""
    path = stroke.path.copy()
    for end, is_open in ((0, stroke.open_ends[0]), (-1, stroke.open_ends[1])):
        if is_open:
            direction = path[end] - path[1 if end == 0 else -2]
            direction /= np.hypot(*direction) + 1e-9
            path[end] += direction * rng.uniform(-style.end_error, style.end_error * 0.8)
    if style.wobble > 0:
        s = _arc_length(path)
        phase = 2 * np.pi * s / (s[-1] + 1e-9)
        freq, amp, shift = (
            rng.uniform(0.5, 2.5, 2),
            rng.uniform(0.3, 1.0, 2),
            rng.uniform(0, 6.3, 2),
        )
        offset = amp[0] * np.sin(freq[0] * phase + shift[0]) + amp[1] * np.sin(
            freq[1] * phase + shift[1]
        )
        path += _normals(path) * (offset * style.wobble * 0.6)[:, None]
    return path


# --- primitive inking -------------------------------------------------------------------


def polylines(img: np.ndarray, paths, color: Color, width: int, closed: bool = False) -> None:
    """Ink pixel-space ``paths`` (each (n, 2) float) anti-aliased, at sub-pixel precision."""
    points = [np.round(path * _SCALE).astype(np.int32) for path in paths]
    cv2.polylines(img, points, closed, color, thickness=width, lineType=cv2.LINE_AA, shift=SHIFT)


def polyline(
    img: np.ndarray, pts: np.ndarray, color: Color, width: int, closed: bool = False
) -> None:
    polylines(img, [pts], color, width, closed)


def _ties(pen: Pen, path_px: np.ndarray, half_length: float, spacing: float, width: int) -> None:
    length = _arc_length(path_px)[-1]
    step = spacing * pen.cell
    if length < step * 0.6:
        return
    count = max(1, int(length / step))
    s = (np.arange(count) + 0.5) * (length / count) + pen.rng.normal(0, 0.05 * step, count)
    s = np.minimum(np.maximum(s, 0.0), length)
    centres = _resample(path_px, s)
    ahead = _resample(path_px, np.minimum(s + 0.5, length)) - _resample(
        path_px, np.maximum(s - 0.5, 0)
    )
    ahead /= np.linalg.norm(ahead, axis=1, keepdims=True) + 1e-9
    normals = np.stack([-ahead[:, 1], ahead[:, 0]], axis=1)
    normals += pen.rng.normal(0, 0.12, (count, 1)) * ahead  # ties not quite square
    half = half_length * pen.cell * pen.rng.uniform(0.8, 1.15, (count, 1))
    segments = np.stack([centres - normals * half, centres + normals * half], axis=1)
    polylines(pen.img, segments, pen.color, width)


def _dashes(pen: Pen, path_px: np.ndarray, dash: float, gap: float, width: int) -> None:
    length = _arc_length(path_px)[-1]
    period = (dash + gap) * pen.cell
    starts = np.arange(pen.rng.uniform(0, period), length, period)
    if len(starts) == 0:
        return
    t = np.linspace(0.0, 1.0, 4)[None, :]
    ends = np.minimum(starts + dash * pen.cell, length)
    s = starts[:, None] + (ends - starts)[:, None] * t
    pts = _resample(path_px, s.ravel()).reshape(len(starts), 4, 2)
    polylines(pen.img, pts, pen.color, width)


def draw_highway(pen: Pen, path: np.ndarray) -> None:
    """Highway: one thick stroke, or two parallel lines, maybe with a dashed centre line."""
    px = pen.to_px(path)
    style = pen.style.highway_style
    thin = pen.width(pen.style.line_width)
    if style.startswith("thick"):
        width = pen.width(pen.style.highway_width)
        pen.line(px, width, pen.style.highway_width)
        if style == "thick_dashed" and width >= 5:  # a road: light dashes down the middle
            saved, pen.color = pen.color, pen.paper
            _dashes(pen, px, 0.07, 0.07, max(1, width // 4))
            pen.color = saved
        return
    half = pen.style.highway_width * 0.55 * pen.cell
    normals = _normals(px)
    pen.line(px + normals * half, thin, pen.style.line_width)
    pen.line(px - normals * half, thin, pen.style.line_width)
    if style == "double_dashed":
        _dashes(pen, px, 0.07, 0.06, max(1, thin - 1))


def draw_railway(pen: Pen, path: np.ndarray) -> None:
    """Railway: a thin line with cross ties, or a ladder of two rails with ties."""
    px = pen.to_px(path)
    thin = pen.width(pen.style.line_width)
    tie_width = max(1, int(round(thin * 0.8)))
    if pen.style.railway_style == "ladder":
        half = pen.style.rail_gap * 0.5 * pen.cell
        normals = _normals(px)
        pen.line(px + normals * half, thin, pen.style.line_width)
        pen.line(px - normals * half, thin, pen.style.line_width)
        _ties(pen, px, pen.style.rail_gap * 0.5 + 0.03, pen.style.tie_spacing, tie_width)
        return
    pen.line(px, thin, pen.style.line_width)
    spacing = pen.style.tie_spacing * (1.6 if pen.style.railway_style == "ties_sparse" else 1.0)
    _ties(pen, px, pen.style.tie_length * 0.5, spacing, tie_width)


def draw_river(pen: Pen, path: np.ndarray) -> None:
    """River (River expansion): a wavy line, or two wavy banks; often in blue."""
    px = pen.to_px(path)
    length = _arc_length(px)
    phase = 2 * np.pi * length / pen.cell * pen.rng.uniform(2.0, 3.5) + pen.rng.uniform(0, 6.3)
    wave = np.sin(phase) * pen.rng.uniform(0.03, 0.06) * pen.cell
    wave *= np.minimum(1.0, np.minimum(length, length[-1] - length) / (0.1 * pen.cell) + 0.2)
    normals = _normals(px)
    color = pen.style.river_color or pen.color
    thin = pen.width(pen.style.line_width)
    if pen.style.river_style == "banks":
        half = pen.style.highway_width * 0.5 * pen.cell
        polyline(pen.img, px + normals * (wave + half)[:, None], color, thin)
        polyline(pen.img, px + normals * (wave - half)[:, None], color, thin)
    else:
        polyline(pen.img, px + normals * wave[:, None], color, max(thin, pen.width(0.05)))


# Side kind -> drawer; expansions register theirs here ("L" lake sides are areas, see marks.py).
SIDE_DRAWERS: dict[str, Callable[[Pen, np.ndarray], None]] = {
    "H": draw_highway,
    "R": draw_railway,
    "W": draw_river,
}


def _half_width(style: InkStyle, kind: str) -> float:
    """Half the drawn width of a route of this kind, in cells."""
    if kind in ("H", "W"):
        return style.highway_width * (0.5 if style.highway_style.startswith("thick") else 0.55)
    if style.railway_style == "ladder":
        return style.rail_gap * 0.5 + 0.03
    return style.tie_length * 0.5


# --- pieces -> strokes ------------------------------------------------------------------


def _stroke_ends(piece: Piece) -> dict[str, str]:
    """Side name -> kind for the ends of ``piece`` drawn as strokes (lake sides are areas)."""
    return {side.name: kind for side, kind in piece.ends() if kind != LAKE}


def _is_station(kinds) -> bool:
    """Highway and railway ends joined in one piece."""
    return {"H", "R"} <= set(kinds)


def _legs(a: str, b: str, rng: np.random.Generator) -> np.ndarray:
    """A curve drawn as two straight legs: side a -> a knee between the centre and the corner
    the curve turns round -> side b."""
    pa, pb = np.array(MIDPOINTS[a]), np.array(MIDPOINTS[b])
    corner = np.array(
        [pa[0] if pa[0] in (0.0, 1.0) else pb[0], pa[1] if pa[1] in (0.0, 1.0) else pb[1]]
    )
    knee = CENTRE + (corner - CENTRE) * rng.uniform(0.0, 0.45) + rng.normal(0, 0.02, 2)
    return np.concatenate([_line(pa, knee, 12), _line(knee, pb, 12)[1:]])


def piece_strokes(
    ends: dict[str, str], style: InkStyle, rng: np.random.Generator, legs: float = 0.0
) -> list[Stroke]:
    """Break one piece (its ``ends``: side -> kind) into strokes in cell units, following
    board-spec section 2; ``legs``: the share of curves drawn as two straight legs."""
    present = list(ends)
    if not present:
        return []
    strokes: list[Stroke] = []
    done: set[str] = set()
    # straight pairs of the same kind go through the centre
    for a, b in _AXES:
        if a in ends and b in ends and ends[a] == ends[b]:
            strokes.append(Stroke(ends[a], _line(MIDPOINTS[a], MIDPOINTS[b], 24)))
            done |= {a, b}
    rest = [s for s in present if s not in done]
    if len(present) == 2 and len(rest) == 2 and ends[rest[0]] == ends[rest[1]]:
        a, b = rest  # a same-kind curve
        if legs > 0 and rng.random() < legs:
            return [Stroke(ends[a], _legs(a, b, rng))]
        curve = style.curve_style
        if curve == "mixed":
            curve = "arc" if rng.random() < 0.5 else "rounded_l"
        path = _arc(a, b) if curve == "arc" else _rounded_l(a, b, rng.uniform(0.12, 0.3))
        return [Stroke(ends[a], path)]
    through = [stroke.kind for stroke in strokes]  # straight routes across the centre
    station = _is_station(ends.values())
    for s in rest:  # spokes: branches of a T, station arms, dead ends
        mid = np.array(MIDPOINTS[s])
        if len(present) == 1:  # a dead end stops somewhere near the centre
            end = CENTRE + (CENTRE - mid) * rng.uniform(-0.3, 0.2)
        elif through and not station:  # a T's branch meets the side of the road
            end = CENTRE + (mid - CENTRE) * (_half_width(style, through[0]) / 0.5)
        else:
            end = CENTRE
        strokes.append(Stroke(ends[s], _line(mid, end, 12), (True, False)))
    return strokes


def _crossing_strokes(
    ends: dict[str, str],
    style: InkStyle,
    rng: np.random.Generator,
    over_axis: tuple[str, str] | None = None,
) -> list[Stroke]:
    """One straight route across, the other with a gap on both sides of it (an overpass, a
    bridge). ``over_axis`` None: the highway usually goes over, some players draw the railway
    on top."""
    if over_axis is None:
        over_axis = _AXES[0]
        for axis in _AXES:
            if any(ends.get(s) == "H" for s in axis):
                over_axis = axis
        if rng.random() < 0.35:
            over_axis = _AXES[1] if over_axis == _AXES[0] else _AXES[0]
    under_axis = _AXES[1] if over_axis == _AXES[0] else _AXES[0]
    strokes = []
    over_kind = next((ends[s] for s in over_axis if s in ends), "H")
    if all(s in ends for s in over_axis):
        strokes.append(
            Stroke(over_kind, _line(MIDPOINTS[over_axis[0]], MIDPOINTS[over_axis[1]], 24))
        )
    else:
        strokes += [
            Stroke(ends[s], _line(MIDPOINTS[s], CENTRE, 12), (True, False))
            for s in over_axis
            if s in ends
        ]
    gap = _half_width(style, over_kind) + rng.uniform(0.04, 0.09)
    for s in under_axis:
        if s in ends:
            mid = np.array(MIDPOINTS[s])
            end = CENTRE + (mid - CENTRE) * (gap / 0.5)
            strokes.append(Stroke(ends[s], _line(mid, end, 10), (True, False)))
    return strokes


def _station_square(pen: Pen) -> None:
    """A small filled or outlined square at the centre, where highway meets railway."""
    # big enough to stand out from the strokes it sits on
    size = max(pen.style.station_size, 2 * _half_width(pen.style, "H") + 0.1)
    size = min(size, 0.45) * pen.rng.uniform(0.92, 1.08)
    angle = pen.rng.normal(0, 0.12)
    c, s = np.cos(angle), np.sin(angle)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * size / 2
    square = square @ np.array([[c, -s], [s, c]]).T + CENTRE + pen.rng.normal(0, 0.015, 2)
    square = square + pen.rng.normal(0, pen.style.wobble * 0.2, square.shape)
    px = np.round(pen.to_px(square) * _SCALE).astype(np.int32)
    fill = pen.style.station_fill
    if fill == "mixed":
        fill = "filled" if pen.rng.random() < 0.5 else "outlined"
    filled = fill == "filled"
    cv2.fillPoly(
        pen.img, [px], pen.color if filled else pen.paper, lineType=cv2.LINE_AA, shift=SHIFT
    )
    if not filled:
        outline = pen.width(pen.style.line_width * 1.2)
        cv2.polylines(pen.img, [px], True, pen.color, outline, lineType=cv2.LINE_AA, shift=SHIFT)


def _axis(piece: Piece) -> tuple[str, str] | None:
    """The axis a piece of one stroke kind lies on (both ends or one), else None."""
    ends = _stroke_ends(piece)
    if len(set(ends.values())) != 1 or LAKE in piece.kinds:
        return None
    return next((axis for axis in _AXES if set(ends) <= set(axis)), None)


def _crossing(pieces: tuple[Piece, ...]) -> tuple[tuple[str, str] | None, dict[str, str]] | None:
    """For two pieces across each other (an overpass, a bridge, a highway over a highway): the
    axis of the one on top (None: a highway and a railway, drawn either way) and all their
    ends. None for any other drawing."""
    if len(pieces) != 2:
        return None
    axes = [_axis(piece) for piece in pieces]
    if None in axes or axes[0] == axes[1]:
        return None
    kinds = [next(iter(_stroke_ends(piece).values())) for piece in pieces]
    ends = {s: k for piece in pieces for s, k in _stroke_ends(piece).items()}
    if set(kinds) == {"H", "R"}:
        return None, ends
    over = 1 if kinds[0] == RIVER != kinds[1] else 0  # a bridge carries the route over
    return axes[over], ends


def draw_piece(pen: Pen, token: str) -> None:
    """Ink one space token (any notation: base, odd or expansion) into the pen's cell."""
    space = read_token(token)
    # the whole drawing sits a little off: small turn about the centre and shift
    habits = pen.habits
    angle = pen.rng.normal(0, 0.035 if habits is None else habits.turn_sd)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shift = pen.rng.normal(0, 0.012 if habits is None else habits.shift_sd, 2)
    legs = 0.0 if habits is None else habits.legs
    crossing = _crossing(space.pieces)
    strokes: list[Stroke] = []
    if crossing is not None:
        over_axis, ends = crossing
        strokes = _crossing_strokes(ends, pen.style, pen.rng, over_axis)
    else:
        for piece in space.pieces:
            lake = "".join(side.name for side, kind in piece.ends() if kind == LAKE)
            if lake:
                draw_lake(
                    pen.img,
                    pen.origin,
                    pen.cell,
                    lake,
                    pen.color,
                    pen.rng,
                    pen.style.lake_style == "hatched",
                )
            strokes += piece_strokes(_stroke_ends(piece), pen.style, pen.rng, legs)
    for stroke in strokes:
        stroke.path = (stroke.path - CENTRE) @ turn.T + CENTRE + shift
        drawer = SIDE_DRAWERS[stroke.kind]
        drawer(pen, freehand(stroke, pen.style, pen.rng))
        if pen.rng.random() < pen.style.double_stroke:
            again = Stroke(stroke.kind, stroke.path + pen.rng.normal(0, 0.015, 2), stroke.open_ends)
            drawer(pen, freehand(again, pen.style, pen.rng))
    for piece in space.pieces:
        if _is_station(piece.kinds):
            _station_square(pen)
    for marker in markers(space):
        draw_marker(
            pen.img,
            pen.origin,
            pen.cell,
            marker,
            pen.color,
            pen.rng,
            has_route=bool(space.pieces),
        )
