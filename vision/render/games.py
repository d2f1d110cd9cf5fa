"""What gets drawn: legal games played with the real dice, uniformly random boards, and
boards with illegal drawings (task item 4, RULINGS.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board_art import EXITS
from .tokens import BASE_TOKENS, EMPTY, SPECIAL_TOKENS, parse_token

ROUTE_DIE = ("H_H_", "HH__", "HHH_", "R_R_", "RR__", "RRR_")
STATION_DIE = ("HRHRo", "HRHRo", "H_R_", "H_R_", "HR__", "HR__")
SPECIAL_ROUTES = ("HHHH", "RRRR", "HHRH", "HRRR", "HHRR", "HRHR")
_STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # side index -> (drow, dcol)
Grid = list[list[str]]


@dataclass
class Board:
    """A drawn board: tokens and the round each space was drawn in (0 = not drawn)."""

    grid: Grid
    rounds: list[list[int]]
    kind: str  # "game" | "random" | "illegal"


def orientations(token: str) -> list[str]:
    """All distinct rotations and mirror images of a piece."""
    space = parse_token(token)
    mirrored = type(space)(
        space.sides[0] + space.sides[3] + space.sides[2] + space.sides[1], space.overpass
    )
    seen: list[str] = []
    for base in (space, mirrored):
        for k in range(4):
            t = base.rotated(k).token
            if t not in seen:
                seen.append(t)
    return seen


def _exit_kind(row: int, col: int, side: int) -> str | None:
    """The Exit kind just outside this space's side, if the side is on the edge and has one."""
    edge_index = {
        0: ("N", row == 0, col),
        1: ("E", col == 6, row),
        2: ("S", row == 6, col),
        3: ("W", col == 0, row),
    }
    edge, on_edge, index = edge_index[side]
    if not on_edge:
        return None
    return EXITS[edge].get(index, "")


def placement_links(grid: Grid, row: int, col: int, token: str) -> int | None:
    """Number of sides joining a matching route or Exit, or None if the placement is illegal
    (a route end against a different kind, or not connected at all)."""
    sides = parse_token(token).sides
    links = 0
    for side, kind in enumerate(sides):
        if kind == "_":
            continue
        exit_kind = _exit_kind(row, col, side)
        if exit_kind is not None:
            if exit_kind == kind:
                links += 1
            elif exit_kind:
                return None
            continue
        dr, dc = _STEP[side]
        other = grid[row + dr][col + dc]
        if other == EMPTY:
            continue
        facing = parse_token(other).sides[(side + 2) % 4]
        if facing == kind:
            links += 1
        elif facing != "_":
            return None
    # a neighbour's route end facing one of our blank sides is allowed (it is an Error)
    return links if links > 0 else None


def _place(
    grid: Grid, rounds: list[list[int]], token: str, round_no: int, rng: np.random.Generator
) -> bool:
    candidates = []
    weights = []
    for r in range(7):
        for c in range(7):
            if grid[r][c] != EMPTY:
                continue
            for t in orientations(token):
                links = placement_links(grid, r, c, t)
                if links:
                    candidates.append((r, c, t))
                    weights.append(float(links) ** 2)
    if not candidates:
        return False
    w = np.array(weights)
    r, c, t = candidates[int(rng.choice(len(candidates), p=w / w.sum()))]
    grid[r][c] = t
    rounds[r][c] = round_no
    return True


def play_game(rng: np.random.Generator) -> Board:
    """Seven rounds with the real dice; each roll is placed legally where possible."""
    grid = [[EMPTY] * 7 for _ in range(7)]
    rounds = [[0] * 7 for _ in range(7)]
    specials_left = list(SPECIAL_ROUTES)
    specials_wanted = int(rng.integers(0, 4))
    skip = rng.uniform(0.0, 0.15)  # some players leave dice unused
    for round_no in range(1, 8):
        dice = [ROUTE_DIE[int(rng.integers(6))] for _ in range(3)]
        dice.append(STATION_DIE[int(rng.integers(6))])
        if specials_wanted and rng.random() < 0.45:
            special = specials_left.pop(int(rng.integers(len(specials_left))))
            specials_wanted -= 1
            dice.append(special)
        for k in rng.permutation(len(dice)):
            if rng.random() >= skip:
                _place(grid, rounds, dice[k], round_no, rng)
    return Board(grid, rounds, "game")


def random_board(rng: np.random.Generator, fill: float | None = None) -> Board:
    """Uniformly random spaces (all 50 drawn states equally likely) at a random fill rate."""
    fill = rng.uniform(0.02, 1.0) if fill is None else fill
    drawn = BASE_TOKENS[1:]
    grid = [
        [drawn[int(rng.integers(len(drawn)))] if rng.random() < fill else EMPTY for _ in range(7)]
        for _ in range(7)
    ]
    rounds = [[int(rng.integers(1, 8)) if t != EMPTY else 0 for t in row] for row in grid]
    return Board(grid, rounds, "random")


def odd_token(rng: np.random.Generator) -> str:
    """A drawable token that is no base-game piece (a dead end, a 3-way station...)."""
    while True:
        sides = "".join(rng.choice(list("HR_"), 4))
        if sides != "____" and sides not in BASE_TOKENS:
            return sides


def illegal_board(rng: np.random.Generator) -> Board:
    """A game or random board with a few odd drawings, or with too many Special Routes."""
    board = play_game(rng) if rng.random() < 0.6 else random_board(rng)
    for _ in range(int(rng.integers(1, 5))):
        r, c = rng.integers(0, 7, 2)
        if rng.random() < 0.75:
            board.grid[r][c] = odd_token(rng)
        else:
            board.grid[r][c] = SPECIAL_TOKENS[int(rng.integers(len(SPECIAL_TOKENS)))]
        board.rounds[r][c] = int(rng.integers(1, 8))
    board.kind = "illegal"
    return board


def sample_board(rng: np.random.Generator) -> Board:
    """50 % legal games, 40 % uniformly random boards, 10 % boards with illegal drawings."""
    u = rng.random()
    if u < 0.5:
        return play_game(rng)
    if u < 0.9:
        return random_board(rng)
    return illegal_board(rng)


def sample_grid(rng: np.random.Generator) -> Grid:
    """A 7x7 list of tokens to draw (see sample_board)."""
    return sample_board(rng).grid
