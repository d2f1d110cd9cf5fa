"""Boards that mix expansions no box plays together get a note on the sheet (no points change)."""

import pytest

from scoring.engine import score
from scoring.registry import REGISTRY
from tests.expansion_boards import board

RIVER_AND_RITUAL = board({(3, 0): "_W_W", (1, 1): "H_H_!"}, "expansion: river, ritual")


def test_expansions_from_two_boxes_get_a_note():
    sheet = score(RIVER_AND_RITUAL)
    assert sheet.notes == [
        ("river and ritual are from different boxes (Deep Blue / Eldritch); "
        "no box plays them together")
    ]
    assert sheet.to_json()["notes"] == sheet.notes


def test_river_and_lake_share_a_box_that_plays_one_at_a_time():
    sheet = score(board({}, "expansion: river, lake"))
    assert sheet.notes == [
        ("river and lake are both from the Deep Blue box, whose rulebook plays one of them at a "
        "time")
    ]


@pytest.mark.parametrize("names", [
    ("portal", "tentacle"), ("ritual", "portal", "tentacle", "investigation"),
    ("street-lamps", "power-grid"), ("river",), ("lake",), (),
])
def test_one_box_or_one_expansion_gets_no_note(names):
    sheet = score(board({}, *[f"expansion: {name}" for name in names]))
    assert sheet.notes == []
    assert "notes" not in sheet.to_json()


def test_every_expansion_names_its_box():
    boxes = {name: cls.box for name, cls in REGISTRY.items()}
    assert boxes == {
        "river": "Deep Blue", "lake": "Deep Blue", "ritual": "Eldritch", "portal": "Eldritch",
        "tentacle": "Eldritch", "investigation": "Eldritch", "street-lamps": "Electricity",
        "power-grid": "Electricity",
    }


def test_all_three_boxes_in_one_note():
    sheet = score(board({}), ["river", "tentacle", "power-grid"])
    assert sheet.notes == [
        ("river, tentacle and power-grid are from different boxes "
        "(Deep Blue / Eldritch / Electricity); no box plays them together")
    ]
