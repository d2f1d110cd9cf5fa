"""Photo finishes (vision.render.finishing): each does what it says to a real render, and
scripts/evaluate.py reads photos put through one."""

from __future__ import annotations

import csv
import json
from functools import lru_cache

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.render import render_photo, sample_grid
from vision.render.finishing import FINISHES, FinishParams, finish_photo


@lru_cache(maxsize=1)
def _photo() -> np.ndarray:
    """A clean 1 MP render of a drawn board (seed 7100070 of the held-out set)."""
    grid = sample_grid(np.random.default_rng([7100070, 99]))
    return render_photo(grid, seed=7100070, megapixels=1.0).image


@pytest.mark.parametrize("name", sorted(FINISHES))
def test_each_finish_changes_the_photo_and_keeps_its_shape(name):
    photo = _photo()
    finished = finish_photo(photo, name)
    assert finished.shape == photo.shape and finished.dtype == np.uint8
    assert np.abs(finished.astype(int) - photo).mean() > 0.5  # visibly changed
    assert np.array_equal(finished, finish_photo(photo, name))  # and always alike
    assert np.array_equal(photo, _photo())  # the photo itself untouched


def test_the_finishes_do_what_their_names_say():
    photo = _photo()
    grey = finish_photo(photo, "monochrome")
    assert np.array_equal(grey[..., 0], grey[..., 1]) and np.array_equal(grey[..., 1],
                                                                         grey[..., 2])

    def saturation(image):
        return float(cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1].mean())

    assert saturation(finish_photo(photo, "vivid")) > 1.3 * saturation(photo)
    params = FinishParams()
    assert finish_photo(photo, "washed_out").min() >= params.washed_lift
    warm = finish_photo(photo, "warm_cast").reshape(-1, 3).mean(axis=0)
    plain = photo.reshape(-1, 3).mean(axis=0)
    assert warm[2] / warm[0] > 1.3 * plain[2] / plain[0]  # red gained on blue
    dark = finish_photo(photo, "dark_tones").astype(float).mean()
    light = finish_photo(photo, "light_tones").astype(float).mean()
    assert dark < photo.mean() < light
    h, w = photo.shape[:2]
    shaded = finish_photo(photo, "vignette").astype(float) / np.maximum(photo, 1)
    assert shaded[:h // 10, :w // 10].mean() < 0.7 * shaded[h * 2 // 5:h * 3 // 5,
                                                            w * 2 // 5:w * 3 // 5].mean()
    # soft focus loses the fine detail; oversharpening adds to it
    detail = cv2.Laplacian(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()

    def detail_of(name):
        return cv2.Laplacian(cv2.cvtColor(finish_photo(photo, name), cv2.COLOR_BGR2GRAY),
                             cv2.CV_64F).var()

    assert detail_of("soft_focus") < 0.5 * detail < detail_of("oversharpened") / 2


def test_an_unknown_finish_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown photo finish 'sepia'.*monochrome"):
        finish_photo(_photo(), "sepia")


def test_evaluate_reads_photos_put_through_a_finish(tmp_path):
    # a black-and-white photo of held-out render 7100070, which is read exactly in colour
    # (tests/test_vision_evaluate.py), is still found and read
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "1", "--seed", "7100070", "--workers", "1",
                          "--finish", "monochrome", "--csv", str(tmp_path / "eval.csv"),
                          "--json", str(tmp_path / "eval.json")]) == 0
    (row,) = csv.DictReader((tmp_path / "eval.csv").open())
    summary = json.loads((tmp_path / "eval.json").read_text())
    assert summary["finish"] == "monochrome"
    assert row["found"] == "1" and row["exact"] == "1"


def test_grain_is_noise_of_its_sigma_for_each_pixel_and_channel():
    # on a mid-grey photo no noise is clipped: the finish's grain is FinishParams.grain_sigma
    # strong, drawn for each channel apart; clumped grain keeps its strength, spread wider
    grey = np.full((400, 400, 3), 128, np.uint8)
    params = FinishParams()
    noise = finish_photo(grey, "grainy").astype(float) - 128
    assert abs(noise.std() - params.grain_sigma) < 0.5
    assert abs(np.corrcoef(noise[..., 0].ravel(), noise[..., 2].ravel())[0, 1]) < 0.05
    from vision.render.finishing import add_grain
    clumped = add_grain(grey, 10.0, np.random.default_rng(1), spread_px=1.0).astype(float) - 128
    assert abs(clumped.std() - 10.0) < 0.6
    neighbours = np.corrcoef(clumped[:, :-1, 0].ravel(), clumped[:, 1:, 0].ravel())[0, 1]
    assert neighbours > 0.5 and abs(np.corrcoef(noise[:, :-1, 0].ravel(),
                                                noise[:, 1:, 0].ravel())[0, 1]) < 0.05
