"""A board scored and laid out for the page: the score sheet's figures and what to draw where.

``score_sheet`` is the one call into the scorer (so a rename there is a one-line change here).
``explain`` turns a board and its sheet into plain JSON: every space's pieces with the network
each belongs to, the networks with their Exits, the Longest Highway and Railway, the Central
Spaces drawn on, the Errors and illegal drawings with their places and words, and the sheet's
rows with the same figures as ``rink score``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rink.sheet_text import exit_label, sheet_rows
from scoring.board import SIZE, Board
from scoring.exits import EXITS, Exit
from scoring.results import ScoreSheet
from scoring.space import format_space

CENTRAL = {(row, col) for row in range(2, 5) for col in range(2, 5)}


def score_sheet(board: Board, expansions: Sequence[str], source: str) -> ScoreSheet:
    """Score ``board`` with its declared expansions plus ``expansions`` (GridError if a key
    line is wrong). The only place this package calls the scorer."""
    from scoring.engine import score

    return score(board, list(expansions), source=source)


def _exit_json(exit_: Exit) -> dict:
    return {"index": exit_.index, "side": int(exit_.side), "row": exit_.row, "col": exit_.col,
            "kind": exit_.kind, "label": exit_label(exit_)}


def _network_of_pieces(sheet: ScoreSheet) -> dict[tuple[int, int, int], int]:
    """(row, col, piece index) -> index into ``sheet.networks`` of the network it is part of."""
    return {piece: number for number, network in enumerate(sheet.networks)
            for piece in network.pieces}


def explain(board: Board, sheet: ScoreSheet, expansions: Sequence[str]) -> dict:
    """Everything the page draws and lists for a scored board (plain JSON)."""
    networks = _network_of_pieces(sheet)
    spaces = []
    for row in range(SIZE):
        line = []
        for col in range(SIZE):
            space = board[row, col]
            token = format_space(space)
            body = token[: len(token) - len(space.markers)]
            line.append({
                "token": token,
                "pieces": [{"code": piece.code, "net": networks.get((row, col, index))}
                           for index, piece in enumerate(space.pieces)],
                "markers": space.markers,
                "overpass": bool(space.pieces) and body.endswith("o"),
            })
        spaces.append(line)
    connected = {e.index for n in sheet.networks for e in n.exits}
    return {
        "spaces": spaces,
        "networks": [{"points": n.points, "exits": [_exit_json(e) for e in n.exits]}
                     for n in sheet.networks],
        "free_exits": [_exit_json(e) for e in EXITS if e.index not in connected],
        "highway_route": [list(p) for p in sheet.highway_route],
        "railway_route": [list(p) for p in sheet.railway_route],
        "central": sorted([r, c] for r, c in CENTRAL if not board[r, c].is_empty),
        "errors": [dict(e.to_json(), side=int(e.side), text=e.words) for e in sheet.errors],
        "illegal": [dict(i.to_json(), places=[dict(p.to_json(), side=(
            None if p.side is None else int(p.side))) for p in i.places], text=i.words)
            for i in sheet.illegal],
        "score": sheet.to_json(),
        "rows": sheet_rows(sheet),
    }
