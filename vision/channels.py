"""Colour channels too dark to show ink, set aside before the board is located and measured.

Every measure of the straightened board takes each colour channel against its own paper and
keeps the darkest (``vision.crops.ink_contrast``, the orienter's views, the printed lines'
follower). A channel near black over the paper itself (a phone's vivid mode on tinted card,
a strong colour cast in a dim room) has no room left for ink to darken it: what varies in
it is noise, and taken as the darkest it buries the strokes. Such a channel (the darkest, if
more than one is that dark) is replaced by one that can show ink (``stand_in``), so that
each measure works on those; a board without one is measured as it is (docs/VISION.md,
"Colour channels too dark to show ink"). The locator does the same on the whole photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class ChannelParams:
    """When a colour channel of the straightened board (or of the photo, for the locator)
    counts as too dark to show ink."""

    # The darkest channel, when its paper (its median over the straightened board, which is
    # mostly paper) is under ``dark_below`` grey levels while the brightest channel's is at
    # least ``bright_from``; None: no channel is ever set aside. (The first 134 held-out
    # phone renders, straightened on their true corners, keep every channel's paper at 40
    # or more.)
    dark_below: float | None = 24.0
    bright_from: float = 48.0
    stride: int = 2  # the medians are counted over every stride-th pixel each way
    # The locator's photo has a channel set aside when its ``photo_percentile`` over the
    # whole photo (its paper, unless the board fills less than a tenth of it) fails the
    # same test (``photo_set_aside``)
    photo_percentile: float = 90.0
    photo_stride: int = 8


@dataclass(frozen=True)
class SetAside:
    """The channel of a board set aside, and the one that stands in for it."""

    channel: int | None = None  # BGR index of the channel too dark to show ink; None: none
    stand_in: int = 0  # the channel copied in its place (``stand_in``)

    def apply(self, image: np.ndarray) -> np.ndarray:
        """``image`` (BGR, the board or the photo it was cut from) with the dark channel
        replaced by the stand-in; ``image`` itself when none is set aside."""
        if self.channel is None:
            return image
        kept = image.copy()
        kept[..., self.channel] = image[..., self.stand_in]
        return kept

    @property
    def name(self) -> str:
        """The channel set aside as a letter, e.g. "B" ("" for none)."""
        return "" if self.channel is None else "BGR"[self.channel]


def paper_levels(image: np.ndarray, stride: int = 2, percentile: float = 50.0) -> np.ndarray:
    """The ``percentile`` of each of a BGR image's channels (3,), in whole grey levels,
    counted in a histogram over every ``stride``-th pixel each way: the median of a
    straightened board is its paper's."""
    sample = np.ascontiguousarray(image[::stride, ::stride])
    levels = []
    for channel in range(3):
        counts = np.cumsum(cv2.calcHist([sample], [channel], None, [256], [0, 256]).ravel())
        levels.append(int(np.searchsorted(counts, counts[-1] * percentile / 100.0)))
    return np.array(levels)


def set_aside(board_bgr: np.ndarray, params: ChannelParams) -> SetAside:
    """The channel of a straightened BGR board too dark to show ink (``ChannelParams``),
    measured on its paper; none for a grey board or when ``dark_below`` is None."""
    return _darkest_if_dark(board_bgr, params.stride, 50.0, params)


def photo_set_aside(photo_bgr: np.ndarray, params: ChannelParams) -> SetAside:
    """The channel of a whole BGR photo too dark to show ink, for the locator: the same
    test on each channel's ``photo_percentile`` (0.5 ms for 5 MP). The board is not
    known yet, so the photo's bright tenth stands for its paper: a small board in a dark
    room can fail it, so the board, once straightened, is measured by its own paper
    (``set_aside``). The printed lattice is dark in every channel, so the locator loses
    nothing with a channel set aside, and a noisy one can hide the lattice or move it a
    space."""
    return _darkest_if_dark(photo_bgr, params.photo_stride, params.photo_percentile, params)


def _darkest_if_dark(image: np.ndarray, stride: int, percentile: float,
                     params: ChannelParams) -> SetAside:
    """The darkest channel of ``image`` by its ``percentile`` (``paper_levels``), when that
    level is under ``dark_below`` while the brightest's is at least ``bright_from``; none
    for a grey image or when ``dark_below`` is None. Only the darkest, even if another is
    that dark: with both set aside, a red sheet beside a Deep Blue board was read as the
    board from its red alone."""
    if params.dark_below is None or image.ndim != 3:
        return SetAside()
    levels = paper_levels(image, stride, percentile)
    darkest = int(np.argmin(levels))
    if levels[darkest] >= params.dark_below or levels.max() < params.bright_from:
        return SetAside()
    return SetAside(darkest, stand_in(levels, darkest))


def stand_in(levels: np.ndarray, dark: int) -> int:
    """The channel copied in place of the ``dark`` one: of red and green, the brighter that
    is not the dark one. Any channel that can show ink gives the darkness the same (the
    darkest channel is then among those left), but the water's blueness is blue against the
    brighter of red and green (``vision.crops.blueness``): a dark green replaced by red
    keeps it, replaced by blue it would vanish."""
    return max((c for c in (2, 1) if c != dark), key=lambda c: levels[c])
