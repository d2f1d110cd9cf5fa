"""Which Deep Blue expansions a photo shows: rivers (River) and lakes (Lake), and why.

A board whose spaces read as water is scored with River and/or Lake unless the player names
the expansions (``--expansion``). The policy guards base boards: one space read as water on a
board with no other water is far more likely a misread highway, railway or empty space than a
lone river, so it is read again without water and listed for review; a board needs
``min_river_spaces`` (``min_lake_spaces``) spaces with that kind of water, at least one of
them read surely, for the expansion to be seen, or one alone read beyond doubt
(``lone_sure``) in a drawing a die gives (``vision.water_faces``): a player of River or Lake
may well draw a single water space in a game. A space a hand lies on (the ink check finds
it covered by something skin-coloured, ``vision.ink_check.covering_skin``) is no evidence of
water: a hand shades the paper much as a filled lake does. It keeps its water reading when
the rest of the board shows that water (a lake may well lie under the hand), and loses it
with the rest when not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.sides import Side
from vision.rectify import GRID
from vision.review import ReviewEntry
from vision.space_parts import side_letters
from vision.water_faces import is_odd_water

# Side letter -> the expansion that draws it.
WATER_LETTERS = {"W": "river", "L": "lake"}
_WATER_WORDS = {"W": "a river", "L": "a lake"}


@dataclass(frozen=True)
class WaterParams:
    """When a photo counts as showing an expansion's water."""

    min_river_spaces: int = 2  # spaces read with a river side
    min_lake_spaces: int = 2  # spaces read with a lake side
    sure: float = 0.9  # ... at least one of them read at least this surely
    # ... or one such space alone, read at least this surely in a drawing a die gives. Chosen
    # on tuning renders (replayed on their saved probabilities): on the Deep Blue set
    # 9150000- (300) 0.99 recovered 11 boards' expansions, 0.999 4 and 0.9999 1; on the
    # phone-condition base set 8850000- (300) 0.99 made one more board show a river, 0.999 none
    lone_sure: float = 0.999
    # the parts network, not the base-game reader, reads a board on which at least one
    # space's best class has water at least this surely (vision.recognizer classify)
    route_sure: float = 0.99
    # ... or, on a board of faint ink that the faint-ink readers read first, at least
    # faint_route_spaces spaces' best classes have one kind of water, one of them at least
    # ``sure`` surely: the evidence sight_water asks of a board. The faint-ink parts network
    # reads the water of a pale or dim photo less surely than 0.99, and the faint-ink
    # base-game reader, which reads no water, then read all of it away. It also reads a faint
    # double-line highway as a river that surely, on scattered spaces, so rivers count only
    # when their spaces join each other along at least faint_route_river_joins sides, as a
    # river's course does. The rule does not hold for the standard parts network, which
    # reads false lakes as surely on phone photos of base boards, nor for a doubtful board's
    # second reading (docs/VISION.md, "Water read by the faint-ink parts network on less
    # sure evidence"). None: route_sure alone.
    faint_route_spaces: int | None = 2
    faint_route_letters: str = "WL"  # the kinds of water that rule counts (W, L)
    faint_route_river_joins: int = 2  # neighbouring spaces facing each other with rivers
    # On a board read without any water, a space whose best class in the parts network's
    # first reading has water, in a drawing a die gives, at least this surely, is listed
    # (``unseen_water``): a base-game reader, which knows no water, or the water rules read
    # it away, and a river read as a highway or a lake as nothing scores wrong with nothing
    # flagged. Chosen on the tuning renders (replayed on the parts network's saved first
    # readings; docs/VISION.md, "Water one network read and the reading dropped"). None: off.
    unseen_sure: float | None = 0.5


@dataclass(frozen=True)
class ExpansionSighting:
    """An expansion the photo shows: its name, the spaces that show it, and why, in words."""

    name: str
    spaces: tuple[tuple[int, int], ...]
    reason: str

    def to_json(self) -> dict:
        return {"name": self.name, "spaces": [list(rc) for rc in self.spaces],
                "reason": self.reason}


def water_mask(classes: list[str]) -> np.ndarray:
    """(n_classes,) bool, read-only: which classes have a river or lake side (worked out once
    per class list: every read asks several times)."""
    return _water_mask(tuple(classes))


@lru_cache(maxsize=8)
def _water_mask(classes: tuple[str, ...]) -> np.ndarray:
    mask = np.logical_or.reduce([_letter_mask(classes, letter) for letter in WATER_LETTERS])
    mask.flags.writeable = False
    return mask


@lru_cache(maxsize=16)
def _letter_mask(classes: tuple[str, ...], letter: str) -> np.ndarray:
    """(n_classes,) bool, read-only: which classes have a side of ``letter`` (W or L)."""
    mask = np.array([letter in side_letters(t) for t in classes])
    mask.flags.writeable = False
    return mask


def reads_water(probs: np.ndarray, classes: list[str], params: WaterParams = WaterParams(),
                spaces: int | None = None, letters: str = "") -> bool:
    """Whether (..., n_classes) probabilities of the 49 spaces, row by row, read water: some
    space's best class has a river or lake side at least ``params.route_sure`` surely, or
    (``spaces``, a number; None: not asked) that many spaces' best classes have a side of
    one of ``letters`` (W, L), one of them at least ``params.sure`` surely, rivers only
    where their spaces join each other along ``params.faint_route_river_joins`` sides
    (``river_joins``)."""
    flat = probs.reshape(-1, probs.shape[-1])
    best, sureness = flat.argmax(axis=1), flat.max(axis=1)
    if (water_mask(classes)[best] & (sureness >= params.route_sure)).any():
        return True
    if spaces is None:
        return False
    for letter in letters:
        kind = _letter_mask(tuple(classes), letter)[best]
        if kind.sum() < spaces or sureness[kind].max() < params.sure:
            continue
        if letter != "W" or river_joins(
                [classes[i] for i in best]) >= params.faint_route_river_joins:
            return True
    return False


def river_joins(tokens: list[str]) -> int:
    """How many pairs of neighbouring spaces, of 49 tokens row by row, face each other with
    river sides: a river's course joins its spaces, a misread highway's scattered spaces
    seldom do."""
    sides = [side_letters(t) for t in tokens]
    joins = 0
    for i, letters in enumerate(sides):
        row, col = divmod(i, GRID)
        for side in (Side.E, Side.S):  # each pair of neighbours once
            dr, dc = side.delta
            r, c = row + dr, col + dc
            if r < GRID and c < GRID and letters[side] == sides[r * GRID + c][side.opposite] == "W":
                joins += 1
    return joins


UNSEEN_WATER = "the parts network read water here"


def unseen_water(grid: list[list[str]], parts_probs: np.ndarray | None, classes: list[str],
                 review: list[ReviewEntry], params: WaterParams = WaterParams()
                 ) -> list[ReviewEntry]:
    """The review list with the spaces of a board read without water whose best class in
    the parts network's first reading (``parts_probs``, (7, 7, n_classes) over ``classes``;
    None: not known) has a river or lake, in a drawing a die gives, at least
    ``unseen_sure`` surely: a river read as a highway, or a lake as nothing, by a reader
    that knows no water or after the water rules read it away. A space already listed
    keeps its entry; tokens never change."""
    if params.unseen_sure is None or parts_probs is None:
        return list(review)
    if any(_spaces_with(grid, letter) for letter in WATER_LETTERS):
        return list(review)
    listed = {(item.row, item.col) for item in review}
    wet = water_mask(classes)
    added: list[ReviewEntry] = []
    for r in range(GRID):
        for c in range(GRID):
            p = parts_probs[r, c]
            best = int(np.argmax(p))
            if ((r, c) in listed or not wet[best] or p[best] < params.unseen_sure
                    or is_odd_water(classes[best])):
                continue
            order = np.argsort(p)[::-1][:3]
            added.append(ReviewEntry(
                r, c, grid[r][c], tuple((classes[i], round(float(p[i]), 3)) for i in order),
                f"{UNSEEN_WATER} ({classes[best]}, {p[best]:.2f}), but the board was read "
                f"without water: read as {grid[r][c]}", kind="water"))
    return sorted(list(review) + added, key=lambda item: (item.row, item.col))


def _spaces_with(grid: list[list[str]], letter: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(grid) for c, token in enumerate(row)
            if letter in side_letters(token)]


def _listed(spaces: list[tuple[int, int]], most: int = 4) -> str:
    shown = ", ".join(f"row {r}, column {c}" for r, c in spaces[:most])
    return shown + (f" and {len(spaces) - most} more" if len(spaces) > most else "")


def _lone_beyond_doubt(spaces: list[tuple[int, int]], grid: list[list[str]], surest: float,
                       hands: frozenset[tuple[int, int]], params: WaterParams) -> bool:
    """Whether the one space read with a kind of water shows its expansion alone: read at
    least ``lone_sure`` surely, in a drawing a die gives, on a board no hand lies on (where
    a hand lies, the photo's sure readings are less to be trusted: on phone tuning render
    8850283 a highway beside the hand was read as a river bridge at 0.9995)."""
    if len(spaces) != 1 or hands or surest < params.lone_sure:
        return False
    r, c = spaces[0]
    return not is_odd_water(grid[r][c])


def sight_water(grid: list[list[str]], probs: np.ndarray, classes: list[str],
                review: list[ReviewEntry], params: WaterParams = WaterParams(),
                coloured: frozenset[tuple[int, int]] = frozenset(),
                hands: frozenset[tuple[int, int]] = frozenset()
                ) -> tuple[list[list[str]], list[ReviewEntry], list[ExpansionSighting]]:
    """The expansions the read ``grid`` shows; a lone water reading is read again without
    that water and put in review. ``coloured``: spaces whose ink is the colour of the
    board's water (``vision.water_colour``), which count as read surely; ``hands``: spaces
    a hand lies on, which do not count. Returns (grid, review, sightings); inputs are not
    changed."""
    grid = [row[:] for row in grid]
    review = list(review)
    sightings: list[ExpansionSighting] = []
    index = {token: i for i, token in enumerate(classes)}
    unseen: set[str] = set()  # water letters found not to be on the board, so far
    for letter, name in WATER_LETTERS.items():
        spaces = _spaces_with(grid, letter)
        if not spaces:
            unseen.add(letter)
            continue
        evidence = [rc for rc in spaces if rc not in hands]
        surest = max((float(probs[r, c, index[grid[r][c]]]) for r, c in evidence), default=0.0)
        least = params.min_river_spaces if letter == "W" else params.min_lake_spaces
        if len(evidence) >= least and (surest >= params.sure or coloured & set(evidence)):
            sightings.append(ExpansionSighting(
                name, tuple(spaces),
                f"{len(spaces)} spaces drawn with {_WATER_WORDS[letter]} ({_listed(spaces)})"))
            continue
        if _lone_beyond_doubt(spaces, grid, surest, hands, params):
            sightings.append(ExpansionSighting(
                name, tuple(spaces),
                f"1 space drawn with {_WATER_WORDS[letter]} ({_listed(spaces)}), read beyond "
                f"doubt"))
            continue
        # read again without this water, nor the water already found not to be there
        unseen.add(letter)
        without = [i for i, token in enumerate(classes) if not unseen & set(side_letters(token))]
        for r, c in spaces:
            read = grid[r][c]
            p = probs[r, c]
            best = without[int(np.argmax(p[without]))]
            grid[r][c] = classes[best]
            review = [e for e in review if (e.row, e.col) != (r, c)]
            order = np.argsort(p)[::-1][:3]
            hand = " (a hand seems to lie on it)" if (r, c) in hands else ""
            review.append(ReviewEntry(
                r, c, grid[r][c], tuple((classes[i], round(float(p[i]), 3)) for i in order),
                f"read as {read} ({p[index[read]]:.2f}){hand}, but too little of the board "
                f"shows {_WATER_WORDS[letter]} to be sure: read as {grid[r][c]}"))
    review.sort(key=lambda e: (e.row, e.col))
    return grid, review, sightings
