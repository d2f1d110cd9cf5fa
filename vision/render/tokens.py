"""Space tokens for the renderer, read with the project's one notation parser (scoring.space).

``BASE_TOKENS`` lists the 51 base-game space states (empty + every rotation and mirror image
of every die face and Special Route, RULINGS.md) in a fixed order: random boards and ghost
drawings pick from it by index, so the order is part of every seed's look. ``read_token``
parses (cached), ``sides`` gives the kind on each side of a drawing, ``check_grid`` checks a
whole grid. The expansion notation is docs/NOTATION.md.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.space import (
    EMPTY_TOKEN,
    LETTER_MARKERS,
    Piece,
    Space,
    TokenError,
    format_space,
    parse_token,
)
from scoring.specials import SPECIAL_NAMES
from vision.space_parts import side_letters

EMPTY = EMPTY_TOKEN
ROUTE_DIE = ("H_H_", "HH__", "HHH_", "R_R_", "RR__", "RRR_")
STATION_DIE = ("HRHRo", "HRHRo", "H_R_", "H_R_", "HR__", "HR__")
SPECIAL_ROUTES = tuple(SPECIAL_NAMES)  # HHHH RRRR HHRH HRRR HHRR HRHR


@lru_cache(maxsize=4096)
def read_token(token: str) -> Space:
    """``parse_token``, cached (the renderer reads the same few tokens over and over)."""
    return parse_token(token)


def sides(token: str) -> str:
    """The kind letter on N, E, S, W of what ``token`` draws (``_`` for none): ``HRHRo`` -> HRHR
    (the reader's ``side_letters``, from its cached ``token_parts``)."""
    return side_letters(token)


def markers(space: Space) -> list[str]:
    """The space's markers one by one: ``"@A!"`` -> ``["@A", "!"]``."""
    return re.findall(f"[{re.escape(LETTER_MARKERS)}].|.", space.markers)


def _mirrored(space: Space) -> Space:
    """The drawing reflected left to right (E and W swap)."""
    pieces = tuple(Piece((k[0], k[3], k[2], k[1])) for k in (p.kinds for p in space.pieces))
    return Space(pieces, space.markers)


@lru_cache(maxsize=256)
def orientations(token: str) -> tuple[str, ...]:
    """All distinct rotations and mirror images of a drawing, as canonical tokens."""
    space = read_token(token)
    seen: list[str] = []
    for base in (space, _mirrored(space)):
        for k in range(4):
            turned = format_space(base.turned(k))
            if turned not in seen:
                seen.append(turned)
    return tuple(seen)


def _all_orientations(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for token in tokens for t in orientations(token)))


SPECIAL_TOKENS = _all_orientations(SPECIAL_ROUTES)
BASE_TOKENS = (EMPTY, *_all_orientations(ROUTE_DIE + STATION_DIE + SPECIAL_ROUTES))

# Expansion drawings (docs/NOTATION.md), one orientation each; see expansion_tokens().
EXPANSION_SHAPES: tuple[str, ...] = (
    "W_W_",
    "WW__",
    "H_H_+_W_W",
    "R_R_+_W_W",  # river
    "L___",
    "LL__",
    "LLL_",
    "LLLL",
    "L_R_",
    "L_H_",
    "LLHR",
    "LLRH",  # lake
    "R___@A",
    "H___@A",
    "R___@B",
    "H___@B",
    "R___@C",
    "H___@C",  # portal
    ".!",
    "H_H_!",
    "RR__!",
    "HHH_!",  # ritual
    "H_H_?",
    "R_R_?",
    "HH__?",  # investigation
    "H_H_*",
    "HH__*",
    "HHH_*",
    "HHHH*",
    "H_H_+_H_H*",
    "HH__+__HH*",  # street lamps
    ".#",  # power grid
)


def expansion_tokens() -> tuple[str, ...]:
    """Every distinct rotation of the expansion shapes, as canonical tokens."""
    turned = (read_token(shape).turned(k) for shape in EXPANSION_SHAPES for k in range(4))
    return tuple(dict.fromkeys(format_space(space) for space in turned))


def check_grid(grid: list[list[str]]) -> None:
    """Raise TokenError unless ``grid`` is 7 rows of 7 tokens in the notation."""
    if len(grid) != 7 or any(len(row) != 7 for row in grid):
        shape = [len(row) for row in grid]
        raise TokenError(f"a grid is 7 rows of 7 tokens, got rows of lengths {shape}")
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            try:
                read_token(token)
            except TokenError as err:
                raise TokenError(f"row {r}, column {c}: not a space token: {err}") from None
