"""Spaces read as empty on a board of faint ink where a route is possible: listed for review.

On phone photos the commonest misread is a drawn route read as empty (issue 14), the worst
kind, since the route vanishes from the score; on boards of faint ink (pencil, a pale marker,
worn dry-erase, a smeared dim-room photo) the readers give such a space a little route
probability, often too little for the decoder's review threshold. ``faint_empty_review``
lists a space read as empty on a board the faint-ink readers read (``vision.classify
.has_faint_ink``, or a doubtful board whose faint-ink reading was kept) when the classes with
a highway or railway side hold at least ``route_mass`` of its probability. Boards that show
water are left alone: there the doubt of an empty space is the lake beside it, not a faint
route (measured in docs/VISION.md, "Mirror images and faint routes read as empty").
Tokens are never changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.space import EMPTY_TOKEN
from vision.review import ReviewEntry
from vision.space_parts import side_letters
from vision.water_sighting import WATER_LETTERS

FAINT_EMPTY = "read as empty on a board of faint ink; a faint route may be drawn here"


@dataclass(frozen=True)
class FaintEmptyParams:
    """When an empty reading is listed. Chosen by replaying the review on the saved
    probabilities of the tuning renders (phone 8850000-, base 7200000-, Deep Blue 9150000-
    and Deep Blue phone 9350000-); 0.02 lists half as many spaces again for a quarter more
    misreads caught, 0.05 a third of the misreads fewer."""

    enabled: bool = True
    route_mass: float = 0.03  # the route classes' probability above which it is listed


@lru_cache(maxsize=8)
def _route_classes(classes: tuple[str, ...]) -> np.ndarray:
    """(n_classes,) bool: the classes with a highway or railway side."""
    return np.array([any(k in side_letters(t) for k in "HR") for t in classes])


def _has_water_sides(grid: list[list[str]]) -> bool:
    """Whether any space of the decoded grid has a river or lake side (however unsure; not
    ``vision.classify.shows_water``, which asks the same of probabilities)."""
    return any(k in side_letters(token) for row in grid for token in row for k in WATER_LETTERS)


def faint_empty_review(grid: list[list[str]], probs: np.ndarray, classes: list[str],
                       review: list[ReviewEntry], faint_ink: bool,
                       params: FaintEmptyParams = FaintEmptyParams()) -> list[ReviewEntry]:
    """The review list with every space read as empty on a board of faint ink
    (``faint_ink``: the faint-ink readers' reading) and no water added when its route
    classes hold at least ``params.route_mass`` of its (7, 7, n_classes) probability; a
    space already listed keeps its entry."""
    if not params.enabled or not faint_ink or _has_water_sides(grid):
        return list(review)
    listed = {(item.row, item.col) for item in review}
    route = probs[..., _route_classes(tuple(classes))].sum(axis=-1)
    added = []
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            if token != EMPTY_TOKEN or (r, c) in listed or route[r, c] < params.route_mass:
                continue
            p = probs[r, c]
            order = np.argsort(p)[::-1][:3]
            added.append(ReviewEntry(
                r, c, token, tuple((classes[i], round(float(p[i]), 3)) for i in order),
                f"{FAINT_EMPTY} (routes {route[r, c]:.2f})"))
    return sorted(list(review) + added, key=lambda item: (item.row, item.col))
