"""Street Lamps expansion (Electricity, 6 rounds): 1 point per activated Street Lamp.

A Street Lamp is a highway-only space marked ``*`` (straight, curve, T, crossing, highway over
highway ``H_H_+_H_H*``, double curve ``HH__+__HH*``). Each Special Route used activates every
lamp of one row or column; the ``lamps activated:`` line lists the activated lamps. Checked:
every activated space holds a lamp, and the activated lamps fit in as many rows/columns as
Special Routes were drawn; every lamp space is one of those six Street Lamp die faces, and the
2 dice give at most 12 of them (2 a round for 6 rounds).
"""

from __future__ import annotations

from itertools import combinations

from scoring.board import SIZE, Board, Position
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.marked import listed_marked, listing_problems, marked, marked_places
from scoring.graph import RouteGraph
from scoring.quote import quoted
from scoring.results import Illegal, Place, ScoreSheet
from scoring.sides import HIGHWAY
from scoring.space import parse_token
from scoring.specials import special_route

LAMP = "*"
KEY = "lamps activated"
MAX_SPECIALS = 3
ROUNDS = 6
DICE = 2
MOST_LAMPS = ROUNDS * DICE
"""Street Lamp spaces the 2 Street Lamp dice can give in a game."""


def _lamp_faces() -> frozenset[tuple[tuple, ...]]:
    """The pieces of each Street Lamp die face, in every rotation (``Space.pieces`` order)."""
    faces = ("H_H_", "HH__", "HHH_", "HHHH", "H_H_+_H_H", "HH__+__HH")
    found = set()
    for face in faces:
        space = parse_token(face)
        for turn in range(4):
            found.add(tuple(piece.kinds for piece in space.turned(turn).pieces))
    return frozenset(found)


LAMP_FACES = _lamp_faces()


def lamps(board: Board) -> list[Position]:
    """Every space with a Street Lamp, in reading order."""
    return marked(board, LAMP)


def activated(board: Board, source: str = "<board>") -> list[Position]:
    """Activated spaces that really hold a lamp, each once."""
    return listed_marked(board, LAMP, KEY, source)


def expansion_score(board: Board, source: str = "<board>") -> tuple[int, str]:
    """(points, score-sheet line)."""
    lit = activated(board, source)
    return len(lit), f"{len(lit)} of {len(lamps(board))} lamps activated"


def special_routes(board: Board) -> int:
    """Spaces drawn with a Special Route (a lamp crossing ``HHHH*`` comes from the Street Lamp
    dice and is none)."""
    return sum(special_route(board[position]) is not None for position in board.positions())


def lines_needed(positions: list[Position]) -> int:
    """The fewest rows/columns that hold all ``positions`` (MAX_SPECIALS + 1 if more)."""
    if not positions:
        return 0
    lines = [("row", i) for i in range(SIZE)] + [("col", i) for i in range(SIZE)]
    for size in range(1, MAX_SPECIALS + 1):
        for chosen in combinations(lines, size):
            rows = {i for what, i in chosen if what == "row"}
            cols = {i for what, i in chosen if what == "col"}
            if all(r in rows or c in cols for r, c in positions):
                return size
    return MAX_SPECIALS + 1


def find_illegal(board: Board, source: str = "<board>") -> list[Illegal]:
    """Activations without a lamp, lamps off the highway, more rows/columns than Specials."""
    found = listing_problems(
        board, LAMP, KEY,
        missing=("lamp-missing", "listed as an activated lamp, but no Street Lamp is drawn here"),
        twice=("lamp-twice", "a Street Lamp can be activated only once"),
        source=source,
    )
    drawn = lamps(board)
    if len(drawn) > MOST_LAMPS:
        found.append(Illegal(
            "too-many-lamps",
            f"{len(drawn)} Street Lamps; the {DICE} Street Lamp dice give at most {MOST_LAMPS} "
            f"in {ROUNDS} rounds",
            tuple(Place(*p) for p in drawn),
        ))
    for position in drawn:
        pieces = board[position].pieces
        kinds = {k for piece in pieces for k in piece.kinds if k is not None}
        if kinds != {HIGHWAY}:
            found.append(Illegal(
                "lamp-not-highway", "a Street Lamp is drawn only on highway-only pieces",
                (Place(*position),),
            ))
        elif tuple(piece.kinds for piece in pieces) not in LAMP_FACES:
            found.append(Illegal(
                "lamp-not-a-face",
                f"{quoted(board[position].token)} is no Street Lamp die face (a straight, curve, "
                "T or crossing highway, a highway over a highway, or a double curve)",
                (Place(*position),),
            ))
    lit = activated(board, source)
    needed, specials = lines_needed(lit), min(special_routes(board), MAX_SPECIALS)
    if needed > specials:
        more = "more than 3" if needed > MAX_SPECIALS else str(needed)
        found.append(Illegal(
            "lamps-not-earned",
            f"the activated lamps need {more} rows/columns, but only {specials} Special "
            "Routes were drawn (each activates one row or column)",
            tuple(Place(*p) for p in lit),
        ))
    return found


def drawings(board: Board) -> list[Place]:
    """Spaces with Street Lamps."""
    return marked_places(board, LAMP)


class StreetLampsExpansion(Expansion):
    """The Street Lamps expansion for ``scoring.engine.score``."""

    name = "street-lamps"
    title = "Street Lamps"
    box = "Electricity"
    rounds = ROUNDS

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board))
