"""What gets drawn: legal games played with the real dice, uniformly random boards, and
boards with illegal drawings (task item 4, RULINGS.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.exits import exit_at, on_outer_edge
from scoring.sides import Side

from .tokens import (
    BASE_TOKENS,
    EMPTY,
    ROUTE_DIE,
    SPECIAL_ROUTES,
    SPECIAL_TOKENS,
    STATION_DIE,
    expansion_tokens,
    orientations,
    sides,
)

Grid = list[list[str]]


@dataclass
class Board:
    """A drawn board: tokens and the round each space was drawn in (0 = not drawn)."""

    grid: Grid
    rounds: list[list[int]]
    kind: str  # "game" | "random" | "illegal"


def _exit_kind(row: int, col: int, side: Side) -> str | None:
    """The Exit kind just outside this space's side: None off the outer edge, '' on the edge
    where there is no Exit."""
    if not on_outer_edge(row, col, side):
        return None
    exit_ = exit_at(row, col, side)
    return exit_.kind if exit_ else ""


@dataclass
class Placement:
    """What drawing a piece in a space would do."""

    links: int  # sides joining a matching route end or Exit
    errors: int  # route ends (ours or a neighbour's) left against a blank side
    open_ends: int  # our route ends facing an empty space (may be joined later)


def evaluate_placement(grid: Grid, row: int, col: int, token: str) -> Placement | None:
    """The effect of drawing ``token`` at (row, col), or None if that is illegal: a route end
    against a different kind or an Exit of the other kind, or nothing connected."""
    links = errors = open_ends = 0
    for side, kind in zip(Side, sides(token), strict=True):
        exit_kind = _exit_kind(row, col, side)
        if exit_kind is not None:  # on the edge: never an Error
            if kind != "_" and exit_kind == kind:
                links += 1
            elif kind != "_" and exit_kind:
                return None
            continue
        dr, dc = side.delta
        other = grid[row + dr][col + dc]
        facing = sides(other)[side.opposite]
        if kind == "_":
            errors += facing != "_"  # a neighbour's end meets our blank side
        elif other == EMPTY:
            open_ends += 1
        elif facing == kind:
            links += 1
        elif facing == "_":
            errors += 1
        else:
            return None
    return Placement(links, errors, open_ends) if links > 0 else None


def _place(
    grid: Grid,
    rounds: list[list[int]],
    token: str,
    round_no: int,
    rng: np.random.Generator,
    temperature: float,
) -> bool:
    """Draw ``token`` where a player of the given sloppiness would: connecting, few Errors."""
    candidates, scores = [], []
    for r in range(7):
        for c in range(7):
            if grid[r][c] != EMPTY:
                continue
            central = 2 <= r <= 4 and 2 <= c <= 4
            for t in orientations(token):
                p = evaluate_placement(grid, r, c, t)
                if p is not None:
                    candidates.append((r, c, t))
                    scores.append(
                        3.0 * p.links - 3.0 * p.errors - 0.2 * p.open_ends + 0.6 * central
                    )
    if not candidates:
        return False
    z = np.array(scores) / temperature
    w = np.exp(z - z.max())
    r, c, t = candidates[int(rng.choice(len(candidates), p=w / w.sum()))]
    grid[r][c] = t
    rounds[r][c] = round_no
    return True


def play_game(rng: np.random.Generator) -> Board:
    """Seven rounds with the real dice; every roll is drawn where legal, by a player who
    prefers joining routes and avoiding Errors (how much: a random temperature per game)."""
    grid = [[EMPTY] * 7 for _ in range(7)]
    rounds = [[0] * 7 for _ in range(7)]
    specials_left = list(SPECIAL_ROUTES)
    specials_wanted = int(rng.integers(0, 4))
    temperature = float(rng.uniform(0.3, 2.0))
    for round_no in range(1, 8):
        dice = [ROUTE_DIE[int(rng.integers(6))] for _ in range(3)]
        dice.append(STATION_DIE[int(rng.integers(6))])
        if specials_wanted and rng.random() < 0.45:
            special = specials_left.pop(int(rng.integers(len(specials_left))))
            specials_wanted -= 1
            dice.append(special)
        for k in rng.permutation(len(dice)):
            _place(grid, rounds, dice[k], round_no, rng, temperature)
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
        drawn = "".join(rng.choice(list("HR_"), 4))
        if drawn != "____" and drawn not in BASE_TOKENS:
            return drawn


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


def expansion_board(rng: np.random.Generator) -> Board:
    """Random spaces mixing expansion drawings (rivers, lakes, portals, markers...) with
    base-game pieces: for showing and testing expansion drawings, not a legal game."""
    board = random_board(rng, fill=rng.uniform(0.3, 0.9))
    extra = expansion_tokens()
    for r in range(7):
        for c in range(7):
            if board.grid[r][c] != EMPTY and rng.random() < 0.5:
                board.grid[r][c] = extra[int(rng.integers(len(extra)))]
    board.kind = "expansion"
    return board
