"""Load a phone photo as an 8-bit BGR image, safely and quickly.

Checks the header before decoding (empty files, non-images, decompression bombs, tiny images),
honours EXIF orientation, reads HEIC/HEIF via pillow-heif, and turns 16-bit, grayscale and
alpha images into plain 8-bit BGR. Large JPEGs are decoded reduced (DCT scaling), which is
far faster than a full decode followed by a resize.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from vision.errors import UnreadableImage

MIN_SIDE = 200  # pixels: smaller photos cannot show 49 readable spaces
MAX_PIXELS = 120_000_000  # declared size above this is treated as a decompression bomb
TARGET_LONG_SIDE = 1600  # reduced decoding stops once the long side would drop below this


@dataclass
class LoadedPhoto:
    """A decoded photo and how much it was reduced while decoding."""

    image: np.ndarray  # H x W x 3 uint8 BGR, EXIF orientation applied
    scale: float  # image pixels per original pixel (1, 1/2, 1/4 or 1/8)
    original_size: tuple[int, int]  # (width, height) of the photo as stored, after EXIF turn


_heif_registered = False


def _register_heif() -> None:
    global _heif_registered
    if not _heif_registered:
        from pillow_heif import register_heif_opener

        register_heif_opener()
        _heif_registered = True


def _reduction_for(width: int, height: int) -> int:
    """The largest JPEG DCT reduction (1, 2, 4, 8) keeping the long side >= TARGET_LONG_SIDE."""
    long_side = max(width, height)
    factor = 1
    while factor < 8 and long_side / (factor * 2) >= TARGET_LONG_SIDE:
        factor *= 2
    return factor


_REDUCED_FLAGS = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                  8: cv2.IMREAD_REDUCED_COLOR_8}


def _to_bgr8(array: np.ndarray) -> np.ndarray:
    """Any PIL-decoded array (gray, RGB, RGBA, 16-bit) to 8-bit BGR; alpha over white."""
    if array.dtype != np.uint8:
        peak = 65535.0 if array.dtype in (np.uint16, np.int32, np.int16) else float(array.max() or 1)
        array = np.clip(array.astype(np.float32) * (255.0 / peak), 0, 255).astype(np.uint8)
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    if array.shape[2] == 4:
        rgb = array[:, :, :3].astype(np.float32)
        alpha = array[:, :, 3:4].astype(np.float32) / 255.0
        array = (rgb * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    elif array.shape[2] == 2:  # gray + alpha
        gray = array[:, :, 0].astype(np.float32)
        alpha = array[:, :, 1].astype(np.float32) / 255.0
        gray = (gray * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
        return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(array[:, :, :3], cv2.COLOR_RGB2BGR)


def _pil_to_array(img: Image.Image) -> np.ndarray:
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N"):
        return np.asarray(img, dtype=np.uint16)
    if img.mode == "I":
        return np.asarray(img, dtype=np.int32).clip(0, 65535).astype(np.uint16)
    if img.mode not in ("L", "LA", "RGB", "RGBA"):
        img = img.convert("RGBA" if "A" in img.mode or "transparency" in img.info else "RGB")
    return np.asarray(img)


def load_photo(path: str | Path) -> LoadedPhoto:
    """Decode ``path``; raise UnreadableImage with a one-line reason when it is not a usable photo."""
    path = Path(path)
    name = path.name
    if not path.exists():
        raise UnreadableImage(f"{name}: file not found")
    if path.is_dir():
        raise UnreadableImage(f"{name}: is a folder, not a photo")
    if path.stat().st_size == 0:
        raise UnreadableImage(f"{name}: empty file")
    _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(path)  # lazy: reads the header only
    except (UnidentifiedImageError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as exc:
        if isinstance(exc, UnidentifiedImageError):
            raise UnreadableImage(f"{name}: not an image (unrecognised format)") from None
        raise UnreadableImage(f"{name}: declared image size is too large (decompression bomb?)") from None
    except OSError as exc:
        raise UnreadableImage(f"{name}: cannot read image ({exc})") from None
    with img:
        width, height = img.size
        if width * height > MAX_PIXELS:
            raise UnreadableImage(
                f"{name}: declared image size {width}x{height} is too large "
                f"(over {MAX_PIXELS // 1_000_000} megapixels)")
        if min(width, height) < MIN_SIDE:
            raise UnreadableImage(f"{name}: image is too small ({width}x{height} pixels)")
        orientation = img.getexif().get(0x0112, 1)
        if img.format == "JPEG":
            image = _decode_jpeg(path, name, width, height, orientation)
            scale = image.shape[1] / (height if orientation in (5, 6, 7, 8) else width)
        else:
            try:
                img = ImageOps.exif_transpose(img)
                array = _pil_to_array(img)
            except (OSError, SyntaxError, ValueError) as exc:
                raise UnreadableImage(f"{name}: corrupt or truncated image ({exc})") from None
            image, scale = _to_bgr8(array), 1.0
    h, w = image.shape[:2]
    full = (round(w / scale), round(h / scale))
    return LoadedPhoto(image=np.ascontiguousarray(image), scale=scale, original_size=full)


_EXIF_OPS = {  # EXIF orientation -> operations turning the stored image upright
    2: [lambda a: cv2.flip(a, 1)],
    3: [lambda a: cv2.rotate(a, cv2.ROTATE_180)],
    4: [lambda a: cv2.flip(a, 0)],
    5: [lambda a: cv2.transpose(a)],
    6: [lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE)],
    7: [lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180)],
    8: [lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)],
}


def _decode_jpeg(path: Path, name: str, width: int, height: int, orientation: int) -> np.ndarray:
    """Decode a JPEG with OpenCV, reduced by DCT scaling, then apply EXIF orientation."""
    data = np.fromfile(str(path), dtype=np.uint8)
    tail = data[-64:]  # the end-of-image marker FF D9, perhaps followed by padding
    if not ((tail[:-1] == 0xFF) & (tail[1:] == 0xD9)).any():
        raise UnreadableImage(f"{name}: truncated JPEG (no end-of-image marker)")
    factor = _reduction_for(width, height)
    flags = _REDUCED_FLAGS.get(factor, cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(data, flags)
    if image is None:
        raise UnreadableImage(f"{name}: corrupt JPEG (cannot decode)")
    for op in _EXIF_OPS.get(orientation, []):
        image = op(image)
    return image


def as_bgr(image: np.ndarray, name: str = "image") -> np.ndarray:
    """Check an in-memory image and return it as contiguous 8-bit BGR."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise UnreadableImage(f"{name}: not an image array")
    if image.ndim == 3 and image.shape[2] not in (1, 3, 4):
        raise UnreadableImage(f"{name}: unsupported channel count {image.shape[2]}")
    if min(image.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(f"{name}: image is too small ({image.shape[1]}x{image.shape[0]} pixels)")
    if image.dtype != np.uint8:
        image = _to_bgr8(image)
    elif image.ndim == 2 or image.shape[2] == 1:
        image = cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(image)
