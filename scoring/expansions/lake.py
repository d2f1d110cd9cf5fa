"""Lake expansion (Deep Blue, 6 rounds): Smallest Lake, and networks joined through Lakes.

A space's water is a piece whose ends are its lake sides (side kind ``L``); a pier is one piece
joining route ends to lake sides, like a station. A Lake is a group of such pieces joined
across lake sides; it scores 1 point per space (piers included) for the Smallest Lake. The
engine joins networks through Lakes by itself (pieces join across same-kind ends), so routes on
piers of one Lake share a network. Open lake sides are never Errors; a route end facing a lake
side (no pier there) is an Error. An empty space with 3 or more sides against open lake sides
should have been filled with water (``LLLL``) and is reported; a filled space needs 3 such
sides (the dice never show a full lake).

The 2 Lake dice give at most 2 Lake spaces a round for 6 rounds: at most 12 spaces that are
not filled with water (filled spaces come from the filling rule, not from the dice).
"""

from __future__ import annotations

from scoring.board import SIZE, Board, Position
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.kind_groups import kind_groups, spaces_with_kind
from scoring.expansions.wording import counted
from scoring.graph import RouteGraph
from scoring.quote import quoted
from scoring.results import Illegal, Place, ScoreSheet
from scoring.sides import HIGHWAY, LAKE, RAILWAY, Side
from scoring.space import Piece, Space


def lake_sizes(graph: RouteGraph) -> list[int]:
    """The number of spaces of every Lake, in reading order of their first space."""
    return [len(group.spaces) for group in kind_groups(graph, LAKE)]


def expansion_score(board: Board, graph: RouteGraph) -> tuple[int, str]:
    """(points, score-sheet line): the Smallest Lake's spaces."""
    sizes = lake_sizes(graph)
    if not sizes:
        return 0, "no Lake drawn"
    listed = ", ".join(str(size) for size in sorted(sizes))
    return min(sizes), f"Smallest Lake {counted(min(sizes), 'space')}; Lakes of {listed}"


def _lake_faces() -> frozenset[tuple]:
    """Every rotation and mirror image of the Lake dice faces plus the full-lake space."""
    L, H, R = LAKE, HIGHWAY, RAILWAY
    faces = [
        (L, None, None, None), (L, L, None, None), (L, L, L, None), (L, L, L, L),
        (L, None, R, None), (L, None, H, None), (L, L, H, R),
    ]
    found = set()
    for kinds in faces:
        for mirrored in (kinds, (kinds[0], kinds[3], kinds[2], kinds[1])):
            for turn in range(4):
                found.add(Piece(mirrored).turned(turn).kinds)
    return frozenset(found)


LAKE_FACES = _lake_faces()
FULL_LAKE = (LAKE, LAKE, LAKE, LAKE)
ROUNDS = 6
DICE = 2
MOST_DIE_SPACES = ROUNDS * DICE
"""Lake spaces (not filled with water) the Lake dice can give in a game."""


def is_lake_face(space: Space) -> bool:
    """Whether a space with a lake side is one Lake die face (or the full lake) alone; the
    photo reader asks it too (vision.water_faces)."""
    lake_pieces = [p for p in space.pieces if p.has_kind(LAKE)]
    return (len(space.pieces) == 1 and len(lake_pieces) == 1
            and lake_pieces[0].kinds in LAKE_FACES)


def find_illegal(board: Board, graph: RouteGraph) -> list[Illegal]:
    """More Lake die spaces than the dice give, Lake drawings no die face makes, and empty
    spaces that should be filled with water."""
    found: list[Illegal] = []
    from_dice = [
        (row, col) for row, col in spaces_with_kind(board, LAKE)
        if all(piece.kinds != FULL_LAKE for piece in board[row, col].pieces)
    ]
    if len(from_dice) > MOST_DIE_SPACES:
        found.append(Illegal(
            "too-many-lakes",
            f"{len(from_dice)} Lake spaces not filled with water; the {DICE} Lake dice give at "
            f"most {MOST_DIE_SPACES} in {ROUNDS} rounds",
            tuple(Place(*p) for p in from_dice),
        ))
    for row, col in board.positions():
        space = board[row, col]
        lake_pieces = [p for p in space.pieces if p.has_kind(LAKE)]
        if lake_pieces and not is_lake_face(space):
            found.append(Illegal(
                "lake-not-a-face", f"{quoted(space.token)} is not a Lake die face", (Place(row, col),)
            ))
        facing = len(_lake_facing_sides(board, (row, col)))
        if space.is_empty and facing >= 3:
            found.append(Illegal(
                "lake-not-filled",
                "3 sides face open lake sides: the space should be filled with water (LLLL)",
                (Place(row, col),),
            ))
        if lake_pieces and lake_pieces[0].kinds == FULL_LAKE and facing < 3:
            found.append(Illegal(
                "lake-fill-unneeded",
                f"filled with water, but only {facing} of its sides face lake sides (3 are needed)",
                (Place(row, col),),
            ))
    return found


def _lake_facing_sides(board: Board, position: Position) -> list[Side]:
    row, col = position
    facing = []
    for side in Side:
        dr, dc = side.delta
        nr, nc = row + dr, col + dc
        if 0 <= nr < SIZE and 0 <= nc < SIZE and board[nr, nc].kind_at(side.opposite) == LAKE:
            facing.append(side)
    return facing


def exempt_end(kind: str) -> bool:
    """Open lake sides are never Errors."""
    return kind == LAKE


def drawings(board: Board) -> list[Place]:
    """Spaces holding Lake expansion drawings."""
    return [Place(r, c) for r, c in spaces_with_kind(board, LAKE)]


class LakeExpansion(Expansion):
    """The Lake expansion for ``scoring.engine.score`` (open lake sides are never Errors)."""

    name = "lake"
    title = "Lake"
    box = "Deep Blue"
    rounds = ROUNDS
    error_free_kinds = frozenset({LAKE})

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board, graph)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board, graph))
