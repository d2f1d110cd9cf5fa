"""Errors: route ends that meet nothing they can join (RULINGS.md, Scoring: Errors).

Every end of every piece is checked: an end on the outer edge is never an Error (Exit or not,
whatever its type); an end is fine when the neighbouring space has an end of the same kind on
the shared side; otherwise it is 1 Error - facing an empty space, a blank side, or an end of
another kind (a railway meeting a highway: both ends are Errors, and the drawing is illegal).
"""

from __future__ import annotations

from collections.abc import Collection

from scoring.board import SIZE
from scoring.graph import FACING, RouteGraph
from scoring.results import ErrorEnd, kind_word
from scoring.sides import Side

End = tuple[int, int, Side]
"""(row, col, side) of one route end."""
SIDES = tuple(Side)


def find_errors(graph: RouteGraph, exempt: Collection[End] = ()) -> list[ErrorEnd]:
    """Every Error on the board, in reading order (row, column, side N-E-S-W).

    ``exempt`` lists ends that expansions excuse (lake sides, routes joined to the Accumulator).
    """
    board = graph.board
    kinds = graph.side_kinds
    errors = []
    for at, kind in enumerate(kinds):  # ends in reading order: row, column, side N-E-S-W
        if kind is None:
            continue
        facing = FACING[at]
        if facing < 0 or kinds[facing] == kind:
            continue  # on the outer edge, or joined
        row, rest = divmod(at, SIZE * 4)
        col, side_number = divmod(rest, 4)
        side = SIDES[side_number]
        if exempt and (row, col, side) in exempt:
            continue
        other = kinds[facing]
        dr, dc = side.delta
        if board[row + dr, col + dc].is_empty:
            reason = "faces an empty space"
        elif other is None:
            reason = "meets a blank side"
        else:
            reason = f"meets a {kind_word(other)} end"
        errors.append(ErrorEnd(row, col, side, kind, reason))
    return errors
