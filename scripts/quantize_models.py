"""Give a shipped reader an 8-bit twin: static int8 quantization, calibrated on real crops.

    .venv/bin/python scripts/quantize_models.py --out models

For each network named (by default the faint-ink readers, which phone photos spend most of
their time in, and the standard parts network, which reads every photo first), it renders
``--n`` photos (seeds from ``--seed``; in turn a phone photo of a base-game board, of a
River / Lake board, then a clean photo of each), reads them with the float networks and
records every batch of crops the network is given: the board's 49 crops and the turned and
mirrored views of its unsure spaces, exactly as the reader prepares them. From those it
writes ``<name>.int8.onnx`` beside the float file (onnxruntime's ``quantize_static``: QDQ
format; int8 weights per output channel, in 7 bits, so that a CPU without VNNI, which sums
8-bit products in pairs into 16 bits, cannot overflow and reads as one with it; uint8
activations; MinMax calibration; the first convolution, which takes the crop's full range
of ink, and the fully connected heads stay float). It then reads the crops of
``--check-n`` other photos (seeds from ``--check-seed``) with both files and records in
``<name>.json`` under ``int8``: the twin's file, the SHA-256 of the float file it was made
from (a network retrained since is read in float until quantized again), the scheme, the
calibration, how often both read the same class (and mark), how far the calibrated
probabilities move, the milliseconds of 49 crops on one core, and the command. The reader
then reads through the twin (``vision.onnx_model.OnnxModel.network_file``).

The same seeds give the same crops and the same twin, byte for byte (for a given onnxruntime).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evaluate import render_case  # scripts/ is not a package: imported from its folder

from vision.model_files import models_dir
from vision.model_meta import ModelMeta
from vision.onnx_model import softmax, twin_stamp
from vision.recognizer import PhotoError, Recognizer
from vision.sessions import cpu_session

NETWORKS = ("faint_base_classifier", "faint_cell_classifier", "cell_classifier")
# the photos in turn: (conditions, expansion) as scripts/evaluate.py renders them
KINDS = (("phone", None), ("phone", "mix"), (None, None), (None, "mix"))
SCHEME = ("onnxruntime quantize_static, QDQ: int8 weights per output channel in 7 bits "
          "(reduce_range: no overflow on x86 CPUs without VNNI), uint8 activations, MinMax "
          "calibration; the first convolution and the fully connected heads kept float")
KEPT_FLOAT_OPS = ("Gemm", "MatMul")  # the heads: every class's score rests on them


@dataclass
class RecordingSession:
    """An onnxruntime session that keeps a copy of every input batch it is given."""

    session: object
    batches: list[np.ndarray] = field(default_factory=list)

    def run(self, outputs, feed, *args, **kwargs):
        self.batches.append(np.array(next(iter(feed.values()))))
        return self.session.run(outputs, feed, *args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.session, name)


def recorded_crops(models: Path, names: tuple[str, ...], seed: int, n: int
                   ) -> dict[str, np.ndarray]:
    """The network input batches that each named network is given while the float readers
    read ``n`` photos (seeds ``seed``.., of the ``KINDS`` in turn), concatenated."""
    sessions: dict[str, RecordingSession] = {}

    def open_session(path: Path, threads: int):
        session = cpu_session(path, threads)
        if path.stem not in names:
            return session
        return sessions.setdefault(path.stem, RecordingSession(session))

    reader = Recognizer.load(models, threads=1, int8=False, open_session=open_session)
    for i in range(n):
        conditions, expansion = KINDS[i % len(KINDS)]
        photo, _ = render_case(seed + i, None, conditions, expansion)
        try:
            reader.read(photo.image)
        except PhotoError:
            continue  # a photo with no board found gives no crops
    missing = [name for name in names if name not in sessions]
    if missing:
        raise SystemExit(f"{', '.join(missing)}: not in {models} (no such reader)")
    empty = [name for name, s in sessions.items() if not s.batches]
    if empty:
        raise SystemExit(f"{', '.join(empty)}: the reader never ran on these {n} photos; "
                         "give more (--n)")
    return {name: np.concatenate(s.batches) for name, s in sessions.items()}


def float32_graph(source: Path, target: Path) -> None:
    """``source`` with its constants folded (a float16-stored network's casts back to
    float32 become float32 weights), as onnxruntime itself opens it: what gets quantized."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(target)
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


def kept_float(graph) -> list[str]:
    """The nodes of an ONNX ``graph`` left in float: the convolution that reads the
    network's input, and the fully connected heads."""
    inputs = {i.name for i in graph.input}
    first = [n.name for n in graph.node if n.op_type == "Conv" and n.input[0] in inputs]
    return first + [n.name for n in graph.node if n.op_type in KEPT_FLOAT_OPS]


def quantize(source: Path, target: Path, crops: np.ndarray, max_crops: int, seed: int
             ) -> int:
    """Write ``source``'s int8 twin to ``target``, calibrated on at most ``max_crops`` of
    ``crops`` (drawn with ``seed``); the number used."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    chosen = crops[np.sort(np.random.default_rng(seed).permutation(len(crops))[:max_crops])]
    with tempfile.TemporaryDirectory() as tmp:
        folded, prepared = Path(tmp) / "folded.onnx", Path(tmp) / "prepared.onnx"
        float32_graph(source, folded)
        quant_pre_process(str(folded), str(prepared))
        graph = onnx.load(str(prepared)).graph
        input_name = graph.input[0].name

        class Batches(CalibrationDataReader):
            def __init__(self) -> None:
                self.batches = iter(np.array_split(chosen, max(1, len(chosen) // 100)))

            def get_next(self):
                batch = next(self.batches, None)
                return None if batch is None else {input_name: batch}

        quantize_static(str(prepared), str(target), Batches(), quant_format=QuantFormat.QDQ,
                        per_channel=True, reduce_range=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, calibrate_method=CalibrationMethod.MinMax,
                        nodes_to_exclude=kept_float(graph))
    return len(chosen)


def readable_network(path: Path) -> None:
    """End the run with one line when ``path`` is not an ONNX file onnx can read."""
    import onnx
    from google.protobuf.message import DecodeError

    try:
        onnx.load(str(path))
    except (OSError, DecodeError) as exc:
        raise SystemExit(f"{path}: not a readable ONNX file ({exc})") from None


def agreement(float_path: Path, int8_path: Path, meta: ModelMeta, crops: np.ndarray) -> dict:
    """How the twin reads ``crops`` against the float network: the share of crops given
    the same best class, the median and 99th percentile of the largest change in a crop's
    calibrated probabilities, the share whose mark head (if any) says the same of them at
    its threshold, and the milliseconds of 49 crops on one core (median of 20)."""
    sessions = [cpu_session(path, 1) for path in (float_path, int8_path)]
    head = meta.mark_head.get("output", "marks") if meta.mark_head else None
    outputs = [meta.output_name] + ([head] if head else [])
    read = [[np.concatenate(parts) for parts in zip(
        *(s.run(outputs, {meta.input_name: crops[i:i + 64]}) for i in range(0, len(crops), 64)),
        strict=True)] for s in sessions]
    probs = [softmax(logits / meta.temperature) for logits, *_ in read]
    change = np.abs(probs[0] - probs[1]).max(axis=1)
    figures = {
        "crops": len(crops),
        "same_class": round(float((probs[0].argmax(1) == probs[1].argmax(1)).mean()), 4),
        "probability_change_median": round(float(np.median(change)), 4),
        "probability_change_p99": round(float(np.quantile(change, 0.99)), 4)}
    if head:
        # the mark head's logit against the logit of its threshold probability
        cut = float(np.log(meta.mark_head["threshold"] / (1 - meta.mark_head["threshold"])))
        said = [marks.reshape(-1) > cut for _, marks in read]
        figures["same_marks"] = round(float((said[0] == said[1]).mean()), 4)
    return {**figures, "ms_per_49_float": _ms_per_49(sessions[0], meta.input_name, crops),
            "ms_per_49_int8": _ms_per_49(sessions[1], meta.input_name, crops)}


def _ms_per_49(session, input_name: str, crops: np.ndarray) -> float:
    batch = np.ascontiguousarray(crops[:49])
    session.run(None, {input_name: batch})
    times = []
    for _ in range(20):
        start = time.perf_counter()
        session.run(None, {input_name: batch})
        times.append(time.perf_counter() - start)
    return round(1000 * float(np.median(times)), 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--names", nargs="+", default=list(NETWORKS),
                        help="the networks to quantize (file stems in --models)")
    parser.add_argument("--models", type=Path, default=models_dir(),
                        help="where the float networks are read from")
    parser.add_argument("--out", type=Path, required=True,
                        help="where each twin and its updated metadata are written")
    parser.add_argument("--n", type=int, default=80, help="calibration photos")
    parser.add_argument("--seed", type=int, default=8_990_000)
    parser.add_argument("--check-n", type=int, default=40, help="photos to check the twin on")
    parser.add_argument("--check-seed", type=int, default=8_980_000)
    parser.add_argument("--max-crops", type=int, default=1500,
                        help="calibration crops per network (drawn from those recorded)")
    args = parser.parse_args(argv)
    if args.n < 1 or args.check_n < 1 or args.max_crops < 1:
        parser.error("--n, --check-n and --max-crops must be at least 1")
    names = tuple(args.names)
    for name in names:
        if not (args.models / f"{name}.onnx").exists() or not (
                args.models / f"{name}.json").exists():
            parser.error(f"{name}: no {name}.onnx and {name}.json in {args.models}")
        readable_network(args.models / f"{name}.onnx")
    args.out.mkdir(parents=True, exist_ok=True)

    import onnxruntime

    calibration = recorded_crops(args.models, names, args.seed, args.n)
    check = recorded_crops(args.models, names, args.check_seed, args.check_n)
    for name in names:
        float_file, meta_file = args.models / f"{name}.onnx", args.models / f"{name}.json"
        twin = args.out / f"{name}.int8.onnx"
        used = quantize(float_file, twin, calibration[name], args.max_crops, args.seed)
        checked = agreement(float_file, twin, ModelMeta.load(meta_file), check[name])
        record = json.loads(meta_file.read_text())  # every field kept as it is
        record["int8"] = {
            "file": twin.name, "from": twin_stamp(float_file), "scheme": SCHEME,
            "onnxruntime": onnxruntime.__version__,
            "calibration": {"photos": args.n, "seed": args.seed, "crops_recorded":
                            len(calibration[name]), "crops_used": used},
            "check": {"photos": args.check_n, "seed": args.check_seed, **checked},
            "command": " ".join(["scripts/quantize_models.py", *(argv or sys.argv[1:])]),
            "date": datetime.datetime.now(datetime.UTC).date().isoformat()}
        if args.out.resolve() != args.models.resolve():
            (args.out / float_file.name).write_bytes(float_file.read_bytes())
        (args.out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(f"{name}: {twin} ({twin.stat().st_size / 1e3:.0f} kB), calibrated on {used} "
              f"crops; on {checked['crops']} others the same class {checked['same_class']:.2%}, "
              f"probabilities moved {checked['probability_change_median']} (median), "
              f"{checked['probability_change_p99']} (99th percentile); 49 crops "
              f"{checked['ms_per_49_float']} -> {checked['ms_per_49_int8']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
