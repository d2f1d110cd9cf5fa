"""Train the mark head: one more output on a trained parts network, for ink it does not read.

    nice -n 10 .venv/bin/python scripts/train_mark_head.py --init models/cell_classifier.pt \
        --meta models/cell_classifier.json --data data/v9_marked/*.npz ... --out out/marks

The parts network (``train_classifier.CellNet``) reads a space's route from its features. The
marks of the expansions rink does not read from photos (portal letters, ritual sites, clues,
street lamps, lightning, charges, the investigator) and a player's scribbles and corrections
are ink that no route explains; the mark head learns, from the same features, whether a space
holds such ink (issue 14: such a space goes to review). The network's own weights are frozen,
so its readings are exactly those it gave before; the head branches off its early 18 x 18
map (two small convolution blocks, then the largest response over the space itself, not its
margin) and is one more ONNX output, ``marks`` (N,) logits, computed in the same call as the reading.

Data: ``generate_dataset.py --conditions phone_marked`` (data version 7: every board has 1-6
spaces with marks, their ``marks`` labels) and, as more spaces without marks, boards of
earlier data (a file without ``marks`` has none). Spaces a hand, pen or die hides (label -1)
are left out. The threshold shipped in the metadata keeps the share of unmarked validation
spaces flagged at ``--false-rate``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "2")

import numpy as np
import onnxruntime as ort
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_classifier import (
    LATE,
    Augmenter,
    CellNet,
    _onnx_graph,
    centre_batch,
    cut_crops,
    export_onnx,
    folded_convolutions,
    load_onnx_weights,
    load_weights,
    onnx_tensors,
    onnx_widths,
    open_dataset,
    state_widths,
    store_half,
    warmup_cosine,
)

from vision.crops import InkGain
from vision.model_meta import ModelMeta

BRANCH = LATE  # CellNet.features[:7]: the 18 x 18 map after the second block and its pool


class MarkHead(nn.Module):
    """(N, 2 w, 18, 18) features of the network's second block -> (N,) logits that the space
    holds a mark: two small convolution blocks of its own (strokes seen by the shared early
    layers, shapes that are not routes learnt here), the largest response over the space's
    own cells of the 9 x 9 map (the crop's 12 px context each side left out), a linear
    layer."""

    def __init__(self, channels: int, hidden: int = 32) -> None:
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(channels, hidden, 3, padding=1, bias=False), nn.BatchNorm2d(hidden),
            nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(hidden, hidden, 3, padding=1, bias=False), nn.BatchNorm2d(hidden),
            nn.ReLU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        inside = self.conv(features)[:, :, 1:8, 1:8]
        return self.out(inside.amax(dim=(2, 3))).squeeze(1)


class MarkedCellNet(nn.Module):
    """A trained CellNet with the mark head beside its own head. Outputs: ``logits``,
    ``sides``, ``joins`` exactly as the CellNet's, and ``marks`` (N,) logits."""

    def __init__(self, net: CellNet, head: MarkHead) -> None:
        super().__init__()
        self.net, self.head = net, head

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        early = self.net.features[:BRANCH](x)
        out = self.net.head(self.net.features[BRANCH:](early))
        k = 4 * self.net.n_kinds
        sides, joins = out[:, :k].reshape(-1, 4, self.net.n_kinds), out[:, k:]
        return self.net.class_scores(sides, joins), sides, joins, self.head(early)


def load_marked(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, str]:
    """Boards (N, 2, S, S): ink darkness and blueness; labels (N, 7, 7): 1 a mark, 0 none,
    -1 hidden or unknown; and a description of the data."""
    boards, labels, parts = [], [], []
    for path in paths:
        with open_dataset(path, ("boards", "labels", "seeds", "data_version")) as data:
            if "blue" not in data:
                raise SystemExit(f"{path}: no ink blueness (data version 6 or later needed)")
            marks = data["marks"] if "marks" in data else np.zeros_like(data["labels"])
            boards.append(np.stack([data["boards"], data["blue"]], axis=1))
            labels.append(np.where(data["labels"] < 0, -1, marks.astype(np.int16)))
            seeds = data["seeds"]
            parts.append(f"{path.parent.name}/{path.name} ({data['data_version'].item()}, "
                         f"seeds {seeds[0]}-{seeds[-1]})")
    return np.concatenate(boards), np.concatenate(labels), ", ".join(parts)


def mark_logits(model: MarkedCellNet, crops: np.ndarray) -> np.ndarray:
    """The head's logits on un-augmented crops."""
    model.eval()
    with torch.no_grad():
        return torch.cat([model(centre_batch(crops[i:i + 1024]))[3]
                          for i in range(0, len(crops), 1024)]).numpy()


def figures(logits: np.ndarray, labels: np.ndarray, false_rate: float) -> dict:
    """The threshold that flags ``false_rate`` of the unmarked spaces, and what it catches."""
    neg, pos = logits[labels == 0], logits[labels == 1]
    threshold = float(np.quantile(neg, 1.0 - false_rate))
    probability = float(1.0 / (1.0 + np.exp(-threshold)))
    return {"threshold_logit": round(threshold, 4), "threshold": round(probability, 4),
            "marked_caught": round(float((pos > threshold).mean()), 4),
            "unmarked_flagged": round(float((neg > threshold).mean()), 5),
            "marked_caught_at_0.5": round(float((pos > 0).mean()), 4),
            "unmarked_flagged_at_0.5": round(float((neg > 0).mean()), 5),
            "validation_marked": len(pos), "validation_unmarked": len(neg)}


def load_onnx_head(head: MarkHead, path: Path) -> None:
    """Give ``head`` the mark head of a shipped reader's ONNX file (its batch norms folded
    into its convolutions, as ``train_classifier.load_onnx_weights`` does for the network)."""
    graph = _onnx_graph(path)
    weights = onnx_tensors(graph)
    state = folded_convolutions(graph, weights, head, under="/head/")
    state.update({name.removeprefix("head."): tensor for name, tensor in weights.items()
                  if name.startswith("head.out.")})
    missing = sorted(set(head.state_dict()) - set(state) - {
        k for k in head.state_dict() if k.endswith("num_batches_tracked")})
    if missing:
        raise SystemExit(f"{path}: no mark head in it (no weights for {', '.join(missing[:3])})")
    head.load_state_dict(state, strict=False)


def same_marks(shipped: Path, exported: Path, channels: int, size: int, seed: int,
               tolerance: float = 1e-4) -> float:
    """The largest difference between the ``marks`` logits of two ONNX readers on 256 random
    crops; a difference above ``tolerance`` ends the run with one line (the network did not
    keep the blocks the head branches off, so the head must be trained again)."""
    crops = np.random.default_rng(seed).random((256, channels, size, size), np.float32)
    marks = []
    for path in (shipped, exported):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        marks.append(session.run(["marks"], {"crops": crops})[0])
    worst = float(np.abs(marks[0] - marks[1]).max())
    if worst > tolerance:
        raise SystemExit(f"{exported}: its mark head reads {worst:.3g} off that of {shipped}: "
                         f"the network's first {BRANCH} modules changed; train the head again "
                         "(--head-init with --data) instead of putting it back")
    return worst


def put_back(args: argparse.Namespace, net: CellNet, meta: ModelMeta, start: float,
             argv: list[str] | None) -> int:
    """``--head-from``: the shipped head, its threshold and figures, on a network that kept
    the blocks the head branches off (``train_classifier.py --freeze-early 7``): its logits
    are the same, so no data is needed; checked on random crops."""
    info_path = args.head_from.with_suffix(".json")
    shipped = ModelMeta.load(info_path).mark_head if info_path.exists() else None
    if not shipped:
        raise SystemExit(f"{info_path}: no mark head described (the metadata beside "
                         f"{args.head_from} is needed, with its threshold)")
    head = MarkHead(2 * net.features[0].out_channels, args.hidden)
    load_onnx_head(head, args.head_from)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.name or args.meta.stem
    exported = args.out / f"{stem}.onnx"
    trial = args.out / f"{stem}.put_back.onnx"  # --out may hold the --head-from file itself
    export_onnx(MarkedCellNet(net, head), meta.input_size, trial,
                ("logits", "sides", "joins", "marks"), meta.channels)
    try:
        worst = same_marks(args.head_from, trial, meta.channels, meta.input_size, args.seed)
    except SystemExit:
        trial.unlink()
        raise
    os.replace(trial, exported)
    if args.half_weights:  # checked in float32 above; float16 rounds each weight (store_half)
        store_half(exported)
    torch.save(head.state_dict(), args.head_out or args.out / f"{stem}_mark_head.pt")
    recipe = "scripts/train_mark_head.py " + " ".join(
        str(a) for a in (argv if argv is not None else sys.argv[1:]))
    meta.mark_head = {**shipped, "recipe": f"{shipped['recipe']}; {recipe}",
                      "put_back": {"from": args.head_from.name, "largest_logit_change": worst,
                                   "date": dt.datetime.now(dt.UTC).isoformat(
                                       timespec="seconds")}}
    meta.save(args.out / f"{stem}.json")
    print(f"mark head of {args.head_from} put back (logits within {worst:.2g}); threshold "
          f"{shipped['threshold']}; done in {time.time() - start:.0f}s; model in {exported}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--init", type=Path, required=True,
                        help="the parts network (.pt, or a shipped .onnx file)")
    parser.add_argument("--meta", type=Path, required=True, help="its metadata (.json)")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="marked boards and unmarked ones (not needed with --head-from)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--name", default=None,
                        help="file name stem (default: that of --meta)")
    parser.add_argument("--head-out", type=Path, default=None,
                        help="where the head's weights (.pt) go (default: beside the model)")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--pos-weight", type=float, default=2.0)
    parser.add_argument("--false-rate", type=float, default=0.001,
                        help="share of unmarked validation spaces the threshold may flag")
    parser.add_argument("--head-init", type=Path, default=None,
                        help="start from these head weights (.pt); with --epochs 0, only set "
                             "the threshold again and export")
    parser.add_argument("--head-from", type=Path, default=None,
                        help="a shipped reader (.onnx, its .json beside it) whose mark head, "
                             "threshold and figures go onto --init unchanged: for a network "
                             "tuned with train_classifier.py --freeze-early 7 (checked)")
    parser.add_argument("--half-weights", action="store_true",
                        help="store the exported file's weights as float16 "
                             "(train_classifier.store_half), as the network's own file was")
    parser.add_argument("--seed", type=int, default=20261209)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--val-fraction", type=float, default=0.08)
    args = parser.parse_args(argv)

    start = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    meta = ModelMeta.load(args.meta)
    if meta.ink_channels != "each+blue":
        raise SystemExit(f"{args.meta}: ink_channels {meta.ink_channels!r}; the mark head is "
                         "trained on networks that take darkness and blueness ('each+blue')")
    if args.init.suffix == ".onnx":
        width, late = onnx_widths(args.init)
        net = CellNet(meta.classes, width=width, channels=meta.channels, late_width=late)
        load_onnx_weights(net, args.init)
    else:
        state = load_weights(args.init)
        width, late = state_widths(state)
        net = CellNet(meta.classes, width=width, channels=meta.channels, late_width=late)
        net.load_state_dict(state)
    for p in net.parameters():
        p.requires_grad_(False)
    if args.head_from:
        return put_back(args, net, meta, start, argv)
    if not args.data:
        raise SystemExit("--data: marked boards are needed to train the head or set its "
                         "threshold (or --head-from a shipped reader to put its head back)")
    head = MarkHead(2 * width, args.hidden)
    if args.head_init:
        head.load_state_dict(load_weights(args.head_init))
    model = MarkedCellNet(net, head)

    boards, labels, described = load_marked(args.data)
    order = np.random.default_rng(args.seed).permutation(len(boards))
    n_val = max(1, int(len(boards) * args.val_fraction))
    val_ids, train_ids = np.sort(order[:n_val]), np.sort(order[n_val:])
    gain = InkGain.from_json(meta.ink_gain) if meta.ink_gain else None
    cut = {"cell_px": meta.cell_px, "pad_px": meta.pad_px, "margin_px": meta.margin_px,
           "gain": gain}
    train_x, train_y = cut_crops(boards[train_ids], labels[train_ids], **cut)
    val_x, val_y = cut_crops(boards[val_ids], labels[val_ids], **cut)
    del boards
    print(f"{len(train_y)} training crops ({int(train_y.sum())} marked), {len(val_y)} "
          f"validation crops ({int(val_y.sum())} marked)", flush=True)

    augment = Augmenter(meta.input_size, args.seed)
    opt = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(args.pos_weight))
    steps = args.epochs * (len(train_y) // args.batch)
    rng = np.random.default_rng(args.seed)
    step = 0
    for epoch in range(args.epochs):
        model.eval()  # the frozen network's batch norms keep their statistics
        head.train()
        perm = rng.permutation(len(train_y))
        t0, total = time.time(), 0.0
        for b in range(len(train_y) // args.batch):
            for group in opt.param_groups:
                group["lr"] = warmup_cosine(args.lr, step / max(steps, 1), warmup=0.05)
            idx = np.sort(perm[b * args.batch:(b + 1) * args.batch])
            # offset, turn, mirror, contrast, noise; a mark's label does not turn (class 0)
            x, _ = augment(train_x[idx], np.zeros(len(idx), np.int64))
            y = torch.from_numpy(train_y[idx].astype(np.float32))
            with torch.no_grad():
                early = net.features[:BRANCH](x)
            loss = loss_fn(head(early), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            total += loss.item()
        print(f"epoch {epoch + 1}: loss {total / max(b + 1, 1):.4f}  "
              f"{figures(mark_logits(model, val_x), val_y, args.false_rate)}  "
              f"({time.time() - t0:.0f}s)", flush=True)
    result = figures(mark_logits(model, val_x), val_y, args.false_rate)
    print(f"threshold for {args.false_rate:.2%} of unmarked validation spaces: {result}")

    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.name or args.meta.stem
    export_onnx(model, meta.input_size, args.out / f"{stem}.onnx",
                ("logits", "sides", "joins", "marks"), meta.channels)
    if args.half_weights:
        store_half(args.out / f"{stem}.onnx")
    torch.save(head.state_dict(), args.head_out or args.out / f"{stem}_mark_head.pt")
    meta.mark_head = {
        "output": "marks",
        "what": "(N,) logits that a space holds ink its reading does not explain (an "
                "expansion's mark, a scribble, a correction); vision.marks",
        "threshold": result["threshold"],
        "figures": result,
        "data": described,
        "n_training_crops": len(train_y),
        "training_seed": args.seed,
        "training_seconds": round(time.time() - start, 1),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "recipe": "scripts/train_mark_head.py " + " ".join(
            str(a) for a in (argv if argv is not None else sys.argv[1:])),
    }
    meta.save(args.out / f"{stem}.json")
    print(f"done in {time.time() - start:.0f}s; model in {args.out / (stem + '.onnx')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
