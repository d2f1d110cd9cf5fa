"""Straighten a photographed board: one perspective warp to a canonical top-down image.

Canonical layout: the 7 x 7 space lattice is ``7 * cell_px`` pixels square and sits ``pad_px``
pixels in from every edge, so the Exit marks and the crops' context margins are included.
Corners are always in board order: top-left, top-right, bottom-right, bottom-left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

GRID = 7


@dataclass(frozen=True)
class CanonicalBoard:
    """Size of the straightened board image."""

    cell_px: int
    pad_px: int

    @property
    def size(self) -> int:
        return GRID * self.cell_px + 2 * self.pad_px

    def lattice_corners(self) -> np.ndarray:
        """The 4 lattice corners in canonical pixels (TL, TR, BR, BL)."""
        lo, hi = self.pad_px, self.pad_px + GRID * self.cell_px
        return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float32)


def order_corners(points: np.ndarray) -> np.ndarray:
    """Any 4 points of a convex quadrilateral to clockwise image order starting top-left-most.

    Clockwise on screen (y down). Which corner is the board's top-left is decided later,
    from the Exit marks and artwork; this only gives a consistent winding.
    """
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y grows downwards)
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def space_side(corners: np.ndarray) -> float:
    """The mean side of a lattice's spaces, in the pixels of its 4 ``corners`` (in order)."""
    corners = np.asarray(corners, dtype=np.float64)
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean()) / GRID


def photo_to_canonical(corners: np.ndarray, board: CanonicalBoard) -> np.ndarray:
    """3 x 3 homography taking photo pixels to canonical pixels."""
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    return cv2.getPerspectiveTransform(src, board.lattice_corners())


@dataclass
class BoardRegion:
    """The photo cut to the board and shrunk: warps of the board at the size it was cut for,
    or smaller, read from it as from the photo, and faster (see ``board_region``)."""

    image: np.ndarray
    corners: np.ndarray  # the lattice corners in ``image`` pixels
    origin: np.ndarray  # (x, y) of the region's top-left in the photo
    scale: np.ndarray  # (x, y) region pixels per photo pixel

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Region pixels back to photo pixels."""
        return np.asarray(points, dtype=np.float64) / self.scale + self.origin


def board_region(image: np.ndarray, corners: np.ndarray, cell_px: int,
                 margin_spaces: float) -> BoardRegion:
    """Cut the photo to the lattice plus ``margin_spaces`` and shrink it with area averaging
    to about 1.5 * ``cell_px`` per space (never enlarging), so thin strokes do not alias away
    in a bilinear warp to ``cell_px`` per space."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    side = max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4))
    shrink = (GRID * cell_px) / side
    if shrink >= 0.6:
        return BoardRegion(image, corners, np.zeros(2), np.ones(2))
    h, w = image.shape[:2]
    grow = (side / GRID) * margin_spaces
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - grow), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + grow), [w, h]).astype(int)
    region = image[y0:y1, x0:x1]
    factor = min(1.0, shrink * 1.5)
    small = cv2.resize(region, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    scale = np.array([small.shape[1] / region.shape[1], small.shape[0] / region.shape[0]])
    origin = np.array([x0, y0], dtype=np.float64)
    return BoardRegion(small, (corners - origin) * scale, origin, scale)


def warp_board(image: np.ndarray, corners: np.ndarray, board: CanonicalBoard) -> np.ndarray:
    """Warp ``image`` so the lattice given by ``corners`` fills the canonical layout.

    When the board is much larger in the photo than in the canonical image, the photo is
    first shrunk with area averaging (inside the board's bounding box only, see
    ``board_region``), so thin strokes do not alias away in the bilinear warp.
    """
    region = board_region(image, corners, board.cell_px, board.pad_px / board.cell_px + 0.5)
    h_mat = photo_to_canonical(region.corners.astype(np.float32), board)
    return cv2.warpPerspective(region.image, h_mat, (board.size, board.size),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def warp_board_mesh(image: np.ndarray, corners: np.ndarray, board: CanonicalBoard,
                    source: Callable[[np.ndarray], np.ndarray], step_px: int = 4) -> np.ndarray:
    """Like ``warp_board``, but canonical pixel p is taken from where the homography puts
    ``source(p)`` (canonical points (..., 2) to canonical points): a mesh warp of the board
    in one ``cv2.remap`` from ``image``, which must already be at a scale fit for the warp
    (a ``BoardRegion``'s image). The map is computed every ``step_px`` pixels and
    interpolated (it is smooth)."""
    size = board.size
    count = -(-size // step_px) + 2  # one sample more past each edge: no extrapolation
    # resized, coarse sample k lands at (k + 0.5) * step - 0.5, which is pixel p + step
    at = (np.arange(count) - 0.5) * step_px - 0.5
    gx, gy = np.meshgrid(at, at)
    coarse = canonical_to_image(source(np.stack([gx, gy], axis=-1)), corners, board)
    fine = cv2.resize(coarse.astype(np.float32), (count * step_px, count * step_px),
                      interpolation=cv2.INTER_LINEAR)[step_px:step_px + size,
                                                      step_px:step_px + size]
    return cv2.remap(image, np.ascontiguousarray(fine[..., 0]), np.ascontiguousarray(fine[..., 1]),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def canonical_to_image(points: np.ndarray, corners: np.ndarray, board: CanonicalBoard
                       ) -> np.ndarray:
    """Canonical points (..., 2) back to the pixels of the image whose lattice ``corners``
    the board was warped from."""
    to_image = np.linalg.inv(photo_to_canonical(np.asarray(corners, np.float32), board))
    pts = np.asarray(points, np.float64)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), to_image).reshape(pts.shape)


def rotate_corners(corners: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Relabel corners so the board's top moves to the side ``quarter_turns`` clockwise.

    With corners (TL, TR, BR, BL) of a straightened board, ``rotate_corners(c, 1)`` names
    the current left side the new top (the board image turns 90 degrees clockwise).
    """
    return np.roll(np.asarray(corners).reshape(4, 2), quarter_turns % 4, axis=0)


def turn_canonical(image: np.ndarray, quarter_turns: int) -> np.ndarray:
    """From a board warped with ``corners``, the image that warping with
    ``rotate_corners(corners, -quarter_turns)`` gives, without warping again.

    A quarter turn of the array, then a one-pixel shift: canonical pixel centres put the
    lattice's centre at size / 2, the array's own centre is at (size - 1) / 2.
    """
    k = quarter_turns % 4
    turned = np.rot90(image, k)
    return np.roll(turned, (int(k in (1, 2)), int(k in (2, 3))), axis=(0, 1))
