"""One space of the board: groups of connected sides (pieces), and its token notation.

A space holds zero or more *pieces*. Every end of one piece is connected to every other end of
that piece; ends of different pieces in the same space do not connect. So a station is one
piece (all its sides join), an overpass is two pieces (the highway passes over the railway),
and expansion drawings (bridges, double curves...) fit the same model.

Token notation (board-spec 4.1): four side letters in the order N, E, S, W (``H`` highway,
``R`` railway, ``_`` nothing), then an optional ``o`` for an overpass. ``.`` is empty.
Beyond the spec, several pieces in one space may be written joined by ``+`` (``H_H_+_R_R`` is
the overpass); expansions add side letters and trailing markers (see docs/NOTATION.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.quote import quoted
from scoring.sides import KIND_WORDS, Side

EMPTY_TOKEN = "."
BLANK = "_"
OVERPASS_SUFFIX = "o"
MARKER_WORDS: dict[str, str] = {
    "!": "ritual site",
    "?": "clue",
    "*": "street lamp",
    "#": "accumulator",
    "@": "portal",
}
"""Trailing marker characters that expansions put after a token (e.g. a lamp), with their words.
Expansions add theirs here; a marker never changes which sides connect."""
LETTER_MARKERS = "@"
"""Markers followed by one capital letter naming them (a portal ``@A``); see docs/NOTATION.md."""


class TokenError(ValueError):
    """A token that is not valid space notation; the message says why."""


@dataclass(frozen=True)
class Piece:
    """A group of connected ends: ``kinds[side]`` is the kind of end on that side, or None."""

    kinds: tuple[str | None, str | None, str | None, str | None]

    def kind_at(self, side: Side) -> str | None:
        return self.kinds[side]

    @property
    def sides(self) -> tuple[Side, ...]:
        return tuple(side for side in Side if self.kinds[side] is not None)

    def ends(self) -> tuple[tuple[Side, str], ...]:
        """(side, kind) for every end of this piece."""
        return tuple((side, kind) for side, kind in zip(Side, self.kinds) if kind is not None)

    def has_kind(self, kind: str) -> bool:
        return kind in self.kinds

    def turned(self, quarter_turns: int) -> Piece:
        """This piece after turning it clockwise by ``quarter_turns`` x 90 degrees."""
        q = quarter_turns % 4
        return Piece(tuple(self.kinds[(i - q) % 4] for i in range(4)))  # type: ignore[arg-type]

    @property
    def code(self) -> str:
        """The four side letters of this piece, e.g. ``H_R_``."""
        return "".join(kind or BLANK for kind in self.kinds)


@dataclass(frozen=True)
class Space:
    """What is drawn in one space: its pieces plus expansion markers (e.g. a lamp)."""

    pieces: tuple[Piece, ...] = ()
    markers: str = ""
    """Trailing marker characters defined by expansions, kept in token order."""
    token: str = field(default=EMPTY_TOKEN, compare=False)
    """The token as written (for messages); not part of equality."""

    @property
    def is_empty(self) -> bool:
        return not self.pieces and not self.markers

    def kind_at(self, side: Side) -> str | None:
        """The kind of end on ``side`` (None if blank)."""
        for piece in self.pieces:
            kind = piece.kind_at(side)
            if kind is not None:
                return kind
        return None

    def piece_at(self, side: Side) -> int | None:
        """Index of the piece with an end on ``side``, or None."""
        for index, piece in enumerate(self.pieces):
            if piece.kind_at(side) is not None:
                return index
        return None

    def turned(self, quarter_turns: int) -> Space:
        pieces = _sorted_pieces(piece.turned(quarter_turns) for piece in self.pieces)
        space = Space(pieces, self.markers)
        return Space(pieces, self.markers, format_space(space))


def _sorted_pieces(pieces) -> tuple[Piece, ...]:
    """Pieces in a canonical order, so equal drawings compare equal."""
    return tuple(sorted(pieces, key=lambda piece: piece.code))


def _is_overpass_shape(first: Piece, second: Piece) -> bool:
    """Two straight pieces crossing, the N-S one a highway and the E-W one a railway or v.v."""
    ns, ew = sorted((first, second), key=lambda p: p.kind_at(Side.N) is None)
    return (
        ns.sides == (Side.N, Side.S)
        and ew.sides == (Side.E, Side.W)
        and {ns.kind_at(Side.N), ns.kind_at(Side.S)} == {ns.kind_at(Side.N)}
        and {ew.kind_at(Side.E), ew.kind_at(Side.W)} == {ew.kind_at(Side.E)}
        and {ns.kind_at(Side.N), ew.kind_at(Side.E)} == {"H", "R"}
    )


def _parse_piece(code: str, token: str) -> Piece:
    if len(code) != 4:
        raise TokenError(f"{quoted(token)}: a piece is 4 side letters N, E, S, W (got {quoted(code)})")
    kinds = []
    for letter in code:
        if letter == BLANK:
            kinds.append(None)
        elif letter in KIND_WORDS:
            kinds.append(letter)
        else:
            known = ", ".join(sorted(KIND_WORDS))
            raise TokenError(
                f"{quoted(token)}: unknown side letter {letter!r} (use {known} or {BLANK})"
            )
    if all(kind is None for kind in kinds):
        raise TokenError(f"{quoted(token)}: a piece needs at least one side; write '.' for empty")
    return Piece(tuple(kinds))  # type: ignore[arg-type]


def parse_token(token: str) -> Space:
    """Parse one space token (``.``, ``H_R_``, ``HRHRo``, ``H_H_+_R_R``...).

    Trailing expansion markers (``MARKER_WORDS``) are split off and kept on the space.
    """
    markers = "".join(MARKER_WORDS)
    if token == EMPTY_TOKEN:
        return Space(token=token)
    end = len(token)  # markers are token[end:]
    while end:
        last = token[end - 1]
        if end >= 2 and token[end - 2] in LETTER_MARKERS and last.isupper():
            end -= 2
        elif last in LETTER_MARKERS:
            raise TokenError(f"{quoted(token)}: marker {last!r} needs a capital letter after it")
        elif last in markers:
            end -= 1
        else:
            break
    body, found = token[:end], token[end:]
    if body == EMPTY_TOKEN or (not body and found):
        return Space((), found, token)
    if body.endswith(OVERPASS_SUFFIX) and "+" not in body:
        code = body[: -len(OVERPASS_SUFFIX)]
        piece = _parse_piece(code, token)
        kinds = piece.kinds
        if kinds[0] != kinds[2] or kinds[1] != kinds[3] or None in kinds or kinds[0] == kinds[1]:
            raise TokenError(
                f"{quoted(token)}: an overpass is two straight routes of different kinds crossing, "
                "like HRHRo or RHRHo"
            )
        pieces = _sorted_pieces(
            (Piece((kinds[0], None, kinds[2], None)), Piece((None, kinds[1], None, kinds[3])))
        )
        return Space(pieces, found, token)
    pieces = _sorted_pieces(_parse_piece(code, token) for code in body.split("+"))
    taken: set[Side] = set()
    for piece in pieces:
        overlap = taken.intersection(piece.sides)
        if overlap:
            sides = ", ".join(side.name for side in sorted(overlap))
            raise TokenError(f"{quoted(token)}: two pieces use the same side ({sides})")
        taken.update(piece.sides)
    return Space(pieces, found, token)


def format_space(space: Space) -> str:
    """The canonical token of a space (inverse of ``parse_token``)."""
    if not space.pieces:
        return EMPTY_TOKEN + space.markers if space.markers else EMPTY_TOKEN
    if len(space.pieces) == 2 and _is_overpass_shape(*space.pieces):
        merged = "".join(space.kind_at(side) or BLANK for side in Side)
        return merged + OVERPASS_SUFFIX + space.markers
    return "+".join(piece.code for piece in space.pieces) + space.markers
