"""The shipped ONNX networks' common part: files, session, metadata, input, calibration.

Each network (the cell classifier, the orienter CNN, the round-number reader) is an
``OnnxModel`` subclass that names its two files in the models folder: the ONNX graph and the
JSON metadata it was trained with. Inputs are uint8 ink-darkness images, normalised as in
training, ``(x / 255 - mean) / std``; outputs are logits, calibrated by the metadata's
temperature before the softmax.

A network whose metadata names an 8-bit twin (``int8``: ``scripts/quantize_models.py``) is
read through that file unless the caller asks for the float one: the same input, the same
outputs, about a third of the arithmetic's time on CPU.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np

from vision.sessions import cpu_session


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Probabilities from logits (or log-likelihoods) along ``axis``."""
    z = np.exp(logits - logits.max(axis=axis, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)


SessionOpener = Callable[[Path, int], Any]  # (ONNX file, threads) -> an onnxruntime session


def twin_stamp(float_file: Path) -> str:
    """What an 8-bit twin records of the float file it was made from (``int8.from``): the
    file's SHA-256."""
    return hashlib.sha256(Path(float_file).read_bytes()).hexdigest()


@dataclass(frozen=True)
class NetworkIO:
    """How pixels become a network's input, and its logits probabilities."""

    input_name: str
    mean: float
    std: float
    temperature: float = 1.0  # logits are divided by this before the softmax
    output_name: str | None = None  # None: the network's first output

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> NetworkIO:
        """From a metadata file's fields (``temperature`` and ``output_name`` optional)."""
        return cls(meta["input_name"], float(meta["mean"]), float(meta["std"]),
                   float(meta.get("temperature", 1.0)), meta.get("output_name"))


class OnnxModel:
    """An ONNX network on CPU with the metadata it was trained with; ``meta`` is the
    subclass's own metadata object (``read_meta``)."""

    ONNX_FILE: ClassVar[str]
    META_FILE: ClassVar[str]

    def __init__(self, session, meta: Any) -> None:
        self.session = session
        self.meta = meta
        self.io = self.network_io(meta)

    @classmethod
    def read_meta(cls, path: Path) -> Any:
        """The metadata object of ``path`` (a JSON mapping unless a subclass says more)."""
        return json.loads(Path(path).read_text())

    @classmethod
    def network_io(cls, meta: Any) -> NetworkIO:
        return NetworkIO.from_meta(meta)

    @classmethod
    def load(cls, models_dir: Path, threads: int = 1, int8: bool = True,
             open_session: SessionOpener = cpu_session) -> Self:
        """The network from ``models_dir`` (``threads`` inside an operator): its 8-bit twin
        where the metadata names one and ``int8``, else the float file. ``open_session``
        turns the file into a session (``scripts/quantize_models.py`` records the batches)."""
        meta = cls.read_meta(Path(models_dir) / cls.META_FILE)
        return cls(open_session(cls.network_file(Path(models_dir), meta, int8), threads), meta)

    @classmethod
    def load_if_present(cls, models_dir: Path, threads: int = 1, int8: bool = True,
                        open_session: SessionOpener = cpu_session) -> Self | None:
        """The network, or None when its files are not in ``models_dir``."""
        folder = Path(models_dir)
        if not (folder / cls.ONNX_FILE).exists() or not (folder / cls.META_FILE).exists():
            return None
        return cls.load(folder, threads, int8, open_session)

    @classmethod
    def network_file(cls, folder: Path, meta: Any, int8: bool = True) -> Path:
        """The ONNX file in ``folder`` to read: with ``int8``, the 8-bit twin that ``meta``
        names (``int8.file``) if it was made from the float file there now (``int8.from``,
        its SHA-256: a network retrained since is read in float until quantized again);
        else the float network."""
        twin = meta.get("int8") if isinstance(meta, Mapping) else getattr(meta, "int8", None)
        float_file = folder / cls.ONNX_FILE
        if not int8 or not twin or not (folder / twin.get("file", "")).is_file():
            return float_file
        return folder / twin["file"] if twin.get("from") == twin_stamp(float_file) else float_file

    def network_input(self, pixels: np.ndarray) -> np.ndarray:
        """uint8 images (N, H, W) -> float32 (N, 1, H, W), normalised as in training; images
        with channels, (N, C, H, W), keep them."""
        x = pixels.astype(np.float32)
        x /= 255.0  # in place: the same float32 steps as (x / 255 - mean) / std
        x -= self.io.mean
        x /= self.io.std
        return x[:, None] if x.ndim == 3 else x

    def run(self, x: np.ndarray) -> np.ndarray:
        """Logits of a prepared input batch."""
        outputs = None if self.io.output_name is None else [self.io.output_name]
        return self.session.run(outputs, {self.io.input_name: x})[0]

    def logits(self, pixels: np.ndarray) -> np.ndarray:
        """(N, n_classes) logits of uint8 images (N, H, W)."""
        return self.run(self.network_input(pixels))

    def calibrated(self, logits: np.ndarray) -> np.ndarray:
        """Calibrated probabilities from logits (last axis)."""
        return softmax(logits / self.io.temperature)

    def probabilities(self, pixels: np.ndarray) -> np.ndarray:
        """(N, n_classes) calibrated probabilities of uint8 images (N, H, W)."""
        return self.calibrated(self.logits(pixels))
