"""Follow the printed grid lines of a straightened board, and undo what one homography cannot:
curled, bowed, folded or bumpy paper (issue 14, "Bent paper").

The board is first straightened by one homography from the lattice's 4 outer corners
(``vision.rectify``). On a bent sheet its 8 horizontal and 8 vertical printed lines then run
as gentle curves, up to about a quarter of a space off where they should be. Here, on that
canonical board:

1. every line is sampled every few pixels: across it, within a fraction of a space of where
   it is expected, the darkest channel is searched for the line (a thin ridge, dark or light:
   some editions print white lines) or, for the thick frame, for its inner edge (the lattice
   boundary). The frame is followed first, over a wider reach; the inner lines are then
   looked for round what the frame predicts;
2. one smooth displacement per line (piecewise linear, a knot every half space) is fitted to
   the samples by iteratively reweighted least squares, smooth along each line and from line
   to line, so that a sample where a drawn route, a hand or a pen hides the line is an
   outlier and a line hidden in places is filled in from its own ends and its neighbours;
3. when enough lines are followed closely enough, the canonical board is remapped (one
   ``cv2.remap`` from the photo region, through the homography) so that every space is cut
   along its own printed lines.

``unbend`` only measures; ``Unbend.source_points`` gives the remap. What counts as trusted is
in ``UnbendParams``; the warning for a board whose lines cannot be followed is
``vision.acceptance.unbend_warnings``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.crops import darkest_channel
from vision.rectify import GRID, CanonicalBoard

LINES = GRID + 1  # printed lines each way, frame sides included


@dataclass(frozen=True)
class UnbendParams:
    """Every tunable of the line following. Lengths in "spaces" are fractions of one space;
    "px" are pixels of the canonical board."""

    enabled: bool = True
    step_px: int = 4  # a sample every this many pixels along each line
    along_px: int = 9  # the image is averaged this far along the line at each sample
    frame_reach: float = 0.45  # the frame's inner edge is searched this far either side
    line_reach: float = 0.22  # inner lines: this far round what the frame predicts ...
    line_reach_final: float = 0.1  # ... then this far round their own first fit
    ridge_px: int = 3  # a line is compared with the paper this far either side of it
    min_edge: float = 0.12  # a frame edge: the inside at least this much lighter (relative)
    min_ridge: float = 0.015  # a line: at least this much darker (lighter) than beside it ...
    ridge_share: float = 0.3  # ... and at least this share of the line's median contrast
    knot_spaces: float = 0.5  # knots of each line's displacement
    smooth_along: float = 2.0  # weight of the bending of a line's displacement ...
    smooth_across: float = 0.5  # ... of its change from line to line ...
    prior: float = 0.01  # ... and of the displacement itself (where nothing is seen)
    robust_px: tuple[float, ...] = (8.0, 4.0, 2.5, 2.0)  # Tukey scale per iteration ...
    final_px: tuple[float, ...] = (2.0,)  # ... and in the last fit, from the first
    inlier_px: float = 1.5  # a sample this close to its line's curve follows it
    min_share: float = 0.5  # a line is followed where this share of its samples follow it
    sure_share: float = 0.8  # dark inner lines followed this well: light ones are not tried
    min_lines: int = 12  # of the 16 lines, at least this many followed to trust the fit
    max_residual_px: float = 0.9  # RMS distance of the following samples, at most
    max_shift: float = 0.5  # a displacement larger than this (spaces) is not believed
    min_shift_px: float = 1.0  # below this everywhere the board is flat: nothing is remapped
    # inner lines lost, but the frame followed all round, its sides within this of straight
    # lines: a flat sheet with faint lines, read without a warning
    straight_frame_px: float = 1.0
    map_step_px: int = 8  # the remap is computed on a grid this coarse, then interpolated


@dataclass
class Unbend:
    """What following the printed lines found on one canonical board.

    ``curves[a]`` is the displacement of every line of axis ``a`` (0: the horizontal lines, a
    displacement in y; 1: the vertical lines, in x) at ``knots`` along it, in canonical
    pixels: where the printed line is, against where the homography put it.
    """

    knots: np.ndarray  # (K,) canonical px along a line
    curves: np.ndarray  # (2, 8, K) displacement of each line at the knots (px)
    offsets: np.ndarray  # (8, 8, 2) each lattice intersection's (dx, dy) (px), row-major
    residual_px: float  # RMS distance of the following samples from their curves
    followed: np.ndarray  # (2, 8) share of each line's samples that follow its curve
    lines_followed: int  # lines (of 16) with at least ``min_share`` of their samples following
    polarity: int  # 1: the inner lines are darker than the paper, -1: lighter
    trusted: bool  # enough lines followed, closely enough
    applied: bool  # trusted and not flat: the board is to be remapped
    reason: str = ""  # why not applied ("" when applied)
    warning: bool = False  # not trusted, and the frame does not show the sheet flat

    def intersections(self, board: CanonicalBoard) -> np.ndarray:
        """(8, 8, 2) canonical (x, y) of the printed lattice's intersections, row-major."""
        ideal = board.pad_px + board.cell_px * np.arange(LINES, dtype=np.float64)
        gx, gy = np.meshgrid(ideal, ideal)
        return np.stack([gx, gy], axis=-1) + self.offsets

    def source_points(self, board: CanonicalBoard, points: np.ndarray) -> np.ndarray:
        """Where the canonical points (..., 2) of the unbent board lie on the board as
        straightened by the homography (the remap's source)."""
        return _source_points(self.knots, self.curves, board, points)


def unbend(flat: np.ndarray, board: CanonicalBoard, params: UnbendParams = UnbendParams()
           ) -> Unbend:
    """Follow the printed lines of a board straightened by one homography (``flat``: BGR or
    grey, ``board``'s layout) and decide whether the curves are to be trusted and applied."""
    grey = darkest_channel(flat)
    views = np.empty((2, *grey.shape), np.float32)  # averaged along the lines: rows, columns
    for view, image in zip(views, (grey, np.ascontiguousarray(grey.T)), strict=True):
        cv2.boxFilter(image, cv2.CV_32F, (params.along_px, 1), dst=view)
    lattice = _Lattice(views, board, params)
    # the frame alone first (its two sides each way), the inner lines in between
    sides = lattice.fit(lattice.frame_samples(), np.zeros((2, 2, len(lattice.knots))),
                        params.robust_px)
    start = _between_frame(sides)
    # the inner lines' polarity (one print both ways): dark lines unless light ones are
    # followed better
    first = {}
    for polarity in (1, -1):
        first[polarity] = lattice.follow(start, params.line_reach, polarity, params.robust_px)
        if first[polarity].share.min() >= params.sure_share:
            break
    polarity = max(first, key=lambda p: first[p].inliers)
    fit = lattice.follow(first[polarity].curves, params.line_reach_final, polarity,
                         params.final_px)
    return _judge(fit, polarity, board, params)


def _judge(fit: _Fit, polarity: int, board: CanonicalBoard, params: UnbendParams) -> Unbend:
    """The result, with whether it is trusted and to be applied."""
    knots = _knots(board, params)
    inliers = fit.inlier_residuals
    residual = float(np.sqrt(np.mean(inliers ** 2))) if inliers.size else float("inf")
    offsets = _intersection_offsets(knots, fit.curves, board)
    followed = fit.followed
    result = Unbend(knots, fit.curves, offsets, residual, followed,
                    int(np.count_nonzero(followed >= params.min_share)), polarity,
                    trusted=False, applied=False)
    result.reason = _distrust(result, board, params)
    result.trusted = not result.reason
    if result.trusted and np.abs(offsets).max() < params.min_shift_px:
        result.reason = "flat"
    result.applied = not result.reason
    result.warning = not result.trusted and not _straight_frame(result, params)
    return result


def _straight_frame(result: Unbend, params: UnbendParams) -> bool:
    """Whether the frame was followed all round and its sides run straight (the corners
    may be a little off: a straight side is any straight line): a flat sheet, whose inner
    lines may be too faint to follow, so no warning is needed."""
    frame = result.curves[:, [0, GRID]].reshape(4, -1)
    line = np.polynomial.polynomial.polyfit(result.knots, frame.T, 1)
    bend = frame - np.polynomial.polynomial.polyval(result.knots, line)
    return bool(result.followed[:, [0, GRID]].min() >= params.min_share
                and np.abs(bend).max() <= params.straight_frame_px)


def _distrust(result: Unbend, board: CanonicalBoard, params: UnbendParams) -> str:
    """Why the followed lines are not to be trusted ("" when they are)."""
    if result.lines_followed < params.min_lines:
        return f"only {result.lines_followed} of 16 printed lines followed"
    if result.residual_px > params.max_residual_px:
        return f"the lines wander ({result.residual_px:.1f} px from smooth curves)"
    if np.abs(result.offsets).max() > params.max_shift * board.cell_px:
        return "the lines are too far from where the board's corners put them"
    return ""


def _knots(board: CanonicalBoard, params: UnbendParams) -> np.ndarray:
    """Knot positions along every line, from one frame side to the other."""
    count = round(1 / params.knot_spaces) * GRID + 1
    return board.pad_px + np.linspace(0, GRID * board.cell_px, count)


# --- sampling ------------------------------------------------------------------------------


def _ridge(profiles: np.ndarray, half: int, polarity: int) -> np.ndarray:
    """How much darker (polarity 1) or lighter (-1) each point is than the paper ``half`` px
    either side, relative to it; -inf where the comparison runs off the profile."""
    out = np.full_like(profiles, -np.inf)
    beside = 0.5 * (profiles[..., :-2 * half] + profiles[..., 2 * half:])
    out[..., half:-half] = polarity * (beside - profiles[..., half:-half]) / (beside + 8.0)
    return out


def _edge(profiles: np.ndarray, outward_first: bool) -> np.ndarray:
    """How much lighter the inside is than the outside at each point (a dark frame's inner
    edge: the edge between points k - 1 and k + 1 is scored at k), relative to the inside;
    -inf at the profile's ends. The outside is its lightest of 3 points, so that the thick
    frame scores and the edge of a thin line beside it does not."""
    if not outward_first:
        return _edge(profiles[..., ::-1], True)[..., ::-1]
    out = np.full_like(profiles, -np.inf)
    outside = np.maximum(np.maximum(profiles[..., 0:-5], profiles[..., 1:-4]),
                         profiles[..., 2:-3])
    inside = 0.5 * (profiles[..., 4:-1] + profiles[..., 5:])
    out[..., 3:-2] = (inside - outside) / (inside + 8.0)
    return out


def _peaks(response: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along the last axis, the best position (sub-pixel, by a parabola through the best
    three) and its value."""
    best = np.argmax(response, axis=-1)[..., None]
    mid = np.clip(best, 1, response.shape[-1] - 2)
    a, b, c = (np.take_along_axis(response, mid + k, axis=-1)[..., 0] for k in (-1, 0, 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        bend = a - 2 * b + c
        shift = np.where(np.isfinite(a) & np.isfinite(c) & (bend < 0), 0.5 * (a - c) / bend, 0.0)
    value = np.take_along_axis(response, best, axis=-1)[..., 0]
    return mid[..., 0] + np.clip(shift, -0.5, 0.5), value


@dataclass
class _Samples:
    """Where lines were seen, (2, m, n) each (both directions, ``lines``, every sample along
    them): the displacement seen, and whether it is believed at all."""

    lines: np.ndarray  # (m,) which lines
    seen: np.ndarray
    valid: np.ndarray

    @staticmethod
    def join(a: _Samples, b: _Samples) -> _Samples:
        return _Samples(np.concatenate([a.lines, b.lines]),
                        np.concatenate([a.seen, b.seen], axis=1),
                        np.concatenate([a.valid, b.valid], axis=1))


@dataclass
class _Fit:
    curves: np.ndarray  # (2, 8, K) displacement of each line at the knots
    followed: np.ndarray  # (2, 8) share of each line's samples within inlier_px of its curve
    inlier_residuals: np.ndarray  # residuals of those samples
    inliers: int
    share: np.ndarray  # (2,) each direction's share of samples that follow their curves


class _Lattice:
    """The 16 printed lines, on the board averaged along them: ``views[0]`` for the
    horizontal lines, ``views[1]`` (transposed) for the vertical ones, so that both
    directions are rows, handled together."""

    def __init__(self, views: np.ndarray, board: CanonicalBoard, params: UnbendParams) -> None:
        self.views, self.board, self.params = views, board, params
        step = params.step_px
        self.along = board.pad_px + step / 2 + step * np.arange(GRID * board.cell_px // step)
        self.knots = _knots(board, params)
        self.penalty = {n: _penalty(n, len(self.knots), params) for n in (2, LINES)}
        self.low, self.frac = _hat_index(self.knots, self.along)
        self.frame: _Samples | None = None

    def profiles(self, lines: np.ndarray, guess: np.ndarray, reach: int
                 ) -> tuple[np.ndarray, np.ndarray]:
        """Across ``lines`` (m,) of both directions at every sample: the view at rows
        ``round(expected + guess) + k``, k = -reach..reach, (2, m, n, 2 reach + 1), and each
        profile's first row against the expected one (2, m, n)."""
        size = self.views.shape[1]
        expected = self.board.pad_px + lines[:, None] * self.board.cell_px
        base = np.rint(expected + guess).astype(int) - reach
        rows = np.clip(base[..., None] + np.arange(2 * reach + 1), 0, size - 1)
        cols = np.clip(np.rint(self.along).astype(int), 0, size - 1)[:, None]
        direction = np.arange(2)[:, None, None, None]
        return self.views[direction, rows, cols], (base - expected).astype(np.float64)

    def frame_samples(self) -> _Samples:
        """The inner edges of the frame's sides (lines 0 and 7 both ways), searched
        ``frame_reach`` either side of where the homography put them."""
        reach = round(self.params.frame_reach * self.board.cell_px)
        lines = np.array([0, GRID])
        profiles, first = self.profiles(lines, np.zeros((2, 2, len(self.along))), reach)
        seen, valid = np.empty(first.shape), np.empty(first.shape, bool)
        for k, outward_first in enumerate((True, False)):
            position, value = _peaks(_edge(profiles[:, k], outward_first))
            seen[:, k] = first[:, k] + position
            valid[:, k] = value >= self.params.min_edge
        self.frame = _Samples(lines, seen, valid)
        return self.frame

    def line_samples(self, curves: np.ndarray, reach_spaces: float, polarity: int) -> _Samples:
        """The inner lines, searched ``reach_spaces`` round the displacement ``curves``."""
        lines = np.arange(1, GRID)
        reach = round(reach_spaces * self.board.cell_px) + self.params.ridge_px
        guess = _curve_values(self.knots, curves[:, 1:GRID], self.along)
        profiles, first = self.profiles(lines, guess, reach)
        position, value = _peaks(_ridge(profiles, self.params.ridge_px, polarity))
        floor = np.maximum(self.params.min_ridge,
                           self.params.ridge_share * np.median(value, axis=-1, keepdims=True))
        return _Samples(lines, first + position, value >= floor)

    def follow(self, curves: np.ndarray, reach_spaces: float, polarity: int,
               scales: tuple[float, ...]) -> _Fit:
        """Frame and inner lines fitted, the inner lines searched round ``curves``."""
        samples = _Samples.join(self.frame, self.line_samples(curves, reach_spaces, polarity))
        return self.assess(samples, self.fit(samples, curves, scales))

    def fit(self, samples: _Samples, start: np.ndarray, scales: tuple[float, ...]
            ) -> np.ndarray:
        """(2, m, K) displacements of the lines of ``samples`` (m of them: the frame's two,
        or all 8), fitted to its valid samples by reweighted least squares (Tukey weights,
        their scale shrinking over ``scales`` px), from ``start`` (2, m, K).

        Each sample sees two neighbouring knots of its line (piecewise-linear hats), so the
        normal equations are gathered with ``bincount`` rather than from a design matrix;
        both directions are solved in one batched call."""
        lines, count = len(samples.lines), len(self.knots)
        size = lines * count
        row = np.arange(2)[:, None, None] * lines + np.argsort(np.argsort(samples.lines))[:, None]
        first = (row * count + self.low).ravel()
        frac = np.broadcast_to(self.frac, samples.seen.shape).ravel()
        seen, valid = samples.seen.ravel(), samples.valid.ravel()
        diagonal_at = np.arange(size)
        penalty = self.penalty[lines]

        def gathered(at: np.ndarray, values: np.ndarray) -> np.ndarray:
            return np.bincount(at, values, minlength=2 * size).reshape(2, size)

        curves = start.ravel()
        for scale in scales:
            residual = seen - ((1 - frac) * curves[first] + frac * curves[first + 1])
            weight = np.where(valid, np.clip(1 - (residual / scale) ** 2, 0, None) ** 2, 0)
            # a sample's two hats meet only on the diagonal and next to it
            diagonal = gathered(first, (1 - frac) ** 2 * weight) + gathered(first + 1,
                                                                           frac ** 2 * weight)
            beside = gathered(first, (1 - frac) * frac * weight)[:, :-1]
            lhs = np.repeat(penalty[None], 2, axis=0)
            lhs[:, diagonal_at, diagonal_at] += diagonal
            lhs[:, diagonal_at[:-1], diagonal_at[1:]] += beside
            lhs[:, diagonal_at[1:], diagonal_at[:-1]] += beside
            rhs = (gathered(first, (1 - frac) * weight * seen)
                   + gathered(first + 1, frac * weight * seen))
            curves = np.linalg.solve(lhs, rhs[..., None])[..., 0].ravel()
        return curves.reshape(2, lines, count)

    def assess(self, samples: _Samples, curves: np.ndarray) -> _Fit:
        """How well the fitted curves follow the samples, line by line."""
        on_curve = _curve_values(self.knots, curves, self.along)[:, samples.lines]
        residual = samples.seen - on_curve
        inlier = samples.valid & (np.abs(residual) <= self.params.inlier_px)
        followed = np.zeros((2, LINES))
        followed[:, samples.lines] = inlier.mean(axis=-1)
        return _Fit(curves, followed, residual[inlier], int(inlier.sum()),
                    inlier.mean(axis=(1, 2)))


def _between_frame(frame: np.ndarray) -> np.ndarray:
    """(2, 8, K) displacements from the frame's (2, 2, K): the inner lines in proportion
    between the two sides."""
    t = (np.arange(LINES) / GRID)[None, :, None]
    return (1 - t) * frame[:, :1] + t * frame[:, 1:]


def _hat_index(knots: np.ndarray, along: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each position, the knot before it and how far it is towards the next (0..1)."""
    t = np.clip((along - knots[0]) / (knots[1] - knots[0]), 0, len(knots) - 1)
    low = np.minimum(np.floor(t).astype(int), len(knots) - 2)
    return low, t - low


@functools.lru_cache(maxsize=8)
def _penalty(lines: int, knots: int, params: UnbendParams) -> np.ndarray:
    """Quadratic penalty on the (lines x knots) unknowns: bending along each line, change of
    bending from line to line, and a little of the displacement itself (read-only: cached)."""
    def second_difference(n: int) -> np.ndarray:
        d = np.zeros((max(n - 2, 0), n))
        for k in range(n - 2):
            d[k, k:k + 3] = (1.0, -2.0, 1.0)
        return d

    along = np.kron(np.eye(lines), second_difference(knots))
    across = np.kron(second_difference(lines), np.eye(knots))
    penalty = (params.smooth_along * along.T @ along + params.smooth_across * across.T @ across
               + params.prior * np.eye(lines * knots))
    penalty.setflags(write=False)
    return penalty


def _curve_values(knots: np.ndarray, curves: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Each line's displacement at positions ``along`` (...): (lines..., ...) for curves
    (lines..., K)."""
    low, frac = _hat_index(knots, np.asarray(along, np.float64))
    flat = curves.reshape(-1, curves.shape[-1])
    values = (1 - frac) * flat[:, low] + frac * flat[:, low + 1]
    return values.reshape(curves.shape[:-1] + np.shape(along))


def _intersection_offsets(knots: np.ndarray, curves: np.ndarray, board: CanonicalBoard
                          ) -> np.ndarray:
    """(8, 8, 2) (dx, dy) of each intersection: where horizontal line i's curve crosses
    vertical line j's (a few fixed-point rounds)."""
    ideal = board.pad_px + board.cell_px * np.arange(LINES, dtype=np.float64)
    line = np.arange(LINES)[:, None]
    dx = np.zeros((LINES, LINES))
    dy = np.zeros((LINES, LINES))
    for _ in range(3):
        dy = _on_lines(knots, curves[0], line, ideal[None, :] + dx)  # line i at x[i, j]
        dx = _on_lines(knots, curves[1], line, (ideal[:, None] + dy).T).T  # line j at y[i, j]
    return np.stack([dx, dy], axis=-1)


def _on_lines(knots: np.ndarray, curves: np.ndarray, lines: np.ndarray, along: np.ndarray
              ) -> np.ndarray:
    """The displacement of line ``lines`` (broadcast with ``along``) at ``along``."""
    low, frac = _hat_index(knots, along)
    return (1 - frac) * curves[lines, low] + frac * curves[lines, low + 1]


def _between(values: np.ndarray, at: np.ndarray, board: CanonicalBoard) -> np.ndarray:
    """Linear interpolation between the lines' ``values`` (8, ...) at cross position ``at``
    (...): between the two lines on either side, held constant past the frame."""
    t = np.clip((at - board.pad_px) / board.cell_px, 0, GRID)
    low = np.minimum(np.floor(t).astype(int), GRID - 1)
    frac = t - low
    first = np.take_along_axis(values, low[None], axis=0)[0]
    second = np.take_along_axis(values, (low + 1)[None], axis=0)[0]
    return (1 - frac) * first + frac * second


def _source_points(knots: np.ndarray, curves: np.ndarray, board: CanonicalBoard,
                   points: np.ndarray) -> np.ndarray:
    """Where canonical points (..., 2) of the unbent board lie on the homography's board:
    the displacement between each pair of lines, interpolated across, each line's taken
    where it really runs (one fixed-point round)."""
    u, v = points[..., 0].astype(np.float64), points[..., 1].astype(np.float64)
    dx = _between(_curve_values(knots, curves[1], v), u, board)
    dy = _between(_curve_values(knots, curves[0], u + dx), v, board)
    dx = _between(_curve_values(knots, curves[1], v + dy), u, board)
    return np.stack([u + dx, v + dy], axis=-1)
