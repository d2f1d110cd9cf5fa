"""Straightened views of a quadrilateral, and the homography bookkeeping between them and the
photo.

OpenCV solves the 4-point homographies (exactly), warps, and maps points.
``skimage.transform.ProjectiveTransform`` gives the same points, but importing it loads
``scipy.spatial``: about 200 ms more for every process that reads a photo (a one-photo
``rink score`` took 0.62 s instead of 0.43 s).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import GRID

# The lattice as a unit grid: its corners, one space apart, clockwise from the top-left.
UNIT_LATTICE = np.array([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]], np.float32)


@dataclass
class FlatView:
    """``image`` is the photo with a quadrilateral straightened to a square of ``inner_px``
    at ``pad_px`` from each edge; ``to_view`` is the 3 x 3 homography from photo pixels to
    view pixels."""

    image: np.ndarray
    to_view: np.ndarray

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """View pixels (..., 2) back to photo pixels, float32."""
        return _apply(np.linalg.inv(self.to_view), np.asarray(points, np.float32))


def flat_view(image: np.ndarray, quad: np.ndarray, inner_px: float, pad_px: float) -> FlatView:
    """Warp ``quad`` (4 photo points, clockwise) onto a square of ``inner_px`` with ``pad_px``
    around it (outside the photo: 0)."""
    size = round(inner_px + 2 * pad_px)
    lo, hi = pad_px, pad_px + inner_px
    dst = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)
    h_mat = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    flat = cv2.warpPerspective(image, h_mat, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return FlatView(flat, h_mat)


def square(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The corners of an axis-aligned box, clockwise from the top-left."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


# coverage's widening: 1 px either side across the columns (rows) whose share is counted
_ACROSS_COLUMNS = np.ones((1, 3), np.uint8)
_ACROSS_ROWS = np.ones((3, 1), np.uint8)


def coverage_profiles(binary_flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fraction of each column / row that is dark, tolerant to 1 px misalignment."""
    return column_coverage(binary_flat), row_coverage(binary_flat)


def column_coverage(binary_flat: np.ndarray) -> np.ndarray:
    """Fraction of each column that is dark, each pixel widened by 1 px across it."""
    widened = cv2.dilate(binary_flat, _ACROSS_COLUMNS)
    # counted in integers, divided as numpy's mean divides: the same fractions, faster
    return cv2.reduce(widened, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0] / widened.shape[0]


def row_coverage(binary_flat: np.ndarray) -> np.ndarray:
    """Fraction of each row that is dark, each pixel widened by 1 px across it."""
    widened = cv2.dilate(binary_flat, _ACROSS_ROWS)
    return cv2.reduce(widened, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0] / widened.shape[1]


def shifted_lattices(corners: np.ndarray, moves: list[tuple[int, int]]) -> list[np.ndarray]:
    """The lattice ``corners`` moved by whole spaces (dx right, dy down, in its own grid),
    once per move."""
    to_photo = cv2.getPerspectiveTransform(UNIT_LATTICE, corners.astype(np.float32))
    moved = UNIT_LATTICE[None] + np.array(moves, np.float32)[:, None]
    return list(_apply(to_photo, moved))


def _apply(h_mat: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Homography ``h_mat`` applied to float32 points of any (..., 2) shape, float32 out."""
    moved = cv2.perspectiveTransform(points.reshape(-1, 1, 2), h_mat)
    return moved.reshape(points.shape)
