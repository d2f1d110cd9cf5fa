"""How well a guess sits on a printed lattice, and whether it could be a board's at all."""

from __future__ import annotations

import numpy as np

from vision.exit_marks import ExitBoxes, exit_marks_contrast
from vision.locate.params import FitParams
from vision.locate.views import column_coverage, flat_view, row_coverage
from vision.rectify import GRID


def lattice_score(binary: np.ndarray, corners: np.ndarray, params: FitParams,
                  boxes: ExitBoxes) -> float:
    """How well ``corners`` sit on a printed 8 x 8-line lattice inside a frame.

    Rewards: every inner line covered along the whole lattice (second-weakest of the 12),
    all four frame sides present, and Exit marks just outside the frame at the 2nd, 4th and
    6th space of every side but not beside the others (a lattice shifted by whole spaces
    has routes there instead). Penalises lines half a space off the lattice (drawn routes).
    """
    cell = params.view_cell
    flat = flat_view(binary, corners, GRID * cell, cell).image
    span = slice(cell, cell + GRID * cell)
    col = column_coverage(flat[span])  # full width, rows of the lattice
    row = row_coverage(flat[:, span])

    lines = cell + np.arange(GRID + 1) * cell  # whole pixels: cell is an integer
    gaps = lines[:-1] + cell // 2
    inner = np.concatenate([col[lines[1:-1]], row[lines[1:-1]]])
    near = params.score_frame_px
    frame = [profile[at - near:at + near + 1].max()
             for profile in (col, row) for at in lines[[0, -1]]]
    off = np.concatenate([col[gaps], row[gaps]])
    return float(params.line_weight * (np.sort(inner)[1] + min(frame))
                 - params.off_weight * np.median(off)
                 + params.exit_weight * exit_marks_contrast(flat, cell, cell,
                                                            boxes))


def confidence(score: float, params: FitParams) -> float:
    """Map the lattice score to 0..1: real boards score about 0.8 and up, textures and
    lattice-less clutter about 0.5 and below."""
    return float(np.clip((score - params.confidence_from) / params.confidence_span, 0.0, 1.0))


def plausible(corners: np.ndarray, min_side: float, params: FitParams) -> bool:
    """Whether ``corners`` could outline a board's lattice: square enough, sides at least
    ``min_side`` long."""
    sides = np.linalg.norm(corners - corners[[1, 2, 3, 0]], axis=1)  # each to the next
    pairs = sorted((sides[0] + sides[2], sides[1] + sides[3]))
    return sides.min() >= min_side and pairs[1] <= params.max_aspect * pairs[0]
