"""Turn a straightened board into the classifier's input: 49 space crops in one array.

Each crop is the space plus ``margin_px`` of context on every side (so the network sees
whether strokes run on into the neighbours and where the printed lines are). Pixels are ink
darkness after flat-fielding: each channel divided by a local estimate of the paper, the
largest darkening of the three, so tints, shadows and marker colours all become "dark ink on
zero background".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
from skimage.util import view_as_windows

from vision.rectify import GRID, CanonicalBoard

# ModelMeta.ink_channels: how a network's crops were cut (vision.crops.Darkness.by)
INK_CHANNELS = ("each", "darkest", "each+blue")
BLUE_SCALE = 400.0  # blue ink's blueness (0 .. about 0.6) -> 0 .. 255


def darkest_channel(image: np.ndarray) -> np.ndarray:
    """Per pixel, the darkest of B, G and R (a grey image is returned as it is).

    Ink of any colour is dark in at least one channel, while paper is light in all three.
    """
    if image.ndim == 2:
        return image
    # same pixels as min(axis=2) or cv2.split and cv2.min, far faster than the first and
    # (on a photo) three times as fast as the second
    darkest = np.minimum(image[..., 0], image[..., 1])
    return np.minimum(darkest, image[..., 2], out=darkest)


def paper_ratio(image: np.ndarray, width: int) -> np.ndarray:
    """Per pixel and channel (float32), the image divided by a local estimate of its paper:
    a grey closing ``width`` px wide, which removes narrower strokes, then a blur. 1 on
    paper, towards 0 for black ink; uneven light, soft shadows and tinted paper divide out."""
    k = max(3, width | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    paper = cv2.blur(cv2.morphologyEx(image, cv2.MORPH_CLOSE, kernel), (k, k))
    return image.astype(np.float32) / (paper.astype(np.float32) + 1.0)


def ink_contrast(image: np.ndarray, width: int, each_channel: bool = True) -> np.ndarray:
    """Per pixel (float32), how much darker than the paper it is, in the channel where it is
    most so: 0 on paper, towards 1 for black ink, below 0 where lighter than the paper.

    Each channel is divided by its own paper (``paper_ratio``). On white or grey paper this is
    the darkest channel's contrast; on tinted paper (a warm lamp, cream or coloured card) it
    keeps a pale marker whose darkest channel is the paper's own (pink ink on orange paper
    darkens green, while blue is the paper's darkest). ``each_channel=False``: the darkest
    channel against its own paper, as crops were made until data version 5
    (``scripts/generate_dataset.py``).
    """
    ratio = paper_ratio(image if each_channel else darkest_channel(image), width)
    if ratio.ndim == 3:
        ratio = darkest_channel(ratio)
    return 1.0 - ratio


def ink_blueness(board_bgr: np.ndarray, cell_px: int) -> np.ndarray:
    """How blue the ink of a straightened BGR board is against its paper (uint8, 0 = paper
    or ink of no blue, about 150 for a blue marker): ``blueness`` of the board against a paper
    estimate half a space wide."""
    return blueness(paper_ratio(board_bgr, cell_px // 2))


def blueness(ratio: np.ndarray) -> np.ndarray:
    """Per pixel of a ``paper_ratio`` (uint8): how much more the ink darkens the paper's red
    and green than its blue, times ``BLUE_SCALE``; zeros for a grey image.

    Rivers and lakes are often drawn in blue; black, red, green and brown routes score about
    0 and pale blue paper divides out. Blue route markers score too, so the networks learn
    it as a hint beside the strokes' shapes, not as the answer.
    """
    if ratio.ndim == 2:
        return np.zeros(ratio.shape, np.uint8)
    b, g, r = cv2.split(ratio)
    more_blue = b - cv2.max(g, r)  # a blue stroke keeps its blue, loses its red and green
    return np.clip(more_blue * BLUE_SCALE, 0, 255).astype(np.uint8)


def ink_darkness(board_bgr: np.ndarray, cell_px: int, each_channel: bool = True) -> np.ndarray:
    """Flat-fielded ink darkness (uint8, 0 = paper, 255 = black ink) of a straightened board:
    its ``ink_contrast`` against a paper estimate half a space wide, scaled."""
    return scaled_darkness(ink_contrast(board_bgr, cell_px // 2, each_channel))


def scaled_darkness(contrast: np.ndarray) -> np.ndarray:
    """An ``ink_contrast`` as uint8 darkness: the board's darkest 1 % (printed frame and
    lines, ink) maps to about 220."""
    peak = max(float(np.percentile(contrast, 99)), 0.15)
    return np.clip(contrast * (220.0 / peak), 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Darkness:
    """A straightened board's ink (or its crops) measured every way that networks were
    trained on (``ModelMeta.ink_channels``): the darkness of ``each`` colour channel against
    its own paper (data version 5 on), of the ``darkest`` channel alone (data version 4 and
    before), and the ink's ``blue``-ness (``ink_blueness``, data version 6)."""

    each: np.ndarray
    darkest: np.ndarray
    blue: np.ndarray

    @classmethod
    def of(cls, board_bgr: np.ndarray, cell_px: int, quiet_bgr: np.ndarray | None = None
           ) -> Darkness:
        """Every measure of a straightened BGR board (``ink_darkness`` both ways,
        ``ink_blueness``; each channel's paper estimated once for both that need it).
        ``quiet_bgr``: the board quietened (``vision.grain.quietened``), whose ink darkness is
        measured instead; the blueness is always the board's own."""
        ratio = paper_ratio(board_bgr, cell_px // 2)
        ink, ink_ratio = ((board_bgr, ratio) if quiet_bgr is None
                          else (quiet_bgr, paper_ratio(quiet_bgr, cell_px // 2)))
        return cls(scaled_darkness(1.0 - darkest_channel(ink_ratio)),
                   ink_darkness(ink, cell_px, each_channel=False), blueness(ratio))

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> Darkness:
        """``fn`` applied to each measure (turned, cut into crops, ...)."""
        return Darkness(fn(self.each), fn(self.darkest), fn(self.blue))

    def by(self, ink_channels: str) -> np.ndarray:
        """The input a network was trained on: ``"each"`` or ``"darkest"`` (one image or
        crop per space), or ``"each+blue"`` (crops (N, 2, S, S): darkness, then blueness)."""
        if ink_channels not in INK_CHANNELS:
            raise ValueError(f"unknown ink_channels {ink_channels!r} (known: "
                             f"{', '.join(INK_CHANNELS)})")
        if ink_channels == "each+blue":
            return np.stack([self.each, self.blue], axis=1)
        return self.each if ink_channels == "each" else self.darkest


def space_crops(darkness: np.ndarray, board: CanonicalBoard, margin_px: int) -> np.ndarray:
    """The 49 crops, shape (49, S, S) with S = cell_px + 2 * margin_px, row-major order."""
    if margin_px > board.pad_px:
        raise ValueError("crop margin larger than the canonical padding")
    first = board.pad_px - margin_px
    return lattice_windows(darkness, (first, first), board.cell_px + 2 * margin_px,
                           board.cell_px)


def lattice_windows(image: np.ndarray, first: tuple[int, int], size: int, step: int
                    ) -> np.ndarray:
    """Copies of the ``size`` x ``size`` windows of ``image`` whose top-left corners lie on a
    7 x 7 grid from ``first`` (y, x), ``step`` pixels apart: (49, size, size), row-major."""
    y0, x0 = first
    span = (GRID - 1) * step + size
    windows = view_as_windows(image[y0:y0 + span, x0:x0 + span], (size, size), step)
    return windows.reshape(GRID * GRID, size, size)


@dataclass(frozen=True)
class InkGain:
    """Board-relative contrast (issue 14): faint ink (pencil, pale markers, worn dry-erase)
    is brought up to the darkness of marker ink, so the classifier sees a stroke by its
    contrast with the rest of the board's ink, not by how dark it is.

    Each space's interior (the printed lines, a ``band`` of a space wide, left out) gives its
    paper (the median) and its ink (the ``space_percentile``). The board's paper is the median
    of its spaces' paper. Spaces whose paper is more than ``covered`` darker than the board's
    are under something (a hand, a pen, a die) and are left out; the board's ink is the
    ``board_percentile`` of the other spaces' ink, so a board with only a few drawn spaces is
    measured on them. Crops are multiplied by ``target`` / the board's ink, never less than 1
    (dark ink is left as it is) and at most ``max_gain``; a board whose ink stands less than
    ``min_contrast`` above its paper shows no strokes and gets no gain (its grain is not blown
    up into strokes), unless its spaces split into two groups (``separated_strokes``): at
    least ``stroke_spaces`` spaces at least ``stroke_contrast`` above the paper, with a gap
    of at least ``stroke_gap`` levels below them (a pale marker or faint pencil on clean
    paper; grain and the ghosts of earlier games fade out gradually). ``stroke_gap`` None:
    no such boards.
    """

    band: float = 0.15
    space_percentile: float = 98.0
    board_percentile: float = 90.0
    covered: float = 40.0
    min_contrast: float = 25.0
    target: float = 170.0
    max_gain: float = 3.0
    stroke_gap: float | None = 8.0
    stroke_spaces: int = 10
    stroke_contrast: float = 12.0

    @classmethod
    def from_json(cls, data: dict | None) -> InkGain | None:
        """From model metadata (None or {}: the model was trained without it)."""
        return cls(**data) if data else None


@dataclass(frozen=True)
class BoardInk:
    """A board's ink as ``InkGain`` measures it (``board_ink``)."""

    paper: float  # the board's paper darkness (0..255)
    ink: float  # its ink darkness
    inked: int  # how many of its spaces show strokes
    strokes: bool  # whether it shows strokes at all (else: no gain)
    # the ink of each space not covered, above the paper (not compared: an array)
    levels: np.ndarray | None = field(default=None, compare=False)

    def spaces_above(self, share: float) -> int:
        """How many spaces not covered have ink at least ``share`` of the darkest one's
        height above the paper (0 on a board without strokes): a board of faint pencil
        counts its strokes, a board of a few dark strokes counts those alone, not its grain."""
        if not self.strokes or self.levels is None or not len(self.levels):
            return 0
        top = float(self.levels.max())
        return int(np.sum(self.levels >= share * top)) if top > 0 else 0


def space_levels(crops: np.ndarray, cell_px: int, margin_px: int, params: InkGain
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(paper, ink) of each of the crops' spaces (0..255): the median and the
    ``space_percentile`` of its interior (a ``band`` along the printed lines left out)."""
    band = round(params.band * cell_px)
    lo, hi = margin_px + band, margin_px + cell_px - band
    interiors = crops[:, lo:hi, lo:hi].reshape(len(crops), -1)
    return (np.median(interiors, axis=1),
            np.percentile(interiors, params.space_percentile, axis=1))


def board_ink(crops: np.ndarray, cell_px: int, margin_px: int, params: InkGain) -> BoardInk:
    """The board's paper and ink darkness from its 49 crops (each with ``margin_px``
    context), as ``InkGain`` says, and how many of its spaces show strokes: ink at least
    ``min_contrast`` above the board's paper, not covered, or on a board whose ink stands
    less high, the spaces above its gap (``separated_strokes``)."""
    space_paper, space_ink = space_levels(crops, cell_px, margin_px, params)
    paper = float(np.median(space_paper))
    open_spaces = space_paper <= paper + params.covered
    ink = float(np.percentile(space_ink[open_spaces], params.board_percentile))
    inked = int(np.sum(open_spaces & (space_ink >= paper + params.min_contrast)))
    levels = space_ink[open_spaces] - paper
    if ink - paper >= params.min_contrast:
        return BoardInk(paper, ink, inked, strokes=True, levels=levels)
    above = separated_strokes(levels, params)
    if above is None:
        return BoardInk(paper, ink, inked, strokes=False, levels=levels)
    strokes = space_ink[open_spaces][levels >= above]
    return BoardInk(paper, float(np.percentile(strokes, params.board_percentile)),
                    len(strokes), strokes=True, levels=levels)


def separated_strokes(levels: np.ndarray, params: InkGain) -> float | None:
    """The level (above the paper) from which a faint board's spaces hold strokes, when its
    spaces' ink ``levels`` (each above the board's paper) split at a gap of at least
    ``stroke_gap`` with at least ``stroke_spaces`` spaces above it, the lowest of them at
    least ``stroke_contrast`` above the paper; None when they do not (or ``stroke_gap`` is
    None). The widest such gap counts."""
    if params.stroke_gap is None or len(levels) <= params.stroke_spaces:
        return None
    ordered = np.sort(levels)
    lowest_above = np.arange(1, len(ordered) - params.stroke_spaces + 1)
    gaps = ordered[lowest_above] - ordered[lowest_above - 1]
    gaps[ordered[lowest_above] < params.stroke_contrast] = 0.0
    widest = int(np.argmax(gaps))
    if gaps[widest] < params.stroke_gap:
        return None
    return float(ordered[lowest_above[widest]])


def gain_of(board: BoardInk, params: InkGain) -> float:
    """The factor that brings a board's ink up to ``params.target`` (1 .. max_gain); 1 when
    it shows no strokes."""
    if not board.strokes:
        return 1.0
    return float(np.clip(params.target / board.ink, 1.0, params.max_gain))


def ink_gain(crops: np.ndarray, cell_px: int, margin_px: int, params: InkGain) -> float:
    """The board's ink gain from its 49 crops (``gain_of`` its ``board_ink``)."""
    return gain_of(board_ink(crops, cell_px, margin_px, params), params)


def with_ink_gain(crops: np.ndarray, cell_px: int, margin_px: int, params: InkGain
                  ) -> np.ndarray:
    """A board's 49 crops times its ink gain (``ink_gain``); crops with channels (N, C, S, S:
    darkness, blueness) get it on their darkness alone."""
    darkness = crops[:, 0] if crops.ndim == 4 else crops
    gained = with_gain(darkness, ink_gain(darkness, cell_px, margin_px, params))
    if crops.ndim == 3:
        return gained
    return np.concatenate([gained[:, None], crops[:, 1:]], axis=1)


def with_gain(crops: np.ndarray, gain: float) -> np.ndarray:
    """``crops`` (uint8) multiplied by ``gain``, clipped to 255 (the same array when 1)."""
    if gain == 1.0:
        return crops
    return np.clip(crops.astype(np.float32) * gain, 0, 255).astype(np.uint8)
