"""Investigation expansion (Eldritch, 6 rounds): 1 point per collected Clue, +4 for all of them.

A Clue is a space marked ``?`` (the magnifying glass drawn with the die's route). The
``clues collected:`` line lists the circled Clues; ``investigator:`` is where the Investigator
stands now: a space ``row,col``, or an Exit place such as ``W3`` if it never moved. The
Investigator moves along highways (one space) and railways (station to station), so every
collected Clue must be on its walkable paths (investigator_moves.py); a Clue listed where none
is drawn is reported and not counted. The Investigator started at an Exit, so where it stands
and every collected Clue are joined to an Exit by moves, on spaces where a move ends (a space
with a highway: a railway-only space is never landed on). One die for 6 rounds gives at most
6 Clues.
"""

from __future__ import annotations

from scoring.board import Board, GridError, Position
from scoring.exits import exit_at
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.investigator_moves import Stop, exit_place, joins_an_exit, walk_groups
from scoring.expansions.key_lines import edge_place_space, parse_edge_place, parse_position
from scoring.expansions.marked import (
    has_route,
    listed_marked,
    listing_problems,
    marked,
    marked_places,
)
from scoring.graph import RouteGraph
from scoring.quote import quoted
from scoring.results import Illegal, Place, ScoreSheet, place_words
from scoring.sides import HIGHWAY

CLUE = "?"
COLLECTED_KEY = "clues collected"
INVESTIGATOR_KEY = "investigator"
ALL_CLUES_BONUS = 4
ROUNDS = 6
MOST_CLUES = ROUNDS
"""One Investigation die, drawn at most once a round for 6 rounds: at most 6 Clues."""


def clues(board: Board) -> list[Position]:
    """Every space with a Clue, in reading order."""
    return marked(board, CLUE)


def collected(board: Board, source: str = "<board>") -> list[Position]:
    """The collected Clues that are really Clues, each once, in listed order."""
    return listed_marked(board, CLUE, COLLECTED_KEY, source)


def expansion_score(board: Board, source: str = "<board>") -> tuple[int, str]:
    """(points, score-sheet line)."""
    total = len(clues(board))
    got = len(collected(board, source))
    all_of_them = total > 0 and got == total
    bonus = ALL_CLUES_BONUS if all_of_them else 0
    extra = f" + {ALL_CLUES_BONUS} for all of them" if all_of_them else ""
    return got + bonus, f"{got} of {total} Clues collected{extra}"


def investigator_stop(board: Board, source: str = "<board>") -> tuple[Stop | None, str]:
    """Where the Investigator stands (a space, or an Exit if it never moved) and that place in
    words; (None, '') when the line is absent."""
    value = board.extra(INVESTIGATOR_KEY)
    if value is None:
        return None, ""
    position = parse_position(value)
    if position is not None:
        return position, place_words(*position)
    place = parse_edge_place(value)
    if place is None:
        raise GridError(
            source,
            f"bad key line {quoted(f'{INVESTIGATOR_KEY}: {value}')}: expected a space 'row,col' "
            "or an Exit place like W3",
        )
    (row, col), side = edge_place_space(place)
    exit_ = exit_at(row, col, side)
    if exit_ is None:
        raise GridError(
            source,
            f"bad key line {quoted(f'{INVESTIGATOR_KEY}: {value}')}: there is no Exit at {value}",
        )
    return exit_place(exit_.index), exit_.words


def _stands_on(board: Board, position: Position) -> bool:
    """Whether a move can end on this space: a highway step lands on a space with a highway
    end, a railway move on a station (which has one too)."""
    return any(HIGHWAY in piece.kinds for piece in board[position].pieces)


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """More Clues than the die gives, Clues without a route, collected Clues that are not
    Clues, listed twice or out of the Investigator's reach, and an Investigator where it
    cannot stand."""
    found = listing_problems(
        board, CLUE, COLLECTED_KEY,
        missing=("clue-missing", "listed as a collected Clue, but no Clue is drawn here"),
        twice=("clue-twice", "Clue listed twice as collected"),
        source=source,
    )
    drawn = clues(board)
    if len(drawn) > MOST_CLUES:
        found.append(Illegal(
            "too-many-clues",
            f"{len(drawn)} Clues; the Investigation die gives at most 1 a round, {MOST_CLUES} "
            f"in {ROUNDS} rounds",
            tuple(Place(*p) for p in drawn),
        ))
    for position in drawn:
        if not has_route(board[position]):
            found.append(Illegal(
                "clue-no-route", "a Clue without a route (the die draws a Clue on a route)",
                (Place(*position),),
            ))
    stop, where = investigator_stop(board, source)
    got = collected(board, source)
    if isinstance(stop, str):
        if got:
            found.append(Illegal(
                "investigator-never-moved",
                f"Clues are collected, but the Investigator is still at the {where}",
                tuple(Place(*p) for p in got),
            ))
        return found
    groups = walk_groups(board)
    reach = None
    if stop is not None:
        reach = groups.get(stop, frozenset({stop}))
        if not _stands_on(board, stop):
            found.append(Illegal(
                "investigator-off-route",
                "the Investigator stands where no move ends: a highway step ends on a space "
                "with a highway, a railway move on a station",
                (Place(*stop),),
            ))
        elif not joins_an_exit(reach):
            found.append(Illegal(
                "investigator-unreachable",
                "no Investigator moves join this space to an Exit, where the Investigator "
                "starts",
                (Place(*stop),),
            ))
    for position in got:
        why = _unreachable_clue(board, position, groups, reach, where)
        if why:
            found.append(Illegal("clue-unreachable", why, (Place(*position),)))
    return found


def _unreachable_clue(
    board: Board,
    position: Position,
    groups: dict[Stop, frozenset[Stop]],
    reach: frozenset[Stop] | None,
    where: str,
) -> str:
    """Why the Investigator cannot have collected the Clue here ('' when it can): it never
    lands on the space, or the space is out of reach of where it stands (``reach``), or, with
    no ``investigator:`` line, of every Exit."""
    if not _stands_on(board, position):
        return ("the Investigator never lands here: a highway step ends on a space with a "
                "highway, a railway move on a station")
    if reach is not None:
        if position in reach:
            return ""
        return (f"the Investigator ({where}) cannot have walked here: moves follow a highway "
                "to the next space or a railway from station to station")
    if joins_an_exit(groups.get(position, frozenset())):
        return ""
    return "no Investigator moves join this Clue to an Exit, where the Investigator starts"


def drawings(board: Board) -> list[Place]:
    """Spaces with Clues."""
    return marked_places(board, CLUE)


class InvestigationExpansion(Expansion):
    """The Investigation expansion for ``scoring.engine.score``."""

    name = "investigation"
    title = "Investigation"
    box = "Eldritch"
    rounds = ROUNDS

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
