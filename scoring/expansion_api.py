"""How an expansion plugs into the engine, and how one is found by name.

An expansion is a subclass of ``Expansion`` that overrides only the hooks it needs; every
default changes nothing. ``score_board`` calls the hooks in this order:

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

Expansions are registered by name in ``REGISTRY`` in ``scoring/expansions/__init__.py``
(name -> ``Expansion`` subclass or instance); ``rink score --expansion NAME`` and a grid file's
``expansion: NAME`` line look them up with ``get_expansion``.
"""

from __future__ import annotations

import importlib
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
    rounds: int = 7
    """Rounds played with this expansion (informational)."""
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


class UnknownExpansion(ValueError):
    """An expansion name that is not in the registry; the message lists the known names."""


EXPANSION_KEY = "expansion"
"""Grid-file key line naming the expansion(s) played: ``expansion: river`` (comma-separated)."""


def registry() -> dict[str, object]:
    """The registry in ``scoring.expansions`` (empty if that package is not there)."""
    try:
        module = importlib.import_module("scoring.expansions")
    except ModuleNotFoundError as error:
        if error.name not in ("scoring.expansions",):
            raise
        return {}
    return dict(getattr(module, "REGISTRY", {}))


def get_expansion(name: str) -> Expansion:
    """The registered expansion called ``name`` (case-insensitive), ready to use."""
    known = registry()
    entry = known.get(name.strip().lower())
    if entry is None:
        names = ", ".join(sorted(known)) or "none installed"
        raise UnknownExpansion(f"unknown expansion {name!r} (known: {names})")
    return entry() if isinstance(entry, type) else entry  # type: ignore[return-value]


def declared_expansions(board: Board) -> list[str]:
    """Names from the board's ``expansion:`` key lines, in order, without repeats."""
    names: list[str] = []
    for key, value in board.extras:
        if key == EXPANSION_KEY:
            for name in value.replace(",", " ").split():
                if name.lower() not in names:
                    names.append(name.lower())
    return names


def resolve_expansions(board: Board, extra_names: Iterable[str] = ()) -> list[Expansion]:
    """The board's declared expansions plus ``extra_names``; raises UnknownExpansion."""
    names = declared_expansions(board)
    for name in extra_names:
        if name.strip().lower() not in names:
            names.append(name.strip().lower())
    return [get_expansion(name) for name in names]
