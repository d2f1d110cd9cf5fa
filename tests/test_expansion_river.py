"""River expansion rules: River choice, edge bonus, Errors, bridges, illegal river drawings."""

import pytest

from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, codes, scored


def river(spaces: Spaces) -> ScoreSheet:
    return scored("river", spaces)


def test_no_river_scores_nothing() -> None:
    sheet = river({})
    assert sheet.expansions == {"river": 0}
    assert sheet.expansion_lines["river"] == "no River drawn"


def test_closed_loop_scores_its_spaces_without_bonus_or_errors() -> None:
    sheet = river({(2, 2): "_WW_", (2, 3): "__WW", (3, 2): "WW__", (3, 3): "W__W"})
    assert sheet.expansions == {"river": 4}
    assert sheet.errors == []


def test_one_end_at_the_edge_is_not_enough_for_the_bonus() -> None:
    sheet = river({(0, 0): "W_W_", (1, 0): "W_W_"})
    assert sheet.expansions == {"river": 2}
    assert [(e.row, e.col, e.side.name) for e in sheet.errors] == [(1, 0, "S")]


def test_edge_to_edge_river_gets_three_more() -> None:
    sheet = river({(r, 2): "W_W_" for r in range(7)})
    assert sheet.expansions == {"river": 10}
    assert sheet.errors == []


def test_river_never_joins_an_exit_network() -> None:
    """A river into a highway Exit is reported; it is on the edge, so it is no Error."""
    sheet = river({(0, 1): "W_W_", (1, 1): "W_W_"})
    assert sheet.networks == []
    assert "river-into-exit" in codes(sheet)
    assert [(e.row, e.col, e.side.name) for e in sheet.errors] == [(1, 1, "S")]


def test_route_meeting_a_river_is_illegal_and_both_ends_are_errors() -> None:
    sheet = river({(3, 2): "_W_W", (3, 3): "_H_H"})
    assert "river-meets-route" in codes(sheet)
    met = sorted((e.row, e.col, e.side.name) for e in sheet.errors if "meets a" in e.reason)
    assert met == [(3, 2, "E"), (3, 3, "W")]


def test_bridge_lets_a_route_cross_without_joining() -> None:
    """A highway from the top Exit crosses a river on a bridge to the bottom Exit."""
    spaces = {(r, 1): "H_H_" for r in range(7)}
    spaces[3, 1] = "H_H_+_W_W"
    spaces[3, 0] = "_W_W"
    spaces[3, 2] = "_W_W"
    sheet = river(spaces)
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.highway == 7
    assert sheet.expansions == {"river": 3}
    assert "river-no-bridge" not in codes(sheet)


def test_river_joined_to_a_route_or_crossed_without_bridge_is_reported() -> None:
    assert "river-joins-route" in codes(river({(3, 3): "W_H_"}))
    assert "river-no-bridge" in codes(river({(3, 3): "WW__+__HH"}))
    assert "river-no-bridge" in codes(river({(3, 3): "W_W_+_R_H"}))


def test_an_edge_to_edge_river_beats_a_longer_open_one() -> None:
    """A one-space river in the corner touches two edges (1 + 3) and beats 3 open spaces."""
    spaces = {(0, 0): "W__W", (3, 2): "_W_W", (3, 3): "_W_W", (3, 4): "_W_W"}
    sheet = river(spaces)
    assert sheet.expansions == {"river": 4}
    assert len(sheet.errors) == 2


def test_more_river_spaces_than_two_dice_give_in_six_rounds_are_reported() -> None:
    # column 0 (7 spaces) and column 6, rows 0-4 (5 spaces): 12 River spaces, the most
    twelve = {**{(r, 0): "W_W_" for r in range(7)}, **{(r, 6): "W_W_" for r in range(5)}}
    assert "too-many-rivers" not in codes(river(twelve))
    sheet = river({**twelve, (5, 6): "W_W_"})
    assert codes(sheet).count("too-many-rivers") == 1
    assert len(sheet.illegal[codes(sheet).index("too-many-rivers")].places) == 13
    assert sheet.expansions == {"river": 10}  # still scored as drawn: column 0, 7 + 3


@pytest.mark.parametrize("token", ["WWW_", "W___", "WWWW", "_W_W+W_W_", "WW__+__WW",
                                   "W_W_+_L_L", "W_L_"])
def test_river_drawings_no_river_die_gives_are_reported(token) -> None:
    sheet = river({(3, 3): token})
    assert codes(sheet).count("river-not-a-face") == 1
    assert [(p.row, p.col) for p in sheet.illegal[codes(sheet).index("river-not-a-face")].places] \
        == [(3, 3)]


@pytest.mark.parametrize("token", ["W_W_", "_W_W", "WW__", "_WW_", "__WW", "W__W",
                                   "H_H_+_W_W", "_H_H+W_W_", "R_R_+_W_W", "_R_R+W_W_"])
def test_every_river_die_face_is_legal(token) -> None:
    assert [c for c in codes(river({(3, 3): token})) if c.startswith("river-")] == []
