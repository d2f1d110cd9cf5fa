"""Longest routes against a plain exhaustive search, and on the hard cases."""

from itertools import pairwise
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import longest
from scoring.board import Board
from scoring.graph import RouteGraph
from scoring.longest import _Search, longest_route
from scoring.longest_grid import grid_longest

HIGHWAY_TOKENS = ["HHHH", "HHH_", "_HHH", "HH__", "_HH_", "H_H_", "_H_H", "H___", "HRHRo",
                  "H_H_+_H_H", "HH__+__HH", ".", "."]


def brute_force(graph: RouteGraph, kind: str, reentrant: bool) -> int:
    """Every simple path, tried one by one (spaces once; pieces once when re-entering)."""
    nodes = [n for n in graph.piece_nodes() if graph.nodes[n].piece.has_kind(kind)]
    joined = {n: [m for m in graph.route_neighbours(n, kind) if m != n] for n in nodes}
    place = {n: graph.nodes[n].position for n in nodes}
    best = 1 if nodes else 0

    def walk(path: list[int], used: set) -> None:
        nonlocal best
        best = max(best, len(path))
        if reentrant and len(path) >= 3 and path[0] in joined[path[-1]]:
            best = max(best, len(path) + 1)
        for other in joined[path[-1]]:
            key = other if reentrant else place[other]
            if key not in used:
                walk(path + [other], used | {key})

    for node in nodes:
        walk([node], {node if reentrant else place[node]})
    return best


def small_boards_of(tokens: list[str]):
    """Boards of 2 x 2 to 4 x 4 spaces drawn from ``tokens`` in the top-left corner."""
    return st.integers(2, 4).flatmap(lambda size: st.lists(
        st.sampled_from(tokens), min_size=size * size, max_size=size * size).map(
        lambda drawn: Board.from_tokens(
            [[drawn[r * size + c] if r < size and c < size else "." for c in range(7)]
             for r in range(7)])))


small_boards = small_boards_of(HIGHWAY_TOKENS)
ONE_PIECE_TOKENS = [t for t in HIGHWAY_TOKENS if "+" not in t]
"""Tokens with at most one highway piece per space: the joins the grid DP applies to."""


@settings(max_examples=200, deadline=None)
@given(small_boards, st.booleans())
def test_longest_route_matches_exhaustive_search(board, reentrant):
    graph = RouteGraph(board)
    route = longest_route(graph, "H", reentrant=reentrant)
    assert route.length == brute_force(graph, "H", reentrant)
    if not reentrant:
        assert len(route.spaces) == route.length == len(set(route.spaces))


@settings(max_examples=150, deadline=None)
@given(small_boards_of(ONE_PIECE_TOKENS), st.booleans())
def test_grid_dynamic_programme_matches_exhaustive_search(board, loops):
    graph = RouteGraph(board)
    joins = _Search(graph, "H", loops)._grid_joins()
    assert joins is not None  # one highway piece per space: the DP applies
    length, route = grid_longest(*joins, loops=loops)
    assert length == brute_force(graph, "H", loops)
    assert len(route) == length
    present = joins[0]
    for (r1, c1), (r2, c2) in pairwise(route):
        assert abs(r1 - r2) + abs(c1 - c2) == 1 and present[r1][c1] and present[r2][c2]


@pytest.mark.parametrize("token", ["H_H_+_H_H", "HH__+__HH"])
def test_the_grid_dynamic_programme_does_not_apply_to_two_highways_in_one_space(token):
    board = Board.from_tokens([[token if (r, c) == (0, 0) else "." for c in range(7)]
                               for r in range(7)])
    assert _Search(RouteGraph(board), "H", False)._grid_joins() is None


def assert_is_route(board, spaces, length):
    assert len(spaces) == length == len(set(spaces))
    for (r1, c1), (r2, c2) in pairwise(spaces):
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        assert board[r1, c1].pieces and board[r2, c2].pieces


def holes(*empty):
    return Board.from_tokens(
        [["." if (r, c) in empty else "HHHH" for c in range(7)] for r in range(7)])


def test_crossings_with_holes_need_a_proof_that_no_longer_path_exists():
    # 43 spaces remain, but no path covers them all (found by the pruned search, 42)
    board = holes((2, 4), (2, 6), (5, 0), (5, 4), (5, 5), (6, 2))
    route = longest_route(RouteGraph(board), "H")
    assert route.length == 42
    assert_is_route(board, route.spaces, 42)


def test_crossings_with_one_hole_cover_every_other_space():
    board = holes((4, 5))
    route = longest_route(RouteGraph(board), "H")
    assert route.length == 47
    assert_is_route(board, route.spaces, 47)


def test_re_entering_variant_on_crossings_counts_a_closed_loop_once_more():
    # 48 crossings (one corner empty): a loop through all 48 closes back on its first space
    board = holes((6, 6))
    assert longest_route(RouteGraph(board), "H", reentrant=True).length == 49
    assert longest_route(RouteGraph(board), "H").length == 48


@settings(max_examples=150, deadline=None)
@given(small_boards, st.booleans())
def test_fallbacks_after_the_quick_search_give_the_same_answer(board, reentrant):
    # with a 1-step budget every board goes to the grid DP (or, when two pieces of a kind
    # share a space, back to a full search): both must still be exact
    graph = RouteGraph(board)
    with patch.object(longest, "_QUICK_STEPS", 1):
        route = longest_route(graph, "H", reentrant=reentrant)
    assert route.length == brute_force(graph, "H", reentrant)
    if not reentrant and route.length:
        assert len(route.spaces) == route.length == len(set(route.spaces))
