"""Ink the reading does not explain (issue 14): the marks of the Eldritch and Electricity
expansions, scribbles and corrections put their spaces in review, and nothing else does.

Real renders go through the real pipeline with the shipped networks and their mark heads: the
same board drawn with and without marks (the marks have their own random stream, so
everything else in the photo is the same), and the sample photos.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.classify import CellClassifier, FaintCellClassifier
from vision.marks import UNEXPLAINED, MarkParams, check_marks, mark_threshold, marks_warning
from vision.model_files import models_dir
from vision.recognizer import ReadParams, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PROFILES
from vision.review import ReviewEntry

ROOT = Path(__file__).resolve().parents[1]
# Held-out seeds (the mark heads' data: 1150000-1151599, 1152000-1153599, 1160000-1160799,
# 1162000-1162799)
MARKED_SEEDS = (8960001, 8960002, 8960003, 8960004)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


def _render(seed: int, marks: bool):
    """A marker board photographed flat in room light (profile plain_marks), with its marks
    or without them."""
    grid = sample_grid(np.random.default_rng(seed))
    profile = PROFILES["plain_marks"]
    if not marks:
        profile = replace(profile, unread_marks=0.0)
    return render_photo(grid, seed=seed, megapixels=3, options=PhotoOptions(conditions=profile))


def _mark_flags(reading) -> set[tuple[int, int]]:
    return {(item.row, item.col) for item in reading.review if UNEXPLAINED in item.reason}


def test_both_parts_networks_carry_a_mark_head_with_its_threshold():
    for reader in (CellClassifier, FaintCellClassifier):
        model = reader.load(models_dir())
        head = model.meta.mark_head
        assert 0.0 < model.mark_threshold < 1.0
        assert head["output"] in [o.name for o in model.session.get_outputs()]
        assert head["figures"]["unmarked_flagged"] <= 0.005  # on held-out validation spaces
        assert "train_mark_head.py" in head["recipe"]


def test_marked_spaces_go_to_review_and_the_same_board_without_marks_gets_none(recognizer):
    caught = total = 0
    for seed in MARKED_SEEDS:
        marked = _render(seed, marks=True)
        plain = _render(seed, marks=False)
        assert marked.unread and not plain.unread
        truth = {(r, c) for r, c, _ in marked.unread}
        with_marks = recognizer.read(marked.image)
        without = recognizer.read(plain.image)
        flagged = _mark_flags(with_marks)
        assert not _mark_flags(without), seed
        assert len(flagged - truth) <= 1, (seed, flagged, truth)
        caught += len(flagged & truth)
        total += len(truth)
        # the marks change no reading of a space without one
        for r in range(7):
            for c in range(7):
                if (r, c) not in truth:
                    assert with_marks.grid[r][c] == without.grid[r][c], (seed, r, c)
    assert caught >= 0.6 * total, (caught, total)


def test_the_sample_photos_get_no_mark_flags(recognizer):
    for photo in sorted((ROOT / "sample_photos").glob("board_*.jpg")):
        assert not _mark_flags(recognizer.read(photo)), photo.name


def test_the_check_can_be_switched_off_and_its_threshold_set():
    assert mark_threshold(0.7, MarkParams()) == 0.7
    assert mark_threshold(0.7, MarkParams(threshold=0.9)) == 0.9
    assert mark_threshold(0.7, MarkParams(enabled=False)) is None
    assert mark_threshold(None, MarkParams()) is None  # a network without a mark head


def test_check_marks_lists_sure_marks_and_keeps_existing_entries():
    grid = [["."] * 7 for _ in range(7)]
    grid[1][2] = "H_H_"
    marks = np.zeros((7, 7))
    marks[1][2], marks[3][3], marks[5][5] = 0.95, 0.9, 0.5
    unsure = ReviewEntry(3, 3, ".", ((".", 0.6), ("H_H_", 0.4)), "uncertain reading (0.60)")
    review = check_marks(grid, [unsure], marks, threshold=0.8)
    assert [(e.row, e.col) for e in review] == [(1, 2), (3, 3)]
    added, kept = review
    assert added.token == "H_H_" and added.kind == "mark" and UNEXPLAINED in added.reason
    assert kept.kind == "reading" and kept.alternatives == unsure.alternatives
    assert kept.reason.startswith("uncertain reading (0.60); " + UNEXPLAINED)
    assert check_marks(grid, [unsure], marks, threshold=None) == [unsure]
    # a lake's fill (hatching, dots, wave marks) is ink its reading explains
    grid[1][2] = "_LL_"
    assert [(e.row, e.col) for e in check_marks(grid, [], marks, threshold=0.8)] == [(3, 3)]
    assert check_marks(grid, [unsure], None, threshold=0.8) == [unsure]


def test_a_reading_without_the_check_has_no_mark_flags(recognizer):
    marked = _render(MARKED_SEEDS[0], marks=True)
    off = Recognizer.load(params=ReadParams(marks=MarkParams(enabled=False)))
    reading = off.read(marked.image)
    assert not _mark_flags(reading)
    assert reading.marks is not None and reading.marks.shape == (7, 7)


def test_two_or_more_marked_spaces_warn_that_the_total_leaves_them_out():
    grid = [["."] * 7 for _ in range(7)]
    marks = np.zeros((7, 7))
    marks[0][1] = 0.95
    one = check_marks(grid, [], marks, threshold=0.8)
    assert marks_warning(one, MarkParams()) == []  # one space may be a scribble
    marks[4][6] = 0.9
    two = check_marks(grid, [], marks, threshold=0.8)
    (warning,) = marks_warning(two, MarkParams())
    assert warning.startswith("2 spaces hold ink the reading does not explain (row 0, column 1, "
                              "row 4, column 6)")
    assert "Eldritch" in warning and "\n" not in warning
    assert marks_warning(two, MarkParams(enabled=False)) == []
