"""Photos with only part of the board: the error says which part is missing."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.errors import BoardCut
from vision.partial import find_cut_board
from vision.recognizer import PhotoError, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid

SAMPLES = Path(__file__).resolve().parent.parent / "sample_photos"
CUT_FRACTION = 0.4  # of the board's width or height, cut away


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


def _cut(number: int, edge: str) -> np.ndarray:
    """Sample photo ``number`` with the board cut at the photo's ``edge``."""
    photo = SAMPLES / f"board_{number:02d}.jpg"
    image = cv2.imread(str(photo))
    corners = np.array(json.loads(photo.with_suffix(".json").read_text())["corners"])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    x0, y0, (x1, y1) = 0, 0, image.shape[1::-1]
    if edge == "left":
        x0 = int(lo[0] + CUT_FRACTION * (hi[0] - lo[0]))
    elif edge == "right":
        x1 = int(hi[0] - CUT_FRACTION * (hi[0] - lo[0]))
    elif edge == "top":
        y0 = int(lo[1] + CUT_FRACTION * (hi[1] - lo[1]))
    else:
        y1 = int(hi[1] - CUT_FRACTION * (hi[1] - lo[1]))
    return np.ascontiguousarray(image[y0:y1, x0:x1])


@pytest.mark.parametrize("number", [1, 3, 4])
@pytest.mark.parametrize("edge", ["left", "right", "top", "bottom"])
def test_cut_board_names_the_missing_part(recognizer, number, edge):
    with pytest.raises(PhotoError) as caught:
        recognizer.read(_cut(number, edge))
    message = str(caught.value)
    assert message.startswith("only part of the board is in image: ")
    assert f"beyond the photo's {edge} edge is missing" in message


def test_board_cut_at_a_corner_names_both_edges():
    image = cv2.imread(str(SAMPLES / "board_01.jpg"))
    corners = np.array(json.loads((SAMPLES / "board_01.json").read_text())["corners"])
    left, top = corners.min(axis=0) + 0.2 * np.ptp(corners, axis=0)
    cut = find_cut_board(np.ascontiguousarray(image[int(top):, int(left):]))
    assert cut is not None
    assert sorted(cut.edges) == ["left", "top"]


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 8, 9])
def test_whole_board_is_not_a_cut_board(number):
    # (samples 6, 7 and 10 have a second sheet running off the photo as clutter)
    image = cv2.imread(str(SAMPLES / f"board_{number:02d}.jpg"))
    assert find_cut_board(image) is None


def test_a_board_beside_a_cut_sheet_is_still_read(recognizer):
    # sample 10: a lattice-printed sheet runs off the bottom edge; the board is whole
    photo = SAMPLES / "board_10.jpg"
    assert find_cut_board(cv2.imread(str(photo))) is not None
    reading = recognizer.read(photo)
    assert reading.grid_lines() == json.loads(photo.with_suffix(".json").read_text())["grid"]


def test_no_lattice_at_all_is_not_a_cut_board():
    rng = np.random.default_rng(5)
    paper = np.full((900, 1200, 3), 235, np.uint8)
    paper += rng.integers(0, 12, paper.shape, dtype=np.uint8)
    cv2.line(paper, (0, 450), (1199, 450), (40, 40, 40), 3)  # one long line, no lattice
    assert find_cut_board(paper) is None


def test_a_lattice_reaching_past_the_photo_edge_is_a_cut_board():
    from vision.locate import LatticeFit
    from vision.partial import cut_edges

    image = np.full((600, 800, 3), 230, np.uint8)
    inside = np.array([[100, 80], [520, 80], [520, 500], [100, 500]], np.float32)
    whole = LatticeFit(corners=inside, score=1.0, confidence=1.0)
    assert cut_edges(image, whole, readable=True) == []
    past_left_and_top = inside - [200, 150]  # 2 spaces past the left, 2.5 past the top
    cut = LatticeFit(corners=past_left_and_top, score=1.0, confidence=1.0)
    assert cut_edges(image, cut, readable=True) == ["top", "left"]


@pytest.mark.parametrize("seed", [
    9400054,  # a third of the columns cut off: the rest once fitted a tall, narrow "lattice"
    9400081,  # half the rows cut off: a block of two spaces once fitted as a small lattice
    9400097,  # the second, finer pass once fitted one space as a whole lattice
])
def test_part_of_a_lattice_is_not_read_as_a_whole_board(recognizer, seed):
    # held-out photos of scripts/evaluate_partial.py, cut as it cuts them
    partial = load_script("evaluate_partial")
    rng = np.random.default_rng([seed, 5])
    photo = render_photo(sample_grid(rng), seed=seed, megapixels=float(rng.uniform(1, 4)))
    image, _ = partial.cut_photo(photo.image, photo.corners, rng)
    with pytest.raises(PhotoError):
        recognizer.read(image)


def test_a_hand_reaching_from_the_edge_onto_a_whole_board_is_no_cut_board(recognizer):
    """Phone render 8850078 (tuning seeds of scripts/evaluate.py --conditions phone): a whole
    board in pencil, a hand reaching onto it from the photo's right edge. The hand joins the
    board's lines into one dark web that crosses the edge, a "cut piece"; but the lattice
    was found well inside the photo with its lines stopping at its frame, so when its many
    unsure spaces refuse it, the answer is no board to read, not a board to retake whole."""
    seed = 8850078
    rng = np.random.default_rng([seed, 99])
    photo = render_photo(sample_grid(rng), seed=seed, options=PhotoOptions(conditions="phone"))
    assert "hand" in photo.drawn
    cut = find_cut_board(photo.image)
    assert cut is not None and cut.edges == ["right"]
    try:
        recognizer.read(photo.image)
    except PhotoError as error:
        assert not isinstance(error, BoardCut), str(error)
        assert "spaces could not be read" in str(error)
