"""Camera geometry: where the flat board lands in the photo (perspective, rotation, fill) and
the lens's radial distortion."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class View:
    """A homography from board cell units to photo pixels, and the lens distortion."""

    homography: np.ndarray  # 3x3, board cell units -> undistorted photo pixels
    k1: float  # radial distortion, normalised by the half diagonal
    size: tuple[int, int]  # (w, h)
    camera: np.ndarray | None = None  # 3x4, board (x, y, lift) in cells -> undistorted pixels

    def project_3d(self, xyz: np.ndarray) -> np.ndarray:
        """Board points lifted off the table, (n, 3) cells (x, y, height towards the camera),
        -> undistorted photo pixels (n, 2); on the table (height 0) this is ``homography``."""
        xyz = np.asarray(xyz, np.float64).reshape(-1, 3)
        p = np.column_stack([xyz, np.ones(len(xyz))]) @ self.camera.T
        return p[:, :2] / p[:, 2:3]

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Board cell units -> distorted photo pixels."""
        p = cv2.perspectiveTransform(
            np.asarray(pts, np.float64).reshape(-1, 1, 2), self.homography
        ).reshape(-1, 2)
        return distort_points(p, self.k1, self.size)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    rvec = np.asarray(axis, np.float64) / np.linalg.norm(axis) * angle
    return cv2.Rodrigues(rvec)[0]


def distort_points(p: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where undistorted pixel positions appear after the radial distortion of undistort_maps."""
    if k1 == 0:
        return p
    w, h = size
    centre = np.array([(w - 1) / 2, (h - 1) / 2])
    radius = np.hypot(w, h) / 2
    q = p - centre
    out = q.copy()
    for _ in range(20):  # solve out * (1 + k1 r(out)^2) = q
        r2 = np.sum(out**2, axis=1, keepdims=True) / radius**2
        out = q / (1 + k1 * r2)
    return out + centre


def distortion_maps(k1: float, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Fixed-point cv2.remap maps: distorted pixel p samples the undistorted image at
    c + (p - c)(1 + k1 r^2). Computed on a coarse grid and interpolated (the map is smooth)."""
    w, h = size
    cx, cy = (w - 1) / 2, (h - 1) / 2
    radius2 = (np.hypot(w, h) / 2) ** 2
    step = 8
    gw, gh = -(-w // step), -(-h // step)
    # coarse sample j sits where cv2.resize puts it: full-res coordinate (j + 0.5) * step - 0.5
    dx = ((np.arange(gw, dtype=np.float32) + 0.5) * step - 0.5 - cx)[None, :]
    dy = ((np.arange(gh, dtype=np.float32) + 0.5) * step - 0.5 - cy)[:, None]
    factor = 1 + k1 * (dx * dx + dy * dy) / radius2
    coarse = np.dstack(
        [np.broadcast_to(cx + dx * factor, (gh, gw)), np.broadcast_to(cy + dy * factor, (gh, gw))]
    ).astype(np.float32)
    fine = cv2.resize(coarse, (gw * step, gh * step), interpolation=cv2.INTER_LINEAR)[:h, :w]
    return cv2.convertMaps(fine, None, cv2.CV_16SC2)


def _camera_matrix(
    f: float, rot: np.ndarray, centre: np.ndarray, distance: float, shift: np.ndarray
) -> np.ndarray:
    """make_view's projection as a 3x4 matrix on (x, y, lift, 1); lift = -z, towards the camera."""
    intrinsics = np.array([[f, 0, shift[0]], [0, f, shift[1]], [0, 0, 1.0]])
    pose = np.column_stack(
        [rot[:, 0], rot[:, 1], -rot[:, 2], rot @ np.array([-centre[0], -centre[1], 0.0])]
    )
    pose[2, 3] += distance
    return intrinsics @ pose


def make_view(
    board_size: tuple[float, float],
    keep: np.ndarray,
    size: tuple[int, int],
    rotation: float,
    tilt: float,
    tilt_axis: float,
    focal: float,
    fill: float,
    k1: float,
    rng: np.random.Generator,
) -> tuple[View, float]:
    """Place the board (``board_size`` cells, w x h) in a ``size`` photo.

    ``rotation`` (deg) turns the board in its plane, ``tilt`` (deg) tips it about an in-plane
    axis at ``tilt_axis`` (deg), ``focal`` is the focal length in units of the photo diagonal,
    ``fill`` the board's extent over the frame. ``keep`` (n, 2) board points that must stay in
    the frame. Returns the view and the fill actually used.
    """
    w, h = size
    bw, bh = board_size
    f = focal * np.hypot(w, h)
    rot_z = _rotation([0, 0, 1], np.radians(rotation))
    axis = [np.cos(np.radians(tilt_axis)), np.sin(np.radians(tilt_axis)), 0.0]
    rot = _rotation(axis, np.radians(tilt)) @ rot_z
    outline = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float64)
    centre = np.array([bw / 2, bh / 2])

    def project(pts: np.ndarray, distance: float) -> np.ndarray:
        p3 = np.column_stack([pts - centre, np.zeros(len(pts))]) @ rot.T
        p3[:, 2] += distance
        return f * p3[:, :2] / p3[:, 2:3]

    margin = 0.02 * min(w, h)
    for _ in range(30):
        distance = f * max(bw, bh) / (fill * min(w, h))
        for _ in range(3):  # perspective changes the extent a little; converge
            box = project(outline, distance)
            extent = max(np.ptp(box[:, 0]) / w, np.ptp(box[:, 1]) / h)
            distance *= extent / fill
        kept = project(keep, distance)
        lo = margin - kept.min(axis=0)
        hi = np.array([w, h]) - margin - kept.max(axis=0)
        if np.all(hi >= lo):
            # random shift keeping the kept points inside, centred on the photo when possible
            box = project(outline, distance)
            shift = np.array([rng.uniform(lo[i], hi[i]) for i in range(2)])
            shift = np.clip(shift, lo, hi)
            src = outline.astype(np.float32)
            dst = (project(outline, distance) + shift).astype(np.float32)
            view = View(
                cv2.getPerspectiveTransform(src, dst),
                k1,
                size,
                _camera_matrix(f, rot, centre, distance, shift),
            )
            pts = view.project(keep)
            if pts.min() >= 0 and np.all(pts.max(axis=0) <= np.array([w - 1, h - 1])):
                return view, fill
        fill *= 0.93
    raise RuntimeError("could not fit the board in the frame")


def add_tiled(img: np.ndarray, source: np.ndarray, rng: np.random.Generator, tile: int = 256
              ) -> None:
    """Add noise in place, tile by tile, each tile a random window of ``source`` (a 384 px
    int16 noise patch): far cheaper than drawing noise for every pixel."""
    h, w = img.shape[:2]
    for y in range(0, h, tile):
        for x in range(0, w, tile):
            roi = img[y : y + tile, x : x + tile]
            oy, ox = rng.integers(0, 384 - tile, 2)
            patch = source[oy : oy + roi.shape[0], ox : ox + roi.shape[1]]
            cv2.add(roi, patch, dst=roi, dtype=cv2.CV_8U)
