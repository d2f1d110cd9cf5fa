"""Refining a lattice guess: snap its inner intersections and refit the homography, then move
each side from the middle of the thick printed frame onto its inner edge.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from vision.locate.params import FitParams
from vision.locate.views import flat_view, square
from vision.rectify import GRID

# FitParams.robust_fit: OpenCV's methods of fitting a homography to points with outliers
ROBUST_METHODS = {"usac": cv2.USAC_DEFAULT, "ransac": cv2.RANSAC}


def refine(binary: np.ndarray, corners: np.ndarray, params: FitParams) -> np.ndarray:
    """Snap to the lattice intersections (a cross filter) and refit the homography robustly
    (``FitParams.robust_fit``)."""
    cell = params.refine_cell
    pad = cell
    ideal = np.array([[pad + j * cell, pad + i * cell] for i in range(GRID + 1)
                      for j in range(GRID + 1)], np.float32)
    inner = ideal.reshape(GRID + 1, GRID + 1, 2)[1:-1, 1:-1].reshape(-1, 2)
    radius = int(params.snap_radius * cell)  # (less than the pad: windows inside the view)
    xs, ys = inner.astype(int).T
    for _ in range(params.refine_rounds):
        view = flat_view(binary, corners, GRID * cell, pad)
        response = _cross_response(view.image.astype(np.float32), cell, params.cross_length)
        # the window round each inner intersection, flattened: (36, window pixels)
        windows = sliding_window_view(response, (2 * radius + 1, 2 * radius + 1))[
            ys - radius, xs - radius].reshape(len(inner), -1)
        strong = windows.max(axis=1) >= params.min_cross
        dy, dx = np.unravel_index(np.argmax(windows[strong], axis=1), (2 * radius + 1,) * 2)
        found = np.stack([xs[strong] - radius + dx, ys[strong] - radius + dy], axis=1)
        wanted = inner[strong]
        if len(found) < params.min_intersections:
            break
        fit, mask = cv2.findHomography(wanted, found.astype(np.float32),
                                       ROBUST_METHODS[params.robust_fit], params.ransac_px * cell)
        if fit is None or mask.sum() < params.min_intersections:
            break
        lattice = ideal[[0, GRID, (GRID + 1) ** 2 - 1, GRID * (GRID + 1)]]
        moved = cv2.perspectiveTransform(lattice.reshape(-1, 1, 2), fit).reshape(-1, 2)
        corners = view.to_photo(moved)
    return corners.astype(np.float32)


def _cross_response(dark: np.ndarray, cell: int, arm: float) -> np.ndarray:
    """High where a vertical and a horizontal line cross (long thin lines both ways)."""
    length = max(3, int(arm * cell))
    vertical = cv2.blur(dark, (3, length))
    horizontal = cv2.blur(dark, (length, 3))
    return vertical * horizontal


def snap_to_frame(gray: np.ndarray, corners: np.ndarray, params: FitParams) -> np.ndarray:
    """Move each side of the lattice onto the inner edge of the thick printed frame.

    Line fits land on the middle of the frame; the lattice boundary is its inner edge. On a
    straightened view, each side's darkness profile across the frame is followed from its
    darkest point inward to where it falls half way to the paper.
    """
    cell = params.refine_cell
    pad = cell // 2
    view = flat_view(gray, corners, GRID * cell, pad)
    dark = 255.0 - view.image.astype(np.float32)
    lo, hi = pad + cell, pad + (GRID - 1) * cell  # middle of each side, clear of corners
    reach = int(params.frame_reach * cell)
    end = pad + GRID * cell
    # profiles running inward from outside, one per side (N, E, S, W)
    profiles = [dark[pad - reach:pad + reach, lo:hi].mean(axis=1),
                dark[lo:hi, end - reach:end + reach].mean(axis=0)[::-1],
                dark[end - reach:end + reach, lo:hi].mean(axis=1)[::-1],
                dark[lo:hi, pad - reach:pad + reach].mean(axis=0)]
    shifts = []
    for profile in profiles:
        peak = int(np.argmax(profile))
        inside = float(np.median(profile[reach + 2:]))
        half = (profile[peak] + inside) / 2
        edge = peak
        while edge + 1 < len(profile) and profile[edge + 1] > half:
            edge += 1
        contrast = profile[peak] - inside
        # inward shift from the current side, in flat pixels (0 when there is no clear frame)
        shifts.append(float(edge + 0.5 - reach) if contrast > params.frame_contrast else 0.0)
    n, e, s_, w = shifts
    return view.to_photo(square(pad + w, pad + n, end - e, end - s_))
