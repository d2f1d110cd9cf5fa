"""The four sides of a space, and the kinds of route end that can touch a side."""

from __future__ import annotations

from enum import IntEnum


class Side(IntEnum):
    """A side of a space, in notation order (N, E, S, W)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)

    @property
    def delta(self) -> tuple[int, int]:
        """(row, column) step to the neighbouring space across this side."""
        return _DELTAS[self]

    def turned(self, quarter_turns: int) -> Side:
        """This side after turning the board clockwise by ``quarter_turns`` x 90 degrees."""
        return Side((self + quarter_turns) % 4)

    @property
    def word(self) -> str:
        return _WORDS[self]


_DELTAS = {Side.N: (-1, 0), Side.E: (0, 1), Side.S: (1, 0), Side.W: (0, -1)}
_WORDS = {Side.N: "north", Side.E: "east", Side.S: "south", Side.W: "west"}

# Kinds of end that can touch a side (one upper-case letter each, as in the space notation).
# Ends connect across a side only to an end of the same kind. Expansions add their kinds here.
HIGHWAY = "H"
RAILWAY = "R"
ROUTE_KINDS = (HIGHWAY, RAILWAY)
KIND_WORDS: dict[str, str] = {HIGHWAY: "highway", RAILWAY: "railway"}

# Expansion kinds (docs/NOTATION.md): River expansion rivers, Lake expansion lake sides.
RIVER = "W"
LAKE = "L"
KIND_WORDS[RIVER] = "river"
KIND_WORDS[LAKE] = "lake"
