"""Turn a straightened board into the classifier's input: 49 space crops in one array.

Each crop is the space plus ``margin_px`` of context on every side (so the network sees
whether strokes run on into the neighbours and where the printed lines are). Pixels are ink
darkness after flat-fielding: the darkest channel divided by a local estimate of the paper,
so tints, shadows and marker colours all become "dark ink on zero background".
"""

from __future__ import annotations

import cv2
import numpy as np
from skimage.util import view_as_windows

from vision.rectify import GRID, CanonicalBoard


def darkest_channel(image: np.ndarray) -> np.ndarray:
    """Per pixel, the darkest of B, G and R (a grey image is returned as it is).

    Ink of any colour is dark in at least one channel, while paper is light in all three.
    """
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)  # far faster than numpy's min(axis=2), same pixels


def ink_darkness(board_bgr: np.ndarray, cell_px: int) -> np.ndarray:
    """Flat-fielded ink darkness (uint8, 0 = paper, 255 = black ink) of a straightened board.

    The paper estimate is a grey closing (removes strokes thinner than ~half a space) then a
    blur, so uneven light, soft shadows and pale tints divide out.
    """
    darkest = darkest_channel(board_bgr)
    k = max(3, (cell_px // 2) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    paper = cv2.morphologyEx(darkest, cv2.MORPH_CLOSE, kernel)
    paper = cv2.blur(paper, (k, k)).astype(np.float32) + 1.0
    ratio = darkest.astype(np.float32) / paper
    darkness = 1.0 - ratio
    # Contrast: the board's darkest 1 % (printed frame and lines, ink) maps to about 220.
    peak = max(float(np.percentile(darkness, 99)), 0.15)
    return np.clip(darkness * (220.0 / peak), 0, 255).astype(np.uint8)


def space_crops(darkness: np.ndarray, board: CanonicalBoard, margin_px: int) -> np.ndarray:
    """The 49 crops, shape (49, S, S) with S = cell_px + 2 * margin_px, row-major order."""
    if margin_px > board.pad_px:
        raise ValueError("crop margin larger than the canonical padding")
    first = board.pad_px - margin_px
    return lattice_windows(darkness, (first, first), board.cell_px + 2 * margin_px,
                           board.cell_px)


def lattice_windows(image: np.ndarray, first: tuple[int, int], size: int, step: int
                    ) -> np.ndarray:
    """Copies of the ``size`` x ``size`` windows of ``image`` whose top-left corners lie on a
    7 x 7 grid from ``first`` (y, x), ``step`` pixels apart: (49, size, size), row-major."""
    y0, x0 = first
    span = (GRID - 1) * step + size
    windows = view_as_windows(image[y0:y0 + span, x0:x0 + span], (size, size), step)
    return windows.reshape(GRID * GRID, size, size)
