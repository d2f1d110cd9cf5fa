"""Spaces a board's other readers read otherwise go to review (vision.other_reading): made-up
readings for the rule, and a real phone render through the real pipeline."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.other_reading import OTHER_READERS, OtherReadingParams, other_reading_review
from vision.recognizer import ReadParams, Recognizer
from vision.review import ReviewEntry

CLASSES = [".", "H_H_", "R_R_", "_H_H"]
# A fresh phone-condition render (scripts/evaluate.py --conditions phone --seed 8870000; never
# trained on): read doubtfully by the standard readers, whose reading is kept; 30 spaces
# wrong (railways read as highways), the faint-ink readers' reading, dropped, far better.
DROPPED_SEED = 8870142


def _reading(best: dict[tuple[int, int], tuple[int, float]]) -> np.ndarray:
    """(7, 7, 4) probabilities: empty everywhere, except ``best`` {(r, c): (class, p)}."""
    probs = np.zeros((7, 7, len(CLASSES)), np.float32)
    probs[..., 0] = 1.0
    for (r, c), (k, p) in best.items():
        probs[r, c] = (1.0 - p) / (len(CLASSES) - 1)
        probs[r, c, k] = p
    return probs


def test_a_space_the_other_readers_read_surely_otherwise_is_listed_with_their_reading():
    grid = [["."] * 7 for _ in range(7)]
    grid[1][2] = grid[3][3] = grid[5][5] = "H_H_"
    other = _reading({(1, 2): (2, 0.93), (3, 3): (1, 0.97), (5, 5): (2, 0.45)})
    review = other_reading_review(grid, other, CLASSES, [])
    assert [(item.row, item.col) for item in review] == [(1, 2)]  # (3, 3) agrees, (5, 5) unsure
    entry = review[0]
    assert entry.token == "H_H_" and entry.alternatives == (("R_R_", 0.93),)
    assert entry.reason == f"{OTHER_READERS} R_R_ (0.93)" and entry.kind == "reading"


def test_a_space_already_listed_keeps_its_entry_and_a_board_read_once_gets_none():
    grid = [["."] * 7 for _ in range(7)]
    grid[1][2] = "H_H_"
    other = _reading({(1, 2): (2, 0.93), (6, 0): (3, 0.88)})
    listed = [ReviewEntry(1, 2, "H_H_", (("R_R_", 0.4),), "uncertain reading (0.55)")]
    review = other_reading_review(grid, other, CLASSES, listed)
    assert review[0] is listed[0]
    assert [(item.row, item.col) for item in review] == [(1, 2), (6, 0)]  # the empty one too
    assert other_reading_review(grid, None, CLASSES, listed) == listed
    assert other_reading_review(grid, other, CLASSES, listed,
                                OtherReadingParams(sure=None)) == listed


@pytest.fixture(scope="module")
def dropped_photo(tmp_path_factory):
    photo, _ = load_script("evaluate").render_case(DROPPED_SEED, None, "phone", None)
    path = tmp_path_factory.mktemp("other") / f"{DROPPED_SEED}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return photo, path


def _wrong_and_listed(reading, photo) -> tuple[set, set]:
    wrong = {(r, c) for r in range(7) for c in range(7)
             if reading.grid[r][c] != photo.grid[r][c]}
    return wrong, {(item.row, item.col) for item in reading.review}


def test_the_misreads_the_dropped_reading_reads_right_go_to_review(dropped_photo):
    photo, path = dropped_photo
    default = ReadParams()
    without = Recognizer.load(params=replace(default, other_reading=OtherReadingParams(None)))
    before = without.read(path)
    assert before.readers == "standard, second reading dropped"
    wrong, listed = _wrong_and_listed(before, photo)
    assert len(wrong) >= 25 and len(wrong - listed) >= 3

    reading = Recognizer.load(params=default).read(path)
    assert reading.grid == before.grid  # tokens never change
    wrong, listed = _wrong_and_listed(reading, photo)
    assert len(wrong - listed) <= 1
    added = [item for item in reading.review if item.reason.startswith(OTHER_READERS)]
    assert added and all((item.row, item.col) in wrong for item in added)
