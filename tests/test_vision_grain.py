"""A grainy board quietened before its ink is measured (vision.grain, off by default): the
grain is measured as the noise's sigma, only boards past the gate are touched, their blueness
is their own, and a grainy phone photo of faint ink is read far better for it."""

from __future__ import annotations

import json
from functools import lru_cache

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.crops import Darkness
from vision.grain import GrainParams, board_grain, quietened
from vision.recognizer import ReadParams, Recognizer
from vision.rectify import CanonicalBoard, warp_board
from vision.render import render_photo, sample_grid
from vision.render.finishing import finish_photo

BOARD = CanonicalBoard(cell_px=48, pad_px=24)
MEASURED = GrainParams(gate=2.4)  # the gate measured in docs/VISION.md (not the default)


@lru_cache(maxsize=1)
def _clean_render():
    """A clean 1 MP render of a drawn board (seed 7100070 of the held-out set)."""
    grid = sample_grid(np.random.default_rng([7100070, 99]))
    return render_photo(grid, seed=7100070, megapixels=1.0)


def _straightened(image: np.ndarray) -> np.ndarray:
    return warp_board(image, _clean_render().corners, BOARD)


def test_grain_is_measured_as_the_noises_sigma():
    rng = np.random.default_rng(3)
    card = np.full((384, 384, 3), (90, 180, 150), np.uint8)
    cv2.line(card, (0, 100), (383, 140), (20, 20, 20), 3)  # a stroke does not count
    assert board_grain(card) == 0.0
    for sigma in (3.0, 8.0):
        noisy = np.clip(card + rng.standard_normal(card.shape) * sigma, 0, 255).astype(np.uint8)
        assert abs(board_grain(noisy) - sigma) < 0.15 * sigma + 0.3


def test_only_a_board_past_the_gate_is_quietened():
    photo = _clean_render().image
    clean = _straightened(photo)
    grainy = _straightened(finish_photo(photo, "grainy"))
    params = MEASURED
    assert board_grain(clean) < params.gate < board_grain(grainy)
    assert quietened(clean, params) is None
    assert quietened(grainy, GrainParams()) is None  # off by default
    quiet = quietened(grainy, params)
    assert quiet.shape == grainy.shape and quiet.dtype == np.uint8
    assert board_grain(quiet) < board_grain(grainy) / 2
    # a board under the gate is measured exactly as before; a quietened one keeps its own
    # blueness (smoothed colour would smear the water's blue) and loses its noise's darkness
    plain = Darkness.of(clean, BOARD.cell_px)
    assert np.array_equal(plain.each, Darkness.of(clean, BOARD.cell_px, None).each)
    noisy, calm = Darkness.of(grainy, BOARD.cell_px), Darkness.of(grainy, BOARD.cell_px, quiet)
    assert np.array_equal(noisy.blue, calm.blue)
    paper = plain.each < 10  # paper of the clean board
    assert calm.each[paper].mean() < noisy.each[paper].mean()


def test_a_grainy_phone_photo_of_faint_ink_is_read_better_quietened(tmp_path):
    # held-out phone render 8800065: pale marker on curled paper, a dim room, the phone's
    # denoising, 1.4 MP; with the grainy finish on top its faint strokes drown in the grain
    photo, _ = load_script("evaluate").render_case(8800065, None, "phone", None)
    path = tmp_path / "grainy.jpg"
    cv2.imwrite(str(path), finish_photo(photo.image, "grainy"), [cv2.IMWRITE_JPEG_QUALITY, 92])

    def wrong(recognizer):
        grid = recognizer.read(path).grid
        return sum(grid[r][c] != photo.grid[r][c] for r in range(7) for c in range(7))

    untouched = wrong(Recognizer.load())
    quiet = wrong(Recognizer.load(params=ReadParams(grain=MEASURED)))
    assert quiet <= untouched * 2 // 3, (untouched, quiet)


def test_evaluate_reads_with_the_grain_gate_named(tmp_path):
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "1", "--seed", "7100070", "--workers", "1",
                          "--finish", "grainy", "--grain-gate", "2.4",
                          "--csv", str(tmp_path / "eval.csv"),
                          "--json", str(tmp_path / "eval.json")]) == 0
    summary = json.loads((tmp_path / "eval.json").read_text())
    assert summary["grain_gate"] == 2.4 and summary["finish"] == "grainy"
    assert summary["not_found_pct"] == 0.0
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main(["--n", "1", "--grain-gate", "-1"])
    assert exit_info.value.code == 2
