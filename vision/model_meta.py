"""The classifier's classes and its metadata file, shared by training and inference.

Everything inference needs to reproduce training (class order, crop geometry, input size,
normalisation) is read from ``models/cell_classifier.json``, so the two cannot drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scoring.space import parse_token
from vision.space_parts import (
    CLASSES,
    class_index,
    mirrored_parts,
    token_parts,
    turned_parts,
)

MODEL_FILE = "cell_classifier.onnx"
META_FILE = "cell_classifier.json"
# The base-game reader: the flat 83-class classifier (vision.classify.BaseGameClassifier)
BASE_MODEL_FILE = "base_classifier.onnx"
BASE_META_FILE = "base_classifier.json"
# The faint-ink readers (issue 14): the same two networks trained with the board's ink gain
# (vision.crops.InkGain) on phone-condition boards as well; they read boards with faint ink
FAINT_MODEL_FILE = "faint_cell_classifier.onnx"
FAINT_META_FILE = "faint_cell_classifier.json"
FAINT_BASE_MODEL_FILE = "faint_base_classifier.onnx"
FAINT_BASE_META_FILE = "faint_base_classifier.json"
# The wide-pen parts network (issue 16): the parts network tuned on boards drawn with pens past
# the renderer's own; it has a say on whether a board shows water (vision.classify.WaterCheck)
WIDE_MODEL_FILE = "wide_cell_classifier.onnx"
WIDE_META_FILE = "wide_cell_classifier.json"


def rotate_token(token: str, quarter_turns: int = 1) -> str:
    """The token of a space turned clockwise by ``quarter_turns`` x 90 degrees (the
    scoring package's notation: West goes to North)."""
    return parse_token(token).turned(quarter_turns % 4).token


def _index_map(transform, classes: Sequence[str]) -> list[int]:
    index = class_index(tuple(classes))
    return [index[transform(token_parts(tok))] for tok in classes]


def rotation_index_map(quarter_turns: int, classes: Sequence[str] = CLASSES) -> list[int]:
    """``m[i]`` = index in ``classes`` of class ``i`` turned clockwise ``quarter_turns`` times."""
    return _index_map(lambda parts: turned_parts(parts, quarter_turns), classes)


def mirror_index_map(classes: Sequence[str] = CLASSES) -> list[int]:
    """``m[i]`` = index in ``classes`` of class ``i`` mirrored left-right."""
    return _index_map(mirrored_parts, classes)


@dataclass
class ModelMeta:
    """What the ONNX cell classifier expects and how well it measured."""

    classes: list[str]
    input_size: int  # crops are input_size x input_size pixels
    channels: int  # 1: flat-field normalised ink darkness; 2: and its blueness (ink_channels)
    cell_px: int  # canonical size of one space in the straightened board
    margin_px: int  # context around each space in the crop (each side)
    pad_px: int  # margin round the lattice in the straightened board (flat-field statistics)
    normalisation: str  # how crop pixels become network input
    mean: float
    std: float
    input_name: str = "crops"
    output_name: str = "logits"  # (N, classes) log-scores; softmax over classes after /T
    # The network's parts (vision.space_parts): outputs "sides" (N, 4, len(side_kinds)) and
    # "joins" (N, len(join_pairs)); empty for a model with one flat class output.
    side_kinds: list[str] = field(default_factory=list)
    join_pairs: list[list[int]] = field(default_factory=list)
    temperature: float = 1.0  # logits are divided by this before softmax (calibration)
    # Board-relative contrast applied to the 49 crops before the network (vision.crops.InkGain
    # fields); empty: the model was trained without it
    ink_gain: dict = field(default_factory=dict)
    # How the crops' ink was measured (vision.crops.Darkness): "darkest" channel alone (data
    # version 4 and before: every model trained before this field), "each" colour channel
    # against its own paper (version 5), or that and the ink's blueness as a second input
    # channel, "each+blue" (version 6)
    ink_channels: str = "darkest"
    training_seed: int = 0
    data_version: str = ""
    n_training_samples: int = 0
    training_seconds: float = 0.0
    date: str = ""
    accuracy: dict = field(default_factory=dict)
    notes: str = ""
    recipe: str = ""  # the commands that produced the model (data and training)
    # The mark head (scripts/train_mark_head.py; vision.marks): output name, the threshold on
    # its probability, its training data and validation figures; empty: the network has none
    mark_head: dict = field(default_factory=dict)
    # The network's 8-bit twin (scripts/quantize_models.py): its file beside this one, how it
    # was quantized and calibrated, and how closely it reads as this network; empty: none
    int8: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> ModelMeta:
        data = json.loads(Path(path).read_text())
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")
