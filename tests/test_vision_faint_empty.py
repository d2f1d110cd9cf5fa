"""Faint routes read as empty (vision.faint_empty): on a board of faint ink, an empty reading
that gives a route some probability is listed for review, its token unchanged; clean photos
and boards with water are left alone. The phone render is of the tuning seeds
(scripts/evaluate.py --conditions phone --seed 8850000)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.faint_empty import FAINT_EMPTY, FaintEmptyParams, faint_empty_review
from vision.recognizer import FAINT_READINGS, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.space_parts import same_space

SAMPLE = "sample_photos/board_01.jpg"
FAINT = 8850073  # dry-erase on bumpy paper, low resolution: four drawn spaces read as empty
# ... two of them, (4, 1) and (5, 0), that nothing else lists (the faint-ink base-game reader
# trained on partly covered spaces, 5 Dec 2026, read (3, 6) as empty and unlisted too; the
# one widened to 32 channels, 6 Dec 2026, lists it as an unsure reading)
MISSED = {(4, 1), (5, 0)}


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def faint(tmp_path_factory):
    """The phone photo of seed FAINT as scripts/evaluate.py renders it, and its truth."""
    rng = np.random.default_rng([FAINT, 99])
    photo = render_photo(sample_grid(rng), seed=FAINT, options=PhotoOptions(conditions="phone"))
    path = tmp_path_factory.mktemp("faint_empty") / f"phone_{FAINT}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path), photo.grid


def _listed(reading, reason: str | None = None) -> set[tuple[int, int]]:
    return {(e.row, e.col) for e in reading.review if reason is None or reason in e.reason}


def test_faint_routes_read_as_empty_are_listed(recognizer, faint):
    path, truth = faint
    plain = Recognizer.load(params=replace(recognizer.params,
                                           faint_empty=FaintEmptyParams(enabled=False)))
    before, after = plain.read(path), recognizer.read(path)
    assert after.readers in FAINT_READINGS
    assert after.grid == before.grid  # the rule lists spaces, it never changes them
    for r, c in MISSED:
        assert after.grid[r][c] == "." and truth[r][c] != "."
        assert (r, c) not in _listed(before)
    assert MISSED <= _listed(after, FAINT_EMPTY)
    entries = {(e.row, e.col): e for e in after.review}
    assert entries[(4, 1)].token == "." and entries[(4, 1)].alternatives[0][0] == "."
    assert _listed(before) <= _listed(after)
    # every space it adds is read as empty, and the misreads missing from review are fewer
    added = _listed(after) - _listed(before)
    assert all(after.grid[r][c] == "." for r, c in added)
    wrong = {(r, c) for r in range(7) for c in range(7)
             if not same_space(after.grid[r][c], truth[r][c])}
    assert len(wrong - _listed(after)) == len(wrong - _listed(before)) - len(MISSED)


def test_a_clean_photo_gets_no_such_entry(recognizer):
    reading = recognizer.read(SAMPLE)
    assert reading.readers not in FAINT_READINGS
    assert not _listed(reading, FAINT_EMPTY)


def test_a_board_with_water_or_clear_ink_is_left_alone(recognizer, faint):
    reading = recognizer.read(faint[0])
    plain = [e for e in reading.review if FAINT_EMPTY not in e.reason]
    classes = reading.classes
    assert _listed(reading, FAINT_EMPTY)
    # the same probabilities on a board that shows water, or read by the standard readers
    watery = [row[:] for row in reading.grid]
    watery[0][0] = "W_W_"
    assert faint_empty_review(watery, reading.probs, classes, plain, True) == plain
    assert faint_empty_review(reading.grid, reading.probs, classes, plain, False) == plain
    # a higher route mass lists fewer spaces; none when no route is that likely
    few = faint_empty_review(reading.grid, reading.probs, classes, plain, True,
                             # (4, 1)'s routes hold 0.086, (5, 0)'s 0.073
                             FaintEmptyParams(route_mass=0.078))
    assert {(e.row, e.col) for e in few} - {(e.row, e.col) for e in plain} == {(4, 1)}
    # (the stage gives its list in reading order; the recogniser's comes least sure first)
    assert faint_empty_review(reading.grid, reading.probs, classes, plain, True,
                              FaintEmptyParams(route_mass=1.01)) == sorted(
        plain, key=lambda e: (e.row, e.col))
