"""Lake expansion rules: Smallest Lake, networks through Lakes, lake sides and Errors."""

from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, codes, scored


def lake(spaces: Spaces) -> ScoreSheet:
    return scored("lake", spaces)


def test_no_lake_scores_nothing() -> None:
    assert lake({}).expansions == {"lake": 0}


def test_a_lone_pier_is_a_lake_of_one_space() -> None:
    sheet = lake({(3, 3): "L_H_", (2, 2): "_L__", (2, 3): "___L"})
    assert sheet.expansions == {"lake": 1}
    assert "Lakes of 1, 2" in sheet.expansion_lines["lake"]


def test_open_lake_sides_are_never_errors() -> None:
    sheet = lake({(3, 3): "LLL_", (5, 5): "LLLL"})
    assert sheet.errors == []
    assert sheet.expansions == {"lake": 1}


def test_a_route_end_facing_water_without_a_pier_is_one_error() -> None:
    sheet = lake({(3, 3): "_L__", (3, 4): "___H"})
    assert [(e.row, e.col, e.side.name, e.kind) for e in sheet.errors] == [(3, 4, "W", "H")]
    assert sheet.errors[0].reason == "meets a lake end"
    assert codes(sheet) == []


def test_an_empty_space_between_three_lake_sides_must_be_filled() -> None:
    spaces = {(2, 3): "__L_", (3, 2): "_L__", (3, 4): "___L"}
    sheet = lake(spaces)
    assert codes(sheet) == ["lake-not-filled"]
    assert [(p.row, p.col) for i in sheet.illegal for p in i.places] == [(3, 3)]
    filled = lake({**spaces, (3, 3): "LLLL"})
    assert codes(filled) == []
    assert filled.expansions == {"lake": 4}  # the filled space joins the three into one Lake


def test_a_drawn_space_between_lake_sides_is_not_reported() -> None:
    spaces = {(2, 3): "__L_", (3, 2): "_L__", (3, 4): "___L", (3, 3): "_H_H"}
    assert "lake-not-filled" not in codes(lake(spaces))


def test_water_that_no_die_shows_is_reported() -> None:
    assert "lake-not-a-face" in codes(lake({(3, 3): "L_L_"}))
    assert "lake-not-a-face" in codes(lake({(3, 3): "L___+_H_H"}))
    assert "lake-not-a-face" in codes(lake({(3, 3): "LH__"}))
    for face in ("L___", "_LL_", "L_LL", "LLLL", "_R_L", "H_L_", "LLHR", "HRLL", "RLLH"):
        assert "lake-not-a-face" not in codes(lake({(3, 3): face})), face


def test_longest_routes_do_not_cross_a_lake() -> None:
    """Two highway piers on one Lake join their networks, not their highways."""
    spaces = {
        (3, 0): "_H_H", (3, 1): "_L_H", (3, 2): "_LLL", (3, 3): "_H_L",
        (3, 4): "_H_H", (3, 5): "_H_H", (3, 6): "_H_H",
    }
    sheet = lake(spaces)
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.highway == 4
    assert sheet.expansions == {"lake": 3}


def test_a_full_lake_space_needs_three_lake_sides_around_it() -> None:
    sheet = lake({(3, 3): "LLLL", (3, 4): "___L"})
    assert codes(sheet) == ["lake-fill-unneeded"]
    assert "only 1 of its sides" in sheet.illegal[0].message


def test_more_lake_die_spaces_than_two_dice_give_in_six_rounds_are_reported() -> None:
    # 12 one-side lakes along the top and bottom rows (not columns 0 and 6): the most
    twelve = {**{(0, c): "L___" for c in range(6)}, **{(6, c): "__L_" for c in range(6)}}
    assert "too-many-lakes" not in codes(scored("lake", twelve))
    sheet = scored("lake", {**twelve, (3, 3): "L___"})
    assert codes(sheet).count("too-many-lakes") == 1
    assert len(sheet.illegal[codes(sheet).index("too-many-lakes")].places) == 13


def test_spaces_filled_with_water_do_not_count_against_the_dice() -> None:
    # 9 one-side lakes on the top and bottom rows, 3 around a space filled with water
    spaces = {**{(0, c): "L___" for c in range(5)}, **{(6, c): "__L_" for c in range(4)}}
    spaces.update({(3, 2): "_L__", (2, 3): "__L_", (3, 4): "___L", (3, 3): "LLLL"})
    sheet = scored("lake", spaces)
    assert codes(sheet) == []  # 12 die spaces and 1 filled: 13 Lake spaces in all
    assert sheet.expansions == {"lake": 1}
