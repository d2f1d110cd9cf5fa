"""How an expansion plugs into the engine: the ``Expansion`` base class and its hooks.

An expansion is a subclass of ``Expansion`` that overrides only the hooks it needs; every
default changes nothing. The engine (``scoring.engine.score``) calls the hooks in this order:

1. ``links(board, graph)``: extra links between pieces / virtual nodes (``graph.add_virtual``)
   - portals of one letter, pieces joined through a lake... They join networks, and carry a
   Longest Route along the kinds in ``Link.kinds``.
2. ``excluded_exits(board, graph)``: Exit indices (``scoring.exits.EXITS``) left out of the
   regular networks (Ritual).
3. ``exempt_ends(board, graph)`` and ``error_free_kinds``: route ends that are never Errors
   (open lake sides; routes joined to the Accumulator).
4. ``extra_errors(board, graph)``: further Errors (``ErrorEnd``).
5. ``drawn_spaces(board)``: spaces drawn on by something that is not a piece or marker
   (a tentacle), for the Central Spaces.
6. ``illegal(board, graph)``: illegal drawings (``Illegal``), listed with the base game's.
7. ``score(board, graph, sheet)``: the expansion's points and score-sheet line, given the
   base sheet computed so far.

The expansions are registered by name in ``scoring/registry.py``. This module imports
neither the engine nor the registry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.board import Board, Position
from scoring.graph import Link, RouteGraph
from scoring.results import ErrorEnd, Illegal
from scoring.sides import Side

if TYPE_CHECKING:
    from scoring.results import ScoreSheet


@dataclass(frozen=True)
class ExpansionScore:
    """An expansion's points and the score-sheet line that explains them."""

    points: int
    line: str
    """E.g. 'Longest River 5 spaces + 3 (both ends at the edge)'."""


class Expansion:
    """Base class of an expansion: override the hooks you need."""

    name: str = ""
    """Registry name, e.g. 'river'."""
    title: str = ""
    """Label on the score sheet, e.g. 'River'."""
    box: str = ""
    """The box it comes in: 'Deep Blue', 'Eldritch' or 'Electricity' ('' if none)."""
    rounds: int = 7
    """Rounds a game with this expansion lasts (its rulebook); bounds one-per-round drawings."""
    error_free_kinds: frozenset[str] = frozenset()
    """Kinds of end that are never Errors when open (e.g. lake sides 'L')."""

    def links(self, board: Board, graph: RouteGraph) -> Iterable[Link]:
        return ()

    def excluded_exits(self, board: Board, graph: RouteGraph) -> set[int]:
        return set()

    def exempt_ends(self, board: Board, graph: RouteGraph) -> set[tuple[int, int, Side]]:
        return set()

    def extra_errors(self, board: Board, graph: RouteGraph) -> list[ErrorEnd]:
        return []

    def drawn_spaces(self, board: Board) -> set[Position]:
        return set()

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return []

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore | None:
        return None
