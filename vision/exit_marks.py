"""The 12 printed Exit marks beside the frame: where they sit, and what they tell.

RULINGS.md: Exit marks sit just outside the frame beside the 2nd, 4th and 6th spaces of every
side; top and bottom carry highway, railway, highway, left and right railway, highway,
railway. The locator checks that marks are there (``exit_marks_contrast``: a lattice one
space off has routes there instead); the orienter reads which kind each is
(``exit_axis_evidence``). Both look at the same boxes (``exit_box_means``) on a straightened
board whose lattice is ``7 * cell`` pixels square at ``pad`` pixels from the edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.rectify import GRID


@dataclass(frozen=True)
class ExitBoxes:
    """Where the box beside each space lies, in spaces."""

    out: tuple[float, float] = (0.12, 0.6)  # from the frame outward
    across: tuple[float, float] = (0.25, 0.75)  # along the side, within the space


def exit_box_means(image: np.ndarray, cell: int, pad: int,
                   boxes: ExitBoxes = ExitBoxes()) -> np.ndarray:
    """Mean of ``image`` just outside the frame beside each space: (4 sides N E S W, 7).

    Positions run clockwise round the board (N left to right, E top to bottom, S right to
    left, W bottom to top), so a quarter turn of the board is a roll of the sides.
    """
    y0, y1, x0, x1 = _box_edges(cell, pad, boxes)
    # 8-bit images sum exactly in integers, others in float64
    sums = cv2.integral(np.ascontiguousarray(image) if image.dtype == np.uint8
                        else np.ascontiguousarray(image, dtype=np.float64))
    total = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
    return total / ((y1 - y0) * (x1 - x0))


@lru_cache(maxsize=16)
def _box_edges(cell: int, pad: int, boxes: ExitBoxes
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The boxes of ``exit_box_means`` as [y0, y1) x [x0, x1): four (4, 7) arrays, in its
    order (each side clockwise)."""
    near, far = pad - int(boxes.out[1] * cell), pad - int(boxes.out[0] * cell)
    k = np.arange(GRID)
    lo = pad + ((k + boxes.across[0]) * cell).astype(int)
    hi = pad + ((k + boxes.across[1]) * cell).astype(int)
    end = pad + GRID * cell
    top, bottom = (near, far), (end + pad - far, end + pad - near)
    ones = np.ones(GRID, int)
    sides = [  # (y0, y1, x0, x1) of each side's 7 boxes
        (top[0] * ones, top[1] * ones, lo, hi),  # N, left to right
        (lo, hi, bottom[0] * ones, bottom[1] * ones),  # E, top to bottom
        (bottom[0] * ones, bottom[1] * ones, lo[::-1], hi[::-1]),  # S, right to left
        (lo[::-1], hi[::-1], top[0] * ones, top[1] * ones),  # W, bottom to top
    ]
    edges = tuple(np.stack([side[i] for side in sides]) for i in range(4))
    for array in edges:
        array.setflags(write=False)
    return edges


def exit_marks_contrast(image: np.ndarray, cell: int, pad: int,
                        boxes: ExitBoxes = ExitBoxes()) -> float:
    """Mean darkness beside the Exit spaces (2nd, 4th, 6th) minus beside the others."""
    means = exit_box_means(image, cell, pad, boxes)
    return float(means[:, 1::2].mean() - means[:, 0::2].mean())


def exit_axis_evidence(darkness: np.ndarray, cell: int, pad: int) -> float:
    """Positive when the found top/bottom sides carry the highway Exits (board upright or
    upside down), negative when the board is turned a quarter.

    A railway stub has cross ties: edges across the outward direction. A highway stub (a bar,
    or two lines, perhaps with a dashed centre) has edges along it. "Tie-ness" = share of
    gradient energy along the outward direction; on the top and bottom the middle Exit
    (railway) should have more of it than the outer two (highways), on the sides less.
    """
    grad_x = np.abs(cv2.Sobel(darkness, cv2.CV_32F, 1, 0, ksize=3))
    grad_y = np.abs(cv2.Sobel(darkness, cv2.CV_32F, 0, 1, ksize=3))
    along_x, along_y = exit_box_means(grad_x, cell, pad), exit_box_means(grad_y, cell, pad)
    outward = np.vstack([along_y[0], along_x[1], along_y[2], along_x[3]])  # N, E, S, W
    across = np.vstack([along_x[0], along_y[1], along_x[2], along_y[3]])
    ties = outward / (outward + across + 1e-3)
    middle_minus_outer = ties[:, 3] - (ties[:, 1] + ties[:, GRID - 2]) / 2
    return float(100 * (middle_minus_outer[0] + middle_minus_outer[2]
                        - middle_minus_outer[1] - middle_minus_outer[3]))
