"""One way to open the shipped ONNX models: a CPU onnxruntime session with fixed threads."""

from __future__ import annotations

from pathlib import Path


def cpu_session(path: Path, threads: int = 1):
    """An onnxruntime CPU session for ``path``, ``threads`` threads inside an operator (the
    recogniser runs on one core; batches of photos run one recogniser per worker)."""
    import onnxruntime as ort  # imported here: no onnxruntime start-up at import time

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
