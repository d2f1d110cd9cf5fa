"""Count what played boards look like around a space: the tables covered spaces are read with.

    .venv/bin/python scripts/board_context.py --games 2000 --seed 555000000 --out models

Plays ``--games`` games with the real dice (vision.render.games.play_game, the renderer's
players; game i from ``numpy.random.default_rng([seed + i, 7])``) and counts, over every space
of every finished board, the drawing it holds and, for each of its four sides, what that side
faces (vision.board_context: an Exit, the edge, an empty space, a drawn neighbour's side).
Writes ``board_context.json`` (the counts and the command) into ``--out``. The
same arguments give the same file, bit for bit.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.sides import Side
from vision.board_context import CONTEXT_FILE, SIDE_STATES, SITUATIONS, side_state, situation
from vision.render.games import play_game


def count_games(games: int, seed: int) -> dict:
    """The token and side-situation counts of ``games`` played boards."""
    tokens: Counter = Counter()
    sides = {state: Counter() for state in SIDE_STATES}
    for i in range(games):
        grid = play_game(np.random.default_rng([seed + i, 7])).grid
        for r, row in enumerate(grid):
            for c, token in enumerate(row):
                tokens[token] += 1
                for side in Side:
                    sides[side_state(token, side)][situation(grid, r, c, side)] += 1
    return {"tokens": dict(sorted(tokens.items())),
            "sides": {state: {s: sides[state][s] for s in SITUATIONS} for state in SIDE_STATES}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=555_000_000)
    parser.add_argument("--out", type=Path, default=Path("models"))
    args = parser.parse_args(argv)
    start = time.time()
    info = {"what": "vision.board_context tables: drawings of played boards and what each "
                    "side faces",
            "recipe": f"scripts/board_context.py --games {args.games} --seed {args.seed}",
            "games": args.games, "seed": args.seed, **count_games(args.games, args.seed)}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / CONTEXT_FILE
    path.write_text(json.dumps(info, indent=1) + "\n")
    print(f"{path}: {args.games} games counted in {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
