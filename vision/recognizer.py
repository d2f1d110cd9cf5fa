"""Photo to board: the whole pipeline behind one object.

    from vision.recognizer import Recognizer
    rec = Recognizer.load()            # loads the models once
    reading = rec.read("board.jpg")    # or a BGR array; corners=[(x, y)] * 4 to skip locating
    reading.grid, reading.review, reading.confidence

Stages (each timed in ``reading.timings``): load (decode the photo, reduced), locate (find the
lattice), rectify (one warp to the canonical board as found, flat-fielding), orient (which
side is the top: Exit marks, artwork, round numbers; the straightened board is then turned,
not warped again, and cut into 49 crops), classify (one batched ONNX call), decode (tokens,
neighbour prior, review list).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.classify import CellClassifier
from vision.crops import ink_darkness, space_crops
from vision.decode import decode
from vision.errors import BadCorners, BoardCut, NoBoardFound, PhotoError
from vision.image_io import as_bgr, load_photo
from vision.locate import find_lattice
from vision.model_files import models_dir as shipped_models_dir
from vision.orient import WIDE_BOARD, BoardOrienter
from vision.partial import cut_edges, describe_cut
from vision.rectify import GRID, CanonicalBoard, board_region, turn_canonical, warp_board
from vision.review import ReviewEntry

__all__ = ["PhotoError", "PhotoReading", "Recognizer"]

# Margin kept round the lattice when the photo is cut to the board: the orienter's wide view
# needs the most (and warp_board keeps half a space more than a view's padding).
REGION_MARGIN_SPACES = WIDE_BOARD.pad_px / WIDE_BOARD.cell_px + 0.5
MIN_LOCATE_CONFIDENCE = 0.3  # below this the photo is reported as showing no board
LOCATE_REVIEW_BELOW = 0.5  # a board found less surely is read, with a warning
# What was found is no readable board when more spaces than this are doubtful, or when its top
# side is unclear (no readable Exit marks: a coin flip) and it also reads as blank or has more
# than MAX_REVIEW_UNORIENTED doubtful spaces. Held-out rendered boards: at most 13 doubtful
# spaces, and at most 1 when the orientation is under 0.6.
MAX_REVIEW_SPACES = 20
MAX_REVIEW_UNORIENTED = 8
UNORIENTED_BELOW = 0.65
ORIENT_REVIEW_BELOW = 0.9  # a less sure top/bottom decision is reported in ``warnings``
# Test-time augmentation (4 turns) only for spaces whose first reading is less sure than this
# (None: for all spaces).
TTA_SURE = 0.995


@dataclass
class PhotoReading:
    """What was read from one photo."""

    source: str
    grid: list[list[str]]  # 7 x 7 tokens, row 0 = the board's printed top
    probs: np.ndarray  # (7, 7, n_classes) probabilities, classes as in ``classes``
    classes: list[str]
    review: list[ReviewEntry]  # spaces to check
    corners: np.ndarray  # (4, 2) lattice corners in photo pixels: TL, TR, BR, BL
    confidence: float  # 0..1: how surely the board was located
    orientation_confidence: float  # 0..1: how surely its top was found
    board_image: np.ndarray  # straightened board, BGR (for annotation)
    board: CanonicalBoard  # layout of ``board_image``
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def grid_lines(self) -> list[str]:
        """The grid as 7 strings of space-separated tokens (board-spec 4.2)."""
        return [" ".join(row) for row in self.grid]


class Recognizer:
    """Loaded models plus the pipeline; create with ``Recognizer.load()``."""

    def __init__(self, classifier: CellClassifier, orienter: BoardOrienter, tta: bool,
                 load_seconds: float, tta_sure: float | None = TTA_SURE) -> None:
        self.classifier = classifier
        self.orienter = orienter
        self.tta = tta
        self.tta_sure = tta_sure
        self.load_seconds = load_seconds
        meta = classifier.meta
        self.board = CanonicalBoard(cell_px=meta.cell_px, pad_px=meta.pad_px)

    @classmethod
    def load(cls, models_dir: Path | str | None = None, tta: bool = True,
             threads: int = 1, tta_sure: float | None = TTA_SURE) -> Recognizer:
        """Load the classifier (and orienter) from ``models_dir``; ``tta`` reads 4 turns
        (of the spaces less sure than ``tta_sure``, or of all when it is None)."""
        start = time.perf_counter()
        models_dir = Path(models_dir) if models_dir is not None else shipped_models_dir()
        classifier = CellClassifier.load(models_dir, threads=threads)
        orienter = BoardOrienter.load(models_dir)
        return cls(classifier, orienter, tta, time.perf_counter() - start, tta_sure)

    def read(self, source: str | Path | np.ndarray,
             corners: np.ndarray | list | None = None) -> PhotoReading:
        """Read a board from a photo file or BGR array.

        ``corners``: optional 4 (x, y) photo pixels of the lattice's outer corners, in board
        order (top-left, top-right, bottom-right, bottom-left); skips locating.
        Raises PhotoError (one line, naming the photo) when no board can be read.
        """
        timings = {"load": 0.0}
        t = time.perf_counter()
        if isinstance(source, np.ndarray):
            name = "image"
            image, scale = as_bgr(source, name), 1.0
        else:
            name = Path(source).name
            loaded = load_photo(source)
            image, scale = loaded.image, loaded.scale
        timings["load"] = time.perf_counter() - t

        t = time.perf_counter()
        warnings: list[str] = []
        fit = None
        if corners is not None:
            found = np.asarray(corners, dtype=np.float32).reshape(-1, 2)
            if found.shape != (4, 2) or not np.isfinite(found).all():
                raise BadCorners(f"{name}: corners must be 4 (x, y) points")
            board_corners = found * scale
            confidence = orientation_confidence = 1.0
        else:
            fit = find_lattice(image)
            # A doubtful fit whose lines run on past a side is part of a larger lattice.
            readable = fit is not None and fit.confidence >= MIN_LOCATE_CONFIDENCE and not (
                fit.runs_on and fit.confidence < LOCATE_REVIEW_BELOW)
            edges = cut_edges(image, fit, readable)
            if edges:
                raise BoardCut(describe_cut(name, edges), tuple(edges))
            if not readable:
                raise NoBoardFound(f"no board found in {name}")
            board_corners = fit.corners
            confidence = fit.confidence
            if confidence < LOCATE_REVIEW_BELOW:
                warnings.append(f"the board was found with little confidence ({confidence:.2f}); "
                                "check that the read grid is this board's")
        timings["locate"] = time.perf_counter() - t

        t = time.perf_counter()
        meta = self.classifier.meta
        # One cut-and-shrink of the photo serves every view of the board (the straightened
        # board here, the orienter's views next).
        region = board_region(image, board_corners, meta.cell_px, REGION_MARGIN_SPACES)
        flat = warp_board(region.image, region.corners, self.board)
        darkness = ink_darkness(flat, meta.cell_px)
        timings["rectify"] = time.perf_counter() - t

        t = time.perf_counter()
        if fit is not None:
            orientation = self.orienter.orient(region.image, region.corners, darkness,
                                               self.board)
            board_corners = region.to_photo(orientation.corners)
            orientation_confidence = orientation.confidence
            flat = turn_canonical(flat, orientation.quarter_turns)
            darkness = turn_canonical(darkness, orientation.quarter_turns)
            if orientation_confidence < ORIENT_REVIEW_BELOW:
                warnings.append(f"unsure which side is the board's top "
                                f"({orientation_confidence:.2f}); check the grid is not turned")
        crops = space_crops(darkness, self.board, meta.margin_px)
        timings["orient"] = time.perf_counter() - t

        t = time.perf_counter()
        probs = self.classifier.read(crops, turns=4 if self.tta else 1,
                                              sure=self.tta_sure)
        probs = probs.reshape(GRID, GRID, -1)
        timings["classify"] = time.perf_counter() - t

        t = time.perf_counter()
        decoded = decode(probs, meta.classes)
        timings["decode"] = time.perf_counter() - t
        doubtful = len(decoded.review)
        blank = all(token == "." for row in decoded.grid for token in row)
        unoriented = orientation_confidence < UNORIENTED_BELOW
        if corners is None and doubtful > MAX_REVIEW_SPACES:
            raise _not_found(image, name, f"found a grid, but {doubtful} of 49 spaces could "
                                          "not be read")
        if corners is None and unoriented and (blank or doubtful > MAX_REVIEW_UNORIENTED):
            raise _not_found(image, name, "found a grid-like pattern, but no readable Exit "
                                          "marks or drawings")
        timings["total"] = sum(timings.values())
        return PhotoReading(
            source=str(source) if not isinstance(source, np.ndarray) else name,
            grid=decoded.grid, probs=probs, classes=list(meta.classes), review=decoded.review,
            corners=(board_corners / scale).astype(np.float32), confidence=confidence,
            orientation_confidence=orientation_confidence, board_image=flat, board=self.board,
            timings=timings, warnings=warnings)


def _not_found(image: np.ndarray, name: str, detail: str) -> PhotoError:
    """The error for a found grid that cannot be read: a cut board, or no board."""
    edges = cut_edges(image, None, readable=False)
    if edges:
        return BoardCut(describe_cut(name, edges), tuple(edges))
    return NoBoardFound(f"no board found in {name} ({detail})")
