"""Portal expansion rules: same-letter Portals join networks and longest routes, 2 per letter."""

from scoring.engine import score
from scoring.results import ScoreSheet
from tests.expansion_boards import Spaces, board, codes, scored


def portal(spaces: Spaces) -> ScoreSheet:
    return scored("portal", spaces)


# Top Exit column 1 (highway) into Portal A; Portal A out to the bottom Exit column 5.
HIGHWAY_PAIR = {(0, 1): "H_H_", (1, 1): "H___@A", (5, 5): "__H_@A", (6, 5): "H_H_"}


def test_same_letter_portals_join_networks_and_highways() -> None:
    sheet = portal(HIGHWAY_PAIR)
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.highway == 4
    assert sheet.expansions == {"portal": 0}
    assert sheet.errors == [] and codes(sheet) == []


def test_different_letters_do_not_join() -> None:
    spaces = {**HIGHWAY_PAIR, (5, 5): "__H_@B"}
    sheet = portal(spaces)
    assert [n.exit_count for n in sheet.networks] == [1, 1]
    assert sheet.highway == 2


def test_highway_to_railway_portals_join_networks_but_not_routes() -> None:
    spaces = {(0, 1): "H_H_", (1, 1): "H___@C", (5, 3): "__R_@C", (6, 3): "R_R_"}
    sheet = portal(spaces)
    assert [n.exit_count for n in sheet.networks] == [2]
    assert sheet.highway == 2 and sheet.railway == 2


def test_a_third_portal_of_a_letter_is_reported_and_not_linked() -> None:
    spaces = {**HIGHWAY_PAIR, (0, 5): "H_H_", (1, 5): "H___@A"}
    sheet = portal(spaces)
    assert "portal-third" in codes(sheet)
    third = next(i for i in sheet.illegal if i.code == "portal-third")
    assert [(p.row, p.col) for p in third.places] == [(5, 5)]
    assert sorted(n.exit_count for n in sheet.networks) == [1, 2]


def test_portal_letters_and_faces_are_checked() -> None:
    assert "portal-letter" in codes(portal({(3, 3): "H___@D"}))
    assert "portal-not-a-face" in codes(portal({(3, 3): "H_H_@A"}))
    assert "portal-not-a-face" in codes(portal({(3, 3): ".@A"}))


def test_portals_without_the_expansion_do_not_link() -> None:
    sheet = score(board(HIGHWAY_PAIR))
    assert [n.exit_count for n in sheet.networks] == [1, 1]
    assert codes(sheet) == ["undeclared-expansion"]
