"""Regenerate the training data and retrain the shipped models, from fixed seeds.

    nice -n 10 .venv/bin/python scripts/reproduce_models.py --out models

This is the recipe that produced ``models/cell_classifier.*`` (the parts network),
``models/base_classifier.*`` (the base-game reader), ``models/board_orienter.*`` and
``models/round_numbers.*`` (their metadata records it). In order, on 2 CPU cores:

1. Base-game boards (data version 3's seeds, about 15 minutes to render and straighten 5,600
   photos) and 400 held-out ones for the round-number reader.
2. The board orienter on their wide views (10 epochs, a few minutes).
3. The cell classifier's first stage: the flat 83-class classifier shipped before the reader
   learnt side kinds and joins. Its convolutional features seed the second stage; it is taken
   from git (``STAGE1``: the commit and file; its own metadata there records its recipe,
   5 epochs on the step-1 data, 67 minutes), since its flat head is no longer trained here.
4. Data version 4 (about 12 minutes): 4,000 base-game boards (the seeds of step 1's first
   boards) and 6,000 Deep Blue boards (45 % River, 45 % Lake, 10 % both).
5. The cell classifier with the parts head (side kinds and joins, vision/space_parts.py),
   features from step 3, 5 epochs (about 45 minutes), in ``data/stage2`` (tuned in step
   8). (The base-game reader, ``base_classifier.*``, is step 3's model as shipped then; its
   ONNX file is in git beside it.)
6. The faint-ink base-game reader: phone-condition boards (issue 14: bent paper, pencil,
   pale and dry-erase ink, dim rooms, hands; about 12 minutes for 6,000 photos), then step
   3's base-game reader on them and data version 4 with the board-relative ink gain
   (vision.crops.InkGain), 2 epochs (about 10 minutes), in ``data/faint``. (Step 6 also
   trained the first faint-ink parts network, shipped until step 10 replaced it.)
7. Phone-condition boards of data version 5 (4,000 photos, about 8 minutes; crops taking
   each colour channel against its own paper, vision.crops.ink_contrast), and step 6's
   base-game reader tuned on them with everything before, 2 epochs (about 13 minutes alone),
   in ``data/faint_v5``: shipped as ``faint_base_classifier.*``.
8. Base-game and Deep Blue boards of data version 5 (1,600 and 4,000 photos, about 12
   minutes), and step 5's parts network tuned on them with data version 4, 2 epochs (about
   20 minutes alone), in ``data/stage3``.
9. Data version 6 (the ink's blueness beside its darkness, vision.crops.ink_blueness): step
   8's Deep Blue boards again, 2,000 new base-game boards and 5,000 new Deep Blue ones (about
   13 minutes), and step 8's parts network widened to a second input channel (its weights
   there start at zero) and tuned on them, 2 epochs (about 20 minutes alone), in
   ``data/stage4``: shipped as ``cell_classifier.*``.
10. Phone-condition boards of data version 6 (3,000 Deep Blue and 3,000 base-game photos,
   about 13 minutes), and step 9's parts network tuned on them with step 9's first 6,000
   boards, with the board's ink gain, 2 epochs (about 23 minutes alone), in
   ``data/faint_v6``: shipped as ``faint_cell_classifier.*`` (the faint-ink parts network;
   step 7's base-game reader still reads faint boards without water).
11. The round-number reader (6 epochs on the step-1 boards, 10 minutes).
12. The mark heads (issue 14: ink the reading does not explain, vision.marks): phone-condition
   boards of data version 7 with marks on every board (4,800 photos, profile phone_marked,
   about 9 minutes), then a mark head on each shipped parts network (steps 9 and 15), its
   features frozen so that its readings do not change, with 1,600 boards of its own
   training data (steps 9 and 10; step 15's for step 15's network) as more spaces without
   marks, 5 epochs (about 15 minutes each); the ONNX files are
   exported again with the head's output beside the others.
13. (Run after step 10, before the models are installed.) Phone-condition boards of data
   version 7 (3,600 photos, about 20 minutes, and 1,200 base-game boards in the renderer's
   own conditions, 4 minutes), and step 7's faint-ink
   base-game reader tuned on them from its ONNX file, its batch norms frozen, 2 epochs at a
   lower learning rate (about 18 minutes alone), in ``data/faint_v10``; then that reader
   widened from 16 to 24 channels (train_classifier.widen: it starts out reading as before)
   and trained on the same boards, 4 epochs (about 40 minutes alone), in ``data/faint_w24``:
   shipped as ``faint_base_classifier.*`` (issue 14, docs/VISION.md "More phone boards for
   the faint-ink base-game reader" and "A wider faint-ink base-game reader").
14. The board context tables (vision.board_context, read by vision.covered for spaces under a
   hand, pen or die): 2,000 games played with the real dice, counted (about 2 minutes):
   ``models/board_context.json``.
15. (Run after step 10, before step 12's mark heads.) Base-game boards of data version 7,
   2,400 in phone conditions and 2,400 in the renderer's own (about 14 minutes), and Deep
   Blue boards, 2,400 in phone conditions and 1,200 in the renderer's own (about 11
   minutes), the spaces a hand, pen or die covers by less than half labelled (the reader
   learns to read what shows of them; ``--hidden 0.5``, except on the first 2,400); step
   10's faint-ink parts network widened from 16 to 24 channels (train_classifier.widen)
   and trained on them, 2 epochs (about 45 minutes alone), in
   ``data/faint_parts_w24``: shipped as ``faint_cell_classifier.*`` with step 12's mark
   head (docs/VISION.md, "A wider faint-ink parts network").
16. (Run after steps 13 and 15.) Step 13's faint-ink base-game reader tuned on step 15's
   first 1,200 clean base-game boards and its 2,400 phone-condition ones (the spaces a
   hand, pen or die covers by less than half labelled), batch norms frozen, 2 epochs at lr
   5e-4 (about 14 minutes alone), in ``data/faint_base_covered``: shipped as
   ``faint_base_classifier.*`` (issue 14, docs/VISION.md "The faint-ink base-game reader
   trained on partly covered spaces").

17. (Run after steps 12 and 15.) Deep Blue boards of data version 7 in phone conditions,
   3,600 (about 11 minutes), with 2,400 clean Deep Blue boards and 2,400 phone-condition
   base-game ones (about 4 and 7 minutes), and step 15's faint-ink parts network tuned on
   them with step 15's Deep Blue phone boards and 1,200 of its clean base-game boards, its
   first two convolution blocks and every batch norm kept as they were
   (``--freeze-early 7``), 2 epochs within 42 minutes, in ``data/faint_parts_v15``, then 2
   more at half the learning rate (about 31 minutes), in ``data/faint_parts_v15b``; step
   12's mark head branches off those two blocks, so it is put back on the tuned network
   unchanged (``train_mark_head.py --head-init ... --epochs 0``): shipped as
   ``faint_cell_classifier.*`` (issue 16, docs/VISION.md "More Deep Blue phone boards for
   the faint-ink parts network").
18. (Run after step 17.) Fresh boards of data version 7: 5,400 Deep Blue and 1,200 base-game
   boards in phone conditions (spaces partly covered labelled; about 17 and 4 minutes), 600
   clean boards of each (about 2 minutes), and step 17's reader, as shipped with its mark
   head, tuned on them from its ONNX file, the same blocks and batch norms kept, 3 epochs at
   lr 5e-4 (about 30 minutes alone), in ``data/faint_parts_v16``; the mark head is put back
   from step 17's file (``train_mark_head.py --head-from``, checked to give the same logits):
   shipped as ``faint_cell_classifier.*`` (issues 14 and 16, docs/VISION.md "Fresh Deep Blue
   phone boards for the faint-ink parts network").
19. (Run after steps 16 and 18.) Fresh base-game boards of data version 7, 2,400 in phone
   conditions (spaces partly covered labelled; about 7 minutes) and 600 clean (1 minute),
   and step 16's faint-ink base-game reader widened from 24 to 32 channels
   (train_classifier.widen) and trained on them with step 18's 1,200 phone and 600 clean
   base-game boards, 3 epochs (about 60 minutes alone), its weights stored as float16
   (``--half-weights``: the file stays under 1 MB), in ``data/faint_base_w32``: shipped as
   ``faint_base_classifier.*`` (issue 14, docs/VISION.md "The faint-ink base-game reader
   widened again, its weights stored as float16").
20. (Run after steps 12, 18 and 19.) Boards drawn with pens past the renderer's own
   (``--pens wide``; 2,000 base-game, 5,400 Deep Blue, about 16 minutes) and 600 fresh clean
   base-game boards (1 minute), and the standard parts network, as installed with its mark
   head, tuned on them with steps 18's and 19's clean boards from its ONNX file, its first
   two blocks and batch norms kept, 2 epochs (about 16 minutes alone), in
   ``data/std_wide``; the mark head is put back from the standard network's file: shipped as
   ``wide_cell_classifier.*``, the wide-pen parts network, which reads no board alone but
   has a say on a board's water (issue 16, docs/VISION.md "The wide-pen network's say on
   water").
21. (Run last.) The 8-bit twins of the faint-ink readers and of the standard parts network
   (``scripts/quantize_models.py``: static int8 quantization calibrated on the crops 80
   rendered photos give each network, checked on 40 others, about 2 minutes): shipped as
   ``faint_base_classifier.int8.onnx``, ``faint_cell_classifier.int8.onnx`` and
   ``cell_classifier.int8.onnx``, each named in its network's metadata (``int8``), which the
   reader reads through (issue 14, docs/VISION.md "Speed: the readers' 8-bit twins").

Steps 1-6 cut their crops from the darkest channel (data version 4, ``--darkest-channel``),
as they were made for the shipped models; steps 7-10, 12, 13 and 15-19 cut version 5, 6
or 7, as the reader cuts crops now for the networks trained on them (the same on white or
grey paper).

Everything follows from the seeds below, so a rerun gives the same data bit for bit and, on
the same torch build and thread count, the same models. Steps already done are skipped (data
parts that exist are kept), so an interrupted run can simply be started again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import board_context  # scripts/ is not a package: imported from its folder
import generate_dataset
import quantize_models
import train_classifier
import train_mark_head
import train_round_numbers

from vision.model_meta import (
    BASE_META_FILE,
    BASE_MODEL_FILE,
    FAINT_BASE_META_FILE,
    FAINT_BASE_MODEL_FILE,
    FAINT_MODEL_FILE,
    META_FILE,
    MODEL_FILE,
    WIDE_META_FILE,
    WIDE_MODEL_FILE,
    ModelMeta,
)
from vision.round_numbers import NUMBERS_META

# (folder, first photo seed, photos, largest photo in megapixels, --expansion, --conditions)
DATASETS = [
    ("v3_a", 1_002_400, 400, 2.5, None, None),
    ("v3_b", 1_003_000, 5_200, 5.0, None, None),
]
ORIENTER_TRAINING = ["--epochs", "0", "--orienter-epochs", "10", "--threads", "2",
                     "--seed", "20261129"]
# The first stage's weights: (commit, path) in this repository's history.
STAGE1 = ("653b41a", "models/cell_classifier.pt")
# (folder, first photo seed, photos, largest photo in megapixels, --expansion, --conditions)
PARTS_DATASETS = [
    ("v4_base", 1_003_000, 2_000, 5.0, None, None),
    ("v5_base2", 1_005_000, 2_000, 5.0, None, None),
    ("v4_water", 1_020_000, 2_600, 5.0, "mix", None),
    ("v5_water2", 1_050_000, 3_400, 5.0, "mix", None),
]
TRAINING = ["--epochs", "5", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
            "--seed", "20261201", "--no-ink-gain"]
# Phone-condition boards (vision.render.phone), same columns as PARTS_DATASETS
PHONE_DATASETS = [
    ("v4_phone", 1_030_000, 1_200, 5.0, None, "phone"),
    ("v4_phone_water", 1_040_000, 800, 5.0, "mix", "phone"),
    ("v6_phone", 1_060_000, 2_400, 5.0, None, "phone"),
    ("v6_phone_water", 1_070_000, 1_600, 5.0, "mix", "phone"),
]
# the base-game reader's run (one thread: it shared the machine with the parts network's)
BASE_GAIN_TRAINING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads",
                      "1", "--seed", "20261202", "--lr", "1.5e-3", "--base-game"]
# Phone-condition boards of data version 5 (crops taking each colour channel against its own
# paper), and the faint-ink base-game reader tuned on them from step 6's
PHONE_V5_DATASETS = [("v7_phone", 1_080_000, 4_000, 5.0, None, "phone")]
BASE_V5_TUNING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
                  "--seed", "20261204", "--lr", "1e-3", "--base-game"]
# Base-game and Deep Blue boards of data version 5, and the parts network tuned on them and
# data version 4 from step 5's
PARTS_V5_DATASETS = [("v7_base", 1_095_000, 1_600, 5.0, None, None),
                     ("v7_water", 1_090_000, 4_000, 5.0, "mix", None)]
PARTS_V5_TUNING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
                   "--seed", "20261205", "--lr", "1e-3", "--no-ink-gain"]
# Data version 6 (darkness and blueness), and the parts network tuned on it from step 8's,
# with the blueness as a second input channel
PARTS_V6_DATASETS = [("v8_water", 1_090_000, 4_000, 5.0, "mix", None),
                     ("v8_base", 1_110_000, 2_000, 5.0, None, None),
                     ("v8_water2", 1_120_000, 5_000, 5.0, "mix", None)]
PARTS_V6_TUNING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
                   "--seed", "20261206", "--lr", "1e-3", "--no-ink-gain", "--blue"]
# Phone-condition boards of data version 6, and the faint-ink parts network tuned on them and
# step 9's first boards from step 9's network, with the ink gain
PHONE_V6_DATASETS = [("v8_phone_water", 1_130_000, 3_000, 5.0, "mix", "phone"),
                     ("v8_phone", 1_140_000, 3_000, 5.0, None, "phone")]
FAINT_V6_TUNING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
                   "--seed", "20261208", "--lr", "1.5e-3", "--blue"]
# Phone-condition boards of data version 7 and base-game boards in the renderer's own
# conditions, and the faint-ink base-game reader tuned on them from step 7's ONNX file
PHONE_V7_DATASETS = [("v10_phone", 1_170_000, 3_600, 5.0, None, "phone"),
                     ("v10_base", 1_176_000, 1_200, 5.0, None, None)]
BASE_V7_TUNING = ["--epochs", "2", "--width", "16", "--orienter-epochs", "0", "--threads", "2",
                  "--seed", "20261210", "--lr", "5e-4", "--base-game", "--freeze-norms"]
# Step 13's reader widened from 16 to 24 channels (train_classifier.widen), then trained on
# the same data; the clock bounds the run (the 4 epochs took 40 minutes alone).
BASE_V7_WIDENING = ["--epochs", "4", "--max-minutes", "60", "--width", "24",
                    "--orienter-epochs", "0", "--threads", "2", "--seed", "20261211",
                    "--lr", "1e-3", "--base-game", "--freeze-norms"]
# Base-game and Deep Blue boards of data version 7, in phone conditions and the renderer's
# own, and step 10's faint-ink parts network widened from 16 to 24 channels and trained on them
# (the v12 boards with the spaces that a hand, pen or die covers by less than half labelled,
# so that the reader learns to read what shows of them: generate_dataset.py --hidden)
PARTS_V7_DATASETS = [("v11_base", 1_186_000, 2_400, 5.0, None, None)]
PARTS_V7_COVERED_DATASETS = [("v12_phone", 1_180_000, 2_400, 5.0, None, "phone"),
                             ("v12_phone_water", 1_220_000, 2_400, 5.0, "mix", "phone"),
                             ("v12_water", 1_226_000, 1_200, 5.0, "mix", None)]
PARTLY_COVERED = 0.5
FAINT_PARTS_WIDENING = ["--epochs", "2", "--max-minutes", "48", "--width", "24",
                        "--orienter-epochs", "0", "--threads", "2", "--seed", "20261215",
                        "--lr", "1e-3", "--blue", "--freeze-norms"]
# Deep Blue boards in phone conditions (spaces partly covered labelled), clean Deep Blue
# boards and phone-condition base-game boards of data version 7, and step 15's faint-ink parts
# network tuned on them with step 15's Deep Blue phone boards and its first 1,200 clean
# base-game boards; the two blocks the mark head branches off stay as they are
FAINT_PARTS_V15_DATASETS = [("v15_phone_water", 1_300_000, 3_600, 5.0, "mix", "phone"),
                            ("v13_phone", 1_230_000, 2_400, 5.0, None, "phone")]
FAINT_PARTS_V15_CLEAN_DATASETS = [("v14_water", 1_240_000, 2_400, 5.0, "mix", None)]
FAINT_PARTS_V15_CLEAN_PARTS = 6  # the clean boards' parts (200 boards each) that go in
FAINT_PARTS_V15_TUNING = ["--epochs", "2", "--max-minutes", "42", "--width", "24",
                          "--orienter-epochs", "0", "--threads", "2", "--seed", "20261218",
                          "--lr", "1e-3", "--blue", "--freeze-norms", "--freeze-early", "7"]
FAINT_PARTS_V15_MORE = ["--epochs", "2", "--max-minutes", "30", "--width", "24",
                        "--orienter-epochs", "0", "--threads", "2", "--seed", "20261219",
                        "--lr", "5e-4", "--blue", "--freeze-norms", "--freeze-early", "7"]
# Fresh boards of data version 7 (Deep Blue and base-game, in phone conditions with the spaces
# partly covered labelled, and in the renderer's own), and step 17's faint-ink parts network
# tuned on them from its shipped ONNX file, the mark head's blocks kept again
FAINT_PARTS_V16_DATASETS = [("v16_phone_water", 1_310_000, 5_400, 5.0, "mix", "phone"),
                            ("v16_phone", 1_320_000, 1_200, 5.0, None, "phone")]
FAINT_PARTS_V16_CLEAN_DATASETS = [("v16_water", 1_330_000, 600, 5.0, "mix", None),
                                  ("v16_base", 1_340_000, 600, 5.0, None, None)]
FAINT_PARTS_V16_TUNING = ["--epochs", "3", "--max-minutes", "45", "--width", "24",
                          "--orienter-epochs", "0", "--threads", "2", "--seed", "20261221",
                          "--lr", "5e-4", "--blue", "--freeze-norms", "--freeze-early", "7"]
# Fresh base-game boards of data version 7 (in phone conditions with the spaces partly covered
# labelled, and in the renderer's own), and step 16's faint-ink base-game reader widened from
# 24 to 32 channels and trained on them with step 18's base-game boards; its weights stored
# as float16, so that the file stays under 1 MB
FAINT_BASE_V17_DATASETS = [("v17_phone", 1_350_000, 2_400, 5.0, None, "phone")]
FAINT_BASE_V17_CLEAN_DATASETS = [("v17_base", 1_360_000, 600, 5.0, None, None)]
# Boards drawn with pens past the renderer's own (generate_dataset.py --pens wide) and fresh
# clean base-game boards, and the standard parts network tuned on them with steps 18's and 19's
# clean boards, the blocks its mark head branches off kept
WIDE_PEN_DATASETS = [("v19_wide_base", 1_390_000, 1_200, 5.0, None, None),
                     ("v19_wide_base2", 1_420_000, 800, 5.0, None, None),
                     ("v19_wide_water", 1_400_000, 3_400, 5.0, "mix", None),
                     ("v19_wide_water2", 1_410_000, 2_000, 5.0, "mix", None)]
WIDE_CLEAN_DATASETS = [("v18_base", 1_380_000, 600, 5.0, None, None)]
WIDE_TUNING = ["--epochs", "2", "--max-minutes", "30", "--width", "16", "--orienter-epochs", "0",
               "--threads", "2", "--seed", "20261225", "--lr", "1e-3", "--no-ink-gain", "--blue",
               "--freeze-norms", "--freeze-early", "7"]
WIDE_NOTES = ("CellNet width 16: the standard parts network (cell_classifier.onnx) tuned on "
              "boards drawn with pens past the renderer's own (--pens wide) and clean boards, "
              "its first two blocks and batch norms kept (its mark head is the standard "
              "network's, put back). It reads no board alone: on a board the standard network "
              "reads with water, vision.classify.WaterCheck reads it once more with this "
              "network, and the board is read as one without water when this network reads no "
              "space as water at least ClassifyParams.water_check_sure surely and the mean of "
              "the two readings (ClassifyParams.water_check_weight on this one's) shows none "
              "(docs/VISION.md, \"The wide-pen network's say on water\")")
BASE_V17_WIDENING = ["--epochs", "3", "--max-minutes", "70", "--width", "32",
                     "--orienter-epochs", "0", "--threads", "2", "--seed", "20261222",
                     "--lr", "1e-3", "--base-game", "--freeze-norms", "--half-weights"]
# Step 13's faint-ink base-game reader tuned on step 15's first 1,200 clean base-game boards
# and its phone-condition base-game boards (spaces partly under a hand, pen or die labelled)
COVERED_BASE_PARTS = 6  # the clean boards' parts (200 boards each) that go into step 16
BASE_V7_COVERED_TUNING = ["--epochs", "2", "--width", "24", "--orienter-epochs", "0",
                          "--threads", "2", "--seed", "20261216", "--lr", "5e-4",
                          "--base-game", "--freeze-norms"]
# Boards the round-number reader is measured on (never trained on): (folder, seed, photos,
# smallest and largest photo in megapixels).
HELDOUT = ("heldout_orient", 8_200_000, 400, 1.0, 12.0)
NUMBERS_TRAINING = ["--epochs", "6", "--threads", "2", "--seed", "20261130"]
# Data version 7: marks rink does not read on every board; the mark heads are trained on it
# and on 1,600 boards of steps 9 and 10 without marks (1,400 of them in the renderer's own
# conditions, so that clean boards are not flagged)
MARKED_DATASETS = [("v9_marked", 1_150_000, 1_600, 2.5, None, "phone_marked"),
                   ("v9_marked_water", 1_160_000, 800, 2.5, "mix", "phone_marked"),
                   ("v9_marked2", 1_152_000, 1_600, 2.5, None, "phone_marked"),
                   ("v9_marked_water2", 1_162_000, 800, 2.5, "mix", "phone_marked")]
UNMARKED_PARTS = ("v8_base/part000.npz", "v8_base/part001.npz", "v8_base/part002.npz",
                  "v8_base/part003.npz", "v8_water/part000.npz", "v8_water/part001.npz",
                  "v8_water2/part000.npz", "v8_phone/part000.npz")
# the faint-ink parts network's (step 15): boards of its own training data
FAINT_UNMARKED_PARTS = ("v11_base/part000.npz", "v11_base/part001.npz", "v11_base/part002.npz",
                        "v11_base/part003.npz", "v12_water/part000.npz",
                        "v12_water/part001.npz", "v12_water/part002.npz",
                        "v12_phone/part000.npz")
MARK_TRAINING = ["--epochs", "5", "--threads", "2", "--seed", "20261209"]
# The board context tables: games played with the real dice, counted
CONTEXT_COUNTING = ["--games", "2000", "--seed", "555000000"]


def make_data(root: Path, datasets: list[tuple], workers: int, each_channel: bool = False,
              hidden: float | None = None, pens: str = "standard"
              ) -> tuple[list[str], list[str]]:
    """Render ``datasets`` ((folder, seed, photos, largest megapixels, --expansion,
    --conditions)) under ``root``: their part files and the commands that made them.
    ``each_channel``: data version 5's crops, else version 4's (the darkest channel);
    ``hidden``: generate_dataset.py's --hidden (None: its default); ``pens``: its --pens."""
    parts: list[str] = []
    commands: list[str] = []
    for folder, seed, n, mp_max, expansion, conditions in datasets:
        out = root / folder
        data_args = ["--n", str(n), "--seed", str(seed), "--out", str(out),
                     "--part-size", "200", "--mp-max", str(mp_max)]
        data_args += ["--expansion", expansion] if expansion else []
        data_args += ["--conditions", conditions] if conditions else []
        data_args += [] if each_channel else ["--darkest-channel"]
        data_args += [] if hidden is None else ["--hidden", str(hidden)]
        data_args += [] if pens == "standard" else ["--pens", pens]
        generate_dataset.main([*data_args, "--workers", str(workers)])
        commands.append("scripts/generate_dataset.py " + " ".join(data_args))
        parts += sorted(str(p) for p in out.glob("part*.npz"))
    return parts, commands


def make_tuning_data(root: Path, covered: list[tuple], clean: list[tuple], workers: int
                     ) -> tuple[list[str], list[str], list[str], list[str]]:
    """A tuning step's data (version 7's crops): ``covered`` with the spaces partly under a
    hand, pen or die labelled, and ``clean``; the part files and commands of each."""
    covered_parts, covered_commands = make_data(root, covered, workers, each_channel=True,
                                                hidden=PARTLY_COVERED)
    clean_parts, clean_commands = make_data(root, clean, workers, each_channel=True)
    return covered_parts, covered_commands, clean_parts, clean_commands


def _faint_v6_parts(parts: list[str]) -> list[str]:
    """Step 10's training parts, in the order they were given when it was trained: the
    folders v8_base, v8_phone, v8_phone_water and v8_water, by name."""
    folders = ("v8_base", "v8_phone", "v8_phone_water", "v8_water")
    return sorted((p for p in parts if Path(p).parent.name in folders),
                  key=lambda p: (folders.index(Path(p).parent.name), p))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("data"),
                        help="where the training data is written")
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    start = time.time()
    parts, commands = make_data(args.data, DATASETS, args.workers)
    folder, seed, n, mp_min, mp_max = HELDOUT
    heldout_dir = args.data / folder
    heldout_args = ["--n", str(n), "--seed", str(seed), "--out", str(heldout_dir),
                    "--part-size", "200", "--mp-min", str(mp_min), "--mp-max", str(mp_max),
                    "--darkest-channel"]
    generate_dataset.main([*heldout_args, "--workers", str(args.workers)])
    heldout = sorted(str(p) for p in heldout_dir.glob("part*.npz"))
    print(f"base data ready after {time.time() - start:.0f}s", flush=True)
    train_classifier.main(["--data", *parts, "--out", str(args.out), *ORIENTER_TRAINING])

    stage1 = args.data / "stage1_cell_classifier.pt"
    if not stage1.exists():
        commit, path = STAGE1
        stage1.write_bytes(subprocess.run(["git", "show", f"{commit}:{path}"], check=True,
                                          capture_output=True).stdout)
    parts_v4, parts_commands = make_data(args.data, PARTS_DATASETS, args.workers)
    print(f"data version 4 ready after {time.time() - start:.0f}s", flush=True)
    stage2 = args.data / "stage2"
    train_classifier.main(["--data", *parts_v4, "--out", str(stage2), *TRAINING,
                           "--init", str(stage1)])
    phone, phone_commands = make_data(args.data, PHONE_DATASETS, args.workers)
    print(f"phone-condition data ready after {time.time() - start:.0f}s", flush=True)
    faint = args.data / "faint"
    train_classifier.main(["--data", *parts_v4, *phone, "--out", str(faint),
                           *BASE_GAIN_TRAINING, "--init", str(stage1)])
    phone_v5, phone_v5_commands = make_data(args.data, PHONE_V5_DATASETS, args.workers,
                                            each_channel=True)
    print(f"phone-condition data version 5 ready after {time.time() - start:.0f}s", flush=True)
    tuned = args.data / "faint_v5"
    train_classifier.main(["--data", *parts_v4, *phone, *phone_v5, "--out", str(tuned),
                           *BASE_V5_TUNING, "--init", str(faint / "base_classifier.pt")])
    parts_v5, parts_v5_commands = make_data(args.data, PARTS_V5_DATASETS, args.workers,
                                            each_channel=True)
    print(f"data version 5 ready after {time.time() - start:.0f}s", flush=True)
    stage3 = args.data / "stage3"
    train_classifier.main(["--data", *parts_v4, *parts_v5, "--out", str(stage3),
                           *PARTS_V5_TUNING, "--init", str(stage2 / "cell_classifier.pt")])
    parts_v6, parts_v6_commands = make_data(args.data, PARTS_V6_DATASETS, args.workers,
                                            each_channel=True)
    print(f"data version 6 ready after {time.time() - start:.0f}s", flush=True)
    stage4 = args.data / "stage4"
    train_classifier.main(["--data", *parts_v6, "--out", str(stage4), *PARTS_V6_TUNING,
                           "--init", str(stage3 / "cell_classifier.pt")])
    phone_v6, phone_v6_commands = make_data(args.data, PHONE_V6_DATASETS, args.workers,
                                            each_channel=True)
    print(f"phone-condition data version 6 ready after {time.time() - start:.0f}s", flush=True)
    faint_v6 = args.data / "faint_v6"
    train_classifier.main(["--data", *_faint_v6_parts(parts_v6 + phone_v6), "--out",
                           str(faint_v6), *FAINT_V6_TUNING,
                           "--init", str(stage4 / "cell_classifier.pt")])
    phone_v7, phone_v7_commands = make_data(args.data, PHONE_V7_DATASETS, args.workers,
                                            each_channel=True)
    print(f"phone-condition data version 7 ready after {time.time() - start:.0f}s", flush=True)
    faint_v10 = args.data / "faint_v10"
    train_classifier.main(["--data", *phone_v7, "--out", str(faint_v10), *BASE_V7_TUNING,
                           "--init", str(tuned / BASE_MODEL_FILE)])
    faint_w24 = args.data / "faint_w24"
    # the boards in the order the shipped run was given them (file names sorted: the
    # clean base-game boards first), which decides the validation boards
    train_classifier.main(["--data", *sorted(phone_v7), "--out", str(faint_w24),
                           *BASE_V7_WIDENING,
                           "--init", str(faint_v10 / BASE_MODEL_FILE)])
    clean_v7, clean_v7_commands = make_data(args.data, PARTS_V7_DATASETS, args.workers,
                                            each_channel=True)
    covered_v7, covered_v7_commands = make_data(args.data, PARTS_V7_COVERED_DATASETS,
                                                args.workers, each_channel=True,
                                                hidden=PARTLY_COVERED)
    parts_v7 = clean_v7 + covered_v7
    parts_v7_commands = clean_v7_commands + covered_v7_commands
    print(f"data version 7 (parts) ready after {time.time() - start:.0f}s", flush=True)
    faint_parts_w24 = args.data / "faint_parts_w24"
    train_classifier.main(["--data", *parts_v7, "--out", str(faint_parts_w24),
                           *FAINT_PARTS_WIDENING, "--init", str(faint_v6 / MODEL_FILE)])
    faint_base_covered = args.data / "faint_base_covered"
    phone_base = [p for p in covered_v7 if Path(p).parent.name == "v12_phone"]
    train_classifier.main(["--data", *clean_v7[:COVERED_BASE_PARTS], *phone_base,
                           "--out", str(faint_base_covered), *BASE_V7_COVERED_TUNING,
                           "--init", str(faint_w24 / BASE_MODEL_FILE)])
    tuning_v15, tuning_v15_commands, clean_v15, clean_v15_commands = make_tuning_data(
        args.data, FAINT_PARTS_V15_DATASETS, FAINT_PARTS_V15_CLEAN_DATASETS, args.workers)
    print(f"step 17's data ready after {time.time() - start:.0f}s", flush=True)
    faint_parts_v15 = args.data / "faint_parts_v15"
    # the boards in the order the shipped run was given them, which decides the validation
    # boards: the new Deep Blue phone boards, step 15's, the phone base-game boards, then
    # the clean Deep Blue and base-game ones
    phone_water_v7 = [p for p in covered_v7 if Path(p).parent.name == "v12_phone_water"]
    tuning_v15_parts = [*(p for p in tuning_v15 if Path(p).parent.name == "v15_phone_water"),
                        *phone_water_v7,
                        *(p for p in tuning_v15 if Path(p).parent.name == "v13_phone"),
                        *clean_v15[:FAINT_PARTS_V15_CLEAN_PARTS],
                        *clean_v7[:FAINT_PARTS_V15_CLEAN_PARTS]]
    train_classifier.main(["--data", *tuning_v15_parts, "--out", str(faint_parts_v15),
                           *FAINT_PARTS_V15_TUNING,
                           "--init", str(faint_parts_w24 / MODEL_FILE)])
    faint_parts_v15b = args.data / "faint_parts_v15b"
    train_classifier.main(["--data", *tuning_v15_parts, "--out", str(faint_parts_v15b),
                           *FAINT_PARTS_V15_MORE,
                           "--init", str(faint_parts_v15 / "cell_classifier.pt")])
    stage2_recipe = ModelMeta.load(stage2 / META_FILE).recipe
    stage3_recipe = ModelMeta.load(stage3 / META_FILE).recipe
    # (trained as, shipped as, the recipe before its own run)
    installs = [
        (stage4 / MODEL_FILE, META_FILE, MODEL_FILE,
         [stage2_recipe, *parts_v5_commands, stage3_recipe, *parts_v6_commands]),
        (faint_parts_v15b / MODEL_FILE, META_FILE, FAINT_MODEL_FILE,
         [stage2_recipe, *parts_v5_commands, stage3_recipe, *parts_v6_commands,
          ModelMeta.load(stage4 / META_FILE).recipe, *phone_v6_commands,
          ModelMeta.load(faint_v6 / META_FILE).recipe, *parts_v7_commands,
          ModelMeta.load(faint_parts_w24 / META_FILE).recipe, *tuning_v15_commands,
          *clean_v15_commands, ModelMeta.load(faint_parts_v15 / META_FILE).recipe]),
        (faint_base_covered / BASE_MODEL_FILE, BASE_META_FILE, FAINT_BASE_MODEL_FILE,
         [ModelMeta.load(faint / BASE_META_FILE).recipe, *phone_v5_commands,
          ModelMeta.load(tuned / BASE_META_FILE).recipe, *phone_v7_commands,
          ModelMeta.load(faint_v10 / BASE_META_FILE).recipe,
          ModelMeta.load(faint_w24 / BASE_META_FILE).recipe, *clean_v7_commands,
          covered_v7_commands[0]]),  # v11_base's and v12_phone's
    ]
    for onnx, meta_file, shipped, before in installs:
        meta = ModelMeta.load(onnx.parent / meta_file)
        meta.recipe = "; ".join([
            "scripts/reproduce_models.py, i.e.", *commands,
            f"stage 1: git show {STAGE1[0]}:{STAGE1[1]} > {stage1}", *parts_commands,
            *(phone_commands if onnx.parent == faint_base_covered else []), *before, meta.recipe])
        shutil.copyfile(onnx, args.out / shipped)
        meta.save(args.out / shipped.replace(".onnx", ".json"))
    shutil.copyfile(stage4 / "cell_classifier.pt", args.out / "cell_classifier.pt")
    train_round_numbers.main(["--data", *parts, "--heldout", *heldout, "--out", str(args.out),
                              *NUMBERS_TRAINING])
    numbers_meta = args.out / NUMBERS_META
    info = json.loads(numbers_meta.read_text())
    info["recipe"] = "; ".join(["scripts/reproduce_models.py, i.e.",
                                "scripts/generate_dataset.py " + " ".join(heldout_args),
                                info["recipe"]])
    numbers_meta.write_text(json.dumps(info, indent=1) + "\n")
    marked, _ = make_data(args.data, MARKED_DATASETS, args.workers, each_channel=True)
    print(f"data version 7 ready after {time.time() - start:.0f}s", flush=True)
    # each head is trained on the network it was made for (the faint-ink one on step 15's),
    # then put into the shipped ONNX file
    faint_marked = args.data / "faint_parts_w24_marked"
    for weights, meta_path, out, stem, unmarked_parts in (
            (stage4 / "cell_classifier.pt", args.out / META_FILE, args.out,
             "cell_classifier", UNMARKED_PARTS),
            (faint_parts_w24 / "cell_classifier.pt", faint_parts_w24 / META_FILE,
             faint_marked, "faint_cell_classifier", FAINT_UNMARKED_PARTS)):
        unmarked = [str(args.data / part) for part in unmarked_parts]
        train_mark_head.main(["--init", str(weights), "--meta", str(meta_path),
                              "--data", *marked, *unmarked, "--out", str(out),
                              "--name", stem, "--head-out",
                              str(args.data / f"{stem}_mark_head.pt"), *MARK_TRAINING])
    # step 17 kept the blocks the faint-ink head branches off: the head goes on unchanged
    # (no epochs; its threshold set again on the same validation spaces)
    unmarked = [str(args.data / part) for part in FAINT_UNMARKED_PARTS]
    faint_meta = args.out / FAINT_MODEL_FILE.replace(".onnx", ".json")
    train_mark_head.main(["--init", str(faint_parts_v15b / "cell_classifier.pt"),
                          "--meta", str(faint_meta), "--data", *marked, *unmarked,
                          "--out", str(args.out), "--name", "faint_cell_classifier",
                          "--head-out", str(args.data / "faint_parts_v15_mark_head.pt"),
                          "--head-init", str(args.data / "faint_cell_classifier_mark_head.pt"),
                          "--epochs", "0", *MARK_TRAINING[2:]])
    shipped = ModelMeta.load(faint_meta)
    trained = ModelMeta.load(faint_marked / "faint_cell_classifier.json").mark_head
    shipped.mark_head["recipe"] = trained["recipe"] + "; " + shipped.mark_head["recipe"]
    shipped.save(faint_meta)
    # step 18: step 17's reader, as shipped then (with its mark head), tuned on fresh boards;
    # the blocks the head branches off are kept, so the head goes back on as it is
    tuning_v16, tuning_v16_commands, clean_v16, clean_v16_commands = make_tuning_data(
        args.data, FAINT_PARTS_V16_DATASETS, FAINT_PARTS_V16_CLEAN_DATASETS, args.workers)
    print(f"step 18's data ready after {time.time() - start:.0f}s", flush=True)
    step17 = args.data / "faint_step17"
    step17.mkdir(parents=True, exist_ok=True)
    for suffix in (".onnx", ".json"):
        shutil.copyfile(faint_meta.with_suffix(suffix), step17 / f"{faint_meta.stem}{suffix}")
    faint_parts_v16 = args.data / "faint_parts_v16"
    train_classifier.main(["--data", *tuning_v16, *clean_v16, "--out", str(faint_parts_v16),
                           *FAINT_PARTS_V16_TUNING,
                           "--init", str(step17 / FAINT_MODEL_FILE)])
    train_mark_head.main(["--init", str(faint_parts_v16 / "cell_classifier.pt"),
                          "--meta", str(faint_parts_v16 / META_FILE),
                          "--head-from", str(step17 / FAINT_MODEL_FILE),
                          "--out", str(args.out), "--name", "faint_cell_classifier",
                          "--head-out", str(args.data / "faint_parts_v16_mark_head.pt"),
                          "--threads", "2"])
    tuned_meta = ModelMeta.load(faint_meta)
    tuned_meta.recipe = "; ".join([ModelMeta.load(step17 / faint_meta.name).recipe,
                                   *tuning_v16_commands, *clean_v16_commands,
                                   tuned_meta.recipe])
    tuned_meta.save(faint_meta)
    # step 19: step 16's faint-ink base-game reader, as installed above, widened and trained
    # on fresh base-game boards and step 18's (phone, then clean; the order decides the
    # validation boards)
    faint_base_meta = args.out / FAINT_BASE_META_FILE
    step16 = args.data / "faint_base_step16"
    step16.mkdir(parents=True, exist_ok=True)
    for installed in (args.out / FAINT_BASE_MODEL_FILE, faint_base_meta):
        shutil.copyfile(installed, step16 / installed.name)
    phone_v17, phone_v17_commands, clean_v17, clean_v17_commands = make_tuning_data(
        args.data, FAINT_BASE_V17_DATASETS, FAINT_BASE_V17_CLEAN_DATASETS, args.workers)
    print(f"step 19's data ready after {time.time() - start:.0f}s", flush=True)
    faint_base_w32 = args.data / "faint_base_w32"
    train_classifier.main([
        "--data", *phone_v17, *(p for p in tuning_v16 if Path(p).parent.name == "v16_phone"),
        *clean_v17, *(p for p in clean_v16 if Path(p).parent.name == "v16_base"),
        "--out", str(faint_base_w32), *BASE_V17_WIDENING,
        "--init", str(step16 / FAINT_BASE_MODEL_FILE)])
    widened = ModelMeta.load(faint_base_w32 / BASE_META_FILE)
    # the commands of v16_phone and v16_base: make_data's commands follow its datasets
    widened.recipe = "; ".join([ModelMeta.load(step16 / faint_base_meta.name).recipe,
                                tuning_v16_commands[1], clean_v16_commands[1],
                                *phone_v17_commands, *clean_v17_commands, widened.recipe])
    shutil.copyfile(faint_base_w32 / BASE_MODEL_FILE, args.out / FAINT_BASE_MODEL_FILE)
    widened.save(faint_base_meta)
    # step 20: the standard parts network, as installed with its mark head, tuned on boards
    # drawn with wide pens; its reading has a say on a board's water (vision.classify)
    wide_parts, wide_commands = make_data(args.data, WIDE_PEN_DATASETS, args.workers,
                                          each_channel=True, pens="wide")
    wide_clean, wide_clean_commands = make_data(args.data, WIDE_CLEAN_DATASETS, args.workers,
                                                each_channel=True)
    print(f"step 20's data ready after {time.time() - start:.0f}s", flush=True)
    std_wide = args.data / "std_wide"
    clean = [p for folder in ("v16_base", "v16_water", "v17_base")
             for p in (*clean_v16, *clean_v17) if Path(p).parent.name == folder]
    train_classifier.main(["--data", *wide_parts, *clean, *wide_clean, "--out", str(std_wide),
                           "--init", str(args.out / MODEL_FILE), *WIDE_TUNING])
    put_back = args.data / "models_wide"
    train_mark_head.main(["--init", str(std_wide / "cell_classifier.pt"),
                          "--meta", str(std_wide / META_FILE),
                          "--head-from", str(args.out / MODEL_FILE), "--out", str(put_back),
                          "--name", "cell_classifier", "--threads", "2"])
    shutil.copyfile(put_back / MODEL_FILE, args.out / WIDE_MODEL_FILE)
    wide = ModelMeta.load(put_back / META_FILE)
    wide.notes = WIDE_NOTES
    wide.recipe = "; ".join(["scripts/reproduce_models.py step 20, i.e.", *wide_commands,
                             *wide_clean_commands, wide.recipe])
    wide.save(args.out / WIDE_META_FILE)
    board_context.main([*CONTEXT_COUNTING, "--out", str(args.out)])
    # step 21: the 8-bit twins, made from the float networks as installed now
    quantize_models.main(["--models", str(args.out), "--out", str(args.out)])
    print(f"models in {args.out} after {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
