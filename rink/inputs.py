"""Input dispatch for ``rink score``: paths -> inputs -> loaded boards.

A path is a grid file (``.txt``), a photo, or a folder (its grid files and photos, sorted by
name, not recursive). Loading an input gives a ``LoadedBoard``: the board, what kind of input
it was, and the spaces the photo reader is unsure of. Every failure is an ``InputError`` with a
one-line message naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scoring.board import Board, GridError, read_grid_file
from vision.review import ReviewEntry

GRID_SUFFIXES = frozenset({".txt"})
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".tif", ".tiff",
                            ".bmp"})


class InputError(Exception):
    """An input that cannot be read; ``str()`` is one line naming the file."""


@dataclass(frozen=True)
class InputItem:
    """One input to score: a grid file, a photo, or a path that is wrong (``problem``)."""

    source: str
    kind: str
    """'grid', 'photo' or 'bad'."""
    problem: str = ""


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


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in GRID_SUFFIXES:
        return "grid"
    if suffix in PHOTO_SUFFIXES:
        return "photo"
    return None


def expand_paths(paths: list[str]) -> list[InputItem]:
    """The inputs named by ``paths``, in order; folders expand to their boards, sorted."""
    items = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
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
        return _load_photo(item.source, corners)
    try:
        board = read_grid_file(item.source)
    except GridError as error:
        raise InputError(str(error)) from None
    return LoadedBoard(item.source, "grid", board)


_recognizer = None
"""One photo Recognizer per process, loaded on first use (never at import)."""


def _get_recognizer():
    global _recognizer
    if _recognizer is None:
        from vision.recognizer import Recognizer

        _recognizer = Recognizer.load()
    return _recognizer


def _load_photo(source: str, corners: list[tuple[float, float]] | None) -> LoadedBoard:
    try:
        from vision.errors import PhotoError
    except ImportError as error:
        raise InputError(f"{source}: photo reading is not available ({error})") from None
    try:
        recognizer = _get_recognizer()
    except (ImportError, OSError, ValueError, RuntimeError) as error:
        raise InputError(f"{source}: photo reading is not available ({error})") from None
    try:
        reading = recognizer.read(source, corners=corners)
    except PhotoError as error:
        message = str(error)
        raise InputError(message if source in message else f"{source}: {message}") from None
    except (OSError, ValueError, RuntimeError) as error:
        raise InputError(f"{source}: cannot read the photo ({error})") from None
    try:
        board = Board.from_tokens(reading.grid, source)
    except GridError as error:
        raise InputError(f"{source}: the photo reader gave an invalid grid ({error.reason})") from None
    return LoadedBoard(source, "photo", board, list(reading.review),
                       list(getattr(reading, "warnings", [])), reading)
