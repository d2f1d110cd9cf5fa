"""The rulebook's example board (board-spec 4.2) scores 46 with the official breakdown."""

from itertools import pairwise
from pathlib import Path

from scoring.board import read_grid_file
from scoring.engine import score

BOARDS = Path(__file__).parent / "boards"


def test_rulebook_example_scores_46_with_its_breakdown():
    sheet = score(read_grid_file(BOARDS / "rulebook.txt"))
    assert sheet.to_json() == {
        "networks": [4, 6], "exits": 32, "highway": 8, "railway": 5,
        "center": 6, "errors": 5, "expansions": {}, "total": 46,
    }
    assert [n.points for n in sheet.networks] == [12, 20]


def test_rulebook_example_errors_are_placed():
    sheet = score(read_grid_file(BOARDS / "rulebook.txt"))
    assert [e.words for e in sheet.errors] == [
        "row 0, column 4, east side: railway end faces an empty space",
        "row 0, column 4, west side: railway end meets a blank side",
        "row 4, column 4, north side: highway end faces an empty space",
        "row 4, column 4, south side: highway end faces an empty space",
        "row 4, column 5, east side: railway end faces an empty space",
    ]
    assert sheet.illegal == []


def test_rulebook_example_longest_routes_are_real_paths():
    sheet = score(read_grid_file(BOARDS / "rulebook.txt"))
    for route, length in ((sheet.highway_route, 8), (sheet.railway_route, 5)):
        assert len(route) == length == len(set(route))
        for (r1, c1), (r2, c2) in pairwise(route):
            assert abs(r1 - r2) + abs(c1 - c2) == 1
