"""One way to open the shipped ONNX models: a CPU onnxruntime session with fixed threads,
logging errors only (onnxruntime's warnings are about graph optimisation, not the photo)."""

from __future__ import annotations

from pathlib import Path

ERRORS_ONLY = 3  # onnxruntime log severity: 0 verbose, 1 info, 2 warning, 3 error, 4 fatal


def cpu_session(path: Path, threads: int = 1):
    """An onnxruntime CPU session for ``path``, ``threads`` threads inside an operator (the
    recogniser runs on one core; batches of photos run one recogniser per worker)."""
    import onnxruntime as ort  # imported here: no onnxruntime start-up at import time

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = ERRORS_ONLY
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
