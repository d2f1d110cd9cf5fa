"""Photo loading: bad input gives one-line PhotoErrors; phone formats load properly."""

from __future__ import annotations

import struct
import warnings
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.errors import PhotoError, photo_name
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


SAMPLE = Path(__file__).resolve().parent.parent / "sample_photos" / "board_01.jpg"


def _load_quietly(path, capfd) -> np.ndarray:
    """Load ``path``; no warning and nothing on stderr on the way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        image = load_photo(path).image
    assert [str(w.message) for w in caught] == []
    assert capfd.readouterr().err == ""
    return image


@pytest.mark.parametrize("fmt", ["png", "webp", "jpg"])
@pytest.mark.parametrize("exif", [b"garbage! not a TIFF header",  # Pillow raises SyntaxError
                                  b"MM\x00*\x00\x00\x00\x08\xff\xff" + b"\x00" * 10,  # short IFD
                                  (b"II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x02\x00\x04\x00"
                                   b"\x00\x00abc\x00\x00\x00\x00\x00")])  # orientation as text
def test_a_malformed_exif_block_is_ignored(tmp_path, capfd, fmt, exif):
    rgb = Image.fromarray(cv2.cvtColor(_picture(), cv2.COLOR_BGR2RGB))
    path = tmp_path / f"bad_exif.{fmt}"
    rgb.save(path, exif=exif, **({"lossless": True} if fmt == "webp" else {}))
    image = _load_quietly(path, capfd)
    assert image.shape == (300, 400, 3)
    b, _, r = image[20, 20].astype(int)  # not turned: the red block stays top-left
    assert r > 150 and b < 100


def test_a_jpeg_with_a_trailer_after_its_end_marker_is_read(tmp_path, capfd):
    """Phones append Motion Photo videos and maker data after the image's end marker."""
    rng = np.random.default_rng(4)
    trailer = b"\x00\x00\x00\x18ftypmp42" + rng.integers(0, 256, 100_000, np.uint8).tobytes()
    trailer = trailer.replace(b"\xff\xd9", b"\xff\x00")  # no end marker in the trailer itself
    path = tmp_path / "motion.jpg"
    path.write_bytes(SAMPLE.read_bytes() + trailer)
    image = _load_quietly(path, capfd)
    assert np.array_equal(image, load_photo(SAMPLE).image)


def test_a_truncated_jpeg_is_refused_without_noise(tmp_path, capfd):
    data = SAMPLE.read_bytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) * 6 // 10])
    assert "truncated JPEG" in _one_line_error(path)
    assert capfd.readouterr().err == ""


def test_a_truncated_jpeg_with_its_end_marker_put_back_is_refused(tmp_path):
    """It decodes, with the rest of the photo filled grey; that is no photo to read."""
    data = SAMPLE.read_bytes()
    path = tmp_path / "patched.jpg"
    path.write_bytes(data[: len(data) * 6 // 10] + b"\xff\xd9")
    message = _one_line_error(path)
    assert "truncated JPEG" in message and "missing" in message


def test_a_truncated_heic_gives_one_line(tmp_path):
    from pillow_heif import register_heif_opener

    register_heif_opener()
    rng = np.random.default_rng(0)
    noisy = Image.fromarray((rng.random((600, 800, 3)) * 255).astype(np.uint8))
    whole = tmp_path / "whole.heic"
    noisy.save(whole, quality=90)
    path = tmp_path / "cut.heic"
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert "truncated" in _one_line_error(path)


@pytest.mark.parametrize(("name", "shown"), [("two\nlines.jpg", r"two\nlines.jpg"),
                                           ("tab\there.png", r"tab\there.png"),
                                           ("para\u2028sep.jpg", r"para\u2028sep.jpg")])
def test_a_file_name_with_a_line_break_stays_on_one_line(tmp_path, name, shown):
    path = tmp_path / name
    path.write_text("not pixels\n")
    with pytest.raises(PhotoError) as info:
        load_photo(path)
    message = str(info.value)
    assert len(message.splitlines()) == 1 and shown in message
    assert photo_name(path) == shown


def test_a_108_megapixel_jpeg_is_decoded_reduced(tmp_path):
    """Phones' 108 MP modes: read at a quarter of the size, never decoded whole."""
    flat = np.full((9000, 12000), 200, np.uint8)
    flat[::500] = 40  # some lines, so the JPEG is not trivially uniform
    path = tmp_path / "huge.jpg"
    assert cv2.imwrite(str(path), flat, [cv2.IMWRITE_JPEG_QUALITY, 50])
    del flat
    loaded = load_photo(path)
    assert loaded.original_size == (12000, 9000)
    assert loaded.scale == 1 / 4 and loaded.image.shape == (2250, 3000, 3)


def _png_header_only(path, width: int, height: int) -> None:
    """A valid PNG header declaring ``width`` x ``height``, with almost no data behind it."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 10))
    path.write_bytes(png + chunk(b"IEND", b""))


def test_the_size_guard_is_above_what_phones_make(tmp_path):
    """A 200 MP photo passes the guard (Pillow's own limit agrees); 256 MP does not."""
    phone = tmp_path / "phone200.png"
    _png_header_only(phone, 16320, 12240)  # a 200 MP phone mode; its pixel data is missing
    assert "corrupt or truncated" in _one_line_error(phone)
    bomb = tmp_path / "bomb256.png"
    _png_header_only(bomb, 16000, 16000)
    assert "too large" in _one_line_error(bomb)
