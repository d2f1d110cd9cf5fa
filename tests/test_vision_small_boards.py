"""Small boards in the photo: a board filling a third of the frame is found, and a photo
refused is searched once more on a finer working image (vision.recognizer.finer_locate,
vision.acceptance.second_search_kept). Renders of the phone-condition tuning seeds
(scripts/evaluate.py --conditions phone --seed 8850000), all refused before."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.acceptance import AcceptanceParams, second_search_kept
from vision.channels import ChannelParams
from vision.errors import BoardCut, NoBoardFound, PhotoError
from vision.image_io import LoadedPhoto
from vision.locate import LocateParams, find_lattice
from vision.locate.params import LineParams, RetryParams, SkinParams
from vision.recognizer import ReadParams, Recognizer, finer_locate, retry_locates
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.rivals import RivalParams
from vision.space_parts import same_space


@lru_cache(maxsize=4)
def _rendered(seed: int):
    """The photo scripts/evaluate.py --conditions phone renders for ``seed``."""
    rng = np.random.default_rng([seed, 99])
    return render_photo(sample_grid(rng), seed=seed, options=PhotoOptions(conditions="phone"))


def _saved(seed: int, folder) -> str:
    path = folder / f"small_{seed}.jpg"
    cv2.imwrite(str(path), _rendered(seed).image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path)


def _corner_error(corners: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance, in spaces, over the 4 ways of naming the corners."""
    space = np.linalg.norm(truth[1] - truth[0]) / 7
    return min(np.abs(np.roll(corners, k, axis=0) - truth).max() for k in range(4)) / space


def _wrong(reading, photo) -> int:
    return sum(not same_space(reading.grid[r][c], photo.grid[r][c])
               for r in range(7) for c in range(7))


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.mark.parametrize("seed", [
    8850228,  # lattice side 0.094 of the photo's long side, a flash's glare round it
    8850105,  # 0.112, a hand beside it, a second sheet in view
])
def test_a_board_filling_a_third_of_the_frame_is_found_by_the_second_search(seed):
    """The first search does not take lattices this small (under 0.12 of the long side)."""
    photo = _rendered(seed)
    assert "small_board" in photo.drawn
    first = find_lattice(photo.image)
    assert first is None or _corner_error(first.corners, photo.corners) > 1
    h, w = photo.image.shape[:2]
    second = finer_locate(LoadedPhoto(photo.image, 1.0, (w, h)), LocateParams())
    assert second is not None and second.fit.min_side < 0.09
    fit = find_lattice(photo.image, second)
    assert fit is not None and fit.confidence > 0.9
    assert _corner_error(fit.corners, photo.corners) < 0.3


def test_a_refused_photo_is_read_when_a_finer_search_finds_its_board(recognizer, tmp_path):
    """8850088: a small board under a hand and a die, 1007 x 1344 pixels; the usual search
    (without the hand's outline left out, vision.locate.skin, or the frame's long pieces,
    vision.locate.lines, each of which finds it since) finds no board, the one on the photo
    at its full size finds it beyond doubt."""
    path = _saved(8850088, tmp_path)
    photo = _rendered(8850088)
    blind = LocateParams(skin=SkinParams(enabled=False), lines=LineParams(min_piece=None))
    never = ReadParams(locate=replace(blind, retry=RetryParams(work_side=0)))
    with pytest.raises(PhotoError, match="no board found"):
        _with(recognizer, never).read(path)
    reading = _with(recognizer, ReadParams(locate=blind)).read(path)
    assert min(reading.confidence, reading.orientation_confidence) >= 0.95
    assert _corner_error(reading.corners, photo.corners) < 0.3
    assert _wrong(reading, photo) <= 12  # low resolution, denoised, a hand over a corner
    assert _corner_error(recognizer.read(path).corners, photo.corners) < 0.3  # as shipped


def _with(recognizer: Recognizer, params: ReadParams) -> Recognizer:
    """The recogniser's networks with other parameters."""
    return Recognizer(recognizer.classifier, recognizer.orienter, params,
                      base_classifier=recognizer.base_classifier, faint=recognizer.faint)


def test_a_doubtful_board_of_the_finer_search_leaves_the_first_refusal(recognizer, tmp_path):
    """8850249: the finer search finds a lattice 2 spaces off (0.83 sure, its top 0.67): the
    first search's answer stands, not a reading of the wrong spaces. (Its first search's
    lattice, dark-table noise, is painted over and the board found since, vision.rivals:
    tests/test_vision_rivals.py; here without that, and without the hand's outline left out,
    vision.locate.skin, with which the finer search finds more noise instead; and with the
    room's near-black blue kept for the locator, since with it set aside, vision.channels,
    the noise is no lattice and the board is found at once.)"""
    path = _saved(8850249, tmp_path)
    params = recognizer.params
    no_rivals = replace(params, rivals=RivalParams(enabled=False),
                        locate=replace(params.locate, skin=SkinParams(enabled=False)),
                        channels=ChannelParams(dark_below=None))
    with pytest.raises(BoardCut, match="top edge"):
        _with(recognizer, no_rivals).read(path)
    # (its spaces are small enough for the faint-ink reading to be kept, which this lattice
    # 2 spaces off has too many unsure spaces to pass: the standard one shows the search's
    # doubt; kept anyway, too few of that lattice's printed lines are followed to read it)
    kept = replace(no_rivals,
                   acceptance=replace(AcceptanceParams(), second_search_confidence=0.0),
                   classify=replace(recognizer.params.classify, small_space_px=None))
    with pytest.raises(BoardCut, match="top edge"):
        _with(recognizer, kept).read(path)
    anything = replace(kept, acceptance=replace(kept.acceptance, min_lines_seen=0))
    reading = _with(recognizer, anything).read(path)  # what the policy keeps from the player
    assert min(reading.confidence, reading.orientation_confidence) < 0.95
    assert reading.bend is not None and reading.bend.lines_followed < 3


def test_the_second_search_is_finer_only_where_the_photo_has_the_pixels():
    params = LocateParams()
    for side, expected in ((1000, None), (1250, None), (1344, 1344), (1600, 1600),
                           (4000, 2000)):
        image = np.zeros((side * 3 // 4, side, 3), np.uint8)
        finer = finer_locate(LoadedPhoto(image, 1.0, (side, side * 3 // 4)), params)
        assert (None if finer is None else finer.candidates.work_side) == expected, side
    never = LocateParams(retry=RetryParams(work_side=0))
    assert finer_locate(LoadedPhoto(np.zeros((1500, 2000, 3), np.uint8), 1.0, (2000, 1500)),
                        never) is None


def test_a_board_of_the_second_search_is_kept_only_beyond_doubt():
    params = AcceptanceParams()
    assert second_search_kept(1.0, 0.99, params)
    assert not second_search_kept(1.0, 0.91, params)  # 8850273: read from the wrong side
    assert not second_search_kept(0.83, 1.0, params)


def test_a_photo_without_a_board_keeps_its_answer(recognizer, tmp_path):
    """Searched twice (it is large enough), a photo of a plain table is still no board."""
    rng = np.random.default_rng(5)
    table = np.clip(rng.normal(150, 12, (1500, 2000, 3)), 0, 255).astype(np.uint8)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), cv2.GaussianBlur(table, (0, 0), 3))
    with pytest.raises(NoBoardFound, match=r"^no board found in table\.jpg"):
        recognizer.read(path)


def test_the_second_search_tries_the_usual_working_image_too():
    """After the finer image (where the photo has the pixels), the usual one, both taking
    lattices as small as RetryParams.min_side; RetryParams.usual_side False: the finer only."""
    params = LocateParams()
    large = LoadedPhoto(np.zeros((1500, 2000, 3), np.uint8), 1.0, (2000, 1500))
    small = LoadedPhoto(np.zeros((750, 1000, 3), np.uint8), 1.0, (1000, 750))
    sides = [(p.candidates.work_side, p.fit.min_side) for p in retry_locates(large, params)]
    assert sides == [(2000, 0.07), (1000, 0.07)]
    assert [p.candidates.work_side for p in retry_locates(small, params)] == [1000]
    finer_only = replace(params, retry=replace(params.retry, usual_side=False))
    assert [p.candidates.work_side for p in retry_locates(large, finer_only)] == [2000]
    assert retry_locates(large, LocateParams(retry=RetryParams(work_side=0))) == []


def test_a_small_board_the_finer_image_misses_is_found_on_the_usual_one(recognizer, tmp_path):
    """8870190 (``scripts/evaluate.py --seed 8870190 --conditions phone``): a small board on a
    folded sheet, its lattice 0.099 of the photo's long side, too small for the first
    search; on the finer working image it scores 0.55, on the usual one 0.85 (found beyond
    doubt, its top too). Without the usual image's retry the photo is refused."""
    photo, _ = load_script("evaluate").render_case(8870190, None, "phone")
    assert "small_board" in photo.drawn
    path = tmp_path / "8870190.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    locate = recognizer.params.locate
    finer_only = replace(recognizer.params, locate=replace(
        locate, retry=replace(locate.retry, usual_side=False)))
    with pytest.raises(NoBoardFound):
        _with(recognizer, finer_only).read(path)
    reading = recognizer.read(path)
    assert min(reading.confidence, reading.orientation_confidence) >= 0.95
    assert _corner_error(reading.corners, photo.corners) < 0.3
    assert _wrong(reading, photo) <= 3
