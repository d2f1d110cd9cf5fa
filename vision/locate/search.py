"""The locator's search: candidates, guesses, scores and refinements, best first.

``find_lattice`` is the entry; it runs one pass on the whole photo and, for a small board, a
second on a crop round it at a finer scale, starting from the first pass's lattice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import chain

import numpy as np

from vision.locate.candidates import (
    candidate_maps,
    candidates,
    dark_lines,
    skin_free_maps,
    threshold_block,
    working_images,
)
from vision.locate.combs import comb_lattices
from vision.locate.extent import lattice_runs_off, lattice_runs_on
from vision.locate.lines import line_candidates
from vision.locate.params import FitParams, LocateParams
from vision.locate.refine import refine, snap_to_frame
from vision.locate.score import FrameSeen, confidence, frame_seen, lattice_score, plausible
from vision.locate.views import shifted_lattices

DEFAULT_PARAMS = LocateParams()


@dataclass
class LatticeFit:
    """A lattice found in the photo."""

    corners: np.ndarray  # (4, 2) float32, photo pixels, clockwise from the top-left-most
    score: float  # line agreement: coverage on lattice lines minus on half-offsets
    confidence: float  # 0..1
    runs_on: int = 0  # sides past which the printed lines go on, gaps clear (lattice_runs_on)
    runs_off: list[str] = field(default_factory=list)  # photo edges they go on to
    # What its outline shows of a printed frame, measured for a doubtful lattice only
    # (FitParams.frame_measured_below); None: not measured.
    frame_seen: FrameSeen | None = None


def find_lattice(image: np.ndarray, params: LocateParams = DEFAULT_PARAMS) -> LatticeFit | None:
    """The best-agreeing 7 x 7 lattice in a BGR photo, or None when none is found.

    When the board is small in the photo, the locator runs again on a crop around it, at a
    finer scale (at least ``zoom_gain`` times finer), and keeps that result if it agrees
    better. That pass first refines the lattice already found (``zoom_from_first``) and
    searches the crop's candidates only when that is not sure.
    """
    h, w = image.shape[:2]
    min_side = params.fit.min_side * max(h, w)
    fit = _locate_in(image, min_side, params)
    if fit is None:
        return None
    lo, hi = fit.corners.min(axis=0), fit.corners.max(axis=0)
    extent = float((hi - lo).max())
    margin = params.fit.zoom_margin * extent
    x0, y0 = np.maximum(lo - margin, 0).astype(int)
    x1, y1 = np.minimum(hi + margin, [w, h]).astype(int)
    # Worth a second pass only if the crop is seen at least zoom_gain times finer.
    finer = max(h, w) / max(x1 - x0, y1 - y0, params.candidates.work_side)
    if finer >= params.fit.zoom_gain:
        prior = fit.corners - np.array([x0, y0], dtype=np.float32)
        zoomed = _locate_in(image[y0:y1, x0:x1], min_side, params,
                            prior if params.fit.zoom_from_first else None)
        if zoomed is not None and zoomed.score > fit.score:
            zoomed.corners = (zoomed.corners + [x0, y0]).astype(np.float32)
            at_photo_edge = {"top": y0 == 0, "right": x1 == w, "bottom": y1 == h, "left": x0 == 0}
            zoomed.runs_off = [edge for edge in zoomed.runs_off if at_photo_edge[edge]]
            return zoomed
    return fit


class _Scorer:
    """Scores guesses on one binary map, each distinct guess once."""

    def __init__(self, binary: np.ndarray, params: LocateParams) -> None:
        self.binary = binary
        self.params = params
        self._known: dict[bytes, float] = {}

    def __call__(self, corners: np.ndarray) -> float:
        key = np.asarray(corners, np.float32).tobytes()
        if key not in self._known:
            self._known[key] = lattice_score(self.binary, corners, self.params.fit,
                                             self.params.exit_boxes)
        return self._known[key]

    def fit(self, corners: np.ndarray) -> LatticeFit:
        score = self(corners)
        return LatticeFit(corners=corners, score=score,
                          confidence=confidence(score, self.params.fit))


def _locate_in(image: np.ndarray, min_side: float, params: LocateParams,
               prior: np.ndarray | None = None) -> LatticeFit | None:
    """One pass of the locator on ``image`` (reduced to the working size); photo pixels.
    Lattices with a side shorter than ``min_side`` (pixels of ``image``) are not considered.

    ``prior``: a lattice already found (``image`` pixels; the zoomed pass is given the first
    pass's), tried first, and refined: when it is sure, no candidates are searched.

    When the usual candidates give no sure lattice, the same maps with the skin-coloured
    blobs left out (``skin_free_maps``: a hand's outline joined to the frame's) are searched
    apart, so that their guesses do not crowd out the usual ones, and their lattice is kept
    if it scores better. Still unsure, the quadrilaterals of the frame's visible sides
    (``lines``: a hand or a pen lies across the frame) are searched apart too; their lattice
    is kept if it scores better than a doubtful usual one, or clearly better than one good
    enough to read (on bent paper the frame's sides are not straight, and the usual
    candidates follow them better)."""
    fit_params = params.fit
    small, gray, scale = working_images(image, params.candidates)
    min_side *= scale
    block = threshold_block(gray, params.candidates)
    binary = dark_lines(gray, block, params=params.candidates)
    score = _Scorer(binary, params)
    groups = chain.from_iterable(candidates(source, params.candidates)  # made as needed
                                 for source in candidate_maps(gray, block, binary,
                                                              params.candidates))
    best = None if prior is None else _settled([prior * scale], min_side, score)
    if best is None or best.score < fit_params.sure_score:
        searched = _search(groups, min_side, score)
        if searched is not None and (best is None or searched.score > best.score):
            best = searched
    if params.skin.enabled and (best is None or best.score < fit_params.sure_score):
        # searched apart, so that their guesses do not crowd out the usual ones
        freed = _search(chain.from_iterable(
            candidates(source, params.candidates)
            for source in skin_free_maps(binary, small, block, params.candidates,
                                         params.skin)), min_side, score)
        if freed is not None and (best is None or freed.score > best.score):
            best = freed
    if params.lines.enabled and (best is None or best.score < fit_params.sure_score):
        sides = line_candidates(binary, min_side, params.candidates, params.lines)
        # the lattice fills most of such a quadrilateral (the frame's or the paper's): finer
        # combs would fit the cross ties of drawn railways
        across = _search([sides], min_side, score,
                         replace(fit_params, comb_steps=params.lines.comb_steps))
        if across is not None and (best is None or across.score > best.score + (
                params.lines.margin if best.score >= params.lines.doubtful_below else 0.0)):
            best = across
    if best is None:
        return None
    cell, extent = fit_params.view_cell, params.extent
    best.runs_on = lattice_runs_on(binary, best.corners, cell, extent)
    if best.runs_on:
        best = _resettle(best, min_side, score)
    if best.runs_on:  # still: is it a board cut by the photo's edge?
        best.runs_on = lattice_runs_on(binary, best.corners, cell, extent, clear_gaps=True)
        best.runs_off = lattice_runs_off(binary, best.corners, cell, extent)
    if best.confidence < fit_params.frame_measured_below:
        best.frame_seen = frame_seen(binary, gray, best.corners, fit_params)
    best.corners = (snap_to_frame(gray, best.corners, fit_params) / scale).astype(np.float32)
    return best


def _search(groups: Iterable[list[np.ndarray]], min_side: float, score: _Scorer,
            fit_params: FitParams | None = None) -> LatticeFit | None:
    """The best lattice from groups of candidate quadrilaterals, taken in turn until a guess
    is sure: guesses fitted in each (``comb_lattices``), the best of them also shifted by a
    whole space, and each refined (kept when it scores better). ``fit_params``: instead of
    the scorer's."""
    binary, fit_params = score.binary, fit_params or score.params.fit
    quads: list[np.ndarray] = []
    guesses: list[np.ndarray] = []
    scores: list[float] = []
    for group in groups:
        for quad in group:
            # Only exact repeats are skipped: a comb can fit a quad moved by one pixel better.
            if all(np.abs(quad - q).max() > 0 for q in quads):
                quads.append(quad)
                extra = [g for g in comb_lattices(binary, quad, fit_params)
                         if plausible(g, min_side, fit_params)]
                guesses += extra
                scores += [score(g) for g in extra]
        if max(scores, default=0.0) >= fit_params.sure_score:
            break  # a guess is already sure: no need for more candidates
    ranked = [guesses[i] for i in np.argsort(scores)[::-1][:fit_params.ranked]]
    # A comb can lock on one space off (a line of Exit marks or panel boxes looks like one
    # more lattice line); try the best guesses shifted by a whole space too.
    moves = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    shifted = [moved for g in ranked[:fit_params.shifted_from]
               for moved in shifted_lattices(g, moves)]
    shifted = sorted(shifted, key=lambda g: -score(g))[:fit_params.shifted_kept]
    return _settled(ranked + shifted, min_side, score, fit_params)


def _settled(guesses: Iterable[np.ndarray], min_side: float, score: _Scorer,
             fit_params: FitParams | None = None) -> LatticeFit | None:
    """The best-scoring of ``guesses`` (working-image pixels) and their refinements, the
    first best kept on a tie; None when none is plausible. ``fit_params``: instead of the
    scorer's."""
    fit_params = fit_params or score.params.fit
    best: LatticeFit | None = None
    for guess in guesses:
        for corners in (guess, refine(score.binary, guess, fit_params)):
            if plausible(corners, min_side, fit_params) and (
                    best is None or score(corners) > best.score):
                best = score.fit(corners)
    return best


def _resettle(fit: LatticeFit, min_side: float, score: _Scorer) -> LatticeFit:
    """A fit whose lines run on past a side may be part of a larger lattice: try it moved by
    up to two spaces each way (inside the image); keep a move whose lines run on past fewer
    sides and that scores at least as well (the fewest such sides, then the best score)."""
    binary, params = score.binary, score.params
    h, w = binary.shape
    reach = range(-params.extent.resettle_reach, params.extent.resettle_reach + 1)
    moves = [(dx, dy) for dx in reach for dy in reach if dx or dy]
    best, best_key = fit, (fit.runs_on, -fit.score)
    for moved in shifted_lattices(fit.corners, moves):
        for corners in (moved, refine(binary, moved, params.fit)):
            if corners.min() < 0 or (corners[:, 0] > w - 1).any() or \
                    (corners[:, 1] > h - 1).any() or not plausible(corners, min_side, params.fit):
                continue
            if score(corners) < fit.score:
                continue
            key = (lattice_runs_on(binary, corners, params.fit.view_cell, params.extent),
                   -score(corners))
            if key < best_key:
                best_key = key
                best = score.fit(corners)
                best.runs_on = key[0]
    return best
