"""Photos that show rivers and lakes (issue 16, product side): scored with the expansions the
photo shows unless ``--expansion`` (or the night, or the board on the phone page) says
otherwise, the reason on the sheet and in JSON, and water drawn on the annotated picture.

The shipped reader reads no water yet, so these tests read the real photos with the real
recognizer (located, straightened, oriented for real) and then put in the photo's truth grid
as the retrained reader would read it: sure of every space, over the reader's new classes
(``vision.space_parts.CLASSES``), with the real water policy (``sight_water``) deciding what
the photo shows. ``tests/test_deep_blue_photos.py`` checks the retrained reader itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import rink.inputs
from rink.annotate import SCALE, annotated_image
from rink.batch import ScoreOptions, score_item
from rink.cli import main
from rink.inputs import InputItem
from rink.sheet_text import format_sheet
from vision.recognizer import Recognizer
from vision.space_parts import CLASSES, class_index, class_of
from vision.water_sighting import sight_water

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_photos"
RIVER_PHOTO = SAMPLES / "board_12.jpg"  # River, 34 points
LAKE_PHOTO = SAMPLES / "board_13.jpg"  # Lake, 22 points
PLAIN_PHOTO = SAMPLES / "board_01.jpg"  # base game
RULEBOOK = REPO / "tests" / "boards" / "rulebook.txt"


def truth(photo: Path) -> dict:
    return json.loads(photo.with_suffix(".json").read_text())


def truth_grid(photo: Path) -> list[list[str]]:
    return [row.split() for row in truth(photo)["grid"]]


def read_as_retrained(reading, grid: list[list[str]]):
    """``reading`` as the retrained reader would give ``grid``: every space read surely as its
    class, then the water policy (``vision.water_sighting.sight_water``) applied."""
    classes = list(CLASSES)
    index = class_index(CLASSES)
    probs = np.zeros((7, 7, len(classes)), np.float32)
    tokens = []
    for r, row in enumerate(grid):
        line = []
        for c, token in enumerate(row):
            number = class_of(token, index)
            assert number >= 0, f"{token} is not one of the reader's classes"
            probs[r, c, number] = 1.0
            line.append(classes[number])
        tokens.append(line)
    reading.grid, reading.review, reading.expansions_seen = sight_water(tokens, probs, classes,
                                                                        [])
    reading.probs, reading.classes = probs, classes
    return reading


class RetrainedStandIn:
    """The shipped recognizer reading the photo, its grid then put in as ``read_as_retrained``
    gives it (the truth grid of the photo read, or ``grid``)."""

    def __init__(self, real: Recognizer, grid: list[list[str]] | None = None) -> None:
        self.real = real
        self.grid = grid

    def read(self, source, corners=None):
        reading = self.real.read(source, corners=corners)
        grid = self.grid or truth_grid(Path(str(source)))
        return read_as_retrained(reading, grid)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture
def retrained(monkeypatch, recognizer) -> RetrainedStandIn:
    """``rink score`` reads photos with the stand-in (the one recognizer ``rink.inputs``
    keeps)."""
    stand_in = RetrainedStandIn(recognizer)
    monkeypatch.setattr(rink.inputs, "_recognizer", stand_in)
    return stand_in


def water_spaces(photo: Path, letter: str) -> list[list[int]]:
    from vision.space_parts import side_letters

    return [[r, c] for r, row in enumerate(truth_grid(photo)) for c, token in enumerate(row)
            if letter in side_letters(token)]


def run(*args):
    return CliRunner().invoke(main, ["score", *map(str, args)])


# -- the annotated picture ------------------------------------------------------------------

def blueness(image: np.ndarray, reading, row: int, col: int, along: tuple[float, float],
             across: float = 0.0) -> float:
    """How blue (blue minus red, the most of a short cut across the line) the picture is at
    ``along`` (x, y in spaces from the centre of the space); ``across``: half the cut's
    length, in spaces, at right angles to ``along``."""
    cell = reading.board.cell_px * SCALE
    origin = reading.board.pad_px * SCALE
    centre = np.array([origin + (col + 0.5) * cell, origin + (row + 0.5) * cell])
    direction = np.array(along, float)
    normal = np.array([-direction[1], direction[0]]) / (np.linalg.norm(direction) or 1.0)
    best = -255.0
    for t in np.linspace(-across, across, 9 if across else 1):
        x, y = np.round(centre + (direction + normal * t) * cell).astype(int)
        patch = image[y - 1:y + 2, x - 1:x + 2].astype(float).mean(axis=(0, 1))
        best = max(best, patch[0] - patch[2])
    return best


WATER_BOARD = {  # (row, col) -> token, all other spaces empty
    (1, 1): "W_W_",       # river north-south
    (1, 3): "H_H_+_W_W",  # highway bridge over a river running east-west
    (1, 5): "WW__",       # river curving north-east
    (3, 1): "LLLL",       # a space full of water
    (3, 3): "L___",       # lake on the north side
    (5, 1): "L_R_",       # pier: lake north, railway south
}
BLUE = 50  # blue minus red of water drawn on the faded photo (the photo itself: about 0)


def test_the_annotated_picture_draws_rivers_and_lakes(recognizer):
    reading = recognizer.read(PLAIN_PHOTO)
    reading.review = []
    reading.grid = [["."] * 7 for _ in range(7)]
    empty = annotated_image(reading)
    for (r, c), token in WATER_BOARD.items():
        reading.grid[r][c] = token
    drawn = annotated_image(reading)
    north, east, south, west = (0, -0.3), (0.3, 0), (0, 0.3), (-0.3, 0)

    def blue(r, c, at, across=0.1):
        return blueness(drawn, reading, r, c, at, across) >= BLUE

    for (r, c) in WATER_BOARD:  # nothing blue there on the photo itself
        for at in (north, east, south, west):
            assert blueness(empty, reading, r, c, at, 0.1) < BLUE - 20
    # a river: blue towards its sides, not towards the others
    assert blue(1, 1, north) and blue(1, 1, south)
    assert not blue(1, 1, east) and not blue(1, 1, west)
    # the bridge: the river east and west, broken under the highway; the highway on top
    assert blue(1, 3, east) and blue(1, 3, west)
    assert not blue(1, 3, (0.13, 0)) and not blue(1, 3, (-0.13, 0))
    assert blueness(drawn, reading, 1, 3, (0, 0)) < 0  # orange highway at the centre
    assert blue(1, 5, north) and blue(1, 5, east)
    assert not blue(1, 5, south) and not blue(1, 5, west)
    # lakes: the whole space, or only the lake's side
    for at in (north, east, (0, 0.22), west, (0.3, -0.3), (-0.3, -0.3)):
        assert blue(3, 1, at, across=0), at
    assert blue(3, 3, north, across=0)
    assert not blue(3, 3, (0, 0.22), across=0) and not blue(3, 3, east, across=0)
    # a pier: the lake on its side, the railway end on the other
    assert blue(5, 1, north, across=0)
    assert not blue(5, 1, east, across=0) and not blue(5, 1, west, across=0)


def test_the_annotated_picture_of_a_deep_blue_photo_is_written(retrained, tmp_path):
    result = run("--json", "--annotate", tmp_path, RIVER_PHOTO)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["annotated"] == str(tmp_path / "board_12.rink.png")
    assert (tmp_path / "board_12.rink.png").read_bytes()[:4] == b"\x89PNG"


# -- scoring with what the photo shows ------------------------------------------------------

@pytest.mark.parametrize(("photo", "name", "title", "letter"), [
    (RIVER_PHOTO, "river", "River", "W"), (LAKE_PHOTO, "lake", "Lake", "L")])
def test_a_photo_is_scored_with_the_water_it_shows(retrained, photo, name, title, letter):
    result = score_item(InputItem(str(photo), "photo"), ScoreOptions())
    assert result.ok, result.error
    expected = truth(photo)["expected_score"]
    assert result.sheet.to_json() | {"notes": []} == expected | {"notes": []}
    data = result.to_json()
    [seen] = data["expansions_seen"]
    spaces = water_spaces(photo, letter)
    assert seen["name"] == name and seen["scored"] is True and seen["spaces"] == spaces
    assert seen["reason"].startswith(f"{len(spaces)} spaces drawn with a {name} (row ")
    assert data["score"]["expansions"] == expected["expansions"]
    assert "warnings" not in data
    sheet = format_sheet(result)
    assert f"  {title}: seen in the photo ({seen['reason']})" in sheet.splitlines()
    assert f"Expansion: {title}" in sheet  # the Longest River / Smallest Lake line
    assert ("best River" if name == "river" else "Smallest Lake") in sheet
    assert "Note:" not in sheet


def test_expansion_option_overrides_what_the_photo_shows(retrained):
    item = InputItem(str(RIVER_PHOTO), "photo")
    lake = score_item(item, ScoreOptions(expansions=("lake",)))
    assert lake.ok and list(lake.sheet.expansions) == ["lake"]
    data = lake.to_json()
    [seen] = data["expansions_seen"]
    assert seen["name"] == "river" and seen["scored"] is False
    [note] = data["warnings"]
    assert note == "the photo shows River, but --expansion names Lake: scored without River"
    assert data["illegal"], "river drawings of an expansion not played are listed"
    sheet = format_sheet(lake)
    assert f"  River: seen in the photo ({seen['reason']})" in sheet.splitlines()
    assert f"  Note: {note}" in sheet.splitlines()
    river = score_item(item, ScoreOptions(expansions=("River",)))
    assert river.sheet.total == 34 and "warnings" not in river.to_json()
    assert river.to_json()["expansions_seen"][0]["scored"] is True
    both = score_item(item, ScoreOptions(expansions=("river", "lake")))
    assert set(both.sheet.expansions) == {"river", "lake"}


def test_rink_score_says_what_the_photo_shows(retrained):
    result = run("--json", RIVER_PHOTO, LAKE_PHOTO, RULEBOOK)
    assert result.exit_code == 0, result.output
    river, lake, grid = (json.loads(line) for line in result.stdout.splitlines())
    assert river["score"]["total"] == 34 and river["score"]["expansions"] == {"river": 12}
    assert lake["score"]["total"] == 22 and lake["score"]["expansions"] == {"lake": 7}
    assert [s["name"] for s in river["expansions_seen"]] == ["river"]
    assert [s["name"] for s in lake["expansions_seen"]] == ["lake"]
    assert "expansions_seen" not in grid and grid["score"]["total"] == 46  # grid files: as before
    text = run(RIVER_PHOTO, LAKE_PHOTO).stdout
    assert "  River: seen in the photo (11 spaces drawn with a river (row 0, column 6" in text
    assert "  Lake: seen in the photo (" in text
    override = run("--expansion", "lake", RIVER_PHOTO)
    assert override.exit_code == 0 and "Note: the photo shows River" in override.stdout
    assert "Expansion: Lake" in override.stdout and "Expansion: River" not in override.stdout


def test_batches_and_the_leaderboard_use_what_each_photo_shows(retrained, tmp_path):
    csv_path = tmp_path / "night.csv"
    result = run("--jobs", "1", "--csv", csv_path, RIVER_PHOTO, LAKE_PHOTO)
    assert result.exit_code == 0, result.output
    assert "34 points" in result.stdout and "22 points" in result.stdout
    rows = csv_path.read_text().splitlines()
    assert any("river=12" in row for row in rows) and any("lake=7" in row for row in rows)


def test_a_photo_without_water_is_scored_as_before():
    """The shipped reader, no stand-in: no water seen, the base game, an empty list."""
    result = run("--json", PLAIN_PHOTO)
    data = json.loads(result.stdout)
    assert data["expansions_seen"] == [] and data["score"]["expansions"] == {}
    assert data["score"] == truth(PLAIN_PHOTO)["expected_score"]
    assert "seen in the photo" not in run(PLAIN_PHOTO).stdout


# -- the phone page -------------------------------------------------------------------------

class InProcessPool:
    """The reader pool's work (``rink.serve.reader.read_photo``) done here, with the models
    ``read_photo`` finds in its module (the stand-in)."""

    async def read(self, photo, folder, corners=None) -> dict:
        from rink.serve.reader import read_photo

        return read_photo(str(photo), str(folder), corners)

    def warm(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_phone_page_scores_the_water_a_photo_shows(monkeypatch, recognizer, tmp_path):
    from starlette.testclient import TestClient

    import rink.serve.reader
    from rink.serve.app import Settings, create_app
    from rink.serve.night import Night

    monkeypatch.setattr(rink.serve.reader, "_recognizer",
                        RetrainedStandIn(recognizer, truth_grid(RIVER_PHOTO)))
    app = create_app(Night(tmp_path), Settings(hosts={"127.0.0.1"}), InProcessPool())
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        view = client.post("/api/boards", files={"photo": ("b.jpg", RIVER_PHOTO.read_bytes())},
                           data={"player": "Anna"}).json()
        expansions = view["expansions"]
        assert expansions["effective"] == ["river"] and expansions["from"] == "photo"
        assert expansions["night_chosen"] is False
        [seen] = expansions["seen"]
        assert seen["name"] == "river" and seen["scored"] is True
        assert seen["reason"].startswith("11 spaces drawn with a river (row 0, column 6")
        assert view["explain"]["score"]["total"] == 34
        assert any(row["label"] == "Expansion: River" and row["value"] == "+12"
                   for row in view["explain"]["rows"])
        assert client.get("/api/night").json()["standings"][0]["total"] == 34
        assert "river=12" in client.get("/api/night.csv").text
        board = view["id"]
        # the night chooses: every board plays that (here, the base game)
        night = client.post("/api/night/rules", json={"expansions": []}).json()
        assert night["expansions_chosen"] is True
        view = client.get(f"/api/boards/{board}").json()
        assert view["expansions"]["effective"] == [] and view["expansions"]["from"] == "night"
        assert view["expansions"]["seen"][0]["scored"] is False
        assert view["explain"]["score"]["expansions"] == {}
        # back to what each photo shows; then the board chooses for itself
        assert client.post("/api/night/rules", json={"expansions": None}).status_code == 200
        view = client.get(f"/api/boards/{board}").json()
        assert view["expansions"]["from"] == "photo" and view["explain"]["score"]["total"] == 34
        view = client.post(f"/api/boards/{board}/rules",
                           json={"expansions": ["lake"], "key_lines": []}).json()
        assert view["expansions"]["effective"] == ["lake"]
        assert view["expansions"]["from"] == "board"
        assert list(view["explain"]["score"]["expansions"]) == ["lake"]
    settings = json.loads((tmp_path / "night.json").read_text())
    assert settings["expansions_chosen"] is False
    reading = json.loads((tmp_path / "boards" / board / "reading-1.json").read_text())
    assert [s["name"] for s in reading["expansions_seen"]] == ["river"]
    again = Night(tmp_path)  # the night brought back: still what the photo shows
    assert again.expansions_of(again.records[board]) == ["lake"]
    assert again.seen_in_photo(again.records[board])[0]["name"] == "river"
