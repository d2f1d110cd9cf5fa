"""The colour of a board's water against its routes: a river read as a highway is caught by
its ink.

Players often draw rivers and lakes with a blue pen and routes with another colour. Where a
board shows that (the spaces read surely as water have ink of one blueness,
``vision.crops.ink_blueness``, the spaces read surely as routes another, and they are drawn
in their own kind's colour, all but at most a tenth of the sure route spaces, which may be
river read surely as highway: a player who draws some routes with the blue pen too gets no
colour rule), every space's ink is sorted by it: a space read without water whose ink is
largely the water's colour is read again as the best reading with water, and one read with
water whose ink is all the routes' colour as the best without; either is listed for review.
A space read surely keeps its reading (a route drawn with the blue pen; a pier or bridge
whose routes hold most of its ink), but for one read as water alone, and is listed for
review (``kept_against_colour``). A space read empty that holds ink of the water's colour
is listed for review. A board whose water and routes share one colour is left as it was
read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from scoring.space import EMPTY_TOKEN
from vision.review import ReviewEntry
from vision.space_parts import side_letters
from vision.water_sighting import WATER_LETTERS, water_mask

WATER = frozenset(WATER_LETTERS)


@dataclass(frozen=True)
class WaterColourParams:
    """When a board's water colour is told apart from its routes', and what follows."""

    enabled: bool = True
    ink: int = 50  # a crop pixel at least this dark (0..255) is ink
    inset: float = 0.15  # the space's interior, this far in from its printed lines (spaces)
    min_ink_px: int = 30  # fewer ink pixels in a space: its colour is not measured
    sure: float = 0.9  # spaces read at least this surely give the board's two colours ...
    min_water_spaces: int = 1  # ... from at least this many water spaces
    min_route_spaces: int = 3  # ... and route spaces
    min_gap: float = 15.0  # the two blueness levels (0..255) at least this far apart
    water_share: float = 0.4  # a space's ink this much of the water's colour: water drawn
    land_share: float = 0.05  # at most this much: no water drawn
    # every sure route space's ink at most this much of the water's colour (but for this
    # share of them: a river read surely as a highway), and every sure water space's at
    # least this much (but for this share of them: thin banks whose colour does not show),
    # or the board's colours are not told apart
    route_share_max: float = 0.2
    route_exceptions: float = 0.1
    water_share_min: float = 0.5
    water_exceptions: float = 0.2
    # a space read at least this surely keeps its reading whatever its colour, but for one
    # read as water alone whose ink is all of the routes' colour: a route drawn with the
    # blue pen is read surely as a route, and a pier's or a bridge's routes may hold most of
    # its ink. Chosen on the Deep Blue tuning sets (docs/VISION.md, "Sure readings against
    # their ink's colour"); None: every space is read again by its colour
    keep_sure: float | None = 0.95


@dataclass(frozen=True)
class SpaceInk:
    """The ink of each of the 49 spaces: the blueness of each ink pixel in its interior."""

    blue: list[np.ndarray]

    @cached_property
    def pixels(self) -> np.ndarray:
        """(49,) how many ink pixels each space has."""
        return np.array([len(b) for b in self.blue])

    @cached_property
    def blueness(self) -> np.ndarray:
        """(49,) each space's median ink blueness (0..255; nan without ink)."""
        return np.array([np.median(b) if len(b) else np.nan for b in self.blue])


def space_ink(darkness: np.ndarray, blueness: np.ndarray, cell_px: int, margin_px: int,
              params: WaterColourParams) -> SpaceInk:
    """The ink of 49 crops (darkness and blueness, (49, S, S), ``margin_px`` context)."""
    lo = margin_px + round(params.inset * cell_px)
    hi = margin_px + cell_px - round(params.inset * cell_px)
    inside = darkness[:, lo:hi, lo:hi] >= params.ink
    return SpaceInk([b[lo:hi, lo:hi][m].astype(np.float32)
                     for b, m in zip(blueness, inside, strict=True)])


def board_colours(grid: list[list[str]], probs: np.ndarray, classes: list[str],
                  ink: SpaceInk, params: WaterColourParams) -> float | None:
    """The blueness between the board's water and its routes, from the spaces read surely
    as water alone and as routes alone with ink enough to measure (their median blueness
    levels' midpoint); None when there are too few, the levels are too close, or sure
    spaces' ink is not their kind's colour (more than ``water_exceptions`` of the sure water
    spaces', or ``route_exceptions`` of the sure route spaces'). Water-coloured ink is
    ``water_coloured``."""
    index = {token: i for i, token in enumerate(classes)}
    water, routes = [], []
    for k in range(len(ink.pixels)):
        r, c = divmod(k, 7)
        token = grid[r][c]
        if ink.pixels[k] < params.min_ink_px or probs[r, c, index[token]] < params.sure:
            continue
        letters = set(side_letters(token)) - {"_"}
        if letters and letters <= WATER:
            water.append(k)
        elif letters and not letters & WATER:
            routes.append(k)
    if len(water) < params.min_water_spaces or len(routes) < params.min_route_spaces:
        return None
    water_level = float(np.median(ink.blueness[water]))
    route_level = float(np.median(ink.blueness[routes]))
    if abs(water_level - route_level) < params.min_gap:
        return None
    middle = (water_level + route_level) / 2
    # below the middle: the routes are the bluer (a black river beside blue routes)
    middle = middle if water_level > route_level else -middle
    blue_routes = sum(water_share(ink, k, middle) > params.route_share_max for k in routes)
    pale_water = sum(water_share(ink, k, middle) < params.water_share_min for k in water)
    if (blue_routes > params.route_exceptions * len(routes)
            or pale_water > params.water_exceptions * len(water)):
        return None
    return middle


def water_share(ink: SpaceInk, k: int, middle: float) -> float:
    """The share of space ``k``'s ink of the water's colour: blueness above ``middle`` (or,
    when it is negative, below minus it)."""
    blue = ink.blue[k]
    return float(np.mean(blue >= middle if middle >= 0 else blue <= -middle))


def check_water_colour(grid: list[list[str]], probs: np.ndarray, classes: list[str],
                       review: list[ReviewEntry], ink: SpaceInk,
                       params: WaterColourParams = WaterColourParams()
                       ) -> tuple[list[list[str]], list[ReviewEntry], frozenset[tuple[int, int]]]:
    """The reading with each space's water agreeing with the colour of its ink (see the
    module); returns (grid, review, the spaces read with water whose ink is the water's
    colour), the inputs unchanged."""
    grid = [row[:] for row in grid]
    review = list(review)
    middle = board_colours(grid, probs, classes, ink, params) if params.enabled else None
    if middle is None:
        return grid, review, frozenset()
    coloured: set[tuple[int, int]] = set()
    has_water = water_mask(classes)
    index = {token: i for i, token in enumerate(classes)}
    for k in range(len(ink.pixels)):
        if ink.pixels[k] < params.min_ink_px:
            continue
        r, c = divmod(k, 7)
        read = grid[r][c]
        share = water_share(ink, k, middle)
        read_water = bool(has_water[index[read]])
        if read == ".":
            if share >= params.water_share:
                reason = (f"read as empty, but holds ink of the board's water colour "
                          f"({share:.0%} of it)")
                review = _listed(review, r, c, read, probs[r, c], classes, reason)
            continue
        if share >= params.water_share:
            coloured.add((r, c))
            if read_water:
                continue
            wanted, words = has_water, "the board's water colour"
        elif read_water and share <= params.land_share:
            wanted, words = ~has_water, "the board's route colour"
        else:
            continue
        p = probs[r, c]
        if kept_against_colour(read, float(p[index[read]]), params):
            review = _listed(review, r, c, read, p, classes,
                             f"its ink is {words} ({share:.0%} of it water-coloured), but it "
                             f"is read as {read} surely ({p[index[read]]:.2f}): kept")
            continue
        best = int(np.flatnonzero(wanted)[np.argmax(p[wanted])])
        grid[r][c] = classes[best]
        review = _listed(review, r, c, grid[r][c], p, classes,
                         f"read as {read} ({p[index[read]]:.2f}), but its ink is {words} "
                         f"({share:.0%} of it water-coloured): read as {grid[r][c]}")
    review.sort(key=lambda e: (e.row, e.col))
    return grid, review, frozenset(coloured)


def water_in_own_colour(probs: np.ndarray, classes: list[str], ink: SpaceInk,
                        params: WaterColourParams) -> bool:
    """Whether the spaces a reading ((49, n_classes) probabilities) reads as water, however
    surely, hold bluer ink than those it reads as routes without water: their median
    blueness at least ``params.min_gap`` higher (spaces with ``params.min_ink_px`` ink
    pixels or more). Water drawn with a blue pen beside routes of another colour is
    water; a base board's routes read as river or lake are drawn in the routes' own
    colour."""
    best = np.asarray(probs).reshape(len(ink.pixels), -1).argmax(axis=1)
    watery = water_mask(classes)[best]
    route = (best != classes.index(EMPTY_TOKEN)) & ~watery
    measured = ink.pixels >= params.min_ink_px
    if not (watery & measured).any() or not (route & measured).any():
        return False
    water_level = float(np.median(ink.blueness[watery & measured]))
    route_level = float(np.median(ink.blueness[route & measured]))
    return water_level - route_level >= params.min_gap


def kept_against_colour(token: str, sureness: float, params: WaterColourParams) -> bool:
    """Whether a space read as ``token`` this surely keeps that reading though its ink's
    colour says otherwise: when read at least ``params.keep_sure`` surely, unless it is read
    as water alone (whose ink, all of the routes' colour, leaves nothing of the reading)."""
    if params.keep_sure is None or sureness < params.keep_sure:
        return False
    return not set(side_letters(token)) - {"_"} <= WATER


def _listed(review: list[ReviewEntry], r: int, c: int, token: str, p: np.ndarray,
            classes: list[str], reason: str) -> list[ReviewEntry]:
    """``review`` with the space's entry replaced by one with ``reason``."""
    order = np.argsort(p)[::-1][:3]
    kept = [e for e in review if (e.row, e.col) != (r, c)]
    return kept + [ReviewEntry(r, c, token, tuple((classes[i], round(float(p[i]), 3))
                                                  for i in order), reason)]
