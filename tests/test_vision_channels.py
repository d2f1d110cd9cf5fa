"""A colour channel too dark to show ink is set aside (vision.channels): only a channel dark
over the paper is touched, a grey or evenly dim board is left as it is, a vivid photo of dark
ink on olive card, which such a channel made unreadable, is read, and a vivid phone photo
whose lattice such a channel hid is located."""

from __future__ import annotations

import csv
import json

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.channels import ChannelParams, SetAside, paper_levels, photo_set_aside, set_aside
from vision.recognizer import PhotoError, ReadParams, Recognizer
from vision.render.finishing import finish_photo

PARAMS = ChannelParams()


def _card(bgr: tuple[int, int, int]) -> np.ndarray:
    """A straightened board of paper colour ``bgr`` with a few dark strokes across it."""
    card = np.full((384, 384, 3), bgr, np.uint8)
    for y in range(40, 384, 70):
        cv2.line(card, (20, y), (360, y + 30), (5, 5, 5), 4)
    return card


def test_only_a_channel_dark_over_the_paper_too_is_set_aside():
    olive = _card((8, 90, 110))  # blue near black over the whole card
    assert list(paper_levels(olive)) == [8, 90, 110]
    dark = set_aside(olive, PARAMS)
    assert dark == SetAside(0, 2) and dark.name == "B"
    kept = dark.apply(olive)
    assert np.array_equal(kept[..., 0], olive[..., 2])  # the brighter of red and green
    assert np.array_equal(kept[..., 1:], olive[..., 1:])
    # the darkest channel now shows the strokes against the paper, not noise on black
    assert int(kept.min(axis=2).max()) == 90 and int(olive.min(axis=2).max()) == 8
    assert set_aside(olive, ChannelParams(dark_below=None)) == SetAside()  # switched off
    # a dark green stands in red, not the brighter blue: the water's blueness is blue against
    # red and green, and would vanish with green replaced by blue
    assert set_aside(_card((200, 10, 150)), PARAMS) == SetAside(1, 2)
    # with two channels that dark, only the darkest is set aside (with both, a red sheet
    # beside a Deep Blue board was read as the board from its red channel alone)
    assert set_aside(_card((200, 10, 12)), PARAMS) == SetAside(1, 2)


def test_boards_with_every_channel_able_to_show_ink_are_left_as_they_are():
    for paper in ((200, 200, 200), (40, 120, 200), (30, 30, 30)):  # grey, warm, a dark room
        card = _card(paper)
        dark = set_aside(card, PARAMS)
        assert dark == SetAside() and dark.name == "" and dark.apply(card) is card
    assert set_aside(_card((200, 200, 200))[..., 0], PARAMS) == SetAside()  # a grey image
    # a vivid photo: its blue is dark all over, and the locator's photo has it set aside
    assert photo_set_aside(_card((8, 90, 110)), PARAMS) == SetAside(0, 2)
    # a small board in a dark room: the photo's bright tenth is the dark table, so the
    # locator sets blue aside, but the board, measured by its own paper, keeps every channel
    photo = np.full((600, 800, 3), (5, 30, 60), np.uint8)
    photo[250:374, 300:424] = cv2.resize(_card((180, 190, 200)), (124, 124))
    assert photo_set_aside(photo, PARAMS).name == "B"
    assert set_aside(photo[250:374, 300:424], PARAMS) == SetAside()


def test_a_vivid_photo_of_dark_ink_on_olive_card_is_read(tmp_path):
    # held-out render 7100077: dark red ink on olive card in a dim room; a vivid mode takes
    # the card's blue to a few grey levels, and the reader saw noise as the board's ink
    photo, _ = load_script("evaluate").render_case(7100077)
    path = tmp_path / "vivid.jpg"
    cv2.imwrite(str(path), finish_photo(photo.image, "vivid"), [cv2.IMWRITE_JPEG_QUALITY, 92])

    def wrong(recognizer):
        grid = recognizer.read(path).grid
        return sum(grid[r][c] != photo.grid[r][c] for r in range(7) for c in range(7))

    assert wrong(Recognizer.load(params=ReadParams(channels=ChannelParams(dark_below=None)))) > 30
    reading = Recognizer.load().read(path)
    assert reading.channel_set_aside == "B"
    assert sum(reading.grid[r][c] != photo.grid[r][c] for r in range(7) for c in range(7)) <= 3


def test_a_vivid_phone_photo_is_located_with_its_dark_channel_set_aside(tmp_path):
    # held-out phone render 8800067 in a vivid mode: the photo's blue is near black over
    # the paper too, and its noise hid the printed lattice from the locator
    photo, _ = load_script("evaluate").render_case(8800067, None, "phone", None)
    path = tmp_path / "vivid.jpg"
    cv2.imwrite(str(path), finish_photo(photo.image, "vivid"), [cv2.IMWRITE_JPEG_QUALITY, 92])
    kept = ReadParams(channels=ChannelParams(dark_below=None))
    with pytest.raises(PhotoError, match=r"vivid\.jpg"):
        Recognizer.load(params=kept).read(path)
    reading = Recognizer.load().read(path)
    space = np.linalg.norm(photo.corners[1] - photo.corners[0]) / 7
    assert np.abs(reading.corners - photo.corners).max() < 0.1 * space
    assert sum(reading.grid[r][c] != photo.grid[r][c] for r in range(7) for c in range(7)) <= 2


def test_evaluate_records_the_channel_set_aside_and_reads_without_it_when_told(tmp_path):
    evaluate = load_script("evaluate")

    def run(*extra: str) -> tuple[dict, dict]:
        assert evaluate.main(["--n", "1", "--seed", "7100077", "--workers", "1",
                              "--finish", "vivid", *extra, "--csv", str(tmp_path / "e.csv"),
                              "--json", str(tmp_path / "e.json")]) == 0
        with (tmp_path / "e.csv").open() as f:
            return json.loads((tmp_path / "e.json").read_text()), next(csv.DictReader(f))

    summary, row = run()
    assert row["channel_set_aside"] == "B" and int(row["wrong_spaces"]) <= 3
    assert "dark_channels" not in summary
    summary, row = run("--no-dark-channels")
    assert row["channel_set_aside"] == "" and int(row["wrong_spaces"]) > 30
    assert summary["dark_channels"] is False
