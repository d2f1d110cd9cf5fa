"""Probabilities of a board as the classifier hands them to the decoder, made by hand for
tests of the decoder's and the water sighting's policies."""

from __future__ import annotations

import numpy as np

from scoring.space import EMPTY_TOKEN
from vision.space_parts import CLASSES


def one_space_unsure(best: dict[str, float], sure: dict[tuple[int, int], str] | None = None
                     ) -> np.ndarray:
    """(7, 7, n_classes) probabilities over ``CLASSES``: every space empty for sure but
    (3, 3), which reads ``best`` (token: probability), and the ``sure`` spaces, each read as
    its token beyond doubt."""
    classes = list(CLASSES)
    probs = np.full((7, 7, len(classes)), 1e-6, np.float32)
    probs[:, :, classes.index(EMPTY_TOKEN)] = 1.0
    probs[3, 3] = 1e-6
    for token, p in best.items():
        probs[3, 3, classes.index(token)] = p
    for (r, c), token in (sure or {}).items():
        probs[r, c] = 1e-6
        probs[r, c, classes.index(token)] = 1.0
    return probs / probs.sum(axis=2, keepdims=True)
