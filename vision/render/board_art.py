"""The printed board (board-spec section 1), drawn flat and straight-on.

The 7 x 7 lattice of tinted spaces inside a thicker frame, the Central Spaces, a white round
box in one corner of each space, the 12 Exit marks (RULINGS.md) and margin artwork: a
Special Routes panel above (the board's top), a score table below, a title and shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scoring.exits import EXITS
from scoring.sides import HIGHWAY, Side

from .pieces import Pen, draw_piece, polyline
from .style import BoardStyle, Color, InkStyle
from .tokens import SPECIAL_ROUTES

TITLES = ("RAILROAD INK", "Railroad Ink", "RAILROAD INK CHALLENGE", "ROUTES", "RAIL & ROAD")
EDITIONS = ("DEEP BLUE EDITION", "BLAZING RED", "LUSH GREEN", "SHINY YELLOW", "Player board", "")
SCORE_LABELS = ("EXITS", "HWY", "RAIL", "CENTRE", "ERR", "TOTAL")


@dataclass
class FlatBoard:
    """A flat board image and where its lattice lies in it."""

    image: np.ndarray  # BGR uint8
    origin: np.ndarray  # (2,) pixel (x, y) of the lattice's top-left corner
    cell: float  # space side in pixels
    special_boxes: list = field(default_factory=list)  # (top-left (2,), side px) per Special Route
    score_boxes: list = field(default_factory=list)  # (top-left (2,), bottom-right (2,))

    def lattice_corners(self) -> np.ndarray:
        """(4, 2) float32 corners of the 7x7 lattice: TL, TR, BR, BL."""
        x0, y0 = self.origin
        side = 7 * self.cell
        return np.array(
            [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32
        )

    def cell_origin(self, row: int, col: int) -> np.ndarray:
        return self.origin + np.array([col, row], float) * self.cell


def _printed_style(color: Color) -> InkStyle:
    """A clean 'printed' pen for the artwork icons."""
    return InkStyle(
        colors=[color],
        color_names=["print"],
        color_mix=0.0,
        highway_style="thick",
        railway_style="ties",
        curve_style="arc",
        station_fill="filled",
        station_size=0.2,
        highway_width=0.16,
        line_width=0.04,
        tie_spacing=0.14,
        tie_length=0.18,
        rail_gap=0.1,
        wobble=0.0,
        end_error=0.0,
        double_stroke=0.0,
        number_font=0,
        number_scale=1.0,
        ghosts=0,
        ghost_alpha=0.0,
        smudges=0,
        strays=0,
        opacity=1.0,
    )


def _rect(img: np.ndarray, p0: np.ndarray, p1: np.ndarray, color: Color, thickness: int) -> None:
    cv2.rectangle(
        img,
        tuple(int(round(v)) for v in p0),
        tuple(int(round(v)) for v in p1),
        color,
        thickness,
        lineType=cv2.LINE_AA,
    )


def _text(
    img: np.ndarray,
    text: str,
    centre: np.ndarray,
    height: float,
    color: Color,
    font: int,
    max_width: float,
) -> None:
    scale = height / 22.0
    (w, h), _ = cv2.getTextSize(text, font, scale, 1)
    if w > max_width > 0:
        scale *= max_width / w
        (w, h), _ = cv2.getTextSize(text, font, scale, 1)
    thickness = max(1, int(round(scale * 1.6)))
    org = (int(centre[0] - w / 2), int(centre[1] + h / 2))
    cv2.putText(img, text, org, font, scale, color, thickness, cv2.LINE_AA)


def _draw_lattice(img: np.ndarray, board: FlatBoard, style: BoardStyle) -> None:
    cell = board.cell
    o = board.origin
    side = 7 * cell
    shifted = o + np.array(style.misregister) * cell  # tint layer slightly off the line layer
    _rect(img, shifted, shifted + side, style.tint, -1)
    _rect(img, shifted + 2 * cell, shifted + 5 * cell, style.central_tint, -1)
    box = style.box_size * cell
    inset = max(1.0, style.line_width * cell)
    for r in range(7):
        for c in range(7):
            x0, y0 = board.cell_origin(r, c)
            bx = x0 + inset if style.box_corner in ("tl", "bl") else x0 + cell - inset - box
            by = y0 + inset if style.box_corner in ("tl", "tr") else y0 + cell - inset - box
            if style.box_fill:
                _rect(img, np.array([bx, by]), np.array([bx + box, by + box]), (255, 255, 255), -1)
            if style.box_outline or not style.box_fill:
                _rect(img, np.array([bx, by]), np.array([bx + box, by + box]), style.line_color, 1)
    lw = max(1, int(round(style.line_width * cell)))
    for i in range(1, 7):
        polyline(img, np.array([o + [i * cell, 0], o + [i * cell, side]]), style.line_color, lw)
        polyline(img, np.array([o + [0, i * cell], o + [side, i * cell]]), style.line_color, lw)
    if style.central_outline > 0:
        w = max(1, int(round(style.central_outline * cell)))
        _rect(img, o + 2 * cell, o + 5 * cell, style.line_color, w)
    # thick frame: its inner edge is the lattice boundary
    fw = style.frame_width * cell
    cv2.rectangle(
        img,
        tuple(np.round(o - fw / 2).astype(int)),
        tuple(np.round(o + side + fw / 2).astype(int)),
        style.frame_color,
        max(1, int(round(fw))),
        lineType=cv2.LINE_AA,
    )


def _poly_fill(img: np.ndarray, pts: np.ndarray, color: Color) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], color, lineType=cv2.LINE_AA, shift=4)


@dataclass(frozen=True)
class _Stub:
    """Where one Exit mark goes: from ``base`` on the frame, ``length`` px outwards along ``out``."""

    base: np.ndarray
    out: np.ndarray
    length: float

    @property
    def across(self) -> np.ndarray:
        return np.array([self.out[1], -self.out[0]])

    @property
    def tip(self) -> np.ndarray:
        return self.base + self.out * self.length

    def band(self, half: float, length: float) -> list[np.ndarray]:
        """Corners of a bar ``2 * half`` wide from the base ``length`` outwards."""
        end = self.base + self.out * length
        across = self.across * half
        return [self.base - across, self.base + across, end + across, end - across]


def _highway_exit(img: np.ndarray, stub: _Stub, style: BoardStyle, cell: float) -> None:
    """A short road stub: a bar (or two edge lines), often with a dashed centre line."""
    half = style.highway_exit_width * cell / 2
    base, out, tip = stub.base, stub.out, stub.tip
    if style.exit_shape == "lines":
        lw = max(1, int(round(0.04 * cell)))
        for side in (-1, 1):
            polyline(img, np.array([base, tip]) + stub.across * half * side, style.exit_color, lw)
        dash_color = style.exit_color
    else:
        quad = stub.band(half, stub.length)
        if style.exit_shape == "arrow":  # the bar ends in a point
            quad = quad[:3] + [tip + out * half * 0.8] + quad[3:]
        _poly_fill(img, np.array(quad), style.exit_color)
        dash_color = (245, 245, 245)
    if style.highway_exit_dashes:
        dash_w = max(1, int(round(0.035 * cell)))
        n = 2 if stub.length < 0.4 * cell else 3
        step = stub.length / n
        for k in range(n):
            a = base + out * (k * step + step * 0.25)
            b = base + out * (k * step + step * 0.7)
            polyline(img, np.array([a, b]), dash_color, dash_w)


def _railway_exit(img: np.ndarray, stub: _Stub, style: BoardStyle, cell: float) -> None:
    """A short track stub: a line with cross ties (or two rails with ties)."""
    lw = max(1, int(round(0.045 * cell)))
    base, out, across, tip = stub.base, stub.out, stub.across, stub.tip
    if style.exit_shape == "lines":
        for side in (-1, 1):
            polyline(
                img,
                np.array([base, tip]) + across * 0.07 * cell * side,
                style.exit_color,
                max(1, lw - 1),
            )
    else:
        polyline(img, np.array([base, tip]), style.exit_color, lw)
    n = style.railway_exit_ties
    for k in range(n):
        c = base + out * stub.length * (k + 0.5) / n
        half = 0.13 * cell
        polyline(
            img, np.array([c - across * half, c + across * half]), style.exit_color, max(1, lw - 1)
        )
    if style.exit_shape == "arrow":
        head = 0.12 * cell
        _poly_fill(
            img,
            np.array([tip + out * head, tip + across * head * 0.7, tip - across * head * 0.7]),
            style.exit_color,
        )


def _draw_exits(img: np.ndarray, board: FlatBoard, style: BoardStyle) -> None:
    """The 12 Exit marks just outside the frame, centred on their spaces (RULINGS.md)."""
    cell = board.cell
    o = board.origin
    side = 7 * cell
    fw = style.frame_width * cell
    length = style.exit_length * cell
    for exit_ in EXITS:
        along = ((exit_.col if exit_.side in (Side.N, Side.S) else exit_.row) + 0.5) * cell
        base, out = {
            Side.N: (o + [along, -fw], np.array([0.0, -1.0])),
            Side.S: (o + [along, side + fw], np.array([0.0, 1.0])),
            Side.W: (o + [-fw, along], np.array([-1.0, 0.0])),
            Side.E: (o + [side + fw, along], np.array([1.0, 0.0])),
        }[exit_.side]
        stub = _Stub(base, out, length)
        if style.exit_backing:
            backing = tuple(
                int(0.5 * a + 0.5 * b) for a, b in zip(style.tint, style.exit_color, strict=True)
            )
            _poly_fill(img, np.array(stub.band(0.42 * cell, length + 0.08 * cell)), backing)
        draw = _highway_exit if exit_.kind == HIGHWAY else _railway_exit
        draw(img, stub, style, cell)


def _draw_specials_panel(
    img: np.ndarray,
    board: FlatBoard,
    style: BoardStyle,
    rng: np.random.Generator,
    top: float,
    bottom: float,
) -> None:
    """Six Special Routes icons in boxes above the grid, some maybe ticked off."""
    cell = board.cell
    height = bottom - top
    if height < 0.35 * cell:
        return
    size = min(height * 0.85, 0.95 * cell)
    gap = (7 * cell - 6 * size) / 7
    pen_style = _printed_style(style.art_color)
    y = top + (height - size) / 2
    for k, token in enumerate(SPECIAL_ROUTES):
        x = board.origin[0] + gap + k * (size + gap)
        p0 = np.array([x, y])
        _rect(img, p0, p0 + size, style.tint, -1)
        _rect(img, p0, p0 + size, style.line_color, max(1, int(0.03 * cell)))
        pen = Pen(img, p0, size, style.art_color, pen_style, rng)
        draw_piece(pen, token)
        board.special_boxes.append((p0, size))


def _draw_score_table(
    img: np.ndarray, board: FlatBoard, style: BoardStyle, top: float, bottom: float
) -> None:
    """Six labelled boxes below the grid (players may write their scores in them)."""
    cell = board.cell
    height = bottom - top
    if height < 0.4 * cell:
        return
    n = len(SCORE_LABELS)
    width = 7 * cell / n
    box_h = min(height * 0.8, 1.1 * cell)
    y = top + (height - box_h) / 2
    lw = max(1, int(0.025 * cell))
    for k, label in enumerate(SCORE_LABELS):
        p0 = np.array([board.origin[0] + k * width, y])
        _rect(img, p0 + 0.06 * cell, p0 + [width - 0.06 * cell, box_h], style.tint, -1)
        _rect(img, p0 + 0.06 * cell, p0 + [width - 0.06 * cell, box_h], style.line_color, lw)
        _text(
            img,
            label,
            p0 + [width / 2, 0.22 * cell],
            0.2 * cell,
            style.art_color,
            cv2.FONT_HERSHEY_SIMPLEX,
            width * 0.8,
        )
        board.score_boxes.append(
            (p0 + [0.06 * cell, 0.4 * cell], p0 + [width - 0.06 * cell, box_h])
        )


def _draw_decoration(
    img: np.ndarray, board: FlatBoard, style: BoardStyle, rng: np.random.Generator
) -> None:
    """Random shapes in the side margins beyond the Exit marks."""
    cell = board.cell
    h, w = img.shape[:2]
    keep_out = (style.frame_width + style.exit_length + 0.15) * cell
    for _ in range(int(rng.integers(0, 7))):
        left = rng.random() < 0.5
        x_lo, x_hi = (
            (0, board.origin[0] - keep_out) if left else (board.origin[0] + 7 * cell + keep_out, w)
        )
        if x_hi - x_lo < 0.15 * cell:
            continue
        x = rng.uniform(x_lo, x_hi)
        y = rng.uniform(0, h)
        r = min(rng.uniform(0.05, 0.3) * cell, (x_hi - x_lo) / 2)
        color = tuple(int(v) for v in style.art_color)
        if rng.random() < 0.5:
            cv2.circle(
                img,
                (int(x), int(y)),
                max(1, int(r)),
                color,
                -1 if rng.random() < 0.5 else 2,
                cv2.LINE_AA,
            )
        else:
            pts = np.array([[x, y - r], [x + r, y + r], [x - r, y + r]])
            cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)


def _print_quality(
    img: np.ndarray, style: BoardStyle, cell: float, rng: np.random.Generator
) -> np.ndarray:
    sigma = style.print_blur * cell
    if sigma > 0.6:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if style.grain > 0.4:  # (some prints are smooth)
        h, w = img.shape[:2]
        small = rng.normal(0, 1, (max(2, h // 6), max(2, w // 6))).astype(np.float32)
        gain = ((1.0 + small * (0.025 * style.grain)) * 4096).astype(np.uint16)
        gain = cv2.resize(cv2.merge([gain, gain, gain]), (w, h), interpolation=cv2.INTER_LINEAR)
        img = cv2.multiply(img, gain, scale=1 / 4096, dtype=cv2.CV_8U)
    return img


def draw_board(style: BoardStyle, cell: float, rng: np.random.Generator) -> FlatBoard:
    """Draw the empty printed board with spaces of ``cell`` pixels."""
    w = int(round((7 + 2 * style.margin_side) * cell))
    h = int(round((7 + style.margin_top + style.margin_bottom) * cell))
    img = np.empty((h, w, 3), np.uint8)
    cv2.rectangle(img, (0, 0), (w, h), style.paper, -1)  # (far faster than numpy broadcasting)
    board = FlatBoard(img, np.array([style.margin_side * cell, style.margin_top * cell]), cell)
    exit_band = (style.frame_width + style.exit_length + 0.15) * cell
    # top area: title then Special Routes panel; bottom area: score table
    top_free = board.origin[1] - exit_band
    title_h = min(0.45 * cell, top_free * 0.3)
    title = TITLES[int(rng.integers(len(TITLES)))]
    fonts = (
        cv2.FONT_HERSHEY_SIMPLEX,
        cv2.FONT_HERSHEY_DUPLEX,
        cv2.FONT_HERSHEY_COMPLEX,
        cv2.FONT_HERSHEY_TRIPLEX,
        cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
        cv2.FONT_HERSHEY_SIMPLEX,
    )
    font = fonts[style.title_font % len(fonts)]
    _text(img, title, np.array([w / 2, title_h * 0.75]), title_h, style.art_color, font, 6 * cell)
    edition = EDITIONS[int(rng.integers(len(EDITIONS)))]
    if edition and rng.random() < 0.6:
        _text(
            img,
            edition,
            np.array([w / 2 + rng.uniform(-1, 1) * cell, title_h * 1.75]),
            title_h * 0.45,
            style.art_color,
            cv2.FONT_HERSHEY_SIMPLEX,
            4 * cell,
        )
    _draw_specials_panel(img, board, style, rng, title_h * 2.15, top_free)
    bottom_top = board.origin[1] + 7 * cell + exit_band
    _draw_score_table(img, board, style, bottom_top, h - 0.1 * cell)
    _draw_decoration(img, board, style, rng)
    if rng.random() < 0.5:  # printed border round the whole card
        inset = rng.uniform(0.05, 0.25) * cell
        _rect(
            img,
            np.array([inset, inset]),
            np.array([w - inset, h - inset]),
            style.art_color,
            max(1, int(rng.uniform(0.01, 0.05) * cell)),
        )
    _draw_lattice(img, board, style)
    _draw_exits(img, board, style)
    board.image = img
    return board


def _crease(img: np.ndarray, rng: np.random.Generator, cell: float) -> None:
    """A fold line across a paper sheet: a thin bright edge beside a darker one."""
    h, w = img.shape[:2]
    horizontal = rng.random() < 0.5
    t = rng.uniform(0.25, 0.75) * (h if horizontal else w)
    slant = rng.normal(0, 0.03) * (w if horizontal else h)
    if horizontal:
        a, b = np.array([0.0, t]), np.array([w, t + slant])
    else:
        a, b = np.array([t, 0.0]), np.array([t + slant, h])
    normal = np.array([0.0, 1.0]) if horizontal else np.array([1.0, 0.0])
    width = max(1, int(round(0.02 * cell)))
    overlay = img.copy()
    polyline(overlay, np.array([a, b]), (255, 255, 255), width)
    polyline(overlay, np.array([a, b]) + normal * width * 1.5, (90, 90, 90), width)
    alpha = rng.uniform(0.15, 0.4)
    cv2.addWeighted(overlay, alpha, img, 1.0 - alpha, 0.0, dst=img)


def finish_print(board: FlatBoard, style: BoardStyle, rng: np.random.Generator) -> None:
    """Blur and grain of the print and folds of a paper sheet (applied after the player's ink)."""
    if not style.glossy and rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 3))):
            _crease(board.image, rng, board.cell)
    board.image = _print_quality(board.image, style, board.cell, rng)
