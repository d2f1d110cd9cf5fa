"""Photo finishing: what a phone's camera pipeline, an editing app or another renderer may do
to a photo after the light is caught, and the project's renderer never does.

Each finish is a fixed transform of a BGR photo. ``scripts/evaluate.py --finish NAME``
applies one to every rendered photo before it is saved and read, so the reader is measured on
looks its networks never trained on (docs/VISION.md, "Photo finishing the renderer never
does"). They are yardsticks for the reader, not training data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class FinishParams:
    """How strong each finish is: about as far as phones' own modes and filters go."""

    jpeg_quality: int = 30  # heavy_jpeg: harsher than messaging apps' recompression (70-80)
    sharpen_sigma: float = 2.0  # oversharpened: unsharp mask of this blur (px) ...
    sharpen_amount: float = 1.0  # ... added back this many times (halos beside every line)
    dark_gamma: float = 1.8  # dark_tones: tone curve x ** this (mid-tones darkened)
    light_gamma: float = 0.5  # light_tones: x ** this (a brightened, flat photo)
    washed_gain: float = 0.5  # washed_out: contrast halved ...
    washed_lift: float = 100.0  # ... and lifted: black becomes grey
    cast: tuple[float, float, float] = (0.7, 0.95, 1.15)  # warm_cast: B, G, R gains
    soft_factor: int = 3  # soft_focus: shrunk this many times and enlarged again
    vivid_saturation: float = 1.8  # vivid: saturation times this
    vignette_fall: float = 0.45  # vignette: corners this much darker than the centre
    grain_sigma: float = 16.0  # grainy: Gaussian noise of this sigma (grey levels) ...
    grain_seed: int = 0  # ... drawn anew for each pixel and channel, from this fixed seed


def heavy_jpeg(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Saved again as a JPEG of low quality: blocks and ringing round every stroke."""
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, params.jpeg_quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def oversharpened(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """An unsharp mask as phones apply it: light and dark halos beside every line."""
    blurred = cv2.GaussianBlur(image, (0, 0), params.sharpen_sigma)
    return cv2.addWeighted(image, 1.0 + params.sharpen_amount, blurred,
                           -params.sharpen_amount, 0)


def dark_tones(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Mid-tones darkened (a contrasty tone curve): pale ink and tints darker."""
    return _tone_curve(image, params.dark_gamma)


def light_tones(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Mid-tones brightened: pale strokes fade towards the paper."""
    return _tone_curve(image, params.light_gamma)


def washed_out(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Contrast halved and blacks lifted, as through a haze or a matte filter."""
    return cv2.convertScaleAbs(image, alpha=params.washed_gain, beta=params.washed_lift)


def warm_cast(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """A strong warm colour cast that white balance left in."""
    return np.clip(image * np.array(params.cast), 0, 255).astype(np.uint8)


def soft_focus(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Detail lost as in a photo slightly out of focus, or enlarged from a smaller one."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (w // params.soft_factor, h // params.soft_factor),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def monochrome(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """A black-and-white filter: blue water and coloured ink are grey."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def vivid(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """A vivid mode: colours far more saturated (tints, inks and artwork alike)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[..., 1] = np.clip(hsv[..., 1] * params.vivid_saturation, 0, 255).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def vignette(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Corners darker than the centre, as wide phone lenses and filters give."""
    h, w = image.shape[:2]
    y, x = np.ogrid[:h, :w]
    reach = ((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2  # 2 in the corners
    light = (1.0 - params.vignette_fall / 2 * reach).astype(np.float32)
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8)


def grainy(image: np.ndarray, params: FinishParams) -> np.ndarray:
    """Strong noise drawn for each pixel and each colour channel apart, as a renderer adds it
    for a dim room (the phone renders' own dim noise is grey grain and coarse blotches)."""
    return add_grain(image, params.grain_sigma, np.random.default_rng(params.grain_seed))


def add_grain(image: np.ndarray, sigma: float, rng: np.random.Generator,
              spread_px: float = 0.0) -> np.ndarray:
    """``image`` with Gaussian noise of ``sigma`` grey levels drawn for each pixel and colour
    channel apart; ``spread_px`` > 0 blurs the noise over that many pixels first (grain
    clumped as a phone's demosaicing leaves it), keeping its sigma."""
    noise = rng.standard_normal(image.shape, dtype=np.float32)
    if spread_px > 0:
        noise = cv2.GaussianBlur(noise, (0, 0), spread_px)
        noise *= 1.0 / max(float(noise.std()), 1e-6)
    return np.clip(image + noise * np.float32(sigma), 0, 255).astype(np.uint8)


def _tone_curve(image: np.ndarray, gamma: float) -> np.ndarray:
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).round().astype(np.uint8)
    return cv2.LUT(image, lut)


FINISHES: dict[str, Callable[[np.ndarray, FinishParams], np.ndarray]] = {
    "heavy_jpeg": heavy_jpeg,
    "oversharpened": oversharpened,
    "dark_tones": dark_tones,
    "light_tones": light_tones,
    "washed_out": washed_out,
    "warm_cast": warm_cast,
    "soft_focus": soft_focus,
    "monochrome": monochrome,
    "vivid": vivid,
    "vignette": vignette,
    "grainy": grainy,
}


def finish_photo(image: np.ndarray, name: str, params: FinishParams = FinishParams()
                 ) -> np.ndarray:
    """``image`` (H x W x 3 uint8 BGR) with the finish ``name`` (a key of FINISHES) applied."""
    if name not in FINISHES:
        raise ValueError(f"unknown photo finish {name!r} (known: {', '.join(FINISHES)})")
    return FINISHES[name](image, params)
