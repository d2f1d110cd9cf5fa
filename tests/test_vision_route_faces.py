"""Routes no die gives (vision.route_faces): dead ends and three-sided stations, told apart
from every drawing of the Route dice, the Station/overpass die and the Special Routes; on a
board read with water the decoder weighs them a little less where it is unsure, on a board
without water not, on real photos."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from tests.decoder_boards import one_space_unsure
from tests.project_scripts import load_script
from vision.decode import DecodeParams, decode
from vision.recognizer import ReadParams, Recognizer
from vision.render.tokens import BASE_TOKENS, EMPTY
from vision.route_faces import is_odd_route, odd_route_mask
from vision.space_parts import CLASSES, side_letters
from vision.water_sighting import reads_water


def test_no_drawing_of_the_base_dice_is_odd():
    assert len(BASE_TOKENS) > 40
    assert not any(is_odd_route(token) for token in BASE_TOKENS)


def test_the_odd_routes_are_the_dead_ends_and_three_sided_stations():
    base = [t for t in CLASSES if t != EMPTY and set(side_letters(t)) <= {"H", "R", "_"}]
    odd = {t for t in base if is_odd_route(t)}
    assert odd == set(base) - set(BASE_TOKENS)
    assert len(odd) == 32  # 8 dead ends, 24 three-sided stations
    assert {t for t in odd if side_letters(t).count("_") == 3} == {
        "H___", "_H__", "__H_", "___H", "R___", "_R__", "__R_", "___R"}
    assert not any(is_odd_route(t) for t in CLASSES if set(side_letters(t)) & {"W", "L"})
    mask = odd_route_mask(list(CLASSES))
    assert int(mask.sum()) == 32 and not mask.flags.writeable


@pytest.fixture(scope="module")
def river_board(tmp_path_factory):
    """Deep Blue phone tuning render 9350127 (scripts/evaluate.py --seed 9350000 --expansion
    mix --conditions phone), saved as evaluate.py saves it, and its true grid."""
    photo, _ = load_script("evaluate").render_case(9_350_127, None, "phone", "mix")
    path = tmp_path_factory.mktemp("route_faces") / "phone.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path, photo.grid


def test_unsure_routes_are_not_read_as_dead_ends(river_board):
    """Three unsure spaces of a dim photo, a railway under a pen among them, which the
    decoder read as dead ends (one side facing an empty space agreed better with it) and
    now reads as the straight routes they are. Since the board's own divide between railway
    and highway (vision.route_balance.split_routes) the third, a highway, is read right
    without the penalty too; the two railways still need it."""
    path, truth = river_board
    spaces = {(1, 0): "_R_R", (2, 2): "R_R_", (3, 1): "_H_H"}
    assert all(truth[r][c] == token for (r, c), token in spaces.items())
    without = Recognizer.load(params=replace(ReadParams(), decode=DecodeParams(
        odd_route_penalty=0.0))).read(path)
    assert all(is_odd_route(without.grid[r][c]) for r, c in [(1, 0), (2, 2)])
    reading = Recognizer.load().read(path)
    assert {rc: reading.grid[rc[0]][rc[1]] for rc in spaces} == spaces
    wrong = [(r, c) for r in range(7) for c in range(7) if reading.grid[r][c] != truth[r][c]]
    assert len(wrong) < len([(r, c) for r in range(7) for c in range(7)
                             if without.grid[r][c] != truth[r][c]])
    listed = {(e.row, e.col) for e in reading.review}
    assert set(spaces) <= listed  # unsure, they stay in review


def test_a_base_boards_unsure_three_sided_station_stays_as_drawn(tmp_path):
    """Base tuning render 7200086 (scripts/evaluate.py --seed 7200000), a board with drawings
    that break the rules: a three-sided station drawn by mistake, read at 0.58. A board read
    without water is read by the base-game reader, whose odd drawings are as often a
    player's as a misread, so the penalty is not taken there: the station stays, in review,
    and its loose ends count as the Errors the player drew."""
    photo, _ = load_script("evaluate").render_case(7_200_086)
    path = tmp_path / "base.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert photo.grid[6][2] == "H_RH" and is_odd_route("H_RH")
    reading = Recognizer.load().read(path)
    assert reading.expansions_seen == []
    assert reading.grid[6][2] == "H_RH"
    entry = next(e for e in reading.review if (e.row, e.col) == (6, 2))
    assert entry.reason.startswith("uncertain reading")


def test_the_decoder_weighs_an_unsure_dead_end_less_on_a_board_with_water_alone():
    # a highway ending at (3, 3): read first as a dead end, a straight highway close behind
    unsure = {"H___": 0.5, "H_H_": 0.3, "HL__": 0.2}
    wet, dry = one_space_unsure(unsure, sure={(0, 0): "_W_W"}), one_space_unsure(unsure)
    classes = list(CLASSES)
    assert reads_water(wet.reshape(49, -1), classes)
    assert not reads_water(dry.reshape(49, -1), classes)
    no_neighbours = DecodeParams(agreement_weight=0.0)
    assert decode(dry, classes, no_neighbours).grid[3][3] == "H___"
    assert decode(wet, classes, no_neighbours).grid[3][3] == "H_H_"
    off = DecodeParams(agreement_weight=0.0, odd_route_penalty=0.0)
    assert decode(wet, classes, off).grid[3][3] == "H___"


def test_an_unsure_dead_end_is_never_moved_onto_water_it_was_not_read_with():
    # the lake reading is the nearest after the dead end; the penalty may not make it water
    unsure = {"H___": 0.45, "HL__": 0.42, "H_H_": 0.13}
    classes = list(CLASSES)
    reading = decode(one_space_unsure(unsure, sure={(0, 0): "_W_W"}), classes,
                     DecodeParams(agreement_weight=0.0))
    assert reading.grid[3][3] == "H___"
    assert not set(side_letters(reading.grid[3][3])) & {"W", "L"}
