"""Investigation expansion (Eldritch, 6 rounds): 1 point per collected Clue, +4 for all of them.

A Clue is a space marked ``?`` (the magnifying glass drawn with the die's route). The
``clues collected:`` line lists the circled Clues; ``investigator:`` is where the Investigator
stands now: a space ``row,col``, or an Exit place such as ``W3`` if it never moved. The
Investigator moves along highways (one space) and railways (station to station), so every
collected Clue must be on its walkable paths (investigator_moves.py); a Clue listed where none
is drawn is reported and not counted.
"""

from __future__ import annotations

from scoring.board import Board, GridError, Position
from scoring.exits import exit_at
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.investigator_moves import Stop, exit_place, reachable
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

CLUE = "?"
COLLECTED_KEY = "clues collected"
INVESTIGATOR_KEY = "investigator"
ALL_CLUES_BONUS = 4


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


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """Collected Clues that are not Clues, listed twice or out of the Investigator's reach;
    Clues without a route."""
    found = listing_problems(
        board, CLUE, COLLECTED_KEY,
        missing=("clue-missing", "listed as a collected Clue, but no Clue is drawn here"),
        twice=("clue-twice", "Clue listed twice as collected"),
        source=source,
    )
    for position in clues(board):
        if not has_route(board[position]):
            found.append(Illegal(
                "clue-no-route", "a Clue without a route (the die draws a Clue on a route)",
                (Place(*position),),
            ))
    stop, where = investigator_stop(board, source)
    if stop is None:
        return found
    got = collected(board, source)
    if isinstance(stop, str) and got:
        found.append(Illegal(
            "investigator-never-moved",
            f"Clues are collected, but the Investigator is still at the {where}",
            tuple(Place(*p) for p in got),
        ))
        return found
    reach = reachable(board, stop)
    for position in got:
        if position not in reach:
            found.append(Illegal(
                "clue-unreachable",
                f"the Investigator ({where}) cannot have walked here: moves follow a highway "
                "to the next space or a railway from station to station",
                (Place(*position),),
            ))
    return found


def drawings(board: Board) -> list[Place]:
    """Spaces with Clues."""
    return marked_places(board, CLUE)


class InvestigationExpansion(Expansion):
    """The Investigation expansion for ``scoring.engine.score``."""

    name = "investigation"
    title = "Investigation"
    box = "Eldritch"
    rounds = 6

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
