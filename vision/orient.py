"""Which side of a found lattice is the board's printed top.

Three pieces of evidence, multiplied as probabilities over the four quarter turns:

- the Exit marks (RULINGS.md): top and bottom sides carry highway, railway, highway at the
  2nd, 4th and 6th spaces; left and right carry railway, highway, railway. A railway stub
  has cross ties, a highway stub (bar or two lines) does not, which settles the board up to
  a half turn;
- a small CNN (``models/board_orienter.onnx``) on a straightened view with 2.5 spaces of
  margin, which sees the Exit marks and the printed artwork (Special Routes panel above the
  grid, score table below) and so also tells top from bottom;
- the round numbers written in the spaces' corner boxes (vision/round_numbers.py), upright on
  the board, which tell top from bottom on their own wherever the players wrote them; read
  when the first two leave the top unsure.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.crops import ink_darkness
from vision.exit_marks import exit_axis_evidence
from vision.onnx_model import OnnxModel, softmax
from vision.rectify import CanonicalBoard, rotate_corners, warp_board
from vision.round_numbers import RoundNumberReader

# A small straightened view with 2.5 spaces of margin (input of the orienter CNN).
WIDE_BOARD = CanonicalBoard(cell_px=8, pad_px=20)
EXIT_VIEW = CanonicalBoard(cell_px=24, pad_px=24)
ORIENTER_FILE = "board_orienter.onnx"
ORIENTER_META = "board_orienter.json"


@dataclass(frozen=True)
class OrientParams:
    """The orienter's tunables."""

    # The round numbers are read only when Exit marks and artwork leave the top less sure
    # than this (43 of 498 held-out boards before they were added): it saves their ~10 ms
    # elsewhere.
    numbers_below: float = 0.999
    exit_scale: float = 5.0  # darkness units: how strongly the Exit-mark difference counts


@dataclass
class Orientation:
    """How to turn a found lattice upright."""

    corners: np.ndarray  # (4, 2) photo corners in board order TL, TR, BR, BL
    quarter_turns: int  # the lattice as found was the board turned clockwise this many times
    confidence: float  # posterior probability of this turn
    exit_evidence: float  # > 0: highway Exits on the found top/bottom sides
    numbers_seen: float  # about how many round numbers were read (0: none, not needed, no model)


class BoardTurnNet(OnnxModel):
    """The orienter CNN: which quarter turn of the board a ``WIDE_BOARD`` view shows."""

    ONNX_FILE = ORIENTER_FILE
    META_FILE = ORIENTER_META

    def turn_probs(self, view: np.ndarray) -> np.ndarray:
        """P(the uint8 ink-darkness ``view`` is the board turned clockwise k times), k = 0..3,
        averaged over the view's four turns (the view turned t more times reads as k + t)."""
        x = self.network_input(np.stack([np.rot90(view, k=-t) for t in range(4)]))
        logits = np.concatenate([self.run(x[t:t + 1]) for t in range(4)])  # batches of one
        turned = self.calibrated(logits)
        probs = np.zeros(4)
        for t in range(4):
            probs += np.roll(turned[t], -t)
        return probs / 4


class BoardOrienter:
    """The evidence for the board's top (the CNN and the round-number reader are optional)."""

    def __init__(self, net: BoardTurnNet | None = None, numbers: RoundNumberReader | None = None,
                 params: OrientParams = OrientParams()) -> None:
        self.net = net
        self.numbers = numbers
        self.params = params

    @classmethod
    def load(cls, models_dir: Path, params: OrientParams = OrientParams()) -> BoardOrienter:
        """The orienter with whichever of its networks ``models_dir`` holds."""
        return cls(BoardTurnNet.load_if_present(models_dir),
                   RoundNumberReader.load_if_present(models_dir), params)

    def cnn_probs(self, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """P(the view from ``corners`` is the board turned clockwise k times), k = 0..3."""
        if self.net is None:
            return np.full(4, 0.25)
        # the darkest channel, as the network learnt its views (data version 3)
        view = ink_darkness(warp_board(image, corners, WIDE_BOARD), WIDE_BOARD.cell_px,
                            each_channel=False)
        return self.net.turn_probs(view)

    def numbers_probs(self, darkness: np.ndarray | None, board: CanonicalBoard | None
                      ) -> tuple[np.ndarray, float]:
        """P(turn k) from the round numbers of the board straightened as found (ink darkness
        at ``board``'s size), and about how many numbers were read."""
        if self.numbers is None or darkness is None or board is None:
            return np.full(4, 0.25), 0.0
        evidence = self.numbers.evidence(darkness, board)
        return softmax(evidence.log_likelihood), evidence.numbers_seen

    def orient(self, image: np.ndarray, corners: np.ndarray, darkness: np.ndarray | None = None,
               board: CanonicalBoard | None = None) -> Orientation:
        """Decide the board's top for lattice ``corners`` (any cyclic order, clockwise).

        ``darkness``: the board straightened with ``corners`` as given, as ink darkness on
        ``board`` (the classifier's layout), for the round numbers; they are read when the
        other evidence leaves the top unsure (``numbers_below``), and never without it.
        """
        view = ink_darkness(warp_board(image, corners, EXIT_VIEW), EXIT_VIEW.cell_px)
        evidence = exit_axis_evidence(view.astype(np.float32), EXIT_VIEW.cell_px,
                                      EXIT_VIEW.pad_px)
        p_upright_axis = 1.0 / (1.0 + np.exp(-evidence / self.params.exit_scale))
        axis = np.array([p_upright_axis, 1 - p_upright_axis, p_upright_axis, 1 - p_upright_axis])
        combined = axis * self.cnn_probs(image, corners)
        combined /= combined.sum()
        seen = 0.0
        if combined.max() < self.params.numbers_below:
            numbers, seen = self.numbers_probs(darkness, board)
            combined *= numbers
            combined /= combined.sum()
        k = int(np.argmax(combined))
        return Orientation(corners=rotate_corners(corners, -k).astype(np.float32),
                           quarter_turns=k, confidence=float(combined[k]),
                           exit_evidence=float(evidence), numbers_seen=seen)

