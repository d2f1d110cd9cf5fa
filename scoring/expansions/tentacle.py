"""Tentacle expansion (Eldritch, 7 rounds): 2 points per Tentacle, +1 per space shared with a route.

Tentacles are not drawn in a space's token: each is one ``tentacle:`` line listing its spaces
in order from its start (``tentacle: 0,2 1,2 2,2``). Drawing rules checked on the finished
board: a Tentacle starts on an outer-edge space without an Exit, coming in from the edge; its
length is a Tentacle die face (3, 4 or 5); each step goes to an orthogonally adjacent space;
in every space, the Tentacle and whatever else is there use different sides, and a route
sharing a space with a Tentacle is a plain straight or curve (the Tentacle passes under a
straight route at right angles, or curves through the two free sides beside a curve). The last
space holds the ending tip, which uses only the side it comes in by.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import Board, GridError, Position
from scoring.exits import exit_at, on_outer_edge
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.key_lines import all_lines, parse_position, positions_in
from scoring.expansions.wording import counted
from scoring.graph import RouteGraph
from scoring.quote import quoted
from scoring.results import Illegal, Place, ScoreSheet, place_words
from scoring.sides import ROUTE_KINDS, Side

KEY = "tentacle"
LENGTHS = (3, 4, 5)
POINTS_PER_TENTACLE = 2


@dataclass(frozen=True)
class Tentacle:
    """One Tentacle: its spaces from start to tip, and its number (1-based, file order)."""

    number: int
    spaces: tuple[Position, ...]


def tentacles(board: Board, source: str = "<board>") -> list[Tentacle]:
    """The Tentacles on the board's ``tentacle:`` lines (GridError for a bad line)."""
    found = []
    for number, value in enumerate(all_lines(board, KEY), start=1):
        spaces = positions_in(value, KEY, source)
        if not spaces:
            raise GridError(source, f"bad key line {quoted(f'{KEY}: {value}')}: no spaces listed")
        found.append(Tentacle(number, tuple(spaces)))
    return found


def occupied(board: Board, source: str = "<board>") -> set[Position]:
    """Every space a Tentacle runs through (they count as drawn for the Central Spaces)."""
    return {space for tentacle in tentacles(board, source) for space in tentacle.spaces}


def _has_route(board: Board, position: Position) -> bool:
    return any(set(piece.kinds) & set(ROUTE_KINDS) for piece in board[position].pieces)


def expansion_score(board: Board, source: str = "<board>") -> tuple[int, str]:
    """(points, score-sheet line)."""
    drawn = tentacles(board, source)
    shared = sorted(p for p in occupied(board, source) if _has_route(board, p))
    points = POINTS_PER_TENTACLE * len(drawn) + len(shared)
    return points, (
        f"{counted(len(drawn), 'Tentacle')} x {POINTS_PER_TENTACLE} + "
        f"{counted(len(shared), 'space')} shared with routes"
    )


def _side_towards(a: Position, b: Position) -> Side | None:
    """The side of ``a`` that faces ``b`` when they are orthogonal neighbours."""
    for side in Side:
        if (a[0] + side.delta[0], a[1] + side.delta[1]) == b:
            return side
    return None


Stretch = tuple[Position, set[Side]]
"""A space a Tentacle crosses and the sides it uses there."""


def _stretches(tentacle: Tentacle, board: Board) -> tuple[list[Stretch], list[tuple[Position, str]]]:
    """The Tentacle's stretches, and what is wrong with its path (space, words)."""
    problems = []
    spaces = tentacle.spaces
    stretches = []
    for i, position in enumerate(spaces):
        sides: set[Side] = set()
        if i == 0:
            outer = [s for s in Side if on_outer_edge(*position, s)]
            free = [s for s in outer if board[position].kind_at(s) is None]
            if outer:
                sides.add((free or outer)[0])
        else:
            entry = _side_towards(position, spaces[i - 1])
            if entry is None:
                before = place_words(*spaces[i - 1])
                problems.append((position, f"jumps from {before} to a space not next to it"))
            else:
                sides.add(entry)
        if i + 1 < len(spaces):
            exit_side = _side_towards(position, spaces[i + 1])
            if exit_side is not None:
                if exit_side in sides:
                    problems.append((position, "turns back the way it came"))
                sides.add(exit_side)
        stretches.append((position, sides))
    return stretches, problems


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """Tentacles that break the drawing rules (each still scores as drawn)."""
    found: list[Illegal] = []
    used: dict[Position, set[Side]] = {}
    for tentacle in tentacles(board, source):
        name = f"Tentacle {tentacle.number}"
        start = tentacle.spaces[0]
        if len(tentacle.spaces) not in LENGTHS:
            found.append(Illegal(
                "tentacle-length",
                f"{name} is {len(tentacle.spaces)} spaces long; the die gives 3, 4 or 5",
                (Place(*start),),
            ))
        if not any(on_outer_edge(*start, side) for side in Side):
            found.append(Illegal(
                "tentacle-start", f"{name} does not start on an outer-edge space", (Place(*start),)
            ))
        elif any(exit_at(*start, side) for side in Side):
            found.append(Illegal(
                "tentacle-start", f"{name} starts in a space with an Exit", (Place(*start),)
            ))
        stretches, problems = _stretches(tentacle, board)
        for position, problem in problems:
            found.append(Illegal("tentacle-path", f"{name} {problem}", (Place(*position),)))
        for position, sides in stretches:
            why = _conflict(board, position, sides, used.get(position, set()))
            if why:
                found.append(Illegal("tentacle-space", f"{name}: {why}", (Place(*position),)))
            used.setdefault(position, set()).update(sides)
    return found


def _conflict(board: Board, position: Position, sides: set[Side], tentacle_sides: set[Side]) -> str:
    """Why a Tentacle stretch using ``sides`` cannot be drawn in this space ('' if it can)."""
    route_sides = {side for piece in board[position].pieces for side in piece.sides}
    if route_sides and len(route_sides) != 2:
        return "it shares a space with a drawing that is not a plain straight or curve"
    if sides & route_sides:
        return "it uses a side of the route in this space (it must pass under or beside it)"
    if sides & tentacle_sides:
        return "it uses a side of another Tentacle stretch in this space"
    return ""


def drawings(board: Board) -> list[Place]:
    """Spaces crossed by Tentacles (read from the key lines without checking them)."""
    places = []
    for value in all_lines(board, KEY):
        for item in value.split():
            position = parse_position(item)
            if position is not None:
                places.append(Place(*position))
    return places


class TentacleExpansion(Expansion):
    """The Tentacle expansion for ``scoring.engine.score`` (Tentacle spaces count as drawn)."""

    name = "tentacle"
    title = "Tentacle"
    box = "Eldritch"
    rounds = 7

    def drawn_spaces(self, board: Board) -> set[Position]:
        return occupied(board)

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
