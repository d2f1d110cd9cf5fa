"""Longest Highway / Longest Railway: the longest simple path of joined spaces of one kind.

RULINGS.md: a path counts spaces, each at most once; it passes through a station along sides
of its own kind; Exits are not spaces; a lone space with that kind counts 1. The option
``reentrant=True`` is the variant of some digital versions: a path may re-enter a space by
another piece of it, and a path that closes a loop back to its first piece counts that space
again (+1).

Longest simple path is NP-hard in general, but boards are small: a depth-first search over
bitmasks with strong pruning (a path from its end can only walk a chain of biconnected blocks
of what it can still reach; on a grid a path alternates the colours of a chequerboard; moves
to the neighbour with the fewest onward moves go first, so full-cover paths are found at once;
states dominated by an earlier one are skipped). When that search cannot settle a board in a
few hundred steps (crossings everywhere, with holes), the exact length comes from a dynamic
programme across the grid (``scoring.longest_grid``), which also gives the route.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import SIZE, Position
from scoring.graph import NodeId, RouteGraph
from scoring.longest_grid import grid_longest


@dataclass(frozen=True)
class Route:
    """One longest route: its ``length`` in counted spaces and its spaces in path order."""

    length: int
    spaces: tuple[Position, ...]


_MAX_MEMO = 200_000
"""Most (piece, reachable) states remembered, to bound memory on pathological boards."""


_QUICK_STEPS = 200
"""Search steps tried before a grid-shaped problem is handed to the exact grid DP."""


class _OutOfBudget(Exception):
    """Raised when the depth-first search has used its steps."""


class _Found(Exception):
    """Raised to stop the search once a path reaches the best possible length."""


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Search:
    """One longest-route search: the pieces with ``kind``, as bitmasks, and the best path."""

    def __init__(self, graph: RouteGraph, kind: str, reentrant: bool) -> None:
        self.reentrant = reentrant
        self.ids: list[NodeId] = [
            n for n in graph.piece_nodes() if graph.nodes[n].piece.has_kind(kind)  # type: ignore
        ]
        local = {node: i for i, node in enumerate(self.ids)}
        self.positions: list[Position] = [graph.nodes[n].position for n in self.ids]  # type: ignore
        n = len(self.ids)
        self.neighbours = [0] * n
        for i, node in enumerate(self.ids):
            for other in graph.route_neighbours(node, kind):
                j = local.get(other)
                if j is not None and j != i:
                    self.neighbours[i] |= 1 << j
        # visiting a node blocks: its whole space (default) or only itself (re-entering)
        self.blocks = [1 << i for i in range(n)]
        if not reentrant:
            by_space: dict[Position, int] = {}
            for i, position in enumerate(self.positions):
                by_space[position] = by_space.get(position, 0) | 1 << i
            self.blocks = [by_space[position] for position in self.positions]
        self.colours = [(r + c) % 2 for r, c in self.positions]
        self.colour_masks = [0, 0]
        for i, colour in enumerate(self.colours):
            self.colour_masks[colour] |= 1 << i
        self.bipartite = all(
            not self.neighbours[i] & self.colour_masks[self.colours[i]] for i in range(n)
        )
        self.seen: dict[tuple[int, int, int], int] = {}
        self.best: list[int] = []
        self.best_length = 0

    # -- bounds -------------------------------------------------------------------------
    def _reach(self, start_mask: int, blocked: int) -> int:
        """Every node reachable from ``start_mask`` without entering ``blocked``."""
        neighbours = self.neighbours
        seen = frontier = start_mask & ~blocked
        while frontier:
            new = 0
            while frontier:
                low = frontier & -frontier
                new |= neighbours[low.bit_length() - 1]
                frontier ^= low
            frontier = new & ~blocked & ~seen
            seen |= frontier
        return seen

    def _extra_bound(self, current: int, reach: int, needed: int) -> int:
        """Most nodes a path from ``current`` can still add inside ``reach``.

        The cheap bounds come first; the block-chain bound is only worked out when they
        leave room for more than ``needed`` nodes.
        """
        count = reach.bit_count()
        if self.bipartite:
            other = (reach & self.colour_masks[1 - self.colours[current]]).bit_count()
            same = (reach & self.colour_masks[self.colours[current]]).bit_count()
            count = min(count, 2 * same + 1 if other > same else 2 * other)
        if count <= needed:
            return count
        return min(count, self._chain_bound(current, reach))

    def _chain_bound(self, root: int, reach: int) -> int:
        """Most nodes a simple path from ``root`` can add inside ``reach``.

        A simple path walks a chain of biconnected blocks of ``reach`` + root: once it leaves a
        block through a cut vertex it never comes back. So the bound is the heaviest chain of
        blocks in the block-cut tree from the root (Tarjan's algorithm, iterative).
        """
        allowed = reach | 1 << root
        neighbours = self.neighbours
        order = {root: 0}
        low = {root: 0}
        best_below: dict[int, int] = {}
        stack = [root]
        work = [(root, neighbours[root] & allowed)]
        while work:
            vertex, todo = work[-1]
            if todo:
                low_bit = todo & -todo
                work[-1] = (vertex, todo ^ low_bit)
                nxt = low_bit.bit_length() - 1
                if nxt in order:
                    low[vertex] = min(low[vertex], order[nxt])
                    continue
                order[nxt] = low[nxt] = len(order)
                stack.append(nxt)
                work.append((nxt, neighbours[nxt] & allowed))
                continue
            work.pop()
            if not work:
                break
            parent = work[-1][0]
            low[parent] = min(low[parent], low[vertex])
            if low[vertex] >= order[parent]:
                # a block hangs below ``parent``: pop it and weigh its heaviest continuation
                members = []
                while True:
                    member = stack.pop()
                    members.append(member)
                    if member == vertex:
                        break
                value = self._block_value(parent, members, best_below)
                if value > best_below.get(parent, 0):
                    best_below[parent] = value
        return best_below.get(root, 0)

    def _block_value(self, entry: int, members: list[int], best_below: dict[int, int]) -> int:
        """Most nodes a path entering a block at ``entry`` adds in it and below it.

        ``members`` are the block's other nodes. On a chequerboard (bipartite) graph a path
        alternates colours, which bounds how much of the block it can cover between two nodes.
        """
        size = len(members)
        if not self.bipartite:
            return size + max((best_below.get(m, 0) for m in members), default=0)
        colours = self.colours
        mine = colours[entry]
        same = 1 + sum(1 for m in members if colours[m] == mine)
        other = size + 1 - same
        value = (2 * same if other >= same else 2 * other + 1) - 1
        for member in members:
            below = best_below.get(member, 0)
            if below:
                if colours[member] == mine:
                    through = 2 * min(same - 1, other) + 1
                else:
                    through = 2 * min(same, other)
                value = max(value, through - 1 + below)
        return value

    def _loop_bound(self, on_path: int, reach: int) -> int:
        """Most a closed loop (re-entering its first space) can count, path + reach together."""
        nodes = on_path | reach
        count = nodes.bit_count()
        if self.bipartite:
            count = 2 * min((nodes & m).bit_count() for m in self.colour_masks)
        return count + 1

    # -- search -------------------------------------------------------------------------
    def _record(self, path: list[int], length: int) -> None:
        if length > self.best_length:
            self.best_length = length
            self.best = list(path)
            if length >= self.target:
                raise _Found

    def _dfs(self, current: int, blocked: int, path: list[int], on_path: int) -> None:
        self.steps += 1
        if self.budget is not None and self.steps > self.budget:
            raise _OutOfBudget
        length = len(path)
        self._record(path, length)
        candidates = self.neighbours[current] & ~blocked
        if self.reentrant and length >= 3 and self.neighbours[current] >> path[0] & 1:
            self._record(path + [path[0]], length + 1)
        if not candidates:
            return
        reach = self._reach(candidates, blocked)
        # What a path can still add depends only on where it ends and what it can still reach:
        # a state reached before with at least this length dominates this one.
        state = (current, reach, path[0] if self.reentrant else 0)
        if self.seen.get(state, -1) >= length:
            return
        if len(self.seen) < _MAX_MEMO:
            self.seen[state] = length
        bound = length + self._extra_bound(current, reach, self.best_length - length)
        if self.reentrant:
            bound = max(bound, self._loop_bound(on_path, reach))
        if bound <= self.best_length:
            return
        order = sorted(
            _bits(candidates),
            key=lambda j: (self.neighbours[j] & ~(blocked | self.blocks[j])).bit_count(),
        )
        for j in order:
            path.append(j)
            self._dfs(j, blocked | self.blocks[j], path, on_path | 1 << j)
            path.pop()

    def _components(self) -> list[int]:
        """Connected groups of nodes (bitmasks), largest first."""
        remaining = (1 << len(self.ids)) - 1
        components = []
        while remaining:
            first = (remaining & -remaining).bit_length() - 1
            component = self._reach(1 << first, 0) | 1 << first
            components.append(component)
            remaining &= ~component
        return sorted(components, key=lambda m: -m.bit_count())

    def _component_bound(self, component: int) -> int:
        if self.reentrant:
            return max(self._loop_bound(component, 0), component.bit_count())
        return len({self.positions[i] for i in _bits(component)})

    def _search(self, budget: int | None) -> None:
        """Depth-first search of every component; raises _OutOfBudget after ``budget`` steps."""
        self.steps, self.budget = 0, budget
        for component in self._components():
            if component.bit_count() + self.reentrant <= self.best_length:
                break  # components come largest first: none left can do better
            self.target = self._component_bound(component)
            if self.target <= self.best_length:
                continue
            starts = sorted(_bits(component), key=lambda i: self.neighbours[i].bit_count())
            try:
                for start in starts:
                    self._dfs(start, self.blocks[start], [start], 1 << start)
            except _Found:
                pass

    def _grid_joins(self) -> tuple[list[list[bool]], list[list[bool]], list[list[bool]]] | None:
        """(present, joins east, joins south) when the joins are plain grid joins, else None."""
        if len(set(self.positions)) != len(self.positions):
            return None  # two pieces of this kind in one space
        present = [[False] * SIZE for _ in range(SIZE)]
        east = [[False] * SIZE for _ in range(SIZE)]
        south = [[False] * SIZE for _ in range(SIZE)]
        for i, (row, col) in enumerate(self.positions):
            present[row][col] = True
            for j in _bits(self.neighbours[i]):
                other_row, other_col = self.positions[j]
                if (other_row, other_col) == (row, col + 1):
                    east[row][col] = True
                elif (other_row, other_col) == (row + 1, col):
                    south[row][col] = True
                elif abs(other_row - row) + abs(other_col - col) != 1:
                    return None  # an expansion link joins distant spaces
        return present, east, south

    def run(self) -> Route:
        try:
            self._search(_QUICK_STEPS)
        except _OutOfBudget:
            grid = self._grid_joins()
            if grid is None:  # not a plain grid: the search has to settle it alone
                self.seen.clear()  # states cut off by the budget were not fully searched
                self._search(None)
            else:
                length, spaces = grid_longest(*grid, loops=self.reentrant,
                                              at_least=self.best_length)
                if length > self.best_length:
                    return Route(length, tuple(spaces))
        return Route(self.best_length, tuple(self.positions[i] for i in self.best))


def longest_route(graph: RouteGraph, kind: str, *, reentrant: bool = False) -> Route:
    """The longest route of ``kind`` (``"H"``, ``"R"``, or an expansion's kind such as a river)."""
    return _Search(graph, kind, reentrant).run()
