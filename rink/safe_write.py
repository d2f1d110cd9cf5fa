"""Output files written whole or not at all, never over an existing file unless forced."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputExists(Exception):
    """The output file is already there and ``force`` was not given."""


def check_writable(path: str | Path, force: bool) -> None:
    """Raise OutputExists if ``path`` exists and may not be overwritten."""
    if Path(path).exists() and not force:
        raise OutputExists(f"{path}: already exists (use --force to overwrite it)")


def write_atomic(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and ``os.replace``.

    A reader sees the old file or the whole new one, never a half-written one.
    """
    path = Path(path)
    check_writable(path, force)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
