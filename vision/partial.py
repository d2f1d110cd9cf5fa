"""Tell which part of a board runs off the photo.

A board cut by the photo's edge still shows a piece of its printed lattice: one connected
web of thin dark lines (the frame and the lines between spaces), evenly spaced both ways.
``find_cut_board`` looks at each of the largest connected groups of dark lines:

1. straighten it with its minimum-area rectangle;
2. find the evenly spaced lines in each direction (peaks of the line-coverage profiles,
   the longest chains with a steady spacing, similar in both directions);
3. if there are at least 3 such lines both ways, it is a piece of lattice; the photo edges
   its lines run into are where the rest of the board is.

A whole board's lattice never touches the photo's edge (the frame sits inside the paper's
margin). Webs touching three or four edges are textures (tiles, a checked cloth), not a
board. ``cut_edges`` decides, from what the locator found, whether the photo's board is cut.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate.candidates import dark_lines, threshold_block, working_images
from vision.locate.extent import PHOTO_EDGES
from vision.locate.params import SkinParams
from vision.locate.search import LatticeFit
from vision.locate.skin import from_the_edges, skin_mask
from vision.rectify import space_side

_MIN_EXTENT = 0.2  # a lattice piece spans at least this fraction of the photo one way
_MIN_LINES = 3  # evenly spaced lines needed each way (two rows/columns of spaces)
_MAX_LINES = 9  # the board has 8 each way (one spare for an Exit-mark row)
_GAP_RANGE = (0.02, 0.2)  # line spacing, as a fraction of the photo's long side
_STEADY = (0.8, 1.25)  # allowed change of spacing from one line to the next (perspective)
# A lattice found less surely than UNSURE, or less surely than SURE with its lines running on
# past a side (a whole board's stop at its frame), or with lines running on past 3 or 4
# sides, is checked against the cut pieces. Held-out rendered boards: 1 in 485 was found
# less surely than 0.5, 4 less surely than 0.7.
UNSURE, SURE = 0.5, 0.7
SKIN = SkinParams()  # skin-coloured blobs left out of the webs (``find_cut_board``)


@dataclass
class CutBoard:
    """A piece of board lattice that runs off the photo."""

    edges: list[str]  # photo edges it runs off, from PHOTO_EDGES
    lines_across: int  # evenly spaced lattice lines seen along its rectangle's long side
    lines_down: int  # ... and along the short side
    outline: np.ndarray  # (4, 2) float32: the piece's rectangle in photo pixels


def describe_cut(photo: str, edges: list[str]) -> str:
    """'only part of the board is in photo.jpg: the part beyond the photo's left edge ...'."""
    if len(edges) == 1:
        where = f"the photo's {edges[0]} edge"
    else:
        where = f"the photo's {' and '.join(edges)} edges"
    return (f"only part of the board is in {photo}: the part beyond {where} is missing "
            "(retake it with the whole board in view)")


def _peaks(profile: np.ndarray, min_gap: float) -> list[int]:
    """Positions of strong local maxima, at least ``min_gap / 2`` apart."""
    maxima = [i for i in range(1, len(profile) - 1)
              if profile[i] >= profile[i - 1] and profile[i] >= profile[i + 1]]
    threshold = max(0.3, 0.45 * float(profile.max()))
    found: list[int] = []
    for i in maxima:
        if profile[i] < threshold:
            continue
        if found and i - found[-1] < min_gap / 2:
            if profile[i] > profile[found[-1]]:
                found[-1] = i
            continue
        found.append(i)
    return found


def _chains(peaks: list[int], min_gap: float, max_gap: float) -> list[tuple[float, list[int]]]:
    """Every run of peaks with a steady spacing: (first spacing, positions)."""
    runs = []
    for a, start in enumerate(peaks):
        for second in peaks[a + 1:]:
            gap = second - start
            if not min_gap <= gap <= max_gap:
                continue
            run, step = [start, second], gap
            while True:
                nxt = [p for p in peaks if _STEADY[0] * step <= p - run[-1] <= _STEADY[1] * step]
                if not nxt:
                    break
                best = min(nxt, key=lambda p: abs(p - run[-1] - step))
                step = best - run[-1]
                run.append(best)
            runs.append((float(gap), run))
    return runs


def _lattice_lines(web: np.ndarray, size: int) -> tuple[int, int]:
    """Evenly spaced lines (across, down) in a straightened web, similar spacing both ways."""
    web = cv2.dilate(web, np.ones((3, 3), np.uint8))
    min_gap, max_gap = _GAP_RANGE[0] * size, _GAP_RANGE[1] * size
    across = _chains(_peaks(web.mean(axis=0), min_gap), min_gap, max_gap)
    down = _chains(_peaks(web.mean(axis=1), min_gap), min_gap, max_gap)
    best, key = (0, 0), (0, 0)
    for gap_x, run_x in across:
        for gap_y, run_y in down:
            if not 0.6 < gap_x / gap_y < 1.6:
                continue
            rank = (min(len(run_x), len(run_y)), len(run_x) + len(run_y))
            if rank > key:
                key, best = rank, (len(run_x), len(run_y))
    return best


def _straightened(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The web turned upright by its minimum-area rectangle and cropped to it; the rectangle."""
    rect = cv2.minAreaRect(cv2.findNonZero(mask))
    (cx, cy), (w, h), angle = rect
    turn = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    turn[:, 2] += [w / 2 - cx, h / 2 - cy]
    upright = cv2.warpAffine(mask, turn, (int(w) + 1, int(h) + 1), flags=cv2.INTER_NEAREST)
    return upright, cv2.boxPoints(rect)


def _crossed_edges(lines: np.ndarray) -> list[str]:
    """Photo edges crossed by at least 3 separate dark lines of ``lines`` (a lattice running
    off the photo crosses its edge many times; a shadow or a pen touching it, once)."""
    strips = {"top": lines[:3].any(axis=0), "right": lines[:, -3:].any(axis=1),
              "bottom": lines[-3:].any(axis=0), "left": lines[:, :3].any(axis=1)}
    crossed = []
    for edge in PHOTO_EDGES:
        strip = strips[edge].astype(np.int8)
        starts = int((np.diff(strip) == 1).sum()) + int(strip[0])
        if starts >= _MIN_LINES:
            crossed.append(edge)
    return crossed


def find_cut_board(image: np.ndarray, webs: int = 4,
                   skin: SkinParams | None = SKIN) -> CutBoard | None:
    """A piece of board lattice running off the photo (BGR image), or None.

    The skin-coloured blobs that reach the photo's edge (``skin``; vision.locate.skin) are
    left out of the dark lines first: an arm reaching in onto a whole board would join the
    board's lines into one web that crosses the edge."""
    small, gray, scale = working_images(image)
    h, w = gray.shape
    size = max(h, w)
    block = threshold_block(gray)
    binary = dark_lines(gray, block)
    if skin is not None and skin.enabled:
        binary &= 1 - from_the_edges(skin_mask(small, block, skin))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    largest = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:webs] + 1
    found: list[tuple[tuple[int, int], CutBoard]] = []
    for label in largest:
        x, y, width, height = stats[label, :4]
        if width < _MIN_EXTENT * w and height < _MIN_EXTENT * h:
            continue
        if x > 0 and y > 0 and x + width < w and y + height < h:
            continue  # does not reach the photo's edge
        mask = (labels == label).astype(np.uint8)
        # all dark lines inside the web's outline: faint lattice lines often break away
        # from the frame in the threshold
        outline = np.zeros_like(mask)
        cv2.fillConvexPoly(outline, cv2.convexHull(cv2.findNonZero(mask)), 1)
        lines = outline & binary
        edges = _crossed_edges(lines)
        if not 1 <= len(edges) <= 2:
            continue
        for web in (mask, lines):
            upright, box = _straightened(web)
            across, down = _lattice_lines(upright, size)
            if _MIN_LINES <= min(across, down) and max(across, down) <= _MAX_LINES:
                piece = CutBoard(edges, across, down, (box / scale).astype(np.float32))
                found.append(((min(across, down), across + down), piece))
                break
    if not found:
        return None
    return max(found, key=lambda item: item[0])[1]


def cut_edges(image: np.ndarray, fit: LatticeFit | None, readable: bool) -> list[str]:
    """The photo edges the photo's board runs off (empty if it is whole, or if unsure).

    ``fit`` is the locator's best lattice; ``readable``: whether it is good enough to read.
    A readable lattice is cut if it reaches past the photo's edge, if its lines run on to the
    photo's edge, or if it is doubtful and overlaps a cut piece. When nothing readable was
    found, any cut piece counts (even a second sheet's: then the advice to retake the photo
    is still the useful one).
    """
    if readable:
        if fit.runs_off:
            return fit.runs_off
        beyond = _edges_passed(fit.corners, image.shape[:2])
        if beyond:
            return beyond
        doubtful = (fit.confidence < UNSURE or (fit.confidence < SURE and fit.runs_on)
                    or fit.runs_on >= 3)
        if not doubtful:
            return []
        cut = find_cut_board(image)
        return cut.edges if cut is not None and _overlap(fit.corners, cut) else []
    cut = find_cut_board(image)
    return cut.edges if cut is not None else []


def _edges_passed(corners: np.ndarray, shape: tuple[int, int]) -> list[str]:
    """Photo edges that the lattice ``corners`` reach past by more than a third of a space
    (a whole board's lattice lies inside its paper, inside the photo)."""
    h, w = shape
    space = space_side(corners)
    slack = space / 3
    x, y = corners[:, 0], corners[:, 1]
    passed = {"top": y.min() < -slack, "right": x.max() > w - 1 + slack,
              "bottom": y.max() > h - 1 + slack, "left": x.min() < -slack}
    return [edge for edge in PHOTO_EDGES if passed[edge]]


def _overlap(corners: np.ndarray, cut: CutBoard) -> bool:
    """Whether a found lattice and a cut piece overlap by half of the smaller."""
    quad = corners.astype(np.float32).reshape(-1, 1, 2)
    piece = cut.outline.astype(np.float32).reshape(-1, 1, 2)
    area, _ = cv2.intersectConvexConvex(quad, piece)
    return area > 0.5 * min(cv2.contourArea(quad), cv2.contourArea(piece))
