"""Train the space classifier on straightened boards from generate_dataset.py; export ONNX.

    nice -n 10 .venv/bin/python scripts/train_classifier.py --data data/boards_v1.npz \
        --epochs 8 --out models

Each board sample is a flat-fielded, straightened board (see vision/crops.py) and its 7 x 7
class indices. Crops are cut with a little extra border and re-cut at a random offset (the
locator is never pixel-exact), then turned/mirrored at random with their labels mapped
accordingly (x8 dihedral augmentation), and their contrast is jittered. After every epoch the
model is exported to ONNX with its metadata, so a partial run still leaves a usable model.
With --max-minutes the learning-rate schedule (warm-up, then cosine) follows the clock, so a
run stopped by its time budget still ends with the rate annealed to zero.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import pickle
import sys
import time
import warnings
import zipfile
from dataclasses import asdict
from pathlib import Path

import numpy as np
import onnx
import torch
from google.protobuf.message import DecodeError
from onnx import numpy_helper
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.crops import InkGain, space_crops, with_ink_gain
from vision.model_meta import (
    BASE_META_FILE,
    BASE_MODEL_FILE,
    CLASSES,
    META_FILE,
    MODEL_FILE,
    ModelMeta,
    mirror_index_map,
    rotation_index_map,
)
from vision.rectify import CanonicalBoard
from vision.space_parts import (
    BASE_CLASSES,
    JOIN_PAIRS,
    ODD_CLASSES,
    SIDE_KINDS,
    token_parts,
)

# The base-game reader's classes: the base dice faces, dead ends and three-way stations
READER_BASE_CLASSES = BASE_CLASSES + ODD_CLASSES

MEAN, STD = 0.08, 0.2  # input = (darkness / 255 - MEAN) / STD
JITTER_PX = 3  # extra border cut around each crop for random re-cropping
GAIN = (0.6, 1.4)  # crop contrast jitter


def token_matrix(classes: tuple[str, ...] | list[str]) -> torch.Tensor:
    """(4 K + 2 J, V) 0/1 matrix: which side kinds and joins make up each class.

    Rows: side s of kind k (s * K + k), pair j joined (4 K + j), pair j apart (4 K + J + j).
    A class's score is the sum of the log-probabilities of its parts; pairs with an empty
    side are left out.
    """
    k, j = len(SIDE_KINDS), len(JOIN_PAIRS)
    m = torch.zeros(4 * k + 2 * j, len(classes))
    for v, token in enumerate(classes):
        parts = token_parts(token)
        for side, kind in enumerate(parts.kinds):
            m[side * k + kind, v] = 1.0
        for pair, joined in enumerate(parts.joins):
            if joined >= 0:
                m[4 * k + (pair if joined else j + pair), v] = 1.0
    return m


def cell_features(w: int, channels: int = 1, late_width: int | None = None) -> nn.Sequential:
    """The convolutional stages both readers share: 72 px crop of ``channels`` (ink
    darkness; with blueness, 2) -> (4 l, 3, 3) map. The stages after the 18 x 18 map
    (``features[LATE:]``) are ``late_width`` (l) wide, ``w`` unless given: a network can be
    widened there alone, keeping the early stages (and the mark head that branches off
    them) as they are."""
    late = late_width or w

    def block(cin: int, cout: int, kernel: int = 3, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, kernel, stride=stride, padding=kernel // 2, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(channels, w, kernel=5, stride=2),                 # 72 -> 36
        *block(w, 2 * w), nn.MaxPool2d(2),                       # -> 18
        *block(2 * w, 2 * late), *block(2 * late, 4 * late), nn.MaxPool2d(2),  # -> 9
        *block(4 * late, 4 * late), nn.MaxPool2d(3),                   # -> 3
    )


LATE = 7  # cell_features' first module after the 18 x 18 map (train_mark_head.BRANCH)
LAST_CONV = 14  # cell_features' last convolution


class CellNet(nn.Module):
    """A small CNN on a 72 x 72 crop (48 px space, 12 px context): 5 conv stages, then a
    linear layer on the 3 x 3 x C map into the space's parts.

    The first convolution (5 x 5, stride 2) sees the full resolution, where a rail's cross
    ties are a few pixels apart, but works at half of it, so the net costs no more than one on
    a 48 px crop. The head keeps spatial layout to the end (no global pooling): which sides a
    stroke reaches is exactly what tells the rotations apart.

    Outputs (vision.space_parts): ``sides`` (N, 4, 5) logits of each side's kind, ``joins``
    (N, 6) logits that a pair of sides belongs to one piece, and ``logits`` (N, V): each
    class's summed log-probability of its parts (a fixed matrix, ``token_matrix``), which the
    reader softmaxes over the classes. Another expansion's marks become another head on the
    same features. ``channels``: 1 (ink darkness) or 2 (darkness and blueness, the input of
    ``ink_channels`` "each+blue").
    """

    def __init__(self, classes: tuple[str, ...] | list[str] = CLASSES, width: int = 24,
                 channels: int = 1, late_width: int | None = None) -> None:
        super().__init__()
        late = late_width or width
        self.features = cell_features(width, channels, late)
        self.n_kinds, self.n_pairs = len(SIDE_KINDS), len(JOIN_PAIRS)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(4 * late * 9, 4 * self.n_kinds + self.n_pairs))
        self.register_buffer("token_map", token_matrix(classes))

    def parts(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Side-kind logits (N, 4, K) and join logits (N, J)."""
        out = self.head(self.features(x))
        return out[:, :4 * self.n_kinds].reshape(-1, 4, self.n_kinds), out[:, 4 * self.n_kinds:]

    def class_scores(self, sides: torch.Tensor, joins: torch.Tensor) -> torch.Tensor:
        """(N, V): summed log-probabilities of each class's parts."""
        logp = torch.cat([torch.log_softmax(sides, dim=2).flatten(1),
                          nn.functional.logsigmoid(joins), nn.functional.logsigmoid(-joins)], 1)
        return logp @ self.token_map

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        sides, joins = self.parts(x)
        return self.class_scores(sides, joins), sides, joins


class BaseGameNet(nn.Module):
    """The base-game reader (vision.classify.BaseGameClassifier): CellNet's features and one
    flat linear head over the 83 base-game classes. Output: ``(logits,)``."""

    def __init__(self, width: int = 24, late_width: int | None = None) -> None:
        super().__init__()
        late = late_width or width
        self.features = cell_features(width, late_width=late)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(4 * late * 9, len(READER_BASE_CLASSES)))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        return (self.head(self.features(x)),)


class OrienterNet(nn.Module):
    """A tiny CNN on the wide straightened view: which quarter turn is the board's top."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for cin, cout in ((1, 8), (8, 16), (16, 32), (32, 32)):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                       nn.ReLU(inplace=True), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(32 * 6 * 6, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def train_orienter(wide: np.ndarray, out: Path, seed: int, epochs: int,
                   val_fraction: float, data_version: str = "") -> None:
    """Train and export the orienter on wide views (upright); labels from random turns."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    n_val = max(1, int(len(wide) * val_fraction))
    train, val = wide[:-n_val], wide[-n_val:]
    size = wide.shape[1]

    def batch(views: np.ndarray, turns: np.ndarray, jitter: bool):
        x = np.stack([np.rot90(v, k=-int(k)) for v, k in zip(views, turns)]).astype(np.float32)
        if jitter:
            x *= rng.uniform(0.6, 1.4, size=(len(x), 1, 1)).astype(np.float32)
            shift = rng.integers(-3, 4, size=2)
            x = np.roll(x, tuple(shift), axis=(1, 2))
        x = (np.clip(x / 255.0, 0, 1) - MEAN) / STD
        return torch.from_numpy(x[:, None].astype(np.float32)), torch.from_numpy(turns)

    model = OrienterNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss()
    val_turns = np.arange(len(val)) % 4
    acc = 0.0
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(train))
        for b in range(0, len(order) - 63, 64):
            idx = order[b:b + 64]
            x, y = batch(train[idx], rng.integers(0, 4, size=len(idx)), True)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            x, y = batch(val, val_turns, False)
            acc = float((model(x).argmax(1) == y).float().mean())
        print(f"orienter epoch {epoch + 1}: val acc {acc:.4f}", flush=True)
    model.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (torch.zeros(1, 1, size, size),),
                          str(out / "board_orienter.onnx"), input_names=["view"],
                          output_names=["logits"], opset_version=17, dynamo=False)
    meta = {"input_name": "view", "input_size": size, "mean": MEAN, "std": STD,
            "classes": "clockwise quarter turns of the view relative to the upright board",
            "view": "vision.orient.WIDE_BOARD, ink darkness", "training_seed": seed,
            "n_training_views": len(train), "validation_accuracy": round(acc, 4),
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "data_version": data_version,
            "recipe": "trained by the same scripts/train_classifier.py run as cell_classifier "
                      "(see its recipe)"}
    (out / "board_orienter.json").write_text(json.dumps(meta, indent=1) + "\n")


def load_boards(paths: list[Path], blue: bool = False) -> tuple[np.ndarray, np.ndarray, dict]:
    """Concatenate datasets: boards (N, S, S) uint8 (with ``blue``: (N, 2, S, S), the ink
    darkness and blueness of data version 6), labels (N, 7, 7) int, and their info (cell_px,
    pad_px, data_version, ink_channels, and the wide views for the orienter)."""
    boards, labels, wide, seeds, versions, info = [], [], [], [], [], {}
    for path in paths:
        with open_dataset(path) as data:
            if blue and "blue" not in data:
                raise SystemExit(f"{path}: no ink blueness (data version "
                                 f"{data['data_version'].item()}; --blue needs version 6)")
            boards.append(np.stack([data["boards"], data["blue"]], axis=1) if blue
                          else data["boards"])
            labels.append(data["labels"])
            wide.append(data["wide"])
            seeds.append(data["seeds"])
            info = {k: data[k].item() for k in ("cell_px", "pad_px")}
            if data["data_version"].item() not in versions:
                versions.append(data["data_version"].item())
            renderer = data["renderer_version"].item() if "renderer_version" in data else "?"
    info["wide"] = np.concatenate(wide)
    info["data_version"] = (f"generate_dataset {' + '.join(versions)}, renderer {renderer}: "
                            f"{describe_seeds(np.concatenate(seeds))}")
    # the crops' ink as the newest data measured it (ModelMeta.ink_channels): each colour
    # channel against its own paper from version 5 on
    info["ink_channels"] = ("each+blue" if blue else
                            "each" if any(int(v[1:]) >= 5 for v in versions) else "darkest")
    return np.concatenate(boards), np.concatenate(labels), info


DATASET_KEYS = ("boards", "labels", "wide", "seeds", "cell_px", "pad_px", "data_version")


def open_dataset(path: Path, needs: tuple[str, ...] = DATASET_KEYS):
    """``np.load`` of a dataset written by scripts/generate_dataset.py; a path that is no such
    file (missing, a folder, not an .npz, without the arrays ``needs`` names) ends the run
    with one line naming it."""
    if path.is_dir():
        raise SystemExit(f"{path}: a folder, not a dataset file (give the .npz that "
                         "scripts/generate_dataset.py wrote)")
    try:
        data = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise SystemExit(f"{path}: no such dataset file") from None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise SystemExit(f"{path}: not a dataset file (.npz): {type(exc).__name__}") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise SystemExit(f"{path}: a single array, not a dataset file (.npz)")
    missing = [key for key in needs if key not in data]
    if missing:
        data.close()
        raise SystemExit(f"{path}: not a dataset of scripts/generate_dataset.py (no "
                         f"{', '.join(missing)})")
    return data


def describe_seeds(seeds: np.ndarray) -> str:
    """'N photos, seeds a-b, c-d' for the photo seeds of a dataset."""
    runs, start = [], 0
    for i in range(1, len(seeds) + 1):
        if i == len(seeds) or seeds[i] != seeds[i - 1] + 1:
            runs.append(f"{seeds[start]}-{seeds[i - 1]}")
            start = i
    return f"{len(seeds)} photos, seeds {', '.join(runs)}"


def cut_crops(boards: np.ndarray, labels: np.ndarray, cell_px: int, pad_px: int,
              margin_px: int, gain: InkGain | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All crops with JITTER_PX extra border: (N*49, S+2J, S+2J) uint8 (boards with a
    channel axis: (N*49, C, S+2J, S+2J)) and (N*49,) labels; with ``gain``, each board's
    crops (their darkness) get its ink gain as the reader gives it."""
    board = CanonicalBoard(cell_px=cell_px, pad_px=pad_px)
    margin = margin_px + JITTER_PX

    def board_crops(darkness: np.ndarray) -> np.ndarray:
        crops = (np.stack([space_crops(channel, board, margin) for channel in darkness], 1)
                 if darkness.ndim == 3 else space_crops(darkness, board, margin))
        return crops if gain is None else with_ink_gain(crops, cell_px, margin, gain)

    # tokens outside the classes and hidden spaces (-1) are left out; the crops are written
    # into one array as they are cut (a dataset's crops take several GB)
    flat = labels.reshape(-1).astype(np.int64)
    known = flat >= 0
    crops: np.ndarray | None = None
    at = 0
    for darkness, keep in zip(boards, known.reshape(len(boards), -1), strict=True):
        cut = board_crops(darkness)[keep]
        if crops is None:
            crops = np.empty((int(known.sum()), *cut.shape[1:]), np.uint8)
        crops[at:at + len(cut)] = cut
        at += len(cut)
    return crops, flat[known]


class Augmenter:
    """Random offset re-crop, dihedral turn/mirror with label mapping, contrast jitter
    (``GAIN``), a little noise; crops (N, S, S) or, with channels, (N, C, S, S)."""

    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.rot = [np.array(rotation_index_map(k)) for k in range(4)]
        self.mirror = np.array(mirror_index_map())

    def __call__(self, crops: np.ndarray, labels: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        n, s = len(crops), self.size
        dx, dy = self.rng.integers(0, 2 * JITTER_PX + 1, size=(2, n))
        out = np.empty((n, *crops.shape[1:-2], s, s), dtype=np.float32)
        labels = labels.copy()
        turns = self.rng.integers(0, 4, size=n)
        flips = self.rng.random(n) < 0.5
        for i in range(n):
            img = crops[i, ..., dy[i]:dy[i] + s, dx[i]:dx[i] + s]
            if flips[i]:
                img = img[..., ::-1]
                labels[i] = self.mirror[labels[i]]
            img = np.rot90(img, k=-int(turns[i]), axes=(-2, -1))  # clockwise
            labels[i] = self.rot[turns[i]][labels[i]]
            out[i] = img
        gain = self.rng.uniform(GAIN[0], GAIN[1], size=(n,) + (1,) * (out.ndim - 1))
        out = out * gain.astype(np.float32) / 255.0
        out += self.rng.normal(0, 0.02, size=out.shape).astype(np.float32)
        out = (np.clip(out, 0, 1) - MEAN) / STD
        return torch.from_numpy(with_channel_axis(out)), torch.from_numpy(labels)


def with_channel_axis(x: np.ndarray) -> np.ndarray:
    """(N, S, S) -> (N, 1, S, S); crops that have channels, (N, C, S, S), as they are."""
    return x[:, None] if x.ndim == 3 else x


def load_weights(path: Path) -> dict:
    """The tensors saved in a PyTorch weights file (.pt); a path that is no such file ends the
    run with one line naming it."""
    try:
        return torch.load(path, weights_only=True)
    except FileNotFoundError:
        raise SystemExit(f"{path}: no such weights file") from None
    except (OSError, RuntimeError, pickle.UnpicklingError, EOFError) as exc:
        raise SystemExit(f"{path}: not a PyTorch weights file (.pt) "
                         f"({type(exc).__name__})") from None


def load_matching(model: nn.Module, path: Path) -> int:
    """Load the tensors of a saved model that fit ``model`` (the convolutional features of an
    earlier head, say); returns how many were loaded. The class matrix is always rebuilt.

    A first convolution with more input channels than the saved one (blueness beside the
    darkness) gets the saved weights on the first channels and zeros on the new ones, so the
    model starts out reading exactly as the saved one did."""
    state = load_weights(path)
    own = model.state_dict()
    for name, weights in list(state.items()):
        mine = own.get(name)
        if (mine is not None and weights.ndim == 4 and mine.shape[1] > weights.shape[1]
                and mine.shape[0] == weights.shape[0] and mine.shape[2:] == weights.shape[2:]):
            widened = torch.zeros_like(mine)
            widened[:, :weights.shape[1]] = weights
            state[name] = widened
    kept = {k: v for k, v in state.items()
            if k in own and k != "token_map" and own[k].shape == v.shape}
    model.load_state_dict(kept, strict=False)
    return len(kept)


def load_onnx_weights(model: nn.Module, path: Path) -> int:
    """Load a shipped network's weights from its ONNX file (the ``.pt`` of some shipped
    networks was never kept); returns how many tensors were loaded.

    The exporter folds each batch norm into the convolution before it, so a convolution gets
    the folded weights and its batch norm becomes the identity plus the folded bias (mean 0,
    variance 1 - eps, scale 1): in eval mode the network computes exactly what the ONNX file
    does. Train such a network with its batch norms frozen (``--freeze-norms``). Tensors are
    matched by the module path the exporter names (``/features/features.3/Conv``,
    ``head.2.weight``; a ``net.`` prefix, the mark-head wrapper's, is dropped); the class
    matrix is rebuilt."""
    graph = _onnx_graph(path)
    weights = onnx_tensors(graph)
    own = model.state_dict()
    state = folded_convolutions(graph, weights, model)
    for name, tensor in weights.items():
        name = name.removeprefix("net.")
        if name in own and name != "token_map" and not name.startswith("features."):
            state[name] = tensor
    kept = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
    missing = [k for k, v in own.items() if k not in kept and k != "token_map"
               and not k.endswith("num_batches_tracked")]
    if missing:
        raise SystemExit(f"{path}: no weights for {', '.join(missing[:4])} (not the same "
                         "network: check --width, --late-width and --base-game)")
    model.load_state_dict(kept, strict=False)
    return len(kept)


def onnx_tensors(graph: onnx.GraphProto) -> dict[str, torch.Tensor]:
    """An exported graph's stored tensors, by name; a weight stored as float16 (``store_half``)
    also under the name of the Cast that turns it back into float32, as float32."""
    stored = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Cast" and node.input[0] in stored:
            stored[node.output[0]] = stored[node.input[0]].astype(np.float32)
    return {name: torch.from_numpy(array.copy()) for name, array in stored.items()}


HALF_SUFFIX = ".float16"  # a weight stored as float16 is named this after its float32 name


def store_half(path: Path) -> None:
    """Rewrite an exported ONNX file with every float32 weight stored as float16 and cast back
    to float32 by a Cast node under the weight's own name: the file is half as large, the
    graph computes in float32 as before, with weights rounded to float16 (a relative change
    under 5e-4). onnxruntime folds the casts when it loads the file, so reading costs what it
    did."""
    model = onnx.load(str(path))
    graph = model.graph
    casts = []
    for tensor in graph.initializer:
        if tensor.data_type != onnx.TensorProto.FLOAT:
            continue
        name, weights = tensor.name, numpy_helper.to_array(tensor)
        if np.abs(weights).max(initial=0.0) > np.finfo(np.float16).max:
            raise SystemExit(f"{path}: weight {name} is too large for float16; export it "
                             "without --half-weights")
        half = numpy_helper.from_array(weights.astype(np.float16), name + HALF_SUFFIX)
        tensor.CopyFrom(half)
        casts.append(onnx.helper.make_node("Cast", [name + HALF_SUFFIX], [name],
                                           to=onnx.TensorProto.FLOAT,
                                           name=f"{name}{HALF_SUFFIX}/Cast"))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def folded_convolutions(graph: onnx.GraphProto, weights: dict[str, torch.Tensor],
                        model: nn.Module, under: str = "") -> dict[str, torch.Tensor]:
    """State for ``model``'s convolutions from an exported graph in which each batch norm was
    folded into the convolution before it: the convolution gets the folded weights, its
    batch norm the identity plus the folded bias. Only the graph's convolutions whose node
    path starts with ``under`` ("/head/": the mark head's) are taken; each is matched by the
    last part of its path (``features.3``, ``conv.0``)."""
    own = model.state_dict()
    state: dict[str, torch.Tensor] = {}
    for node in graph.node:
        if node.op_type != "Conv" or not node.output[0].startswith(under):
            continue
        # "/features/features.3/Conv_output_0" or "/net/features/features.3/Conv_output_0"
        parts = [p for p in node.output[0].split("/")[1:-1] if p != "net"]
        module = parts[-1]  # "features.3"
        conv = f"{module}.weight"
        if conv not in own:
            continue
        kind, index = module.rsplit(".", 1)
        norm = f"{kind}.{int(index) + 1}"
        state[conv] = weights[node.input[1]]
        bias = weights[node.input[2]]
        eps = model.get_submodule(norm).eps
        state[f"{norm}.weight"] = torch.ones_like(bias)
        state[f"{norm}.bias"] = bias
        state[f"{norm}.running_mean"] = torch.zeros_like(bias)
        state[f"{norm}.running_var"] = torch.full_like(bias, 1.0 - eps)
    return state


def _onnx_graph(path: Path) -> onnx.GraphProto:
    """The graph of an ONNX file; a file that is not one ends the run with one line."""
    try:
        return onnx.load(str(path)).graph
    except (OSError, DecodeError) as exc:
        raise SystemExit(f"{path}: not a readable ONNX file ({exc})") from None


def onnx_widths(path: Path) -> tuple[int, int]:
    """A shipped reader's width and late width (``cell_features``): its first convolution's
    output channels, and a quarter of its last feature convolution's."""
    graph = _onnx_graph(path)
    convs = [node for node in graph.node if node.op_type == "Conv"]
    last = [node for node in convs if node.name.endswith(f"features.{LAST_CONV}/Conv")]
    if not convs or not last:
        raise SystemExit(f"{path}: not one of rink's space readers (no convolution named "
                         f"features.{LAST_CONV}, the last of cell_features)")
    weights = onnx_tensors(graph)
    return (int(weights[convs[0].input[1]].shape[0]),
            int(weights[last[0].input[1]].shape[0]) // 4)


def state_widths(state: dict[str, torch.Tensor]) -> tuple[int, int]:
    """A saved network's (``.pt`` state dict) width and late width, as ``onnx_widths``."""
    return (int(state["features.0.weight"].shape[0]),
            int(state[f"features.{LAST_CONV}.weight"].shape[0]) // 4)


def widen(narrow: nn.Module, wide: nn.Module, seed: int, noise: float = 1e-3) -> None:
    """Give ``wide`` (the same network, more channels) the function of ``narrow``
    (Net2WiderNet, Chen et al. 2016): each extra channel of a convolution copies one of the
    narrow layer's channels, chosen at random, with its batch norm; the next layer's weights
    on a channel copied k times are divided by k, so the wide network computes what the
    narrow one did (up to ``noise``, relative to each layer's weight spread, added to the
    copies to break their symmetry). Channels are matched in the order of ``features``;
    the head's linear layer takes its flattened (channel, 3, 3) input the same way."""
    rng = np.random.default_rng(seed)
    small, big = list(narrow.features), list(wide.features)
    mapping: np.ndarray | None = None  # wide channel -> narrow channel of the last layer

    def copies(mapping: np.ndarray) -> torch.Tensor:
        """For each wide channel, how many wide channels copy its narrow one."""
        return torch.from_numpy(np.bincount(mapping)[mapping]).float()

    with torch.no_grad():
        for i, (a, b) in enumerate(zip(small, big)):
            if isinstance(a, nn.Conv2d):
                weight = a.weight
                if mapping is not None:
                    weight = weight[:, mapping] / copies(mapping)[None, :, None, None]
                n_out, m_out = a.out_channels, b.out_channels
                out = np.concatenate([np.arange(n_out), rng.integers(0, n_out, m_out - n_out)])
                weight = weight[out]  # a copy (indexed), free to add the noise to
                spread = float(weight.std())
                extra = torch.from_numpy(rng.normal(0, noise * spread, weight[n_out:].shape))
                weight[n_out:] += extra.float()
                b.weight.copy_(weight)
                norm_a, norm_b = small[i + 1], big[i + 1]
                for name in ("weight", "bias", "running_mean", "running_var"):
                    getattr(norm_b, name).copy_(getattr(norm_a, name)[out])
                mapping = out
        head_a = next(m for m in narrow.head if isinstance(m, nn.Linear))
        head_b = next(m for m in wide.head if isinstance(m, nn.Linear))
        channels = n_out  # the last convolution's, flattened with their (3, 3) places
        weight = head_a.weight.reshape(head_a.out_features, channels, -1)
        head_b.weight.copy_((weight[:, mapping] / copies(mapping)[None, :, None]).reshape(
            head_b.weight.shape))
        head_b.bias.copy_(head_a.bias)


def freeze_norms(model: nn.Module) -> None:
    """Put every batch norm in eval mode: it keeps its statistics (those of the network it
    started from); its scale and shift still learn."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


class PartsLoss(nn.Module):
    """Cross-entropy over the classes (label smoothing 0.02), plus ``aux`` times the
    cross-entropy of each side's kind and of each join, so that the heads mean what they say
    on their own (another expansion's head can be trained against them)."""

    def __init__(self, classes: tuple[str, ...] | list[str], aux: float = 0.5) -> None:
        super().__init__()
        parts = [token_parts(t) for t in classes]
        self.kinds = torch.tensor([p.kinds for p in parts], dtype=torch.long)
        self.joins = torch.tensor([p.joins for p in parts], dtype=torch.float32)
        self.aux = aux
        self.tokens = nn.CrossEntropyLoss(label_smoothing=0.02)

    def forward(self, scores: torch.Tensor, sides: torch.Tensor, joins: torch.Tensor,
                labels: torch.Tensor) -> torch.Tensor:
        kinds = self.kinds[labels]
        side_loss = nn.functional.cross_entropy(sides.reshape(-1, sides.shape[-1]),
                                                kinds.reshape(-1))
        target = self.joins[labels]
        known = target >= 0
        join_loss = nn.functional.binary_cross_entropy_with_logits(
            joins[known], target[known]) if bool(known.any()) else joins.sum() * 0
        return self.tokens(scores, labels) + self.aux * (side_loss + join_loss)


def centre_batch(crops: np.ndarray) -> torch.Tensor:
    """Un-augmented network input: the centre cut of jittered crops."""
    j = JITTER_PX
    x = crops[..., j:-j, j:-j].astype(np.float32) / 255.0
    return torch.from_numpy(with_channel_axis((x - MEAN) / STD))


def evaluate(model: nn.Module, crops: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Accuracy and logits on un-augmented crops."""
    model.eval()
    logits = []
    with torch.no_grad():
        for i in range(0, len(crops), 1024):
            logits.append(model(centre_batch(crops[i:i + 1024]))[0])
    logits = torch.cat(logits).numpy()
    return float((logits.argmax(1) == labels).mean()), logits


def mean_nll(z: np.ndarray, labels: np.ndarray) -> float:
    """Mean negative log-likelihood of ``labels`` under softmax(``z``) (rows)."""
    z = z - z.max(1, keepdims=True)
    return -(z[np.arange(len(z)), labels] - np.log(np.exp(z).sum(1))).mean()


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature minimising validation negative log-likelihood."""
    best_t, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.5), np.log(5.0), 40)):
        nll = mean_nll(logits / t, labels)
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def warmup_cosine(base: float, p: float, warmup: float = 0.1) -> float:
    """The learning rate at fraction ``p`` of training: a linear warm-up over the first
    ``warmup``, then a cosine down to zero."""
    if p < warmup:
        return base * p / warmup
    return base * 0.5 * (1 + np.cos(np.pi * (p - warmup) / (1 - warmup)))


def export_onnx(model: nn.Module, size: int, path: Path,
                outputs: tuple[str, ...] = ("logits", "sides", "joins"), channels: int = 1
                ) -> None:
    """Export with a dynamic batch axis (one call classifies all 49 crops)."""
    model.eval()
    dummy = torch.zeros(2, channels, size, size)
    outputs = list(outputs)
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but simplest
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (dummy,), str(path), input_names=["crops"],
                          output_names=outputs,
                          dynamic_axes={name: {0: "batch"} for name in ["crops", *outputs]},
                          opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--width", type=int, default=24)
    parser.add_argument("--late-width", type=int, default=None,
                        help="width of the stages after the 18 x 18 map (cell_features; "
                             "default: --width): with --freeze-early 7 and a narrower --init, "
                             "widens the network there alone and keeps the mark head valid")
    parser.add_argument("--margin", type=int, default=12, help="crop context, canonical px")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--val-fraction", type=float, default=0.05)
    parser.add_argument("--max-minutes", type=float, default=0,
                        help="time budget: the learning rate anneals to zero by then (0: none)")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from these weights instead of at random: a .pt state "
                             "dict, or a shipped .onnx file (load_onnx_weights; use "
                             "--freeze-norms with it); an .onnx file of a narrower network "
                             "is widened to --width first (widen)")
    parser.add_argument("--freeze-norms", action="store_true",
                        help="keep the batch norms' statistics as they start (fine-tuning)")
    parser.add_argument("--freeze-early", type=int, default=0, metavar="N",
                        help="keep the first N modules of the convolutional stages as they "
                             "start (weights and norms): 7 keeps the 18 x 18 map the mark "
                             "head branches off (train_mark_head.BRANCH), so a shipped head "
                             "stays valid on the fine-tuned network")
    parser.add_argument("--base-game", action="store_true",
                        help="train the base-game reader (flat head over the 83 base classes, "
                             "base-game boards only) instead of the parts network")
    parser.add_argument("--no-ink-gain", action="store_true",
                        help="train without the board-relative ink gain (vision.crops.InkGain)")
    parser.add_argument("--blue", action="store_true",
                        help="give the network the ink's blueness as a second channel "
                             "(vision.crops.ink_blueness; data version 6)")
    parser.add_argument("--half-weights", action="store_true",
                        help="store the ONNX file's weights as float16, each cast back to "
                             "float32 when the file is loaded (store_half: half the file, the "
                             "same float32 arithmetic)")
    parser.add_argument("--orienter-epochs", type=int, default=12,
                        help="epochs for the board orienter (0: do not train it)")
    args = parser.parse_args(argv)
    if args.freeze_early < 0:
        parser.error(f"--freeze-early {args.freeze_early}: a number of modules, 0 or more")

    start = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    boards, labels, info = load_boards(args.data, blue=args.blue)
    channels = 2 if args.blue else 1
    if args.base_game:  # boards with any water drawing are left out
        base = (labels < len(READER_BASE_CLASSES)).reshape(len(labels), -1).all(axis=1)
        boards, labels = boards[base], labels[base]
        info["data_version"] += f"; the {len(boards)} base-game boards among them"
    n_val = max(1, int(len(boards) * args.val_fraction))
    args.out.mkdir(parents=True, exist_ok=True)
    if args.orienter_epochs:
        train_orienter(info["wide"], args.out, args.seed, args.orienter_epochs,
                       args.val_fraction, str(info["data_version"]))
    if args.epochs == 0:
        print(f"no classifier epochs: done in {time.time() - start:.0f}s")
        return 0
    # Validation boards drawn at random from every part (base, water, phone photos alike).
    order = np.random.default_rng(args.seed).permutation(len(boards))
    train_ids, val_ids = np.sort(order[n_val:]), np.sort(order[:n_val])
    gain = None if args.no_ink_gain else InkGain()
    cut = {"cell_px": info["cell_px"], "pad_px": info["pad_px"], "margin_px": args.margin,
           "gain": gain}
    train_x, train_y = cut_crops(boards[train_ids], labels[train_ids], **cut)
    val_x, val_y = cut_crops(boards[val_ids], labels[val_ids], **cut)
    del boards
    size = info["cell_px"] + 2 * args.margin
    print(f"{len(train_y)} training crops, {len(val_y)} validation crops, input {size}px",
          flush=True)

    if args.base_game and args.blue:
        raise SystemExit("--blue: the base-game reader reads no water, it has no use for it")
    late = args.late_width or args.width
    model = (BaseGameNet(width=args.width, late_width=late) if args.base_game
             else CellNet(width=args.width, channels=channels, late_width=late))
    files = ((BASE_MODEL_FILE, BASE_META_FILE, "base_classifier.pt") if args.base_game
             else (MODEL_FILE, META_FILE, "cell_classifier.pt"))
    narrow_width, narrow_late = (onnx_widths(args.init)
                                 if args.init and args.init.suffix == ".onnx"
                                 else (args.width, late))
    if (narrow_width, narrow_late) != (args.width, late) and (
            narrow_width <= args.width and narrow_late <= late):
        narrow = (BaseGameNet(width=narrow_width, late_width=narrow_late) if args.base_game
                  else CellNet(width=narrow_width, channels=channels, late_width=narrow_late))
        kept = load_onnx_weights(narrow, args.init)
        widen(narrow, model, args.seed)
        print(f"starting from {args.init} ({kept} tensors), widened from width "
              f"{narrow_width} (late {narrow_late}) to {args.width} (late {late})", flush=True)
    elif args.init:
        kept = (load_onnx_weights(model, args.init) if args.init.suffix == ".onnx"
                else load_matching(model, args.init))
        print(f"starting from {args.init} ({kept} tensors of the same shape)", flush=True)
    frozen = model.features[:args.freeze_early]
    for parameter in frozen.parameters():
        parameter.requires_grad_(False)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr,
                            weight_decay=1e-4)
    steps = args.epochs * (len(train_y) // args.batch)
    loop_start = time.time()
    budget = args.max_minutes * 60 - (loop_start - start) if args.max_minutes else 0.0

    def progress(step: int) -> float:
        """Fraction of training done: by steps, or by the time budget if that runs out first."""
        done = step / max(steps, 1)
        return max(done, (time.time() - loop_start) / budget) if budget > 0 else done

    augment = Augmenter(size, args.seed)
    loss_fn = (nn.CrossEntropyLoss(label_smoothing=0.02) if args.base_game
               else PartsLoss(CLASSES))
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        if args.freeze_norms:
            freeze_norms(model)
        frozen.eval()  # the frozen modules' norms keep their statistics too
        order = rng.permutation(len(train_y))
        t0, total = time.time(), 0.0
        for b in range(len(train_y) // args.batch):
            p = progress(step)
            if p >= 1.0:
                break
            for group in opt.param_groups:
                group["lr"] = warmup_cosine(args.lr, p)
            idx = np.sort(order[b * args.batch:(b + 1) * args.batch])
            x, y = augment(train_x[idx], train_y[idx])
            loss = loss_fn(*model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            total += loss.item()
        acc, logits = evaluate(model, val_x, val_y)
        temperature = fit_temperature(logits, val_y)
        print(f"epoch {epoch + 1}: loss {total / max(b + 1, 1):.4f}  val acc {acc:.5f}  "
              f"T {temperature:.2f}  ({time.time() - t0:.0f}s)", flush=True)
        export_onnx(model, size, args.out / files[0],
                    ("logits",) if args.base_game else ("logits", "sides", "joins"), channels)
        if args.half_weights:
            store_half(args.out / files[0])
        torch.save(model.state_dict(), args.out / files[2])
        ModelMeta(
            classes=list(READER_BASE_CLASSES if args.base_game else CLASSES),
            side_kinds=[] if args.base_game else list(SIDE_KINDS),
            join_pairs=[] if args.base_game else [list(pair) for pair in JOIN_PAIRS],
            input_size=size, channels=channels, cell_px=info["cell_px"],
            margin_px=args.margin, pad_px=info["pad_px"],
            normalisation="x = (ink_darkness / 255 - mean) / std; ink_darkness from "
                          "vision.crops.ink_darkness on the straightened board ("
                          + ("the darkest channel" if info["ink_channels"] == "darkest"
                             else "each colour channel against its own paper")
                          + ", ink_channels)"
                          + ("; second channel: the same of vision.crops.ink_blueness"
                             if args.blue else "")
                          + (", each board's 49 crops times its ink gain (ink_gain: "
                             "vision.crops.InkGain)" if gain is not None else ""),
            ink_gain=asdict(gain) if gain is not None else {},
            ink_channels=info["ink_channels"],
            mean=MEAN, std=STD, temperature=temperature, training_seed=args.seed,
            data_version=str(info["data_version"]), n_training_samples=len(train_y),
            training_seconds=round(time.time() - start, 1),
            date=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            accuracy={"validation_space_accuracy": round(acc, 5),
                      "validation_crops": len(val_y), "epochs_done": epoch + 1},
            notes=f"{type(model).__name__} width {args.width}"
                  + (f", late width {late}" if late != args.width else "")
                  + ("; weights stored as float16 (store_half)" if args.half_weights else ""),
            recipe="scripts/train_classifier.py " + " ".join(argv if argv is not None
                                                            else sys.argv[1:]),
        ).save(args.out / files[1])
        if progress(step) >= 1.0:
            if step < steps:
                print("time budget used up: stopped early (learning rate already annealed)")
            break
    print(f"done in {time.time() - start:.0f}s; model in {args.out / files[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
