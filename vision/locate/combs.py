"""Lattice guesses inside a candidate outline: 8-line combs fitted to its line coverage.

Coverage (the fraction of a column that is dark) favours long printed lines over drawn
routes, which also make lines but offset by half a space and rarely across the whole board.
The candidate itself (perhaps the frame's outline) and the strongest line near each of its
sides (where the lattice is too faint for a comb) are guesses too.
"""

from __future__ import annotations

import numpy as np

from vision.locate.params import FitParams
from vision.locate.views import coverage_profiles, flat_view, square
from vision.rectify import GRID


def comb_lattices(binary: np.ndarray, quad: np.ndarray, params: FitParams) -> list[np.ndarray]:
    """Lattice corner guesses inside a candidate quadrilateral (photo pixels)."""
    inner = GRID * params.view_cell * params.comb_scale
    pad = params.comb_pad * inner
    view = flat_view(binary, quad, inner, pad)
    col, row = coverage_profiles(view.image)
    lo, hi = params.comb_steps[0] * inner / GRID, params.comb_steps[1] * inner / GRID
    # The candidate may itself be the thick frame: try it as is and slightly shrunk.
    guesses = [square(pad + d, pad + d, pad + inner - d, pad + inner - d)
               for d in (0.0, params.frame_shrink * inner / GRID)]
    row_combs = fit_combs(row, lo, hi, params)
    for x0, xs, _ in fit_combs(col, lo, hi, params):
        for y0, ys, _ in row_combs:
            if max(xs, ys) > params.max_step_ratio * min(xs, ys):
                continue
            guesses.append(square(x0, y0, x0 + GRID * xs, y0 + GRID * ys))
    # Where the lattice's inner lines are too faint for a comb, the frame alone may show:
    # the strongest line near each side of the candidate.
    x0, x1 = _outer_lines(col, pad, inner, params)
    y0, y1 = _outer_lines(row, pad, inner, params)
    guesses.append(square(x0, y0, x1, y1))
    return list(view.to_photo(np.array(guesses)))


def fit_combs(profile: np.ndarray, min_step: float, max_step: float, params: FitParams
              ) -> list[tuple[float, float, float]]:
    """The best few (offset, step, score) of 8 teeth on ``profile`` against 7 half-offsets.

    Distinct combs only (differing in offset or span by more than half a tooth spacing).
    """
    n = len(profile)
    steps = np.arange(min_step, max_step, params.comb_step_px, dtype=np.float32)
    offsets = np.arange(0, n, 1.0, dtype=np.float32)
    k = np.arange(GRID + 1, dtype=np.float32)
    # (teeth, steps, offsets) positions, tooth first so that each tooth is one array
    teeth = offsets[None, None, :] + steps[None, :, None] * k[:, None, None]
    gaps = teeth[:-1] + steps[None, :, None] / 2
    valid = teeth[-1] < n - 1
    last = n - 1
    on_all = profile[np.minimum(np.rint(teeth).astype(np.int32), last)]
    off_all = profile[np.minimum(np.rint(gaps).astype(np.int32), last)]
    # Printed lines run the whole way: the second-weakest tooth decides. Drawn routes
    # (half a space off) are often nearly as long on a full board, so they weigh less.
    on = second_smallest(on_all)
    off = kth_smallest(off_all, GRID // 2)
    score = on - params.comb_off_weight * off + params.comb_step_bonus * steps[:, None] / max_step
    score[~valid] = -np.inf
    # the best few offsets of each spacing, best first (each row sorted on its own), then
    # all of them best first (a stable sort: spacings in order where scores tie)
    best = np.argsort(score, axis=1)[:, ::-1][:, :params.offsets_per_step]
    best_scores = np.take_along_axis(score, best, axis=1)
    rows = np.broadcast_to(np.arange(len(steps))[:, None], best.shape)
    keep = np.isfinite(best_scores)
    rows, best, best_scores = rows[keep], best[keep], best_scores[keep]
    order = np.argsort(-best_scores, kind="stable")
    found = [(float(offsets[oi]), float(steps[si]), float(value)) for si, oi, value
             in zip(rows[order], best[order], best_scores[order], strict=True)]
    chosen: list[tuple[float, float, float]] = []
    for offset, step, value in found:
        if all(abs(offset - o) > s / 2 or abs(offset + GRID * step - o - GRID * s) > s / 2
               for o, s, _ in chosen):
            chosen.append((offset, step, value))
            if len(chosen) == params.combs_kept:
                break
    return chosen


def second_smallest(values: np.ndarray) -> np.ndarray:
    """The second-smallest of ``values`` along its first axis (as ``np.partition``'s 1st)."""
    smallest = np.minimum(values[0], values[1])
    second = np.maximum(values[0], values[1])
    for value in values[2:]:
        second = np.minimum(second, np.maximum(smallest, value))
        smallest = np.minimum(smallest, value)
    return second


def kth_smallest(values: np.ndarray, k: int) -> np.ndarray:
    """The ``k``-th smallest (from 0) of ``values`` along its first axis, by sorting the
    few arrays against each other (as ``np.partition``'s k-th, faster for a short axis)."""
    ordered = list(values)
    for i in range(len(ordered)):  # odd-even transposition sort: len(ordered) rounds
        for j in range(i % 2, len(ordered) - 1, 2):
            low = np.minimum(ordered[j], ordered[j + 1])
            ordered[j + 1] = np.maximum(ordered[j], ordered[j + 1])
            ordered[j] = low
    return ordered[k]


def _outer_lines(profile: np.ndarray, pad: float, inner: float, params: FitParams
                 ) -> tuple[float, float]:
    """The best-covered positions in a candidate's straightened coverage ``profile`` between
    a third of a space and a quarter of the lattice inside each of its ends (the candidate's
    own outline, tried as it is elsewhere, is left out)."""
    near = int(pad + params.outer_band[0] * inner / GRID)
    far = int(pad + params.outer_band[1] * inner)
    first = near + int(np.argmax(profile[near:far]))
    n = len(profile)
    last = n - far + int(np.argmax(profile[n - far:n - near]))
    return float(first), float(last)
