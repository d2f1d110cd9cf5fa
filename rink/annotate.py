"""Draw what was read over the straightened board, for a player to check at a glance.

Each space gets a schematic of the read pieces (highway: thick orange, railway: thin blue with
ties, station: square; river: wavy blue line, broken under a bridge; lake: translucent blue
against its sides) and its token; spaces in ``review`` get a yellow outline with their place
in the list (1 is the least sure, as the sheet lists them); Errors (row, col, side) are
circled in red at the side they leave from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from scoring.space import TokenError, parse_token
from vision.rectify import GRID

if TYPE_CHECKING:
    from vision.recognizer import PhotoReading

SCALE = 3  # the straightened board is drawn this many times larger
HIGHWAY = (0, 140, 255)
RAILWAY = (200, 90, 0)
REVIEW = (0, 220, 255)
ERROR = (0, 0, 230)
RIVER = (235, 160, 30)
LAKE = (240, 175, 80)
RIVER_WAVE = 0.06  # the river's wave, in spaces either side of its line
BRIDGE_GAP = 0.24  # a river under a bridge stops this far (in spaces) from the centre
_SIDE_VECTORS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
_SIDE_NAMES = {"N": 0, "E": 1, "S": 2, "W": 3}


def _side_index(side: int | str) -> int:
    return _SIDE_NAMES[side] if isinstance(side, str) else int(side)


def _point(p: np.ndarray) -> tuple[int, int]:
    return tuple(np.round(p).astype(int))  # type: ignore[return-value]


def _draw_lake(overlay: np.ndarray, centre: np.ndarray, cell: float, sides: list[int]) -> None:
    """Translucent water reaching ``sides``: a wedge from the centre to each lake side's two
    corners, so all four sides fill the whole space."""
    corners = centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cell / 2 * 0.96
    water = overlay.copy()
    for side in sides:
        wedge = np.array([corners[side], corners[(side + 1) % 4], centre])
        cv2.fillConvexPoly(water, np.round(wedge).astype(np.int32), LAKE, cv2.LINE_AA)
    cv2.addWeighted(water, 0.6, overlay, 0.4, 0, dst=overlay)


def _draw_river(overlay: np.ndarray, centre: np.ndarray, cell: float, side: int,
                gap: bool) -> None:
    """A wavy blue line from the centre (from the edge of a bridge's gap when ``gap``) to the
    middle of ``side``; the wave is level at the centre and at the side."""
    dx, dy = _SIDE_VECTORS[side]
    along, across = np.array([dx, dy], float), np.array([-dy, dx], float)
    half = cell / 2
    dist = np.linspace(cell * BRIDGE_GAP if gap else 0.0, half, 24)
    wave = RIVER_WAVE * cell * np.sin(2 * np.pi * dist / half)
    points = centre + np.outer(dist, along) + np.outer(wave, across)
    cv2.polylines(overlay, [np.round(points).astype(np.int32)], False, RIVER,
                  max(2, int(cell * 0.07)), cv2.LINE_AA)


def _draw_route(overlay: np.ndarray, centre: np.ndarray, cell: float, side: int, kind: str,
                under: bool) -> None:
    """A highway (thick orange) or railway (thin blue with ties) from the centre to ``side``;
    ``under``: the route passing under an overpass starts away from the centre."""
    dx, dy = _SIDE_VECTORS[side]
    start = centre + np.array([dx, dy]) * cell * 0.22 if under else centre
    end = centre + np.array([dx, dy]) * cell / 2 * 0.95
    if kind == "H":
        cv2.line(overlay, _point(start), _point(end), HIGHWAY, max(2, int(cell * 0.14)),
                 cv2.LINE_AA)
        return
    cv2.line(overlay, _point(start), _point(end), RAILWAY, max(1, int(cell * 0.04)), cv2.LINE_AA)
    for t in np.linspace(0.3, 0.9, 3):
        c = start + (end - start) * t
        n = np.array([-dy, dx]) * cell * 0.08
        cv2.line(overlay, _point(c - n), _point(c + n), RAILWAY, 2, cv2.LINE_AA)


def _draw_piece(img: np.ndarray, token: str, centre: np.ndarray, cell: float) -> None:
    """Draw what ``token`` holds, piece by piece (``scoring.space.parse_token``): lakes as
    translucent water against their sides, rivers as wavy blue lines (a bridge's river with a
    gap under the route), then highways and railways, and a station's square."""
    if token == ".":
        return
    try:
        space = parse_token(token)
    except TokenError:
        return
    overlay = img.copy()
    lake_sides = [side for piece in space.pieces for side, kind in piece.ends() if kind == "L"]
    if lake_sides:
        _draw_lake(overlay, centre, cell, lake_sides)
    routes = [p for p in space.pieces if p.has_kind("H") or p.has_kind("R")]
    for piece in space.pieces:
        bridge = any(other is not piece for other in routes)
        for side, kind in piece.ends():
            if kind == "W":
                _draw_river(overlay, centre, cell, int(side), gap=bridge)
    overpass = token.endswith("o")
    for piece in routes:
        for side, kind in piece.ends():
            if kind in ("H", "R"):
                _draw_route(overlay, centre, cell, int(side), kind, overpass and kind == "R")
        if piece.has_kind("H") and piece.has_kind("R"):
            s = cell * 0.09
            cv2.rectangle(overlay, _point(centre - s), _point(centre + s), (40, 40, 40), -1)
    cv2.addWeighted(overlay, 0.75, img, 0.25, 0, dst=img)


def _draw_rank(img: np.ndarray, label: str, corner: tuple[int, int], cell: float) -> None:
    """A review space's place in the list, dark on a yellow tab inside the outline's top
    right ``corner``."""
    font, size = cv2.FONT_HERSHEY_SIMPLEX, cell / 200
    (w, h), _ = cv2.getTextSize(label, font, size, 2)
    pad = max(2, int(cell * 0.03))
    x1, y0 = corner
    cv2.rectangle(img, (x1 - w - 2 * pad, y0), (x1, y0 + h + 2 * pad), REVIEW, -1)
    cv2.putText(img, label, (x1 - w - pad, y0 + h + pad), font, size, (30, 30, 30), 2,
                cv2.LINE_AA)


def annotated_image(reading: PhotoReading,
                    errors: list[tuple[int, int, int | str]] | None = None) -> np.ndarray:
    """BGR image of the straightened board with the read pieces, review spaces and Errors.

    ``errors``: (row, col, side) with side 0-3 or "N", "E", "S", "W".
    """
    board = reading.board
    img = cv2.resize(reading.board_image, None, fx=SCALE, fy=SCALE,
                     interpolation=cv2.INTER_CUBIC)
    img = cv2.addWeighted(img, 0.55, np.full_like(img, 255), 0.45, 0)  # fade the photo
    cell = board.cell_px * SCALE
    origin = board.pad_px * SCALE
    font = cv2.FONT_HERSHEY_SIMPLEX
    for r in range(GRID):
        for c in range(GRID):
            centre = np.array([origin + (c + 0.5) * cell, origin + (r + 0.5) * cell])
            token = reading.grid[r][c]
            _draw_piece(img, token, centre, cell)
            size = cell / 160 * min(1.0, 5 / len(token))  # long tokens (bridges) fit too
            cv2.putText(img, token, (int(centre[0] - cell * 0.45), int(centre[1] + cell * 0.45)),
                        font, size, (30, 30, 30), 1, cv2.LINE_AA)
    for rank, item in enumerate(reading.review, start=1):
        x0 = int(origin + item.col * cell) + 2
        y0 = int(origin + item.row * cell) + 2
        cv2.rectangle(img, (x0, y0), (x0 + int(cell) - 4, y0 + int(cell) - 4), REVIEW, 3)
        _draw_rank(img, str(rank), (x0 + int(cell) - 4, y0), cell)
    for r, c, side in errors or []:
        dx, dy = _SIDE_VECTORS[_side_index(side)]
        centre = np.array([origin + (c + 0.5 + dx * 0.42) * cell,
                           origin + (r + 0.5 + dy * 0.42) * cell])
        cv2.circle(img, tuple(np.round(centre).astype(int)), int(cell * 0.13), ERROR, 3,
                   cv2.LINE_AA)
    return img
