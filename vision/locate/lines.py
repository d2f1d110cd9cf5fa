"""Candidates from the frame's visible sides, for a frame that something lies across.

A hand, a pen or a die over the frame joins the frame's outline to its own, so no contour
outlines the frame (``candidates``): the hull takes in the hand, or the frame, cut where the
object lies, is an open shape with no inside. Its sides still show in stretches. Here the
outlines of a map that keeps the thick frame (thin lattice lines, table grain and the
object's soft edges eroded away) are cut into straight stretches; stretches on one line are
gathered into a supported line, wherever they are and whichever outline they come from; and
quadrilaterals of four such lines (two roughly opposite pairs) are ranked by how much of
each of their sides is seen. A side half hidden under fingers still counts for half.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate.candidates import clockwise, large_components, long_components
from vision.locate.params import CandidateParams, LineParams


@dataclass
class Lines:
    """Supported lines: a point and a unit direction each, and the stretches seen along it as
    disjoint intervals of position along the direction."""

    points: np.ndarray  # (n, 2)
    directions: np.ndarray  # (n, 2)
    seen: list[np.ndarray]  # n arrays (k, 2), sorted


def line_candidates(binary: np.ndarray, min_side: float, candidate: CandidateParams,
                    params: LineParams) -> list[np.ndarray]:
    """The quadrilaterals of supported lines in a dark-lines map (working pixels), best
    first: each side at least ``min_side`` long, no corner nearer the photo's edge than
    ``edge_spaces`` of its space (a whole board's lattice lies inside the paper's margin;
    a board cut by the photo's edge has lattice lines running into it), no two within
    ``duplicate_within`` of the long side of each other.

    The lines are those of the large components first (``large_components``, as for whole
    candidates); when they make no quadrilateral, those of the long ones (``min_piece``):
    eroded, a frame that a fold, a streak or the paper's tint thins falls apart into pieces
    that are long but cover little area (phone render 8800428). Taken always, those pieces'
    lines crowd out or run on past the frame's corners on other boards."""
    eroded = cv2.erode(binary, np.ones((params.erosion, params.erosion), np.uint8))

    def quads_of(components: np.ndarray) -> list[np.ndarray]:
        lines = supported_lines(straight_stretches(components, min_side, params), params)
        return _kept_quads(lines, binary.shape, min_side, candidate, params)

    h, w = binary.shape
    quads = quads_of(large_components(eroded, candidate.min_area * h * w))
    if quads or params.min_piece is None:
        return quads
    return quads_of(long_components(eroded, params.min_piece * min_side))


def _kept_quads(lines: Lines, shape: tuple[int, ...], min_side: float,
                candidate: CandidateParams, params: LineParams) -> list[np.ndarray]:
    """The best ``quads_kept`` quadrilaterals of ``lines`` that keep off the photo's edge and
    are not repeats (``line_candidates``)."""
    kept: list[np.ndarray] = []
    apart = candidate.duplicate_within * max(shape)
    h, w = shape[:2]
    for quad in ranked_quads(lines, min_side, params):
        space = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean()) / 7
        inset = params.edge_spaces * space
        if (quad < inset).any() or (quad[:, 0] > w - 1 - inset).any() \
                or (quad[:, 1] > h - 1 - inset).any():
            continue
        if all(np.abs(quad - other).max() >= apart for other in kept):
            kept.append(quad)
            if len(kept) == params.quads_kept:
                break
    return kept


def straight_stretches(components: np.ndarray, min_side: float, params: LineParams
                       ) -> np.ndarray:
    """(n, 4) straight stretches (x0, y0, x1, y1) of the outlines in a map of components, at
    least ``min_stretch`` of the smallest board's space long."""
    contours, _ = cv2.findContours(components, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    shortest = params.min_stretch * min_side / 7
    found = [np.zeros((0, 4), np.float32)]
    for contour in contours:
        if len(contour) < 3:
            continue
        polygon = cv2.approxPolyDP(contour, params.straight_px, True).reshape(-1, 2)
        ends = np.hstack([polygon, np.roll(polygon, -1, axis=0)]).astype(np.float32)
        found.append(ends[np.hypot(ends[:, 2] - ends[:, 0], ends[:, 3] - ends[:, 1]) >= shortest])
    return np.vstack(found)


def supported_lines(stretches: np.ndarray, params: LineParams) -> Lines:
    """Up to ``lines_kept`` lines, most supported first. Each is seeded by one of the
    ``seeds`` longest stretches left (the one gathering most) and takes every stretch lying
    along it (within ``angle_tolerance`` of its direction, ends within ``line_px``); the
    line is then fitted to them all."""
    a, b = stretches[:, :2].astype(np.float64), stretches[:, 2:].astype(np.float64)
    lengths = np.linalg.norm(b - a, axis=1)
    directions = (b - a) / np.maximum(lengths, 1e-9)[:, None]
    normals = np.stack([-directions[:, 1], directions[:, 0]], axis=1)
    cos_tol = np.cos(np.radians(params.angle_tolerance))
    free = np.ones(len(stretches), bool)
    points, units, seen = [], [], []
    while len(points) < params.lines_kept and free.any():
        seeds = np.flatnonzero(free)
        seeds = seeds[np.argsort(-lengths[seeds])][:params.seeds]
        # (seeds, stretches): which free stretches lie along each seed's line
        along = ((np.abs(directions[seeds] @ directions.T) >= cos_tol)
                 & (np.abs(normals[seeds] @ a.T - (normals[seeds] * a[seeds]).sum(1)[:, None])
                    <= params.line_px)
                 & (np.abs(normals[seeds] @ b.T - (normals[seeds] * a[seeds]).sum(1)[:, None])
                    <= params.line_px)
                 & free[None, :])
        best = int(np.argmax(along @ lengths))
        members = along[best]
        point, unit = _fitted(a[members], b[members], lengths[members])
        ends = np.sort(np.stack([(a[members] - point) @ unit, (b[members] - point) @ unit], 1),
                       axis=1)
        points.append(point)
        units.append(unit)
        seen.append(_union(ends))
        free &= ~members
    return Lines(np.array(points).reshape(-1, 2), np.array(units).reshape(-1, 2), seen)


def _fitted(a: np.ndarray, b: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The line through stretches (ends ``a``, ``b``), fitted to their ends weighted by
    length (total least squares): a point on it and its unit direction."""
    ends = np.vstack([a, b])
    weights = np.concatenate([lengths, lengths])
    centre = weights @ ends / weights.sum()
    spread = (ends - centre).T @ ((ends - centre) * weights[:, None])
    unit = np.linalg.eigh(spread)[1][:, -1]
    return centre, unit


def _union(intervals: np.ndarray) -> np.ndarray:
    """Overlapping intervals (k, 2) merged (both edges of a thick line cover one stretch)."""
    merged: list[list[float]] = []
    for lo, hi in intervals[np.argsort(intervals[:, 0])]:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return np.array(merged).reshape(-1, 2)


def ranked_quads(lines: Lines, min_side: float, params: LineParams) -> list[np.ndarray]:
    """Convex quadrilaterals of 4 lines, best first by the length of their sides seen.

    Their sides are at least ``min_side`` long and ``min_side_ratio`` of the longest, each
    seen along ``min_seen`` of its length or more, and none runs on past a corner (seen
    along more than ``run_on_seen`` of ``run_on`` of its length there): the frame's and the
    paper's sides stop at their corners, while lattice lines (a block of spaces taken for
    the lattice) and a pen's edges go on.
    """
    sides = _four_sides(lines.directions, params)
    if not len(sides):
        return []
    crossing, position = _crossings(lines)
    before, after = np.roll(sides, 1, axis=1), np.roll(sides, -1, axis=1)
    corners = crossing[sides, after]  # corner k where side k meets side k + 1
    start, end = position[sides, before], position[sides, after]  # side k along its line
    span = np.abs(end - start)
    outward = np.sign(end - start) * params.run_on * span
    fractions = _seen(lines, sides, start, end)
    runs_on = np.maximum(_seen(lines, sides, start - outward, start),
                         _seen(lines, sides, end, end + outward))
    lengths = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2)
    edges = np.roll(corners, -1, axis=1) - corners
    turns = edges[..., 0] * np.roll(edges, -1, axis=1)[..., 1] \
        - edges[..., 1] * np.roll(edges, -1, axis=1)[..., 0]
    with np.errstate(invalid="ignore"):
        good = (((turns > 0).all(1) | (turns < 0).all(1))
                & (lengths.min(1) >= min_side)
                & (lengths.min(1) >= params.min_side_ratio * lengths.max(1))
                & (fractions.min(1) >= params.min_seen)
                & (runs_on.max(1) <= params.run_on_seen))
    rank = (fractions * span).sum(1)
    order = np.flatnonzero(good)[np.argsort(-rank[good], kind="stable")]
    return [clockwise(corners[i]) for i in order]


def _four_sides(directions: np.ndarray, params: LineParams) -> np.ndarray:
    """(m, 4) lines taken round a quadrilateral: two pairs of opposite lines running within
    ``max_spread`` degrees of each other, the pairs crossing at ``min_turn`` or more."""
    cosines = np.abs(directions @ directions.T)
    opposite = cosines >= np.cos(np.radians(params.max_spread))
    crossing = cosines <= np.cos(np.radians(params.min_turn))
    pairs = [(i, j) for i, j in itertools.combinations(range(len(directions)), 2)
             if opposite[i, j]]
    return np.array([(i, k, j, m) for (i, j), (k, m) in itertools.combinations(pairs, 2)
                     if crossing[i, k] and len({i, j, k, m}) == 4], np.int64).reshape(-1, 4)


def _crossings(lines: Lines) -> tuple[np.ndarray, np.ndarray]:
    """Where every two lines cross: points (n, n, 2), and positions along the first line
    (n, n); nan for parallel lines."""
    p, u = lines.points, lines.directions
    cross = u[:, None, 0] * u[None, :, 1] - u[:, None, 1] * u[None, :, 0]
    offset = p[None, :, :] - p[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        position = (offset[..., 0] * u[None, :, 1] - offset[..., 1] * u[None, :, 0]) / cross
    position[np.abs(cross) < 1e-6] = np.nan
    return p[:, None, :] + position[..., None] * u[:, None, :], position


def _seen(lines: Lines, which: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The fraction of line ``which`` seen from position ``start`` to ``end`` (arrays of one
    shape; 0 where undefined)."""
    covered = np.zeros(which.shape)
    for i, intervals in enumerate(lines.seen):
        on = which == i
        lo, hi = np.minimum(start[on], end[on]), np.maximum(start[on], end[on])
        covered[on] = np.clip(np.minimum(intervals[None, :, 1], hi[:, None])
                              - np.maximum(intervals[None, :, 0], lo[:, None]), 0, None).sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        fraction = covered / np.abs(end - start)
    return np.nan_to_num(np.minimum(fraction, 1.0), nan=0.0)
