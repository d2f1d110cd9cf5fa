"""Regenerate the training data and retrain the shipped models, from fixed seeds.

    nice -n 10 .venv/bin/python scripts/reproduce_models.py --out models

This is the recipe that produced ``models/cell_classifier.*`` and ``models/board_orienter.*``
(their metadata records it). On 2 CPU cores: about 15 minutes to render and straighten the
5,600 training photos (about 830 MB), then about 60 minutes of training (the orienter, then
the cell classifier for 5 epochs; the shipped run's training took 67 minutes with other work
on the machine, on data version 2's parts relabelled: the same pixels). Everything follows
from the seeds below, so a rerun gives the same data bit for bit and, on the same torch build
and thread count, the same models.

Steps already done are skipped (data parts that exist are kept), so an interrupted run can
simply be started again.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate_dataset  # scripts/ is not a package: imported from its folder
import train_classifier

from vision.model_meta import META_FILE, ModelMeta

# (folder, first photo seed, photos, largest photo in megapixels)
DATASETS = [
    ("v3_a", 1_002_400, 400, 2.5),
    ("v3_b", 1_003_000, 5_200, 5.0),
]
TRAINING = ["--epochs", "5", "--width", "16", "--orienter-epochs", "10", "--threads", "2",
            "--seed", "20261129"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("data"),
                        help="where the training data is written")
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    start = time.time()
    parts: list[str] = []
    commands: list[str] = []
    for folder, seed, n, mp_max in DATASETS:
        out = args.data / folder
        data_args = ["--n", str(n), "--seed", str(seed), "--out", str(out),
                     "--part-size", "200", "--mp-max", str(mp_max)]
        generate_dataset.main([*data_args, "--workers", str(args.workers)])
        commands.append("scripts/generate_dataset.py " + " ".join(data_args))
        parts += sorted(str(p) for p in out.glob("part*.npz"))
    print(f"data ready after {time.time() - start:.0f}s", flush=True)
    train_classifier.main(["--data", *parts, "--out", str(args.out), *TRAINING])
    meta = ModelMeta.load(args.out / META_FILE)
    meta.recipe = "; ".join(["scripts/reproduce_models.py, i.e.", *commands, meta.recipe])
    meta.save(args.out / META_FILE)
    print(f"models in {args.out} after {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
