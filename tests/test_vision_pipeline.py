"""The real photo pipeline on the sample photos, with the trained models in models/."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from rink.annotate import annotated_image
from scoring.board import Board
from scoring.engine import score_board
from tests.project_scripts import load_script
from vision.classify import CellClassifier
from vision.crops import ink_darkness, space_crops
from vision.model_files import models_dir
from vision.model_meta import BASE_CLASSES, CLASSES, rotate_token
from vision.recognizer import PhotoError, Recognizer
from vision.rectify import warp_board
from vision.review import ReviewEntry

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_photos").glob("board_*.jpg"))
REPO_MODELS = ROOT / "models"  # the training checkpoint is not shipped in the package


def _truth(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


def test_there_are_sample_photos():
    assert len(SAMPLES) >= 10


@pytest.mark.parametrize("photo", SAMPLES, ids=lambda p: p.name)
def test_sample_photo_reads_as_its_truth(recognizer, photo):
    reading = recognizer.read(photo)
    assert reading.grid_lines() == _truth(photo)["grid"]
    assert reading.confidence > 0.5
    assert set(reading.timings) >= {"load", "locate", "rectify", "orient", "classify", "decode"}
    assert reading.probs.shape == (7, 7, len(CLASSES))
    np.testing.assert_allclose(reading.probs.sum(axis=2), 1.0, atol=1e-4)


def test_drawings_no_die_gives_are_read_as_drawn(recognizer):
    # board_11: a game with dead ends and three-way stations drawn by mistake
    photo = ROOT / "sample_photos" / "board_11.jpg"
    truth = _truth(photo)
    odd = [(r, c, token) for r, line in enumerate(truth["grid"])
           for c, token in enumerate(line.split()) if token not in BASE_CLASSES]
    assert {len(token.replace("_", "")) for _, _, token in odd} == {1, 3}
    reading = recognizer.read(photo)
    assert [reading.grid[r][c] for r, c, _ in odd] == [token for _, _, token in odd]
    score = score_board(Board.from_tokens(reading.grid)).to_json()
    assert score == truth["expected_score"]


def test_corners_given_by_hand_skip_locating(recognizer):
    photo = SAMPLES[1]
    truth = _truth(photo)
    reading = recognizer.read(photo, corners=truth["corners"])
    assert reading.grid_lines() == truth["grid"]
    np.testing.assert_allclose(reading.corners, truth["corners"], atol=0.5)


def _sample_crops(recognizer: Recognizer, photo: Path) -> tuple[np.ndarray, list[str]]:
    truth = _truth(photo)
    image = cv2.imread(str(photo))
    board = recognizer.board
    flat = warp_board(image, np.array(truth["corners"], np.float32), board)
    meta = recognizer.classifier.meta
    crops = space_crops(ink_darkness(flat, meta.cell_px), board, meta.margin_px)
    tokens = " ".join(truth["grid"]).split()
    return crops, tokens


def test_a_turned_space_reads_as_the_turned_token(recognizer):
    crops, tokens = _sample_crops(recognizer, SAMPLES[0])
    drawn = [i for i, t in enumerate(tokens) if t != "."]
    assert len(drawn) >= 10
    classifier = recognizer.classifier
    classes = classifier.meta.classes
    for turns in (1, 2, 3):
        turned = np.ascontiguousarray(np.rot90(crops[drawn], k=-turns, axes=(1, 2)))
        read = [classes[i] for i in classifier.probabilities(turned).argmax(axis=1)]
        expected = [rotate_token(tokens[i], turns) for i in drawn]
        agree = sum(a == b for a, b in zip(read, expected))
        assert agree == len(drawn), (turns, list(zip(read, expected)))


def test_onnx_matches_pytorch(recognizer):
    torch = pytest.importorskip("torch")
    train = load_script("train_classifier")
    state = torch.load(REPO_MODELS / "cell_classifier.pt", weights_only=True)
    model = train.CellNet(n_classes=int(state["head.2.weight"].shape[0]),
                          width=int(state["features.0.weight"].shape[0]))
    model.load_state_dict(state)
    model.eval()
    crops, _ = _sample_crops(recognizer, SAMPLES[2])
    x = recognizer.classifier.network_input(crops)
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(recognizer.classifier.logits(crops), expected, atol=1e-3)


def test_model_files_are_small_and_described():
    assert (models_dir() / "cell_classifier.onnx").stat().st_size <= 2_000_000
    classifier = CellClassifier.load(models_dir())
    meta = classifier.meta
    assert meta.classes == list(CLASSES) and meta.input_size == meta.cell_px + 2 * meta.margin_px
    assert meta.n_training_samples > 0 and meta.training_seed and meta.date


def test_photo_without_a_board_is_refused(recognizer, tmp_path):
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(60, 200, (900, 1200, 3), dtype=np.uint8), (0, 0), 6)
    cv2.rectangle(table, (300, 200), (700, 500), (40, 40, 40), 6)  # a box, no lattice
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), table)
    with pytest.raises(PhotoError, match=r"^no board found in table\.jpg$"):
        recognizer.read(path)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pure_noise_is_no_board_even_where_a_lattice_seems_to_fit(recognizer, tmp_path, seed):
    # Sharp noise lets the lattice fit find "a grid"; its spaces then read as unreadable, and
    # the photo must be refused rather than scored as an (almost) empty board.
    noise = (np.random.default_rng(seed).random((900, 1200, 3)) * 255).astype(np.uint8)
    path = tmp_path / f"noise{seed}.png"
    cv2.imwrite(str(path), noise)
    with pytest.raises(PhotoError, match=rf"^no board found in noise{seed}\.png"):
        recognizer.read(path)


def test_bad_corners_are_refused(recognizer):
    with pytest.raises(PhotoError, match="corners"):
        recognizer.read(SAMPLES[0], corners=[(0, 0), (1, 1)])


def test_annotation_marks_errors_and_review(recognizer):
    reading = recognizer.read(SAMPLES[0])
    reading.review.append(ReviewEntry(0, 0, reading.grid[0][0], reason="test"))
    plain = annotated_image(reading)
    marked = annotated_image(reading, errors=[(3, 3, "E")])
    assert plain.shape == marked.shape and plain.shape[0] > 3 * reading.board.size - 3
    diff = np.abs(plain.astype(int) - marked.astype(int)).sum(axis=2)
    ys, xs = np.nonzero(diff)
    cell = reading.board.cell_px * 3
    origin = reading.board.pad_px * 3
    # the Error circle sits on the East side of space (3, 3)
    assert abs(xs.mean() - (origin + 3.92 * cell)) < 0.2 * cell
    assert abs(ys.mean() - (origin + 3.5 * cell)) < 0.2 * cell


def test_onnx_sessions_log_errors_only(recognizer):
    """onnxruntime's warnings (graph optimisation notes) must not reach the user's stderr."""
    sessions = [recognizer.classifier.session, recognizer.orienter.net.session,
                recognizer.orienter.numbers.session]
    assert [s.get_session_options().log_severity_level for s in sessions] == [3, 3, 3]
