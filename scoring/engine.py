"""``score``: score a board by the base-game rules plus its expansions (the one entry)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.board import Board, GridError
from scoring.boxes import box_notes
from scoring.errors import find_errors
from scoring.expansion_api import Expansion
from scoring.graph import RouteGraph
from scoring.illegal import find_illegal
from scoring.longest import longest_route
from scoring.registry import UnknownExpansion, check_key_lines, resolve, undeclared_drawings
from scoring.results import NetworkResult, ScoreSheet, network_points
from scoring.sides import HIGHWAY, RAILWAY

CENTRAL = tuple((row, col) for row in range(2, 5) for col in range(2, 5))
"""The 9 Central Spaces: rows 2-4 x columns 2-4."""


def score(
    board: Board,
    expansions: Iterable[str | Expansion] = (),
    *,
    source: str = "<board>",
    reentrant_longest: bool = False,
) -> ScoreSheet:
    """Score ``board`` with the expansions its ``expansion:`` lines declare plus ``expansions``
    (names or instances).

    Key lines are checked first (a bad one, or an unknown expansion name, is a GridError
    naming ``source``); drawings of expansions that are not played join the illegal list, and
    a mix of expansions that no box plays together gets a note. ``reentrant_longest``
    switches on the digital-version Longest Route variant (RULINGS.md).
    """
    check_key_lines(board, source)
    try:
        played = resolve(board, expansions)
    except UnknownExpansion as error:
        raise GridError(source, str(error)) from None
    sheet = _score_with(board, played, reentrant_longest)
    sheet.illegal += undeclared_drawings(board, [expansion.name for expansion in played])
    sheet.notes += box_notes(played)
    return sheet


def find_networks(graph: RouteGraph, excluded_exits: set[int] = frozenset()) -> list[NetworkResult]:
    """Every network reaching at least one Exit, ordered by its first Exit (clockwise)."""
    networks = []
    for component in graph.components():
        exits = tuple(e for e in graph.exits_of(component) if e.index not in excluded_exits)
        if exits:
            pieces = tuple(sorted((node.row, node.col, node.index)
                                  for node in (graph.nodes[n] for n in component)
                                  if not node.is_virtual))
            networks.append(NetworkResult(exits, network_points(len(exits)), pieces))
    networks.sort(key=lambda network: network.exits[0].index)
    return networks


def _score_with(
    board: Board, expansions: Sequence[Expansion], reentrant_longest: bool
) -> ScoreSheet:
    """The sheet for ``board`` played with exactly ``expansions`` (key lines already checked):
    networks, Longest Highway/Railway, Central Spaces, Errors, illegal drawings, expansions."""
    graph = RouteGraph(board)
    for expansion in expansions:
        for link in expansion.links(board, graph):
            graph.add_link(link)

    excluded: set[int] = set()
    exempt: set = set()
    error_free: set[str] = set()
    drawn = {pos for pos in CENTRAL if not board[pos].is_empty}
    for expansion in expansions:
        excluded |= set(expansion.excluded_exits(board, graph))
        exempt |= set(expansion.exempt_ends(board, graph))
        error_free |= set(expansion.error_free_kinds)
        drawn |= set(expansion.drawn_spaces(board)) & set(CENTRAL)
    if error_free:
        for node in graph.nodes:
            if node.piece is not None:
                exempt |= {(node.row, node.col, s) for s, k in node.piece.ends() if k in error_free}

    errors = find_errors(graph, exempt)
    illegal = find_illegal(graph)
    for expansion in expansions:
        errors += expansion.extra_errors(board, graph)
        illegal += expansion.illegal(board, graph)

    highway = longest_route(graph, HIGHWAY, reentrant=reentrant_longest)
    railway = longest_route(graph, RAILWAY, reentrant=reentrant_longest)
    sheet = ScoreSheet(
        networks=find_networks(graph, excluded),
        highway=highway.length,
        railway=railway.length,
        center=len(drawn),
        errors=errors,
        illegal=illegal,
        highway_route=highway.spaces,
        railway_route=railway.spaces,
    )
    for expansion in expansions:
        result = expansion.score(board, graph, sheet)
        if result is not None:
            name = expansion.name or type(expansion).__name__.lower()
            sheet.expansions[name] = result.points
            sheet.expansion_lines[name] = result.line
    return sheet
