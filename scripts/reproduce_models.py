"""Regenerate the training data and retrain the shipped models, from fixed seeds.

    nice -n 10 .venv/bin/python scripts/reproduce_models.py --out models

This is the recipe that produced ``models/cell_classifier.*``, ``models/board_orienter.*`` and
``models/round_numbers.*`` (their metadata records it). On 2 CPU cores: about 15 minutes to
render and straighten the 5,600 training photos (about 830 MB) and 2 minutes for 400 held-out
ones, then about 60 minutes of training (the orienter, then the cell classifier for 5 epochs;
the shipped run's training took 67 minutes with other work on the machine, on data version
2's parts relabelled: the same pixels), then 10 minutes for the round-number reader (6
epochs on the same boards; the corner patches are cut from them). Everything follows
from the seeds below, so a rerun gives the same data bit for bit and, on the same torch build
and thread count, the same models.

Steps already done are skipped (data parts that exist are kept), so an interrupted run can
simply be started again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate_dataset  # scripts/ is not a package: imported from its folder
import train_classifier
import train_round_numbers

from vision.model_meta import META_FILE, ModelMeta
from vision.round_numbers import NUMBERS_META

# (folder, first photo seed, photos, largest photo in megapixels)
DATASETS = [
    ("v3_a", 1_002_400, 400, 2.5),
    ("v3_b", 1_003_000, 5_200, 5.0),
]
TRAINING = ["--epochs", "5", "--width", "16", "--orienter-epochs", "10", "--threads", "2",
            "--seed", "20261129"]
# Boards the round-number reader is measured on (never trained on): (folder, seed, photos,
# smallest and largest photo in megapixels).
HELDOUT = ("heldout_orient", 8_200_000, 400, 1.0, 12.0)
NUMBERS_TRAINING = ["--epochs", "6", "--threads", "2", "--seed", "20261130"]


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
    folder, seed, n, mp_min, mp_max = HELDOUT
    heldout_dir = args.data / folder
    heldout_args = ["--n", str(n), "--seed", str(seed), "--out", str(heldout_dir),
                    "--part-size", "200", "--mp-min", str(mp_min), "--mp-max", str(mp_max)]
    generate_dataset.main([*heldout_args, "--workers", str(args.workers)])
    heldout = sorted(str(p) for p in heldout_dir.glob("part*.npz"))
    print(f"data ready after {time.time() - start:.0f}s", flush=True)
    train_classifier.main(["--data", *parts, "--out", str(args.out), *TRAINING])
    meta = ModelMeta.load(args.out / META_FILE)
    meta.recipe = "; ".join(["scripts/reproduce_models.py, i.e.", *commands, meta.recipe])
    meta.save(args.out / META_FILE)
    train_round_numbers.main(["--data", *parts, "--heldout", *heldout, "--out", str(args.out),
                              *NUMBERS_TRAINING])
    numbers_meta = args.out / NUMBERS_META
    info = json.loads(numbers_meta.read_text())
    info["recipe"] = "; ".join(["scripts/reproduce_models.py, i.e.",
                                "scripts/generate_dataset.py " + " ".join(heldout_args),
                                info["recipe"]])
    numbers_meta.write_text(json.dumps(info, indent=1) + "\n")
    print(f"models in {args.out} after {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
