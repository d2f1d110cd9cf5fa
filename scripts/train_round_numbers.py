"""Train the round-number reader (vision/round_numbers.py) on generate_dataset.py boards.

    nice -n 10 .venv/bin/python scripts/train_round_numbers.py --data data/v3_b/part0*.npz \
        --heldout data/heldout_orient/part*.npz --out models

The boards are stored upright, and every photo's seed says where its round boxes are and
whether numbers were written (``vision.render.round_number_box``). So each corner patch of a
drawn space gets a label: "a number" at the box corner, "no number" elsewhere (and everywhere
on empty spaces and on boards without numbers). Patches are re-cut at a random offset and
turned a random number of quarter turns, the label turning with them, so the network learns
the number's own turn, not where the patch sits. Boxes sit in the top-left corner more often
than elsewhere in the renders; number patches are drawn with weights that even out the four
corners, so that the printed lines' place in a patch tells nothing about the turn.

The last boards (``--val-fraction``) are held out whole: the softmax temperature and the
evidence weight (how much one board's patches together may count; their errors share a hand
and a font) are fitted on them, and the board-level accuracy is measured on them and on the
``--heldout`` boards, if given.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_classifier import (
    MEAN,
    STD,
    describe_seeds,
    fit_temperature,
    mean_nll,
    open_dataset,
)

from vision.onnx_model import softmax
from vision.rectify import CanonicalBoard
from vision.render import RENDERER_VERSION, round_number_box
from vision.round_numbers import (
    NO_NUMBER,
    NUMBERS_FILE,
    NUMBERS_META,
    corner_patches,
    patch_log_likelihoods,
)

BORDER_PX = 2  # extra border cut around each patch for random re-cutting
_CORNERS = ("tl", "tr", "br", "bl")  # the order of vision.round_numbers.corner_patches


class NumberNet(nn.Module):
    """A small CNN on one corner patch: no number, or a number at one of 4 quarter turns."""

    def __init__(self, size: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for cin, cout, stride in ((1, 16, 1), (16, 32, 2), (32, 32, 1), (32, 48, 2)):
            layers += [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                       nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        self.features = nn.Sequential(*layers)
        side = (size + 3) // 4
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * side * side, 64),
                                  nn.ReLU(inplace=True), nn.Linear(64, NO_NUMBER + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


# the arrays board_patches takes from each dataset
NEEDED = ("boards", "labels", "seeds", "cell_px", "pad_px", "data_version")


def board_patches(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """All corner patches (with border) of all boards: (N, 196, S, S) uint8; the number mask
    (N, 196), True where a number is written; the box corner index per board (N,), -1 for a
    board without numbers; and the data's info."""
    patches, numbers, corners, seeds, info = [], [], [], [], {}
    for path in paths:
        with open_dataset(path, NEEDED) as data:
            board = CanonicalBoard(int(data["cell_px"]), int(data["pad_px"]))
            info = {"cell_px": board.cell_px, "data_version": str(data["data_version"])}
            for darkness, labels, seed in zip(data["boards"], data["labels"], data["seeds"]):
                box = round_number_box(int(seed))
                mask = np.zeros((49, 4), dtype=bool)
                corner = -1
                if box is not None:
                    corner = _CORNERS.index(box[0])
                    mask[:, corner] = labels.reshape(-1) != 0  # drawn spaces
                cut = corner_patches(darkness, board, BORDER_PX)
                patches.append(cut.reshape(196, *cut.shape[2:]))
                numbers.append(mask.reshape(-1))
                corners.append(corner)
                seeds.append(int(seed))
    info["seeds"] = np.array(seeds)
    return np.stack(patches), np.stack(numbers), np.array(corners), info


def training_pool(patches: np.ndarray, numbers: np.ndarray, corners: np.ndarray,
                  rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat training patches, their "number" flags and sampling weights.

    Number patches are weighted so that each box corner counts the same; as many "no number"
    patches are kept (at random) as there are number patches.
    """
    n_boards = len(patches)
    flat = patches.reshape(-1, *patches.shape[2:])
    is_number = numbers.reshape(-1)
    corner_of = np.repeat(corners, 196)
    number_idx = np.flatnonzero(is_number)
    none_idx = np.flatnonzero(~is_number)
    none_idx = rng.choice(none_idx, size=min(len(none_idx), len(number_idx)), replace=False)
    counts = np.bincount(corner_of[number_idx], minlength=4).astype(float)
    weights_number = 1.0 / counts[corner_of[number_idx]]
    weights_number *= len(number_idx) / weights_number.sum()
    keep = np.concatenate([number_idx, none_idx])
    weights = np.concatenate([weights_number, np.ones(len(none_idx))])
    print(f"{n_boards} boards: {len(number_idx)} number patches (box corners TL/TR/BR/BL "
          f"{'/'.join(str(int(c)) for c in counts)}), {len(none_idx)} without", flush=True)
    return flat[keep], is_number[keep], weights


def make_batch(patches: np.ndarray, is_number: np.ndarray, rng: np.random.Generator | None,
               turns: np.ndarray | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Network input and labels: re-cut (random offset in training, centre otherwise), turned
    ``turns`` quarter turns clockwise (random if None), contrast-jittered in training."""
    n, full = len(patches), patches.shape[1]
    size = full - 2 * BORDER_PX
    if turns is None:
        turns = rng.integers(0, 4, size=n)
    if rng is not None:
        dy, dx = rng.integers(0, 2 * BORDER_PX + 1, size=(2, n))
    else:
        dy = dx = np.full(n, BORDER_PX)
    x = np.empty((n, size, size), dtype=np.float32)
    for i in range(n):
        cut = patches[i, dy[i]:dy[i] + size, dx[i]:dx[i] + size]
        x[i] = np.rot90(cut, k=-int(turns[i]))
    x /= 255.0
    if rng is not None:
        x *= rng.uniform(0.6, 1.4, size=(n, 1, 1)).astype(np.float32)
        x += rng.normal(0, 0.02, size=x.shape).astype(np.float32)
    x = (np.clip(x, 0, 1) - MEAN) / STD
    labels = np.where(is_number, turns, NO_NUMBER)
    return torch.from_numpy(x[:, None].astype(np.float32)), torch.from_numpy(labels)


def board_log_likelihoods(model: nn.Module, patches: np.ndarray, temperature: float
                          ) -> np.ndarray:
    """Per board, the summed patch evidence of vision.round_numbers before the evidence
    weight: (N, 4, 4) for the board shown at each of 4 turns t (axis 1) and hypotheses k
    (axis 2)."""
    model.eval()
    n = len(patches)
    out = np.zeros((n, 4, 4))
    flat = patches.reshape(-1, *patches.shape[2:])
    with torch.no_grad():
        for t in range(4):
            turns = np.full(len(flat), t)
            probs = []
            for i in range(0, len(flat), 4096):
                x, _ = make_batch(flat[i:i + 4096], np.zeros(len(turns[i:i + 4096]), bool),
                                  None, turns[i:i + 4096])
                probs.append(torch.softmax(model(x) / temperature, 1).numpy())
            p = np.concatenate(probs).reshape(n, 196, NO_NUMBER + 1)
            # A board shown turned t: its patches were cut from the upright board and turned in
            # place, which turns each number by t (the patch's place does not matter).
            out[:, t] = patch_log_likelihoods(p).sum(axis=1)
    return out


def fit_evidence_weight(board_ll: np.ndarray) -> float:
    """The weight w minimising the boards' NLL of their true turn under softmax(w * ll)."""
    truth = np.tile(np.arange(4), len(board_ll))
    ll = board_ll.reshape(-1, 4)
    best_w, best_nll = 1.0, np.inf
    for w in np.exp(np.linspace(np.log(0.005), np.log(2.0), 60)):
        nll = mean_nll(w * ll, truth)
        if nll < best_nll:
            best_w, best_nll = float(w), nll
    return best_w


def board_accuracy(board_ll: np.ndarray, weight: float, has_numbers: np.ndarray) -> dict:
    """Board-level figures over each board shown at all 4 turns, on its own (the numbers
    alone): the turn read right (all boards; boards with numbers), and how often a wrong turn
    gets more than 0.9."""
    truth = np.tile(np.arange(4), len(board_ll))
    z = weight * board_ll.reshape(-1, 4)
    p = softmax(z, axis=1)
    right = p.argmax(1) == truth
    numbered = np.repeat(has_numbers, 4)
    return {"boards": len(board_ll), "boards_with_numbers": int(has_numbers.sum()),
            "turn_right": round(float(right.mean()), 4),
            "turn_right_with_numbers": round(float(right[numbered].mean()), 4),
            "wrong_and_over_0.9": round(float((~right & (p.max(1) > 0.9)).mean()), 4),
            "median_true_turn_probability": round(float(np.median(p[np.arange(len(p)),
                                                                      truth])), 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--heldout", type=Path, nargs="*", default=[],
                        help="boards (other seeds) to measure the board-level accuracy on")
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--val-fraction", type=float, default=0.08)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    start = time.time()
    patches, numbers, corners, info = board_patches(args.data)
    n_val = max(1, int(len(patches) * args.val_fraction))
    pool, pool_numbers, weights = training_pool(patches[:-n_val], numbers[:-n_val],
                                                corners[:-n_val], rng)
    val_flat = patches[-n_val:].reshape(-1, *patches.shape[2:])
    val_numbers = numbers[-n_val:].reshape(-1)
    val_turns = np.arange(len(val_flat)) % 4
    size = patches.shape[-1] - 2 * BORDER_PX

    model = NumberNet(size)
    batch_size = min(args.batch, len(pool))
    steps = max(1, args.epochs * (len(pool) // batch_size))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.1)
    loss_fn = nn.CrossEntropyLoss()
    probs = weights / weights.sum()
    acc = 0.0
    for epoch in range(args.epochs):
        model.train()
        order = rng.choice(len(pool), size=len(pool), p=probs)
        for b in range(0, len(order) - batch_size + 1, batch_size):
            idx = order[b:b + batch_size]
            x, y = make_batch(pool[idx], pool_numbers[idx], rng)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            x, y = make_batch(val_flat, val_numbers, None, val_turns)
            logits = torch.cat([model(x[i:i + 4096]) for i in range(0, len(x), 4096)]).numpy()
        acc = float((logits.argmax(1) == y.numpy()).mean())
        on_numbers = float((logits.argmax(1) == y.numpy())[val_numbers].mean())
        print(f"epoch {epoch + 1}: val patches {acc:.4f} (number patches {on_numbers:.4f}), "
              f"{time.time() - start:.0f}s", flush=True)

    temperature = fit_temperature(logits, y.numpy())
    val_ll = board_log_likelihoods(model, patches[-n_val:], temperature)
    weight = fit_evidence_weight(val_ll)
    figures = {"validation": board_accuracy(val_ll, weight, corners[-n_val:] >= 0)}
    if args.heldout:
        held, _, held_corners, held_info = board_patches(args.heldout)
        figures["heldout"] = board_accuracy(board_log_likelihoods(model, held, temperature),
                                            weight, held_corners >= 0)
        figures["heldout"]["seeds"] = describe_seeds(held_info["seeds"])
    print(json.dumps(figures, indent=1), flush=True)

    args.out.mkdir(parents=True, exist_ok=True)
    model.eval()
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but simplest
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (torch.zeros(2, 1, size, size),), str(args.out / NUMBERS_FILE),
                          input_names=["patches"], output_names=["logits"],
                          dynamic_axes={"patches": {0: "batch"}, "logits": {0: "batch"}},
                          opset_version=17, dynamo=False)
    meta = {
        "input_name": "patches", "input_size": size, "cell_px": info["cell_px"],
        "mean": MEAN, "std": STD,
        "classes": "0-3: a round number turned clockwise k quarter turns; 4: no number",
        "view": "vision.round_numbers.corner_patches of the straightened ink darkness",
        "temperature": round(temperature, 4), "evidence_weight": round(weight, 5),
        "training_seed": args.seed,
        "data_version": (f"generate_dataset {info['data_version']}, renderer "
                         f"{RENDERER_VERSION}: {describe_seeds(info['seeds'])}; last {n_val} "
                         "held out"),
        "n_training_patches": len(pool),
        "validation_patch_accuracy": round(acc, 4),
        "board_turn": figures,
        "train_seconds": round(time.time() - start),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "recipe": "scripts/train_round_numbers.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
    }
    (args.out / NUMBERS_META).write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {args.out / NUMBERS_FILE}, {time.time() - start:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
