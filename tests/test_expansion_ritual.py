"""Ritual expansion rules: Madness Networks, edge Portals, Exits left out of networks."""

from scoring.engine import score
from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, board, codes, scored


def ritual(spaces: Spaces, *lines: str) -> ScoreSheet:
    return scored("ritual", spaces, *lines)


def test_a_lone_ritual_scores_nothing() -> None:
    sheet = ritual({(3, 3): "H_H_!"})
    assert sheet.expansions == {"ritual": 0}


def test_ritual_and_edge_portal_make_a_madness_network_of_two() -> None:
    """A highway from a Country Route at the top of column 0 to a Ritual."""
    sheet = ritual({(0, 0): "H_H_", (1, 0): "H_H_!"}, "edge portals: N0")
    assert sheet.expansions == {"ritual": 4}
    assert codes(sheet) == []


def test_rituals_connect_through_stations() -> None:
    spaces = {(3, 2): "_H_H!", (3, 3): "_R_H", (3, 4): "_R_R!"}
    assert ritual(spaces).expansions == {"ritual": 4}


def test_exits_reached_by_a_ritual_leave_the_regular_networks() -> None:
    """Top Exit column 1 to bottom Exit column 1 is a 2-Exit network, unless a Ritual is on it."""
    spaces = {(r, 1): "H_H_" for r in range(7)}
    plain = scored("ritual", spaces)
    assert [n.exit_count for n in plain.networks] == [2]
    spaces[3, 1] = "H_H_!"
    sheet = ritual(spaces)
    assert sheet.networks == []
    assert sheet.to_json()["exits"] == 0
    assert sheet.highway == 7  # a Ritual does not interrupt a route


def test_other_networks_still_score() -> None:
    spaces = {(r, 1): "H_H_" for r in range(7)}
    spaces.update({(r, 5): "H_H_" for r in range(7)})
    spaces[3, 1] = "H_H_!"
    assert [n.exit_count for n in ritual(spaces).networks] == [2]


def test_edge_portal_at_an_exit_or_without_a_route_is_reported() -> None:
    spaces = {(0, 1): "H_H_", (1, 1): "H_H_!"}
    assert "portal-at-exit" in codes(ritual(spaces, "edge portals: N1"))
    assert "portal-no-route" in codes(ritual(spaces, "edge portals: N2"))
    assert "portal-twice" in codes(ritual({(0, 0): "H_H_"}, "edge portals: N0 N0"))


def test_more_portals_than_rounds_is_reported() -> None:
    spaces = {(0, c): "H_H_" for c in (0, 2, 4, 6)}
    spaces.update({(6, c): "H_H_" for c in (0, 2, 4)})
    sheet = ritual(spaces, "edge portals: N0 N2 N4 N6 S0 S2 S4")
    assert "too-many-portals" in codes(sheet)


def test_edge_portal_line_without_the_expansion_is_reported() -> None:
    sheet = score(board({(0, 0): "H_H_"}, "edge portals: N0"))
    assert codes(sheet) == ["undeclared-expansion"]
    assert "edge portals" in sheet.illegal[0].message
