"""How well a guess sits on a printed lattice, and whether it could be a board's at all."""

from __future__ import annotations

from dataclasses import dataclass

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
    lines = _LatticeLines.of(binary, corners, params)
    inner = np.concatenate([lines.col[lines.at[1:-1]], lines.row[lines.at[1:-1]]])
    off = np.concatenate([lines.col[lines.gaps], lines.row[lines.gaps]])
    return float(params.line_weight * (np.sort(inner)[1] + lines.frame(params))
                 - params.off_weight * np.median(off)
                 + params.exit_weight * exit_marks_contrast(lines.flat, cell, cell, boxes))


@dataclass(frozen=True)
class FrameSeen:
    """What a lattice's outline shows of a board's printed frame (``frame_seen``)."""

    frame: float  # the weakest frame side's coverage (0..1): a thick frame shows however
    # faint the lattice lines inside it are
    paper: float  # the paper beyond the frame against inside it (``paper_beyond``)
    inside: float  # the most-covered line at least half a space inside the frame (0..1): a
    # few spaces of a board's lattice taken for the whole have whole printed lines across
    # them; a board whose own lattice lines are too faint to see has only its drawings


def frame_seen(binary: np.ndarray, gray: np.ndarray, corners: np.ndarray,
               params: FitParams) -> FrameSeen:
    """How ``corners`` (pixels of ``binary`` and of the grey image ``gray``) sit on a
    board's printed frame."""
    lines = _LatticeLines.of(binary, corners, params)
    return FrameSeen(lines.frame(params), paper_beyond(gray, corners, params),
                     lines.inside(params))


def paper_beyond(gray: np.ndarray, corners: np.ndarray, params: FitParams) -> float:
    """How much of a printed sheet lies beyond the lattice ``corners`` on its darkest side:
    the median brightness of a strip just outside each side (``margin_strip``) over that of
    the same strip just inside, the least of the four. A printed frame has its paper margin
    beyond it (about 1 and up); a sheet's own edge, taken for a frame, has the table (or
    what lies beyond the photo's edge: 0)."""
    cell = params.view_cell
    flat = flat_view(gray, corners, GRID * cell, cell).image.astype(np.float32)
    near, far = (round(f * cell) for f in params.margin_strip)
    end = cell + GRID * cell
    along = slice(cell, end)
    outside = [flat[cell - far:cell - near, along], flat[end + near:end + far, along],
               flat[along, cell - far:cell - near], flat[along, end + near:end + far]]
    inside = [flat[cell + near:cell + far, along], flat[end - far:end - near, along],
              flat[along, cell + near:cell + far], flat[along, end - far:end - near]]
    return float(min(np.median(out) / max(float(np.median(into)), 1.0)
                     for out, into in zip(outside, inside, strict=True)))


@dataclass(frozen=True)
class _LatticeLines:
    """The binary map straightened on a lattice (one cell of margin), and its coverage
    profiles across the lattice's rows (``col``, one value a column) and columns (``row``)."""

    flat: np.ndarray
    col: np.ndarray
    row: np.ndarray
    at: np.ndarray  # the 8 lines' positions in ``flat`` (whole pixels)
    gaps: np.ndarray  # half a space past each of the first 7

    @classmethod
    def of(cls, binary: np.ndarray, corners: np.ndarray, params: FitParams) -> _LatticeLines:
        cell = params.view_cell
        flat = flat_view(binary, corners, GRID * cell, cell).image
        span = slice(cell, cell + GRID * cell)
        at = cell + np.arange(GRID + 1) * cell  # whole pixels: cell is an integer
        return cls(flat, column_coverage(flat[span]), row_coverage(flat[:, span]), at,
                   at[:-1] + cell // 2)

    def inside(self, params: FitParams) -> float:
        """The most-covered position at least half a space inside the frame."""
        half = params.view_cell // 2
        span = slice(self.at[0] + half, self.at[-1] - half + 1)
        return float(max(self.col[span].max(), self.row[span].max()))

    def frame(self, params: FitParams) -> float:
        """The weakest frame side's coverage, each looked for ``score_frame_px`` either way."""
        near = params.score_frame_px
        return float(min(profile[at - near:at + near + 1].max()
                         for profile in (self.col, self.row) for at in self.at[[0, -1]]))


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
