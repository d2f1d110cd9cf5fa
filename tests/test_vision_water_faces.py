"""Water no die gives (vision.water_faces): the reader's notion agrees with the scorer's and
with the renderer's dice, the decoder weighs such drawings a little less where it is unsure,
and one water space read beyond doubt in a die's drawing shows its expansion
(vision.water_sighting)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from scoring.space import EMPTY_TOKEN
from tests.decoder_boards import one_space_unsure
from tests.expansion_boards import codes, scored
from tests.project_scripts import load_script
from vision.decode import DecodeParams, decode
from vision.recognizer import Recognizer
from vision.render.tokens import orientations
from vision.render.water_games import FULL_LAKE, LAKE_DIE, ODD_WATER, RIVER_DIE
from vision.space_parts import CLASSES, side_letters
from vision.water_faces import is_odd_water, odd_water_mask
from vision.water_sighting import WaterParams, sight_water

# codes the scorer gives a space whose water no die gives
NOT_A_FACE = {"river-not-a-face", "river-joins-route", "river-no-bridge", "lake-not-a-face"}


def _water(token: str) -> bool:
    return any(letter in side_letters(token) for letter in "WL")


@pytest.mark.parametrize("face", RIVER_DIE + LAKE_DIE + (FULL_LAKE,))
def test_every_face_of_the_dice_in_every_turn_is_a_face(face):
    for token in orientations(face):
        assert not is_odd_water(token), token


@pytest.mark.parametrize("odd", ODD_WATER)
def test_the_renderers_mistaken_water_is_odd_in_every_turn(odd):
    for token in orientations(odd):
        assert is_odd_water(token), token


def test_the_reader_and_the_scorer_agree_on_every_water_class():
    """A class is odd water exactly when the scorer, given it alone on a board, reports it as
    no die face (or a river joined to a route, a crossing without a bridge)."""
    for token in CLASSES:
        if not _water(token):
            assert not is_odd_water(token), token
            continue
        expansions = [name for letter, name in (("W", "river"), ("L", "lake"))
                      if letter in side_letters(token)]
        sheet = scored(", ".join(expansions), {(3, 3): token})
        assert is_odd_water(token) == bool(NOT_A_FACE & set(codes(sheet))), token
    mask = odd_water_mask(list(CLASSES))
    assert mask.sum() > 0 and not mask.flags.writeable


def test_an_unsure_branching_river_gives_way_to_a_junction_the_dice_give():
    classes = list(CLASSES)
    probs = one_space_unsure({"WWW_": 0.5, "HHH_": 0.4, "W_W_": 0.1})
    assert decode(probs, classes, DecodeParams(odd_water_penalty=0.0)).grid[3][3] == "WWW_"
    decoded = decode(probs, classes)
    assert decoded.grid[3][3] == "HHH_"
    [entry] = decoded.review
    assert "read as WWW_ (0.50, water no die gives)" in entry.reason
    # a sure reading is never changed: a player's mistake still shows up
    sure = one_space_unsure({"WWW_": 0.98, "HHH_": 0.02})
    assert decode(sure, classes).grid[3][3] == "WWW_"


def _lone(token: str, p: float, params: WaterParams | None = None):
    params = params or WaterParams()
    classes = list(CLASSES)
    grid = [[EMPTY_TOKEN] * 7 for _ in range(7)]
    grid[3][3] = token
    return sight_water(grid, one_space_unsure({token: p, "H_H_": 1 - p}), classes, [], params)


def test_one_water_space_read_beyond_doubt_shows_its_expansion():
    grid, review, [seen] = _lone("H_H_+_W_W", 0.9995)
    assert seen.name == "river" and seen.spaces == ((3, 3),)
    assert seen.reason == "1 space drawn with a river (row 3, column 3), read beyond doubt"
    assert grid[3][3] == "H_H_+_W_W" and review == []
    _, _, [lake] = _lone("L_H_", 0.9995)
    assert lake.name == "lake"


@pytest.mark.parametrize("token, p", [("H_H_+_W_W", 0.99), ("WWW_", 0.99999), ("W___", 1.0)])
def test_a_lone_water_space_in_doubt_or_in_no_dies_drawing_is_read_again(token, p):
    grid, [entry], seen = _lone(token, p)
    assert seen == [] and not _water(grid[3][3])
    assert f"read as {token}" in entry.reason and "too little of the board" in entry.reason


def test_lone_water_can_be_switched_off():
    _, _, seen = _lone("H_H_+_W_W", 1.0, replace(WaterParams(), lone_sure=2.0))
    assert seen == []


def test_a_lone_water_space_on_a_board_with_a_hand_is_read_again():
    classes = list(CLASSES)
    grid = [[EMPTY_TOKEN] * 7 for _ in range(7)]
    grid[3][3] = "H_H_+_W_W"
    probs = one_space_unsure({"H_H_+_W_W": 0.9999, "H_H_": 0.0001})
    new_grid, _, seen = sight_water(grid, probs, classes, [], hands=frozenset({(5, 5)}))
    assert seen == [] and new_grid[3][3] == "H_H_"


def test_water_read_again_never_becomes_water_already_found_missing():
    """A lake too small to be sure of is read again without lake, and not as a river on a
    board that shows none (its second-best class here is a river end)."""
    classes = list(CLASSES)
    grid = [[EMPTY_TOKEN] * 7 for _ in range(7)]
    grid[3][3] = "__L_"
    probs = one_space_unsure({"__L_": 0.6, "W___": 0.3, "__H_": 0.1})
    new_grid, [entry], seen = sight_water(grid, probs, classes, [])
    assert seen == [] and new_grid[3][3] == "__H_"
    assert entry.reason.endswith("read as __H_")


# Deep Blue tuning renders (scripts/evaluate.py --seed 9150000 --expansion mix)
LONE_BRIDGE = 9150102  # River and Lake, one river space: a highway bridge, read beyond doubt
BLUE_HIGHWAYS = 9150280  # River and Lake, blue marker: some highways read as branching rivers


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


def _render(seed: int, tmp_path_factory) -> tuple[str, list[list[str]], tuple[str, ...]]:
    """The photo of ``seed`` as scripts/evaluate.py renders it: (path, truth, played)."""
    photo, played = load_script("evaluate").render_case(seed, expansion="mix")
    path = tmp_path_factory.mktemp("water_faces") / f"deep_blue_{seed}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path), photo.grid, played


def test_a_river_game_with_one_river_space_is_scored_with_river(recognizer, tmp_path_factory):
    path, truth, played = _render(LONE_BRIDGE, tmp_path_factory)
    assert played == ("river", "lake")
    [(r, c)] = [(r, c) for r in range(7) for c in range(7) if "W" in side_letters(truth[r][c])]
    reading = recognizer.read(path)
    seen = {s.name: s for s in reading.expansions_seen}
    assert set(seen) == {"river", "lake"}
    assert seen["river"].spaces == ((r, c),) and "read beyond doubt" in seen["river"].reason
    assert reading.grid == truth
    params = recognizer.params
    strict = Recognizer.load(params=replace(params, water=replace(params.water, lone_sure=2.0)))
    before = strict.read(path)
    assert [s.name for s in before.expansions_seen] == ["lake"]
    assert "W" not in side_letters(before.grid[r][c])
    assert (r, c) in {(e.row, e.col) for e in before.review}


def test_highways_are_less_often_read_as_water_no_die_gives(recognizer, tmp_path_factory):
    path, truth, _ = _render(BLUE_HIGHWAYS, tmp_path_factory)
    params = recognizer.params
    unweighed = Recognizer.load(params=replace(
        params, decode=replace(params.decode, odd_water_penalty=0.0)))

    def odd_and_wrong(grid):
        return {(r, c) for r in range(7) for c in range(7)
                if is_odd_water(grid[r][c]) and grid[r][c] != truth[r][c]}

    before, after = odd_and_wrong(unweighed.read(path).grid), odd_and_wrong(
        recognizer.read(path).grid)
    assert len(after) < len(before)
    assert after <= before
