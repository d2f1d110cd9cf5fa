"""Dump straightened upright boards with their reading and truth, to calibrate the ink check.

    nice -n 10 .venv/bin/python scripts/ink_check_dump.py --n 80 --seed 8700000 --conditions phone \
        --out out/ink_8700000.npz

Photos are rendered and read exactly as in scripts/evaluate.py (same grids for the same
seeds); per found board it keeps the upright board image (BGR), the grid read, the true grid,
each space's covered fraction and whether the reader listed it for review.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.recognizer import PhotoError, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=8_700_000)
    parser.add_argument("--conditions", default=None)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    rec = Recognizer.load()
    boards, grids, truths, covered, flagged, seeds, drawn = [], [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.n):
            seed = args.seed + i
            rng = np.random.default_rng([seed, 99])
            photo = render_photo(sample_grid(rng), seed=seed,
                                 options=PhotoOptions(conditions=args.conditions))
            path = Path(tmp) / f"p{seed}.jpg"
            cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            try:
                reading = rec.read(path)
            except PhotoError:
                continue
            cov = np.zeros((7, 7), np.float32)
            for (r, c), f in (photo.covered or {}).items():
                cov[r, c] = f
            flag = np.zeros((7, 7), bool)
            for item in reading.review:
                flag[item.row, item.col] = True
            boards.append(reading.board_image)
            grids.append(reading.grid)
            truths.append(photo.grid)
            covered.append(cov)
            flagged.append(flag)
            seeds.append(seed)
            drawn.append(" ".join(photo.drawn or []))
            if (i + 1) % 10 == 0:
                print(f"{i + 1}/{args.n}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, boards=np.array(boards), grids=np.array(grids),
                        truths=np.array(truths), covered=np.array(covered),
                        flagged=np.array(flagged), seeds=np.array(seeds), drawn=np.array(drawn))
    print(f"{len(boards)} boards in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
