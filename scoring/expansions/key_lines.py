"""Reading the expansion ``key: value`` lines after a grid's seven rows (docs/NOTATION.md).

Every reader takes the Board and raises ``GridError`` quoting the whole bad line, so a player
can find it in the file. Spaces are ``row,col`` (0-6); places at the board's edge are a board
side letter and the row or column along it (``N3`` = above column 3, ``W1`` = left of row 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from scoring.board import SIZE, Board, GridError, Position
from scoring.quote import quoted
from scoring.sides import Side

EdgePlace = tuple[Side, int]
"""A place just outside the grid: the board side and the row (E/W) or column (N/S) along it."""
T = TypeVar("T")


def _bad(source: str, key: str, value: str, why: str) -> GridError:
    return GridError(source, f"bad key line {quoted(f'{key}: {value}')}: {why}")


def _number(text: str) -> int | None:
    """A short whole number written in ASCII digits (not '²', not 5000 digits), or None."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def parse_position(text: str) -> Position | None:
    """``"2,3"`` -> (2, 3); None when ``text`` is not a space on the board."""
    row, sep, col = text.partition(",")
    position = _number(row), _number(col)
    if not sep or None in position:
        return None
    return position if all(0 <= v < SIZE for v in position) else None  # type: ignore[operator]


def parse_edge_place(text: str) -> EdgePlace | None:
    """``"N3"`` -> (Side.N, 3); None when ``text`` is not a place at the board's edge."""
    if len(text) != 2 or text[0] not in "NESW" or text[1] not in "0123456789":
        return None
    along = int(text[1])
    return (Side[text[0]], along) if along < SIZE else None


def edge_place_space(place: EdgePlace) -> tuple[Position, Side]:
    """The space next to an edge place and its side that faces the place."""
    side, along = place
    last = SIZE - 1
    row = {Side.N: 0, Side.S: last}.get(side, along)
    col = {Side.W: 0, Side.E: last}.get(side, along)
    return (row, col), side


def positions(board: Board, key: str, source: str = "<board>") -> list[Position]:
    """The spaces listed on the last ``key:`` line (empty list when there is none)."""
    value = board.extra(key)
    return [] if value is None else positions_in(value, key, source)


def positions_in(value: str, key: str, source: str = "<board>") -> list[Position]:
    """The spaces in one ``key: value`` line's value (``row,col`` items)."""
    return _items(value, key, source, parse_position, "a space 'row,col' with 0-6")


def edge_places(board: Board, key: str, source: str = "<board>") -> list[EdgePlace]:
    """The edge places on the last ``key:`` line (``N3 W1``...)."""
    value = board.extra(key)
    if value is None:
        return []
    return _items(value, key, source, parse_edge_place, "an edge place like N3 or W1")


def _items(
    value: str, key: str, source: str, parse: Callable[[str], T | None], what: str
) -> list[T]:
    """Every whitespace-separated item of ``value`` parsed; GridError if one is not ``what``."""
    found = []
    for item in value.split():
        parsed = parse(item)
        if parsed is None:
            raise _bad(source, key, value, f"{quoted(item)} is not {what}")
        found.append(parsed)
    return found


def count(board: Board, key: str, most: int, source: str = "<board>") -> int:
    """The whole number 0..``most`` on the last ``key:`` line (0 when there is none)."""
    value = board.extra(key)
    if value is None:
        return 0
    number = _number(value)
    if number is None or number > most:
        raise _bad(source, key, value, f"expected a whole number from 0 to {most}")
    return number


def all_lines(board: Board, key: str) -> list[str]:
    """The values of every ``key:`` line, in file order (for keys that may repeat)."""
    return [value for k, value in board.extras if k == key]
