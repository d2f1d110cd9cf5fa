"""Investigation expansion rules: collected Clues, the all-Clues bonus, and their checks."""

from pathlib import Path

import pytest

from scoring.board import Board, GridError, read_grid_file
from scoring.engine import score
from tests.expansion_boards import board, codes, scored

EXAMPLE = Path(__file__).parent / "boards" / "expansions" / "investigation_example.txt"


def with_lines(*lines: str):
    """The Investigation example board with its key lines replaced by lines."""
    example = read_grid_file(EXAMPLE)
    extras = tuple(line.split(": ", 1) for line in ("expansion: investigation", *lines))
    return score(Board(example.spaces, tuple(map(tuple, extras))))


def test_some_clues_score_one_each_without_bonus() -> None:
    sheet = with_lines("investigator: 3,4", "clues collected: 3,1 3,4")
    assert sheet.expansions == {"investigation": 2}
    assert codes(sheet) == []


def test_no_clue_collected_scores_nothing() -> None:
    assert with_lines("investigator: W3").expansions == {"investigation": 0}


def test_no_clues_on_the_board_gives_no_bonus() -> None:
    sheet = scored("investigation", {(3, 0): "_H_H"})
    assert sheet.expansions == {"investigation": 0}


def test_a_collected_clue_where_none_is_drawn_is_reported_and_not_counted() -> None:
    sheet = with_lines("investigator: 3,5", "clues collected: 3,1 3,2")
    assert sheet.expansions == {"investigation": 1}
    assert codes(sheet) == ["clue-missing"]


def test_a_clue_listed_twice_counts_once() -> None:
    sheet = with_lines("investigator: 3,5", "clues collected: 3,1 3,1")
    assert sheet.expansions == {"investigation": 1}
    assert codes(sheet) == ["clue-twice"]


def test_a_clue_out_of_the_investigators_reach_is_reported() -> None:
    spaces = {(3, 0): "_H_H", (3, 1): "_H_H?", (5, 5): "_H_H?"}
    sheet = scored(
        "investigation", spaces, "investigator: 3,1", "clues collected: 3,1 5,5"
    )
    assert codes(sheet) == ["clue-unreachable"]
    assert sheet.expansions == {"investigation": 6}  # still scored as drawn: 2 + 4


def test_an_investigator_still_at_its_exit_has_collected_nothing() -> None:
    assert codes(with_lines("investigator: E3")) == []
    sheet = with_lines("investigator: E3", "clues collected: 3,5")
    assert codes(sheet) == ["investigator-never-moved"]


def test_railway_moves_stop_at_stations_only() -> None:
    """A Clue on a plain railway space between two stations can never be landed on."""
    spaces = {
        (3, 0): "_H_H", (3, 1): "_R_H?", (3, 2): "_R_R?", (3, 3): "_R_R", (3, 4): "_H_R",
        (3, 5): "_H_H",
    }
    lines = ("expansion: investigation", "investigator: 3,5")
    sheet = score(board(spaces, *lines, "clues collected: 3,1 3,2"))
    assert codes(sheet) == ["clue-unreachable"]
    assert [(p.row, p.col) for p in sheet.illegal[0].places] == [(3, 2)]
    station_to_station = score(board(spaces, *lines, "clues collected: 3,1"))
    assert codes(station_to_station) == []


def test_a_railway_exit_leads_to_the_first_station() -> None:
    """Left railway Exit of row 1, along the railway to a station, then a highway step."""
    spaces = {(1, 0): "_R_R", (1, 1): "_H_R", (1, 2): "_H_H?", (1, 3): "_H_H"}
    sheet = scored(
        "investigation", spaces, "investigator: 1,2", "clues collected: 1,2"
    )
    assert codes(sheet) == []
    assert sheet.expansions == {"investigation": 5}


def test_a_clue_without_a_route_is_reported() -> None:
    sheet = scored("investigation", {(3, 3): ".?"})
    assert codes(sheet) == ["clue-no-route"]


def test_investigator_must_stand_on_a_space_or_an_exit() -> None:
    with pytest.raises(GridError, match="there is no Exit at N2"):
        with_lines("investigator: N2")


def test_more_clues_than_one_die_gives_in_six_rounds_are_reported() -> None:
    # row 3 from the left highway Exit: 6 Clues, the most; a 7th is reported
    row = {(3, c): "_H_H?" if c < 6 else "_H_H" for c in range(7)}
    assert codes(scored("investigation", row)) == []
    sheet = scored("investigation", {**row, (3, 6): "_H_H?"})
    assert codes(sheet) == ["too-many-clues"]
    assert len(sheet.illegal[0].places) == 7


def test_an_investigator_on_an_empty_or_railway_only_space_is_reported() -> None:
    spaces = {(3, 0): "_H_H", (3, 1): "_H_H?", (1, 0): "_R_R"}
    for where in ("4,4", "1,0"):
        sheet = scored("investigation", spaces, f"investigator: {where}")
        assert codes(sheet) == ["investigator-off-route"]
        assert [(p.row, p.col) for p in sheet.illegal[0].places] == [
            tuple(int(v) for v in where.split(","))]


def test_an_investigator_on_routes_joined_to_no_exit_is_reported() -> None:
    """A highway island in the middle: no move from any Exit reaches it."""
    island = {(3, 2): "_H__", (3, 3): "_H_H?", (3, 4): "___H"}
    sheet = scored("investigation", island, "investigator: 3,3", "clues collected: 3,3")
    assert codes(sheet) == ["investigator-unreachable"]
    joined = {**island, (3, 0): "_H_H", (3, 1): "_H_H", (3, 2): "_H_H"}
    assert codes(scored("investigation", joined, "investigator: 3,3",
                        "clues collected: 3,3")) == []


def test_collected_clues_need_a_walk_from_an_exit_without_an_investigator_line() -> None:
    spaces = {(3, 0): "_H_H", (3, 1): "_H_H?", (5, 3): "_R_R?", (1, 3): "_H_H?",
              (1, 4): "___H"}
    assert codes(scored("investigation", spaces, "clues collected: 3,1")) == []
    sheet = scored("investigation", spaces, "clues collected: 3,1 5,3 1,3")
    assert codes(sheet) == ["clue-unreachable", "clue-unreachable"]
    railway_only, island = sheet.illegal
    assert (railway_only.places[0].row, railway_only.places[0].col) == (5, 3)
    assert "never lands here" in railway_only.message
    assert (island.places[0].row, island.places[0].col) == (1, 3)
    assert "to an Exit" in island.message
