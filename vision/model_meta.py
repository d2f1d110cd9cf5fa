"""The classifier's classes and its metadata file, shared by training and inference.

Everything inference needs to reproduce training (class order, crop geometry, input size,
normalisation) is read from ``models/cell_classifier.json``, so the two cannot drift apart.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scoring.space import parse_token

MODEL_FILE = "cell_classifier.onnx"
META_FILE = "cell_classifier.json"

_STRAIGHTS = ["H_H_", "_H_H"]
_CURVES = ["HH__", "_HH_", "__HH", "H__H"]
_TEES = ["HHH_", "_HHH", "H_HH", "HH_H"]

# The 51 base-game classes: empty + the 50 base-game space states (board-spec 4.1 notation).
BASE_CLASSES: tuple[str, ...] = tuple(
    ["."]
    + _STRAIGHTS + _CURVES + _TEES
    + [t.replace("H", "R") for t in _STRAIGHTS + _CURVES + _TEES]
    + ["HRHRo", "RHRHo"]
    + ["H_R_", "_H_R", "R_H_", "_R_H"]
    + ["HR__", "_HR_", "__HR", "R__H"]
    + ["H__R", "RH__", "_RH_", "__RH"]
    + ["HHHH", "RRRR"]
    + ["HHRH", "HHHR", "RHHH", "HRHH"]
    + ["HRRR", "RHRR", "RRHR", "RRRH"]
    + ["HHRR", "RHHR", "RRHH", "HRRH"]
    + ["HRHR", "RHRH"]
)

# The 32 drawings that no die or Special Route gives but a player can still draw by mistake:
# the 8 dead ends (one side) and the 24 three-way stations (highway and railway meeting on
# three sides). They are read as drawn, so that the score counts their loose ends as Errors.
ODD_CLASSES: tuple[str, ...] = tuple(
    t for t in ("".join(sides) for sides in itertools.product("HR_", repeat=4))
    if t != "____" and t not in BASE_CLASSES
)

# What the classifier reads: every side combination of board-spec 4.1 (3^4 - 1 drawn ones,
# with the two overpasses beside their stations) and empty: 83 classes, base ones first.
CLASSES: tuple[str, ...] = BASE_CLASSES + ODD_CLASSES


def rotate_token(token: str, quarter_turns: int = 1) -> str:
    """The token of a space turned clockwise by ``quarter_turns`` x 90 degrees (the
    scoring package's notation: West goes to North)."""
    return parse_token(token).turned(quarter_turns % 4).token


def mirror_token(token: str) -> str:
    """The token of a space mirrored left-right (East and West swap)."""
    if token == ".":
        return token
    n, e, s, w = token[:4]
    return n + w + s + e + token[4:]


def _index_map(transform, classes: Sequence[str]) -> list[int]:
    index = {tok: i for i, tok in enumerate(classes)}
    return [index[transform(tok)] for tok in classes]


def rotation_index_map(quarter_turns: int, classes: Sequence[str] = CLASSES) -> list[int]:
    """``m[i]`` = index in ``classes`` of class ``i`` turned clockwise ``quarter_turns`` times."""
    return _index_map(lambda t: rotate_token(t, quarter_turns), classes)


def mirror_index_map(classes: Sequence[str] = CLASSES) -> list[int]:
    """``m[i]`` = index in ``classes`` of class ``i`` mirrored left-right."""
    return _index_map(mirror_token, classes)


@dataclass
class ModelMeta:
    """What the ONNX cell classifier expects and how well it measured."""

    classes: list[str]
    input_size: int  # crops are input_size x input_size pixels
    channels: int  # 1: flat-field normalised ink darkness
    cell_px: int  # canonical size of one space in the straightened board
    margin_px: int  # context around each space in the crop (each side)
    pad_px: int  # margin round the lattice in the straightened board (flat-field statistics)
    normalisation: str  # how crop pixels become network input
    mean: float
    std: float
    input_name: str = "crops"
    output_name: str = "logits"
    temperature: float = 1.0  # logits are divided by this before softmax (calibration)
    training_seed: int = 0
    data_version: str = ""
    n_training_samples: int = 0
    training_seconds: float = 0.0
    date: str = ""
    accuracy: dict = field(default_factory=dict)
    notes: str = ""
    recipe: str = ""  # the commands that produced the model (data and training)

    @classmethod
    def load(cls, path: Path) -> ModelMeta:
        data = json.loads(Path(path).read_text())
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")
