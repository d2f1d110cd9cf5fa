"""Portal expansion (Eldritch, 7 rounds): Portals of the same letter join networks and routes.

A Portal space is a route end into a portal, written with the marker ``@`` and its letter:
``H___@A`` (a highway from the north into Portal A). The two Portals of one letter are linked:
their networks join (even highway to railway), and a Longest Highway/Railway may pass from one
to the other when both Portals carry that kind of route. At most 2 Portals per letter: a third
one is reported and left unlinked (the first two in reading order are linked).
"""

from __future__ import annotations

from collections import defaultdict

from scoring.board import Board, Position
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.marked import marked
from scoring.expansions.wording import counted
from scoring.graph import Link, RouteGraph
from scoring.results import Illegal, Place, ScoreSheet
from scoring.sides import ROUTE_KINDS

MARKER = "@"
LETTERS = "ABC"
PER_LETTER = 2


def portal_letters(board: Board) -> dict[str, list[Position]]:
    """Letter -> the spaces with a Portal of that letter, in reading order."""
    found: dict[str, list[Position]] = defaultdict(list)
    for row, col in marked(board, MARKER):
        markers = board[row, col].markers
        for i, char in enumerate(markers[:-1]):
            if char == MARKER:
                found[markers[i + 1]].append((row, col))
    return dict(found)


def portal_links(board: Board, graph: RouteGraph) -> list[Link]:
    """Links between the pieces of each pair of same-letter Portals (first two per letter).

    A link carries a Longest Route along the kinds both Portals' pieces have."""
    links = []
    for spaces in portal_letters(board).values():
        if len(spaces) < 2:
            continue
        first, second = (graph.nodes_in(*space) for space in spaces[:PER_LETTER])
        for a in first:
            for b in second:
                kinds_a = set(graph.nodes[a].piece.kinds)  # type: ignore[union-attr]
                kinds_b = set(graph.nodes[b].piece.kinds)  # type: ignore[union-attr]
                links.append(Link(a, b, frozenset(kinds_a & kinds_b & set(ROUTE_KINDS))))
    return links


def find_illegal(board: Board) -> list[Illegal]:
    """A third Portal of one letter, unknown letters, Portals that are not a die face."""
    found: list[Illegal] = []
    for letter, spaces in sorted(portal_letters(board).items()):
        places = tuple(Place(r, c) for r, c in spaces)
        if letter not in LETTERS:
            found.append(Illegal(
                "portal-letter", f"Portal {letter}: the Portal die has only A, B and C", places
            ))
        if len(spaces) > PER_LETTER:
            found.append(Illegal(
                "portal-third",
                f"{len(spaces)} Portals {letter}: at most {PER_LETTER}; the ones after the "
                "first two are not linked",
                places[PER_LETTER:],
            ))
        for row, col in spaces:
            pieces = board[row, col].pieces
            ends = [end for piece in pieces for end in piece.ends()]
            if len(ends) != 1 or ends[0][1] not in ROUTE_KINDS:
                found.append(Illegal(
                    "portal-not-a-face",
                    f"Portal {letter}: a Portal space is one highway or railway end into it",
                    (Place(row, col),),
                ))
    return found


def expansion_score(board: Board) -> tuple[int, str]:
    """The Portal expansion scores no points of its own (it changes networks and routes)."""
    pairs = sum(1 for spaces in portal_letters(board).values() if len(spaces) >= PER_LETTER)
    return 0, f"{counted(pairs, 'linked pair')} of Portals (they score within networks and routes)"


def drawings(board: Board) -> list[Place]:
    """Spaces holding Portals."""
    return [Place(r, c) for spaces in portal_letters(board).values() for r, c in spaces]


class PortalExpansion(Expansion):
    """The Portal expansion for ``scoring.engine.score``."""

    name = "portal"
    title = "Portal"
    box = "Eldritch"
    rounds = 7

    def links(self, board: Board, graph: RouteGraph) -> list[Link]:
        return portal_links(board, graph)

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
