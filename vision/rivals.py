"""A lattice refused as no board, or read as a blank one, may hide the board: look again
without it.

The locator keeps the one lattice that agrees best with a printed board's. Sometimes that
is not the board: a second, blank grid sheet lying beside it (a perfect 7 x 7 lattice with
nothing drawn), or the noise of a dark table that an adaptive threshold turns into lines.
The policy (vision.acceptance) then refuses what was found as no board, or reads the spare
sheet as a blank board, and the real board, elsewhere in the photo, is never looked at. Here
the refused or blank lattice is painted over with the colour just round it (``blank_lattice``)
and the photo searched again: a rival. A photo's refusal stands when no rival is read; a
blank reading, when no rival is read with something drawn on it
(``vision.acceptance.blank_reading``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate.views import UNIT_LATTICE
from vision.rectify import GRID


@dataclass(frozen=True)
class RivalParams:
    """When and how a refused lattice is painted over and the photo searched again."""

    enabled: bool = True
    tries: int = 2  # lattices painted over, one after another, before the refusal stands
    # The painted area: the lattice with this many spaces round it (a decoy sheet's frame
    # and margin, the Exit marks), and the ring beyond it whose median colour it takes.
    margin_spaces: float = 1.0
    ring_spaces: float = 0.5
    # A lattice read as a blank board (nothing drawn, nothing in review) may be a spare
    # sheet beside the played one, which has no Exit marks to lose it the search (wide-pen
    # render 9600053): it is painted over once and the photo searched again, and a rival
    # read with something drawn on it is the board. False: blank boards are kept as read.
    blank_boards: bool = True


def grown_quad(corners: np.ndarray, spaces: float) -> np.ndarray:
    """The lattice ``corners`` (4, 2; any consistent winding) grown by ``spaces`` spaces on
    every side, in perspective (each side moved along the lattice's own lines)."""
    to_photo = cv2.getPerspectiveTransform(UNIT_LATTICE, np.asarray(corners, np.float32))
    grown = np.float32([[-spaces, -spaces], [GRID + spaces, -spaces],
                        [GRID + spaces, GRID + spaces], [-spaces, GRID + spaces]])
    return cv2.perspectiveTransform(grown.reshape(-1, 1, 2), to_photo).reshape(4, 2)


def blank_lattice(image: np.ndarray, corners: np.ndarray,
                  params: RivalParams = RivalParams()) -> np.ndarray:
    """A copy of ``image`` (BGR) with the lattice ``corners`` and ``margin_spaces`` round it
    filled with the median colour of the ring of ``ring_spaces`` beyond: what the photo would
    show without that sheet or patch (a flat fill, so no line of it can be found again)."""
    h, w = image.shape[:2]
    inner = grown_quad(corners, params.margin_spaces)
    outer = grown_quad(corners, params.margin_spaces + params.ring_spaces)
    painted = np.zeros((h, w), np.uint8)
    cv2.fillPoly(painted, [np.round(inner).astype(np.int32)], 1)
    ring = np.zeros((h, w), np.uint8)
    cv2.fillPoly(ring, [np.round(outer).astype(np.int32)], 1)
    ring &= 1 - painted
    around = image[ring.astype(bool)]
    if not len(around):  # the ring lies outside the photo: take the photo's own colour
        around = image.reshape(-1, image.shape[2])
    colour = np.median(around, axis=0).astype(image.dtype)
    blanked = image.copy()
    blanked[painted.astype(bool)] = colour
    return blanked
