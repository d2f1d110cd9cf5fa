"""Railways and highways in proportion: a board that reads far too few of one kind.

The route dice are symmetric between the two kinds of route (rules/RULINGS.md: each Route die
has the same three pieces as highway and as railway; the station/overpass die and the
Special Routes carry both alike), so on a board played with them about half of the route
sides are railway. On a faint, smeared or low-resolution photo the cell classifier can lose
the railway ties board-wide and read most railways as highways (or, more rarely, the other
way round), each space fairly surely, so neither the neighbour prior nor the review
threshold catches them.

``balance_routes`` looks at the decoded board: when it has at least ``min_sides`` route
sides and one kind holds less than ``low_share`` of them, that kind's evidence is weighed
up, by a factor per side it carries (``weights``, tried in turn), until the decoded board
gives it ``target_share``. The weights are capped: a reading the classifier is sure of does
not move, and if the cap is not enough the probabilities are left as they were. The
recogniser lists every space whose token the weighing changed, and warns that the board's
railways and highways may look alike.

Before that, ``split_routes`` sets each board's own divide between the two kinds. A player
draws every railway alike and every highway alike, so the evidence the classifier gives each
route side (the log-odds of railway against highway) falls in two groups; on a faint or
blurred photo one group can sit near even while the other is sure. The divide is put
midway between the two groups' mean evidence (two-means in one dimension, each side's
evidence counted up to ``split_clip``), at most ``split_cap`` from even, and the sides'
evidence is moved by it, so that near ties go the way the rest of the board suggests. A
divide within ``split_min`` of even leaves the probabilities as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from vision.decode import Decoded, DecodeParams, decode
from vision.review import ReviewEntry
from vision.space_parts import side_letters

KIND_WORDS = {"H": "highways", "R": "railways"}
SPLIT_ROUNDS = 20  # two-means in one dimension settles in a few rounds; at most this many


@dataclass(frozen=True)
class RouteBalanceParams:
    """When and how far a board's railway / highway evidence is weighed again. Chosen on
    300 phone-condition renders of seeds 8850000-8850299 and checked on 300 plain ones of
    7200000-, 300 Deep Blue of 9150000- and 300 Deep Blue phone-condition of 9350000- (none
    of them measured in docs/VISION.md). Of the renderer's played boards with at least 40
    route sides, about 1 in 100 truly has under 30 % of either kind; the cap keeps their
    sure readings."""

    enabled: bool = True
    min_sides: int = 40  # route sides read on the board, at least
    low_share: float = 0.3  # a kind with less than this share of them is short ...
    target_share: float = 0.35  # ... and is weighed up until it has at least this share
    # factor per side of the short kind (and divisor per side of the other), tried in turn;
    # the last is the cap
    weights: tuple[float, ...] = (1.22, 1.49, 1.82, 2.23)
    # the board's own divide (``split_routes``); None: the divide is even on every board
    split_cap: float | None = 0.5  # the divide's furthest from even, in log-odds
    split_clip: float = 6.0  # a side's evidence counted up to this, either way
    split_min: float = 0.1  # a divide nearer even than this is left even
    split_min_sides: int = 20  # route sides with a reading at least even, at least
    split_min_group: int = 3  # ... and at least this many either side of the divide


@dataclass
class Balance:
    """The probabilities to decode, and what the weighing did (``kind`` None: nothing)."""

    probs: np.ndarray  # (7, 7, n_classes)
    decoded: Decoded
    kind: str | None = None  # "H" or "R": the kind weighed up; the rest is set with it
    share_before: float = 0.0  # its share of the route sides as first decoded
    share_after: float = 0.0
    weight: float = 1.0
    changed: dict[tuple[int, int], str] = field(default_factory=dict)  # space: first token
    split: float = 0.0  # the board's own divide (``split_routes``), 0 if left even


def route_share(grid: list[list[str]], kind: str) -> tuple[float, int]:
    """(share of the grid's route sides that are ``kind``, route sides counted)."""
    counts = {"H": 0, "R": 0}
    for row in grid:
        for token in row:
            for letter in side_letters(token):
                if letter in counts:
                    counts[letter] += 1
    sides = counts["H"] + counts["R"]
    return (counts[kind] / sides if sides else 0.5), sides


@lru_cache(maxsize=8)
def side_kind_masks(classes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(4, n_classes) masks, read-only, of the classes with a railway, and with a highway,
    on each side (worked out once per class list)."""
    letters = [side_letters(t) for t in classes]
    railway = np.array([[t[k] == "R" for t in letters] for k in range(4)], dtype=np.float64)
    highway = np.array([[t[k] == "H" for t in letters] for k in range(4)], dtype=np.float64)
    railway.flags.writeable = highway.flags.writeable = False
    return railway, highway


@lru_cache(maxsize=8)
def kind_surplus(classes: tuple[str, ...]) -> np.ndarray:
    """(n_classes,) railway sides minus highway sides of each class, read-only."""
    railway, highway = side_kind_masks(classes)
    surplus = railway.sum(axis=0) - highway.sum(axis=0)
    surplus.flags.writeable = False
    return surplus


def side_odds(probs: np.ndarray, classes: list[str]) -> np.ndarray:
    """The log-odds of railway against highway of every side of every space that carries
    a route more likely than not (one value a side, flattened)."""
    railway, highway = side_kind_masks(tuple(classes))
    p = probs.reshape(-1, probs.shape[-1]).astype(np.float64)
    rail, road = p @ railway.T, p @ highway.T
    routed = rail + road >= 0.5
    return np.log((rail[routed] + 1e-6) / (road[routed] + 1e-6))


def board_split(odds: np.ndarray, params: RouteBalanceParams) -> float:
    """The board's divide between railway and highway evidence: two-means in one dimension
    from even, each side's evidence clipped to ``split_clip``, the divide capped at
    ``split_cap``; 0 when too few sides, or too few either side of the divide."""
    if params.split_cap is None or len(odds) < params.split_min_sides:
        return 0.0
    odds = np.clip(odds, -params.split_clip, params.split_clip)
    divide = 0.0
    for _ in range(SPLIT_ROUNDS):
        rail, road = odds[odds > divide], odds[odds <= divide]
        if min(len(rail), len(road)) < params.split_min_group:
            return 0.0
        moved = float(np.clip((rail.mean() + road.mean()) / 2,
                              -params.split_cap, params.split_cap))
        if moved == divide:
            break
        divide = moved
    return divide if abs(divide) >= params.split_min else 0.0


def split_routes(probs: np.ndarray, classes: list[str],
                 params: RouteBalanceParams = RouteBalanceParams()) -> tuple[np.ndarray, float]:
    """The probabilities with every side's railway evidence moved by the board's divide
    (``board_split``; each class weighed by exp(-divide / 2) per railway side over its
    highway sides), and the divide; ``probs`` itself when the divide is even."""
    divide = board_split(side_odds(probs, classes), params) if params.enabled else 0.0
    if divide == 0.0:
        return probs, 0.0
    weighed = probs * np.exp(-divide / 2 * kind_surplus(tuple(classes)))[None, None, :]
    return (weighed / weighed.sum(axis=2, keepdims=True)).astype(probs.dtype), divide


def short_kind(grid: list[list[str]], params: RouteBalanceParams) -> tuple[str | None, float]:
    """The kind of route the decoded grid holds too little of (None if neither), and its
    share."""
    share, sides = route_share(grid, "R")
    if sides < params.min_sides:
        return None, share
    if share < params.low_share:
        return "R", share
    if 1.0 - share < params.low_share:
        return "H", 1.0 - share
    return None, min(share, 1.0 - share)


def balance_routes(probs: np.ndarray, classes: list[str],
                   decode_params: DecodeParams | None = None,
                   params: RouteBalanceParams = RouteBalanceParams()) -> Balance:
    """The (7, 7, n_classes) probabilities split at the board's own divide
    (``split_routes``), then the short kind of route weighed up (see the module's
    docstring), and their decoding; ``probs`` as they are when the divide is even and
    nothing is short or the cap is not enough. ``decode_params``: the decoder's (its
    defaults when None)."""
    decode_params = decode_params or DecodeParams()
    probs, split = split_routes(probs, classes, params)
    first = decode(probs, classes, decode_params)
    if not params.enabled:
        return Balance(probs, first)
    kind, before = short_kind(first.grid, params)
    if kind is None:
        return Balance(probs, first, split=split)
    surplus = kind_surplus(tuple(classes)) * (1.0 if kind == "R" else -1.0)
    for weight in params.weights:
        weighed = probs * (weight ** surplus)[None, None, :]
        weighed = (weighed / weighed.sum(axis=2, keepdims=True)).astype(probs.dtype)
        decoded = decode(weighed, classes, decode_params)
        after, _ = route_share(decoded.grid, kind)
        if after >= params.target_share:
            changed = {(r, c): first.grid[r][c] for r in range(len(first.grid))
                       for c in range(len(first.grid[r]))
                       if decoded.grid[r][c] != first.grid[r][c]}
            return Balance(weighed, decoded, kind, before, after, weight, changed, split)
    return Balance(probs, first, split=split)


def balanced_review(balance: Balance, classes: list[str]) -> list[ReviewEntry]:
    """The decoded review list with every space the weighing changed listed (replacing the
    entry it had), saying what it was first read as."""
    if not balance.changed:
        return list(balance.decoded.review)
    entries = {(e.row, e.col): e for e in balance.decoded.review}
    grid, probs = balance.decoded.grid, balance.probs
    for (r, c), first in balance.changed.items():
        p = probs[r, c]
        order = np.argsort(p)[::-1][:3]
        entries[(r, c)] = ReviewEntry(
            r, c, grid[r][c], tuple((classes[i], round(float(p[i]), 3)) for i in order),
            f"read as {first} at first; the board reads few {KIND_WORDS[balance.kind]} "
            f"({balance.share_before:.0%} of its route sides), so its railways and highways "
            f"were weighed again")
    return sorted(entries.values(), key=lambda e: (e.row, e.col))


def balance_warning(balance: Balance) -> list[str]:
    """A board weighed again gets a warning: its railways and highways may look alike."""
    if balance.kind is None:
        return []
    return [(f"few {KIND_WORDS[balance.kind]} were read at first "
             f"({balance.share_before:.0%} of the route sides, {balance.share_after:.0%} "
             f"after weighing them again): railways and highways look alike on this photo, "
             f"check them")]
