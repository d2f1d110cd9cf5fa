"""River expansion (Deep Blue, 6 rounds): score one River of the player's choice.

A River is a group of river pieces (side kind ``W``) joined across sides. It scores 1 point per
space it runs through, plus 3 when it has ends and all of them reach the outer edge; the player
picks the best River. Open River ends are Errors (the engine counts them like route ends).
Routes cross a River only on a bridge: a straight river and a straight route crossing in one
space as two pieces (``H_H_+_W_W``). Rivers never connect to routes or Exits.

The 2 River dice (RULINGS.md) show a curved river, a straight river and a straight river under
a highway or a railway bridge; the game lasts 6 rounds and each die is drawn at most once a
round, so a board holds at most 12 River spaces, each one of those faces.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import SIZE, Board, Position
from scoring.exits import exit_at
from scoring.expansion_api import Expansion, ExpansionScore
from scoring.expansions.kind_groups import KindGroup, kind_groups, spaces_with_kind
from scoring.expansions.wording import counted
from scoring.graph import RouteGraph
from scoring.quote import quoted
from scoring.results import Illegal, Place, ScoreSheet
from scoring.sides import KIND_WORDS, RIVER, ROUTE_KINDS, Side
from scoring.space import Space

EDGE_BONUS = 3
ROUNDS = 6
DICE = 2
MOST_SPACES = ROUNDS * DICE
"""River spaces the River dice can give in a game: 2 a round for 6 rounds."""
FACES_IN_WORDS = (
    "a River die gives a straight or curved river, or a straight river under a straight "
    "highway or railway bridge"
)


@dataclass(frozen=True)
class RiverResult:
    """One River: its spaces and whether both (all) its ends reach the outer edge."""

    spaces: tuple[Position, ...]
    edge_to_edge: bool

    @property
    def points(self) -> int:
        return len(self.spaces) + (EDGE_BONUS if self.edge_to_edge else 0)


def rivers(graph: RouteGraph) -> list[RiverResult]:
    """Every River on the board."""
    return [_river(group) for group in kind_groups(graph, RIVER)]


def _river(group: KindGroup) -> RiverResult:
    edge_to_edge = bool(group.edge_ends) and not group.open_ends
    return RiverResult(group.spaces, edge_to_edge)


def best_river(graph: RouteGraph) -> RiverResult | None:
    """The River worth most points (the player's choice); None when there is none."""
    found = rivers(graph)
    return max(found, key=lambda river: river.points) if found else None


def expansion_score(board: Board, graph: RouteGraph) -> tuple[int, str]:
    """(points, score-sheet line) for the River expansion."""
    river = best_river(graph)
    if river is None:
        return 0, "no River drawn"
    bonus = f" + {EDGE_BONUS} for both ends at the edge" if river.edge_to_edge else ""
    return river.points, f"best River {counted(len(river.spaces), 'space')}{bonus}"


def _is_bridge(pieces) -> bool:
    """A straight river and a straight route crossing it, not connected."""
    if len(pieces) != 2:
        return False
    river = [p for p in pieces if p.has_kind(RIVER)]
    route = [p for p in pieces if not p.has_kind(RIVER)]
    if len(river) != 1 or len(route) != 1:
        return False
    straight = ((Side.N, Side.S), (Side.E, Side.W))
    route_kinds = {kind for kind in route[0].kinds if kind is not None}
    return (
        river[0].sides in straight
        and route[0].sides in straight
        and river[0].sides != route[0].sides
        and len(route_kinds) == 1
        and route_kinds <= set(ROUTE_KINDS)
    )


def face_problem(space: Space) -> tuple[str, str] | None:
    """(code, message) when a space with a river is no River die face, else None (the photo
    reader asks it too: vision.water_faces)."""
    rivers = [p for p in space.pieces if p.has_kind(RIVER)]
    if any(set(p.kinds) & set(ROUTE_KINDS) for p in rivers):
        return "river-joins-route", "a river is joined to a route"
    one_river = len(rivers) == 1 and set(rivers[0].kinds) <= {RIVER, None}
    if not one_river or len(rivers[0].sides) != 2:
        return "river-not-a-face", f"{quoted(space.token)} is no River die face ({FACES_IN_WORDS})"
    if len(space.pieces) > 1 and not _is_bridge(space.pieces):
        if any(set(p.kinds) & set(ROUTE_KINDS) for p in space.pieces):
            return "river-no-bridge", "a route shares a space with a river without a bridge"
        return "river-not-a-face", f"{quoted(space.token)} is no River die face ({FACES_IN_WORDS})"
    return None


def find_illegal(board: Board, graph: RouteGraph) -> list[Illegal]:
    """River drawings that break the rules: more River spaces than the dice give, a space that
    is no River die face, a river joined to a route, a crossing without a bridge, a river into
    an Exit."""
    found: list[Illegal] = []
    spaces = spaces_with_kind(board, RIVER)
    if len(spaces) > MOST_SPACES:
        found.append(Illegal(
            "too-many-rivers",
            f"{len(spaces)} River spaces; the {DICE} River dice give at most {MOST_SPACES} "
            f"in {ROUNDS} rounds",
            tuple(Place(*p) for p in spaces),
        ))
    for row, col in spaces:
        space = board[row, col]
        river_pieces = [p for p in space.pieces if p.has_kind(RIVER)]
        place = (Place(row, col),)
        problem = face_problem(space)
        if problem is not None:
            found.append(Illegal(*problem, place))
        for piece in river_pieces:
            for side, kind in piece.ends():
                if kind != RIVER:
                    continue
                exit_ = exit_at(row, col, side)
                facing = _facing_kind(board, row, col, side)
                if exit_ is not None:
                    found.append(Illegal(
                        "river-into-exit", f"a river runs into the {exit_.words}",
                        (Place(row, col, side),),
                    ))
                elif facing in ROUTE_KINDS:
                    found.append(Illegal(
                        "river-meets-route",
                        f"a river meets a {KIND_WORDS[facing]} end; routes cross rivers only "
                        "on bridges",
                        (Place(row, col, side),),
                    ))
    return found


def _facing_kind(board: Board, row: int, col: int, side: Side) -> str | None:
    """The kind of end across ``side`` in the neighbouring space (None off the board)."""
    nr, nc = row + side.delta[0], col + side.delta[1]
    if 0 <= nr < SIZE and 0 <= nc < SIZE:
        return board[nr, nc].kind_at(side.opposite)
    return None


def drawings(board: Board) -> list[Place]:
    """Spaces holding River expansion drawings."""
    return [Place(r, c) for r, c in spaces_with_kind(board, RIVER)]


class RiverExpansion(Expansion):
    """The River expansion for ``scoring.engine.score``."""

    name = "river"
    title = "River"
    box = "Deep Blue"
    rounds = ROUNDS

    def illegal(self, board: Board, graph: RouteGraph) -> list[Illegal]:
        return find_illegal(board, graph)

    def score(self, board: Board, graph: RouteGraph, sheet: ScoreSheet) -> ExpansionScore:
        return ExpansionScore(*expansion_score(board, graph))
