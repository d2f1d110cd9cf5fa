"""Street Lamps expansion rules: activated lamps, double pieces, and activation checks."""

import pytest

from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, codes, scored


def lamps(spaces: Spaces, *lines: str) -> ScoreSheet:
    return scored("street-lamps", spaces, *lines)


ROW_OF_LAMPS = {(0, 0): "_H_H*", (0, 2): "_H_H*", (0, 4): "_H_H*", (5, 5): "RRRR"}


def test_only_activated_lamps_score() -> None:
    sheet = lamps(ROW_OF_LAMPS, "lamps activated: 0,2 0,4")
    assert sheet.expansions == {"street-lamps": 2}
    assert sheet.expansion_lines["street-lamps"] == "2 of 3 lamps activated"


def test_activations_need_special_routes() -> None:
    no_special = {k: v for k, v in ROW_OF_LAMPS.items() if v != "RRRR"}
    sheet = lamps(no_special, "lamps activated: 0,2")
    assert codes(sheet) == ["lamps-not-earned"]


def test_each_special_route_lights_one_row_or_column() -> None:
    spaces = {**ROW_OF_LAMPS, (4, 4): "H_H_*"}
    assert codes(lamps(spaces, "lamps activated: 0,2 0,4")) == []
    assert codes(lamps(spaces, "lamps activated: 0,2 4,4")) == ["lamps-not-earned"]
    assert codes(lamps(spaces, "lamps activated: 0,4 4,4")) == []  # column 4
    two_specials = {**spaces, (5, 2): "HHHH"}
    assert codes(lamps(two_specials, "lamps activated: 0,2 4,4")) == []


def test_a_lamp_crossing_is_not_a_special_route() -> None:
    spaces = {(1, 1): "HHHH*", (1, 3): "HHHH*", (1, 5): "HHHH*", (3, 1): "HHHH*"}
    sheet = lamps(spaces)
    assert "too-many-specials" not in codes(sheet)
    assert "special-twice" not in codes(sheet)
    assert "lamps-not-earned" in codes(lamps(spaces, "lamps activated: 1,1"))


def test_activations_without_a_lamp_or_twice_are_reported() -> None:
    sheet = lamps(ROW_OF_LAMPS, "lamps activated: 0,2 0,2 0,3")
    assert sheet.expansions == {"street-lamps": 1}
    assert sorted(codes(sheet)) == ["lamp-missing", "lamp-twice"]


def test_lamps_belong_on_highway_only_pieces() -> None:
    assert codes(lamps({(3, 3): "R_R_*"})) == ["lamp-not-highway"]
    assert codes(lamps({(3, 3): "H_R_*"})) == ["lamp-not-highway"]


def test_highway_over_highway_keeps_two_separate_networks() -> None:
    """Column 1 top-bottom and row 3 left-right cross at (3,1) without connecting."""
    spaces = {(r, 1): "H_H_" for r in range(7)}
    spaces.update({(3, c): "_H_H" for c in range(7)})
    spaces[3, 1] = "H_H_+_H_H*"
    sheet = lamps(spaces)
    assert [n.exit_count for n in sheet.networks] == [2, 2]
    assert sheet.highway == 7 and sheet.errors == []


def test_double_curve_pieces_do_not_connect() -> None:
    spaces = {(0, 1): "H_H_", (1, 1): "HH__+__HH*", (1, 2): "___H", (2, 1): "H___", (1, 0): "_H__"}
    sheet = lamps(spaces)
    assert [n.exit_count for n in sheet.networks] == [1]
    assert sheet.errors == []


@pytest.mark.parametrize("token", ["H___*", "HH__+__H_*", "H_H_+_H__*", "H___+_H__+__H_*"])
def test_lamp_drawings_no_street_lamp_die_gives_are_reported(token) -> None:
    assert codes(lamps({(3, 3): token})) == ["lamp-not-a-face"]


@pytest.mark.parametrize("token", ["H_H_*", "_HH_*", "HHH_*", "H_HH*", "HHHH*", "_H_H+H_H_*",
                                   "HH__+__HH*", "H__H+_HH_*"])
def test_every_street_lamp_die_face_is_legal(token) -> None:
    assert codes(lamps({(3, 3): token})) == []


def test_more_lamps_than_two_dice_give_in_six_rounds_are_reported() -> None:
    # 12 straight lamps along rows 0 and 6 (columns 0-5): the most the dice give
    twelve = {(r, c): "_H_H*" for r in (0, 6) for c in range(6)}
    assert codes(lamps(twelve)) == []
    sheet = lamps({**twelve, (3, 3): "H_H_*"})
    assert codes(sheet) == ["too-many-lamps"]
    assert len(sheet.illegal[0].places) == 13
