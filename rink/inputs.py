"""Input dispatch for ``rink score``: paths -> inputs -> loaded boards.

A path is a grid file (``.txt``), a photo, a folder (its grid files and photos, sorted by
name, not recursive), or ``-``: one photo or grid file on standard input. Loading an input
gives a ``LoadedBoard``: the board, what kind of input it was, and the spaces the photo reader
is unsure of. Every failure is an ``InputError`` with a one-line message naming the file.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from rink.stdin_input import STDIN_PATH, STDIN_SOURCE, read_stdin
from scoring.board import Board, GridError, parse_grid_bytes, read_grid_file
from vision.review import ReviewEntry

GRID_SUFFIXES = frozenset({".txt"})
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif", ".tif",
                            ".tiff", ".bmp"})


class InputError(Exception):
    """An input that cannot be read; ``str()`` is one line naming the file."""


@dataclass(frozen=True)
class InputItem:
    """One input to score: a grid file, a photo, or a path that is wrong (``problem``)."""

    source: str
    kind: str
    """'grid', 'photo' or 'bad'."""
    problem: str = ""
    data: bytes | None = field(default=None, repr=False)
    """The input itself when it came on standard input (``source`` is then ``<stdin>``)."""
    suffix: str = ""
    """For a photo on standard input: its format's file suffix ('.jpg', ...)."""


@dataclass
class LoadedBoard:
    """A board read from an input."""

    source: str
    kind: str
    board: Board
    review: list[ReviewEntry] = field(default_factory=list)
    """Spaces to check (photos)."""
    warnings: list[str] = field(default_factory=list)
    reading: object | None = None
    """The photo reading (``vision.recognizer.PhotoReading``), for annotation; None for grids."""
    expansions_seen: list = field(default_factory=list)
    """Photos: the expansions the drawn water shows, with why
    (``vision.water_sighting.ExpansionSighting``); empty for grids."""


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in GRID_SUFFIXES:
        return "grid"
    if suffix in PHOTO_SUFFIXES:
        return "photo"
    return None


def expand_paths(paths: list[str], stdin: BinaryIO | None = None) -> list[InputItem]:
    """The inputs named by ``paths``, in order; folders expand to their boards, sorted; ``-``
    is read from ``stdin`` (standard input by default), at most once."""
    items = []
    for name in paths:
        path = Path(name)
        if name == STDIN_PATH:
            read = read_stdin(stdin or sys.stdin.buffer)
            items.append(InputItem(STDIN_SOURCE, read.kind, read.problem, read.data, read.suffix))
        elif path.is_dir():
            found = sorted(
                (p for p in path.iterdir()
                 if p.is_file() and not p.name.startswith(".") and kind_of(p)),
                key=lambda p: p.name,
            )
            if not found:
                items.append(InputItem(name, "bad", "folder has no grid files (.txt) or photos"))
            items += [InputItem(str(p), kind_of(p) or "bad") for p in found]
        elif not path.exists():
            items.append(InputItem(name, "bad", "no such file or folder"))
        else:
            items.append(InputItem(name, kind_of(path) or "grid"))
    return items


def load_input(item: InputItem, corners: list[tuple[float, float]] | None = None) -> LoadedBoard:
    """Read one input; raise InputError (one line naming the file) if it cannot be read.

    A file with an unknown suffix is read as a grid file (its errors then say what is wrong).
    """
    if item.kind == "bad":
        raise InputError(f"{item.source}: {item.problem}")
    if item.kind == "photo":
        if item.data is not None:
            return _load_photo_bytes(item, corners)
        return _load_photo(item.source, item.source, corners)
    try:
        if item.data is not None:
            board = parse_grid_bytes(item.data, item.source)
        else:
            board = read_grid_file(item.source)
    except GridError as error:
        raise InputError(str(error)) from None
    return LoadedBoard(item.source, "grid", board)



def _load_photo_bytes(item: InputItem, corners: list[tuple[float, float]] | None) -> LoadedBoard:
    """A photo that came as bytes: read from a private temporary file, named ``item.source``
    in every message."""
    with tempfile.TemporaryDirectory(prefix="rink-stdin-") as folder:
        path = Path(folder) / f"stdin{item.suffix}"
        path.write_bytes(item.data or b"")
        return _load_photo(str(path), item.source, corners)


_recognizer = None
"""One photo Recognizer per process, loaded on first use (never at import)."""


def _get_recognizer():
    global _recognizer
    if _recognizer is None:
        from vision.recognizer import Recognizer

        _recognizer = Recognizer.load()
    return _recognizer


def _load_photo(path: str, source: str,
                corners: list[tuple[float, float]] | None) -> LoadedBoard:
    """Read the photo at ``path``; messages name it ``source``."""
    try:
        from vision.errors import PhotoError
    except ImportError as error:
        raise InputError(f"{source}: photo reading is not available ({error})") from None
    try:
        recognizer = _get_recognizer()
    except (ImportError, OSError, ValueError, RuntimeError) as error:
        raise InputError(f"{source}: photo reading is not available ({error})") from None
    try:
        reading = recognizer.read(path, corners=corners)
    except PhotoError as error:
        message = str(error)
        if path != source:
            message = message.replace(Path(path).name, source)
        raise InputError(message if source in message else f"{source}: {message}") from None
    except (OSError, ValueError, RuntimeError) as error:
        raise InputError(f"{source}: cannot read the photo ({error})") from None
    try:
        board = Board.from_tokens(reading.grid, source)
    except GridError as error:
        raise InputError(f"{source}: the photo reader gave an invalid grid ({error.reason})") \
            from None
    return LoadedBoard(source, "photo", board, list(reading.review),
                       list(getattr(reading, "warnings", [])), reading,
                       list(getattr(reading, "expansions_seen", [])))
