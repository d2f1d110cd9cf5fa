"""Space tokens in board-spec 4.1 notation, parsed just far enough to draw them.

A token is four side letters N, E, S, W (``H`` highway, ``R`` railway, ``_`` nothing) with an
optional trailing ``o`` (overpass), or ``.`` for an empty space. Odd tokens such as ``H___``
parse too, so illegal drawings can be rendered. The expansion notation of docs/NOTATION.md is
understood as far as drawing needs: side letters ``W`` (river) and ``L`` (lake), several
pieces joined by ``+`` and trailing markers (``@A`` portal, ``!`` ritual site, ``?`` clue,
``*`` street lamp, ``#`` accumulator).
"""

from __future__ import annotations

from dataclasses import dataclass

SIDES = "NESW"
EMPTY = "."

# The 51 base-game space states: empty + every rotation and mirror image of every die face
# and Special Route (RULINGS.md, board-spec 4.1).
BASE_TOKENS: tuple[str, ...] = (
    ".",
    "H_H_",
    "_H_H",
    "HH__",
    "_HH_",
    "__HH",
    "H__H",
    "HHH_",
    "_HHH",
    "H_HH",
    "HH_H",
    "R_R_",
    "_R_R",
    "RR__",
    "_RR_",
    "__RR",
    "R__R",
    "RRR_",
    "_RRR",
    "R_RR",
    "RR_R",
    "HRHRo",
    "RHRHo",
    "H_R_",
    "_H_R",
    "R_H_",
    "_R_H",
    "HR__",
    "_HR_",
    "__HR",
    "R__H",
    "H__R",
    "RH__",
    "_RH_",
    "__RH",
    "HHHH",
    "RRRR",
    "HHRH",
    "HHHR",
    "RHHH",
    "HRHH",
    "HRRR",
    "RHRR",
    "RRHR",
    "RRRH",
    "HHRR",
    "RHHR",
    "RRHH",
    "HRRH",
    "HRHR",
    "RHRH",
)

SPECIAL_TOKENS: tuple[str, ...] = (
    "HHHH",
    "RRRR",
    "HHRH",
    "HHHR",
    "RHHH",
    "HRHH",
    "HRRR",
    "RHRR",
    "RRHR",
    "RRRH",
    "HHRR",
    "RHHR",
    "RRHH",
    "HRRH",
    "HRHR",
    "RHRH",
)


class TokenError(ValueError):
    """A string that is not a space token."""


@dataclass(frozen=True)
class Space:
    """One space's route ends: ``sides[i]`` is 'H', 'R' or '_' for side N, E, S, W."""

    sides: str
    overpass: bool = False

    @property
    def is_empty(self) -> bool:
        return self.sides == "____" and not self.overpass

    @property
    def is_station(self) -> bool:
        return "H" in self.sides and "R" in self.sides and not self.overpass

    @property
    def token(self) -> str:
        if self.is_empty:
            return EMPTY
        return self.sides + ("o" if self.overpass else "")

    def rotated(self, quarter_turns: int) -> Space:
        """The space turned clockwise by ``quarter_turns`` x 90 degrees."""
        k = quarter_turns % 4
        return Space(self.sides[-k:] + self.sides[:-k] if k else self.sides, self.overpass)


def parse_token(token: str) -> Space:
    """Parse one token; raise TokenError naming it when it is malformed."""
    if token == EMPTY:
        return Space("____")
    body, overpass = (token[:-1], True) if token.endswith("o") else (token, False)
    if len(body) != 4 or any(c not in SIDE_LETTERS for c in body):
        raise TokenError(f"not a space token: {token!r}")
    return Space(body, overpass)


SIDE_LETTERS = "HRWL_"
MARKERS = "!?*#"  # and "@" followed by a capital letter


@dataclass(frozen=True)
class Drawing:
    """Everything drawn in one space: its pieces (not connected to each other) and markers."""

    pieces: tuple[Space, ...]
    markers: tuple[str, ...] = ()


def parse_drawing(token: str) -> Drawing:
    """Parse a token with expansion pieces and markers (``H_H_+_W_W``, ``R___@A``, ``.#``)."""
    body, markers = token, []
    while body:
        if len(body) >= 2 and body[-2] == "@" and body[-1].isupper():
            markers.insert(0, body[-2:])
            body = body[:-2]
        elif body[-1] in MARKERS:
            markers.insert(0, body[-1])
            body = body[:-1]
        else:
            break
    if body in ("", EMPTY):
        if not markers and body == "":
            raise TokenError(f"not a space token: {token!r}")
        return Drawing((), tuple(markers))
    try:
        pieces = tuple(parse_token(code) for code in body.split("+"))
    except TokenError:
        raise TokenError(f"not a space token: {token!r}") from None
    return Drawing(pieces, tuple(markers))


def rotate_token(token: str, quarter_turns: int) -> str:
    """The token of the space turned clockwise by ``quarter_turns`` x 90 degrees."""
    return parse_token(token).rotated(quarter_turns).token


def check_grid(grid: list[list[str]]) -> None:
    """Raise TokenError unless ``grid`` is 7 rows of 7 parseable tokens."""
    if len(grid) != 7 or any(len(row) != 7 for row in grid):
        shape = [len(row) for row in grid]
        raise TokenError(f"a grid is 7 rows of 7 tokens, got rows of lengths {shape}")
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            try:
                parse_drawing(token)
            except TokenError as err:
                raise TokenError(f"row {r}, column {c}: {err}") from None


def rotate_drawing(token: str, quarter_turns: int) -> str:
    """Any token (expansion pieces and markers too) turned clockwise by quarter turns."""
    drawing = parse_drawing(token)
    if not drawing.pieces:
        return token
    pieces = "+".join(p.rotated(quarter_turns).token for p in drawing.pieces)
    return pieces + "".join(drawing.markers)


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
    """Every distinct rotation of the expansion shapes."""
    seen: list[str] = []
    for shape in EXPANSION_SHAPES:
        for k in range(4):
            token = rotate_drawing(shape, k)
            if token not in seen:
                seen.append(token)
    return tuple(seen)
