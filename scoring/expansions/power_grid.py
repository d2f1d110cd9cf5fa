"""Power Grid expansion (Electricity, 7 rounds): Exits on the grid times Accumulator charges.

The Accumulator is the centre space, written ``.#`` (an accumulator marker on an otherwise
empty space). The ``electrified:`` line lists the spaces with a lightning mark, ``charges:``
the filled circles (0-3). An Exit counts when a route of its kind reaches it and the space
next to it is electrified and joined to the Accumulator through orthogonally adjacent
electrified spaces. Route ends that face the Accumulator are not Errors.

Charges are bounded only by the Accumulator's 3 circles: the dice's "?" face charges it by 1
with no electrified space next to it (RULINGS.md), and the board does not show which face
gave a charge, so charges without lightning next to the Accumulator are legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import SIZE, Board, Position
from scoring.exits import EXITS, Exit
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.key_lines import count, positions
from scoring.expansions.marked import has_route, marked, marked_places
from scoring.expansions.wording import counted
from scoring.graph import RouteGraph
from scoring.results import Illegal, Place, ScoreSheet
from scoring.sides import ROUTE_KINDS, Side

ACCUMULATOR = "#"
CENTRE: Position = (3, 3)
ELECTRIFIED_KEY = "electrified"
CHARGES_KEY = "charges"
MAX_CHARGES = 3


@dataclass(frozen=True)
class PowerGrid:
    """The Accumulator, its charges and the Exits it reaches."""

    accumulator: Position
    charges: int
    exits: tuple[Exit, ...]

    @property
    def points(self) -> int:
        return len(self.exits) * self.charges


def accumulator(board: Board) -> Position | None:
    """Where the Accumulator is drawn (the first ``#`` in reading order), or None."""
    drawn = marked(board, ACCUMULATOR)
    return drawn[0] if drawn else None


def _neighbours(position: Position) -> list[Position]:
    row, col = position
    found = []
    for side in Side:
        nr, nc = row + side.delta[0], col + side.delta[1]
        if 0 <= nr < SIZE and 0 <= nc < SIZE:
            found.append((nr, nc))
    return found


def powered_spaces(board: Board, source: str = "<board>") -> set[Position]:
    """Electrified spaces joined to the Accumulator through electrified spaces."""
    centre = accumulator(board) or CENTRE
    electrified = set(positions(board, ELECTRIFIED_KEY, source)) - {centre}
    reached: set[Position] = set()
    stack = [p for p in _neighbours(centre) if p in electrified]
    while stack:
        position = stack.pop()
        if position in reached:
            continue
        reached.add(position)
        stack.extend(p for p in _neighbours(position) if p in electrified)
    return reached


def power_grid(board: Board, source: str = "<board>") -> PowerGrid:
    powered = powered_spaces(board, source)
    exits = tuple(
        e for e in EXITS if e.position in powered and board[e.position].kind_at(e.side) == e.kind
    )
    charges = count(board, CHARGES_KEY, MAX_CHARGES, source)
    return PowerGrid(accumulator(board) or CENTRE, charges, exits)


def expansion_score(board: Board, source: str = "<board>") -> tuple[int, str]:
    """(points, score-sheet line)."""
    grid = power_grid(board, source)
    return grid.points, (
        f"{counted(len(grid.exits), 'Exit')} x {counted(grid.charges, 'charge')}"
    )


def exempt_end(board: Board, row: int, col: int, side: Side) -> bool:
    """A route end facing the Accumulator is not an Error."""
    centre = accumulator(board) or CENTRE
    return (row + side.delta[0], col + side.delta[1]) == centre


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """A missing or off-centre Accumulator, lightning without a route or on the Accumulator,
    and a space electrified twice (charges are never illegal: see the module docstring)."""
    found: list[Illegal] = []
    drawn = marked(board, ACCUMULATOR)
    if not drawn:
        found.append(Illegal(
            "no-accumulator", "no Accumulator drawn (write .# in the centre space)",
            (Place(*CENTRE),),
        ))
    elif drawn != [CENTRE]:
        found.append(Illegal(
            "accumulator-place", "the Accumulator is drawn once, in the centre space",
            tuple(Place(*p) for p in drawn),
        ))
    centre = drawn[0] if drawn else CENTRE
    listed = positions(board, ELECTRIFIED_KEY, source)
    for position in sorted(set(listed)):
        if position == centre:
            found.append(Illegal(
                "electrified-accumulator", "the Accumulator cannot be electrified",
                (Place(*position),),
            ))
        elif not has_route(board[position]):
            found.append(Illegal(
                "electrified-no-route", "only spaces with a route can be electrified",
                (Place(*position),),
            ))
        if listed.count(position) > 1:
            found.append(Illegal(
                "electrified-twice", "a space can be electrified only once", (Place(*position),)
            ))
    return found


def drawings(board: Board) -> list[Place]:
    """The Accumulator (lightning marks and charges are on key lines)."""
    return marked_places(board, ACCUMULATOR)


class PowerGridExpansion(Expansion):
    """The Power Grid expansion for ``scoring.engine.score``."""

    name = "power-grid"
    title = "Power Grid"
    box = "Electricity"
    rounds = 7

    def exempt_ends(self, board: Board, graph: RouteGraph) -> set[tuple[int, int, Side]]:
        return {
            (row, col, side)
            for row, col in board.positions()
            for side in Side
            if board[row, col].kind_at(side) in ROUTE_KINDS and exempt_end(board, row, col, side)
        }

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
