"""Spaces a board's other readers read otherwise: listed for review.

A board the standard readers read doubtfully is read by the faint-ink readers too, and one
of the two readings is kept whole (``vision.recognizer.Recognizer.second_reading``). Where
the reading not kept names another piece for a space, and names it surely, the two sets of
networks disagree about that space: on a smeared phone photo the standard readers can be
sure of a railway's ties they cannot see (a railway read as a highway at 0.99), while the
faint-ink readers, trained on such photos, read it right. ``other_reading_review`` lists
those spaces, with the other reading as the first alternative. Tokens are never changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.review import ReviewEntry

OTHER_READERS = "the other readers read it as"


@dataclass(frozen=True)
class OtherReadingParams:
    """When a space the reading not kept reads otherwise is listed (docs/VISION.md,
    "What the other readers read")."""

    # its best class differs from the token read and holds at least this probability there
    # (None: no such entries)
    sure: float | None = 0.5


def other_reading_review(grid: list[list[str]], other: np.ndarray | None, classes: list[str],
                         review: list[ReviewEntry],
                         params: OtherReadingParams = OtherReadingParams()
                         ) -> list[ReviewEntry]:
    """The review list with every space whose token differs from the best class of
    ``other`` ((7, 7, n_classes), the reading of the board's readers not kept; None: the
    board was read once), that class at least ``params.sure`` sure, added; a space already
    listed keeps its entry."""
    if other is None or params.sure is None:
        return list(review)
    listed = {(item.row, item.col) for item in review}
    best = other.argmax(axis=-1)
    added = []
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            named = classes[int(best[r, c])]
            sure = float(other[r, c, best[r, c]])
            if (r, c) in listed or named == token or sure < params.sure:
                continue
            added.append(ReviewEntry(r, c, token, ((named, round(sure, 3)),),
                                     f"{OTHER_READERS} {named} ({sure:.2f})"))
    return sorted(list(review) + added, key=lambda item: (item.row, item.col))
