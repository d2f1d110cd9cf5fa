"""The board as a graph over pieces: the one structure that networks, Errors and routes walk.

A node is one piece of one space (``PieceNode``) or a *virtual* node an expansion adds (a
lake, a ritual...). Two pieces in neighbouring spaces are joined across their shared side when
both have an end of the same kind there. A piece at the board's edge is attached to the Exit
outside it when its end there is of the Exit's kind. Expansions add further ``Link``s (portals
of the same letter, ...) before anything is scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from scoring.board import SIZE, Board, Position
from scoring.exits import EXITS, Exit
from scoring.sides import Side
from scoring.space import Piece

NodeId = int


def end_index(row: int, col: int, side: Side) -> int:
    """Index of the end on ``side`` of space (row, col) in the flat per-end tables."""
    return (row * SIZE + col) * 4 + side


def _facing_table() -> tuple[int, ...]:
    table = []
    for row in range(SIZE):
        for col in range(SIZE):
            for side in Side:
                dr, dc = side.delta
                nr, nc = row + dr, col + dc
                inside = 0 <= nr < SIZE and 0 <= nc < SIZE
                table.append(end_index(nr, nc, side.opposite) if inside else -1)
    return tuple(table)


FACING = _facing_table()
"""For each end index, the index of the end it faces across its side (-1 on the outer edge)."""


@dataclass(frozen=True)
class PieceNode:
    """A node of the graph: piece ``index`` of space (row, col), or a virtual node (``label``)."""

    row: int | None
    col: int | None
    index: int | None
    piece: Piece | None
    label: str = ""

    @property
    def position(self) -> Position | None:
        return None if self.row is None else (self.row, self.col)  # type: ignore[return-value]

    @property
    def is_virtual(self) -> bool:
        return self.piece is None


@dataclass(frozen=True)
class Link:
    """An extra connection between two nodes, added by an expansion.

    Every link joins networks. ``kinds`` lists the route kinds (e.g. ``{"H", "R"}``) along which
    the link also carries a Longest Route; leave it empty for a link that only joins networks.
    Links that touch a virtual node never carry a Longest Route (a route counts spaces).
    """

    a: NodeId
    b: NodeId
    kinds: frozenset[str] = field(default_factory=frozenset)


class RouteGraph:
    """Pieces, their same-kind joins across sides, their Exits, and expansion links."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.nodes: list[PieceNode] = []
        self.side_kinds: list[str | None] = [None] * (SIZE * SIZE * 4)
        """Kind of end at each ``end_index`` (None where nothing is drawn)."""
        self._side_owner: list[NodeId | None] = [None] * (SIZE * SIZE * 4)
        """Node owning the end at the same index."""
        self._space_nodes: dict[Position, list[NodeId]] = {}
        self._adjacent: list[list[tuple[NodeId, str | None]]] = []
        self.links: list[Link] = []
        self.exit_node: dict[int, NodeId] = {}
        """Exit index -> the node attached to it (only Exits something is connected to)."""
        self._components: list[list[NodeId]] | None = None
        self._build()

    # -- construction -------------------------------------------------------------------
    def _add_node(self, node: PieceNode) -> NodeId:
        self.nodes.append(node)
        self._adjacent.append([])
        self._components = None
        return len(self.nodes) - 1

    def _build(self) -> None:
        side_kind = self.side_kinds
        side_owner = self._side_owner
        for row, col in self.board.positions():
            space = self.board[row, col]
            ids = []
            base = (row * SIZE + col) * 4
            for index, piece in enumerate(space.pieces):
                node = self._add_node(PieceNode(row, col, index, piece))
                ids.append(node)
                for side, kind in enumerate(piece.kinds):
                    if kind is not None:
                        side_kind[base + side] = kind
                        side_owner[base + side] = node
            self._space_nodes[row, col] = ids
        # join across east and south sides (each shared side once); attach Exits at the edge
        last = SIZE - 1
        for row in range(SIZE):
            for col in range(SIZE):
                base = (row * SIZE + col) * 4
                east, south = side_kind[base + Side.E], side_kind[base + Side.S]
                if east is not None and col < last and side_kind[base + 4 + Side.W] == east:
                    self._join(side_owner[base + Side.E], side_owner[base + 4 + Side.W], east)
                below = base + SIZE * 4 + Side.N
                if south is not None and row < last and side_kind[below] == south:
                    self._join(side_owner[base + Side.S], side_owner[below], south)
        for exit_ in EXITS:
            at = (exit_.row * SIZE + exit_.col) * 4 + exit_.side
            if side_kind[at] == exit_.kind:
                self.exit_node[exit_.index] = side_owner[at]  # type: ignore[assignment]

    def _join(self, a: NodeId | None, b: NodeId | None, kind: str) -> None:
        assert a is not None and b is not None
        self._adjacent[a].append((b, kind))
        self._adjacent[b].append((a, kind))

    def add_virtual(self, label: str) -> NodeId:
        """Add a node that is not a piece (a lake, a ritual site...); returns its id."""
        return self._add_node(PieceNode(None, None, None, None, label))

    def add_link(self, link: Link) -> None:
        """Join two nodes (see ``Link``)."""
        self.links.append(link)
        self._adjacent[link.a].append((link.b, None))
        self._adjacent[link.b].append((link.a, None))
        self._components = None

    # -- queries ------------------------------------------------------------------------
    def kind_at(self, row: int, col: int, side: Side) -> str | None:
        """The kind of end on ``side`` of space (row, col), or None."""
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self.side_kinds[(row * SIZE + col) * 4 + side]
        return None

    def node_at(self, row: int, col: int, side: Side) -> NodeId | None:
        """The piece with an end on ``side`` of space (row, col), or None."""
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self._side_owner[(row * SIZE + col) * 4 + side]
        return None

    def nodes_in(self, row: int, col: int) -> list[NodeId]:
        """The pieces of space (row, col), in ``Space.pieces`` order."""
        return list(self._space_nodes.get((row, col), ()))

    def piece_nodes(self) -> Iterator[NodeId]:
        return (i for i, node in enumerate(self.nodes) if not node.is_virtual)

    def neighbours(self, node: NodeId) -> list[NodeId]:
        """Every node joined to ``node``: across sides (any kind) and by links."""
        return [other for other, _ in self._adjacent[node]]

    def route_neighbours(self, node: NodeId, kind: str) -> list[NodeId]:
        """Pieces joined to ``node`` along ``kind`` (across a side, or by a link carrying it)."""
        found = [other for other, k in self._adjacent[node] if k == kind]
        for link in self.links:
            if kind in link.kinds and node in (link.a, link.b):
                other = link.b if node == link.a else link.a
                if not self.nodes[other].is_virtual and not self.nodes[node].is_virtual:
                    found.append(other)
        return found

    def exits_of(self, nodes: Iterable[NodeId]) -> list[Exit]:
        """The Exits attached to any of ``nodes``, in Exit order."""
        wanted = set(nodes)
        return [EXITS[i] for i, node in sorted(self.exit_node.items()) if node in wanted]

    def components(self) -> list[list[NodeId]]:
        """Connected groups of nodes (across sides and links), each sorted, in node order."""
        if self._components is None:
            seen: set[NodeId] = set()
            groups = []
            for start in range(len(self.nodes)):
                if start in seen:
                    continue
                seen.add(start)
                group, stack = [start], [start]
                while stack:
                    for other, _ in self._adjacent[stack.pop()]:
                        if other not in seen:
                            seen.add(other)
                            group.append(other)
                            stack.append(other)
                groups.append(sorted(group))
            self._components = groups
        return self._components

    def component_of(self, node: NodeId) -> list[NodeId]:
        for group in self.components():
            if node in group:
                return group
        raise KeyError(node)
