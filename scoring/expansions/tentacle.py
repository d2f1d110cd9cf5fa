"""Tentacle expansion (Eldritch, 7 rounds): 2 points per Tentacle, +1 per space shared with a route.

Tentacles are not drawn in a space's token: each is one ``tentacle:`` line listing its spaces
in order from its start (``tentacle: 0,2 1,2 2,2``). Drawing rules checked on the finished
board: a Tentacle starts on an outer-edge space without an Exit, coming in from the edge; its
length is a Tentacle die face (3, 4 or 5); each step goes to an orthogonally adjacent space;
in every space, the Tentacle and whatever else is there use different sides, and a route
sharing a space with a Tentacle is a plain straight or curve (the Tentacle passes under a
straight route at right angles, or curves through the two free sides beside a curve). The last
space holds the ending tip, which uses only the side it comes in by. At most 7 Tentacles: one
a round, for 7 rounds.

A Tentacle starting in a corner space may come in by either of its two outer sides, and the
key line does not say which: rink takes, for the Tentacles starting in each corner together,
the entry sides that leave fewest conflicts in that space (so two Tentacles can start in one
corner, one by each outer side, and cross), preferring a side without a route.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

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
ROUNDS = 7
"""At most 1 Tentacle a round ("you may draw 1 Tentacle"), for the 7 rounds of the game."""
MOST_TRIED_AT_A_CORNER = 8
"""Tentacles starting in one corner whose entry sides are tried in every combination (2^8);
beyond that (an illegal board anyway) each takes its first free outer side."""


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


def _outer_sides(board: Board, position: Position) -> list[Side]:
    """The outer sides of an edge space, those without a route end first."""
    outer = [side for side in Side if on_outer_edge(*position, side)]
    return sorted(outer, key=lambda side: board[position].kind_at(side) is not None)


def _stretches(
    tentacle: Tentacle, entry: Side | None
) -> tuple[list[Stretch], list[tuple[Position, str]]]:
    """The Tentacle's stretches when it comes in by ``entry`` (an outer side of its first
    space; None off the edge), and what is wrong with its path (space, words)."""
    problems = []
    spaces = tentacle.spaces
    stretches = []
    for i, position in enumerate(spaces):
        sides: set[Side] = set()
        if i == 0:
            if entry is not None:
                sides.add(entry)
        else:
            came_from = _side_towards(position, spaces[i - 1])
            if came_from is None:
                before = place_words(*spaces[i - 1])
                problems.append((position, f"jumps from {before} to a space not next to it"))
            else:
                sides.add(came_from)
        if i + 1 < len(spaces):
            exit_side = _side_towards(position, spaces[i + 1])
            if exit_side is not None:
                if exit_side in sides:
                    problems.append((position, "turns back the way it came"))
                sides.add(exit_side)
        stretches.append((position, sides))
    return stretches, problems


def _conflicts(
    board: Board, drawn: list[Tentacle], entries: dict[int, Side | None]
) -> list[tuple[Tentacle, Position, str]]:
    """Every stretch that cannot be drawn where it is, given the stretches before it."""
    found = []
    used: dict[Position, set[Side]] = {}
    for tentacle in drawn:
        for position, sides in _stretches(tentacle, entries.get(tentacle.number))[0]:
            why = _conflict(board, position, sides, used.get(position, set()))
            if why:
                found.append((tentacle, position, why))
            used.setdefault(position, set()).update(sides)
    return found


def entry_sides(board: Board, drawn: list[Tentacle]) -> dict[int, Side | None]:
    """Tentacle number -> the outer side its first space is entered by (None off the edge).

    A corner has two outer sides: the Tentacles starting in one corner take the combination
    of sides that leaves the fewest conflicts in that corner (the first such, in the order of
    ``_outer_sides``)."""
    entries: dict[int, Side | None] = {}
    corners: dict[Position, list[Tentacle]] = {}
    for tentacle in drawn:
        start = tentacle.spaces[0]
        outer = _outer_sides(board, start)
        entries[tentacle.number] = outer[0] if outer else None
        if len(outer) == 2:
            corners.setdefault(start, []).append(tentacle)
    for corner, starting in corners.items():
        if len(starting) > MOST_TRIED_AT_A_CORNER:
            continue
        numbers = [tentacle.number for tentacle in starting]
        best, fewest = None, None
        for choice in product(_outer_sides(board, corner), repeat=len(numbers)):
            tried = {**entries, **dict(zip(numbers, choice))}
            here = sum(position == corner for _, position, _ in _conflicts(board, drawn, tried))
            if fewest is None or here < fewest:
                best, fewest = choice, here
        entries.update(zip(numbers, best))
    return entries


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """Tentacles that break the drawing rules (each still scores as drawn)."""
    found: list[Illegal] = []
    drawn = tentacles(board, source)
    if len(drawn) > ROUNDS:
        found.append(Illegal(
            "too-many-tentacles",
            f"{len(drawn)} Tentacles; at most 1 is drawn a round, in {ROUNDS} rounds",
            tuple(dict.fromkeys(Place(*tentacle.spaces[0]) for tentacle in drawn)),
        ))
    entries = entry_sides(board, drawn)
    for tentacle in drawn:
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
        for position, problem in _stretches(tentacle, entries[tentacle.number])[1]:
            found.append(Illegal("tentacle-path", f"{name} {problem}", (Place(*position),)))
    for tentacle, position, why in _conflicts(board, drawn, entries):
        found.append(Illegal(
            "tentacle-space", f"Tentacle {tentacle.number}: {why}", (Place(*position),)
        ))
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
    rounds = ROUNDS

    def drawn_spaces(self, board: Board) -> set[Position]:
        return occupied(board)

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
