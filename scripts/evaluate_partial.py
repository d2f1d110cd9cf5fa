"""How rink answers photos that show only part of a board.

    .venv/bin/python scripts/evaluate_partial.py --n 100 --seed 9300000 --csv out/partial.csv
    .venv/bin/python scripts/evaluate_partial.py --n 150 --seed 9520000 --conditions phone

Renders held-out photos (vision.render), cuts each so that 15-60 % of the board's width or
height lies beyond one photo edge (or beyond two, one photo in three), and reads the cut
photo through the real Recognizer. Counts how often the answer names exactly the photo
edges the board runs off, names other edges, says only "no board found", or (worst) reads
a board anyway. The uncut photos are read too: how often a whole board is wrongly called
cut. ``--conditions`` renders them as ``scripts/evaluate.py --conditions`` does (phone
photos: bent paper, faint ink, dim rooms, things on the sheet).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.errors import BoardCut, NoBoardFound, PhotoError
from vision.locate.extent import PHOTO_EDGES
from vision.recognizer import Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PROFILES

MIN_SIDE = 200  # the loader refuses smaller photos


def cut_photo(image: np.ndarray, corners: np.ndarray, rng: np.random.Generator
              ) -> tuple[np.ndarray, list[str]]:
    """Cut ``image`` so the board runs off one or two random photo edges."""
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    extent = hi - lo
    edges = list(rng.choice(PHOTO_EDGES, size=2 if rng.random() < 1 / 3 else 1, replace=False))
    if set(edges) in ({"left", "right"}, {"top", "bottom"}):
        edges = edges[:1]
    h, w = image.shape[:2]
    x0, y0, x1, y1 = 0, 0, w, h
    for edge in edges:
        part = rng.uniform(0.15, 0.6)
        if edge == "left":
            x0 = int(lo[0] + part * extent[0])
        elif edge == "right":
            x1 = int(hi[0] - part * extent[0])
        elif edge == "top":
            y0 = int(lo[1] + part * extent[1])
        else:
            y1 = int(hi[1] - part * extent[1])
    return np.ascontiguousarray(image[y0:y1, x0:x1]), sorted(str(e) for e in edges)


def answer(recognizer: Recognizer, image: np.ndarray) -> tuple[str, list[str]]:
    """('read' | 'cut' | 'not found' | 'other error', edges named)."""
    try:
        recognizer.read(image)
    except BoardCut as error:
        return "cut", sorted(error.edges)
    except NoBoardFound:
        return "not found", []
    except PhotoError:
        return "other error", []
    return "read", []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9_300_000)
    parser.add_argument("--csv", type=Path, default=None)
    parser.add_argument("--conditions", choices=sorted(PROFILES), default=None,
                        help="render the photos under this condition profile")
    args = parser.parse_args(argv)

    recognizer = Recognizer.load()
    rows, cut_outcomes, whole_outcomes = [], Counter(), Counter()
    for seed in range(args.seed, args.seed + args.n):
        rng = np.random.default_rng([seed, 5])
        photo = render_photo(sample_grid(rng), seed=seed, megapixels=float(rng.uniform(1, 4)),
                             options=PhotoOptions(conditions=args.conditions))
        image, edges = cut_photo(photo.image, photo.corners, rng)
        if min(image.shape[:2]) < MIN_SIDE:
            continue
        kind, named = answer(recognizer, image)
        outcome = ("right edges" if named == edges else "wrong edges") if kind == "cut" else kind
        cut_outcomes[outcome] += 1
        whole_kind, _ = answer(recognizer, photo.image)
        whole_outcomes[whole_kind] += 1
        rows.append({"seed": seed, "cut_edges": " ".join(edges), "outcome": outcome,
                     "named": " ".join(named), "whole_photo": whole_kind})
    n = len(rows)
    print(f"{n} cut photos (board runs off 1 or 2 photo edges):")
    for outcome in ("right edges", "wrong edges", "not found", "other error", "read"):
        print(f"  {outcome:12s} {cut_outcomes[outcome]:4d}  {100 * cut_outcomes[outcome] / n:5.1f} %")
    print(f"the same {n} photos uncut:")
    for kind in ("read", "cut", "not found", "other error"):
        print(f"  {kind:12s} {whole_outcomes[kind]:4d}  {100 * whole_outcomes[kind] / n:5.1f} %")
    if args.csv:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        with args.csv.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
