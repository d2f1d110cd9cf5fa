"""A board scored and laid out for the page: the score sheet's figures and what to draw where.

``score_sheet`` is the one call into the scorer (so a rename there is a one-line change here).
``explain`` turns a board and its sheet into plain JSON: every space's pieces with the network
each belongs to, the networks with their Exits, the Longest Highway and Railway, the Central
Spaces drawn on, the Errors and illegal drawings with their places and words, and the sheet's
rows with the same figures as ``rink score``.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.board import SIZE, Board
from scoring.exits import EXITS, Exit
from scoring.results import ScoreSheet
from scoring.space import format_space

CENTRAL = {(row, col) for row in range(2, 5) for col in range(2, 5)}
SIDE_WORDS = {0: "top", 1: "right", 2: "bottom", 3: "left"}


def score_sheet(board: Board, expansions: Sequence[str], source: str) -> ScoreSheet:
    """Score ``board`` with its declared expansions plus ``expansions`` (GridError if a key
    line is wrong). The only place this package calls the scorer."""
    from scoring.engine import score

    return score(board, list(expansions), source=source)


def exit_label(exit_: Exit) -> str:
    """'top 3' (as on the score sheet of ``rink score``)."""
    along = exit_.col if int(exit_.side) in (0, 2) else exit_.row
    return f"{SIDE_WORDS[int(exit_.side)]} {along}"


def _exit_json(exit_: Exit) -> dict:
    return {"index": exit_.index, "side": int(exit_.side), "row": exit_.row, "col": exit_.col,
            "kind": exit_.kind, "label": exit_label(exit_)}


def _network_of_pieces(sheet: ScoreSheet) -> dict[tuple[int, int, int], int]:
    """(row, col, piece index) -> index into ``sheet.networks`` of the network it is part of."""
    return {piece: number for number, network in enumerate(sheet.networks)
            for piece in network.pieces}


def sheet_rows(sheet: ScoreSheet) -> list[dict]:
    """The score sheet's lines as ``rink score`` prints them: label, value, detail."""
    from scoring.registry import UnknownExpansion, get_expansion

    rows: list[dict] = []
    scoring = [n for n in sheet.networks if n.exit_count > 1]
    single = [n.exits[0] for n in sheet.networks if n.exit_count == 1]
    if not scoring:
        rows.append({"label": "Networks: none joins 2 Exits", "value": "0"})
    for number, network in enumerate(scoring, start=1):
        rows.append({"label": f"Network {number}: {network.exit_count} Exits",
                     "value": str(network.points), "network": sheet.networks.index(network),
                     "detail": ", ".join(exit_label(e) for e in network.exits)})
    if single:
        rows.append({"label": f"Networks reaching 1 Exit: {len(single)}", "value": "0",
                     "detail": ", ".join(exit_label(e) for e in single)})
    rows.append({"label": "Exits (network points)", "value": str(sheet.exits_points),
                 "sum": True})
    rows.append({"label": "Longest Highway", "value": str(sheet.highway), "sum": True,
                 "route": "highway"})
    rows.append({"label": "Longest Railway", "value": str(sheet.railway), "sum": True,
                 "route": "railway"})
    rows.append({"label": "Central Spaces", "value": str(sheet.center), "sum": True})
    rows.append({"label": "Errors", "sum": True,
                 "value": f"-{sheet.error_count}" if sheet.error_count else "0"})
    for name, points in sheet.expansions.items():
        try:
            title = get_expansion(name).title or name
        except UnknownExpansion:
            title = name
        row = {"label": f"Expansion: {title}", "value": f"{points:+d}", "sum": True}
        if sheet.expansion_lines.get(name):
            row["detail"] = sheet.expansion_lines[name]
        rows.append(row)
    rows.append({"label": "TOTAL", "value": str(sheet.total), "total": True})
    return rows


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
