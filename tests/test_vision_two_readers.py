"""The base-game reader reads only the spaces the parts network doubts
(``ClassifyParams.parts_sure``), on real photos through the real networks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.counting_session import counting
from vision.classify import ClassifyParams
from vision.crops import Darkness, space_crops
from vision.recognizer import ReadParams, Recognizer
from vision.rectify import warp_board
from vision.render import PhotoOptions, render_photo, sample_grid

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "sample_photos" / "board_01.jpg"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


def _with(recognizer: Recognizer, parts_sure: float | None) -> Recognizer:
    params = replace(recognizer.params,
                     classify=replace(recognizer.params.classify, parts_sure=parts_sure))
    return Recognizer(recognizer.classifier, recognizer.orienter, params,
                      base_classifier=recognizer.base_classifier, faint=recognizer.faint)


def test_the_base_reader_reads_only_the_spaces_the_parts_network_doubts(recognizer):
    truth = json.loads(PHOTO.with_suffix(".json").read_text())["grid"]
    assert recognizer.params.classify.parts_sure == ClassifyParams().parts_sure == 0.995
    with counting(recognizer.base_classifier) as counted:
        reading = recognizer.read(PHOTO)
    everything = _with(recognizer, None).read(PHOTO)
    assert reading.grid_lines() == everything.grid_lines() == truth
    assert 0 < counted.crops < 49  # a clean board: the parts network is sure of most spaces
    sure = everything.probs.max(axis=2) >= 0.999
    np.testing.assert_array_equal(reading.probs.argmax(axis=2)[sure],
                                  everything.probs.argmax(axis=2)[sure])


def test_a_reader_given_some_crops_reads_them_with_the_whole_boards_ink_gain(recognizer):
    """The faint-ink base-game reader's gain is measured on all 49 crops, also when it reads
    only a few of them."""
    grid = sample_grid(np.random.default_rng(3))
    photo = render_photo(grid, seed=3, megapixels=2,
                         options=PhotoOptions(conditions="phone"))
    flat = warp_board(photo.image, photo.corners.astype(np.float32), recognizer.board)
    darkness = Darkness.of(flat, recognizer.board.cell_px)
    crops = darkness.map(lambda d: space_crops(d, recognizer.board,
                                               recognizer.classifier.meta.margin_px))
    reader = recognizer.faint.base
    assert reader.gain is not None
    board = crops.by(reader.meta.ink_channels)
    some = np.array([0, 8, 24, 48])
    all_read = reader.read(board, turns=4, sure=0.995)
    np.testing.assert_allclose(reader.read(board, turns=4, sure=0.995, only=some),
                               all_read[some], atol=1e-5)
    assert reader.read(board, turns=4, sure=0.995, only=some[:0]).shape == (
        0, len(reader.meta.classes))


def test_the_base_reader_reads_all_spaces_when_asked(recognizer):
    everything = _with(recognizer, None)
    params = ReadParams(classify=ClassifyParams(parts_sure=None))
    assert everything.params.classify.parts_sure is params.classify.parts_sure is None
    with counting(recognizer.base_classifier) as counted:
        everything.read(PHOTO)
    assert counted.crops >= 49
