"""Whether a board's readings join as in a game played by the rules.

In a game the routes drawn in neighbouring spaces join: a route reaching a side is carried
on across it, a blank side rarely meets a route end (an Error players avoid), a highway never
meets a railway. Two readers lean on that: the decoder's neighbour prior (``vision.decode``)
and the reading of covered spaces from their neighbours (``vision.covered``). Both hold only
where the board's sure readings show it: on a board of drawings that do not join (a random
or badly drawn sheet) agreeing with the neighbours makes up routes and breaks readings.
``looks_played`` and ``looks_unplayed`` say which board is which, from the share of clashing
sides between surely read neighbours: legal games clash on 0-20 % of such side pairs, the
renderer's uniformly random boards on 50-100 %. A board with too few such pairs to tell is
neither: the covered spaces keep their own reading there, the decoder keeps its prior.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.sides import Side
from scoring.space import EMPTY_TOKEN
from vision.rectify import GRID
from vision.space_parts import side_letters


@dataclass(frozen=True)
class PlayedParams:
    """When a board looks played: of the side pairs where two surely read, uncovered, drawn
    spaces meet with a route on either side, at most ``max_clashes`` clash (a route against
    a blank side or the other kind of route), over at least ``min_pairs`` pairs. Chosen on
    300 phone-condition renders of seeds 8850000-8850299 and 300 plain ones of
    7200000-7200299 (the covered spaces' tuning, docs/VISION.md)."""

    sure: float = 0.9  # a space read at least this surely counts
    covered: float = 0.2  # a space at least this much covered does not (the ink check's share)
    max_clashes: float = 0.3
    min_pairs: int = 3


def clash_share(grid: list[list[str]], probs: np.ndarray, covered: np.ndarray | None = None,
                params: PlayedParams = PlayedParams()) -> tuple[float, int]:
    """(share of clashing side pairs, pairs counted) between surely read, uncovered, drawn
    neighbours of ``grid``, where at least one of the two sides carries a route. ``probs``:
    (7, 7, n_classes); ``covered``: (7, 7) shares of each space covered (None: none is)."""
    clear = probs.max(axis=2) >= params.sure
    if covered is not None:
        clear &= covered < params.covered
    clashes = pairs = 0
    for r in range(GRID):
        for c in range(GRID):
            for side in (Side.E, Side.S):
                dr, dc = side.delta
                rr, cc = r + dr, c + dc
                if rr >= GRID or cc >= GRID or not (clear[r, c] and clear[rr, cc]):
                    continue
                if EMPTY_TOKEN in (grid[r][c], grid[rr][cc]):
                    continue
                mine = side_letters(grid[r][c])[side]
                theirs = side_letters(grid[rr][cc])[side.opposite]
                if mine == theirs == "_":
                    continue
                pairs += 1
                clashes += mine != theirs
    return (clashes / pairs if pairs else 1.0), pairs


def looks_played(grid: list[list[str]], probs: np.ndarray, covered: np.ndarray | None = None,
                 params: PlayedParams = PlayedParams()) -> bool:
    """Whether the board's clear spaces join as in a game played by the rules."""
    share, pairs = clash_share(grid, probs, covered, params)
    return pairs >= params.min_pairs and share <= params.max_clashes


def looks_unplayed(grid: list[list[str]], probs: np.ndarray, covered: np.ndarray | None = None,
                   params: PlayedParams = PlayedParams()) -> bool:
    """Whether the board's clear spaces clash too often for a game played by the rules."""
    share, pairs = clash_share(grid, probs, covered, params)
    return pairs >= params.min_pairs and share > params.max_clashes
