"""A space the reader asks a person to check, from decoding to the JSON output."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ReviewEntry:
    """One space to check: what was read there, the reader's other candidates, and why."""

    row: int
    col: int
    token: str
    """The token that was scored for this space."""
    alternatives: tuple[tuple[str, float], ...] = ()
    """The reader's top candidates, best first: (token, probability)."""
    reason: str = ""
    """Why it is listed, in words: 'uncertain reading (0.62)'."""
    kind: str = "reading"
    """Who listed it: "reading" (the classifier or decoder was unsure), "ink" (the ink check
    saw ink where empty was read), "covered" (something lies on the space), "hidden" (its
    printed lines do not show: glare, or something pale on it), "mark" (ink the reading
    does not explain), "ghost" (a route far fainter than the board's others whose ends join
    nothing: an erased earlier game?, vision.ink_check.ghost_spaces) or "water" (the parts network read water on a board read without
    it, vision.water_sighting.unseen_water). Not in the JSON item, whose keys stay those of board-spec 4.3; the
    reason says it in words."""

    def others(self) -> tuple[tuple[str, float], ...]:
        """The candidates other than the scored token."""
        return tuple(pair for pair in self.alternatives if pair[0] != self.token)

    def to_json(self) -> dict:
        """The board-spec 4.3 ``review`` item."""
        return {"row": self.row, "col": self.col, "token": self.token,
                "alternatives": [[token, round(float(p), 3)] for token, p in self.alternatives],
                "reason": self.reason}


def least_sure_first(review: list[ReviewEntry], probs: np.ndarray) -> list[ReviewEntry]:
    """The review list in the order a player should check it: the spaces the classifier is
    least sure of first (the best class's probability, ``probs`` (7, 7, n_classes)), ties
    in reading order. On the phone tuning renders a list so ordered holds about twice as
    many misreads in its first entry as one in reading order (docs/VISION.md, "The least
    sure spaces first")."""
    return sorted(review, key=lambda item: (float(probs[item.row, item.col].max()),
                                            item.row, item.col))
