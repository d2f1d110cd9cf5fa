"""Render training boards and straighten them: the classifier's (and orienter's) training data.

    nice -n 10 .venv/bin/python scripts/generate_dataset.py --n 2000 --seed 1000000 \
        --out data/v3_a

Each photo comes from ``vision.render`` (a random board from ``sample_grid``, random
conditions), is straightened with its true corners plus a small random error (the locator is
never exact), and stored as flat-fielded ink darkness exactly as inference computes it:

- ``boards``: (N, S, S) uint8, the lattice at ``cell_px`` per space with ``pad_px`` around;
- ``wide``: (N, W, W) uint8, a small view with 2.5 spaces of margin (for the orienter);
- ``blue``: (N, S, S) uint8, the board's ink blueness (vision.crops.ink_blueness; data version 6);
- ``labels``: (N, 7, 7) class indices (vision.space_parts.CLASSES, matched by side kinds and
  joins; -1 for tokens outside them and for spaces a hand, pen or die hides: at least
  ``hidden`` of the space covered, ``--hidden``, 0.2 unless given);
- ``marks``: (N, 7, 7) uint8, 1 where the space holds a mark rink does not read (an
  expansion's mark, a scribble, a correction: vision.render.unread; data version 7).

``--expansion river|lake|both|mix`` draws Deep Blue boards (vision.render.water_games) instead
of base boards; ``--conditions phone`` renders with a condition profile (vision.render.phone:
bent paper, faint ink, dim rooms, things on the sheet); ``--pens wide`` draws pen sizes past
the renderer's own ranges (vision.render.style.WIDE_PENS: fine liners, broad markers, wide
or narrow double-line highways, close or sparse ties); ``--grain SHARE`` adds to that share
of the photos strong noise drawn for each pixel and colour channel (``GRAIN_SIGMA``, sometimes
clumped: vision.render.finishing.add_grain), past the phone renders' own dim-room noise.

Written in parts of ``--part-size`` photos, so an interrupted run keeps what it made.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.crops import ink_blueness, ink_darkness
from vision.orient import WIDE_BOARD
from vision.rectify import CanonicalBoard, warp_board
from vision.render import RENDERER_VERSION, PhotoOptions, render_photo, sample_grid
from vision.render.finishing import add_grain
from vision.render.phone import PROFILES
from vision.render.style import PEN_RANGES
from vision.render.water_games import CHOICES, pick_expansions, water_board
from vision.space_parts import CLASSES, class_index, class_of

# v7: as v6, plus each space's unread-mark label ("marks"; profile phone_marked draws marks on
# every board); v6: as v5, plus each board's ink blueness (vision.crops.ink_blueness, "blue"), the second
# input channel of networks with ink_channels "each+blue";
# v5: crops of vision.crops.ink_darkness taking each colour channel against its own paper
# (the same as v4 on white or grey paper); v4 (--darkest-channel): labels over the 190
# classes of vision.space_parts (base, odd and water drawings), hidden spaces -1, crops of
# the darkest channel (v3: 83 base classes; v2: 51; v1: 32 px per space)
DATA_VERSION = "v7"
DARKEST_CHANNEL_VERSION = "v4"
BOARD = CanonicalBoard(cell_px=48, pad_px=24)
CORNER_JITTER = 0.04  # sigma of the simulated locator error, in spaces
HIDDEN = 0.2  # a space at least this much covered by a hand, pen or die is not a sample
_INDEX = class_index(CLASSES)
GRAIN_SIGMA = (3.0, 18.0)  # --grain: the noise's sigma, grey levels, uniform in this range
GRAIN_CLUMPED = 0.4  # ... this share of it blurred over GRAIN_SPREAD_PX (clumped grain)
GRAIN_SPREAD_PX = (0.5, 1.2)


def grained(image: np.ndarray, seed: int, share: float) -> np.ndarray:
    """The photo of ``seed`` with ``--grain``'s noise, on ``share`` of the photos (drawn from
    the seed's own stream, so a photo without grain is the one made without ``--grain``)."""
    rng = np.random.default_rng([seed, 78])
    if rng.random() >= share:
        return image
    sigma = rng.uniform(*GRAIN_SIGMA)
    spread = rng.uniform(*GRAIN_SPREAD_PX) if rng.random() < GRAIN_CLUMPED else 0.0
    return add_grain(image, sigma, rng, spread)


def make_sample(seed: int, mp_range: tuple[float, float], expansion: str | None = None,
                conditions: str | None = None, each_channel: bool = True,
                hidden: float = HIDDEN, pens: str = "standard", grain: float = 0.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One rendered photo -> (board darkness, wide darkness, 7x7 labels, board blueness,
    7x7 unread marks); ``each_channel`` as ``vision.crops.ink_darkness``; a space at least
    ``hidden`` covered by a hand, pen or die is labelled -1 (not a sample); ``pens`` as
    ``PhotoOptions.pens``; ``grain``: the share of photos given ``grained``'s noise."""
    rng = np.random.default_rng([seed, 77])
    if expansion is None:
        grid, played = sample_grid(rng), ()
    else:
        played = pick_expansions(rng, expansion)
        grid = water_board(rng, played).grid
    photo = render_photo(grid, seed=seed, megapixels=float(rng.uniform(*mp_range)),
                         options=PhotoOptions(conditions=conditions, pens=pens),
                         expansions=played)
    image = grained(photo.image, seed, grain)
    corners = photo.corners.astype(np.float64)
    cell = np.linalg.norm(corners[1] - corners[0]) / 7
    corners = corners + rng.normal(0, CORNER_JITTER * cell, corners.shape)
    flat = warp_board(image, corners, BOARD)
    wide = warp_board(image, corners, WIDE_BOARD)
    labels = np.array([[class_of(tok, _INDEX) for tok in row] for row in photo.grid], np.int16)
    for (r, c), share in (photo.covered or {}).items():
        if share >= hidden:
            labels[r, c] = -1
    marks = np.zeros((7, 7), np.uint8)
    for r, c, _ in photo.unread or []:
        marks[r, c] = 1
    return (ink_darkness(flat, BOARD.cell_px, each_channel),
            ink_darkness(wide, WIDE_BOARD.cell_px, each_channel), labels,
            ink_blueness(flat, BOARD.cell_px), marks)


def _worker(args: tuple):
    cv2.setNumThreads(1)
    return make_sample(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1_000_000,
                        help="photo seeds are seed, seed+1, ... (keep apart from evaluation)")
    parser.add_argument("--out", type=Path, default=Path("data/v3_a"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part-size", type=int, default=250)
    parser.add_argument("--mp-min", type=float, default=1.0)
    parser.add_argument("--mp-max", type=float, default=2.5)
    parser.add_argument("--expansion", choices=CHOICES, default=None,
                        help="Deep Blue boards (river, lake, both, or a mix of boards)")
    parser.add_argument("--conditions", choices=sorted(PROFILES), default=None,
                        help="render with this condition profile (default: the renderer's own)")
    parser.add_argument("--darkest-channel", action="store_true",
                        help="cut the crops from the darkest channel, as data version 4 "
                             "(to make the data of the models trained on it again)")
    parser.add_argument("--pens", choices=PEN_RANGES, default="standard",
                        help="pen sizes: the renderer's own ranges, or wider and finer ones "
                             "(vision.render.style.WIDE_PENS)")
    parser.add_argument("--hidden", type=float, default=HIDDEN,
                        help="a space at least this much covered by a hand, pen or die is "
                             f"left out of training (label -1; default {HIDDEN}): above it "
                             "the reader learns to read what shows of a partly covered space")
    parser.add_argument("--grain", type=float, default=0.0,
                        help="the share of photos given strong noise drawn for each pixel and "
                             f"colour channel (sigma {GRAIN_SIGMA[0]:g}-{GRAIN_SIGMA[1]:g} grey "
                             "levels; default 0: none)")
    args = parser.parse_args(argv)
    if not 0 <= args.grain <= 1:
        parser.error(f"--grain {args.grain}: a share of the photos, from 0 to 1")
    if not 0 < args.hidden <= 1:
        parser.error(f"--hidden {args.hidden}: a share of the space, above 0 and at most 1")
    each_channel = not args.darkest_channel
    version = DATA_VERSION if each_channel else DARKEST_CHANNEL_VERSION

    args.out.mkdir(parents=True, exist_ok=True)
    start = time.time()
    # One worker renders in this process (no fork: safe inside a test run that has already
    # started onnxruntime or OpenCV threads).
    pool = Pool(args.workers) if args.workers > 1 else None
    mapper = pool.map if pool is not None else lambda fn, jobs: [fn(job) for job in jobs]
    try:
        for part, first in enumerate(range(0, args.n, args.part_size)):
            path = args.out / f"part{part:03d}.npz"
            if path.exists():
                print(f"{path} exists, skipped", flush=True)
                continue
            seeds = range(args.seed + first, args.seed + min(first + args.part_size, args.n))
            results = mapper(_worker, [(s, (args.mp_min, args.mp_max), args.expansion,
                                        args.conditions, each_channel, args.hidden,
                                        args.pens, args.grain)
                                       for s in seeds])
            boards, wide, labels, blue, marks = (np.stack(x) for x in zip(*results))
            # version 4 had neither blueness nor marks
            extra = {"blue": blue, "marks": marks} if each_channel else {}
            np.savez(path, boards=boards, wide=wide, labels=labels, **extra,
                     cell_px=BOARD.cell_px,
                     pad_px=BOARD.pad_px, data_version=version,
                     renderer_version=RENDERER_VERSION,
                     seeds=np.array(list(seeds)), expansion=args.expansion or "",
                     conditions=args.conditions or "", hidden=args.hidden, pens=args.pens,
                     grain=args.grain)
            print(f"{path}: {len(seeds)} photos, {time.time() - start:.0f}s", flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(f"done: {args.n} photos in {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
