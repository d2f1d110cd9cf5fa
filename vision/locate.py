"""Find the board's 7 x 7 printed lattice in a photo (up to which corner is the board's top).

1. Candidates: contours of dark lines (adaptive threshold after dividing out the
   large-scale brightness) that simplify to a convex quadrilateral - the thick frame, the
   paper edge, panels. Until some guess is sure, more maps add candidates: a more sensitive
   threshold, then the map eroded (which parts a frame from what thin lines join it to).
2. Guesses: each candidate itself, and 8-line combs fitted inside it (straightened) to the
   "line coverage" profiles in x and y. Coverage (the fraction of a column that is dark)
   favours long printed lines over drawn routes, which also make lines but offset by half a
   space and rarely across the whole board. The best guesses are also tried one space off.
3. Score (``lattice_score``): complete inner lines, a frame on all four sides, Exit marks
   beside the 2nd/4th/6th spaces of every side, few lines half a space off.
4. Refinement: intersections snapped with a cross filter, homography refitted by RANSAC
   (kept only if it scores better); then each side is moved from the middle of the thick
   frame onto its inner edge, which is the lattice boundary.
5. A small board is searched again on a crop around it, at a finer scale.

Corners come back in clockwise image order; ``vision.orient`` decides which one is the
board's top-left.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.crops import darkest_channel
from vision.rectify import GRID

WORK_SIDE = 1000  # the locator works on an image with this long side (or smaller)
_FIT_CELL = 16  # cell size (px) of the flat views used for fitting
_MIN_AREA = 0.015  # candidate area as a fraction of the working image
ZOOM_GAIN = 1.5  # a small board is searched again if its crop is this much finer
SURE_SCORE = 0.9  # a guess scoring this (confidence 1) needs no more candidates
# A lattice is a square seen at up to about 45 degrees, and large in the photo (board-spec 3:
# the board fills at least about a third of the frame; held-out renders: lattice sides from
# 0.17 of the photo's long side, side ratios up to 1.26). A guess outside these is some other
# pattern: one space of the lattice, a few columns of a board cut by the photo's edge.
MIN_LATTICE_SIDE = 0.12  # of the photo's long side
MAX_LATTICE_ASPECT = 1.6  # longer pair of opposite sides over the shorter pair
PHOTO_EDGES = ("top", "right", "bottom", "left")


@dataclass
class LatticeFit:
    """A lattice found in the photo."""

    corners: np.ndarray  # (4, 2) float32, photo pixels, clockwise from the top-left-most
    score: float  # line agreement: coverage on lattice lines minus on half-offsets
    confidence: float  # 0..1
    runs_on: int = 0  # sides past which the printed lines go on, gaps clear (lattice_runs_on)
    runs_off: list[str] = field(default_factory=list)  # photo edges they go on to


def dark_lines(gray: np.ndarray, block: int, contrast: int = 6) -> np.ndarray:
    """Binary map (0/1) of pixels darker than their surroundings.

    The image is first divided by its large-scale brightness, so a line keeps its contrast
    under glare and in shadow.
    """
    light = cv2.blur(gray.astype(np.float32), (3 * block, 3 * block)) + 1.0
    even = np.clip(gray * (160.0 / light), 0, 255).astype(np.uint8)
    return cv2.adaptiveThreshold(even, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 block | 1, contrast)


def _quads_from_contour(contour: np.ndarray, shape: tuple[int, ...]
                        ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The convex quadrilateral a contour's hull outlines, and an extended one (or None).

    The hull is simplified ever more coarsely until it has 4 corners; if it never does, its
    4 longest sides, extended to meet, give the quadrilateral. A frame merged with something
    beside it (a score box, an Exit mark, a pen), or whose corner a drawn route cuts off the
    hole inside it, has a hull with a corner cut off, which coarse simplification keeps as a
    corner moved inwards: so the 4 longest sides of the finely simplified hull, extended to
    meet, are the second answer, unless one of them runs along the photo's edge (a board cut
    by the edge, not a frame).
    """
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    polygon = cv2.approxPolyDP(hull, 0.01 * perimeter, True).reshape(-1, 2).astype(np.float64)
    extended = _four_longest_sides(polygon, cv2.contourArea(hull)) if len(polygon) > 4 else None
    for eps in (0.01, 0.02, 0.035, 0.05, 0.08, 0.11, 0.14):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            if not cv2.isContourConvex(approx):
                return None, None
            if extended is not None and _side_on_photo_edge(extended, shape):
                extended = None
            return approx.reshape(4, 2).astype(np.float32), extended
        if len(approx) < 4:
            break
    return extended, None


def _side_on_photo_edge(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a side of ``quad`` lies along an edge of an image of ``shape`` (2 px)."""
    h, w = shape[:2]
    ends = [(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    return any(max(a[k], b[k]) < 2 or min(a[k], b[k]) > limit - 3
               for a, b in ends for k, limit in ((0, w), (1, h)))


def _four_longest_sides(polygon: np.ndarray, area: float) -> np.ndarray | None:
    """The quadrilateral of a convex polygon's 4 longest sides, extended to meet; None if
    it is not convex or much larger than the polygon (the sides were not a frame's)."""
    n = len(polygon)
    lengths = np.linalg.norm(np.roll(polygon, -1, axis=0) - polygon, axis=1)
    sides = sorted(np.argsort(lengths)[-4:])  # kept in their order round the polygon
    corners = []
    for a, b in zip(sides, sides[1:] + sides[:1], strict=True):
        a0, a1 = polygon[a], polygon[(a + 1) % n]
        b0, b1 = polygon[b], polygon[(b + 1) % n]
        d_a, d_b = a1 - a0, b1 - b0
        denom = d_a[0] * d_b[1] - d_a[1] * d_b[0]
        if abs(denom) < 1e-9:
            return None
        t = ((b0 - a0)[0] * d_b[1] - (b0 - a0)[1] * d_b[0]) / denom
        corners.append(a0 + t * d_a)
    quad = np.array(corners, np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)) or cv2.contourArea(quad) > 1.2 * area:
        return None
    return quad


def _candidates(binary: np.ndarray, limit: int = 8) -> tuple[list[np.ndarray],
                                                            list[np.ndarray]]:
    """Quadrilaterals from large contours, largest first: their outlines, and the extended
    outlines of those with a corner cut off (see _quads_from_contour)."""
    h, w = binary.shape
    min_area = _MIN_AREA * h * w
    # A contour lies within its component's bounding box: drop components whose box is too
    # small to hold a candidate (textured backgrounds make many thousands of them).
    _, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    keep = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT] > min_area
    keep[0] = False
    large = keep[labels].astype(np.uint8)
    contours, _ = cv2.findContours(large, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > min_area]
    big.sort(key=cv2.contourArea, reverse=True)
    outlines: list[np.ndarray] = []
    extended: list[np.ndarray] = []

    def add(quad: np.ndarray | None, to: list[np.ndarray]) -> None:
        if quad is None or len(to) >= limit:
            return
        quad = _clockwise(quad)
        sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
        if min(sides) < 0.25 * max(sides):
            return
        if any(np.abs(quad - q).max() < 0.01 * max(h, w) for q in outlines + extended):
            return
        to.append(quad)

    for contour in big[:40]:
        outline, longer = _quads_from_contour(contour, binary.shape)
        add(outline, outlines)
        add(longer, extended)
        if len(outlines) >= limit:
            break
    return outlines, extended


def _clockwise(quad: np.ndarray) -> np.ndarray:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    return np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0).astype(np.float32)


def _coverage_profiles(binary_flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fraction of each column / row that is dark, tolerant to 1 px misalignment."""
    widened_x = cv2.dilate(binary_flat, np.ones((1, 3), np.uint8))
    widened_y = cv2.dilate(binary_flat, np.ones((3, 1), np.uint8))
    return widened_x.mean(axis=0), widened_y.mean(axis=1)


def _fit_combs(profile: np.ndarray, min_step: float, max_step: float, keep: int = 3
               ) -> list[tuple[float, float, float]]:
    """The best few (offset, step, score) of 8 teeth on ``profile`` against 7 half-offsets.

    Distinct combs only (differing in offset or span by more than half a tooth spacing).
    """
    n = len(profile)
    steps = np.arange(min_step, max_step, 0.4, dtype=np.float32)
    offsets = np.arange(0, n, 1.0, dtype=np.float32)
    k = np.arange(GRID + 1, dtype=np.float32)
    # (steps, offsets, teeth) positions, rounded to whole pixels
    teeth = offsets[None, :, None] + steps[:, None, None] * k[None, None, :]
    gaps = teeth[:, :, :-1] + steps[:, None, None] / 2
    valid = teeth[:, :, -1] < n - 1
    last = n - 1
    on_all = profile[np.minimum(np.rint(teeth).astype(np.int32), last)]
    off_all = profile[np.minimum(np.rint(gaps).astype(np.int32), last)]
    # Printed lines run the whole way: the second-weakest tooth decides. Drawn routes
    # (half a space off) are often nearly as long on a full board, so they weigh less.
    on = np.partition(on_all, 1, axis=2)[:, :, 1]
    off = np.partition(off_all, GRID // 2, axis=2)[:, :, GRID // 2]
    score = on - 0.25 * off + 0.1 * steps[:, None] / max_step
    score[~valid] = -np.inf
    found: list[tuple[float, float, float]] = []
    for si in range(len(steps)):
        for oi in np.argsort(score[si])[::-1][:3]:
            if np.isfinite(score[si, oi]):
                found.append((float(offsets[oi]), float(steps[si]), float(score[si, oi])))
    found.sort(key=lambda f: -f[2])
    chosen: list[tuple[float, float, float]] = []
    for offset, step, score in found:
        if all(abs(offset - o) > s / 2 or abs(offset + GRID * step - o - GRID * s) > s / 2
               for o, s, _ in chosen):
            chosen.append((offset, step, score))
            if len(chosen) == keep:
                break
    return chosen


def _flat_view(image: np.ndarray, quad: np.ndarray, inner_px: float, pad_px: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Warp ``quad`` onto a square of ``inner_px`` with ``pad_px`` around; return image, H."""
    size = round(inner_px + 2 * pad_px)
    lo, hi = pad_px, pad_px + inner_px
    dst = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)
    h_mat = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    flat = cv2.warpPerspective(image, h_mat, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return flat, h_mat


def _to_photo(h_mat: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.linalg.inv(h_mat)).reshape(-1, 2)


def _comb_lattices(binary: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """Lattice corner guesses inside a candidate quadrilateral, from 8-line combs in x and y."""
    inner = GRID * _FIT_CELL * 1.5
    pad = 0.08 * inner
    flat, h_mat = _flat_view(binary, quad, inner, pad)
    col, row = _coverage_profiles(flat)
    lo, hi = 0.3 * inner / GRID, 1.12 * inner / GRID
    # The candidate may itself be the thick frame: try it as is and slightly shrunk.
    guesses = [_to_photo(h_mat, np.array([[pad + d, pad + d], [pad + inner - d, pad + d],
                                          [pad + inner - d, pad + inner - d],
                                          [pad + d, pad + inner - d]]))
               for d in (0.0, 0.08 * inner / GRID)]
    row_combs = _fit_combs(row, lo, hi)
    for x0, xs, _ in _fit_combs(col, lo, hi):
        for y0, ys, _ in row_combs:
            if max(xs, ys) > 1.35 * min(xs, ys):
                continue
            x1, y1 = x0 + GRID * xs, y0 + GRID * ys
            guesses.append(_to_photo(h_mat, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])))
    # Where the lattice's inner lines are too faint for a comb, the frame alone may show:
    # the strongest line near each side of the candidate.
    x0, x1 = _outer_lines(col, pad, inner)
    y0, y1 = _outer_lines(row, pad, inner)
    guesses.append(_to_photo(h_mat, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])))
    return guesses


def _outer_lines(profile: np.ndarray, pad: float, inner: float) -> tuple[float, float]:
    """The best-covered positions in a candidate's straightened coverage ``profile`` between
    a third of a space and a quarter of the lattice inside each of its ends (the candidate's
    own outline, tried as it is elsewhere, is left out)."""
    near, far = int(pad + 0.3 * inner / GRID), int(pad + 0.25 * inner)
    first = near + int(np.argmax(profile[near:far]))
    n = len(profile)
    last = n - far + int(np.argmax(profile[n - far:n - near]))
    return float(first), float(last)


def _cross_response(dark: np.ndarray, cell: int) -> np.ndarray:
    """High where a vertical and a horizontal line cross (long thin lines both ways)."""
    length = max(3, int(0.7 * cell))
    vertical = cv2.blur(dark, (3, length))
    horizontal = cv2.blur(dark, (length, 3))
    return vertical * horizontal


def _refine(binary: np.ndarray, corners: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Snap to the lattice intersections and refit the homography (RANSAC)."""
    cell = 2 * _FIT_CELL
    inner = GRID * cell
    pad = cell
    ideal = np.array([[pad + j * cell, pad + i * cell] for i in range(GRID + 1)
                      for j in range(GRID + 1)], np.float32)
    inner_idx = [i * (GRID + 1) + j for i in range(1, GRID) for j in range(1, GRID)]
    radius = int(0.3 * cell)
    for _ in range(rounds):
        flat, h_mat = _flat_view(binary, corners, inner, pad)
        response = _cross_response(flat.astype(np.float32), cell)
        found, wanted = [], []
        for k in inner_idx:
            x, y = ideal[k].astype(int)
            window = response[y - radius:y + radius + 1, x - radius:x + radius + 1]
            if window.size == 0 or window.max() < 0.05:
                continue
            dy, dx = np.unravel_index(int(np.argmax(window)), window.shape)
            found.append([x - radius + dx, y - radius + dy])
            wanted.append(ideal[k])
        if len(found) < 12:
            break
        fit, mask = cv2.findHomography(np.array(wanted, np.float32), np.array(found, np.float32),
                                       cv2.RANSAC, 0.12 * cell)
        if fit is None or mask.sum() < 12:
            break
        lattice = ideal[[0, GRID, (GRID + 1) ** 2 - 1, GRID * (GRID + 1)]]
        moved = cv2.perspectiveTransform(lattice.reshape(-1, 1, 2), fit).reshape(-1, 2)
        corners = _to_photo(h_mat, moved)
    return corners.astype(np.float32)


def snap_to_frame(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Move each side of the lattice onto the inner edge of the thick printed frame.

    Line fits land on the middle of the frame; the lattice boundary is its inner edge. On a
    straightened view, each side's darkness profile across the frame is followed from its
    darkest point inward to where it falls half way to the paper.
    """
    cell = 2 * _FIT_CELL
    pad = cell // 2
    flat, h_mat = _flat_view(gray, corners, GRID * cell, pad)
    dark = 255.0 - flat.astype(np.float32)
    lo, hi = pad + cell, pad + (GRID - 1) * cell  # middle of each side, clear of corners
    reach = int(0.3 * cell)
    end = pad + GRID * cell
    # profiles running inward from outside, one per side (N, E, S, W)
    profiles = [dark[pad - reach:pad + reach, lo:hi].mean(axis=1),
                dark[lo:hi, end - reach:end + reach].mean(axis=0)[::-1],
                dark[end - reach:end + reach, lo:hi].mean(axis=1)[::-1],
                dark[lo:hi, pad - reach:pad + reach].mean(axis=0)]
    shifts = []
    for profile in profiles:
        peak = int(np.argmax(profile))
        inside = float(np.median(profile[reach + 2:]))
        half = (profile[peak] + inside) / 2
        edge = peak
        while edge + 1 < len(profile) and profile[edge + 1] > half:
            edge += 1
        contrast = profile[peak] - inside
        # inward shift from the current side, in flat pixels (0 when there is no clear frame)
        shifts.append(float(edge + 0.5 - reach) if contrast > 25 else 0.0)
    n, e, s_, w = shifts
    x0, y0, x1, y1 = pad + w, pad + n, end - e, end - s_
    return _to_photo(h_mat, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])).astype(np.float32)


def lattice_score(binary: np.ndarray, corners: np.ndarray) -> float:
    """How well ``corners`` sit on a printed 8 x 8-line lattice inside a frame.

    Rewards: every inner line covered along the whole lattice (second-weakest of the 12),
    all four frame sides present, and Exit marks just outside the frame at the 2nd, 4th and
    6th space of every side but not beside the others (a lattice shifted by whole spaces
    has routes there instead). Penalises lines half a space off the lattice (drawn routes).
    """
    cell = _FIT_CELL
    flat, _ = _flat_view(binary, corners, GRID * cell, cell)
    span = slice(cell, cell + GRID * cell)
    col = _coverage_profiles(flat[span])[0]  # full width, rows of the lattice
    row = _coverage_profiles(flat[:, span])[1]

    lines = cell + np.arange(GRID + 1) * cell  # whole pixels: cell is an integer
    gaps = lines[:-1] + cell // 2
    inner = np.concatenate([col[lines[1:-1]], row[lines[1:-1]]])
    frame = [profile[at - 2:at + 3].max() for profile in (col, row) for at in lines[[0, -1]]]
    off = np.concatenate([col[gaps], row[gaps]])
    return float(0.5 * (np.sort(inner)[1] + min(frame)) - 0.25 * np.median(off)
                 + 1.0 * exit_marks_contrast(flat.astype(np.float32), cell, cell))


def lattice_runs_on(binary: np.ndarray, corners: np.ndarray, clear_gaps: bool = False) -> int:
    """How many sides of ``corners`` the lattice's inner lines run on past, by most of a space.

    Past a real frame lies the margin: Exit marks sit beside the middle of spaces, not on the
    lines, so the 6 inner lines stop at the frame. A side past which most of them go on is
    not the frame: the lattice found is a part of a larger one (a board cut by the photo's
    edge, or a fit one space off). ``clear_gaps``: see ``_lines_go_on``.
    """
    cell = _FIT_CELL
    flat, _ = _flat_view(binary, corners, GRID * cell, cell)
    flat = cv2.dilate(flat, np.ones((3, 3), np.uint8)).astype(np.float32)
    seen = np.ones_like(flat)
    near, far = cell // 5, cell - cell // 5  # the band past the frame, in from the edge
    return sum(int(_lines_go_on(flat, seen, cell, cell, side, near, far, clear_gaps))
               for side in range(4))


def _lines_go_on(flat: np.ndarray, seen: np.ndarray, cell: int, pad: int, side: int,
                 near: int, far: int, clear_gaps: bool = False) -> bool:
    """Whether the inner lattice lines go on through the band ``near``..``far`` pixels out
    from ``side`` (0 top, 1 right, 2 bottom, 3 left) of a straightened view: at least 5 of
    the 6 lines mostly dark there; with ``clear_gaps`` also most of the gaps between them
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

    if (coverage(lines) > 0.7).sum() < 5:
        return False
    return not clear_gaps or float(np.median(coverage(gaps))) < 0.5


def lattice_runs_off(binary: np.ndarray, corners: np.ndarray, reach: int = 4) -> list[str]:
    """The photo edges (top, right, bottom, left) that the lattice's lines run on to.

    Past each side of ``corners``, space after space outward, the 6 inner lines are followed
    while most of them go on; a side whose lines go on until the photo ends (within
    ``reach`` spaces) is where the board runs off the photo. A whole board's lines stop at
    its frame, so this is empty for it.
    """
    cell, pad = _FIT_CELL, reach * _FIT_CELL
    flat, h_mat = _flat_view(binary, corners, GRID * cell, pad)
    flat = cv2.dilate(flat, np.ones((3, 3), np.uint8)).astype(np.float32)
    seen = _flat_view(np.ones_like(binary), corners, GRID * cell, pad)[0].astype(np.float32)
    end, middle = pad + GRID * cell, pad + GRID * cell / 2
    h, w = binary.shape
    edges = []
    for side in range(4):  # the sides from corners[0]->[1], [1]->[2], [2]->[3], [3]->[0]
        for j in range(reach):  # the band j spaces out
            near, far = j * cell + cell // 5, (j + 1) * cell - cell // 5
            band = [slice(pad - far, pad - near), slice(end + near, end + far)][side in (1, 2)]
            in_photo = seen[band].mean() if side in (0, 2) else seen[:, band].mean()
            if in_photo < 0.5:  # the photo ends here, and the lines went on until it did
                if j > 0:
                    out = (j + 0.5) * cell
                    point = [(middle, pad - out), (end + out, middle), (middle, end + out),
                             (pad - out, middle)][side]
                    x, y = _to_photo(h_mat, np.array([point]))[0]
                    nearest = int(np.argmin([y, w - 1 - x, h - 1 - y, x]))
                    edges.append(PHOTO_EDGES[nearest])
                break
            if not _lines_go_on(flat, seen, cell, pad, side, near, far, clear_gaps=True):
                break
    return [edge for edge in PHOTO_EDGES if edge in edges]


def exit_box_means(image: np.ndarray, cell: int, pad: int) -> np.ndarray:
    """Mean of ``image`` just outside the frame beside each space: (4 sides N E S W, 7).

    ``image`` is a straightened board with the lattice ``7 * cell`` square at ``pad``.
    The boxes reach from 0.12 to 0.6 spaces out, across the middle half of each space;
    positions run clockwise round the board (N left to right, E top to bottom, S right to
    left, W bottom to top), so a quarter turn of the board is a roll of the sides.
    """
    near, far = pad - int(0.6 * cell), pad - int(0.12 * cell)
    k = np.arange(GRID)
    lo = pad + ((k + 0.25) * cell).astype(int)
    hi = pad + ((k + 0.75) * cell).astype(int)
    end = pad + GRID * cell
    top, bottom = (near, far), (end + pad - far, end + pad - near)
    sums = cv2.integral(np.ascontiguousarray(image, dtype=np.float64))

    def box_means(y0, y1, x0, x1) -> np.ndarray:
        """Means of the boxes [y0, y1) x [x0, x1) (arrays broadcast) from the integral."""
        total = sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]
        return total / ((y1 - y0) * (x1 - x0))

    return np.stack([
        box_means(top[0], top[1], lo, hi),  # N, left to right
        box_means(lo, hi, bottom[0], bottom[1]),  # E, top to bottom
        box_means(bottom[0], bottom[1], lo, hi)[::-1],  # S, right to left
        box_means(lo, hi, top[0], top[1])[::-1],  # W, bottom to top
    ])


def exit_marks_contrast(image: np.ndarray, cell: int, pad: int) -> float:
    """Mean darkness beside the Exit spaces (2nd, 4th, 6th) minus beside the others."""
    boxes = exit_box_means(image, cell, pad)
    return float(boxes[:, 1::2].mean() - boxes[:, 0::2].mean())


def _confidence(score: float) -> float:
    """Map the lattice score to 0..1: real boards score about 0.8 and up, textures and
    lattice-less clutter about 0.5 and below."""
    return float(np.clip((score - 0.5) / 0.3, 0.0, 1.0))


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """Grayscale (darkest channel) image with long side <= WORK_SIDE, and its scale."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    interpolation = cv2.INTER_AREA if scale < 0.6 else cv2.INTER_LINEAR
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                   interpolation=interpolation)
    return np.ascontiguousarray(darkest_channel(small)), scale


def _shift(corners: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The lattice moved by whole spaces (dx right, dy down, in its own grid)."""
    unit = np.array([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]], np.float32)
    h_mat = cv2.getPerspectiveTransform(unit, corners.astype(np.float32))
    moved = (unit + np.array([dx, dy], np.float32)).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(moved, h_mat).reshape(-1, 2)


def _locate_in(image: np.ndarray, min_side: float) -> LatticeFit | None:
    """One pass of the locator on ``image`` (reduced to the working size); photo pixels.
    Lattices with a side shorter than ``min_side`` (pixels of ``image``) are not considered."""
    gray, scale = working_image(image)
    min_side *= scale
    block = max(15, int(max(gray.shape) / 45))
    binary = dark_lines(gray, block)
    quads: list[np.ndarray] = []
    guesses: list[np.ndarray] = []
    scores: list[float] = []
    sure = False
    for source in _candidate_maps(gray, block, binary):  # each map is made only if needed
        for group in _candidates(source):  # outlines, then extended outlines if still unsure
            for quad in group:
                # Only exact repeats are skipped: a comb can fit a quad moved by one pixel
                # better.
                if all(np.abs(quad - q).max() > 0 for q in quads):
                    quads.append(quad)
                    extra = [g for g in _comb_lattices(binary, quad)
                             if _plausible(g, min_side)]
                    guesses += extra
                    scores += [lattice_score(binary, g) for g in extra]
            sure = max(scores, default=0.0) >= SURE_SCORE
            if sure:
                break
        if sure:
            break  # a guess is already sure: no need for more candidates
    ranked = [guesses[i] for i in np.argsort(scores)[::-1][:4]]
    # A comb can lock on one space off (a line of Exit marks or panel boxes looks like one
    # more lattice line); try the best guesses shifted by a whole space too.
    shifted = [_shift(g, dx, dy) for g in ranked[:2] for dx in (-1, 0, 1) for dy in (-1, 0, 1)
               if dx or dy]
    shifted = sorted(shifted, key=lambda g: -lattice_score(binary, g))[:2]
    best: LatticeFit | None = None
    for guess in ranked + shifted:
        for corners in (guess, _refine(binary, guess)):
            if not _plausible(corners, min_side):
                continue
            score = lattice_score(binary, corners)
            if best is None or score > best.score:
                best = LatticeFit(corners=corners, score=score, confidence=_confidence(score))
    if best is None:
        return None
    best.runs_on = lattice_runs_on(binary, best.corners)
    if best.runs_on:
        best = _resettle(binary, best, min_side)
    if best.runs_on:  # still: is it a board cut by the photo's edge?
        best.runs_on = lattice_runs_on(binary, best.corners, clear_gaps=True)
        best.runs_off = lattice_runs_off(binary, best.corners)
    best.corners = (snap_to_frame(gray, best.corners) / scale).astype(np.float32)
    return best


def _plausible(corners: np.ndarray, min_side: float) -> bool:
    """Whether ``corners`` could outline a board's lattice: square enough, sides long enough."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    pairs = sorted((sides[0] + sides[2], sides[1] + sides[3]))
    return sides.min() >= min_side and pairs[1] <= MAX_LATTICE_ASPECT * pairs[0]


def _candidate_maps(gray: np.ndarray, block: int, binary: np.ndarray) -> Iterator[np.ndarray]:
    """Binary maps to take candidate outlines from, in the order they are tried.

    First the usual map. Faint or glare-washed frames break up at the usual threshold, so
    next a more sensitive one. Then the usual map eroded by 2, 3 and 4 px: a frame joined to
    its surroundings by thin lines (the lattice to the Exit marks, the paper edge, a panel, a
    second sheet) comes apart from them, and the thin lattice lines inside it vanish, so the
    inside of the thicker frame becomes one hole whose outline is the lattice's.
    All candidates are judged on the usual map.
    """
    yield binary
    yield dark_lines(gray, block, contrast=3)
    for size in (2, 3, 4):
        yield cv2.erode(binary, np.ones((size, size), np.uint8))


def _resettle(binary: np.ndarray, fit: LatticeFit, min_side: float) -> LatticeFit:
    """A fit whose lines run on past a side may be part of a larger lattice: try it moved by
    up to two spaces each way (inside the image); keep a move whose lines run on past fewer
    sides and that scores at least as well (the fewest such sides, then the best score)."""
    h, w = binary.shape
    best, best_key = fit, (fit.runs_on, -fit.score)
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            if not (dx or dy):
                continue
            moved = _shift(fit.corners, dx, dy)
            for corners in (moved, _refine(binary, moved)):
                if corners.min() < 0 or (corners[:, 0] > w - 1).any() or \
                        (corners[:, 1] > h - 1).any() or not _plausible(corners, min_side):
                    continue
                score = lattice_score(binary, corners)
                if score < fit.score:
                    continue
                key = (lattice_runs_on(binary, corners), -score)
                if key < best_key:
                    best_key = key
                    best = LatticeFit(corners=corners, score=score,
                                      confidence=_confidence(score), runs_on=key[0])
    return best


def find_lattice(image: np.ndarray) -> LatticeFit | None:
    """The best-agreeing 7 x 7 lattice in a BGR photo, or None when none is found.

    When the board is small in the photo, the locator runs again on a crop around it, at a
    finer scale (at least ZOOM_GAIN times finer), and keeps that result if it agrees better.
    """
    h, w = image.shape[:2]
    min_side = MIN_LATTICE_SIDE * max(h, w)
    fit = _locate_in(image, min_side)
    if fit is None:
        return None
    lo, hi = fit.corners.min(axis=0), fit.corners.max(axis=0)
    extent = float((hi - lo).max())
    margin = 0.6 * extent
    x0, y0 = np.maximum(lo - margin, 0).astype(int)
    x1, y1 = np.minimum(hi + margin, [w, h]).astype(int)
    # Worth a second pass only if the crop is seen at least ZOOM_GAIN times finer.
    finer = max(h, w) / max(x1 - x0, y1 - y0, WORK_SIDE)
    if finer >= ZOOM_GAIN:
        zoomed = _locate_in(image[y0:y1, x0:x1], min_side)
        if zoomed is not None and zoomed.score > fit.score:
            zoomed.corners = (zoomed.corners + [x0, y0]).astype(np.float32)
            at_photo_edge = {"top": y0 == 0, "right": x1 == w, "bottom": y1 == h, "left": x0 == 0}
            zoomed.runs_off = [edge for edge in zoomed.runs_off if at_photo_edge[edge]]
            return zoomed
    return fit
