"""Tentacle expansion rules: points, shared spaces, and the drawing rules."""

import pytest

from scoring.board import GridError
from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, codes, scored


def tentacle(spaces: Spaces, *paths: str) -> ScoreSheet:
    return scored("tentacle", spaces, *(f"tentacle: {path}" for path in paths))


# Straight highways at row 2, columns 1-2, and a curve (north-east) at row 2, column 3.
ROUTES = {(2, 1): "H_H_", (2, 2): "H_H_", (2, 3): "HH__"}


def test_fig_3b_a_tentacle_through_three_routes_is_worth_five() -> None:
    """From the left edge under two straights, then curving beside the curve, tip below it."""
    sheet = tentacle(ROUTES, "2,0 2,1 2,2 2,3 3,3")
    assert sheet.expansions == {"tentacle": 5}
    assert codes(sheet) == []


def test_tentacle_spaces_count_as_drawn_central_spaces() -> None:
    empty = scored("tentacle", {})
    assert empty.center == 0
    sheet = tentacle({}, "0,2 1,2 2,2 3,2 4,2")
    assert sheet.center == 3
    assert sheet.expansions == {"tentacle": 2}


def test_a_space_shared_by_two_tentacles_and_a_route_scores_once() -> None:
    """Two Tentacle tips meet under one straight highway: that space scores 1, not 2."""
    spaces = {(2, 2): "H_H_"}
    sheet = tentacle(spaces, "2,0 2,1 2,2", "2,6 2,5 2,4 2,3 2,2")
    assert sheet.expansions == {"tentacle": 2 * 2 + 1}
    assert codes(sheet) == []


@pytest.mark.parametrize("path", ["0,0 0,1", "0,0 1,0 2,0 3,0 4,0 5,0"])
def test_length_must_be_a_die_face(path: str) -> None:
    sheet = tentacle({}, path)
    assert codes(sheet) == ["tentacle-length"]
    assert sheet.expansions == {"tentacle": 2}  # still scored as drawn


@pytest.mark.parametrize("path, words", [
    ("3,3 3,4 3,5", "does not start on an outer-edge space"),
    ("0,1 1,1 2,1", "starts in a space with an Exit"),
    ("3,0 3,1 3,2", "starts in a space with an Exit"),
])
def test_start_on_an_edge_space_without_an_exit(path: str, words: str) -> None:
    sheet = tentacle({}, path)
    assert codes(sheet) == ["tentacle-start"]
    assert words in sheet.illegal[0].message


def test_corner_start_is_allowed() -> None:
    assert codes(tentacle({}, "6,6 5,6 4,6")) == []


def test_steps_go_to_neighbours_and_never_turn_back() -> None:
    assert "tentacle-path" in codes(tentacle({}, "0,0 0,2 0,3"))
    assert "tentacle-path" in codes(tentacle({}, "0,0 0,1 0,0"))


def test_a_tentacle_cannot_run_along_a_straight_route() -> None:
    sheet = tentacle({(1, 0): "H_H_"}, "0,0 1,0 2,0")
    assert codes(sheet) == ["tentacle-space"]


def test_a_tentacle_cannot_enter_a_junction_or_overpass() -> None:
    assert "tentacle-space" in codes(tentacle({(0, 1): "_HHH"}, "0,0 0,1 0,2"))
    assert "tentacle-space" in codes(tentacle({(2, 1): "HRHRo"}, "2,0 2,1 2,2"))


def test_a_tentacle_beside_a_curve_must_use_the_two_free_sides() -> None:
    curve = {(2, 1): "HH__"}  # north and east used; west and south free
    assert codes(tentacle(curve, "2,0 2,1 3,1")) == []
    assert "tentacle-space" in codes(tentacle(curve, "2,0 2,1 2,2"))


def test_tentacles_cross_each_other_only_at_right_angles() -> None:
    assert codes(tentacle({}, "2,0 2,1 2,2 2,3", "0,2 1,2 2,2 3,2")) == []
    assert codes(tentacle({}, "2,0 2,1 2,2 2,3", "0,4 1,4 2,4 2,3 2,2")) == ["tentacle-space"] * 2


def test_bad_tentacle_line_is_a_grid_error() -> None:
    with pytest.raises(GridError, match="bad key line 'tentacle: 0,0 0,9'"):
        tentacle({}, "0,0 0,9")


# The four corners, and for each the two neighbours a Tentacle can step to from it.
CORNERS = {(0, 0): ((1, 0), (0, 1)), (0, 6): ((1, 6), (0, 5)), (6, 6): ((5, 6), (6, 5)),
           (6, 0): ((5, 0), (6, 1))}


def path(*spaces: tuple[int, int]) -> str:
    return " ".join(f"{r},{c}" for r, c in spaces)


@pytest.mark.parametrize("corner", sorted(CORNERS))
def test_two_tentacles_start_in_one_corner_one_by_each_outer_side(corner) -> None:
    """One comes in by each outer side of the corner; they cross (or curve) there."""
    (r, c), ((r1, c1), (r2, c2)) = corner, CORNERS[corner]
    down = path((r, c), (r1, c1), (2 * r1 - r, 2 * c1 - c))
    along = path((r, c), (r2, c2), (2 * r2 - r, 2 * c2 - c))
    sheet = tentacle({}, down, along)
    assert codes(sheet) == []
    assert sheet.expansions == {"tentacle": 4}


def test_a_third_tentacle_from_the_same_corner_finds_no_free_side() -> None:
    sheet = tentacle({}, "0,0 1,0 2,0", "0,0 0,1 0,2", "0,0 1,0 1,1")
    assert "tentacle-space" in codes(sheet)


def test_a_corner_tentacle_comes_in_by_the_side_a_route_leaves_free() -> None:
    # a straight highway north-south in the corner: the Tentacle enters by the west side and
    # passes under it to the east; southwards it would run along it
    assert codes(tentacle({(0, 0): "H_H_"}, "0,0 0,1 0,2")) == []
    assert codes(tentacle({(0, 0): "H_H_"}, "0,0 1,0 2,0")) == ["tentacle-space"]


def test_more_tentacles_than_rounds_are_reported() -> None:
    # one Tentacle a round, 7 rounds: 7 Tentacles of 3 down columns 0, 2, 4, 6 and up 0, 2, 4
    downs = [f"0,{c} 1,{c} 2,{c}" for c in (0, 2, 4, 6)]
    ups = [f"6,{c} 5,{c} 4,{c}" for c in (0, 2, 4)]
    assert codes(tentacle({}, *downs, *ups)) == []
    sheet = tentacle({}, *downs, *ups, "6,6 5,6 4,6")
    assert codes(sheet) == ["too-many-tentacles"]
    assert len(sheet.illegal[0].places) == 8
    assert sheet.expansions == {"tentacle": 16}  # still scored as drawn
