"""``-`` as a path: one photo or grid file read from standard input, told apart by its bytes.

What comes in is capped as a file would be: grid text at ``MAX_GRID_BYTES``, a photo at
``MAX_PHOTO_BYTES``; no more than the cap (plus one byte) is ever read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO

from scoring.board import GRID_FILE_LIMIT

STDIN_PATH = "-"
STDIN_SOURCE = "<stdin>"
"""How results and messages name standard input."""
MAX_GRID_BYTES = GRID_FILE_LIMIT
MAX_PHOTO_BYTES = 100_000_000


@dataclass(frozen=True)
class StdinInput:
    """What standard input held: ``kind`` 'grid', 'photo' or 'bad' (then ``problem`` says why)."""

    kind: str
    data: bytes = b""
    suffix: str = ""
    """For a photo: the file suffix its format is known by ('.jpg', '.png', ...)."""
    problem: str = ""


AVIF_BRANDS = frozenset({b"avif", b"avis"})  # the ISO media brands of an AVIF still or sequence


def image_suffix(head: bytes) -> str | None:
    """The suffix of the image format ``head`` (the first bytes) starts, or None if none."""
    if head.startswith(b"\xff\xd8\xff"):
        return ".jpg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return ".png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ".webp"
    if head[4:8] == b"ftyp":  # ISO media: AVIF (Pillow's own reader), HEIC and HEIF (pillow-heif)
        return ".avif" if head[8:12] in AVIF_BRANDS else ".heic"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return ".tif"
    if head[:2] == b"BM" and head[6:10] == b"\x00\x00\x00\x00":  # reserved words are zero
        return ".bmp"
    return None


def _read_up_to(stream: BinaryIO, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = stream.read(min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_stdin(stream: BinaryIO) -> StdinInput:
    """Read one photo or grid file from ``stream``, never more than its cap."""
    head = _read_up_to(stream, MAX_GRID_BYTES + 1)
    suffix = image_suffix(head[:16])
    if suffix is None:
        if len(head) > MAX_GRID_BYTES:
            return StdinInput("bad", problem=f"more than {MAX_GRID_BYTES // 1024} KiB and not a "
                                             "photo: too large for a grid file")
        return StdinInput("grid", head)
    data = head + _read_up_to(stream, MAX_PHOTO_BYTES + 1 - len(head))
    if len(data) > MAX_PHOTO_BYTES:
        return StdinInput("bad", problem=f"photo larger than {MAX_PHOTO_BYTES // 1_000_000} MB")
    return StdinInput("photo", data, suffix)
