"""Deep Blue photos: the reader sees rivers and lakes, and a base board never gains water."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.project_scripts import load_script
from vision.recognizer import ReadParams, Recognizer
from vision.review import ReviewEntry
from vision.space_parts import side_letters
from vision.water_sighting import (
    UNSEEN_WATER,
    WaterParams,
    reads_water,
    river_joins,
    sight_water,
    unseen_water,
)

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT / "sample_photos"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def base_reading(recognizer):
    return recognizer.read(PHOTOS / "board_01.jpg")


def _with_reading(reading, spaces: dict[tuple[int, int], tuple[str, float]]):
    """The reading's grid and probabilities with some spaces read as other tokens."""
    grid = [row[:] for row in reading.grid]
    probs = reading.probs.copy()
    for (r, c), (token, p) in spaces.items():
        probs[r, c] = (1 - p) / (len(reading.classes) - 1)
        probs[r, c, reading.classes.index(token)] = p
        grid[r][c] = token
    return grid, probs


def test_a_lone_river_on_a_base_board_is_read_again_without_water(base_reading):
    r, c = next((r, c) for r in range(7) for c in range(7) if base_reading.grid[r][c] != ".")
    grid, probs = _with_reading(base_reading, {(r, c): ("W_W_", 0.95)})
    second = base_reading.classes.index(base_reading.grid[r][c])
    probs[r, c, second] = 0.04  # the drawn piece is the runner-up
    new_grid, review, seen = sight_water(grid, probs, base_reading.classes, [])
    assert seen == []
    assert new_grid[r][c] == base_reading.grid[r][c]
    [entry] = review
    assert (entry.row, entry.col, entry.token) == (r, c, base_reading.grid[r][c])
    assert "read as W_W_ (0.95)" in entry.reason and "a river" in entry.reason
    assert grid[r][c] == "W_W_"  # the caller's grid is left as it was


def test_water_on_several_spaces_names_the_expansion_and_why(base_reading):
    spaces = {(0, 1): ("_W_W", 0.99), (0, 2): ("W__W", 0.7), (3, 3): ("LL__", 0.98),
              (3, 4): ("L___", 0.96)}
    grid, probs = _with_reading(base_reading, spaces)
    new_grid, review, seen = sight_water(grid, probs, base_reading.classes, [])
    assert new_grid == grid and review == []
    assert [s.name for s in seen] == ["river", "lake"]
    assert seen[0].spaces == ((0, 1), (0, 2))
    assert seen[0].reason == "2 spaces drawn with a river (row 0, column 1, row 0, column 2)"
    assert seen[1].to_json()["spaces"] == [[3, 3], [3, 4]]
    # unsure water everywhere is not enough to call the board a Deep Blue board
    unsure = {rc: (token, 0.6) for rc, (token, _) in spaces.items()}
    grid, probs = _with_reading(base_reading, unsure)
    _, review, seen = sight_water(grid, probs, base_reading.classes, [], WaterParams())
    assert seen == [] and len(review) == 4


def test_water_on_several_spaces_sends_a_faint_board_to_the_parts_network(base_reading):
    """The faint-ink parts network, not the faint-ink base-game reader (which reads no
    water), reads a board whose first reading shows a lake, or a river whose spaces join,
    on two spaces, one of them read surely: it reads a pale photo's water at 0.9-0.99. The
    standard readers ask a space read as water at least ``route_sure`` surely."""
    classes, water = base_reading.classes, WaterParams()
    faint = {"spaces": water.faint_route_spaces, "letters": water.faint_route_letters}
    assert faint == {"spaces": 2, "letters": "WL"} and water.faint_route_river_joins == 2
    assert not reads_water(base_reading.probs, classes, **faint)
    _, two_lakes = _with_reading(base_reading, {(3, 3): ("LL__", 0.95), (3, 4): ("L___", 0.6)})
    assert reads_water(two_lakes, classes, **faint)
    assert not reads_water(two_lakes, classes)  # the standard readers' rule
    # a faint double-line highway read as a river on scattered spaces is no river's course
    scattered = {(0, 1): ("_W_W", 0.95), (4, 4): ("W__W", 0.9), (6, 2): ("W_W_", 0.9)}
    _, highway = _with_reading(base_reading, scattered)
    assert not reads_water(highway, classes, **faint)
    assert reads_water(highway, classes, WaterParams(faint_route_river_joins=0), **faint)
    # a river from the West edge through three spaces, turning North: two joins
    course = {(2, 0): ("_W_W", 0.95), (2, 1): ("_W_W", 0.7), (2, 2): ("W__W", 0.7)}
    grid, river = _with_reading(base_reading, course)
    assert river_joins([token for row in grid for token in row]) == 2
    assert reads_water(river, classes, **faint)
    assert not reads_water(river, classes, spaces=2, letters="L")
    # a lake and a river, one space each, are not one kind of water on two spaces
    _, mixed = _with_reading(base_reading, {(3, 3): ("LL__", 0.95), (0, 1): ("_W_W", 0.95)})
    assert not reads_water(mixed, classes, **faint)
    # two unsure spaces are not enough; one space read at least route_sure surely is
    _, unsure = _with_reading(base_reading, {(3, 3): ("LL__", 0.85), (3, 4): ("L___", 0.85)})
    assert not reads_water(unsure, classes, **faint)
    _, lone = _with_reading(base_reading, {(0, 1): ("_W_W", 0.995)})
    assert reads_water(lone, classes) and reads_water(lone, classes, **faint)


@pytest.mark.parametrize("seed, expansion, letter, saved_by_the_rule",
                         [(9350083, "lake", "L", True), (9350196, "river", "W", False)])
def test_a_faint_deep_blue_board_is_read_with_its_water(recognizer, seed, expansion, letter,
                                                        saved_by_the_rule):
    """Deep Blue tuning photos in phone conditions (``scripts/evaluate.py --seed SEED
    --expansion mix --conditions phone``: a lake on five spaces, a river on twelve joined
    spaces, in pale ink) are read by the faint-ink readers with their water. The lake's is
    read less surely than ``route_sure``: with ``faint_route_spaces`` the parts network reads
    the board and the water is seen; without, the faint-ink base-game reader reads every
    water space as a route or an empty space. (The river was such a board too until the
    faint-ink parts network was trained on more Deep Blue phone boards; it now reads that
    river surely enough on its own. The rule's river joins: the test above.)"""
    evaluate = load_script("evaluate")
    photo, played = evaluate.render_case(seed, None, "phone", "mix")
    assert played == (expansion,)
    water = {(r, c) for r, row in enumerate(photo.grid) for c, token in enumerate(row)
             if letter in side_letters(token)}
    reading = recognizer.read(photo.image)
    assert reading.readers == "faint-ink"
    assert [s.name for s in reading.expansions_seen] == [expansion]
    read = {(r, c) for r, row in enumerate(reading.grid) for c, token in enumerate(row)
            if letter in side_letters(token)}
    assert len(read & water) >= len(water) - 2
    if saved_by_the_rule:
        without = Recognizer.load(
            params=ReadParams(water=WaterParams(faint_route_spaces=None)))
        dry = without.read(photo.image)
        assert dry.expansions_seen == []
        assert not any(letter in side_letters(t) for row in dry.grid for t in row)


def test_base_sample_photos_show_no_water(recognizer):
    for photo in sorted(PHOTOS.glob("board_*.jpg")):
        truth = json.loads(photo.with_suffix(".json").read_text())
        if any(line.startswith("expansion:") for line in truth.get("extras", [])) \
                or any("W" in side_letters(t) or "L" in side_letters(t)
                       for line in truth["grid"] for t in line.split()):
            continue
        reading = recognizer.read(photo)
        assert reading.expansions_seen == [], photo.name
        assert not any("W" in side_letters(t) or "L" in side_letters(t)
                       for row in reading.grid for t in row), photo.name


@pytest.mark.parametrize("name, expansion, letter", [("board_12.jpg", "river", "W"),
                                                      ("board_13.jpg", "lake", "L")])
def test_deep_blue_samples_are_read_with_their_water(recognizer, name, expansion, letter):
    photo = PHOTOS / name
    truth = json.loads(photo.with_suffix(".json").read_text())
    reading = recognizer.read(photo)
    assert [s.name for s in reading.expansions_seen] == [expansion]
    water = {(r, c) for r, line in enumerate(truth["grid"])
             for c, token in enumerate(line.split()) if letter in side_letters(token)}
    assert water <= set(reading.expansions_seen[0].spaces)
    wrong = [(r, c) for r in range(7) for c in range(7)
             if side_letters(reading.grid[r][c]) != side_letters(truth["grid"][r].split()[c])]
    # board_12: a highway at the corner next to the river mouth is read half as river; it is
    # listed for review (the reader is not yet as good on water: docs/VISION.md)
    assert len(wrong) <= 1
    assert set(wrong) <= {(e.row, e.col) for e in reading.review}


def test_water_the_parts_network_read_on_a_board_read_without_it_is_listed(base_reading):
    """``unseen_water``: a base board's reading (no water anywhere) with the parts network's
    first reading made up: a river's straight at 0.8, a river no die gives (a dead end) at
    0.9, a lake at 0.45; only the straight is listed, with the network's candidates."""
    classes, grid = base_reading.classes, base_reading.grid
    parts = _with_reading(base_reading, {(1, 1): ("W_W_", 0.8), (2, 2): ("__W_", 0.9),
                                         (3, 3): ("LL__", 0.45)})[1]
    review = unseen_water(grid, parts, classes, [])
    [entry] = review
    assert (entry.row, entry.col, entry.token, entry.kind) == (1, 1, grid[1][1], "water")
    assert entry.alternatives[0] == ("W_W_", 0.8)
    assert entry.reason == (f"{UNSEEN_WATER} (W_W_, 0.80), but the board was read without "
                            f"water: read as {grid[1][1]}")
    # a space already listed keeps its own entry; switched off, or not known: nothing added
    listed = ReviewEntry(1, 1, grid[1][1], reason="uncertain reading (0.62)")
    assert unseen_water(grid, parts, classes, [listed]) == [listed]
    assert unseen_water(grid, parts, classes, [], WaterParams(unseen_sure=None)) == []
    assert unseen_water(grid, None, classes, []) == []
    # a board read with water somewhere was read by the parts network: nothing to add
    wet = [row[:] for row in grid]
    wet[6][6] = "_W_W"
    assert unseen_water(wet, parts, classes, []) == []


def test_a_river_read_as_a_highway_without_water_is_listed(recognizer):
    """Deep Blue tuning render 9150063 (``scripts/evaluate.py --seed 9150063 --expansion
    mix``, clean): the parts network reads one river space surely (0.95) and no other, so
    the board is read by the base-game reader, which reads the river as a highway at 0.999.
    The score is wrong; the space is listed as water the parts network read."""
    evaluate = load_script("evaluate")
    photo, played = evaluate.render_case(9150063, None, None, "mix")
    assert played == ("river",) and photo.grid[3][0] == "W_W_"
    reading = recognizer.read(photo.image)
    assert reading.expansions_seen == [] and reading.grid[3][0] == "H_H_"
    [entry] = [e for e in reading.review if (e.row, e.col) == (3, 0)]
    assert entry.kind == "water" and entry.alternatives[0][0] == "W_W_"
    without = Recognizer.load(params=ReadParams(water=WaterParams(unseen_sure=None)))
    assert (3, 0) not in {(e.row, e.col) for e in without.read(photo.image).review}
