"""Spaces that hold an expansion marker, and the key lines that list some of them.

Investigation (``?`` Clues, ``clues collected:``) and Street Lamps (``*`` lamps,
``lamps activated:``) check their lists the same way; Ritual and Power Grid find their
markers with ``marked`` too.
"""

from __future__ import annotations

from scoring.board import Board, Position
from scoring.expansions.key_lines import positions
from scoring.results import Illegal, Place
from scoring.sides import ROUTE_KINDS
from scoring.space import Space


def marked(board: Board, marker: str) -> list[Position]:
    """Every space with ``marker``, in reading order."""
    return [(row, col) for row, line in enumerate(board.spaces)
            for col, space in enumerate(line) if marker in space.markers]


def marked_places(board: Board, marker: str) -> list[Place]:
    """``marked`` as Places (an expansion's drawings)."""
    return [Place(*position) for position in marked(board, marker)]


def has_route(space: Space) -> bool:
    """Whether a piece of ``space`` has a highway or railway end."""
    return any(set(piece.kinds) & set(ROUTE_KINDS) for piece in space.pieces)


def listed_marked(board: Board, marker: str, key: str, source: str = "<board>") -> list[Position]:
    """The spaces on the ``key:`` line that really hold ``marker``, each once, in listed order."""
    drawn = set(marked(board, marker))
    found: list[Position] = []
    for position in positions(board, key, source):
        if position in drawn and position not in found:
            found.append(position)
    return found


def listing_problems(
    board: Board,
    marker: str,
    key: str,
    missing: tuple[str, str],
    twice: tuple[str, str],
    source: str = "<board>",
) -> list[Illegal]:
    """The ``missing`` (code, message) for each space on the ``key:`` line without ``marker``,
    then the ``twice`` one for each space listed more than once."""
    drawn = set(marked(board, marker))
    listed = positions(board, key, source)
    found = [Illegal(*missing, (Place(*p),)) for p in listed if p not in drawn]
    repeated = sorted({p for p in listed if listed.count(p) > 1})
    return found + [Illegal(*twice, (Place(*p),)) for p in repeated]
