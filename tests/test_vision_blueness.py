"""The ink's blueness (vision.crops.ink_blueness): the parts network's second input channel,
which tells a blue river or lake from the routes drawn beside it in another colour."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import Darkness, ink_blueness, ink_darkness
from vision.render.style import MARKERS

SIZE = 7 * 48 + 2 * 24
ROWS = {name: 40 + 40 * i for i, name in enumerate(MARKERS)}  # one stroke per marker colour


def _board(paper: tuple[int, int, int]) -> np.ndarray:
    """A straightened board of ``paper`` with one stroke of each marker colour."""
    board = np.full((SIZE, SIZE, 3), paper, np.uint8)
    for name, y in ROWS.items():
        cv2.line(board, (40, y), (SIZE - 40, y), MARKERS[name], 4)
    return board


def _stroke(image: np.ndarray, name: str) -> int:
    return int(np.median(image[ROWS[name], 80:-80]))


@pytest.mark.parametrize("paper", [(235, 235, 235), (245, 228, 215), (150, 190, 235)],
                         ids=["white", "pale_blue_deep_blue", "warm_lamp"])
def test_blue_ink_is_blue_and_other_colours_are_not(paper):
    """Blue markers stand out on white paper, on the Deep Blue board's pale blue and under a
    warm lamp (each channel against its own paper); black, red, green and brown routes, and
    the paper itself, score about nothing."""
    blue = ink_blueness(_board(paper), 48)
    for name in ("blue", "dark_blue"):
        assert _stroke(blue, name) >= 60, name
    for name in ("black", "red", "green", "brown"):
        assert _stroke(blue, name) <= 15, name
    assert blue[ROWS["black"] + 15: ROWS["black"] + 25, 60:-60].max() <= 5  # paper


def test_a_grey_photo_has_no_blue():
    grey = cv2.cvtColor(_board((235, 235, 235)), cv2.COLOR_BGR2GRAY)
    assert not ink_blueness(grey, 48).any()


def test_the_board_is_measured_every_way_at_once():
    """Darkness.of gives each measure as its own function does; "each+blue" stacks the
    darkness and the blueness of crops as the two input channels."""
    board = _board((245, 228, 215))
    both = Darkness.of(board, 48)
    np.testing.assert_array_equal(both.each, ink_darkness(board, 48))
    np.testing.assert_array_equal(both.darkest, ink_darkness(board, 48, each_channel=False))
    np.testing.assert_array_equal(both.blue, ink_blueness(board, 48))
    crops = both.map(lambda image: np.stack([image[:72, :72], image[72:144, :72]]))
    two = crops.by("each+blue")
    assert two.shape == (2, 2, 72, 72)
    np.testing.assert_array_equal(two[:, 0], crops.each)
    np.testing.assert_array_equal(two[:, 1], crops.blue)
