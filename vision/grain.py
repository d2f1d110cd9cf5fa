"""A grainy board quietened before its ink is measured.

Photos of dim rooms can carry strong noise drawn for each pixel and colour channel apart
(another renderer's, or a phone's without its denoising). The crops take each channel
against its own paper and keep the darkest (``vision.crops.ink_contrast``), so such grain
darkens the paper wherever it falls darkest and buries pencil and pale markers. A
straightened board whose grain is past a gate (``GrainParams.gate``; off by default) has its
colour smoothed and a light blur laid over it before its ink darkness is measured; its
blueness is measured on the board as it was, since smoothed colour smears the water's blue
(docs/VISION.md, "Strong grain, each pixel and channel apart").
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# a second difference across and along: 0 on flat paper and on straight edges' run, its
# response to Gaussian noise of sigma s has a median absolute value of 0.6745 * 6 * s
_SECOND_DIFFERENCE = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
_TO_SIGMA = 1.0 / (0.6745 * 6.0)


@dataclass(frozen=True)
class GrainParams:
    """When a straightened board is quietened, and how."""

    # grain (grey levels, ``board_grain``) above which a board is quietened; None: never.
    # Measured at 2.4 (the renders the readers learnt from stay under 2 on 98 of 100
    # phone-condition and 95 of 100 clean boards): it reads grainy phone photos a sixth
    # better, but the few unfinished held-out boards over it (2.5-3.7) a little worse, so
    # it is off (docs/VISION.md, "Strong grain, each pixel and channel apart")
    gate: float | None = None
    chroma_sigma_px: float = 2.0  # the colour (YCrCb's Cr and Cb) blurred this much ...
    blur_px: float = 0.4  # ... then all three channels this much ...
    blur_px_per_level: float = 0.1  # ... and this much more for each grey level of grain


def board_grain(board_bgr: np.ndarray) -> float:
    """The grain of a straightened BGR board, in grey levels: for each channel the median
    absolute second difference (robust to the strokes and lines, which are few), as the
    sigma of Gaussian noise; the largest of the three."""
    return max(_median(np.abs(cv2.filter2D(channel, cv2.CV_16S, _SECOND_DIFFERENCE)
                               [2:-2, 2:-2])) for channel in cv2.split(board_bgr)) * _TO_SIGMA


def _median(values: np.ndarray) -> float:
    """The median of small non-negative integers (as ``np.median``, counted, not sorted)."""
    counts = np.cumsum(np.bincount(values.ravel()))
    n = int(counts[-1])
    low = int(np.searchsorted(counts, (n - 1) // 2, side="right"))
    high = int(np.searchsorted(counts, n // 2, side="right"))
    return (low + high) / 2.0


def quietened(board_bgr: np.ndarray, params: GrainParams) -> np.ndarray | None:
    """The board with its colour smoothed and a light blur over it when its grain is over
    ``params.gate``; None when it is not (the board is measured as it is)."""
    if params.gate is None:
        return None
    grain = board_grain(board_bgr)
    if grain <= params.gate:
        return None
    ycrcb = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2YCrCb)
    ycrcb[..., 1:] = cv2.GaussianBlur(ycrcb[..., 1:], (0, 0), params.chroma_sigma_px)
    calm = cv2.cvtColor(ycrcb, cv2.COLOR_YCrCb2BGR)
    return cv2.GaussianBlur(calm, (0, 0), params.blur_px + params.blur_px_per_level * grain)
