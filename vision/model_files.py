"""Where the shipped models are: the data package ``rink.models`` (the repo's ``models/``).

Found with ``importlib.resources``, so an installed wheel, an editable install and a source
checkout all read the same files. Training writes into the repo's ``models/`` folder.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

MODELS_PACKAGE = "rink.models"


def models_dir() -> Path:
    """The folder holding the shipped ONNX models and their metadata."""
    folder = files(MODELS_PACKAGE)
    if not isinstance(folder, Path):  # e.g. a zipped install: ONNX Runtime needs real files
        raise TypeError(f"the models package {MODELS_PACKAGE} is not installed as a folder")
    return folder
