"""Which way up the round numbers are written: evidence for the board's top.

Players write a round number (1-7) in the small box in one corner of every space they draw
(board-spec 1 and 2), upright on the board. Which corner holds the box differs between
editions, so every corner of every space is looked at: a small CNN
(``models/round_numbers.onnx``) reads each corner patch as "no number" or "a number turned
clockwise k quarter turns". On a board with numbers, the dozens of drawn spaces together say
which side is the top even where the margin artwork does not (a plain print-and-play sheet, a
board cut close, glare over the Special Routes panel).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.crops import lattice_windows
from vision.onnx_model import OnnxModel
from vision.rectify import CanonicalBoard

NUMBERS_FILE = "round_numbers.onnx"
NUMBERS_META = "round_numbers.json"
PATCH_FRACTION = 0.42  # a corner patch's side, in spaces (a round box, its inset and slack)
NO_NUMBER = 4  # class index of "no number here"; 0..3 are the clockwise quarter turns


def patch_px(cell_px: int) -> int:
    """Side of a corner patch in canonical pixels."""
    return round(PATCH_FRACTION * cell_px)


def corner_patches(darkness: np.ndarray, board: CanonicalBoard, border: int = 0) -> np.ndarray:
    """The 4 corner patches of all 49 spaces: (49, 4, P, P) in corner order TL, TR, BR, BL.

    ``border`` cuts each patch that many pixels larger on every side (training re-cuts them
    at random offsets); the canonical padding must leave room for it.
    """
    size, cell = patch_px(board.cell_px), board.cell_px
    first = board.pad_px - border
    spots = ((0, 0), (0, cell - size), (cell - size, cell - size), (cell - size, 0))
    return np.stack([lattice_windows(darkness, (first + dy, first + dx), size + 2 * border, cell)
                     for dy, dx in spots], axis=1)


def patch_log_likelihoods(probs: np.ndarray) -> np.ndarray:
    """Per patch and turn k, log(p(none) + 4 p(k)) from (..., 5) class probabilities: the
    patch's likelihood under "the view is the board turned k", relative to "a number at a
    random turn" (a patch holds no number, or a number at one of 4 turns)."""
    return np.log(probs[..., NO_NUMBER:NO_NUMBER + 1] + 4.0 * probs[..., :NO_NUMBER] + 1e-6)


@dataclass
class NumberEvidence:
    """What the round numbers say about the board's top."""

    log_likelihood: np.ndarray  # (4,) log P(patches | the view is the board turned k), + const
    numbers_seen: float  # expected count of corner patches holding a number


class RoundNumberReader(OnnxModel):
    """The round-number CNN; reads all corner patches (n, P, P) in one call
    (``probabilities``: 5 classes, ``NO_NUMBER`` last)."""

    ONNX_FILE = NUMBERS_FILE
    META_FILE = NUMBERS_META

    def evidence(self, darkness: np.ndarray, board: CanonicalBoard) -> NumberEvidence:
        """Evidence on the board's turn from a straightened board's ink darkness.

        ``board`` must have the cell size the model was trained on. The patches' log
        likelihoods (``patch_log_likelihoods``) are summed; the patches of one board share a
        hand and a font, so their errors are not independent: the sum is tempered by the
        metadata's ``evidence_weight``.
        """
        if (board.cell_px, patch_px(board.cell_px)) != (self.meta["cell_px"],
                                                         self.meta["input_size"]):
            raise ValueError(f"round-number model expects {self.meta['cell_px']} px spaces "
                             f"and {self.meta['input_size']} px patches")
        patches = corner_patches(darkness, board)
        size = patches.shape[-1]
        probs = self.probabilities(patches.reshape(-1, size, size))
        weight = float(self.meta.get("evidence_weight", 1.0))
        return NumberEvidence(
            log_likelihood=weight * patch_log_likelihoods(probs).sum(axis=0),
            numbers_seen=float((1.0 - probs[:, NO_NUMBER]).sum()))
