"""Deep Blue boards to draw: games played by the rules with the River and/or Lake dice,
random boards mixing water and base pieces, and games with illegal water drawings.

Rules (rulebook, RULINGS.md, docs/NOTATION.md): 6 rounds; each round the 4 Route dice must
be drawn where legal (connected, no railway against a highway, no route against a river),
at most one Special Route a round and 3 a game; the 2 River or Lake dice may be drawn or left,
anywhere, connected or not. Rivers never touch Exits or route ends. An empty space with 3 or
more sides against lake sides is filled with water (``LLLL``) at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.exits import exit_at, on_outer_edge
from scoring.sides import LAKE, RIVER, ROUTE_KINDS, Side

from .games import Board, Grid, random_board
from .tokens import (
    EMPTY,
    ROUTE_DIE,
    SPECIAL_ROUTES,
    STATION_DIE,
    orientations,
    sides,
)

ROUNDS = 6
RIVER_DIE = ("WW__", "WW__", "WW__", "W_W_", "H_H_+_W_W", "R_R_+_W_W")
LAKE_DIE = ("L___", "LL__", "LLL_", "L_R_", "L_H_", "LLHR")
FULL_LAKE = "LLLL"
EXPANSIONS = ("river", "lake")
CHOICES = ("river", "lake", "both", "mix")
"""``rink render --expansion``: one expansion, both on every board, or a mix of boards
(45 % River, 45 % Lake, 10 % both)."""
# drawings no River or Lake die gives (river-not-a-face, lake-not-a-face, river-joins-route...)
ODD_WATER = (
    "W___",
    "WWW_",
    "WWWW",
    "W_W_+_W_W",
    "HH__+__WW",
    "H_W_",
    "WL__",
    "L_L_",
    "LH__",
    "L_LL+_R__",
    "LRL_",
)


@dataclass
class WaterBoard(Board):
    """A Deep Blue board: the expansions it plays give its ``expansion:`` key line."""

    expansions: tuple[str, ...] = ()

    def key_lines(self) -> list[str]:
        return [f"expansion: {', '.join(self.expansions)}"] if self.expansions else []

    def text(self) -> str:
        """The board as a grid file (docs/NOTATION.md)."""
        return "\n".join([" ".join(row) for row in self.grid] + self.key_lines()) + "\n"


def pick_expansions(rng: np.random.Generator, choice: str) -> tuple[str, ...]:
    """The expansions of one board for a ``CHOICES`` name."""
    if choice == "both":
        return EXPANSIONS
    if choice == "mix":
        u = rng.random()
        return ("river",) if u < 0.45 else ("lake",) if u < 0.9 else EXPANSIONS
    if choice not in EXPANSIONS:
        raise ValueError(f"expansion {choice!r}: expected one of {', '.join(CHOICES)}")
    return (choice,)


# --- what one side of a placement does ------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """What drawing a piece in a space would do (None from ``effect`` when illegal)."""

    route_links: int  # route ends joining a route end or an Exit of their kind
    river_links: int  # river ends joining a river
    lake_links: int  # lake sides joining lake sides
    river_edges: int  # river ends on the outer edge (good for the +3)
    errors: int  # ends (ours or a neighbour's) left against a blank, a lake or a river
    open_ends: int  # our route or river ends facing an empty space
    fills: int = 0  # empty neighbours our lake sides make fill with water
    bays: int = 0  # empty neighbours our lake sides leave with 2 sides against lakes


def _side_counts(ours: str, theirs: str | None, exit_kind: str | None) -> tuple | None:
    """(route, river, lake links, river edge, errors, open) across one side, None if illegal.
    ``theirs``: the neighbour's kind facing us ('' empty space), None off the board."""
    if theirs is None:  # the outer edge: an Exit of ``exit_kind`` or none ('')
        if ours in ROUTE_KINDS:
            if exit_kind == ours:
                return 1, 0, 0, 0, 0, 0
            return None if exit_kind else (0, 0, 0, 0, 0, 0)
        if ours == RIVER:
            return None if exit_kind else (0, 0, 0, 1, 0, 0)
        return 0, 0, 0, 0, 0, 0
    if ours in ROUTE_KINDS:
        if theirs == ours:
            return 1, 0, 0, 0, 0, 0
        if theirs in ROUTE_KINDS or theirs == RIVER:
            return None  # a railway against a highway, a route against a river
        return 0, 0, 0, 0, int(theirs != ""), int(theirs == "")
    if ours == RIVER:
        if theirs == RIVER:
            return 0, 1, 0, 0, 0, 0
        if theirs in ROUTE_KINDS:
            return None
        return 0, 0, 0, 0, int(theirs != ""), int(theirs == "")
    if ours == LAKE:
        if theirs == LAKE:
            return 0, 0, 1, 0, 0, 0
        return 0, 0, 0, 0, int(theirs in (*ROUTE_KINDS, RIVER)), 0
    return 0, 0, 0, 0, int(theirs in (*ROUTE_KINDS, RIVER)), 0  # a blank side


def effect(grid: Grid, row: int, col: int, token: str) -> Effect | None:
    """The effect of drawing ``token`` at (row, col), or None if it breaks a drawing rule."""
    total = np.zeros(6, int)
    fills = bays = 0
    for side, kind in zip(Side, sides(token), strict=True):
        if on_outer_edge(row, col, side):
            exit_ = exit_at(row, col, side)
            counts = _side_counts(kind, None, exit_.kind if exit_ else "")
        else:
            dr, dc = side.delta
            other = grid[row + dr][col + dc]
            facing = "" if other == EMPTY else sides(other)[side.opposite]
            counts = _side_counts(kind, facing, None)
            if kind == LAKE and other == EMPTY:
                facing_there = _lake_facing(grid, row + dr, col + dc) + 1
                fills += facing_there >= 3
                bays += facing_there == 2
        if counts is None:
            return None
        total += counts
    return Effect(*(int(v) for v in total), fills, bays)


def _lake_facing(grid: Grid, row: int, col: int) -> int:
    """How many sides of (row, col) face a lake side."""
    count = 0
    for side in Side:
        dr, dc = side.delta
        r, c = row + dr, col + dc
        if 0 <= r < 7 and 0 <= c < 7 and grid[r][c] != EMPTY:
            count += sides(grid[r][c])[side.opposite] == LAKE
    return count


def fill_with_water(grid: Grid, rounds: list[list[int]], round_no: int) -> None:
    """The filling rule: every empty space with 3 or more sides against lake sides is filled
    with water at once (which may make more spaces fill)."""
    changed = True
    while changed:
        changed = False
        for r in range(7):
            for c in range(7):
                if grid[r][c] == EMPTY and _lake_facing(grid, r, c) >= 3:
                    grid[r][c] = FULL_LAKE
                    rounds[r][c] = round_no
                    changed = True


# --- a player -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """How one player plays: sloppiness, appetite for water dice, taste for filled spaces."""

    temperature: float  # softmax temperature over placements (low: careful)
    keen: float  # chance of drawing a River or Lake die at all (a poor one is left anyway)
    bays: float  # value of leaving an empty space with 2 sides against lakes (to fill it)

    @classmethod
    def sample(cls, rng: np.random.Generator) -> Player:
        return cls(
            float(rng.uniform(0.3, 2.0)), float(rng.uniform(0.75, 1.0)), float(rng.uniform(0, 5))
        )

    def value(self, e: Effect, die: str, central: bool, started: bool) -> float:
        """How much the player likes a placement (before the softmax); ``started``: the
        board has a River (River die) or a Lake (Lake die) already, best joined."""
        base = -3.0 * e.errors - 0.2 * e.open_ends + 0.6 * central
        if die == "route":
            return base + 3.0 * e.route_links
        if die == "river":  # one long river from edge to edge, bridges joining routes
            alone = started and e.river_links == 0
            return (
                base + 4.0 * e.river_links + 2.0 * e.river_edges + 2.0 * e.route_links - 2.0 * alone
            )
        alone = started and e.lake_links == 0  # every Lake counts for the Smallest Lake
        return (
            base
            + 5.0 * e.lake_links
            + 6.0 * e.fills
            + self.bays * e.bays
            + 2.0 * e.route_links
            - 5.0 * alone
        )


def _place(
    grid: Grid,
    rounds: list[list[int]],
    token: str,
    die: str,
    round_no: int,
    rng: np.random.Generator,
    player: Player,
) -> bool:
    """Draw one die face (``die``: route, river or lake) where the player would; route dice
    must connect, River and Lake dice need not and may be left undrawn."""
    kind = {"river": RIVER, "lake": LAKE}.get(die)
    started = kind is not None and any(kind in sides(t) for row in grid for t in row)
    candidates, scores = [], []
    for r in range(7):
        for c in range(7):
            if grid[r][c] != EMPTY:
                continue
            central = 2 <= r <= 4 and 2 <= c <= 4
            for t in orientations(token):
                e = effect(grid, r, c, t)
                if e is None or (die == "route" and e.route_links == 0):
                    continue
                candidates.append((r, c, t))
                scores.append(player.value(e, die, central, started))
    if not candidates:
        return False
    poor = max(scores) < -2.0 * (2 - player.keen)  # e.g. only a new Lake, next to nothing
    if die != "route" and (rng.random() > player.keen or poor):
        return False  # a River or Lake die may be left undrawn
    z = np.array(scores) / (player.temperature * (1.0 if die == "route" else 0.5))
    w = np.exp(z - z.max())
    r, c, t = candidates[int(rng.choice(len(candidates), p=w / w.sum()))]
    grid[r][c] = t
    rounds[r][c] = round_no
    return True


def play_water_game(rng: np.random.Generator, expansions: tuple[str, ...]) -> WaterBoard:
    """Six rounds with the Route dice and the River and/or Lake dice of ``expansions``; every
    route roll is drawn where legal, water faces mostly drawn, lakes filled by the rule."""
    grid = [[EMPTY] * 7 for _ in range(7)]
    rounds = [[0] * 7 for _ in range(7)]
    specials_left = list(SPECIAL_ROUTES)
    specials_wanted = int(rng.integers(0, 4))
    player = Player.sample(rng)
    lakes = "lake" in expansions
    for round_no in range(1, ROUNDS + 1):
        dice = [(ROUTE_DIE[int(rng.integers(6))], "route") for _ in range(3)]
        dice.append((STATION_DIE[int(rng.integers(6))], "route"))
        if specials_wanted and rng.random() < 0.45:
            special = specials_left.pop(int(rng.integers(len(specials_left))))
            specials_wanted -= 1
            dice.append((special, "route"))
        if "river" in expansions:
            dice += [(RIVER_DIE[int(rng.integers(6))], "river") for _ in range(2)]
        if lakes:
            dice += [(LAKE_DIE[int(rng.integers(6))], "lake") for _ in range(2)]
        for k in rng.permutation(len(dice)):
            token, die = dice[k]
            if _place(grid, rounds, token, die, round_no, rng, player) and lakes:
                fill_with_water(grid, rounds, round_no)
    return WaterBoard(grid, rounds, "game", expansions)


def water_tokens(expansions: tuple[str, ...]) -> tuple[str, ...]:
    """Every orientation of the faces of the expansions' dice (and the full lake)."""
    faces = (RIVER_DIE if "river" in expansions else ()) + (
        (*LAKE_DIE, FULL_LAKE) if "lake" in expansions else ()
    )
    return tuple(dict.fromkeys(t for face in faces for t in orientations(face)))


def random_water_board(rng: np.random.Generator, expansions: tuple[str, ...]) -> WaterBoard:
    """Uniformly random spaces (base states and water faces) at random fill and water rates:
    for the reader, not legal games."""
    board = random_board(rng)
    water = water_tokens(expansions)
    rate = rng.uniform(0.15, 0.6)
    for r in range(7):
        for c in range(7):
            if board.grid[r][c] != EMPTY and rng.random() < rate:
                board.grid[r][c] = water[int(rng.integers(len(water)))]
            board.rounds[r][c] = min(board.rounds[r][c], ROUNDS)
    return WaterBoard(board.grid, board.rounds, "random", expansions)


def illegal_water_board(rng: np.random.Generator, expansions: tuple[str, ...]) -> WaterBoard:
    """A game with a few drawings no River or Lake die gives (dead-end rivers, three-way
    rivers, a bridge over a curve, lakes on opposite sides...)."""
    board = play_water_game(rng, expansions)
    for _ in range(int(rng.integers(1, 4))):
        r, c = rng.integers(0, 7, 2)
        shape = ODD_WATER[int(rng.integers(len(ODD_WATER)))]
        turns = orientations(shape)
        board.grid[r][c] = turns[int(rng.integers(len(turns)))]
        board.rounds[r][c] = int(rng.integers(1, ROUNDS + 1))
    board.kind = "illegal"
    return board


def water_board(rng: np.random.Generator, expansions: tuple[str, ...]) -> WaterBoard:
    """50 % legal games, 40 % random boards with water, 10 % games with illegal water."""
    u = rng.random()
    if u < 0.5:
        return play_water_game(rng, expansions)
    if u < 0.9:
        return random_water_board(rng, expansions)
    return illegal_water_board(rng, expansions)


def is_water(token: str) -> bool:
    """Whether a token draws a river or lake side."""
    kinds = sides(token)
    return RIVER in kinds or LAKE in kinds
