"""Where a hand lies in the photo, so that its outline can be left out of the lattice search.

A hand or arm over the board joins its outline to the frame's in the map of dark lines: the
frame's contour then takes in the hand, and no candidate outlines the lattice. Skin has a
colour of its own: after the photo's white is set by its brightest pixels (the paper, most
often), skin falls in a narrow box of YCrCb chroma (Chai and Ngan's, 1999, taken as is),
whatever its darkness. Thin things of that colour (a brown frame or route, a wood grain) are
opened away: only blobs as thick as a finger are kept.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate.params import SkinParams


def skin_mask(small: np.ndarray, block: int, params: SkinParams) -> np.ndarray:
    """(H, W) uint8 0/1: the skin-coloured blobs of a working-size BGR image, ``block`` its
    adaptive-threshold block (px), grown by ``grow_blocks`` of it."""
    pixels = small.reshape(-1, 3)[::params.white_sample].astype(np.float32)
    white = np.percentile(pixels, params.white_percentile, axis=0) + 1.0
    gains = tuple(float(g) for g in params.white_level / white) + (0.0,)
    balanced = cv2.multiply(small, gains)  # saturating, per channel
    (cr_lo, cr_hi), (cb_lo, cb_hi) = params.cr, params.cb
    skin = cv2.inRange(cv2.cvtColor(balanced, cv2.COLOR_BGR2YCrCb),
                       (params.min_y, cr_lo, cb_lo), (255, cr_hi, cb_hi)) // 255
    thick = max(3, round(params.open_blocks * block) | 1)
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((thick, thick), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    large = (stats[:, cv2.CC_STAT_AREA] >= params.min_area * skin.size).astype(np.uint8)
    large[0] = 0  # the background
    skin = large[labels]
    grow = max(1, round(params.grow_blocks * block) | 1)
    return cv2.dilate(skin, np.ones((grow, grow), np.uint8))


def from_the_edges(mask: np.ndarray) -> np.ndarray:
    """The blobs of ``mask`` (0/1) that touch the image's border: a hand or arm reaching in
    from outside the photo."""
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    border = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    keep = np.zeros(labels.max() + 1, np.uint8)
    keep[border] = 1
    keep[0] = 0  # the background
    return keep[labels]
