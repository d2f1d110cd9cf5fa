"""Throughput of ``rink score`` over a folder, with --jobs 1 and --jobs 2.

    .venv/bin/python scripts/bench_batch.py [--boards 400] [--photos DIR]

Writes random grid files (real-game-like: 31 dice pieces each) to a temporary folder, runs the
real command as a subprocess (``rink score --json FOLDER --jobs N``) and prints wall time and
boards per second, start-up included. ``--photos DIR`` times a folder of photos as well (needs
the photo recognizer and its models).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_scoring import DICE_TOKENS, random_board

from scoring.board import format_grid


def rink() -> list[str]:
    script = Path(sys.executable).parent / "rink"
    return [str(script)] if script.exists() else [
        sys.executable, "-c", "from rink.cli import main; main()"]


def time_folder(folder: Path, jobs: int, count: int) -> None:
    start = time.perf_counter()
    done = subprocess.run([*rink(), "score", "--json", "--jobs", str(jobs), str(folder)],
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    ok = sum('"ok": true' in line for line in lines)
    print(f"{folder.name:<12} --jobs {jobs}: {count} inputs, {ok} scored, exit {done.returncode}, "
          f"{seconds:6.2f} s, {count / seconds:7.1f} inputs/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--photos", type=Path, help="a folder of board photos to time too")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "grids"
        folder.mkdir()
        for number in range(args.boards):
            board = random_board(rng, DICE_TOKENS, 31 / 49)
            (folder / f"board_{number:04d}.txt").write_text(format_grid(board))
        for jobs in (1, 2):
            time_folder(folder, jobs, args.boards)
    if args.photos:
        photos = [p for p in args.photos.iterdir() if p.suffix.lower() in (".jpg", ".png")]
        for jobs in (1, 2):
            time_folder(args.photos, jobs, len(photos))


if __name__ == "__main__":
    main()
