"""The 12 printed Exits around the grid (RULINGS.md: the board).

Top and bottom sides: columns 1, 3, 5 are highway, railway, highway. Left and right sides:
rows 1, 3, 5 are railway, highway, railway. Going round the board they alternate H, R, H, R...
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import SIZE, Position
from scoring.sides import HIGHWAY, KIND_WORDS, RAILWAY, Side


@dataclass(frozen=True)
class Exit:
    """One Exit: the board ``side`` it sits on, the space it serves and its ``kind`` (H or R)."""

    index: int
    """0-11, clockwise from the top-left Exit (top, right, bottom, left sides)."""
    side: Side
    row: int
    col: int
    kind: str

    @property
    def position(self) -> Position:
        return self.row, self.col

    @property
    def words(self) -> str:
        """Where a player finds it, e.g. 'top Exit at column 3 (railway)'."""
        board_side = {Side.N: "top", Side.E: "right", Side.S: "bottom", Side.W: "left"}[self.side]
        along = f"column {self.col}" if self.side in (Side.N, Side.S) else f"row {self.row}"
        return f"{board_side} Exit at {along} ({KIND_WORDS[self.kind]})"


def _build_exits() -> tuple[Exit, ...]:
    last = SIZE - 1
    kinds = (HIGHWAY, RAILWAY, HIGHWAY)
    cross = (RAILWAY, HIGHWAY, RAILWAY)
    places: list[tuple[Side, int, int, str]] = []
    places += [(Side.N, 0, c, k) for c, k in zip((1, 3, 5), kinds)]
    places += [(Side.E, r, last, k) for r, k in zip((1, 3, 5), cross)]
    places += [(Side.S, last, c, k) for c, k in zip((5, 3, 1), kinds)]
    places += [(Side.W, r, 0, k) for r, k in zip((5, 3, 1), cross)]
    return tuple(Exit(i, side, row, col, kind) for i, (side, row, col, kind) in enumerate(places))


EXITS: tuple[Exit, ...] = _build_exits()
_BY_PLACE = {(e.row, e.col, e.side): e for e in EXITS}


def exit_at(row: int, col: int, side: Side) -> Exit | None:
    """The Exit just outside ``side`` of space (row, col), if there is one."""
    return _BY_PLACE.get((row, col, side))


def on_outer_edge(row: int, col: int, side: Side) -> bool:
    """True when ``side`` of (row, col) lies on the board's outer edge."""
    dr, dc = side.delta
    return not (0 <= row + dr < SIZE and 0 <= col + dc < SIZE)
