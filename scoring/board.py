"""The board: 7 x 7 spaces plus expansion state, and the grid-file notation (board-spec 4.2).

A grid file is seven non-empty lines of seven whitespace-separated tokens, row 0 (the top)
first; lines starting with ``#`` are comments. After the seven rows, further non-comment lines
are ``key: value`` pairs for expansion state that is not a space (docs/NOTATION.md).

Lines end at ``\n``, ``\r\n`` or ``\r`` only (a form feed or U+2028 in a comment is part of
the comment). A grid file is a regular file of at most ``GRID_FILE_LIMIT`` bytes; messages
quote at most a short piece of a bad token or line (``scoring.quote``).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from scoring.quote import one_line, quoted
from scoring.space import Space, TokenError, format_space, parse_token

_KEY_WORDS = re.compile(r"[A-Za-z][A-Za-z-]*( [A-Za-z][A-Za-z-]*)*")
"""A key: words of letters (and hyphens) joined by single spaces, e.g. ``edge portals``."""
_LINE_END = re.compile(r"\r\n|\r|\n")
"""Where a grid file's lines end (not ``str.splitlines``, which also splits at form feeds,
vertical tabs, U+001C-U+001E, U+0085, U+2028 and U+2029)."""

GRID_FILE_LIMIT = 64 * 1024
"""The most bytes a grid file (or a grid on standard input) may hold."""

SIZE = 7
Position = tuple[int, int]
"""(row, column), both 0-6, row 0 at the top."""


class GridError(ValueError):
    """A grid that cannot be read; ``str()`` is a one-line message naming the source and place."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.reason = message
        name = one_line(source)
        where = f"{name}, line {line}" if line is not None else name
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Board:
    """A whole board: ``spaces[row][col]`` and the ``key: value`` expansion lines."""

    spaces: tuple[tuple[Space, ...], ...]
    extras: tuple[tuple[str, str], ...] = field(default=())
    """Expansion ``key: value`` lines, in file order."""

    def __post_init__(self) -> None:
        if len(self.spaces) != SIZE or any(len(row) != SIZE for row in self.spaces):
            raise ValueError("a board has 7 rows of 7 spaces")

    def __getitem__(self, position: Position) -> Space:
        row, col = position
        return self.spaces[row][col]

    def positions(self) -> Iterator[Position]:
        for row in range(SIZE):
            for col in range(SIZE):
                yield row, col

    def extra(self, key: str) -> str | None:
        """The value of the last ``key:`` line, or None."""
        values = [value for k, value in self.extras if k == key]
        return values[-1] if values else None

    @property
    def tokens(self) -> list[list[str]]:
        return [[format_space(space) for space in row] for row in self.spaces]

    def replaced(self, position: Position, space: Space) -> Board:
        """A copy with one space replaced (corrections)."""
        row, col = position
        rows = [list(r) for r in self.spaces]
        rows[row][col] = space
        return Board(tuple(tuple(r) for r in rows), self.extras)

    def turned(self, quarter_turns: int) -> Board:
        """The board turned clockwise by ``quarter_turns`` x 90 degrees (expansion lines kept)."""
        q = quarter_turns % 4
        rows = [list(r) for r in self.spaces]
        for _ in range(q):
            rows = [[rows[SIZE - 1 - c][r] for c in range(SIZE)] for r in range(SIZE)]
        return Board(tuple(tuple(s.turned(q) for s in r) for r in rows), self.extras)

    @classmethod
    def empty(cls) -> Board:
        return cls(tuple(tuple(Space() for _ in range(SIZE)) for _ in range(SIZE)))

    @classmethod
    def from_tokens(cls, rows: list[list[str]] | list[str], source: str = "<tokens>") -> Board:
        """A board from 7 lists of 7 tokens, or 7 strings of 7 space-separated tokens."""
        text = "\n".join(r if isinstance(r, str) else " ".join(r) for r in rows)
        return parse_grid(text, source)


def parse_grid(text: str, source: str = "<text>") -> Board:
    """Parse grid-file text; raise GridError naming ``source``, the line and the token at fault."""
    if "\x00" in text:
        raise GridError(source, "not a text grid file (binary data)")
    rows: list[tuple[Space, ...]] = []
    extras: list[tuple[str, str]] = []
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(rows) < SIZE:
            tokens = line.split()
            if len(rows) == 0 and ":" in line and len(tokens) < SIZE:
                raise GridError(source, f"expected a row of 7 tokens, found {quoted(line)}", number)
            if len(tokens) != SIZE:
                raise GridError(
                    source, f"row {len(rows)} has {len(tokens)} tokens, expected 7", number
                )
            spaces = []
            for col, token in enumerate(tokens):
                try:
                    spaces.append(parse_token(token))
                except TokenError as error:
                    raise GridError(source, f"column {col}: {error}", number) from None
            rows.append(tuple(spaces))
            continue
        key, sep, value = line.partition(":")
        if not sep or not _KEY_WORDS.fullmatch(key.strip()):
            raise GridError(
                source, f"expected 'key: value' after the 7 rows, found {quoted(line)}", number
            )
        extras.append((key.strip().lower(), value.strip()))
    if not rows:
        raise GridError(source, "empty grid file (no rows)")
    if len(rows) < SIZE:
        raise GridError(source, f"only {len(rows)} rows, expected 7")
    return Board(tuple(rows), tuple(extras))


_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _check_regular(mode: int, source: str) -> None:
    """GridError unless ``mode`` is a regular file's."""
    if stat.S_ISDIR(mode):
        raise GridError(source, "is a folder, not a grid file")
    if not stat.S_ISREG(mode):
        what = next((words for test, words in _NOT_REGULAR if test(mode)), "not a file")
        raise GridError(source, f"is {what}, not a regular file: a grid file is a text file")


def _too_large(source: str) -> GridError:
    return GridError(source, f"too large for a grid file (the limit is {GRID_FILE_LIMIT // 1024} KiB)")


def read_grid_file(path: str | Path) -> Board:
    """Read and parse a grid file; every failure is a GridError naming the file.

    Only a regular file is read (a named pipe, device or socket is refused from ``os.stat``,
    before it is opened), and at most ``GRID_FILE_LIMIT`` bytes of it.
    """
    source = str(path)
    try:
        _check_regular(os.stat(path).st_mode, source)
        # O_NONBLOCK: should a pipe be swapped in after the check, opening it does not hang
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (FileNotFoundError, NotADirectoryError):
        raise GridError(source, "no such file") from None
    except OSError as error:
        raise GridError(source, f"cannot read file ({error.strerror})") from None
    with open(fd, "rb") as file:
        try:
            _check_regular(os.fstat(fd).st_mode, source)
            data = file.read(GRID_FILE_LIMIT + 1)
        except OSError as error:
            raise GridError(source, f"cannot read file ({error.strerror})") from None
    return parse_grid_bytes(data, source)


def read_grid_stream(stream: BinaryIO, source: str = "<stdin>") -> Board:
    """Read and parse a grid from a binary stream (standard input: ``sys.stdin.buffer``),
    reading at most ``GRID_FILE_LIMIT`` + 1 bytes; failures are GridErrors naming ``source``."""
    try:
        data = stream.read(GRID_FILE_LIMIT + 1)
    except OSError as error:
        raise GridError(source, f"cannot read ({error.strerror})") from None
    return parse_grid_bytes(data, source)


def parse_grid_bytes(data: bytes, source: str = "<bytes>") -> Board:
    """Parse a grid file's bytes (UTF-8, optionally with a byte-order mark) with the checks of
    ``read_grid_file``: at most ``GRID_FILE_LIMIT`` bytes, not empty, text."""
    if len(data) > GRID_FILE_LIMIT:
        raise _too_large(source)
    if not data.strip():
        raise GridError(source, "empty file")
    if b"\x00" in data:
        raise GridError(source, "not a text grid file (binary data)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GridError(source, "not a text grid file (not UTF-8 text)") from None
    return parse_grid(text, source)


def format_grid(board: Board) -> str:
    """Grid-file text for a board (columns aligned), ending with a newline."""
    tokens = board.tokens
    width = max(len(t) for row in tokens for t in row)
    lines = [" ".join(t.ljust(width) for t in row).rstrip() for row in tokens]
    lines += [f"{key}: {value}" for key, value in board.extras]
    return "\n".join(lines) + "\n"


def board_to_json(board: Board) -> dict:
    """JSON form of a board: ``grid`` as in board-spec 4.3 plus the expansion ``key: value``
    lines in file order (a list, since keys such as ``tentacle`` may repeat)."""
    data: dict = {"grid": [" ".join(row) for row in board.tokens]}
    if board.extras:
        data["extras"] = [f"{key}: {value}" for key, value in board.extras]
    return data


def board_from_json(data: dict, source: str = "<json>") -> Board:
    """Inverse of ``board_to_json``."""
    grid = data.get("grid")
    if not isinstance(grid, list) or not all(isinstance(r, str) for r in grid):
        raise GridError(source, "JSON board needs 'grid': a list of 7 strings")
    extras = data.get("extras") or []
    if not isinstance(extras, list) or not all(isinstance(line, str) for line in extras):
        raise GridError(source, "JSON board 'extras' must be a list of 'key: value' strings")
    return parse_grid("\n".join(grid + extras), source)
