"""Groups of pieces joined along one kind of end: the Rivers (``W``) and Lakes (``L``) of a board."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import SIZE, Board, Position
from scoring.graph import NodeId, RouteGraph
from scoring.sides import Side


@dataclass(frozen=True)
class KindGroup:
    """Pieces joined to each other across sides by ends of one kind."""

    nodes: tuple[NodeId, ...]
    spaces: tuple[Position, ...]
    """The spaces the group runs through, each once, in reading order."""
    open_ends: tuple[tuple[Position, Side], ...]
    """Ends of this kind that meet no end of the same kind and are not on the outer edge."""
    edge_ends: tuple[tuple[Position, Side], ...]
    """Ends of this kind on the outer edge of the board."""


def spaces_with_kind(board: Board, kind: str) -> list[Position]:
    """Every space with a piece that has an end of ``kind``, in reading order."""
    return sorted({
        (row, col) for row, line in enumerate(board.spaces) for col, space in enumerate(line)
        for piece in space.pieces if kind in piece.kinds
    })


def kind_groups(graph: RouteGraph, kind: str) -> list[KindGroup]:
    """Every group of pieces joined along ``kind`` ends, in reading order of their first space."""
    members = [n for n in graph.piece_nodes() if graph.nodes[n].piece.has_kind(kind)]  # type: ignore[union-attr]
    seen: set[NodeId] = set()
    groups = []
    for start in members:
        if start in seen:
            continue
        seen.add(start)
        group, stack = [start], [start]
        while stack:
            for other in graph.route_neighbours(stack.pop(), kind):
                if other not in seen:
                    seen.add(other)
                    group.append(other)
                    stack.append(other)
        groups.append(_describe(graph, kind, sorted(group)))
    return groups


def _describe(graph: RouteGraph, kind: str, nodes: list[NodeId]) -> KindGroup:
    spaces: set[Position] = set()
    open_ends, edge_ends = [], []
    for node_id in nodes:
        node = graph.nodes[node_id]
        row, col = node.position  # type: ignore[misc]
        spaces.add((row, col))
        for side, end_kind in node.piece.ends():  # type: ignore[union-attr]
            if end_kind != kind:
                continue
            dr, dc = side.delta
            if not (0 <= row + dr < SIZE and 0 <= col + dc < SIZE):
                edge_ends.append(((row, col), side))
            elif graph.kind_at(row + dr, col + dc, side.opposite) != kind:
                open_ends.append(((row, col), side))
    return KindGroup(tuple(nodes), tuple(sorted(spaces)), tuple(open_ends), tuple(edge_ends))
