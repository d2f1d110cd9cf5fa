"""Read the 49 space crops with the ONNX cell classifier: one batched call, probabilities kept.

Test-time augmentation (optional): the crops are also classified turned by 90, 180 and 270
degrees, and each turned reading is mapped back to the unturned token before averaging. It
can be kept to the crops the first reading is unsure of (``sure``), which is most of its gain
for a fraction of the time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.model_meta import META_FILE, MODEL_FILE, ModelMeta, rotation_index_map
from vision.sessions import cpu_session


class CellClassifier:
    """The ONNX session and the metadata it was trained with."""

    def __init__(self, session, meta: ModelMeta) -> None:
        self.session = session
        self.meta = meta
        # turned[k][i]: the class index of class i turned clockwise k quarter turns (in the
        # model's own class list, which its metadata carries)
        self._turned = [np.array(rotation_index_map(k, meta.classes)) for k in range(4)]

    @classmethod
    def load(cls, models_dir: Path, threads: int = 1) -> CellClassifier:
        meta = ModelMeta.load(models_dir / META_FILE)
        return cls(cpu_session(models_dir / MODEL_FILE, threads), meta)

    def network_input(self, crops: np.ndarray) -> np.ndarray:
        """uint8 crops (N, S, S) -> float32 (N, 1, S, S) as in training."""
        x = crops.astype(np.float32) / 255.0
        return ((x - self.meta.mean) / self.meta.std)[:, None]

    def logits(self, crops: np.ndarray) -> np.ndarray:
        return self.session.run([self.meta.output_name],
                                {self.meta.input_name: self.network_input(crops)})[0]

    def probabilities(self, crops: np.ndarray, turns: int = 1,
                      sure: float | None = None) -> np.ndarray:
        """(N, n_classes) calibrated probabilities; ``turns`` > 1 averages turned copies.

        With ``sure``, the crops are read once, and only those whose best class is below
        ``sure`` are read again in all ``turns`` turns (most spaces are clear at once).
        """
        if sure is None or turns == 1:
            return self._turned_mean(crops, turns)
        probs = self._turned_mean(crops, 1)
        unsure = np.flatnonzero(probs.max(axis=1) < sure)
        if len(unsure):
            probs[unsure] = self._turned_mean(crops[unsure], turns)
        return probs

    def _turned_mean(self, crops: np.ndarray, turns: int) -> np.ndarray:
        """Mean of the readings of ``crops`` turned 0..turns-1 quarter turns, mapped back."""
        batch = [np.rot90(crops, k=-k, axes=(1, 2)) for k in range(turns)]
        logits = self.logits(np.ascontiguousarray(np.concatenate(batch))) / self.meta.temperature
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = (z / z.sum(axis=1, keepdims=True)).reshape(turns, len(crops), -1)
        # A crop turned k times reads as the turned token; map each reading back.
        unturned = [probs[k][:, self._turned[k]] for k in range(turns)]
        return np.mean(unturned, axis=0)
