"""Candidate outlines of the lattice: threshold maps of dark lines, their contours, and the
convex quadrilaterals those simplify to (the thick frame, the paper edge, panels).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import cv2
import numpy as np

from vision.crops import darkest_channel
from vision.locate.params import CandidateParams, SkinParams
from vision.locate.skin import skin_mask

DEFAULT = CandidateParams()


def working_images(image: np.ndarray, params: CandidateParams = DEFAULT
                   ) -> tuple[np.ndarray, np.ndarray, float]:
    """The BGR photo shrunk to a long side <= ``work_side``, its darkest channel (the grey
    image the locator works on), and the scale.

    The photo is shrunk before its darkest channel is taken: taking it first (a third of the
    shrinking's work) lost the lattice on some phone photos (docs/VISION.md, "Speed")."""
    h, w = image.shape[:2]
    scale = min(1.0, params.work_side / max(h, w))
    interpolation = cv2.INTER_AREA if scale < 0.6 else cv2.INTER_LINEAR
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                   interpolation=interpolation)
    return small, np.ascontiguousarray(darkest_channel(small)), scale


def threshold_block(gray: np.ndarray, params: CandidateParams = DEFAULT) -> int:
    """The adaptive threshold's block size for a working image."""
    return max(params.min_block, int(max(gray.shape) / params.block_divisor))


def dark_lines(gray: np.ndarray, block: int, contrast: int = DEFAULT.contrast,
               params: CandidateParams = DEFAULT) -> np.ndarray:
    """Binary map (0/1) of pixels darker than their surroundings.

    The image is first divided by its large-scale brightness, so a line keeps its contrast
    under glare and in shadow.
    """
    reach = params.brightness_blocks * block
    light = cv2.blur(gray.astype(np.float32), (reach, reach)) + 1.0
    even = np.clip(gray * (params.paper_level / light), 0, 255).astype(np.uint8)
    return cv2.adaptiveThreshold(even, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 block | 1, contrast)


def candidate_maps(gray: np.ndarray, block: int, binary: np.ndarray,
                   params: CandidateParams) -> Iterator[np.ndarray]:
    """Binary maps to take candidate outlines from, in the order they are tried.

    First the usual map. Faint or glare-washed frames break up at the usual threshold, so
    next a more sensitive one. Then the usual map eroded by 2, 3 and 4 px: a frame joined to
    its surroundings by thin lines (the lattice to the Exit marks, the paper edge, a panel, a
    second sheet) comes apart from them, and the thin lattice lines inside it vanish, so the
    inside of the thicker frame becomes one hole whose outline is the lattice's.
    All candidates are judged on the usual map.
    """
    yield binary
    yield dark_lines(gray, block, params.sensitive_contrast, params)
    for size in params.erosions:
        yield cv2.erode(binary, np.ones((size, size), np.uint8))


def skin_free_maps(binary: np.ndarray, colour: np.ndarray, block: int,
                   params: CandidateParams, skin: SkinParams) -> Iterator[np.ndarray]:
    """The usual map and its first two erosions with the skin-coloured blobs of ``colour``
    (the working image in BGR, vision.locate.skin) left out: a hand over the frame joins
    its outline to the frame's, and the frame's contour takes in the hand. Nothing when the
    photo shows no skin."""
    hand = skin_mask(colour, block, skin)
    if not hand.any():
        return
    free = binary & (1 - hand)
    yield free
    for size in params.erosions[:2]:
        yield cv2.erode(free, np.ones((size, size), np.uint8))


def candidates(binary: np.ndarray, params: CandidateParams
               ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Quadrilaterals from large contours, largest first: their outlines, and the extended
    outlines of those with a corner cut off (see ``_quads_from_contour``)."""
    h, w = binary.shape
    min_area = params.min_area * h * w
    contours, _ = cv2.findContours(large_components(binary, min_area), cv2.RETR_LIST,
                                   cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) > min_area]
    big.sort(key=cv2.contourArea, reverse=True)
    outlines: list[np.ndarray] = []
    extended: list[np.ndarray] = []

    def add(quad: np.ndarray | None, to: list[np.ndarray]) -> None:
        if quad is None or len(to) >= params.per_map:
            return
        quad = clockwise(quad)
        sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
        if min(sides) < params.min_side_ratio * max(sides):
            return
        if any(np.abs(quad - q).max() < params.duplicate_within * max(h, w)
               for q in outlines + extended):
            return
        to.append(quad)

    for contour in big[:params.contours_tried]:
        outline, longer = _quads_from_contour(contour, binary.shape, params)
        add(outline, outlines)
        add(longer, extended)
        if len(outlines) >= params.per_map:
            break
    return outlines, extended


def large_components(binary: np.ndarray, min_area: float) -> np.ndarray:
    """The map (0/1) with only the components whose bounding box is larger than ``min_area``.

    A contour lies within its component's bounding box, so the others cannot hold a
    candidate (and textured backgrounds make many thousands of them).
    """
    return _components_kept(binary, lambda width, height: width * height > min_area)


def long_components(binary: np.ndarray, min_length: float) -> np.ndarray:
    """The map (0/1) with only the components whose bounding box is at least ``min_length``
    long one way (a frame's thin pieces, ``vision.locate.lines``)."""
    return _components_kept(binary,
                            lambda width, height: np.maximum(width, height) >= min_length)


def _components_kept(binary: np.ndarray, keep: Callable[[np.ndarray, np.ndarray], np.ndarray]
                     ) -> np.ndarray:
    """The map (0/1) with only the components whose bounding box's width and height ``keep``
    takes (one boolean per component).

    Labelled by block-based decision trees (Grana's algorithm): the same components as
    OpenCV's default, whose labels may be numbered otherwise, in about half its time on the
    locator's maps (docs/VISION.md, "Speed: the locator's components labelled in blocks")."""
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        binary, 8, cv2.CV_32S, cv2.CCL_GRANA)
    kept = keep(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]).astype(np.uint8)
    kept[0] = 0  # the background
    return kept[labels]


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The 4 corners clockwise on screen (y down), from the one nearest the top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    return np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0).astype(np.float32)


def _quads_from_contour(contour: np.ndarray, shape: tuple[int, ...], params: CandidateParams
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
    polygon = cv2.approxPolyDP(hull, params.hull_detail * perimeter, True
                               ).reshape(-1, 2).astype(np.float64)
    extended = (_four_longest_sides(polygon, cv2.contourArea(hull), params)
                if len(polygon) > 4 else None)
    for eps in params.simplify_steps:
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            if not cv2.isContourConvex(approx):
                return None, None
            if extended is not None and _side_on_photo_edge(extended, shape, params.edge_px):
                extended = None
            return approx.reshape(4, 2).astype(np.float32), extended
        if len(approx) < 4:
            break
    return extended, None


def _side_on_photo_edge(quad: np.ndarray, shape: tuple[int, ...], edge_px: int) -> bool:
    """Whether a side of ``quad`` lies along an edge of an image of ``shape``."""
    h, w = shape[:2]
    ends = [(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    return any(max(a[k], b[k]) < edge_px or min(a[k], b[k]) > limit - edge_px - 1
               for a, b in ends for k, limit in ((0, w), (1, h)))


def _four_longest_sides(polygon: np.ndarray, area: float, params: CandidateParams
                        ) -> np.ndarray | None:
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
    if (not cv2.isContourConvex(quad.reshape(-1, 1, 2))
            or cv2.contourArea(quad) > params.max_extended_growth * area):
        return None
    return quad
