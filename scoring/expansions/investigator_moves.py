"""Where the Investigator can walk (Investigation expansion), as a graph over spaces and Exits.

One Movement point moves the Investigator either to a neighbouring space joined by a highway,
or from a station (or a railway Exit) along railways to the first station met. Both moves can
be made backwards too, and routes are never erased, so the places one Investigator can have
visited are those in the same group of this graph as where it stands now, and that group holds
the Exit it started from.
"""

from __future__ import annotations

from collections import defaultdict

from scoring.board import SIZE, Board, Position
from scoring.exits import EXITS
from scoring.graph import NodeId, RouteGraph
from scoring.sides import HIGHWAY, RAILWAY, Side

Stop = Position | str
"""A space (row, col), or an Exit written like ``"exit 3"`` (its index)."""


def exit_place(index: int) -> str:
    return f"exit {index}"


def _is_station(graph: RouteGraph, node: NodeId) -> bool:
    """A piece joining highway and railway ends (a station, or a Special Route station)."""
    kinds = set(graph.nodes[node].piece.kinds)  # type: ignore[union-attr]
    return HIGHWAY in kinds and RAILWAY in kinds


def _highway_moves(board: Board, moves: dict[Stop, set[Stop]]) -> None:
    """One step to a neighbouring space joined by a highway; from a highway Exit into its space."""
    for row, col in board.positions():
        for side in (Side.E, Side.S):
            nr, nc = row + side.delta[0], col + side.delta[1]
            if nr >= SIZE or nc >= SIZE:
                continue
            mine, theirs = board[row, col].kind_at(side), board[nr, nc].kind_at(side.opposite)
            if mine == theirs == HIGHWAY:
                moves[row, col].add((nr, nc))
    for exit_ in EXITS:
        if exit_.kind == HIGHWAY and board[exit_.position].kind_at(exit_.side) == HIGHWAY:
            moves[exit_place(exit_.index)].add(exit_.position)


def _first_stations(graph: RouteGraph, start: NodeId) -> set[Position]:
    """Stations reached from piece ``start`` along railways, stopping at the first on each way."""
    found: set[Position] = set()
    seen, stack = {start}, [start]
    while stack:
        for other in graph.route_neighbours(stack.pop(), RAILWAY):
            if other in seen or graph.nodes[other].is_virtual:
                continue
            seen.add(other)
            if _is_station(graph, other):
                found.add(graph.nodes[other].position)  # type: ignore[arg-type]
            else:
                stack.append(other)
    return found


def _railway_moves(board: Board, moves: dict[Stop, set[Stop]]) -> None:
    """From a station, or a railway Exit, along railways to the first station on each way."""
    graph = RouteGraph(board)
    for node in graph.piece_nodes():
        if _is_station(graph, node):
            here = graph.nodes[node].position
            for there in _first_stations(graph, node) - {here}:
                moves[here].add(there)  # type: ignore[index]
    for exit_ in EXITS:
        node = graph.exit_node.get(exit_.index)
        if exit_.kind != RAILWAY or node is None:
            continue
        targets = {exit_.position} if _is_station(graph, node) else _first_stations(graph, node)
        moves[exit_place(exit_.index)].update(targets)


def walk_groups(board: Board) -> dict[Stop, frozenset[Stop]]:
    """Every place some move starts or ends at -> all the places joined to it by moves (either
    way), itself included. A place no move touches is not a key."""
    moves: dict[Stop, set[Stop]] = defaultdict(set)
    _highway_moves(board, moves)
    _railway_moves(board, moves)
    both: dict[Stop, set[Stop]] = defaultdict(set)
    for here, theres in moves.items():
        for there in theres:
            both[here].add(there)
            both[there].add(here)
    groups: dict[Stop, frozenset[Stop]] = {}
    for start in both:
        if start in groups:
            continue
        seen, stack = {start}, [start]
        while stack:
            for other in both[stack.pop()]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        group = frozenset(seen)
        groups.update(dict.fromkeys(group, group))
    return groups


def reachable(board: Board, start: Stop) -> frozenset[Stop]:
    """Every place joined to ``start`` by Investigator moves (either way), ``start`` included."""
    return walk_groups(board).get(start, frozenset({start}))


def joins_an_exit(group: frozenset[Stop]) -> bool:
    """Whether a group of places holds an Exit (where every Investigator starts)."""
    return any(isinstance(place, str) for place in group)
