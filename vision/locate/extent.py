"""Whether a found lattice is the whole board's: do its lines stop at its frame?

Past a real frame lies the margin: Exit marks sit beside the middle of spaces, not on the
lines, so the 6 inner lines of each side stop at the frame. Lines running on past a side
(``lattice_runs_on``) mean a part of a larger lattice; lines running on space after space
until the photo ends (``lattice_runs_off``) mean a board cut by the photo's edge
(vision.partial decides what to answer).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate.params import ExtentParams
from vision.locate.views import flat_view
from vision.rectify import GRID

PHOTO_EDGES = ("top", "right", "bottom", "left")


def lattice_runs_on(binary: np.ndarray, corners: np.ndarray, cell: int, params: ExtentParams,
                    clear_gaps: bool = False) -> int:
    """How many sides of ``corners`` the lattice's inner lines run on past, by most of a space
    (on a straightened view with ``cell`` px per space). ``clear_gaps``: see ``_lines_go_on``.
    """
    flat = flat_view(binary, corners, GRID * cell, cell).image
    flat = cv2.dilate(flat, np.ones((3, 3), np.uint8)).astype(np.float32)
    seen = np.ones_like(flat)
    inset = int(params.band_inset * cell)
    near, far = inset, cell - inset  # the band past the frame, in from the edge
    return sum(int(_lines_go_on(flat, seen, cell, cell, side, near, far, params, clear_gaps))
               for side in range(4))


def lattice_runs_off(binary: np.ndarray, corners: np.ndarray, cell: int, params: ExtentParams
                     ) -> list[str]:
    """The photo edges (top, right, bottom, left) that the lattice's lines run on to.

    Past each side of ``corners``, space after space outward, the 6 inner lines are followed
    while most of them go on; a side whose lines go on until the photo ends (within
    ``reach`` spaces) is where the board runs off the photo. A whole board's lines stop at
    its frame, so this is empty for it.
    """
    pad = params.reach * cell
    view = flat_view(binary, corners, GRID * cell, pad)
    flat = cv2.dilate(view.image, np.ones((3, 3), np.uint8)).astype(np.float32)
    seen = flat_view(np.ones_like(binary), corners, GRID * cell, pad).image.astype(np.float32)
    end, middle = pad + GRID * cell, pad + GRID * cell / 2
    h, w = binary.shape
    inset = int(params.band_inset * cell)
    edges = []
    for side in range(4):  # the sides from corners[0]->[1], [1]->[2], [2]->[3], [3]->[0]
        for j in range(params.reach):  # the band j spaces out
            near, far = j * cell + inset, (j + 1) * cell - inset
            band = [slice(pad - far, pad - near), slice(end + near, end + far)][side in (1, 2)]
            in_photo = seen[band].mean() if side in (0, 2) else seen[:, band].mean()
            if in_photo < params.in_photo:  # the photo ends here, and the lines went on
                if j > 0:
                    out = (j + 0.5) * cell
                    point = [(middle, pad - out), (end + out, middle), (middle, end + out),
                             (pad - out, middle)][side]
                    x, y = view.to_photo(np.array([point]))[0]
                    nearest = int(np.argmin([y, w - 1 - x, h - 1 - y, x]))
                    edges.append(PHOTO_EDGES[nearest])
                break
            if not _lines_go_on(flat, seen, cell, pad, side, near, far, params,
                                clear_gaps=True):
                break
    return [edge for edge in PHOTO_EDGES if edge in edges]


def _lines_go_on(flat: np.ndarray, seen: np.ndarray, cell: int, pad: int, side: int,
                 near: int, far: int, params: ExtentParams, clear_gaps: bool = False) -> bool:
    """Whether the inner lattice lines go on through the band ``near``..``far`` pixels out
    from ``side`` (0 top, 1 right, 2 bottom, 3 left) of a straightened view: most of the 6
    lines mostly dark there; with ``clear_gaps`` also most of the gaps between them
    (mid-space) not, so that a dark texture or smudge does not count. ``seen`` masks the
    pixels inside the photo."""
    lines = pad + np.arange(1, GRID) * cell
    gaps = pad + np.arange(GRID) * cell + cell // 2
    end = pad + GRID * cell
    span = [slice(pad - far, pad - near), slice(end + near, end + far),
            slice(end + near, end + far), slice(pad - far, pad - near)][side]

    def coverage(at: np.ndarray) -> np.ndarray:
        if side in (0, 2):
            ink, inside, axis = flat[span][:, at], seen[span][:, at], 0
        else:
            ink, inside, axis = flat[at][:, span], seen[at][:, span], 1
        return ink.sum(axis=axis) / np.maximum(inside.sum(axis=axis), 1.0)

    if (coverage(lines) > params.line_dark).sum() < params.lines_going_on:
        return False
    return not clear_gaps or float(np.median(coverage(gaps))) < params.gap_dark
