"""Light and sensor as phones meet them (phone profile): a flash's hotspot and fall-off, a band
of reflected light on a shiny board, a dim room's noise (luma and chroma) and the phone's heavy
denoising that smears fine lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import add_tiled


def flash_falloff(
    rng: np.random.Generator, xx: np.ndarray, yy: np.ndarray
) -> tuple[np.ndarray, dict]:
    """A flash's light on the coarse light grid (``xx``, ``yy`` in -0.5..0.5): bright at the
    middle, falling off towards the edges."""
    centre = rng.normal(0, 0.08, 2)
    reach = rng.uniform(0.04, 0.14)
    peak = rng.uniform(1.0, 1.2)
    r2 = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2
    field = peak / (1 + r2 / reach)
    return field.astype(np.float32), {
        "flash_peak": round(float(peak), 3),
        "flash_reach": round(float(reach), 3),
    }


def _glow_grid(size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, float]:
    w, h = size
    f = 0.25
    gw, gh = max(8, int(w * f)), max(8, int(h * f))
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    return (xx + 0.5) / f - 0.5, (yy + 0.5) / f - 0.5, f


def flash_hotspot(
    rng: np.random.Generator, size: tuple[int, int], at: np.ndarray, cell: float
) -> tuple[np.ndarray, dict]:
    """The flash mirrored in a glossy board: a small saturated spot (additive glow 0..1)."""
    xx, yy, _ = _glow_grid(size)
    sigma = rng.uniform(0.25, 0.8) * cell
    strength = rng.uniform(0.6, 1.0)
    glow = strength * np.exp(-((xx - at[0]) ** 2 + (yy - at[1]) ** 2) / (2 * sigma**2))
    return glow.astype(np.float32), {
        "hotspot_strength": round(float(strength), 3),
        "hotspot_sigma_cells": round(float(sigma / cell), 3),
    }


def reflection_band(
    rng: np.random.Generator,
    size: tuple[int, int],
    through: np.ndarray,
    direction: np.ndarray,
    cell: float,
) -> tuple[np.ndarray, dict]:
    """A window or lamp mirrored in a shiny board: a band of light through ``through`` (px)
    along ``direction``, with a flat top and soft edges, uneven along its length."""
    xx, yy, _ = _glow_grid(size)
    d = direction / np.linalg.norm(direction)
    across = (xx - through[0]) * -d[1] + (yy - through[1]) * d[0]
    along = (xx - through[0]) * d[0] + (yy - through[1]) * d[1]
    half = rng.uniform(0.2, 1.0) * cell
    strength = rng.uniform(0.35, 0.85)
    profile = np.exp(-((np.abs(across) / half) ** 4))
    ripple = 0.75 + 0.25 * np.sin(along / cell * rng.uniform(0.3, 1.2) + rng.uniform(0, 6.3))
    glow = strength * profile * ripple
    return glow.astype(np.float32), {
        "band_half_width_cells": round(float(half / cell), 3),
        "band_strength": round(float(strength), 3),
    }


def add_glow(
    img: np.ndarray, glow: np.ndarray, tint: np.ndarray, on: np.ndarray | None = None
) -> np.ndarray:
    """Add a 0..1 glow (made on ``_glow_grid``) times a light colour to a BGR photo; ``on``:
    the polygon (photo px) of the shiny surface it is mirrored in."""
    h, w = img.shape[:2]
    if on is not None:
        gh, gw = glow.shape
        mask = np.zeros((gh, gw), np.float32)
        pts = np.round(on * np.array([gw / w, gh / h]) * 16).astype(np.int32)
        cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA, shift=4)
        glow = glow * cv2.GaussianBlur(mask, (0, 0), 0.7)
    layer = np.clip(glow[..., None] * tint * 255, 0, 255).astype(np.uint8)
    return cv2.add(img, cv2.resize(layer, (w, h), interpolation=cv2.INTER_LINEAR))


def sensor_noise(
    img: np.ndarray, rng: np.random.Generator, luma: float, chroma: float, tile: int = 256
) -> None:
    """Add a dim room's sensor noise in place: fine grey grain (``luma`` sigma, grey levels) and
    coarser colour blotches (``chroma`` sigma)."""
    h, w = img.shape[:2]
    source = np.round(rng.standard_normal((384, 384), dtype=np.float32) * luma).astype(np.int16)
    source = cv2.merge([source, source, source])
    add_tiled(img, source, rng, tile)
    blotch = max(2, int(np.sqrt(w * h) / 700))
    small = rng.standard_normal((h // blotch + 2, w // blotch + 2, 3), dtype=np.float32) * chroma
    small -= small.mean(axis=2, keepdims=True)  # colour, not brightness
    colour = cv2.resize(np.round(small).astype(np.int16), (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.add(img, colour, dst=img, dtype=cv2.CV_8U)


def denoise(img: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """A phone's heavy noise reduction: edge-preserving smoothing at half resolution (faint
    fine lines go with the noise), colour smoothed further, then sharpened back up."""
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(8, w // 2), max(8, h // 2)), interpolation=cv2.INTER_AREA)
    d = int(rng.integers(5, 10))
    sigma_color = float(rng.uniform(20, 45))
    small = cv2.bilateralFilter(small, d, sigma_color, float(rng.uniform(2, 5)))
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    chroma = cv2.GaussianBlur(ycc[..., 1:], (0, 0), rng.uniform(1.5, 3.5))
    ycc[..., 1:] = chroma
    small = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    amount = float(rng.uniform(0.4, 1.2))
    soft = cv2.GaussianBlur(out, (0, 0), rng.uniform(1.0, 2.0))
    out = cv2.addWeighted(out, 1 + amount, soft, -amount, 0)
    return out, {
        "denoise_d": d,
        "denoise_sigma_color": round(sigma_color, 1),
        "sharpen": round(amount, 2),
    }
