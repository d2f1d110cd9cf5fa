"""Spaces under a hand, a pen or a die, read from what their neighbours show.

The ink check (``vision.ink_check``) measures how much of each space something covers. The
classifier reads such a space from the little of it that shows, or from the cover itself: a
pen across an empty space looks like a highway, a hand hides a route entirely. On a board
that looks played by the rules (``vision.played.looks_played``), ``read_covered`` reads each
covered space again, weighing the classifier's reading by how much of the space shows against
what a played board has there given its neighbours (``vision.board_context``): the routes that
reach it, the Exits beside it, the empty spaces round it. A space whose reading changes is
listed for review with what the photo showed; every covered space is listed as covered by
the ink check in any case.

A board of drawings that do not join (a random or badly drawn board) gives its neighbours no
say: there the context would make up routes. A sure reading is kept as it is, and so is a
reading of a drawing players make only by mistake (a dead end, a three-way station), so that
a player's real mistakes still show up as Errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.board_context import ContextScorer
from vision.played import PlayedParams, looks_played
from vision.rectify import GRID
from vision.review import ReviewEntry
from vision.space_parts import ODD_CLASSES

FROM_NEIGHBOURS = "read from its neighbours"


@dataclass(frozen=True)
class CoveredParams:
    """When and how covered spaces are read from their neighbours. Chosen on 300
    phone-condition renders of seeds 8850000-8850299 and 300 plain ones of 7200000-7200299,
    none of them measured in docs/VISION.md."""

    enabled: bool = True
    covered: float = 0.2  # a space at least this much covered (the ink check's measure)
    # the classifier's log-probabilities count (1 - covered share) times, at least this much
    min_weight: float = 0.3
    # a reading at least this sure is kept, however covered its space: the reader sees its
    # ink (on the tuning renders, keeping them cost nothing)
    keep_sure: float = 0.99
    # when the board looks played (vision.played)
    played: PlayedParams = field(default_factory=PlayedParams)
    sweeps: int = 3  # passes over the covered spaces, so that neighbours settle together


def read_covered(grid: list[list[str]], probs: np.ndarray, review: list[ReviewEntry],
                 covered: np.ndarray, scorer: ContextScorer,
                 params: CoveredParams = CoveredParams()
                 ) -> tuple[list[list[str]], list[ReviewEntry]]:
    """The grid with its covered spaces read from their neighbours (on a board that
    ``looks_played``), and the review list with each changed space listed (replacing an
    entry it had). ``probs``: (7, 7, n_classes) over ``scorer.classes``; ``covered``: (7, 7)
    shares of each space covered."""
    if not params.enabled:
        return grid, list(review)
    spaces = [(r, c) for r in range(GRID) for c in range(GRID)
              if covered[r, c] >= params.covered and probs[r, c].max() < params.keep_sure
              and grid[r][c] not in ODD_CLASSES]
    if not spaces or not looks_played(grid, probs, covered, params.played):
        return grid, list(review)
    classes = scorer.classes
    logp = np.log(probs.astype(np.float64) + 1e-6)
    new = [row[:] for row in grid]
    posterior: dict[tuple[int, int], np.ndarray] = {}
    for _ in range(params.sweeps):
        for r, c in spaces:
            weight = max(params.min_weight, 1.0 - float(covered[r, c]))
            score = weight * logp[r, c] + scorer.scores(new, r, c)
            new[r][c] = classes[int(np.argmax(score))]
            posterior[(r, c)] = score
    entries = {(item.row, item.col): item for item in review}
    index = {token: i for i, token in enumerate(classes)}
    for r, c in spaces:
        if new[r][c] == grid[r][c]:
            continue
        score = posterior[(r, c)]
        p = np.exp(score - score.max())
        p /= p.sum()
        order = np.argsort(p)[::-1][:3]
        shown = float(probs[r, c, index[grid[r][c]]]) if grid[r][c] in index else 0.0
        entries[(r, c)] = ReviewEntry(
            r, c, new[r][c], tuple((classes[i], round(float(p[i]), 3)) for i in order),
            f"{FROM_NEIGHBOURS}: the photo shows {grid[r][c]} ({shown:.2f}) under what "
            f"covers it")
    merged = sorted(entries.values(), key=lambda item: (item.row, item.col))
    return new, merged
