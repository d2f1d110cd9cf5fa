"""Faint and worn ink (phone profile): pencil, pale markers, streaky dry-erase markers, and the
player's ink put on the board through one density map.

Under a profile every drawn space is inked onto one copy of the board, then blended back
through a per-pixel density: the ink's opacity times a slow variation (pressure, a drying
marker), the paper's tooth under graphite, and graphite's sheen where it catches the light.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import cv2
import numpy as np

from .board_art import FlatBoard
from .drawing import (
    _mark_margins,
    _round_number,
    _smudges_and_strays,
    draw_ghosts,
    numbers_written,
    space_ink,
)
from .habits import StrokeHabits
from .pieces import Pen, draw_piece
from .style import BoardStyle, InkStyle
from .tokens import EMPTY

# Pale marker colours (BGR): light blue, orange, yellow-green, pink, light grey, aqua, lilac.
PALE: dict[str, tuple[int, int, int]] = {
    "light_blue": (235, 195, 140),
    "orange": (90, 170, 250),
    "yellow_green": (120, 225, 190),
    "pink": (195, 160, 250),
    "light_grey": (170, 170, 170),
    "aqua": (215, 215, 120),
    "lilac": (225, 170, 205),
}


@dataclass(frozen=True)
class InkTexture:
    """How densely the ink lies: ``density`` range of the slow variation over the board and
    its scale (cells), graphite ``grain`` (0..1) and ``sheen`` (0..1)."""

    kind: str
    density: tuple[float, float] = (0.9, 1.0)
    scale: float = 0.5
    grain: float = 0.0
    sheen: float = 0.0

    def to_json(self) -> dict:
        return asdict(self)


def apply_ink_kind(ink: InkStyle, kind: str, rng: np.random.Generator) -> InkTexture:
    """Turn the sampled marker ``ink`` into ``kind`` (in place) and say how its density varies."""
    if kind == "pencil":
        grey = int(rng.uniform(60, 115))
        ink.colors = [(grey + 4, grey + 2, grey)]  # graphite: a faintly cool grey
        ink.color_names, ink.color_mix = ["pencil"], 0.0
        ink.line_width = float(rng.uniform(0.01, 0.025))
        ink.highway_width = float(rng.uniform(0.07, 0.15))
        ink.opacity = float(rng.uniform(0.6, 0.9))
        ink.river_color = None
        return InkTexture(
            kind,
            (float(rng.uniform(0.5, 0.75)), 1.0),
            float(rng.uniform(0.3, 1.0)),
            float(rng.uniform(0.25, 0.55)),
            float(rng.uniform(0.2, 0.5)),
        )
    if kind == "pale_marker":
        names = list(PALE)
        chosen = [names[int(rng.integers(len(names)))]]
        if rng.random() < 0.25:
            chosen.append(names[int(rng.integers(len(names)))])
        ink.colors = [
            tuple(int(np.clip(v + rng.integers(-15, 16), 0, 255)) for v in PALE[n]) for n in chosen
        ]
        ink.color_names = chosen
        ink.color_mix = float(rng.uniform(0.1, 0.4)) if len(chosen) > 1 else 0.0
        ink.opacity = float(rng.uniform(0.6, 0.95))
        return InkTexture(kind, (float(rng.uniform(0.75, 0.95)), 1.0), 0.5)
    if kind == "dry_erase":
        ink.opacity = float(rng.uniform(0.55, 0.85))
        return InkTexture(kind, (float(rng.uniform(0.35, 0.6)), 1.0), float(rng.uniform(0.2, 0.6)))
    if kind != "marker":
        raise ValueError(f"unknown ink kind {kind!r}")
    return InkTexture(kind)


def ink_density(
    shape: tuple[int, int],
    cell: float,
    ink: InkStyle,
    texture: InkTexture,
    rng: np.random.Generator,
) -> np.ndarray:
    """(h, w) float32 in 0..1: how much of the ink layer shows at each board pixel."""
    h, w = shape
    lo, hi = texture.density
    cells = max(2, int(np.ceil(max(h, w) / cell / texture.scale)))
    slow = rng.uniform(0, 1, (cells * h // max(h, w) + 2, cells * w // max(h, w) + 2))
    slow = cv2.resize(slow.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    alpha = ink.opacity * (lo + (hi - lo) * np.clip(slow, 0, 1))
    if texture.grain > 0:  # the paper's tooth catches graphite in specks
        tooth = max(1.0, cell / 90)
        small = rng.uniform(0, 1, (int(h / tooth) + 1, int(w / tooth) + 1)).astype(np.float32)
        grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        alpha *= 1 - texture.grain * grain
    if texture.sheen > 0:  # graphite shines where it catches the light: a soft patch or band
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        centre = rng.uniform(0, 1, 2) * [w, h]
        angle = rng.uniform(0, np.pi)
        across = (xx - centre[0]) * np.cos(angle) + (yy - centre[1]) * np.sin(angle)
        band = np.exp(-0.5 * (across / (rng.uniform(1, 3) * cell)) ** 2)
        band = cv2.resize(band, (w, h), interpolation=cv2.INTER_LINEAR)
        alpha *= 1 - texture.sheen * band
    return np.clip(alpha, 0, 1).astype(np.float32)


def draw_grid_phone(
    board: FlatBoard,
    grid: list[list[str]],
    board_style: BoardStyle,
    ink: InkStyle,
    rng: np.random.Generator,
    rounds: list[list[int]] | None,
    habits: StrokeHabits,
    density: np.ndarray,
    marks=(),
    space_drawer=None,
) -> None:
    """``drawing.draw_grid`` for the phone profile: the same spaces and round numbers, drawn
    with ``habits`` onto one ink layer (with ``marks``: callables drawing on it), blended
    through ``density``."""
    numbers = numbers_written(rng)
    draw_ghosts(board, ink, rng)
    inked = board.image.copy()
    for r in range(7):
        for c in range(7):
            token = grid[r][c]
            if token == EMPTY:
                continue
            color, number, paper = space_ink(r, c, board_style, ink, rng, rounds)
            origin = board.cell_origin(r, c)
            pen = Pen(inked, origin, board.cell, color, ink, rng, paper, habits)
            if space_drawer is None or not space_drawer(pen, r, c):
                draw_piece(pen, token)
            if numbers and number > 0:
                _round_number(inked, origin, board.cell, board_style, ink, color, number, rng)
    for mark in marks:
        mark(inked)
    board.image = cv2.blendLinear(board.image, inked, 1 - density, density)
    _smudges_and_strays(board, ink, rng)
    _mark_margins(board, grid, ink, rng)
