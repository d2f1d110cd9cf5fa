"""Every worked example in the expansion rulebooks, typed in as a grid file and scored whole."""

from pathlib import Path

import pytest

from scoring.board import Board, read_grid_file
from scoring.engine import score

BOARDS = Path(__file__).parent / "boards" / "expansions"

# file -> (expansion name, its points, the whole score object of board-spec 4.3)
EXAMPLES = {
    "river_rulebook.txt": ("river", 8, {
        "networks": [2], "exits": 4, "highway": 7, "railway": 0, "center": 3, "errors": 2,
        "total": 20,
    }),
    "lake_rulebook.txt": ("lake", 3, {
        "networks": [4], "exits": 12, "highway": 5, "railway": 0, "center": 3, "errors": 0,
        "total": 23,
    }),
    "ritual_rulebook.txt": ("ritual", 24, {
        "networks": [], "exits": 0, "highway": 10, "railway": 4, "center": 6, "errors": 0,
        "total": 44,
    }),
    "portal_rulebook.txt": ("portal", 0, {
        "networks": [5], "exits": 16, "highway": 4, "railway": 10, "center": 2, "errors": 0,
        "total": 32,
    }),
    "tentacle_rulebook.txt": ("tentacle", 15, {
        "networks": [2, 2], "exits": 8, "highway": 7, "railway": 7, "center": 6, "errors": 0,
        "total": 43,
    }),
    "power_grid_rulebook.txt": ("power-grid", 10, {
        "networks": [2], "exits": 4, "highway": 5, "railway": 3, "center": 5, "errors": 0,
        "total": 27,
    }),
    "street_lamps_rulebook.txt": ("street-lamps", 3, {
        "networks": [5, 2], "exits": 20, "highway": 11, "railway": 7, "center": 3, "errors": 0,
        "total": 44,
    }),
    "investigation_example.txt": ("investigation", 7, {
        "networks": [2], "exits": 4, "highway": 3, "railway": 3, "center": 3, "errors": 0,
        "total": 20,
    }),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_rulebook_example_scores_exactly(name: str) -> None:
    expansion, points, expected = EXAMPLES[name]
    path = BOARDS / name
    sheet = score(read_grid_file(path), source=str(path))
    data = sheet.to_json()
    assert data["expansions"] == {expansion: points}
    assert {key: data[key] for key in expected} == expected
    assert sheet.illegal == [] and sheet.notes == []


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_without_its_expansion_line_reports_the_drawings(name: str) -> None:
    """The same board without its ``expansion:`` line scores as a base game and says why."""
    expansion = EXAMPLES[name][0]
    board = read_grid_file(BOARDS / name)
    base = Board(board.spaces, tuple(line for line in board.extras if line[0] != "expansion"))
    sheet = score(base)
    assert sheet.expansions == {}
    undeclared = [i for i in sheet.illegal if i.code == "undeclared-expansion"]
    assert len(undeclared) == 1
    assert f"expansion: {expansion}" in undeclared[0].message


def test_river_example_prefers_the_edge_to_edge_river() -> None:
    sheet = score(read_grid_file(BOARDS / "river_rulebook.txt"))
    assert sheet.expansion_lines["river"] == "best River 5 spaces + 3 for both ends at the edge"
    open_ends = sorted((e.row, e.col, e.side.name, e.kind) for e in sheet.errors)
    assert open_ends == [(4, 1, "W", "W"), (5, 4, "W", "W")]


def test_lake_example_joins_networks_through_the_lake() -> None:
    board = read_grid_file(BOARDS / "lake_rulebook.txt")
    sheet = score(board)
    assert [n.exit_count for n in sheet.networks] == [4]
    assert "Lakes of 3, 7" in sheet.expansion_lines["lake"]


def test_ritual_example_leaves_its_exits_out_of_regular_networks() -> None:
    board = read_grid_file(BOARDS / "ritual_rulebook.txt")
    with_ritual = score(board)
    assert with_ritual.networks == []
    without = score(Board(board.spaces))
    assert [n.exit_count for n in without.networks] == [2]
