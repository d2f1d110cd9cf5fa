"""The real photo pipeline on the sample photos, with the trained models in models/."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from rink.annotate import annotated_image
from scoring.board import Board
from scoring.engine import score
from tests.project_scripts import load_script
from vision.classify import BaseGameClassifier, CellClassifier
from vision.crops import Darkness, space_crops
from vision.errors import BadCorners, UnreadableImage
from vision.model_files import models_dir
from vision.model_meta import CLASSES, rotate_token
from vision.recognizer import PhotoError, Recognizer
from vision.rectify import warp_board
from vision.render import render_photo, sample_grid
from vision.review import ReviewEntry
from vision.space_parts import BASE_CLASSES

ROOT = Path(__file__).resolve().parent.parent
# the base-game samples; the Deep Blue ones (truth with an ``expansion:`` key line, board_12
# river, board_13 lake) are read in tests/test_vision_water.py
SAMPLES = sorted(
    photo
    for photo in (ROOT / "sample_photos").glob("board_*.jpg")
    if "extras" not in json.loads(photo.with_suffix(".json").read_text())
)
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
    sheet = score(Board.from_tokens(reading.grid)).to_json()
    assert sheet == truth["expected_score"]


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
    # cut as the parts network learnt them (ModelMeta.ink_channels: darkness and blueness)
    crops = Darkness.of(flat, meta.cell_px).map(
        lambda darkness: space_crops(darkness, board, meta.margin_px)).by(meta.ink_channels)
    tokens = " ".join(truth["grid"]).split()
    return crops, tokens


def test_a_turned_space_reads_as_the_turned_token(recognizer):
    crops, tokens = _sample_crops(recognizer, SAMPLES[0])
    drawn = [i for i, t in enumerate(tokens) if t != "."]
    assert len(drawn) >= 10
    classifier = recognizer.classifier
    classes = classifier.meta.classes
    for turns in (1, 2, 3):
        turned = np.ascontiguousarray(np.rot90(crops[drawn], k=-turns, axes=(-2, -1)))
        read = [classes[i] for i in classifier.probabilities(turned).argmax(axis=1)]
        expected = [rotate_token(tokens[i], turns) for i in drawn]
        agree = sum(a == b for a, b in zip(read, expected))
        assert agree == len(drawn), (turns, list(zip(read, expected)))


def test_onnx_matches_pytorch(recognizer):
    torch = pytest.importorskip("torch")
    train = load_script("train_classifier")
    state = torch.load(REPO_MODELS / "cell_classifier.pt", weights_only=True)
    model = train.CellNet(width=int(state["features.0.weight"].shape[0]),
                          channels=recognizer.classifier.meta.channels)
    model.load_state_dict(state)
    model.eval()
    crops, _ = _sample_crops(recognizer, SAMPLES[2])
    exported = CellClassifier.load(models_dir(), int8=False)  # the float export itself
    x = exported.network_input(crops)
    with torch.no_grad():
        expected, sides, _ = (t.numpy() for t in model(torch.from_numpy(x)))
    np.testing.assert_allclose(exported.logits(crops), expected, atol=1e-3)
    side_probs, _ = exported.parts(crops)
    np.testing.assert_allclose(side_probs.argmax(axis=2), sides.argmax(axis=2))
    # the 8-bit twin the reader reads through gives every space the same class and sides
    twin = recognizer.classifier
    assert twin.session._model_path.endswith("cell_classifier.int8.onnx")
    np.testing.assert_array_equal(twin.logits(crops).argmax(axis=1), expected.argmax(axis=1))
    np.testing.assert_array_equal(twin.parts(crops)[0].argmax(axis=2), sides.argmax(axis=2))


def test_model_files_are_small_and_described():
    for name in ("cell_classifier.onnx", "base_classifier.onnx", "faint_cell_classifier.onnx",
                 "faint_base_classifier.onnx", "wide_cell_classifier.onnx"):
        assert (models_dir() / name).stat().st_size <= 1_000_000  # issue 16: under 1 MB
    classifier = CellClassifier.load(models_dir())
    meta = classifier.meta
    assert meta.classes == list(CLASSES) and meta.input_size == meta.cell_px + 2 * meta.margin_px
    assert meta.n_training_samples > 0 and meta.training_seed and meta.date
    assert meta.side_kinds == ["_", "H", "R", "W", "L"] and len(meta.join_pairs) == 6
    base = BaseGameClassifier.load(models_dir()).meta
    assert base.classes == list(CLASSES[:83])  # the base-game reader: H/R drawings only
    assert (base.cell_px, base.margin_px, base.input_size) == (meta.cell_px, meta.margin_px,
                                                               meta.input_size)


def test_boards_without_water_are_read_by_the_base_game_reader(recognizer):
    """The parts network routes: no water read -> the base-game reader's probabilities
    (water classes zero) for the spaces it doubts, its own sure reading (water at most
    1 - parts_sure) for the others; a River board -> the parts network's own."""
    base = recognizer.read(SAMPLES[0])
    water = [i for i, token in enumerate(CLASSES) if token not in CLASSES[:83]]
    sure = 1.0 - recognizer.params.classify.parts_sure
    assert float(base.probs[..., water].sum(axis=-1).max()) <= sure + 1e-6
    everything = Recognizer(recognizer.classifier, recognizer.orienter,
                            replace(recognizer.params, classify=replace(
                                recognizer.params.classify, parts_sure=None)),
                            base_classifier=recognizer.base_classifier).read(SAMPLES[0])
    assert float(everything.probs[..., water].max()) == 0.0
    river = recognizer.read(ROOT / "sample_photos" / "board_12.jpg")
    assert float(river.probs[..., water].max()) > 0.99


def test_photo_without_a_board_is_refused(recognizer, tmp_path):
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(60, 200, (900, 1200, 3), dtype=np.uint8), (0, 0), 6)
    cv2.rectangle(table, (300, 200), (700, 500), (40, 40, 40), 6)  # a box, no lattice
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), table)
    # the box is seen all round, like a board's frame, and is refused as one with nothing in it
    with pytest.raises(PhotoError, match=r"^no board found in table\.jpg \(found a frame, "
                                         r"but no printed lattice, Exit marks or drawings in "
                                         r"it\)$"):
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


def test_an_empty_table_in_a_dim_room_is_no_board(recognizer, tmp_path):
    """The table beside the board of phone render 8850039 (tuning seeds of scripts/evaluate.py
    --conditions phone), a dim room: the phone's noise, brightened, once fitted a lattice
    "beyond doubt" that read 49 of 49 spaces doubtful and came back as a board to check."""
    photo, _ = load_script("evaluate").render_case(8850039, None, "phone")
    lo, hi = photo.corners[:, 0].min(), photo.corners[:, 0].max()
    left = int(lo - 0.4 * (hi - lo))  # short of the board's paper
    assert left > 1000
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), photo.image[:, :left], [cv2.IMWRITE_JPEG_QUALITY, 92])
    with pytest.raises(PhotoError, match=r"^no board found in table\.jpg"):
        recognizer.read(path)


def test_bad_corners_are_refused(recognizer):
    with pytest.raises(BadCorners, match="corners"):
        recognizer.read(SAMPLES[0], corners=[(0, 0), (1, 1)])
    with pytest.raises(BadCorners, match="corners"):
        recognizer.read(SAMPLES[0], corners=[1, 2, 3])


def test_the_right_corners_from_any_start_read_the_board_upright(recognizer):
    """Corners by hand give the lattice, not its top: listed from another corner, or the
    other way round, they read the same board, its top decided as for a found one."""
    photo = SAMPLES[1]
    truth = _truth(photo)
    corners = np.array(truth["corners"], np.float32)
    for given in [np.roll(corners, k, axis=0) for k in (1, 2, 3)] + [corners[::-1]]:
        reading = recognizer.read(photo, corners=given)
        assert reading.grid_lines() == truth["grid"]
        assert reading.orientation_confidence > 0.99
        np.testing.assert_allclose(reading.corners, corners, atol=0.5)


@pytest.mark.parametrize(("corners", "why"), [
    ([(500, 400)] * 4, "4 different points"),  # all at one point: once 49 empty spaces
    ([(100, 100), (500, 100), (900, 100), (500, 700)], "four-sided"),  # three on a line
    ([(100, 100), (900, 100), (500, 300), (500, 700)], "four-sided"),  # not convex
    ([(100, 100), (140, 100), (140, 140), (100, 140)], "too small"),
    ([(100, 100), (1500, 100), (1500, 250), (100, 250)], "too skewed"),
    ([(-600, 100), (700, 100), (700, 1200), (-600, 1200)], "outside the photo"),
    ([(1654, 234), (2331, 377), (2181, 1126), (1633, 845)], "outside the photo"),
])
def test_corners_that_cannot_outline_the_board_are_refused(recognizer, corners, why):
    with pytest.raises(BadCorners, match=why) as info:
        recognizer.read(SAMPLES[1], corners=corners)
    assert len(str(info.value).splitlines()) == 1 and SAMPLES[1].name in str(info.value)


def test_corners_slightly_outside_the_photo_are_read(recognizer):
    """A lattice whose edge the photo cuts close: corners up to a third of a space outside."""
    photo = SAMPLES[1]
    truth = _truth(photo)
    corners = np.array(truth["corners"], np.float32)
    x0 = int(corners[:, 0].min()) - 4  # the photo starts 4 px left of the lattice ...
    image = np.ascontiguousarray(cv2.imread(str(photo))[:, x0:])
    reading = recognizer.read(image, corners=corners - [x0 + 10, 0])  # ... corners 6 px out
    assert reading.grid_lines() == truth["grid"]


def test_a_photo_too_small_to_read_says_so(recognizer, tmp_path):
    """A whole board in a 300 x 225 photo: once "only part of the board is in ..."."""
    seed = 7100009
    photo = render_photo(sample_grid(np.random.default_rng([seed, 99])), seed=seed,
                         megapixels=0.3)
    small = cv2.resize(photo.image, (300, 225), interpolation=cv2.INTER_AREA)
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), small)
    with pytest.raises(UnreadableImage, match=r"^small\.png: the photo is too small to read a "
                                              r"board \(300x225 pixels; at least 450 "):
        recognizer.read(path)


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


def test_annotation_numbers_the_review_spaces_in_the_list_order(recognizer):
    """board_08's three spaces to check carry their place in the list on the picture: the
    same spaces in another order change only the numbers, in each outline's top right."""
    reading = recognizer.read(SAMPLES[0].parent / "board_08.jpg")
    assert len(reading.review) >= 2
    listed = annotated_image(reading)
    reading.review.reverse()
    reversed_ = annotated_image(reading)
    diff = np.abs(listed.astype(int) - reversed_.astype(int)).sum(axis=2)
    ys, xs = np.nonzero(diff)
    assert len(ys) > 0
    cell = reading.board.cell_px * 3
    origin = reading.board.pad_px * 3
    col, row = (xs - origin) / cell, (ys - origin) / cell
    places = {(int(r), int(c)) for r, c in zip(row, col, strict=True)}
    assert places <= {(item.row, item.col) for item in reading.review}
    assert ((col % 1) > 0.5).all() and ((row % 1) < 0.35).all()  # the top right tab


def test_onnx_sessions_log_errors_only(recognizer):
    """onnxruntime's warnings (graph optimisation notes) must not reach the user's stderr."""
    sessions = [recognizer.classifier.session, recognizer.orienter.net.session,
                recognizer.orienter.numbers.session]
    assert [s.get_session_options().log_severity_level for s in sessions] == [3, 3, 3]


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_a_read_runs_numpys_blas_on_one_thread_and_gives_the_rest_back(recognizer, monkeypatch):
    """The printed lines' fit (vision.unbend) solves small systems: BLAS threads only wait on
    each other there, and on the other reads of a batch's workers, so a read holds numpy's
    BLAS to one thread and restores what the caller had."""
    solve = np.linalg.solve
    during: list[list[int]] = []

    def watched(a, b):
        during.append(_blas_threads())
        return solve(a, b)

    monkeypatch.setattr(np.linalg, "solve", watched)
    with threadpool_limits(limits=2, user_api="blas"):
        if not _blas_threads():
            pytest.fail("numpy's BLAS is not one threadpoolctl can see")
        reading = recognizer.read(SAMPLES[0])
        after = _blas_threads()
    assert reading.bend is not None and during, "the printed lines were not fitted"
    assert all(threads == [1] * len(threads) for threads in during)
    assert after == [2] * len(after)


def test_the_review_list_puts_the_least_sure_spaces_first(recognizer):
    """Phone tuning render 8850001 (``scripts/evaluate.py --seed 8850001 --conditions
    phone``: curled paper, a hand, a die, a dim room) has spaces to check of every kind the
    ink check and the classifier give; the list runs from the least sure reading to the
    surest, whatever listed each space."""
    photo, _ = load_script("evaluate").render_case(8850001, None, "phone")
    reading = recognizer.read(photo.image)
    kinds = {item.kind for item in reading.review}
    assert len(reading.review) >= 5 and {"reading", "covered"} <= kinds
    sureness = [float(reading.probs[item.row, item.col].max()) for item in reading.review]
    assert sureness == sorted(sureness) and sureness[0] < sureness[-1]
