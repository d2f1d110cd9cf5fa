"""Time ``scoring.engine.score`` on thousands of random boards and on the worst cases we know.

    .venv/bin/python scripts/bench_scoring.py [--boards 5000] [--seed 1] [--reentrant]

Prints median and maximum milliseconds per board for each family of boards. Targets
(issue 2): median <= 1 ms, any board <= 100 ms. Times are CPU time of this process
(``time.process_time``), so other jobs on a shared machine inflate them less than wall time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable

from scoring.board import Board
from scoring.engine import score
from scoring.space import parse_token

BASE_TOKENS = [t for t in ("".join(p) for p in itertools.product("HR_", repeat=4))
               if t != "____"] + ["HRHRo", "RHRHo"]
DICE_TOKENS = ["H_H_", "HH__", "HHH_", "R_R_", "RR__", "RRR_", "HRHRo", "H_R_", "HR__", "H__R"]
CROSSINGS = ["HHHH", "HHHH", "HHHH", "HHH_", "HH__", "H_H_"]


def rotated(rng: random.Random, token: str):
    return parse_token(token).turned(rng.randrange(4))


def random_board(rng: random.Random, tokens: list[str], fill: float) -> Board:
    return Board(tuple(tuple(
        rotated(rng, rng.choice(tokens)) if rng.random() < fill else parse_token(".")
        for _ in range(7)) for _ in range(7)))


def crossings_with_holes(rng: random.Random) -> Board:
    holes = {(rng.randrange(7), rng.randrange(7)) for _ in range(rng.randint(0, 8))}
    return Board(tuple(tuple(parse_token("." if (r, c) in holes else "HHHH")
                             for c in range(7)) for r in range(7)))


def families(rng: random.Random, count: int) -> dict[str, tuple[int, Callable[[], Board]]]:
    """Family name -> (how many boards, a function making one). Boards are made one at a
    time, so the benchmark does not hold thousands of boards (and the garbage collector does
    not walk them while timing)."""
    few = max(count // 10, 20)
    full = iter(["HHHH", "RRRR", "HRHR"])
    return {
        "random tokens, random fill": (count,
                                       lambda: random_board(rng, BASE_TOKENS, rng.random())),
        "dice pieces, 31 spaces (a real game)": (count,
                                                 lambda: random_board(rng, DICE_TOKENS, 31 / 49)),
        "dense crossings and Ts": (few, lambda: random_board(rng, CROSSINGS, 1.0)),
        "crossings with 0-8 holes": (few, lambda: crossings_with_holes(rng)),
        "full boards (HHHH, RRRR, HRHR)": (3, lambda: Board.from_tokens([[next(full)] * 7] * 7)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reentrant", action="store_true",
                        help="time the re-entering Longest Route variant instead")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'family':<40}{'boards':>8}{'median ms':>11}{'max ms':>9}")
    everything = []
    for name, (count, make) in families(rng, args.boards).items():
        times = []
        for _ in range(count):
            board = make()
            start = time.process_time()
            score(board, reentrant_longest=args.reentrant)
            times.append((time.process_time() - start) * 1000)
        everything += times
        print(f"{name:<40}{len(times):>8}{statistics.median(times):>11.3f}{max(times):>9.1f}")
    print(f"{'all':<40}{len(everything):>8}{statistics.median(everything):>11.3f}"
          f"{max(everything):>9.1f}")


if __name__ == "__main__":
    main()
