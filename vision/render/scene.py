"""Everything in the photo that is not the board: table backgrounds and clutter (dice,
markers, hands, other boards partly in view)."""

from __future__ import annotations

import cv2
import numpy as np

from .style import MARKERS

BACKGROUNDS = ("wood", "cloth", "plain", "dark", "white", "stone", "gingham", "cutting_mat")
BACKGROUND_P = (0.22, 0.16, 0.16, 0.1, 0.1, 0.12, 0.07, 0.07)
_WOODS = ((60, 100, 150), (90, 130, 170), (40, 70, 110), (110, 150, 190), (70, 80, 90))
_CLOTHS = (
    (120, 60, 40),
    (50, 110, 50),
    (60, 50, 140),
    (130, 120, 110),
    (40, 40, 40),
    (150, 150, 160),
    (90, 140, 170),
)
_SKINS = ((150, 180, 230), (120, 160, 215), (90, 130, 190), (60, 90, 140), (45, 65, 100))


def _smooth_noise(
    rng: np.random.Generator, size: tuple[int, int], cells: tuple[int, int]
) -> np.ndarray:
    """Smooth random field in [-1, 1]-ish at full ``size`` (w, h) from a ``cells`` grid."""
    small = rng.normal(0, 1, (max(2, cells[1]), max(2, cells[0]))).astype(np.float32)
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)


def background(rng: np.random.Generator, size: tuple[int, int], kind: str) -> np.ndarray:
    """A table / cloth texture as BGR uint8 (made at half resolution, then scaled up)."""
    full = size
    size = (max(8, size[0] // 2), max(8, size[1] // 2))
    w, h = size
    if kind == "wood":
        base = np.array(_WOODS[int(rng.integers(len(_WOODS)))], np.float32)
        along_x = rng.random() < 0.5
        streaks = _smooth_noise(rng, size, (6, 160) if along_x else (160, 6))
        fine = _smooth_noise(rng, size, (w // 3, 40) if along_x else (40, h // 3))
        shade = 1 + 0.12 * streaks + 0.05 * fine
    elif kind == "cloth":
        base = np.array(_CLOTHS[int(rng.integers(len(_CLOTHS)))], np.float32)
        period = rng.uniform(3, 9) * max(w, h) / 2000
        x = np.cos(np.arange(w, dtype=np.float32) * 2 * np.pi / period)
        y = np.cos(np.arange(h, dtype=np.float32) * 2 * np.pi / period)
        weave = 0.04 * (x[None, :] + y[:, None])
        shade = 1 + weave + 0.08 * _smooth_noise(rng, size, (12, 9))
    elif kind == "dark":
        base = rng.uniform(20, 70, 3).astype(np.float32)
        shade = 1 + 0.1 * _smooth_noise(rng, size, (8, 6))
    elif kind == "white":
        base = rng.uniform(200, 245, 3).astype(np.float32)
        shade = 1 + 0.03 * _smooth_noise(rng, size, (10, 8))
    elif kind == "stone":
        base = rng.uniform(110, 200, 3).astype(np.float32)
        shade = (
            1
            + 0.1 * _smooth_noise(rng, size, (40, 30))
            + 0.06 * _smooth_noise(rng, size, (200, 150))
        )
    elif kind == "gingham":  # checked tablecloth: strong straight stripes
        period = rng.uniform(0.03, 0.09) * max(w, h)
        angle = rng.uniform(0, np.pi / 2)
        c, s_ = np.cos(angle), np.sin(angle)
        xs = np.arange(w, dtype=np.float32)[None, :]
        ys = np.arange(h, dtype=np.float32)[:, None]
        u = ((xs * c + ys * s_) // (period / 2)) % 2
        v = ((ys * c - xs * s_) // (period / 2)) % 2
        colour = np.array(_CLOTHS[int(rng.integers(len(_CLOTHS)))], np.float32)
        base = np.full(3, 255.0, np.float32)
        mix = (u + v) / 2  # 0 white, 0.5 light, 1 full colour
        img = base * (1 - mix[..., None]) + colour * mix[..., None]
        img *= (1 + 0.04 * _smooth_noise(rng, size, (10, 8)))[..., None]
        img = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 0.8)
        return cv2.resize(img, full, interpolation=cv2.INTER_LINEAR)
    elif kind == "cutting_mat":  # a green/grey mat with a printed grid
        img = np.empty((h, w, 3), np.uint8)
        mat = rng.choice([[70, 110, 40], [60, 60, 60], [130, 90, 40], [40, 80, 20]])
        cv2.rectangle(img, (0, 0), (w, h), tuple(int(v) for v in mat), -1)
        step = rng.uniform(0.02, 0.05) * max(w, h)
        line = tuple(int(v) for v in rng.uniform(150, 230, 3))
        angle = rng.uniform(-0.3, 0.3)
        c, s_ = np.cos(angle), np.sin(angle)
        reach = 2 * max(w, h)
        axes = (np.array([c, s_]), np.array([-s_, c]))
        for k in range(-int(reach / step), int(reach / step)):
            width = 2 if k % 5 == 0 else 1
            for offset, direction in (axes, axes[::-1]):  # the two families of grid lines
                p = np.array([w / 2, h / 2]) + k * step * offset
                d = direction * reach
                cv2.line(
                    img,
                    tuple((p - d).astype(int)),
                    tuple((p + d).astype(int)),
                    line,
                    width,
                    cv2.LINE_AA,
                )
        return cv2.resize(img, full, interpolation=cv2.INTER_LINEAR)
    else:  # plain table or laminate
        base = rng.uniform(60, 210, 3).astype(np.float32)
        shade = 1 + 0.05 * _smooth_noise(rng, size, (6, 5))
    img = cv2.merge([cv2.multiply(shade, float(b), dtype=cv2.CV_8U) for b in base])
    return cv2.resize(img, full, interpolation=cv2.INTER_LINEAR)


# --- clutter: each object is a list of primitives so it can be drawn or hit-tested --------

Primitive = (
    tuple  # ("poly", pts, color) | ("capsule", p0, p1, width, color) | ("circle", c, r, color)
)


def _draw(
    img: np.ndarray,
    prims: list[Primitive],
    scale: float = 1.0,
    mask: bool = False,
    offset: np.ndarray | None = None,
) -> None:
    """Draw primitives (coordinates minus ``offset``, times ``scale``); ``mask``: all white."""
    shift = np.zeros(2) if offset is None else offset
    for prim in prims:
        color = 255 if mask else prim[-1]
        if prim[0] == "poly":
            pts = np.round((prim[1] - shift) * scale * 16).astype(np.int32)
            cv2.fillPoly(img, [pts], color, lineType=cv2.LINE_AA, shift=4)
        elif prim[0] == "capsule":
            p0 = np.round((prim[1] - shift) * scale).astype(int)
            p1 = np.round((prim[2] - shift) * scale).astype(int)
            cv2.line(img, tuple(p0), tuple(p1), color, max(1, int(prim[3] * scale)), cv2.LINE_AA)
        elif prim[0] == "circle":
            c = np.round((prim[1] - shift) * scale).astype(int)
            cv2.circle(img, tuple(c), max(1, int(prim[2] * scale)), color, -1, cv2.LINE_AA)


def _extent(prims: list[Primitive]) -> tuple[np.ndarray, np.ndarray]:
    """Bounding box (min, max) of primitives, widths included."""
    pts, pads = [], []
    for prim in prims:
        if prim[0] == "poly":
            pts.append(prim[1])
            pads.append(0.0)
        elif prim[0] == "capsule":
            pts += [prim[1][None], prim[2][None]]
            pads.append(prim[3] / 2)
        else:
            pts.append(prim[1][None])
            pads.append(prim[2])
    allpts = np.concatenate(pts)
    pad = max(pads) + 2
    return allpts.min(axis=0) - pad, allpts.max(axis=0) + pad


def draw_object(img: np.ndarray, prims: list[Primitive], rng: np.random.Generator) -> None:
    """Draw an object with soft edges, a shading gradient and a soft drop shadow."""
    h, w = img.shape[:2]
    lo, hi = _extent(prims)
    size = float(np.max(hi - lo))
    reach = 0.06 * size  # room for the shadow
    x0, y0 = np.maximum(np.floor(lo - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(hi + reach).astype(int), [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    roi = img[y0:y1, x0:x1]
    origin = np.array([x0, y0], float)
    layer = roi.copy()
    _draw(layer, prims, offset=origin)
    mask = np.zeros(roi.shape[:2], np.uint8)
    _draw(mask, prims, mask=True, offset=origin)
    alpha = cv2.GaussianBlur(mask, (0, 0), max(0.7, size * 0.004)).astype(np.float32) / 255
    shadow_shift = np.float32([[1, 0, size * 0.03], [0, 1, size * 0.04]])
    shadow = cv2.warpAffine(mask, shadow_shift, (x1 - x0, y1 - y0))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, size * 0.02)).astype(np.float32) / 255
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(size, 1.0)
    shade = 0.8 + 0.3 * (ramp - ramp.min()) / (np.ptp(ramp) + 1e-6)
    base = roi.astype(np.float32) * (1 - 0.35 * shadow)[..., None]
    obj = layer.astype(np.float32) * shade[..., None]
    roi[:] = np.clip(base * (1 - alpha[..., None]) + obj * alpha[..., None], 0, 255).astype(
        np.uint8
    )


def _rotated_square(centre: np.ndarray, half: float, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
    return corners @ np.array([[c, -s], [s, c]]).T + centre


def die(rng: np.random.Generator, centre: np.ndarray, size: float) -> list[Primitive]:
    angle = rng.uniform(0, np.pi)
    body = tuple(
        int(v)
        for v in rng.choice([[235, 235, 235], [40, 40, 40], [60, 60, 200], [200, 120, 40]], 1)[0]
    )
    ink = (20, 20, 20) if sum(body) > 300 else (235, 235, 235)
    prims: list[Primitive] = [
        ("poly", _rotated_square(centre + size * 0.08, size / 2, angle), (40, 40, 40)),
        ("poly", _rotated_square(centre, size / 2, angle), body),
    ]
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    if rng.random() < 0.5:  # route face: a short road or rail
        a, b = rot @ np.array([-0.35, 0]) * size + centre, rot @ np.array([0.35, 0]) * size + centre
        prims.append(("capsule", a, b, size * rng.choice([0.08, 0.2]), ink))
    else:
        for k in range(int(rng.integers(1, 7))):
            offset = rot @ (np.array([(k % 3) - 1, (k // 3) * 2 - 1]) * 0.25 * size)
            prims.append(("circle", centre + offset, size * 0.07, ink))
    return prims


def marker_pen(rng: np.random.Generator, centre: np.ndarray, length: float) -> list[Primitive]:
    angle = rng.uniform(0, np.pi)
    d = np.array([np.cos(angle), np.sin(angle)]) * length / 2
    body = tuple(
        int(v)
        for v in rng.choice([[240, 240, 240], [30, 30, 30], [200, 200, 60], [60, 160, 230]], 1)[0]
    )
    cap = MARKERS[list(MARKERS)[int(rng.integers(len(MARKERS)))]]
    width = length * rng.uniform(0.08, 0.14)
    return [
        (
            "capsule",
            centre - d + [width * 0.2, width * 0.3],
            centre + d + [width * 0.2, width * 0.3],
            width,
            (50, 50, 50),
        ),
        ("capsule", centre - d, centre + d, width, body),
        ("capsule", centre + d * 0.55, centre + d, width * 1.08, cap),
    ]


def hand(
    rng: np.random.Generator, size: tuple[int, int], scale: float, skin: int = 0
) -> list[Primitive]:
    """A hand reaching in from one edge of the frame: a palm and fingers (skin tone index)."""
    w, h = size
    edge = int(rng.integers(4))
    t = rng.uniform(0.1, 0.9)
    start = [
        np.array([t * w, -0.05 * h]),
        np.array([w * 1.05, t * h]),
        np.array([t * w, h * 1.05]),
        np.array([-0.05 * w, t * h]),
    ][edge]
    inward = np.array([[0, 1], [-1, 0], [0, -1], [1, 0]][edge], float)
    inward = _turn(inward, rng.normal(0, 0.4))
    tone = np.array(_SKINS[skin % len(_SKINS)]) + rng.integers(-8, 9, 3)
    skin = tuple(int(v) for v in np.clip(tone, 0, 255))
    reach = scale * rng.uniform(0.5, 1.0)
    palm = start + inward * reach
    side = np.array([-inward[1], inward[0]])
    prims: list[Primitive] = [("capsule", start, palm, scale * 0.55, skin)]
    for k in range(4):
        base = palm + side * (k - 1.5) * scale * 0.13 + inward * scale * 0.15
        tip = base + _turn(inward, (k - 1.5) * 0.12 + rng.normal(0, 0.1)) * scale * rng.uniform(
            0.3, 0.45
        )
        prims.append(("capsule", base, tip, scale * 0.11, skin))
    thumb_base = palm - side * scale * 0.25
    prims.append(
        ("capsule", thumb_base, thumb_base + _turn(-side, 0.6) * scale * 0.3, scale * 0.12, skin)
    )
    return prims


def _turn(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def other_board(rng: np.random.Generator, size: tuple[int, int], scale: float) -> list[Primitive]:
    """Another player's board partly in view: a card with a tinted grid (drawn underneath)."""
    w, h = size
    centre = np.array(
        [
            rng.choice([-0.1, 1.1]) * w if rng.random() < 0.5 else rng.uniform(0, w),
            rng.uniform(0, h),
        ]
    )
    angle = rng.uniform(0, np.pi)
    half = scale * rng.uniform(0.8, 1.2)
    paper = tuple(int(v) for v in rng.uniform(200, 250, 3))
    tint = tuple(int(v) for v in rng.uniform(170, 250, 3))
    line = tuple(int(v) for v in rng.uniform(20, 120, 3))
    prims: list[Primitive] = [
        ("poly", _rotated_square(centre, half, angle), paper),
        ("poly", _rotated_square(centre, half * 0.75, angle), tint),
    ]
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    for i in range(8):
        u = -0.75 + i * 1.5 / 7
        for a, b in (([u, -0.75], [u, 0.75]), ([-0.75, u], [0.75, u])):
            prims.append(
                (
                    "capsule",
                    rot @ np.array(a) * half + centre,
                    rot @ np.array(b) * half + centre,
                    max(1.0, half * (0.02 if i in (0, 7) else 0.006)),
                    line,
                )
            )
    return prims


def place_clutter(
    img: np.ndarray,
    objects: list[list[Primitive]],
    keep_mask: np.ndarray,
    mask_scale: float,
    rng: np.random.Generator,
) -> int:
    """Draw objects that do not overlap ``keep_mask`` (a low-res mask); return how many."""
    drawn = 0
    for prims in objects:
        probe = np.zeros_like(keep_mask)
        _draw(probe, prims, mask_scale, mask=True)
        if np.any((probe > 0) & (keep_mask > 0)):
            continue
        draw_object(img, prims, rng)
        drawn += 1
    return drawn


def draw_under(img: np.ndarray, objects: list[list[Primitive]]) -> None:
    """Draw objects with no overlap test (they lie under the board)."""
    for prims in objects:
        _draw(img, prims)
