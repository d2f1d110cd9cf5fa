"""``score_board``: score a board by the base-game rules plus any expansions."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.board import Board
from scoring.errors import find_errors
from scoring.expansion_api import Expansion
from scoring.graph import RouteGraph
from scoring.illegal import find_illegal
from scoring.longest import longest_route
from scoring.results import NetworkResult, ScoreSheet, network_points
from scoring.sides import HIGHWAY, RAILWAY

CENTRAL = tuple((row, col) for row in range(2, 5) for col in range(2, 5))
"""The 9 Central Spaces: rows 2-4 x columns 2-4."""


def find_networks(graph: RouteGraph, excluded_exits: set[int] = frozenset()) -> list[NetworkResult]:
    """Every network reaching at least one Exit, ordered by its first Exit (clockwise)."""
    networks = []
    for component in graph.components():
        exits = tuple(e for e in graph.exits_of(component) if e.index not in excluded_exits)
        if exits:
            networks.append(NetworkResult(exits, network_points(len(exits))))
    networks.sort(key=lambda network: network.exits[0].index)
    return networks


def score_board(
    board: Board, *, expansions: Sequence[Expansion] = (), reentrant_longest: bool = False
) -> ScoreSheet:
    """Score ``board``: networks, Longest Highway/Railway, Central Spaces, Errors, expansions.

    ``reentrant_longest`` switches on the digital-version Longest Route variant (RULINGS.md).
    """
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
