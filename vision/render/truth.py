"""The result of rendering one photo, and its ground-truth JSON file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np


@dataclass
class RenderedPhoto:
    """A rendered photo and what is in it.

    ``corners``: (4, 2) float32 pixel (x, y) of the 7x7 lattice's outer corners in board order
    top-left, top-right, bottom-right, bottom-left ("top" = the printed top of the board).

    Photos rendered with a condition profile (``PhotoOptions.conditions``) also carry, and
    write into their truth file: ``space_corners`` (7, 7, 4, 2) every space's corners in the
    same order (on a bent sheet the grid is not one homography), ``covered`` the fraction of
    each space that a hand, pen or die hides, ``unread`` the spaces holding marks rink does
    not read (row, col, kind), and ``drawn`` the names of the conditions the photo has.
    """

    image: np.ndarray
    corners: np.ndarray
    grid: list[list[str]]
    conditions: dict = field(default_factory=dict)
    seed: int | None = None
    space_corners: np.ndarray | None = None
    covered: dict[tuple[int, int], float] | None = None
    unread: list[tuple[int, int, str]] | None = None
    drawn: list[str] | None = None
    extras: list[str] = field(default_factory=list)  # key lines, e.g. "expansion: river"

    def space_quads(self) -> np.ndarray:
        """(7, 7, 4, 2) every space's corners: as recorded, or else from the grid's corners
        by one homography (exact for a flat board without lens distortion)."""
        if self.space_corners is not None:
            return self.space_corners
        return quads_from_corners(self.corners)

    def to_truth(self) -> dict:
        h, w = self.image.shape[:2]
        truth = {
            "grid": [" ".join(row) for row in self.grid],
            "corners": [[round(float(x), 3), round(float(y), 3)] for x, y in self.corners],
            "seed": self.seed,
            "size": [int(w), int(h)],
            "conditions": self.conditions,
        }
        if self.space_corners is not None:
            truth["space_corners"] = np.round(self.space_corners.astype(np.float64), 3).tolist()
        if self.covered is not None:
            truth["covered"] = [[r, c, f] for (r, c), f in sorted(self.covered.items())]
        if self.unread is not None:
            truth["unread_marks"] = [[r, c, kind] for r, c, kind in self.unread]
        if self.drawn is not None:
            truth["conditions_drawn"] = list(self.drawn)
        if self.extras:  # as scoring.board.board_to_json writes them
            truth["extras"] = list(self.extras)
        return truth

    def save(
        self, path: str | Path, jpeg_quality: int = 85, exif_orientation: int | None = None
    ) -> Path:
        """Write the image (.jpg/.png/.webp) and ``<stem>.json`` beside it; return the image path.

        ``exif_orientation`` 3, 6 or 8 (JPEG only) stores the pixels turned and sets the EXIF
        Orientation tag so that a viewer honouring it shows ``image``; the truth describes
        the image as shown.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        is_jpeg = path.suffix.lower() in (".jpg", ".jpeg")
        if exif_orientation not in (None, 1):
            if not is_jpeg or exif_orientation not in EXIF_TURNS:
                raise ValueError(
                    f"{path}: EXIF orientation {exif_orientation} needs a JPEG and "
                    f"one of {sorted(EXIF_TURNS)}"
                )
            _save_jpeg_with_orientation(path, self.image, jpeg_quality, exif_orientation)
        else:
            params = [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)] if is_jpeg else []
            if not cv2.imwrite(str(path), self.image, params):
                raise OSError(f"{path}: could not write image")
        truth = self.to_truth()
        if exif_orientation not in (None, 1):
            truth["conditions"] = {**truth["conditions"], "exif_orientation": exif_orientation}
        path.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n")
        return path


# EXIF Orientation -> cv2.rotate code that turns the *shown* image into the *stored* pixels
EXIF_TURNS = {3: cv2.ROTATE_180, 6: cv2.ROTATE_90_COUNTERCLOCKWISE, 8: cv2.ROTATE_90_CLOCKWISE}


def _save_jpeg_with_orientation(
    path: Path, image: np.ndarray, quality: int, orientation: int
) -> None:
    from PIL import Image

    stored = cv2.rotate(image, EXIF_TURNS[orientation])
    pil = Image.fromarray(cv2.cvtColor(stored, cv2.COLOR_BGR2RGB))
    exif = Image.Exif()
    exif[0x0112] = orientation
    pil.save(path, "JPEG", quality=int(quality), exif=exif)


def quads_from_corners(corners: np.ndarray) -> np.ndarray:
    """(7, 7, 4, 2) space corners of a flat grid with outer ``corners`` (TL, TR, BR, BL)."""
    unit = np.array([[0, 0], [7, 0], [7, 7], [0, 7]], np.float32)
    matrix = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
    t = np.arange(8, dtype=np.float32)
    gx, gy = np.meshgrid(t, t)
    pts = cv2.perspectiveTransform(np.dstack([gx, gy]).reshape(-1, 1, 2), matrix).reshape(8, 8, 2)
    return np.stack([pts[:-1, :-1], pts[:-1, 1:], pts[1:, 1:], pts[1:, :-1]], axis=2)


@dataclass
class Truth:
    """A truth file read back (the profile's keys are None in files without them)."""

    grid: list[list[str]]
    corners: np.ndarray
    seed: int | None
    size: tuple[int, int]
    conditions: dict
    space_corners: np.ndarray | None = None
    covered: dict[tuple[int, int], float] | None = None
    unread: list[tuple[int, int, str]] | None = None
    drawn: list[str] | None = None
    extras: list[str] = field(default_factory=list)  # key lines after the 7 rows


def read_truth(path: str | Path) -> Truth:
    """Read ``<stem>.json`` (pass the JSON path or the image path beside it)."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        path = path.with_suffix(".json")
    data = json.loads(path.read_text())
    grid = [row.split() for row in data["grid"]]
    if len(grid) != 7 or any(len(row) != 7 for row in grid):
        raise ValueError(f"{path}: grid is not 7 rows of 7 tokens")
    return Truth(
        grid=grid,
        corners=np.array(data["corners"], np.float32),
        seed=data.get("seed"),
        size=tuple(data["size"]),
        conditions=data.get("conditions", {}),
        space_corners=(
            np.array(data["space_corners"], np.float32) if "space_corners" in data else None
        ),
        covered=(
            {(int(r), int(c)): float(f) for r, c, f in data["covered"]}
            if "covered" in data
            else None
        ),
        unread=(
            [(int(r), int(c), str(k)) for r, c, k in data["unread_marks"]]
            if "unread_marks" in data
            else None
        ),
        drawn=list(data["conditions_drawn"]) if "conditions_drawn" in data else None,
        extras=list(data.get("extras", [])),
    )
