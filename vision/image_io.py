"""Load a phone photo as an 8-bit BGR image, safely and quickly.

Pillow reads the header first (empty files, non-images, decompression bombs, tiny images)
and the EXIF orientation (ignored when the EXIF block is malformed). JPEGs are decoded by
OpenCV, reduced by DCT scaling (far faster than a full decode and a resize, and a 108 MP
photo is never held at full size); Pillow's ``draft()`` gives the same pixels, but it and
``ImageOps.exif_transpose`` measured 4-15 ms slower per 12 MP photo (docs/VISION.md). Other
formats (PNG, WebP, TIFF, AVIF, HEIC/HEIF via pillow-heif; 16-bit, grey, alpha) are decoded
by Pillow. The photo is then turned upright as its EXIF orientation says.

A JPEG whose image data stops early (a cut download) is refused before decoding; one whose
end marker was put back after the cut decodes with the rest filled mid-grey, and is refused
after decoding. Bytes after the image (phones' Motion Photo and maker trailers) are ignored.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from vision.errors import UnreadableImage, joined_lines, photo_name

MIN_SIDE = 200  # pixels: smaller photos cannot show 49 readable spaces
# Declared sizes above this are refused as decompression bombs (and Pillow's own limit is set
# to it): well above what phones make (108 MP and 200 MP modes decode reduced).
MAX_PIXELS = 250_000_000
TARGET_LONG_SIDE = 1600  # reduced decoding stops once the long side would drop below this
_EXIF_ORIENTATION = 0x0112
_END_OF_IMAGE = b"\xff\xd9"
_MISSING_DATA_GREY = 128  # libjpeg fills the blocks it has no data for with this


@dataclass
class LoadedPhoto:
    """A decoded photo and how much it was reduced while decoding."""

    image: np.ndarray  # H x W x 3 uint8 BGR, EXIF orientation applied
    scale: float  # image pixels per original pixel (1, 1/2, 1/4 or 1/8)
    original_size: tuple[int, int]  # (width, height) of the photo as stored, after EXIF turn
    name: str = "image"  # how messages name it (vision.errors.photo_name)


def load_source(source: str | Path | np.ndarray) -> LoadedPhoto:
    """A photo file (``load_photo``) or an in-memory BGR array (``as_bgr``) as a LoadedPhoto."""
    if isinstance(source, np.ndarray):
        image = as_bgr(source)
        return LoadedPhoto(image, 1.0, (image.shape[1], image.shape[0]))
    return load_photo(source)


def load_photo(path: str | Path) -> LoadedPhoto:
    """Decode ``path``; raise UnreadableImage with a one-line reason when it is not a usable
    photo. Pillow's warnings (corrupt EXIF data, ...) are not passed on."""
    path = Path(path)
    name = photo_name(path)
    _check_file(path, name)
    _configure_pillow()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with _open(path, name) as img:
            width, height = img.size
            if width * height > MAX_PIXELS:
                raise UnreadableImage(
                    f"{name}: declared image size {width}x{height} is too large "
                    f"(over {MAX_PIXELS // 1_000_000} megapixels)")
            if min(width, height) < MIN_SIDE:
                raise UnreadableImage(f"{name}: image is too small ({width}x{height} pixels; "
                                      f"at least {MIN_SIDE} on each side)")
            orientation = exif_orientation(img)
            if img.format == "JPEG":
                stored, scale = _decode_jpeg(path, img, name)
            else:
                stored, scale = _decode_with_pillow(img, name), 1.0
    image = upright(stored, orientation)
    h, w = image.shape[:2]
    full = (round(w / scale), round(h / scale))
    return LoadedPhoto(image=np.ascontiguousarray(image), scale=scale, original_size=full,
                       name=name)


def as_bgr(image: np.ndarray, name: str = "image") -> np.ndarray:
    """Check an in-memory image and return it as contiguous 8-bit BGR."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise UnreadableImage(f"{name}: not an image array")
    if image.ndim == 3 and image.shape[2] not in (1, 3, 4):
        raise UnreadableImage(f"{name}: unsupported channel count {image.shape[2]}")
    if min(image.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(f"{name}: image is too small ({image.shape[1]}x{image.shape[0]} "
                              f"pixels; at least {MIN_SIDE} on each side)")
    if image.dtype != np.uint8:
        image = _to_bgr8(image)
    elif image.ndim == 2 or image.shape[2] == 1:
        image = cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(image)


def exif_orientation(img: Image.Image) -> int:
    """The EXIF orientation (1-8) of an opened image; 1 when it has none, or its EXIF block
    is malformed (Pillow's parser raises many kinds of error on those)."""
    try:
        value = img.getexif().get(_EXIF_ORIENTATION, 1)
    except Exception:  # noqa: BLE001 - a bad EXIF block must not stop the photo being read
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


# EXIF orientation -> the operations turning the stored image upright
_UPRIGHT = {
    2: [lambda a: cv2.flip(a, 1)],
    3: [lambda a: cv2.rotate(a, cv2.ROTATE_180)],
    4: [lambda a: cv2.flip(a, 0)],
    5: [lambda a: cv2.transpose(a)],
    6: [lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE)],
    7: [lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180)],
    8: [lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)],
}


def upright(image: np.ndarray, orientation: int) -> np.ndarray:
    """The stored image turned (or flipped) as EXIF ``orientation`` says."""
    for op in _UPRIGHT.get(orientation, []):
        image = op(image)
    return image


_pillow_configured = False


def _configure_pillow() -> None:
    """Once per process: Pillow reads HEIC/HEIF, and its decompression-bomb limit is ours."""
    global _pillow_configured
    if not _pillow_configured:
        from pillow_heif import register_heif_opener

        register_heif_opener()
        Image.MAX_IMAGE_PIXELS = MAX_PIXELS
        _pillow_configured = True


def _check_file(path: Path, name: str) -> None:
    if not path.exists():
        raise UnreadableImage(f"{name}: file not found")
    if path.is_dir():
        raise UnreadableImage(f"{name}: is a folder, not a photo")
    if path.stat().st_size == 0:
        raise UnreadableImage(f"{name}: empty file")


def _open(path: Path, name: str) -> Image.Image:
    """The image opened lazily (header only)."""
    try:
        return Image.open(path)
    except UnidentifiedImageError:
        raise UnreadableImage(f"{name}: not an image (unrecognised format)") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UnreadableImage(f"{name}: declared image size is too large (over "
                              f"{MAX_PIXELS // 1_000_000} megapixels)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise UnreadableImage(f"{name}: cannot read image ({joined_lines(exc)})") from None


def _reduction_for(width: int, height: int) -> int:
    """The largest JPEG DCT reduction (1, 2, 4, 8) keeping the long side >= TARGET_LONG_SIDE."""
    long_side = max(width, height)
    factor = 1
    while factor < 8 and long_side / (factor * 2) >= TARGET_LONG_SIDE:
        factor *= 2
    return factor


_REDUCED_FLAGS = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                  8: cv2.IMREAD_REDUCED_COLOR_8}


def _decode_jpeg(path: Path, img: Image.Image, name: str) -> tuple[np.ndarray, float]:
    """Decode a JPEG with OpenCV, reduced by DCT scaling, as stored (not turned); the scale.

    ``img`` is the same file opened by Pillow, whose parser stops just after the start of
    the image data: the data must end with an end-of-image marker somewhere after that
    (compressed data never holds one; what follows it, a phone's trailer, is ignored).
    """
    scan_start = img.fp.tell()
    raw = path.read_bytes()
    if raw.rfind(_END_OF_IMAGE, scan_start) < 0:  # from the end: a normal file ends with one
        raise UnreadableImage(f"{name}: truncated JPEG (the image data stops before its end)")
    factor = _reduction_for(*img.size)
    flags = _REDUCED_FLAGS.get(factor, cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), flags)
    if image is None:
        raise UnreadableImage(f"{name}: corrupt JPEG (cannot decode)")
    if _ends_in_missing_data(image, factor):
        raise UnreadableImage(f"{name}: corrupt or truncated JPEG (the end of the image data "
                              "is missing)")
    return image, image.shape[1] / img.size[0]


def _ends_in_missing_data(image: np.ndarray, factor: int) -> bool:
    """Whether the last block decoded (bottom right, 16 x 16 photo pixels: one block of
    colour samples) is all libjpeg's mid-grey fill for missing data, which no camera's
    pixels are."""
    block = max(1, 16 // factor)
    return bool((image[-block:, -block:] == _MISSING_DATA_GREY).all())


def _decode_with_pillow(img: Image.Image, name: str) -> np.ndarray:
    """Decode a non-JPEG image with Pillow, as stored (not turned), as 8-bit BGR."""
    try:
        return _to_bgr8(_pil_to_array(img))
    except (OSError, SyntaxError, ValueError) as exc:
        raise UnreadableImage(f"{name}: corrupt or truncated image ({joined_lines(exc)})") from None


def _pil_to_array(img: Image.Image) -> np.ndarray:
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N"):
        return np.asarray(img, dtype=np.uint16)
    if img.mode == "I":
        return np.asarray(img, dtype=np.int32).clip(0, 65535).astype(np.uint16)
    if img.mode not in ("L", "LA", "RGB", "RGBA"):
        img = img.convert("RGBA" if "A" in img.mode or "transparency" in img.info else "RGB")
    return np.asarray(img)


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
