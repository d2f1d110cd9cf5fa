"""Benchmark the photo reader stage by stage on 12-megapixel JPEGs, on one CPU core.

    .venv/bin/python scripts/bench_vision.py --n 8 --repeat 3

Renders ``--n`` photos at 12 MP (seeds from ``--seed``), saves them as JPEG (quality 90),
then reads each ``--repeat`` times with one thread everywhere (OpenCV, onnxruntime) and
prints the median and 90th percentile milliseconds of each stage, with the test-time
augmentation for unsure spaces (the default: 4 turns, mirrored too for the base-game reader),
with 4 turns only, for all spaces, and without it. Beside the stage
times it prints the whole read against a full-colour ``cv2.imread`` of the same photo (issue
14's yardstick: at most 1.5 times that at 12 MP, and at most 80 ms at 5 MP). ``--conditions
phone`` renders photos as phones really take them (bent paper, faint ink, dim rooms, hands)
instead of clean cards; ``--float-readers`` reads through the float networks instead of
their 8-bit twins (scripts/quantize_models.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["OMP_NUM_THREADS"] = "1"

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.classify import ClassifyParams
from vision.model_files import models_dir
from vision.recognizer import PhotoError, ReadParams, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PROFILES

STAGES = ("load", "locate", "rectify", "unbend", "orient", "classify", "decode", "ink_check",
          "covered", "total")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=9_000_000)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--conditions", choices=sorted(PROFILES), default=None,
                        help="render with this condition profile (vision.render.phone; e.g. "
                             "phone: bent paper, faint ink, dim rooms, hands), not as clean cards")
    parser.add_argument("--models", default=str(models_dir()))
    parser.add_argument("--float-readers", action="store_true",
                        help="read through the float networks, not their 8-bit twins "
                             "(scripts/quantize_models.py)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(args.n):
            seed = args.seed + i
            photo = render_photo(sample_grid(np.random.default_rng(seed)), seed=seed,
                                 megapixels=args.megapixels,
                                 options=PhotoOptions(conditions=args.conditions))
            path = Path(tmp) / f"bench_{seed}.jpg"
            cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            paths.append(path)
        size_mb = np.mean([p.stat().st_size for p in paths]) / 1e6
        h, w = photo.image.shape[:2]
        print(f"{args.n} photos of {w}x{h} ({w * h / 1e6:.1f} MP), JPEG {size_mb:.1f} MB each"
              + (f", condition profile {args.conditions}" if args.conditions else ""))
        imread_ms = {path: _imread_ms(path, args.repeat) for path in paths}
        print(f"full-colour cv2.imread: median {np.median(list(imread_ms.values())):.1f} ms")
        modes = {"8 views (4 turns, mirrored for the base-game reader) for unsure spaces "
                 "(default)": ClassifyParams(),
                 "4 turns for unsure spaces": ClassifyParams(mirror=False),
                 "8 views for all spaces": ClassifyParams(sure=None),
                 "off": ClassifyParams(turns=1, mirror=False)}
        for mode, tta in modes.items():
            rec = Recognizer.load(args.models, threads=1, params=ReadParams(classify=tta),
                                  int8=not args.float_readers)
            rec.read(paths[0])  # warm-up
            times: dict[str, list[float]] = {k: [] for k in STAGES}
            ratios: list[float] = []
            failures = 0
            for _ in range(args.repeat):
                for path in paths:
                    try:
                        reading = rec.read(path)
                    except PhotoError:
                        failures += 1
                        continue
                    for k in STAGES:
                        times[k].append(reading.timings.get(k, 0.0) * 1000)
                    ratios.append(reading.timings["total"] * 1000 / imread_ms[path])
            print(f"\ntest-time augmentation {mode}; "
                  f"model load {rec.load_seconds * 1000:.0f} ms; {failures} reads failed")
            print(f"{'stage':10s} {'median ms':>10s} {'p90 ms':>8s}")
            for k in STAGES:
                if times[k]:
                    print(f"{k:10s} {np.median(times[k]):10.1f} {np.percentile(times[k], 90):8.1f}")
            if ratios:
                print(f"whole read / cv2.imread of the same photo: median {np.median(ratios):.2f}, "
                      f"p90 {np.percentile(ratios, 90):.2f}")
    return 0


def _imread_ms(path: Path, repeat: int) -> float:
    """Median milliseconds of a full-colour, full-size ``cv2.imread`` of ``path``."""
    spent = []
    for _ in range(max(repeat, 3)):
        start = time.perf_counter()
        cv2.imread(str(path), cv2.IMREAD_COLOR)
        spent.append((time.perf_counter() - start) * 1000)
    return float(np.median(spent))


if __name__ == "__main__":
    raise SystemExit(main())
