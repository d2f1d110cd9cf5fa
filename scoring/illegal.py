"""Illegal drawings of the base game (RULINGS.md), each reported with its place.

- a railway end meeting a highway end across a side;
- a route end drawn into an Exit of the other type;
- more than 3 Special Routes on the board;
- one Special Route drawn more than once.
The board is still scored as drawn.
"""

from __future__ import annotations

from collections import defaultdict

from scoring.board import SIZE
from scoring.exits import EXITS
from scoring.graph import FACING, RouteGraph
from scoring.results import Illegal, Place, kind_word
from scoring.sides import ROUTE_KINDS, Side
from scoring.specials import SPECIAL_NAMES, special_route

MAX_SPECIALS = 3


def mixed_ends(graph: RouteGraph) -> list[Illegal]:
    """Highway ends meeting railway ends across a side (each shared side reported once)."""
    kinds = graph.side_kinds
    found = []
    for at, mine in enumerate(kinds):
        side_number = at % 4
        if mine not in ROUTE_KINDS or side_number not in (Side.E, Side.S) or FACING[at] < 0:
            continue
        theirs = kinds[FACING[at]]
        if theirs in ROUTE_KINDS and theirs != mine:
            row, col = divmod(at // 4, SIZE)
            side = Side(side_number)
            dr, dc = side.delta
            found.append(Illegal(
                "mixed-ends",
                f"{kind_word(mine)} end meets a {kind_word(theirs)} end "  # type: ignore
                f"(row {row + dr}, column {col + dc}); they cannot be drawn together",
                (Place(row, col, side),),
            ))
    return found


def wrong_exits(graph: RouteGraph) -> list[Illegal]:
    """Route ends drawn into an Exit of the other type."""
    found = []
    for exit_ in EXITS:
        kind = graph.kind_at(exit_.row, exit_.col, exit_.side)
        if kind in ROUTE_KINDS and kind != exit_.kind:
            found.append(Illegal(
                "wrong-exit",
                f"{kind_word(kind)} end drawn into the {exit_.words}",  # type: ignore[arg-type]
                (Place(exit_.row, exit_.col, exit_.side),),
            ))
    return found


def special_routes(graph: RouteGraph) -> list[Illegal]:
    """More than 3 Special Routes, or one Special Route used twice."""
    drawn: dict[str, list[Place]] = defaultdict(list)
    for row, col in graph.board.positions():
        name = special_route(graph.board[row, col])
        if name is not None:
            drawn[name].append(Place(row, col))
    found = []
    every = sorted((p for places in drawn.values() for p in places), key=lambda p: (p.row, p.col))
    if len(every) > MAX_SPECIALS:
        found.append(Illegal(
            "too-many-specials",
            f"{len(every)} Special Routes drawn; at most {MAX_SPECIALS} per game",
            tuple(every),
        ))
    for name in SPECIAL_NAMES:
        if len(drawn[name]) > 1:
            found.append(Illegal(
                "special-twice",
                f"Special Route {SPECIAL_NAMES[name]} drawn {len(drawn[name])} times; "
                "each may be used once",
                tuple(drawn[name]),
            ))
    return found


def find_illegal(graph: RouteGraph) -> list[Illegal]:
    """Every base-game illegal drawing on the board."""
    return mixed_ends(graph) + wrong_exits(graph) + special_routes(graph)
