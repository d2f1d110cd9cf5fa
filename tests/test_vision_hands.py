"""A hand is no lake (vision.ink_check.covering_skin, vision.water_sighting): a hand on the
sheet shades the paper much as a filled lake does, so the ink check tells the two apart by
colour, and the spaces a hand lies on are no evidence of water. The phone renders are of the
tuning seeds (scripts/evaluate.py --conditions phone, --seed 8850000 for base boards, --seed
9350000 --expansion mix for River and Lake boards)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.ink_check import InkCheckParams, is_skin
from vision.recognizer import Recognizer
from vision.space_parts import same_space, side_letters

HAND_AS_LAKE = 8850283  # base game, folded paper, a hand over the board read as a lake
BROWN_LAKES = 9350082  # Lake: brown marker, lakes filled with it (skin-coloured, like the ink)
LAKE_UNDER_HAND = 9350125  # Lake: a hand lies over part of a lake


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def no_skin_test(recognizer) -> Recognizer:
    params = recognizer.params
    return Recognizer.load(params=replace(params, ink=replace(params.ink, skin_test=False)))


def _render(seed: int, tmp_path_factory, expansions: str | None = None):
    """The phone photo of ``seed`` as scripts/evaluate.py renders it: (path, truth, played)."""
    photo, played = load_script("evaluate").render_case(seed, conditions="phone",
                                                        expansion=expansions)
    path = tmp_path_factory.mktemp("hands") / f"phone_{seed}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path), photo.grid, played


def _wrong(grid, truth) -> int:
    return sum(not same_space(grid[r][c], truth[r][c]) for r in range(7) for c in range(7))


def _paper_share(bgr, paper=(240, 240, 240)) -> np.ndarray:
    return np.array(bgr, float) / np.array(paper, float)


@pytest.mark.parametrize("bgr", [(150, 180, 230), (120, 160, 215), (90, 130, 190),
                                 (60, 90, 140), (45, 65, 100)])
def test_skin_tones_are_skin(bgr):
    assert is_skin(_paper_share(bgr))
    assert is_skin(_paper_share(bgr, paper=(200, 225, 235)) * 0.9)  # cream paper, dim


@pytest.mark.parametrize("bgr", [(30, 30, 30), (120, 40, 20), (40, 120, 30), (40, 40, 200),
                                 (230, 200, 160), (128, 128, 128)])
def test_marker_colours_are_not_skin(bgr):
    """Black, dark blue, green, red, pale blue and grey; brown is skin-coloured, which is
    why a board drawn in brown gets no skin test (test_a_brown_board_keeps_its_lakes)."""
    assert not is_skin(_paper_share(bgr))
    assert is_skin(_paper_share((40, 70, 120)))  # brown


def _searched_afresh(reader: Recognizer) -> Recognizer:
    """``reader`` with a small board's zoomed pass searching its crop afresh, as before 7 Dec
    2026 (``FitParams.zoom_from_first`` off), reading through the float networks, as when
    the case was found (their 8-bit twins read this board's doubtful spaces a hair otherwise,
    and its faint-ink reading is kept: docs/VISION.md, "Speed: the readers' 8-bit twins")."""
    locate = reader.params.locate
    return Recognizer.load(params=replace(reader.params, locate=replace(
        locate, fit=replace(locate.fit, zoom_from_first=False))), int8=False)


def test_a_hand_read_as_a_lake_does_not_make_a_lake_board(recognizer, no_skin_test,
                                                          tmp_path_factory):
    # Located as the zoomed pass's own search settles it (its lattice a hair off the one
    # refined from the first pass), the standard readers' reading of 8850283 is kept, and
    # without the skin test it shows the hand as a lake; settled from the first pass, the
    # faint-ink reading is kept, which sees no lake there (and no other tuning or fresh
    # phone board with a hand shows one without the skin test).
    path, truth, _ = _render(HAND_AS_LAKE, tmp_path_factory)
    before = _searched_afresh(no_skin_test).read(path)
    after = _searched_afresh(recognizer).read(path)
    assert "lake" in {s.name for s in before.expansions_seen}
    assert "lake" not in {s.name for s in after.expansions_seen}
    assert not any("L" in side_letters(t) for row in after.grid for t in row)
    hands = after.ink.skin_spaces()
    assert hands and before.ink.skin is None
    for r, c in hands:  # every space the hand lies on is listed as covered
        entry = next(e for e in after.review if (e.row, e.col) == (r, c))
        assert entry.kind == "covered"
    undone = [e for e in after.review if "a hand seems to lie on it" in e.reason]
    assert undone and all((e.row, e.col) in hands for e in undone)
    assert _wrong(after.grid, truth) < _wrong(before.grid, truth)


def test_a_brown_board_keeps_its_lakes(recognizer, tmp_path_factory):
    """Lakes filled with a brown marker are skin-coloured; the board's ink is too, so no
    space is called a hand and the Lake is seen."""
    path, _, played = _render(BROWN_LAKES, tmp_path_factory, "mix")
    assert "lake" in played
    reading = recognizer.read(path)
    assert reading.ink.skin_spaces() == frozenset()
    assert "lake" in {s.name for s in reading.expansions_seen}


def test_a_lake_under_a_hand_stays_a_lake(recognizer, no_skin_test, tmp_path_factory):
    """The spaces a hand lies on are no evidence of water, but where the rest of the board
    shows the lake they keep the water they were read with."""
    path, truth, played = _render(LAKE_UNDER_HAND, tmp_path_factory, "mix")
    assert "lake" in played
    reading, plain = recognizer.read(path), no_skin_test.read(path)
    hands = reading.ink.skin_spaces()
    lakes = {(r, c) for r in range(7) for c in range(7) if "L" in side_letters(truth[r][c])}
    assert hands & lakes
    assert any("L" in side_letters(reading.grid[r][c]) for r, c in hands & lakes)
    assert "lake" in {s.name for s in reading.expansions_seen}
    assert reading.grid == plain.grid


def test_nothing_is_skin_on_a_grey_photo(recognizer):
    board = cv2.cvtColor(cv2.imread("sample_photos/board_01.jpg"), cv2.COLOR_BGR2GRAY)
    assert recognizer.read(board).ink.skin_spaces() == frozenset()
    assert InkCheckParams().skin_test
