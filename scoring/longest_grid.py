"""Exact Longest Route length by dynamic programming across the grid (a "plug" DP).

For boards where the DFS of ``scoring.longest`` cannot prove its answer quickly (crossings
everywhere, with holes), the length is found by scanning the spaces row by row while keeping,
for every way the route can cross the boundary between scanned and unscanned spaces, the most
spaces it can have covered so far. Each boundary crossing ("plug") is labelled: 0 none, 1 a
route piece whose other end is already an end of the route, 2+ a piece whose two plugs share
the label. Works when the joins are those of the grid itself: one node per space of that kind
and no expansion links (``scoring.longest`` checks this).
"""

from __future__ import annotations

from functools import lru_cache

from scoring.board import SIZE, Position

Grid = list[list[bool]]


@lru_cache(maxsize=1 << 16)
def _normalised_tuple(labels: tuple[int, ...]) -> tuple[int, ...]:
    mapping: dict[int, int] = {}
    out = []
    for label in labels:
        if label > 1:
            label = mapping.setdefault(label, len(mapping) + 2)
        out.append(label)
    return tuple(out)


def _normalised(labels: list[int]) -> tuple[int, ...]:
    """Relabel pair labels 2, 3, ... in order of first appearance (equal states compare equal)."""
    return _normalised_tuple(tuple(labels))


State = tuple[tuple[int, ...], int]
"""(plug labels of the 7 columns + the plug to the east, number of route ends placed)."""


def grid_longest(present: Grid, joins_east: Grid, joins_south: Grid, *, loops: bool = False,
                 at_least: int = 0) -> tuple[int, list[Position]]:
    """The longest simple path through joined spaces: (its length, its spaces in order).

    ``present[r][c]``: the space can be on the route; ``joins_east[r][c]`` /
    ``joins_south[r][c]``: it is joined to its east / south neighbour. With ``loops`` a closed
    loop also counts, its first space twice (re-entering variant). ``at_least``: a known lower
    bound; when nothing longer exists the answer is (at_least, []).
    """
    width = SIZE
    remaining = sum(row.count(True) for row in present)
    best = at_least
    best_at: tuple[int, State | None] | None = None
    """(index of the space where the best route was completed, the state before it)."""
    layers: list[dict[State, tuple[int, State | None]]] = []
    states: dict[State, tuple[int, State | None]] = {((0,) * (width + 1), 0): (0, None)}
    for r in range(SIZE):
        for c in range(SIZE):
            usable = present[r][c]
            remaining -= usable
            down_ok = r < SIZE - 1 and joins_south[r][c]
            right_ok = c < SIZE - 1 and joins_east[r][c]
            new: dict[State, tuple[int, State | None]] = {}
            get = new.get
            index = len(layers)
            if usable and best < 1:
                best, best_at = 1, (index, None)

            def keep(labels: tuple[int, ...], ends: int, value: int) -> None:
                """Keep a state unless it cannot beat ``best`` or a better one is kept."""
                # called within the loop below, so it sees this space's values
                # only a state without route ends can still close a loop (+1)
                bonus = loops and not ends
                if value + remaining + bonus > best and get((labels, ends), (-1,))[0] < value:  # noqa: B023
                    new[labels, ends] = (value, parent)  # noqa: B023

            for parent, (value, _) in states.items():
                labels, ends = parent
                up, left = labels[c], labels[width]
                if not up and not left:
                    keep(labels, ends, value)  # the space stays off the route
                    if not usable:
                        continue
                    grown = value + 1
                    if down_ok and right_ok:  # the route bends through here: a new piece
                        fresh = list(labels)
                        fresh[c] = fresh[width] = 99
                        keep(_normalised(fresh), ends, grown)
                    if ends < 2:  # an end of the route starts here
                        if down_ok:
                            keep(labels[:c] + (1,) + labels[c + 1:], ends + 1, grown)
                        if right_ok:
                            keep(labels[:width] + (1,), ends + 1, grown)
                    continue
                grown = value + 1
                rest = list(labels)
                rest[c] = rest[width] = 0
                if up and left:  # two pieces meet here
                    if up == 1 and left == 1:
                        if not any(rest) and grown > best:
                            best, best_at = grown, (index, parent)
                        continue
                    if up == left:  # closing a loop
                        if loops and not any(rest) and grown + 1 > best:
                            best, best_at = grown + 1, (index, parent)
                        continue
                    if up == 1 or left == 1:
                        rest[rest.index(left if up == 1 else up)] = 1
                    else:
                        rest[rest.index(left)] = up
                    keep(_normalised(rest), ends, grown)
                    continue
                through = up or left  # one piece arrives: it goes on, or the route ends here
                if down_ok:
                    on = list(rest)
                    on[c] = through
                    keep(tuple(on), ends, grown)
                if right_ok:
                    on = list(rest)
                    on[width] = through
                    keep(tuple(on), ends, grown)
                if through == 1:
                    if not any(rest) and grown > best:
                        best, best_at = grown, (index, parent)
                elif ends < 2:
                    rest[rest.index(through)] = 1
                    keep(_normalised(rest), ends + 1, grown)
            layers.append(states)
            states = new
    return best, _route(best_at, layers, loops)


def _route(best_at: tuple[int, State | None] | None,
           layers: list[dict[State, tuple[int, State | None]]], loops: bool) -> list[Position]:
    """The spaces of the best route, from the chain of states that led to it."""
    if best_at is None:
        return []
    last, state = best_at
    end = divmod(last, SIZE)
    if state is None:
        return [end]
    neighbours: dict[Position, list[Position]] = {end: []}
    for index in range(last - 1, -1, -1):
        assert state is not None
        labels = state[0]
        row, col = divmod(index, SIZE)
        for used, other in ((labels[col], (row + 1, col)), (labels[SIZE], (row, col + 1))):
            if used:
                neighbours.setdefault((row, col), []).append(other)
                neighbours.setdefault(other, []).append((row, col))
        state = layers[index + 1][state][1]
    ends = [space for space, joined in neighbours.items() if len(joined) == 1]
    start = min(ends) if ends else min(neighbours)
    route, previous = [start], None
    while True:
        onward = [s for s in neighbours[route[-1]] if s != previous and s != route[0]]
        if not onward:
            break
        previous = route[-1]
        route.append(onward[0])
    if loops and not ends:
        route.append(start)
    return route
