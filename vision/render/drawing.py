"""The player's ink on the flat board: pieces, round numbers, ghosts, smudges, stray marks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .board_art import FlatBoard
from .pieces import Pen, draw_piece
from .style import BoardStyle, Color, InkStyle
from .tokens import BASE_TOKENS, EMPTY, SPECIAL_ROUTES, orientations

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)


@dataclass
class _CellLayer:
    """A copy of one cell's neighbourhood to draw on, then blend back into the board."""

    roi: np.ndarray  # view into the board image
    image: np.ndarray  # the copy to draw on
    origin: np.ndarray  # the cell's top-left corner in ``image`` pixels

    def blend(self, alpha: float) -> None:
        if alpha >= 0.999:
            self.roi[:] = self.image
        else:
            cv2.addWeighted(self.image, alpha, self.roi, 1.0 - alpha, 0.0, dst=self.roi)


def _cell_layer(board: FlatBoard, row: float, col: float, pad: float = 0.35) -> _CellLayer:
    cell = board.cell
    h, w = board.image.shape[:2]
    origin = board.origin + np.array([col, row]) * cell
    x0, y0 = np.maximum(np.floor(origin - pad * cell).astype(int), 0)
    x1 = min(w, int(np.ceil(origin[0] + (1 + pad) * cell)))
    y1 = min(h, int(np.ceil(origin[1] + (1 + pad) * cell)))
    roi = board.image[y0:y1, x0:x1]
    return _CellLayer(roi, roi.copy(), origin - np.array([x0, y0]))


def _round_number(
    img: np.ndarray,
    origin: np.ndarray,
    cell: float,
    board_style: BoardStyle,
    ink: InkStyle,
    color,
    number: int,
    rng: np.random.Generator,
) -> None:
    box = board_style.box_size * cell
    corner = board_style.box_corner
    bx = origin[0] + (0 if corner in ("tl", "bl") else cell - box)
    by = origin[1] + (0 if corner in ("tl", "tr") else cell - box)
    font = _FONTS[ink.number_font % len(_FONTS)]
    scale = cv2.getFontScaleFromHeight(font, max(4, int(box * 0.7 * ink.number_scale)))
    thickness = max(1, int(round(ink.line_width * cell * 0.8)))
    (tw, th), _ = cv2.getTextSize(str(number), font, scale, thickness)
    x = bx + (box - tw) / 2 + rng.normal(0, box * 0.1)
    y = by + (box + th) / 2 + rng.normal(0, box * 0.1)
    cv2.putText(img, str(number), (int(x), int(y)), font, scale, color, thickness, cv2.LINE_AA)


def numbers_written(rng: np.random.Generator) -> bool:
    """Whether a board gets round numbers (nine in ten do); ``draw_grid``'s first draw."""
    return bool(rng.random() < 0.9)


def draw_ghosts(board: FlatBoard, ink: InkStyle, rng: np.random.Generator) -> None:
    """Ghosts of an erased earlier game, drawn first, underneath."""
    for _ in range(ink.ghosts):
        r, c = rng.integers(0, 7, 2)
        token = BASE_TOKENS[int(rng.integers(1, len(BASE_TOKENS)))]
        color = ink.colors[int(rng.integers(len(ink.colors)))]
        layer = _cell_layer(board, r, c)
        draw_piece(Pen(layer.image, layer.origin, board.cell, color, ink, rng), token)
        layer.blend(ink.ghost_alpha * rng.uniform(0.6, 1.2))


def space_ink(r: int, c: int, board_style: BoardStyle, ink: InkStyle,
              rng: np.random.Generator, rounds: list[list[int]] | None
              ) -> tuple[Color, int, Color]:
    """The colour a drawn space (r, c) is inked in, its round number, and its paper tint."""
    color = ink.colors[0]
    if len(ink.colors) > 1 and rng.random() < ink.color_mix:
        color = ink.colors[int(rng.integers(1, len(ink.colors)))]
    number = rounds[r][c] if rounds else int(rng.integers(1, 8))
    paper = board_style.central_tint if 2 <= r <= 4 and 2 <= c <= 4 else board_style.tint
    return color, number, paper


def draw_grid(
    board: FlatBoard,
    grid: list[list[str]],
    board_style: BoardStyle,
    ink: InkStyle,
    rng: np.random.Generator,
    rounds: list[list[int]] | None = None,
    space_drawer: Callable[[Pen, int, int], bool] | None = None,
) -> None:
    """Ink the 7x7 tokens (and round numbers) onto the board. ``space_drawer(pen, row, col)``
    may ink a space itself (water.WaterPainter.draw_space) and say so; else draw_piece does."""
    numbers = numbers_written(rng)
    draw_ghosts(board, ink, rng)
    for r in range(7):
        for c in range(7):
            token = grid[r][c]
            if token == EMPTY:
                continue
            color, number, paper = space_ink(r, c, board_style, ink, rng, rounds)
            layer = _cell_layer(board, r, c)
            pen = Pen(layer.image, layer.origin, board.cell, color, ink, rng, paper)
            if space_drawer is None or not space_drawer(pen, r, c):
                draw_piece(pen, token)
            if numbers and number > 0:
                _round_number(
                    layer.image, layer.origin, board.cell, board_style, ink, color, number, rng
                )
            layer.blend(ink.opacity)
    _smudges_and_strays(board, ink, rng)
    _mark_margins(board, grid, ink, rng)


def _mark_margins(
    board: FlatBoard, grid: list[list[str]], ink: InkStyle, rng: np.random.Generator
) -> None:
    """Tick off used Special Routes in the top panel; sometimes fill in the score table."""
    used = {t for row in grid for t in row}
    color = ink.colors[0]
    width = max(1, int(round(ink.line_width * board.cell)))
    for (p0, size), special in zip(board.special_boxes, SPECIAL_ROUTES, strict=False):
        if not used & set(orientations(special)) or rng.random() < 0.15:
            continue
        jitter = rng.normal(0, 0.05 * size, (2, 2))
        if rng.random() < 0.6:  # a cross over the icon
            a, b = p0 + 0.1 * size + jitter[0], p0 + 0.9 * size + jitter[1]
            cv2.line(
                board.image, tuple(a.astype(int)), tuple(b.astype(int)), color, width, cv2.LINE_AA
            )
            a, b = (
                p0 + [0.9 * size, 0.1 * size] + jitter[1],
                p0 + [0.1 * size, 0.9 * size] + jitter[0],
            )
            cv2.line(
                board.image, tuple(a.astype(int)), tuple(b.astype(int)), color, width, cv2.LINE_AA
            )
        else:  # a round number in its corner
            cv2.putText(
                board.image,
                str(int(rng.integers(1, 8))),
                tuple((p0 + [0.05 * size, 0.35 * size]).astype(int)),
                cv2.FONT_HERSHEY_SIMPLEX,
                size / 80,
                color,
                width,
                cv2.LINE_AA,
            )
    if rng.random() < 0.4:
        for p0, p1 in board.score_boxes:
            text = str(int(rng.integers(0, 60)))
            height = (p1[1] - p0[1]) * 0.5
            scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, int(height)))
            org = (int(p0[0] + (p1[0] - p0[0]) * 0.3), int(p0[1] + height * 1.4))
            cv2.putText(
                board.image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, color, width, cv2.LINE_AA
            )


def _smudges_and_strays(board: FlatBoard, ink: InkStyle, rng: np.random.Generator) -> None:
    cell = board.cell
    img = board.image
    for _ in range(ink.smudges):
        r, c = rng.uniform(0, 7, 2)
        centre = board.origin + np.array([c, r]) * cell
        axes = (
            max(2, int(rng.uniform(0.08, 0.3) * cell)),
            max(1, int(rng.uniform(0.03, 0.1) * cell)),
        )
        color = ink.colors[0]
        pad = int(axes[0] * 2)
        x0, y0 = np.maximum(centre.astype(int) - pad, 0)
        roi = img[y0 : y0 + 2 * pad, x0 : x0 + 2 * pad]
        if roi.size == 0:
            continue
        mask = np.zeros(roi.shape[:2], np.float32)
        cv2.ellipse(
            mask,
            (int(centre[0] - x0), int(centre[1] - y0)),
            axes,
            rng.uniform(0, 180),
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
        )
        mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, axes[1] * 0.6)) * rng.uniform(0.06, 0.18)
        ink_bgr = np.array(color, np.float32)
        roi[:] = (roi * (1 - mask[..., None]) + ink_bgr * mask[..., None]).astype(np.uint8)
    for _ in range(ink.strays):
        r, c = rng.uniform(-0.3, 7.3, 2)
        p = board.origin + np.array([c, r]) * cell
        color = ink.colors[int(rng.integers(len(ink.colors)))]
        if rng.random() < 0.6:
            cv2.circle(
                img,
                (int(p[0]), int(p[1])),
                max(1, int(rng.uniform(0.008, 0.025) * cell)),
                color,
                -1,
                cv2.LINE_AA,
            )
        else:
            q = p + rng.normal(0, 0.05 * cell, 2)
            cv2.line(
                img,
                (int(p[0]), int(p[1])),
                (int(q[0]), int(q[1])),
                color,
                max(1, int(ink.line_width * cell * 0.7)),
                cv2.LINE_AA,
            )
