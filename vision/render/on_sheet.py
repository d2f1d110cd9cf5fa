"""Things lying on the sheet (phone profile): a hand reaching over the grid, a pen, a die, and
how much of each space they hide: the truth a reader's "covered" review is measured against.

Objects are primitives in undistorted photo pixels (scene.py), drawn before the lens
distortion like all clutter; spaces are measured as the sheet's own (possibly curved)
outlines in the same pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from .scene import _SKINS, Primitive, _draw, _turn, die, draw_object, marker_pen


def _inside_point(rng: np.random.Generator, lattice: np.ndarray) -> np.ndarray:
    """A random point of the lattice, from its (29, 29, 2) photo points."""
    i, j = rng.uniform(0, 28, 2)
    i0, j0 = int(i), int(j)
    b, a = i - i0, j - j0
    return (
        (1 - a) * (1 - b) * lattice[i0, j0]
        + a * (1 - b) * lattice[i0, j0 + 1]
        + (1 - a) * b * lattice[i0 + 1, j0]
        + a * b * lattice[i0 + 1, j0 + 1]
    )


def _to_border(start: np.ndarray, direction: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Where a ray from ``start`` leaves the photo (a little beyond)."""
    w, h = size
    t = np.inf
    for k, limit in ((0, w), (1, h)):
        if direction[k] > 1e-9:
            t = min(t, (limit - start[k]) / direction[k])
        elif direction[k] < -1e-9:
            t = min(t, -start[k] / direction[k])
    return start + direction * (t + 0.05 * max(w, h))


def hand_over(
    rng: np.random.Generator,
    lattice: np.ndarray,
    size: tuple[int, int],
    cell: float,
    skin: int,
) -> list[Primitive]:
    """A hand whose fingertips rest on the grid, up to 3 spaces in from one of its sides,
    with its arm running out of the photo."""
    centre = lattice[14, 14]
    side = int(rng.integers(4))
    edge = [lattice[0, :], lattice[:, -1], lattice[-1, :], lattice[:, 0]][side]
    along = edge[int(rng.integers(3, 26))]
    depth = rng.uniform(0.6, 3.0) / 7
    target = along + (centre - along) * depth * 2
    outward = along - centre
    outward = _turn(outward / np.linalg.norm(outward), rng.normal(0, 0.4))
    start = _to_border(target, outward, size)
    inward = -outward
    scale = cell * rng.uniform(5, 7)
    tone = np.array(_SKINS[skin % len(_SKINS)]) + rng.integers(-8, 9, 3)
    color = tuple(int(v) for v in np.clip(tone, 0, 255))
    finger = scale * rng.uniform(0.4, 0.55)
    palm = target - inward * (finger + scale * 0.22)
    across = np.array([-inward[1], inward[0]])
    prims: list[Primitive] = [
        ("capsule", start, palm - inward * scale * 0.2, scale * 0.5, color),  # forearm, wrist
        ("capsule", palm - inward * scale * 0.2, palm + inward * scale * 0.12, scale * 0.62, color),
    ]
    for k in range(4):
        base = palm + across * (k - 1.5) * scale * 0.14 + inward * scale * 0.18
        reach = finger * (1.0 - 0.12 * abs(k - 1.2)) * rng.uniform(0.75, 1.0)
        tip = base + _turn(inward, (k - 1.5) * 0.1 + rng.normal(0, 0.06)) * reach
        prims.append(("capsule", base, tip, scale * 0.12, color))
    thumb = palm + across * scale * 0.28 * rng.choice([-1, 1])
    prims.append(
        (
            "capsule",
            thumb,
            thumb + _turn(inward, rng.uniform(-0.9, 0.9)) * scale * 0.3,
            scale * 0.13,
            color,
        )
    )
    return prims


def objects_on_sheet(
    rng: np.random.Generator,
    kinds: tuple[str, ...],
    lattice: np.ndarray,
    size: tuple[int, int],
    cell: float,
) -> list[tuple[str, list[Primitive]]]:
    """The objects of ``kinds`` ("hand", "pen", "die") placed over the grid."""
    skin = int(rng.integers(1 << 16))
    out = []
    for kind in kinds:
        if kind == "hand":
            out.append((kind, hand_over(rng, lattice, size, cell, skin)))
        elif kind == "pen":
            out.append(
                (kind, marker_pen(rng, _inside_point(rng, lattice), cell * rng.uniform(4.5, 6.5)))
            )
        elif kind == "die":
            out.append((kind, die(rng, _inside_point(rng, lattice), cell * rng.uniform(0.6, 0.9))))
        else:
            raise ValueError(f"unknown object {kind!r}")
    return out


def draw_on_sheet(
    img: np.ndarray, objects: list[tuple[str, list[Primitive]]], rng: np.random.Generator
) -> None:
    order = {"die": 0, "pen": 1, "hand": 2}  # a hand lies over a die or a pen, not under
    for kind, prims in sorted(objects, key=lambda item: order.get(item[0], 0)):
        if kind == "hand":
            draw_hand(img, prims, rng)
        else:
            draw_object(img, prims, rng)


def draw_hand(img: np.ndarray, prims: list[Primitive], rng: np.random.Generator) -> None:
    """A hand with rounded shading: every part (arm, palm, finger) darkens towards its own
    edge, so fingers stand apart; nails at the fingertips, soft edges, a soft shadow."""
    h, w = img.shape[:2]
    lo = np.min([np.minimum(p[1], p[2]) - p[3] for p in prims], axis=0)
    hi = np.max([np.maximum(p[1], p[2]) + p[3] for p in prims], axis=0)
    size = float(np.max(hi - lo))
    reach = 0.08 * size
    x0, y0 = np.maximum(np.floor(lo - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(hi + reach).astype(int), [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    roi = img[y0:y1, x0:x1]
    origin = np.array([x0, y0], float)
    shade = np.zeros(roi.shape[:2], np.float32)
    union = np.zeros(roi.shape[:2], np.uint8)
    nails = np.zeros(roi.shape[:2], np.float32)
    skin = np.array(prims[0][-1], np.float32)
    for k, prim in enumerate(prims):
        part = np.zeros(roi.shape[:2], np.uint8)
        _draw(part, [prim], offset=origin, mask=True)
        inside = part > 127
        if not inside.any():
            continue
        dist = cv2.distanceTransform(part, cv2.DIST_L2, 3)
        depth = np.clip(dist / max(1.0, prim[3] * 0.5), 0, 1)
        shade[inside] = (0.62 + 0.38 * np.sqrt(depth))[inside]
        union |= part
        if k >= 2 and k < len(prims) - 1:  # fingers: a nail near the tip
            tip, base = prim[2], prim[1]
            along = (tip - base) / (np.linalg.norm(tip - base) + 1e-9)
            centre = tip - origin - along * prim[3] * 0.35
            axes = (max(1, int(prim[3] * 0.32)), max(1, int(prim[3] * 0.25)))
            angle = float(np.degrees(np.arctan2(along[1], along[0])))
            cv2.ellipse(
                nails, tuple(int(v) for v in centre), axes, angle, 0, 360, 0.5, -1, cv2.LINE_AA
            )
    shade = cv2.GaussianBlur(shade, (0, 0), max(0.8, size * 0.004))
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(size, 1.0)
    shade *= 0.88 + 0.2 * (ramp - ramp.min()) / (np.ptp(ramp) + 1e-6)
    mottle = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (x1 - x0, y1 - y0))
    colour = skin * (shade * (1 + 0.03 * mottle))[..., None]
    nail = np.array([min(255, skin[0] + 30), min(255, skin[1] + 25), min(255, skin[2] + 20)])
    colour = colour * (1 - nails[..., None]) + nail * shade[..., None] * nails[..., None]
    alpha = cv2.GaussianBlur(union, (0, 0), max(0.7, size * 0.003)).astype(np.float32) / 255
    offset = np.float32([[1, 0, size * 0.025], [0, 1, size * 0.035]])
    shadow = cv2.warpAffine(union, offset, (x1 - x0, y1 - y0))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, size * 0.025)).astype(np.float32) / 255
    base = roi.astype(np.float32) * (1 - 0.45 * shadow)[..., None]
    roi[:] = np.clip(base * (1 - alpha[..., None]) + colour * alpha[..., None], 0, 255).astype(
        np.uint8
    )


def coverage(
    objects: list[tuple[str, list[Primitive]]],
    lattice: np.ndarray,
    size: tuple[int, int],
    cell: float,
) -> dict[tuple[int, int], float]:
    """Fraction of each space (row, col) that the objects hide, for spaces hidden at all.

    ``lattice``: (29, 29, 2) undistorted photo points of the grid, 4 per space side, so a
    space's outline follows a bent sheet."""
    if not objects:
        return {}
    scale = min(1.0, 24.0 / max(cell, 1.0))
    w, h = size
    mask = np.zeros((int(h * scale) + 2, int(w * scale) + 2), np.uint8)
    for _, prims in objects:
        _draw(mask, prims, scale, mask=True)
    hidden = mask > 127
    out = {}
    for r in range(7):
        for c in range(7):
            block = lattice[4 * r : 4 * r + 5, 4 * c : 4 * c + 5]
            ring = np.concatenate(
                [block[0, :-1], block[:-1, -1], block[-1, :0:-1], block[:0:-1, 0]]
            )
            poly = ring * scale
            x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
            x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
            x1, y1 = min(x1, mask.shape[1]), min(y1, mask.shape[0])
            if x1 <= x0 or y1 <= y0:
                continue
            space = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(space, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 1, shift=4)
            area = int(space.sum())
            if area == 0:
                continue
            frac = float((hidden[y0:y1, x0:x1] & (space > 0)).sum()) / area
            if frac >= 0.005:
                out[(r, c)] = round(frac, 3)
    return out
