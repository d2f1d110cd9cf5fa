"""A space as the cell classifier sees it: what each side carries and which sides join.

The classifier does not learn one flat class per token. It reads, for each of the four sides
N, E, S, W, its kind (``SIDE_KINDS``: nothing, highway, railway, river, lake) and, for each of
the six pairs of sides (``JOIN_PAIRS``), whether they belong to one piece. A token is then one
combination of those parts, so an overpass, a bridge over a river, a pier and a station differ
only in their joins, and the next expansion's marks can be added as another output of the same
network. ``CLASSES`` lists the tokens the reader may answer (base game, River and Lake, and the
drawings players make by mistake); ``token_parts`` gives the side kinds and joins of any token.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from scoring.space import parse_token

SIDE_KINDS: tuple[str, ...] = ("_", "H", "R", "W", "L")
# Pairs of sides (N=0, E=1, S=2, W=3): the four corners, then the two straight pairs.
JOIN_PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3))


@dataclass(frozen=True)
class SpaceParts:
    """Side kinds (indices into SIDE_KINDS, N E S W) and joins (one per JOIN_PAIRS entry:
    1 joined, 0 apart, -1 where a side of the pair carries nothing)."""

    kinds: tuple[int, int, int, int]
    joins: tuple[int, int, int, int, int, int]


@lru_cache(maxsize=4096)
def token_parts(token: str) -> SpaceParts:
    """The side kinds and joins of a token (board-spec notation, markers ignored)."""
    space = parse_token(token)
    kinds = [0, 0, 0, 0]
    piece_of = [-1, -1, -1, -1]
    for number, piece in enumerate(space.pieces):
        for side in piece.sides:
            kinds[side] = SIDE_KINDS.index(piece.kind_at(side))
            piece_of[side] = number
    joins = tuple(-1 if piece_of[a] < 0 or piece_of[b] < 0 else int(piece_of[a] == piece_of[b])
                  for a, b in JOIN_PAIRS)
    return SpaceParts(tuple(kinds), joins)  # type: ignore[arg-type]


def side_letters(token: str) -> str:
    """The N, E, S, W side letters of a token ('_' for none), pieces merged:
    ``side_letters("H_H_+_W_W") == "HWHW"``."""
    return "".join(SIDE_KINDS[k] for k in token_parts(token).kinds)


def turned_parts(parts: SpaceParts, quarter_turns: int) -> SpaceParts:
    """The parts of a space turned clockwise (North goes to East)."""
    k = quarter_turns % 4
    kinds = tuple(parts.kinds[(side - k) % 4] for side in range(4))
    return SpaceParts(kinds, _moved_joins(parts, lambda side: (side + k) % 4))  # type: ignore


def mirrored_parts(parts: SpaceParts) -> SpaceParts:
    """The parts of a space mirrored left-right (East and West swap)."""
    swap = (0, 3, 2, 1)
    kinds = tuple(parts.kinds[swap[side]] for side in range(4))
    return SpaceParts(kinds, _moved_joins(parts, lambda side: swap[side]))  # type: ignore


def _moved_joins(parts: SpaceParts, move) -> tuple[int, ...]:
    joins = [0] * len(JOIN_PAIRS)
    for (a, b), joined in zip(JOIN_PAIRS, parts.joins):
        pair = tuple(sorted((move(a), move(b))))
        index = next(i for i, p in enumerate(JOIN_PAIRS) if tuple(sorted(p)) == pair)
        joins[index] = joined
    return tuple(joins)


_STRAIGHTS = ["H_H_", "_H_H"]
_CURVES = ["HH__", "_HH_", "__HH", "H__H"]
_TEES = ["HHH_", "_HHH", "H_HH", "HH_H"]

# The 51 base-game classes: empty + the 50 base-game space states (board-spec 4.1 notation).
BASE_CLASSES: tuple[str, ...] = tuple(
    ["."]
    + _STRAIGHTS + _CURVES + _TEES
    + [t.replace("H", "R") for t in _STRAIGHTS + _CURVES + _TEES]
    + ["HRHRo", "RHRHo"]
    + ["H_R_", "_H_R", "R_H_", "_R_H"]
    + ["HR__", "_HR_", "__HR", "R__H"]
    + ["H__R", "RH__", "_RH_", "__RH"]
    + ["HHHH", "RRRR"]
    + ["HHRH", "HHHR", "RHHH", "HRHH"]
    + ["HRRR", "RHRR", "RRHR", "RRRH"]
    + ["HHRR", "RHHR", "RRHH", "HRRH"]
    + ["HRHR", "RHRH"]
)

# The 32 drawings that no die or Special Route gives but a player can still draw by mistake:
# the 8 dead ends (one side) and the 24 three-way stations (highway and railway meeting on
# three sides). They are read as drawn, so that the score counts their loose ends as Errors.
ODD_CLASSES: tuple[str, ...] = tuple(
    t for t in ("".join(sides) for sides in itertools.product("HR_", repeat=4))
    if t != "____" and t not in BASE_CLASSES
)

# The River and Lake dice faces (docs/NOTATION.md section 1), and the water drawings players
# make by mistake (a river ending in a space, a three-way river, a river over a river, a
# bridge over a curve, a river joining a route or a lake, lakes on opposite sides...).
WATER_FACES: tuple[str, ...] = (
    "W_W_", "WW__", "H_H_+_W_W", "R_R_+_W_W",
    "L___", "LL__", "LLL_", "LLLL", "L_R_", "L_H_", "LLHR", "LLRH",
)
ODD_WATER: tuple[str, ...] = (
    "W___", "WWW_", "WWWW", "W_W_+_W_W", "HH__+__WW", "RR__+__WW", "H_W_", "R_W_", "WL__",
    "L_L_", "LH__", "LR__", "LRL_", "LHL_", "L_LL+_R__", "L_LL+_H__",
)


def mirror_token(token: str) -> str:
    """The token of a space mirrored left-right (East and West swap, piece by piece)."""
    if token == ".":
        return token
    pieces = token.split("+")
    mirrored = [p[0] + p[3] + p[2] + p[1] + p[4:] for p in pieces]
    return "+".join(mirrored)


def _orientations(token: str) -> list[str]:
    """The distinct turns of a token and of its mirror image (as the scoring package turns
    them)."""
    seen: dict[SpaceParts, str] = {}
    for start in (token, mirror_token(token)):
        for k in range(4):
            turned = parse_token(start).turned(k).token
            seen.setdefault(token_parts(turned), turned)
    return list(seen.values())


WATER_CLASSES: tuple[str, ...] = tuple(
    dict.fromkeys(t for face in WATER_FACES + ODD_WATER for t in _orientations(face)))

# What the classifier answers: base ones first, then the odd base drawings, then water.
CLASSES: tuple[str, ...] = BASE_CLASSES + ODD_CLASSES + WATER_CLASSES

def class_index(classes: tuple[str, ...] | list[str] = CLASSES) -> dict[SpaceParts, int]:
    """Parts -> index in ``classes`` (the first class with those parts)."""
    index: dict[SpaceParts, int] = {}
    for i, token in enumerate(classes):
        index.setdefault(token_parts(token), i)
    return index


def class_of(token: str, index: dict[SpaceParts, int]) -> int:
    """Index of the class with the same parts as ``token`` in a ``class_index`` (-1: none),
    so ``"_W_W+H_H_"`` finds ``"H_H_+_W_W"``."""
    try:
        return index.get(token_parts(token), -1)
    except ValueError:
        return -1


def same_space(a: str, b: str) -> bool:
    """Whether two tokens draw the same thing (pieces in any order, markers ignored)."""
    return a == b or token_parts(a) == token_parts(b)
