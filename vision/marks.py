"""Ink the reading does not explain: the marks of expansions rink does not read from photos.

Portal letters, ritual sites, clues, street lamps, lightning, the Accumulator's charges and
the investigator (Eldritch and Electricity), and a player's scribbles and corrections, are ink
in a space that no route explains. rink does not score them from a photo, so a board that
carries them would come back with a total that leaves them out, and nothing said (issue 14).
The parts network has a second output for this, its mark head (``scripts/train_mark_head.py``:
trained on the frozen features that read the route, so the reading itself is unchanged): the
probability that a space holds such ink. ``check_marks`` turns it into review entries; it never
changes a token.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.rectify import GRID
from vision.review import ReviewEntry
from vision.space_parts import side_letters

UNEXPLAINED = "ink the reading does not explain (an expansion's mark, a scribble, a correction?)"


@dataclass(frozen=True)
class MarkParams:
    """When a space's mark probability puts it in review."""

    enabled: bool = True
    # None: the threshold shipped in the network's metadata (``mark_head.threshold``: it flags
    # a set share of the validation spaces without marks)
    threshold: float | None = None
    # this many spaces or more with such ink: the board gets a warning that its total leaves
    # out what those marks would score (one space may be a scribble)
    warn_spaces: int = 2


def mark_threshold(network_threshold: float | np.ndarray | None, params: MarkParams
                   ) -> float | np.ndarray | None:
    """The probability above which a space is listed, for the board or (7, 7) for each space
    (a reading merged from two networks); None: no check on this board."""
    if not params.enabled:
        return None
    return params.threshold if params.threshold is not None else network_threshold


def explains_fills(token: str) -> bool:
    """Whether a reading explains ink all over its space: a lake (filled, hatched, dotted or
    with wave marks, board-spec 2), where a mark head sees the strokes of its fill as
    marks."""
    return "L" in side_letters(token)


def check_marks(grid: list[list[str]], review: list[ReviewEntry], marks: np.ndarray | None,
                threshold: float | np.ndarray | None) -> list[ReviewEntry]:
    """The review list with the spaces whose mark probability (``marks``, (7, 7)) reaches
    ``threshold`` (the board's, or (7, 7) each space's) listed as holding ink the reading
    does not explain, unless the reading is a lake (``explains_fills``); a space already
    listed keeps its entry, the reason added after its own. With no marks or no threshold,
    the review as it is."""
    if marks is None or threshold is None:
        return list(review)
    thresholds = np.broadcast_to(np.asarray(threshold, np.float64), (GRID, GRID))
    entries = {(item.row, item.col): item for item in review}
    added: list[ReviewEntry] = []
    for r in range(GRID):
        for c in range(GRID):
            p = float(marks[r, c])
            if p < thresholds[r, c] or explains_fills(grid[r][c]):
                continue
            reason = f"{UNEXPLAINED} ({p:.2f})"
            old = entries.get((r, c))
            if old is None:
                added.append(ReviewEntry(r, c, grid[r][c], (), reason, kind="mark"))
            else:
                entries[(r, c)] = ReviewEntry(old.row, old.col, old.token, old.alternatives,
                                              f"{old.reason}; {reason}", kind=old.kind)
    merged = [entries[(item.row, item.col)] for item in review] + added
    return sorted(merged, key=lambda item: (item.row, item.col))


def marks_warning(review: list[ReviewEntry], params: MarkParams) -> list[str]:
    """A board-level warning when ``params.warn_spaces`` or more spaces hold ink the reading
    does not explain: most likely the marks of an expansion rink does not read from photos,
    which the total then leaves out."""
    marked = [item for item in review if UNEXPLAINED in item.reason]
    if not params.enabled or len(marked) < params.warn_spaces:
        return []
    places = ", ".join(f"row {item.row}, column {item.col}" for item in marked[:6])
    more = f" and {len(marked) - 6} more" if len(marked) > 6 else ""
    return [(f"{len(marked)} spaces hold ink the reading does not explain ({places}{more}): "
            "if they are marks of an expansion rink does not read from photos (Eldritch, "
            "Electricity), the total leaves out what they score; type the board with its "
            "expansion to score them")]
