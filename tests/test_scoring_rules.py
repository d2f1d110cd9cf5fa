"""One test per rule and ruling of the base game (RULINGS.md), on small real boards."""

import pytest

from scoring import engine
from scoring.board import Board
from scoring.exits import EXITS, exit_at
from scoring.results import network_points
from scoring.sides import Side


def board(*placed: tuple[int, int, str]) -> Board:
    """An otherwise empty board with the given tokens at (row, col)."""
    rows = [["."] * 7 for _ in range(7)]
    for row, col, token in placed:
        rows[row][col] = token
    return Board.from_tokens(rows)


def score(*placed, **options):
    return engine.score(board(*placed), **options)


# -- the board -------------------------------------------------------------------------------
def test_twelve_exits_alternate_highway_railway_round_the_board():
    assert len(EXITS) == 12
    assert [e.kind for e in EXITS] == ["H", "R"] * 6
    assert exit_at(0, 1, Side.N).kind == "H" and exit_at(0, 3, Side.N).kind == "R"
    assert exit_at(1, 0, Side.W).kind == "R" and exit_at(3, 6, Side.E).kind == "H"
    assert exit_at(6, 5, Side.S).kind == "H" and exit_at(0, 0, Side.N) is None


@pytest.mark.parametrize("exits,points", [(1, 0), (2, 4), (3, 8), (4, 12), (5, 16), (6, 20),
                                          (7, 24), (8, 28), (9, 32), (10, 36), (11, 40),
                                          (12, 45)])
def test_network_values_table(exits, points):
    assert network_points(exits) == points


# -- networks and Exits ----------------------------------------------------------------------
def test_straight_highway_joins_top_and_bottom_exits():
    sheet = score(*[(r, 1, "H_H_") for r in range(7)])
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.exits_points == 4 and sheet.errors == []


def test_one_exit_network_scores_zero_and_is_left_out_of_json_networks():
    sheet = score((0, 1, "H_H_"), (1, 1, "H_H_"), (2, 1, "H___"))
    assert [n.exit_count for n in sheet.networks] == [1]
    assert sheet.exits_points == 0
    assert sheet.to_json()["networks"] == []


def test_station_joins_highway_and_railway():
    # highway from the top Exit at column 1 turns at a station into a railway to the left Exit
    sheet = score((0, 1, "H_H_"), (1, 1, "H__R"), (1, 0, "_R_R"))
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.total == 4 + 2 + 2  # network; highway and railway both 2 (the station counts)


def test_overpass_does_not_join_its_two_routes():
    sheet = score((0, 1, "H_H_"), (1, 1, "HRHRo"), (2, 1, "H_H_"), (1, 0, "_R_R"),
                  (1, 2, "_R_R"))
    exits = sorted(n.exit_count for n in sheet.networks)
    assert exits == [1, 1]  # top highway Exit and left railway Exit, not joined
    assert sheet.highway == 3 and sheet.railway == 3  # the overpass is on both routes


def test_route_end_of_the_other_type_at_an_exit_does_not_connect_and_is_illegal():
    sheet = score((0, 3, "H_H_"), (1, 3, "H___"))  # highway into the top railway Exit
    assert sheet.networks == []
    assert sheet.errors == []  # an end on the outer edge is never an Error
    assert [i.code for i in sheet.illegal] == ["wrong-exit"]
    assert sheet.illegal[0].words == (
        "row 0, column 3, north side: highway end drawn into the top Exit at column 3 (railway)")


# -- Errors ----------------------------------------------------------------------------------
def test_end_on_outer_edge_without_exit_is_not_an_error():
    sheet = score((0, 0, "HH__"), (0, 1, "___H"))  # north end of (0,0) on the edge, no Exit
    assert sheet.errors == []


def test_end_facing_an_empty_space_is_an_error():
    sheet = score((3, 3, "_H__"))
    assert [e.words for e in sheet.errors] == [
        "row 3, column 3, east side: highway end faces an empty space"]


def test_end_meeting_a_blank_side_is_an_error():
    sheet = score((3, 3, "_R_R"), (3, 4, "R_R_"))
    assert [e.words for e in sheet.errors] == [
        "row 3, column 3, east side: railway end meets a blank side",
        "row 3, column 3, west side: railway end faces an empty space",
        "row 3, column 4, north side: railway end faces an empty space",
        "row 3, column 4, south side: railway end faces an empty space",
    ]


def test_railway_meeting_highway_is_two_errors_and_illegal():
    sheet = score((3, 3, "_R__"), (3, 4, "___H"))
    assert [(e.row, e.col, e.side, e.reason) for e in sheet.errors] == [
        (3, 3, Side.E, "meets a highway end"), (3, 4, Side.W, "meets a railway end")]
    assert [i.code for i in sheet.illegal] == ["mixed-ends"]
    assert sheet.networks == []


def test_errors_are_subtracted_from_the_total():
    sheet = score((3, 3, "HHHH"))
    assert sheet.error_count == 4
    assert sheet.total == 1 + 1 - 4  # highway 1, central space 1


# -- Longest routes --------------------------------------------------------------------------
def test_single_space_counts_one():
    sheet = score((0, 0, "R___"))
    assert sheet.railway == 1 and sheet.highway == 0


def test_longest_route_ignores_branches():
    # a T: the stem and one arm of the cross bar make the longest simple path
    sheet = score((3, 2, "_H_H"), (3, 3, "_HHH"), (3, 4, "_H_H"), (4, 3, "H_H_"), (5, 3, "H___"))
    assert sheet.highway == 4


def test_longest_route_does_not_count_a_loop_twice_by_default():
    loop = ((2, 2, "_HH_"), (2, 3, "__HH"), (3, 3, "H__H"), (3, 2, "HH__"))
    assert score(*loop).highway == 4
    assert score(*loop, reentrant_longest=True).highway == 5  # closing the loop adds 1


def test_longest_route_passes_through_a_station_along_its_own_kind():
    sheet = score((3, 2, "_H_H"), (3, 3, "_HRH"), (3, 4, "_H_H"))
    assert sheet.highway == 3 and sheet.railway == 1


def test_full_board_of_crossings_has_a_49_space_highway():
    sheet = score(*[(r, c, "HHHH") for r in range(7) for c in range(7)])
    assert sheet.highway == 49
    assert len(set(sheet.highway_route)) == 49


def test_only_one_longest_route_counts():
    sheet = score((0, 0, "_H__"), (0, 1, "___H"), (6, 6, "_H__"), (6, 5, "_H_H"))
    assert sheet.highway == 2  # a 2-space and a 2-space-plus-error route: counted once


# -- Central Spaces --------------------------------------------------------------------------
def test_central_spaces_count_any_drawing_in_the_middle_nine():
    sheet = score((2, 2, "H___"), (4, 4, "HRHRo"), (1, 1, "HHHH"), (3, 5, "H_H_"))
    assert sheet.center == 2


# -- Special Routes --------------------------------------------------------------------------
def test_four_special_routes_are_illegal():
    sheet = score((0, 0, "HHHH"), (0, 2, "RRRR"), (0, 4, "HHRH"), (0, 6, "HRRR"))
    assert [i.code for i in sheet.illegal] == ["too-many-specials"]
    assert len(sheet.illegal[0].places) == 4


def test_a_special_route_used_twice_is_illegal_in_any_rotation():
    sheet = score((0, 0, "HHRH"), (6, 6, "RHHH"))
    assert [i.code for i in sheet.illegal] == ["special-twice"]


def test_three_different_specials_and_overpasses_are_legal():
    sheet = score((0, 0, "HHRR"), (0, 2, "HRHR"), (0, 4, "RRRR"), (2, 2, "HRHRo"),
                  (4, 4, "RHRHo"))
    assert sheet.illegal == []


def test_adjacent_and_opposite_highway_stations_are_different_specials():
    sheet = score((0, 0, "HHRR"), (0, 2, "HRHR"))
    assert sheet.illegal == []
    sheet = score((0, 0, "HHRR"), (0, 2, "RRHH"))
    assert [i.code for i in sheet.illegal] == ["special-twice"]


# -- the score sheet -------------------------------------------------------------------------
def test_empty_board_scores_zero():
    assert score().to_json() == {"networks": [], "exits": 0, "highway": 0, "railway": 0,
                                 "center": 0, "errors": 0, "expansions": {}, "total": 0}


def test_twelve_exit_network_scores_45():
    # crossings everywhere, with a station at each railway Exit: one network, all 12 Exits
    stations = {(0, 3): "RHHH", (6, 3): "HHRH", (1, 0): "HHHR", (5, 0): "HHHR",
                (1, 6): "HRHH", (5, 6): "HRHH"}
    sheet = score(*[(r, c, stations.get((r, c), "HHHH")) for r in range(7) for c in range(7)])
    assert [n.exit_count for n in sheet.networks] == [12]
    assert sheet.exits_points == 45 and sheet.errors == []


def test_street_lamp_crossings_are_not_special_routes():
    lamps = [(0, col, "HHHH*") for col in (0, 2, 4, 6)]
    assert score(*lamps, expansions=["street-lamps"]).illegal == []
    assert score(*[(0, col, "HHHH") for col in (0, 2, 4, 6)]).illegal != []


def test_quarter_turn_swaps_highway_and_railway_exits():
    column = board(*[(r, 1, "H_H_") for r in range(7)])  # top 1 and bottom 1 are highway Exits
    assert engine.score(column).exits_points == 4
    turned = engine.score(column.turned(1))  # now along row 1, whose Exits are railway
    assert turned.networks == [] and turned.exits_points == 0
    assert [i.code for i in turned.illegal] == ["wrong-exit", "wrong-exit"]
    assert engine.score(column.turned(2)).to_json() == engine.score(column).to_json()


def test_exits_are_not_spaces_of_a_longest_route():
    sheet = score((0, 1, "H_H_"))  # joined to the top Exit, open at the bottom
    assert sheet.highway == 1 and sheet.error_count == 1
