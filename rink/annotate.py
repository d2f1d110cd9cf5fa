"""Draw what was read over the straightened board, for a player to check at a glance.

Each space gets a schematic of the read piece (highway: thick orange, railway: thin blue with
ties, station: square) and its token; spaces in ``review`` get a yellow outline; Errors
(row, col, side) are circled in red at the side they leave from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.rectify import GRID

if TYPE_CHECKING:
    from vision.recognizer import PhotoReading

SCALE = 3  # the straightened board is drawn this many times larger
HIGHWAY = (0, 140, 255)
RAILWAY = (200, 90, 0)
REVIEW = (0, 220, 255)
ERROR = (0, 0, 230)
_SIDE_VECTORS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
_SIDE_NAMES = {"N": 0, "E": 1, "S": 2, "W": 3}


def _side_index(side: int | str) -> int:
    return _SIDE_NAMES[side] if isinstance(side, str) else int(side)


def _draw_piece(img: np.ndarray, token: str, centre: np.ndarray, cell: float) -> None:
    if token == ".":
        return
    overlay = img.copy()
    half = cell / 2
    for side, kind in enumerate(token[:4]):
        if kind == "_":
            continue
        dx, dy = _SIDE_VECTORS[side]
        start = centre
        if token.endswith("o") and side in ((1, 3) if token[1] == "R" else (0, 2)):
            start = centre + np.array([dx, dy]) * cell * 0.22  # the route passing under
        end = centre + np.array([dx, dy]) * half * 0.95
        p0, p1 = tuple(np.round(start).astype(int)), tuple(np.round(end).astype(int))
        if kind == "H":
            cv2.line(overlay, p0, p1, HIGHWAY, max(2, int(cell * 0.14)), cv2.LINE_AA)
        else:
            cv2.line(overlay, p0, p1, RAILWAY, max(1, int(cell * 0.04)), cv2.LINE_AA)
            for t in np.linspace(0.3, 0.9, 3):
                c = start + (end - start) * t
                n = np.array([-dy, dx]) * cell * 0.08
                cv2.line(overlay, tuple(np.round(c - n).astype(int)),
                         tuple(np.round(c + n).astype(int)), RAILWAY, 2, cv2.LINE_AA)
    if "H" in token and "R" in token and not token.endswith("o"):
        s = cell * 0.09
        cv2.rectangle(overlay, tuple(np.round(centre - s).astype(int)),
                      tuple(np.round(centre + s).astype(int)), (40, 40, 40), -1)
    cv2.addWeighted(overlay, 0.75, img, 0.25, 0, dst=img)


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
            cv2.putText(img, token, (int(centre[0] - cell * 0.45), int(centre[1] + cell * 0.45)),
                        font, cell / 160, (30, 30, 30), 1, cv2.LINE_AA)
    for item in reading.review:
        x0 = int(origin + item.col * cell) + 2
        y0 = int(origin + item.row * cell) + 2
        cv2.rectangle(img, (x0, y0), (x0 + int(cell) - 4, y0 + int(cell) - 4), REVIEW, 3)
    for r, c, side in errors or []:
        dx, dy = _SIDE_VECTORS[_side_index(side)]
        centre = np.array([origin + (c + 0.5 + dx * 0.42) * cell,
                           origin + (r + 0.5 + dy * 0.42) * cell])
        cv2.circle(img, tuple(np.round(centre).astype(int)), int(cell * 0.13), ERROR, 3,
                   cv2.LINE_AA)
    return img
