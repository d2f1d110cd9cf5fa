"""Probabilities to tokens, with neighbour agreement as a soft prior only.

A clear reading (top probability >= ``clear``) is never changed: players' real mistakes must
still show up as Errors. For unclear spaces, the candidates within ``near_tie`` of the best are
re-ranked by log-probability plus a small bonus for each side that agrees with the neighbour
or the Exit it faces (a route reaching an Exit of the other kind counts against: a highway
never joins a railway Exit), less a small penalty for water drawn in a shape no River or Lake die
gives (``vision.water_faces``) and, on a board whose reading shows water, for a dead end or
three-sided station, which no route die gives (``vision.route_faces``; such a space is never
moved onto water it was not read with): on an unclear space such a shape is far more often a
misread than a player's mistake. Every unclear or changed space goes to ``review``.

The neighbours get no say on a board whose sure readings clash too often for a played game
(``vision.played``): on a sheet of drawings that do not join, agreeing with the neighbours
turns right readings wrong (on 300 phone-condition tuning renders, the uniformly random
boards read 33 spaces worse with the bonus than without it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from scoring.exits import exit_at
from scoring.sides import ROUTE_KINDS, Side
from vision.played import PlayedParams, looks_unplayed
from vision.review import ReviewEntry
from vision.route_faces import is_odd_route, odd_route_mask
from vision.space_parts import side_letters
from vision.water_faces import is_odd_water, odd_water_mask
from vision.water_sighting import reads_water, water_mask

GRID = 7


@dataclass(frozen=True)
class DecodeParams:
    """The decoder's tunables (replaying decode on saved probabilities of 300 held-out photos
    with these varied over a grid moved the wrong spaces only between 107 and 112)."""

    clear: float = 0.97  # a reading at least this sure is kept as it is
    review_below: float = 0.9  # a final reading less sure than this is listed for review
    near_tie: float = 0.25  # candidates with p >= near_tie * p_best may win on agreement
    agreement_weight: float = 0.6  # log-probability units per agreeing side
    # a route reaching an Exit of its kind counts this many agreeing sides, one reaching an
    # Exit of the other kind this many clashing ones (replayed on the saved probabilities
    # of phone-condition tuning renders 8850000- (300): 0.5 and 0, the values until 6 Dec
    # 2026, 709 wrong spaces; 1 and 2, 699; 1 and 1.5, 702; 1 and 3, 699)
    exit_match: float = 1.0
    exit_clash: float = 2.0
    # a neighbour's side counts as surely as the neighbour is read (its top probability),
    # not fully whatever its doubt (replayed on the same set: 699 wrong spaces to 691)
    neighbour_sureness: bool = True
    # log-probability units taken from water no die gives (vision.water_faces); chosen by
    # replaying decode on the saved probabilities of Deep Blue tuning renders 9150000- (300)
    # and phone-condition ones 8850000- (300): 0.5, 1, 2 and 3 tried, 1 best on both
    odd_water_penalty: float = 1.0
    # ... and from routes no die gives, dead ends and three-sided stations
    # (vision.route_faces), on a board whose reading shows water (its unsure spaces read by
    # the parts network, whose dead ends are far more often misreads than the base-game
    # reader's). Replayed on the same saved probabilities (6 Dec 2026), on every board: Deep
    # Blue phone tuning 9350000- (196 boards) 603 wrong spaces with none, 588 with 0.5, 581
    # with 1, 576 with 2; phone tuning 8850000- (297) 693, 693, 693, 695; base tuning
    # 7200000- (300) 30, 31, 31, 31; Deep Blue tuning 9150000- (200) 63, 63, 62, 62; 1 on
    # the boards with water only: 583, 691, 30, 62; and a space read first as such a route
    # never moved onto water (the penalty made false water on those sets): 586, 691, 30, 62
    # (docs/VISION.md, "Routes no die gives")
    odd_route_penalty: float = 1.0
    # the agreement bonus counts for nothing on a board that looks unplayed (vision.played),
    # judged on the best classes of its sure spaces
    played: PlayedParams = field(default_factory=PlayedParams)


@dataclass
class Decoded:
    """Tokens chosen for the 7 x 7 spaces and the spaces a person should check."""

    grid: list[list[str]]
    review: list[ReviewEntry] = field(default_factory=list)


def _agreement(grid: list[list[str]], r: int, c: int, token: str, sureness: np.ndarray,
               params: DecodeParams) -> float:
    """Sides of ``token`` at (r, c) that match what they face, minus those that clash, each
    weighed by how surely the neighbour it faces is read (``sureness``: (7, 7) top
    probabilities; with ``neighbour_sureness`` off, 1 each); a route reaching an Exit counts
    ``exit_match`` if of its kind, ``-exit_clash`` if of the other (a highway never joins a
    railway Exit)."""
    score = 0.0
    mine = side_letters(token)
    for side in Side:
        dr, dc = side.delta
        rr, cc = r + dr, c + dc
        kind = mine[side]
        if 0 <= rr < GRID and 0 <= cc < GRID:
            facing = side_letters(grid[rr][cc])[side.opposite]
            weight = float(sureness[rr, cc]) if params.neighbour_sureness else 1.0
            score += weight if kind == facing else -weight
        elif kind != "_":
            exit_ = exit_at(r, c, side)
            if exit_ is None:
                continue
            if exit_.kind == kind:
                score += params.exit_match
            elif kind in ROUTE_KINDS:
                score -= params.exit_clash
    return score


def decode(probs: np.ndarray, classes: list[str], params: DecodeParams = DecodeParams()
           ) -> Decoded:
    """Choose tokens from (7, 7, n_classes) probabilities; list the spaces to review."""
    best = probs.argmax(axis=2)
    sureness = probs.max(axis=2)
    grid = [[classes[best[r, c]] for c in range(GRID)] for r in range(GRID)]
    if looks_unplayed(grid, probs, None, params.played):
        params = replace(params, agreement_weight=0.0)
    penalty = params.odd_water_penalty * odd_water_mask(classes)
    # spaces read first as a route no die gives, on a board read with water: weighed less,
    # and never moved onto water their first reading lacks
    odd_route = np.zeros((GRID, GRID), bool)
    if params.odd_route_penalty and reads_water(probs.reshape(-1, probs.shape[-1]), classes):
        odd_classes = odd_route_mask(classes)
        penalty = penalty + params.odd_route_penalty * odd_classes
        odd_route = odd_classes[best]
    dry = ~water_mask(classes)
    changed: dict[tuple[int, int], str] = {}
    for _ in range(2):  # two sweeps let neighbouring unclear spaces settle together
        for r in range(GRID):
            for c in range(GRID):
                p = probs[r, c]
                top = float(p.max())
                if top >= params.clear:
                    continue
                candidates = np.flatnonzero(p >= params.near_tie * top)
                if odd_route[r, c]:
                    candidates = candidates[dry[candidates]]
                scores = [np.log(p[i] + 1e-9) - penalty[i]
                          + params.agreement_weight
                          * _agreement(grid, r, c, classes[i], sureness, params)
                          for i in candidates]
                choice = classes[candidates[int(np.argmax(scores))]]
                grid[r][c] = choice
                if choice != classes[best[r, c]]:
                    changed[(r, c)] = classes[best[r, c]]
                else:
                    changed.pop((r, c), None)
    review = []
    index = {tok: i for i, tok in enumerate(classes)}
    for r in range(GRID):
        for c in range(GRID):
            p = probs[r, c]
            chosen = float(p[index[grid[r][c]]])
            if (r, c) not in changed and chosen >= params.review_below:
                continue
            order = np.argsort(p)[::-1][:3]
            reason = (_changed_reason(changed[(r, c)], float(p[index[changed[(r, c)]]]))
                      if (r, c) in changed else f"uncertain reading ({chosen:.2f})")
            review.append(ReviewEntry(
                r, c, grid[r][c],
                tuple((classes[i], round(float(p[i]), 3)) for i in order), reason))
    return Decoded(grid=grid, review=review)


def _changed_reason(first: str, p_first: float) -> str:
    """Why a space's first reading (its best class) was changed."""
    odd = (", water no die gives" if is_odd_water(first)
           else ", a route no die gives" if is_odd_route(first) else "")
    return f"read as {first} ({p_first:.2f}{odd}); changed to agree with its neighbours"
