"""A sheet that does not lie flat: curled edges, a fold with its crease, bumpy paper.

The sheet is a surface over the board's plane: board point p (cells) sits at the 3D point
S(p) = (x, y, lift). Bends are cylindrical and keep the paper's lengths across them (a
curvature profile along one direction, integrated into an in-plane shift and a lift, then
laid on the table as it would rest); bumps only lift. ``View.project_3d`` takes S(p) into
the photo, so the image (``warp_sheet``) and every truth point (``Sheet.to_photo``) come
from one map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import View, distort_points

_STEP = 0.004  # sampling of a bend's profile, cells
_PAD = 3.0  # profile sampled this far past the sheet (cells), kept flat


@dataclass(frozen=True, eq=False)
class Bend:
    """A cylindrical bend along ``direction``: at s = p . direction the sheet has moved by
    ``shift(s)`` along the direction and risen by ``lift(s)``."""

    direction: np.ndarray  # (2,) unit vector in the board plane
    s: np.ndarray  # profile samples, cells
    shift: np.ndarray  # in-plane displacement along direction
    lift: np.ndarray  # height above the table
    slope: np.ndarray  # angle of the sheet against the table, radians

    def at(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = pts @ self.direction
        return (
            np.interp(s, self.s, self.shift),
            np.interp(s, self.s, self.lift),
            np.interp(s, self.s, self.slope),
        )


def _lower_hull(x: np.ndarray, z: np.ndarray) -> list[int]:
    """Indices of the lower convex hull of points sorted by x (monotone chain)."""
    hull: list[int] = []
    for i in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (z[i] - z[a]) - (z[b] - z[a]) * (x[i] - x[a])
            if cross > 0:
                break
            hull.pop()
        hull.append(i)
    return hull


def make_bend(direction, s_range: tuple[float, float], curvature) -> Bend:
    """Integrate ``curvature(s)`` (1/cells, an array function) over the sheet's extent
    ``s_range`` along ``direction``, and rest the result on the table under its centre of
    mass (lengths are kept: the in-plane shift is what the bend takes up)."""
    d = np.asarray(direction, float)
    d = d / np.linalg.norm(d)
    s0, s1 = s_range
    s = np.arange(s0 - _PAD, s1 + _PAD + _STEP, _STEP)
    inside = (s >= s0) & (s <= s1)
    kappa = np.where(inside, curvature(s), 0.0)
    theta = np.concatenate([[0.0], np.cumsum((kappa[1:] + kappa[:-1]) / 2 * _STEP)])
    x = np.concatenate([[0.0], np.cumsum((np.cos(theta[1:]) + np.cos(theta[:-1])) / 2 * _STEP)])
    z = np.concatenate([[0.0], np.cumsum((np.sin(theta[1:]) + np.sin(theta[:-1])) / 2 * _STEP)])
    x += s[0]
    # rest on the table: the lower hull's edge under the centre of mass lies on it
    idx = np.flatnonzero(inside)
    hull = idx[_lower_hull(x[idx], z[idx])]
    xc = float(np.mean(x[idx]))
    k = int(np.clip(np.searchsorted(x[hull], xc) - 1, 0, max(len(hull) - 2, 0)))
    a, b = hull[k], hull[min(k + 1, len(hull) - 1)]
    phi = float(np.arctan2(z[b] - z[a], x[b] - x[a])) if b != a else 0.0
    c, sn = np.cos(-phi), np.sin(-phi)
    x, z = x - x[a], z - z[a]
    x, z = c * x - sn * z, sn * x + c * z
    z = np.maximum(z, 0.0)
    mid = int(np.argmin(np.abs(s - (s0 + s1) / 2)))
    x += s[mid] - x[mid]
    return Bend(d, s, x - s, z, theta - phi)


@dataclass(frozen=True, eq=False)
class Bumps:
    """Small smooth hills (paper that got damp): a sum of a few plane waves, resting at 0."""

    freqs: np.ndarray  # (k, 2) radians per cell
    phases: np.ndarray  # (k,)
    amps: np.ndarray  # (k,) cells
    floor: float

    def lift(self, pts: np.ndarray) -> np.ndarray:
        return np.cos(pts @ self.freqs.T + self.phases) @ self.amps - self.floor

    def gradient(self, pts: np.ndarray) -> np.ndarray:
        return -(np.sin(pts @ self.freqs.T + self.phases) * self.amps) @ self.freqs


@dataclass(frozen=True, eq=False)
class Sheet:
    """The board's sheet: ``size`` (w, h) in cells, bends, bumps and the fold lines drawn as
    creases (a point and a direction along the crease, in cells)."""

    kind: str  # "flat" | "curled" | "folded" | "bumpy"
    size: tuple[float, float]
    bends: tuple[Bend, ...] = ()
    bumps: Bumps | None = None
    creases: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    params: dict = field(default_factory=dict)

    @property
    def flat(self) -> bool:
        return not self.bends and self.bumps is None

    def surface(self, pts: np.ndarray) -> np.ndarray:
        """Board points (n, 2) in cells -> 3D (n, 3): x, y and lift, in cells."""
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        out = np.column_stack([pts, np.zeros(len(pts))])
        for bend in self.bends:
            shift, lift, _ = bend.at(pts)
            out[:, :2] += shift[:, None] * bend.direction
            out[:, 2] += lift
        if self.bumps is not None:
            out[:, 2] += self.bumps.lift(pts)
        return out

    def normals(self, pts: np.ndarray) -> np.ndarray:
        """Unit surface normals (n, 3) at board points (pointing away from the table)."""
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        grad = np.zeros((len(pts), 2))
        for bend in self.bends:
            grad += np.tan(bend.at(pts)[2])[:, None] * bend.direction
        if self.bumps is not None:
            grad += self.bumps.gradient(pts)
        n = np.column_stack([-grad, np.ones(len(pts))])
        return n / np.linalg.norm(n, axis=1, keepdims=True)

    def to_photo_undistorted(self, view: View, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        if self.flat:
            return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), view.homography).reshape(-1, 2)
        return view.project_3d(self.surface(pts))

    def to_photo(self, view: View, pts: np.ndarray) -> np.ndarray:
        """Board points (cells) -> photo pixels, lens distortion included (the truth)."""
        return distort_points(self.to_photo_undistorted(view, pts), view.k1, view.size)

    def facing(self, view: View, n: int = 40) -> float:
        """The least cosine, over the sheet, between its normal and the way to the camera
        (under about 0.25 the sheet would be seen nearly edge-on, or from behind)."""
        _, _, vt = np.linalg.svd(view.camera)
        camera = vt[-1, :3] / vt[-1, 3]
        w, h = self.size
        gx, gy = np.meshgrid(np.linspace(0, w, n), np.linspace(0, h, n))
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        ray = camera - self.surface(pts)
        ray /= np.linalg.norm(ray, axis=1, keepdims=True)
        return float(np.min(np.sum(ray * self.normals(pts), axis=1)))

    def outline(self, n: int = 48) -> np.ndarray:
        """The sheet's edge as a closed polygon in cells (n points a side)."""
        w, h = self.size
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
        return np.concatenate(
            [corners[i] + t * (corners[(i + 1) % 4] - corners[i]) for i in range(4)]
        )

    def scaled(self, factor: float) -> Sheet:
        """The same shape with every bend and bump ``factor`` times as strong."""
        return build_sheet(self.params["seed"], self.kind, self.size, factor)

    def to_json(self) -> dict:
        return {"kind": self.kind, **{k: v for k, v in self.params.items() if k != "seed"}}


def _edge_curl(s0: float, s1: float, length: float, angle: float, high: bool):
    """Curvature rising linearly towards one edge so that it turns up by ``angle``."""
    kmax = 2 * angle / length

    def curvature(s: np.ndarray) -> np.ndarray:
        t = (s - (s1 - length)) / length if high else ((s0 + length) - s) / length
        return kmax * np.clip(t, 0, 1)

    return curvature


def _range(size: tuple[float, float], d: np.ndarray) -> tuple[float, float]:
    w, h = size
    s = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) @ d
    return float(s.min()), float(s.max())


def _axis(rng: np.random.Generator, along_x: bool, spread_deg: float) -> np.ndarray:
    a = np.radians(rng.normal(0, spread_deg)) + (0 if along_x else np.pi / 2)
    return np.array([np.cos(a), np.sin(a)])


def sample_sheet(rng: np.random.Generator, kind: str, size: tuple[float, float]) -> Sheet:
    """A random sheet of ``kind`` over a board of ``size`` (w, h) cells."""
    return build_sheet(int(rng.integers(1 << 62)), kind, size)


def build_sheet(seed: int, kind: str, size: tuple[float, float], strength: float = 1.0) -> Sheet:
    """The sheet of ``kind`` that ``seed`` gives; ``strength`` scales its bends and bumps
    (render_photo eases a sheet that would leave the frame)."""
    rng = np.random.default_rng(seed)
    params: dict = {"seed": seed, "strength": round(strength, 3)}
    bends: list[Bend] = []
    creases = []
    bumps = None
    if kind == "curled":
        d = _axis(rng, rng.random() < 0.5, 4)
        s0, s1 = _range(size, d)
        span = s1 - s0
        if rng.random() < 0.3:  # the whole sheet bowed: edges up, or an arch resting on them
            total = np.radians(rng.uniform(8, 25)) * strength * rng.choice([-1, 1])
            bends.append(make_bend(d, (s0, s1), lambda s: np.full_like(s, total / span)))
            params.update(shape="bow", angle_deg=round(float(np.degrees(total)), 1))
        else:
            ends = ["high", "low", "both"][int(rng.choice(3, p=[0.35, 0.35, 0.3]))]
            curls = []
            for high in (True,) if ends == "high" else (False,) if ends == "low" else (True, False):
                length = rng.uniform(0.15, 0.35) * span
                angle = np.radians(rng.uniform(15, 50)) * strength
                curls.append(_edge_curl(s0, s1, length, angle, high))
                params.setdefault("edges", []).append(
                    {
                        "high": high,
                        "length": round(float(length), 2),
                        "angle_deg": round(float(np.degrees(angle)), 1),
                    }
                )
            bends.append(make_bend(d, (s0, s1), lambda s: sum(c(s) for c in curls)))
            params["shape"] = "edge"
        params["direction"] = [round(float(v), 4) for v in d]
    elif kind == "folded":
        along_x = rng.random() < 0.5
        folds = [along_x] + ([not along_x] if rng.random() < 0.3 else [])
        params["folds"] = []
        for ax in folds:
            d = _axis(rng, ax, 1.5)
            s0, s1 = _range(size, d)
            at = s0 + (s1 - s0) * rng.uniform(0.4, 0.6)
            width = rng.uniform(0.04, 0.12)
            most = 25 if not params["folds"] else 12  # a second fold stays milder
            angle = np.radians(rng.uniform(6, most)) * strength * rng.choice([-1, 1])
            rest = rng.normal(0, 0.015) * strength  # the halves keep a little curl

            def curvature(s, at=at, width=width, angle=angle, rest=rest):
                return np.where(np.abs(s - at) < width / 2, angle / width, 0.0) + rest

            bends.append(make_bend(d, (s0, s1), curvature))
            along = np.array([-d[1], d[0]])
            creases.append((d * at, along))
            params["folds"].append(
                {
                    "direction": [round(float(v), 4) for v in d],
                    "at": round(float(at), 3),
                    "angle_deg": round(float(np.degrees(angle)), 1),
                    "crease": round(float(width), 3),
                }
            )
    elif kind == "bumpy":
        k = 5
        wavelength = rng.uniform(1.5, 5.0, k)
        angle = rng.uniform(0, np.pi, k)
        freqs = (2 * np.pi / wavelength)[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
        amps = rng.uniform(0.3, 1.0, k)
        amps *= rng.uniform(0.03, 0.09) * strength / amps.sum() * 2
        phases = rng.uniform(0, 2 * np.pi, k)
        w, h = size
        gx, gy = np.meshgrid(np.linspace(0, w, 60), np.linspace(0, h, 60))
        grid = np.column_stack([gx.ravel(), gy.ravel()])
        probe = Bumps(freqs, phases, amps, 0.0)
        bumps = Bumps(freqs, phases, amps, float(probe.lift(grid).min()))
        params["amplitude"] = round(float(amps.sum()), 3)
    elif kind != "flat":
        raise ValueError(f"unknown sheet kind {kind!r}")
    return Sheet(kind, size, tuple(bends), bumps, tuple(creases), params)


def photo_roi(sheet: Sheet, view: View, scale: float, pad: int = 4) -> tuple[int, int, int, int]:
    """Bounding box (x0, y0, x1, y1) of the sheet in the undistorted photo, clipped to it."""
    w, h = view.size
    edge = sheet.to_photo_undistorted(view, sheet.outline() * 1.0)
    x0, y0 = np.floor(edge.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(edge.max(axis=0)).astype(int) + pad
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def warp_sheet(
    board_image: np.ndarray, sheet: Sheet, view: View, cell: float, photo: np.ndarray
) -> float:
    """Draw the flat ``board_image`` (``cell`` px a space) onto ``photo`` as the bent sheet
    (undistorted photo; lens distortion comes later). Each photo pixel's board point is
    found by fixed-point iteration through the plane's homography, on a coarse grid, then
    interpolated. Returns the largest residual of the iteration, in photo pixels."""
    x0, y0, x1, y1 = photo_roi(sheet, view, 1.0)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    rw, rh = x1 - x0, y1 - y0
    step = max(2, int(np.ceil(np.sqrt(rw * rh / 150_000))))
    gw, gh = -(-rw // step), -(-rh // step)
    # coarse sample j sits where cv2.resize puts it: (j + 0.5) * step - 0.5
    gx = x0 + (np.arange(gw) + 0.5) * step - 0.5
    gy = y0 + (np.arange(gh) + 0.5) * step - 0.5
    qx, qy = np.meshgrid(gx, gy)
    q = np.column_stack([qx.ravel(), qy.ravel()])
    inverse = np.linalg.inv(view.homography)

    def plane(px: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(px.reshape(-1, 1, 2), inverse).reshape(-1, 2)

    target = plane(q)
    p = target.copy()
    for _ in range(60):
        delta = target - plane(view.project_3d(sheet.surface(p)))
        p += delta
        if np.abs(delta).max() < 1e-4:
            break
    residual = float(np.abs(view.project_3d(sheet.surface(p)) - q).max())
    coarse = (p * cell).astype(np.float32).reshape(gh, gw, 2)
    fine = cv2.resize(coarse, (gw * step, gh * step), interpolation=cv2.INTER_LINEAR)[:rh, :rw]
    roi = photo[y0:y1, x0:x1]
    cv2.remap(
        board_image,
        np.ascontiguousarray(fine[..., 0]),
        np.ascontiguousarray(fine[..., 1]),
        cv2.INTER_LINEAR,
        dst=roi,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    return residual


def shade_sheet(
    board_image: np.ndarray, sheet: Sheet, cell: float, rng: np.random.Generator
) -> dict:
    """Light the bent sheet (in place, on the flat board image): each part is as bright as it
    faces a lamp; a fold's crease gets its line of broken fibres. Returns what was drawn."""
    h, w = board_image.shape[:2]
    elevation = np.radians(rng.uniform(35, 70))
    azimuth = rng.uniform(0, 2 * np.pi)
    light = np.array(
        [
            np.cos(elevation) * np.cos(azimuth),
            np.cos(elevation) * np.sin(azimuth),
            np.sin(elevation),
        ]
    )
    ambient = rng.uniform(0.3, 0.5)
    if not sheet.flat:
        step = max(1.0, cell / 40)
        gw, gh = max(2, int(np.ceil(w / step))), max(2, int(np.ceil(h / step)))
        gx = ((np.arange(gw) + 0.5) * step - 0.5) / cell
        gy = ((np.arange(gh) + 0.5) * step - 0.5) / cell
        px, py = np.meshgrid(gx, gy)
        n = sheet.normals(np.column_stack([px.ravel(), py.ravel()]))
        lit = ambient + (1 - ambient) * np.clip(n @ light, 0, None)
        shade = (lit / (ambient + (1 - ambient) * light[2])).reshape(gh, gw).astype(np.float32)
        shade = cv2.resize(np.clip(shade, 0.45, 1.3), (w, h), interpolation=cv2.INTER_LINEAR)
        gain = (shade * 4096).astype(np.uint16)
        board_image[:] = cv2.multiply(
            board_image, cv2.merge([gain, gain, gain]), scale=1 / 4096, dtype=cv2.CV_8U
        )
    for point, along in sheet.creases:
        _crease_line(board_image, point * cell, along, cell, rng)
    return {
        "light_elevation_deg": round(float(np.degrees(elevation)), 1),
        "light_azimuth_deg": round(float(np.degrees(azimuth)), 1),
    }


def _crease_line(
    img: np.ndarray, point: np.ndarray, along: np.ndarray, cell: float, rng: np.random.Generator
) -> None:
    """The fold's crease on the flat board: a thin bright line beside a darker one."""
    reach = 2 * max(img.shape[:2])
    a, b = point - along * reach, point + along * reach
    normal = np.array([-along[1], along[0]])
    width = max(1, int(round(rng.uniform(0.012, 0.03) * cell)))
    overlay = img.copy()
    for offset, color in ((0.0, (255, 255, 255)), (1.5, (70, 70, 70))):
        p, q = a + normal * width * offset, b + normal * width * offset
        cv2.line(
            overlay,
            (int(p[0]), int(p[1])),
            (int(q[0]), int(q[1])),
            color,
            width,
            cv2.LINE_AA,
        )
    alpha = rng.uniform(0.25, 0.5)
    cv2.addWeighted(overlay, alpha, img, 1.0 - alpha, 0.0, dst=img)
