"""The round numbers as evidence for the board's top: geometry, labels, model, training."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.crops import ink_darkness
from vision.image_io import load_photo
from vision.model_files import models_dir
from vision.rectify import CanonicalBoard, rotate_corners, turn_canonical, warp_board
from vision.render import render_photo, round_number_box, sample_grid
from vision.render.truth import read_truth
from vision.round_numbers import RoundNumberReader, corner_patches, patch_px

SAMPLES = Path(__file__).resolve().parent.parent / "sample_photos"
BOARD = CanonicalBoard(cell_px=48, pad_px=24)


def test_turning_the_straightened_board_equals_warping_with_turned_corners():
    rng = np.random.default_rng(3)
    photo = cv2.GaussianBlur((rng.random((700, 800, 3)) * 255).astype(np.uint8), (0, 0), 2)
    corners = np.array([[150, 100], [640, 130], [620, 610], [140, 580]], np.float32)
    found = warp_board(photo, corners, BOARD)
    for k in range(4):
        warped = warp_board(photo, rotate_corners(corners, -k), BOARD).astype(int)
        turned = turn_canonical(found, k).astype(int)
        inner = slice(2, -2)  # the one-pixel shift wraps an edge row of the padding
        assert np.abs(turned[inner, inner] - warped[inner, inner]).max() <= 1, k


def test_corner_patches_are_cut_from_each_corner_of_each_space():
    darkness = np.zeros((BOARD.size, BOARD.size), np.uint8)
    size = patch_px(BOARD.cell_px)
    # a mark in the bottom-right corner of space (2, 3)
    y = BOARD.pad_px + 3 * BOARD.cell_px - 6
    x = BOARD.pad_px + 4 * BOARD.cell_px - 6
    darkness[y:y + 3, x:x + 3] = 200
    patches = corner_patches(darkness, BOARD)
    assert patches.shape == (49, 4, size, size)
    marked = np.argwhere(patches.reshape(49, 4, -1).max(axis=2) > 0)
    assert marked.tolist() == [[2 * 7 + 3, 2]]
    assert corner_patches(darkness, BOARD, border=2).shape == (49, 4, size + 4, size + 4)


def test_round_number_box_follows_the_renderer(monkeypatch):
    """The training labels: the renderer's own decision (numbers or not) and box corner."""
    from vision.render import drawing

    decisions = []
    real = drawing.numbers_written

    def spy(rng):
        decisions.append(real(rng))
        return decisions[-1]

    monkeypatch.setattr(drawing, "numbers_written", spy)
    seeds = range(55, 75)  # 60 and 67 have no numbers
    for seed in seeds:
        photo = render_photo(sample_grid(np.random.default_rng(seed)), seed=seed,
                             megapixels=0.3, board_only=True)
        box = round_number_box(seed)
        assert (box is not None) == decisions[-1], seed
        if box is not None:
            style = photo.conditions["board_style"]
            assert box == (style["box_corner"], style["box_size"])
    assert decisions.count(False) == 2


@pytest.fixture(scope="module")
def reader() -> RoundNumberReader:
    loaded = RoundNumberReader.load(models_dir())
    assert loaded is not None, "models/round_numbers.onnx is missing"
    return loaded


def test_numbers_alone_tell_the_turn_of_the_sample_boards(reader):
    """On every sample photo with numbers, straightened from its true corners turned k
    times, the round numbers on their own name turn k."""
    checked = 0
    for image_path in sorted(SAMPLES.glob("*.jpg")):
        truth = read_truth(image_path)
        if truth.seed is None or round_number_box(int(truth.seed)) is None:
            continue
        loaded = load_photo(image_path)
        corners = truth.corners * loaded.scale
        for k in range(4):
            found = rotate_corners(corners, k)  # the lattice as found: the board turned k
            darkness = ink_darkness(warp_board(loaded.image, found, BOARD), BOARD.cell_px)
            evidence = reader.evidence(darkness, BOARD)
            assert int(np.argmax(evidence.log_likelihood)) == k, (image_path.name, k)
            assert evidence.numbers_seen > 10
        checked += 1
    assert checked >= 5


def test_a_board_without_numbers_gives_no_evidence(reader):
    darkness = np.zeros((BOARD.size, BOARD.size), np.uint8)
    evidence = reader.evidence(darkness, BOARD)
    assert evidence.numbers_seen < 2
    assert np.ptp(evidence.log_likelihood) < 1.0


def test_the_reader_names_the_turn_of_held_out_boards(reader):
    """Boards rendered for the held-out evaluation (seeds 7100000-7100011, never trained or
    tuned on), straightened from their true corners turned k times: on its own the round
    numbers' evidence names turn k for nearly every view (the model's recorded held-out
    figure: 98 % of boards with numbers), and for every view where more than 10 numbers are
    seen."""
    right, views = 0, 0
    for seed in range(7100000, 7100012):
        if round_number_box(seed) is None:
            continue
        photo = render_photo(sample_grid(np.random.default_rng([seed, 99])), seed=seed,
                             megapixels=1.5)
        for k in range(4):
            found = rotate_corners(photo.corners, k)
            darkness = ink_darkness(warp_board(photo.image, found, BOARD), BOARD.cell_px)
            evidence = reader.evidence(darkness, BOARD)
            named = int(np.argmax(evidence.log_likelihood)) == k
            assert named or evidence.numbers_seen <= 10, (seed, k)
            right, views = right + named, views + 1
    assert views >= 40 and right >= views - 2


def test_train_round_numbers_end_to_end(tmp_path):
    """Training writes a reader whose metadata measures the board turn on the held-out
    boards given (other seeds than its training data), and which reads a board."""
    pytest.importorskip("torch", reason="training needs the 'train' extra (torch)")
    generate = load_script("generate_dataset")
    train = load_script("train_round_numbers")
    data, heldout = tmp_path / "data", tmp_path / "heldout"
    for out, n, seed in ((data, 6, 5150), (heldout, 4, 5160)):
        assert generate.main(["--n", str(n), "--seed", str(seed), "--out", str(out),
                              "--workers", "1", "--part-size", str(n), "--mp-min", "1",
                              "--mp-max", "1.2"]) == 0
    models = tmp_path / "models"
    assert train.main(["--data", str(data / "part000.npz"), "--heldout",
                       str(heldout / "part000.npz"), "--out", str(models), "--epochs", "1",
                       "--val-fraction", "0.34", "--batch", "32", "--threads", "1"]) == 0
    trained = RoundNumberReader.load(models)
    assert trained.meta["input_size"] == patch_px(BOARD.cell_px)
    figures = trained.meta["board_turn"]
    assert figures["validation"]["boards"] == 2  # the last third of the training boards
    with_numbers = sum(round_number_box(seed) is not None for seed in range(5160, 5164))
    assert figures["heldout"]["seeds"] == "4 photos, seeds 5160-5163"
    assert (figures["heldout"]["boards"], figures["heldout"]["boards_with_numbers"]) == (
        4, with_numbers)
    assert 0.0 <= figures["heldout"]["turn_right"] <= 1.0
    with np.load(heldout / "part000.npz") as held:
        board = held["boards"][0]  # an upright straightened board (ink darkness)
    evidence = trained.evidence(board, BOARD)  # the exported network runs in vision's reader
    assert np.isfinite(evidence.log_likelihood).all() and evidence.log_likelihood.shape == (4,)


def test_board_with_little_artwork_is_read_right_side_up(tmp_path):
    """Held-out photo 7000254 (a tiny title, no Special Routes panel): the Exit marks and the
    orienter CNN alone leave it upside down (0.59 for the wrong turn); its round numbers
    turn it right."""
    from vision.orient import BoardOrienter
    from vision.recognizer import Recognizer

    seed = 7000254
    photo = render_photo(sample_grid(np.random.default_rng([seed, 99])), seed=seed)
    path = tmp_path / "upside.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    recognizer = Recognizer.load()
    reading = recognizer.read(path)
    assert reading.orientation_confidence > 0.99
    wrong = sum(a != b for ra, rb in zip(reading.grid, photo.grid) for a, b in zip(ra, rb))
    assert wrong <= 1
    corner_error = np.abs(reading.corners - photo.corners).max()
    assert corner_error < 0.3 * np.linalg.norm(photo.corners[1] - photo.corners[0]) / 7

    without_numbers = BoardOrienter(recognizer.orienter.net)
    recognizer.orienter = without_numbers
    turned = recognizer.read(path)
    assert turned.orientation_confidence < 0.9
    assert np.abs(turned.corners - photo.corners).max() > 3 * corner_error + 10
