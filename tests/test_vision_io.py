"""Photo loading: bad input gives one-line PhotoErrors; phone formats load properly."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.errors import PhotoError
from vision.image_io import as_bgr, load_photo


def _picture(w: int = 400, h: int = 300) -> np.ndarray:
    """A BGR test picture whose corners differ, so turns and flips are visible."""
    img = np.full((h, w, 3), 200, np.uint8)
    img[: h // 4, : w // 4] = (0, 0, 255)  # red block top-left
    img[-h // 4:, -w // 4:] = (255, 0, 0)  # blue block bottom-right
    return img


def _one_line_error(path) -> str:
    with pytest.raises(PhotoError) as info:
        load_photo(path)
    message = str(info.value)
    assert "\n" not in message and path.name in message
    return message


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    assert "empty" in _one_line_error(path)


def test_not_an_image(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("these are not pixels\n" * 20)
    assert "not an image" in _one_line_error(path)


def test_missing_file(tmp_path):
    assert "not found" in _one_line_error(tmp_path / "nowhere.jpg")


def test_truncated_jpeg(tmp_path):
    _, buf = cv2.imencode(".jpg", _picture(800, 600))
    path = tmp_path / "cut.jpg"
    path.write_bytes(buf.tobytes()[: len(buf) // 2])
    assert "truncated" in _one_line_error(path)


def test_tiny_image(tmp_path):
    path = tmp_path / "tiny.png"
    cv2.imwrite(str(path), _picture(64, 48))
    assert "too small" in _one_line_error(path)


def test_decompression_bomb_is_refused_from_the_header(tmp_path):
    # A valid PNG header declaring 50000 x 50000 pixels, with almost no data behind it.
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", 50000, 50000, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 10))
    path = tmp_path / "bomb.png"
    path.write_bytes(png + chunk(b"IEND", b""))
    assert "too large" in _one_line_error(path)


def test_exif_orientation_is_honoured(tmp_path):
    rgb = cv2.cvtColor(_picture(400, 300), cv2.COLOR_BGR2RGB)
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned: display needs a 90 degree clockwise turn
    path = tmp_path / "phone.jpg"
    Image.fromarray(rgb).save(path, exif=exif.tobytes(), quality=95)
    image = load_photo(path).image
    assert image.shape[:2] == (400, 300)  # portrait after the turn
    # after a clockwise turn, the red top-left block is at the top-right
    b, _, r = image[20, -20].astype(int)
    assert r > 150 and b < 100


@pytest.mark.parametrize("mode", ["L", "LA", "RGBA", "I;16"])
def test_png_modes_become_bgr8(tmp_path, mode):
    gray = cv2.cvtColor(_picture(), cv2.COLOR_BGR2GRAY)
    if mode == "I;16":
        img = Image.fromarray(gray.astype(np.uint16) * 257)
    elif mode == "RGBA":
        rgba = np.dstack([cv2.cvtColor(_picture(), cv2.COLOR_BGR2RGB), np.full(gray.shape, 255, np.uint8)])
        img = Image.fromarray(rgba, "RGBA")
    else:
        img = Image.fromarray(gray).convert(mode)
    path = tmp_path / f"pic_{mode.replace(';', '')}.png"
    img.save(path)
    image = load_photo(path).image
    assert image.dtype == np.uint8 and image.shape == (300, 400, 3)
    assert abs(int(image[150, 200].mean()) - int(gray[150, 200])) <= 2


def test_webp_and_heif_load(tmp_path):
    rgb = Image.fromarray(cv2.cvtColor(_picture(), cv2.COLOR_BGR2RGB))
    rgb.save(tmp_path / "pic.webp", quality=95)
    from pillow_heif import register_heif_opener

    register_heif_opener()
    rgb.save(tmp_path / "pic.heic", quality=95)
    for name in ("pic.webp", "pic.heic"):
        image = load_photo(tmp_path / name).image
        assert image.shape == (300, 400, 3)
        b, _, r = image[20, 20].astype(int)
        assert r > 150 and b < 100, name


def test_large_jpeg_is_decoded_reduced(tmp_path):
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), cv2.resize(_picture(), (4000, 3000), interpolation=cv2.INTER_NEAREST))
    loaded = load_photo(path)
    assert loaded.original_size == (4000, 3000)
    assert loaded.scale == 0.5 and loaded.image.shape[:2] == (1500, 2000)


def test_in_memory_arrays():
    assert as_bgr(cv2.cvtColor(_picture(), cv2.COLOR_BGR2GRAY)).shape == (300, 400, 3)
    with pytest.raises(PhotoError):
        as_bgr(np.zeros((10, 10, 3), np.uint8))
