"""Reading photos in a pool of worker processes, each with the models loaded once.

``ReaderPool.read(photo, folder, corners)`` runs ``read_photo`` in a worker: it reads the
board (``vision.recognizer``: its grid, the spaces to review, the expansions its water
shows), writes the straightened board (``board.jpg``, sharper than the
reader's own 48-pixel spaces) and a small upright preview of the photo (``preview.jpg``, for
tapping corners) into ``folder``, and returns the reading as plain JSON, or the failure in
words (``vision.errors``: no board, part of the board, not an image, bad corners).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

BOARD_CELL_PX = 88
"""Pixels per space of the straightened board served to the page (the reader uses 48)."""
BOARD_PAD_PX = 44
"""Margin round the grid in that picture (half a space: the Exit marks show)."""
PREVIEW_MAX_PX = 1280
TOP_ALTERNATIVES = 6
DARK_MEAN = 55
"""Mean brightness (0-255) under which a photo with no board found is called too dark."""
SMALL_SIDE = 900
"""Shorter side (pixels) under which a photo with no board found is called too small."""

_recognizer = None


def _init_worker() -> None:
    """Load the models once per worker process."""
    global _recognizer
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from vision.recognizer import Recognizer

    _recognizer = Recognizer.load()


def _ping() -> bool:
    return _recognizer is not None


def _write_jpeg(path: Path, image, quality: int = 85) -> None:
    import cv2

    from rink.safe_write import write_atomic

    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        write_atomic(path, encoded.tobytes(), force=True)


def _preview(image, scale: float, folder: Path) -> dict:
    """Write ``preview.jpg`` (upright, at most PREVIEW_MAX_PX); returns its size and the
    factor from full photo pixels to preview pixels."""
    import cv2

    h, w = image.shape[:2]
    shrink = min(1.0, PREVIEW_MAX_PX / max(h, w))
    small = cv2.resize(image, (round(w * shrink), round(h * shrink)),
                       interpolation=cv2.INTER_AREA) if shrink < 1 else image
    _write_jpeg(folder / "preview.jpg", small, 80)
    return {"width": small.shape[1], "height": small.shape[0], "per_photo_px": shrink * scale}


def _straightened(image, corners_px) -> object:
    """The board warped upright at BOARD_CELL_PX a space (corners in ``image`` pixels)."""
    import cv2
    import numpy as np

    lo, hi = BOARD_PAD_PX, BOARD_PAD_PX + 7 * BOARD_CELL_PX
    target = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    matrix = cv2.getPerspectiveTransform(np.float32(corners_px), target)
    size = hi + BOARD_PAD_PX
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _failure(kind: str, message: str, image=None, edges=()) -> dict:
    """A failed reading in words for the page, with the measured hints (dark, small)."""
    hints: list[str] = []
    if image is not None:
        import cv2

        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        if float(grey.mean()) < DARK_MEAN:
            hints.append("dark")
        if min(image.shape[:2]) < SMALL_SIDE:
            hints.append("small")
        if float(cv2.Laplacian(cv2.resize(grey, None, fx=0.25, fy=0.25), cv2.CV_64F).var()) < 8:
            hints.append("blurry")
    return {"ok": False, "kind": kind, "message": message, "edges": list(edges),
            "hints": hints}


def read_photo(photo: str, folder: str, corners: list | None = None) -> dict:
    """Read one stored photo (in a worker); never raises for a bad photo."""
    import numpy as np

    from vision.errors import (
        BadCorners,
        BoardCut,
        BoardUnreadable,
        NoBoardFound,
        PhotoError,
        UnreadableImage,
    )
    from vision.image_io import load_photo

    out = Path(folder)
    try:
        loaded = load_photo(photo)
    except UnreadableImage as error:
        text = str(error)
        kind = "small" if "too small" in text else (
            "not-image" if "not an image" in text else "unreadable")
        return _failure(kind, text)
    image, scale = loaded.image, loaded.scale
    preview = _preview(image, scale, out)
    hand = None if corners is None else np.asarray(corners, dtype=np.float32) * scale
    try:
        reading = _recognizer.read(image, corners=hand)  # type: ignore[union-attr]
    except BoardCut as error:
        return dict(_failure("cut", str(error), image, error.edges), preview=preview)
    except BadCorners as error:
        return dict(_failure("bad-corners", str(error), image), preview=preview)
    except BoardUnreadable as error:
        return dict(_failure("hard-to-read", str(error), image), preview=preview)
    except NoBoardFound as error:
        return dict(_failure("no-board", str(error), image), preview=preview)
    except PhotoError as error:
        return dict(_failure("unreadable", str(error), image), preview=preview)
    except (ValueError, RuntimeError) as error:
        return dict(_failure("unreadable", f"cannot read the photo ({error})", image),
                    preview=preview)
    _write_jpeg(out / "board.jpg", _straightened(image, reading.corners), 84)
    classes = reading.classes
    alternatives = []
    for r in range(7):
        line = []
        for c in range(7):
            p = reading.probs[r, c]
            order = np.argsort(-p)[:TOP_ALTERNATIVES]
            line.append([[classes[i], round(float(p[i]), 3)] for i in order if p[i] >= 0.005])
        alternatives.append(line)
    return {
        "ok": True,
        "grid": [list(row) for row in reading.grid],
        "review": [entry.to_json() for entry in reading.review],
        "alternatives": alternatives,
        "classes": list(classes),
        "corners": (np.asarray(reading.corners) / scale).round(1).tolist(),
        "hand_corners": corners is not None,
        "photo_size": list(loaded.original_size),
        "warnings": list(reading.warnings),
        "expansions_seen": [seen.to_json() for seen in reading.expansions_seen],
        "confidence": round(float(reading.confidence), 3),
        "board_image": {"size": 7 * BOARD_CELL_PX + 2 * BOARD_PAD_PX, "cell": BOARD_CELL_PX,
                        "pad": BOARD_PAD_PX},
        "preview": preview,
        "seconds": round(float(reading.timings.get("total", 0.0)), 3),
    }


class ReaderPool:
    """``jobs`` worker processes reading photos; ``read`` is awaitable."""

    def __init__(self, jobs: int = 1) -> None:
        context = multiprocessing.get_context("spawn")
        self.jobs = jobs
        self._context = context
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                         initializer=_init_worker)

    def warm(self) -> None:
        """Start every worker now (models loaded) rather than on the first photo."""
        for future in [self._pool.submit(_ping) for _ in range(self.jobs)]:
            future.result()

    async def read(self, photo: Path, folder: Path, corners: list | None = None) -> dict:
        """Read in a worker; a pool broken by a worker that died is started afresh (the
        photo that broke it is reported as not read, the next ones are read)."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            future = self._pool.submit(read_photo, str(photo), str(folder), corners)
        except BrokenProcessPool:
            self._restart()
            future = self._pool.submit(read_photo, str(photo), str(folder), corners)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._restart()
            raise

    def _restart(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self._context,
                                         initializer=_init_worker)

    def close(self) -> None:
        """Stop the workers and wait for them (a read in progress ends first): the server
        may be stopped by SIGTERM, whose exit runs no clean-up that would stop them later."""
        self._pool.shutdown(wait=True, cancel_futures=True)
