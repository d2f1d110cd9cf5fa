"""Power Grid expansion rules: powered Exits, charges, the Accumulator and its Errors."""

import pytest

from scoring.board import GridError
from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, codes, scored


def grid(spaces: Spaces, *lines: str) -> ScoreSheet:
    """Scored with Power Grid, the Accumulator drawn in the centre."""
    return scored("power-grid", {(3, 3): ".#", **spaces}, *lines)


# Railway from the top Exit of column 3 down to the Accumulator.
COLUMN_3 = {(0, 3): "R_R_", (1, 3): "R_R_", (2, 3): "R_R_"}


def test_powered_exits_times_charges() -> None:
    sheet = grid(COLUMN_3, "electrified: 0,3 1,3 2,3", "charges: 3")
    assert sheet.expansions == {"power-grid": 3}
    assert codes(sheet) == []


def test_a_gap_in_the_lightning_cuts_the_exit_off() -> None:
    sheet = grid(COLUMN_3, "electrified: 0,3 2,3", "charges: 1")
    assert sheet.expansions == {"power-grid": 0}


def test_route_ends_facing_the_accumulator_are_not_errors() -> None:
    assert grid(COLUMN_3).errors == []
    base = scored("river", {(3, 3): ".#", **COLUMN_3})
    assert [(e.row, e.col, e.side.name) for e in base.errors] == [(2, 3, "S")]


def test_the_accumulator_counts_as_a_central_space() -> None:
    assert grid({}).center == 1


def test_no_charges_no_points() -> None:
    assert grid(COLUMN_3, "electrified: 0,3 1,3 2,3").expansions == {"power-grid": 0}


@pytest.mark.parametrize("spaces, lines, code", [
    ({}, ("electrified: 2,3",), "electrified-no-route"),
    (COLUMN_3, ("electrified: 3,3",), "electrified-accumulator"),
    (COLUMN_3, ("electrified: 0,3 0,3",), "electrified-twice"),
])
def test_impossible_lightning_is_reported(spaces, lines, code) -> None:
    assert code in codes(grid(spaces, *lines))


def test_a_missing_or_misplaced_accumulator_is_reported() -> None:
    missing = scored("power-grid", COLUMN_3)
    assert codes(missing) == ["no-accumulator"]
    moved = scored("power-grid", {(2, 2): ".#"})
    assert codes(moved) == ["accumulator-place"]


def test_more_than_three_charges_is_a_bad_key_line() -> None:
    with pytest.raises(GridError, match="'charges: 4'"):
        grid(COLUMN_3, "charges: 4")


def test_an_exit_counts_only_when_a_route_of_its_kind_reaches_it() -> None:
    """Row 0, column 3 electrified, but its route runs east-west, not into the top Exit."""
    spaces = {(0, 3): "_R_R", (1, 3): "R_R_", (2, 3): "R_R_"}
    sheet = grid(spaces, "electrified: 0,3 1,3 2,3", "charges: 2")
    assert sheet.expansions == {"power-grid": 0}


@pytest.mark.parametrize("lines", [
    ("charges: 3",),                         # no lightning at all: three "?" faces
    ("electrified: 0,3", "charges: 1"),      # lightning that does not reach the Accumulator
])
def test_charges_from_the_question_mark_face_need_no_lightning(lines) -> None:
    """RULINGS.md: the "?" face charges the Accumulator by 1, no electrified space needed;
    the board cannot show which face filled a circle, so such charges are legal."""
    sheet = grid(COLUMN_3, *lines)
    assert codes(sheet) == []
    assert sheet.expansions == {"power-grid": 0}  # no Exit joined to the Accumulator
