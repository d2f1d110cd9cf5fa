"""The recogniser's policy on a located board that reads badly (vision.acceptance)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.acceptance import (
    FRAME_ONLY,
    FRAMED_WARNING,
    LINELESS,
    AcceptanceParams,
    FoundBoard,
    accept_lattice,
    accept_reading,
    framed_only,
    sure_board,
)
from vision.decode import Decoded
from vision.errors import BoardCut, BoardUnreadable, NoBoardFound
from vision.image_io import LoadedPhoto
from vision.locate import LatticeFit
from vision.locate.score import FrameSeen
from vision.recognizer import Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PhoneConditions
from vision.review import ReviewEntry

PARAMS = AcceptanceParams()
SIDE = 1000
INSIDE = np.array([[250, 250], [750, 250], [750, 750], [250, 750]], np.float32)  # 71 px spaces


def _photo() -> LoadedPhoto:
    """A plain sheet of paper: nothing in it looks like a cut board."""
    image = np.full((SIDE, SIDE, 3), 235, np.uint8)
    return LoadedPhoto(image, 1.0, (SIDE, SIDE), name="dim.jpg")


def _decoded(doubtful: int) -> Decoded:
    grid = [["H_H_"] * 7 for _ in range(7)]
    review = [ReviewEntry(i // 7, i % 7, "H_H_", (("H_H_", 0.5), (".", 0.4)),
                          "uncertain reading (0.50)") for i in range(doubtful)]
    return Decoded(grid=grid, review=review)


def test_a_board_beyond_doubt_with_many_doubtful_spaces_is_read_with_a_warning():
    warnings = accept_reading(_photo(), _decoded(30), FoundBoard(1.0, INSIDE, 1.0, 16), PARAMS)
    assert len(warnings) == 1 and warnings[0].startswith("30 of 49 spaces could not be read")


def _read_with_its_doubts(recognizer: Recognizer, source):
    """``source`` read as a board with more than ``max_review_spaces`` doubtful spaces, with
    the warning that says so."""
    reading = recognizer.read(source)
    assert len(reading.review) > PARAMS.max_review_spaces
    assert any("spaces could not be read surely" in w for w in reading.warnings)
    return reading


def _right(reading, truth: list[list[str]]) -> int:
    """How many of the 49 spaces ``reading`` read as ``truth`` has them."""
    return sum(reading.grid[r][c] == truth[r][c] for r in range(7) for c in range(7))


def test_a_board_doubtful_all_over_is_refused_however_sure_its_lattice():
    """A reading to check all over is no reading (a lattice fitted on a railway's cross
    ties, in a dim phone photo cut through the board, read 49 of 49 spaces doubtful)."""
    most = PARAMS.max_review_sure
    assert accept_reading(_photo(), _decoded(most), FoundBoard(1.0, INSIDE, 1.0, 16), PARAMS)
    with pytest.raises(BoardUnreadable, match=f"{most + 1} of 49 spaces could not be read"):
        accept_reading(_photo(), _decoded(most + 1), FoundBoard(1.0, INSIDE, 1.0, 16), PARAMS)
    # none of its lines followed either (noise in a dark photo): no board at all
    with pytest.raises(NoBoardFound, match=LINELESS):
        accept_reading(_photo(), _decoded(most + 1), FoundBoard(1.0, INSIDE, 1.0, 0), PARAMS)


def test_a_few_doubtful_spaces_need_no_warning():
    found = FoundBoard(0.5, INSIDE, 0.7, 16)
    assert accept_reading(_photo(), _decoded(PARAMS.max_review_spaces), found, PARAMS) == []


@pytest.mark.parametrize("fit, orientation, corners, lines", [
    (0.6, 1.0, INSIDE, 16),  # located with doubt
    (1.0, 0.7, INSIDE, 16),  # its top unsure
    (1.0, 1.0, INSIDE + [0, 200], 16),  # the lattice half a space from the photo's bottom edge
    (0.8, 1.0, INSIDE, 11),  # located with some doubt, too few of its lines followed
])
def test_a_doubtful_board_with_many_doubtful_spaces_is_refused(fit, orientation, corners,
                                                               lines):
    """Refused as a board too hard to read (its top was told), not as no board."""
    with pytest.raises(BoardUnreadable, match="30 of 49 spaces could not be read") as refusal:
        accept_reading(_photo(), _decoded(30), FoundBoard(fit, corners, orientation, lines),
                       PARAMS)
    assert isinstance(refusal.value, NoBoardFound) and refusal.value.doubtful == 30
    assert str(refusal.value).startswith("the board in ") and "was found" in str(refusal.value)


@pytest.mark.parametrize("fit, orientation, lines, read", [
    (0.8, 1.0, 12, True),  # located with some doubt, its printed lines followed
    (0.7, 0.95, 16, True),
    (0.8, 1.0, 11, False),  # too few of its lines followed
    (0.65, 1.0, 16, False),  # located with too much doubt (cut photos, combs a space off)
    (0.8, 0.85, 16, False),  # its top unsure
    (0.8, 1.0, None, False),  # its lines not looked for
])
def test_a_board_whose_printed_lines_were_followed_is_read_despite_a_doubtful_fit(
        fit, orientation, lines, read):
    found = FoundBoard(fit, INSIDE, orientation, lines)
    assert sure_board(found, _photo(), PARAMS) == read
    if read:
        warnings = accept_reading(_photo(), _decoded(30), found, PARAMS)
        assert warnings[0].startswith("30 of 49 spaces could not be read")
    else:
        with pytest.raises(BoardUnreadable, match="30 of 49 spaces could not be read"):
            accept_reading(_photo(), _decoded(30), found, PARAMS)


def test_a_pencil_board_located_with_some_doubt_is_read_when_its_lines_are_followed(tmp_path):
    """Phone photo 8870079 (scripts/evaluate.py --seed 8870000 --conditions phone: curled
    paper, pencil, low resolution) is located 0.85 surely, its top found surely and all 16
    of its printed lines followed, with over 20 doubtful spaces: read, with a warning and
    its doubtful spaces in review, rather than refused as unreadable."""
    photo, _ = load_script("evaluate").render_case(8_870_079, None, "phone")
    path = tmp_path / "pencil.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    recognizer = Recognizer.load()
    reading = _read_with_its_doubts(recognizer, path)
    assert reading.confidence < PARAMS.sure_board_confidence
    assert reading.bend is not None and reading.bend.lines_followed >= PARAMS.lined_board_lines
    assert _right(reading, photo.grid) >= 30
    # without the followed lines' say, the same photo is refused as unreadable
    strict = replace(recognizer.params, acceptance=replace(PARAMS, lined_board_lines=17))
    with pytest.raises(BoardUnreadable, match="could not be read surely"):
        Recognizer.load(params=strict).read(path)


def test_a_sure_board_lies_a_space_inside_a_photo_big_enough_to_read():
    space = 500 / 7
    assert sure_board(FoundBoard(1.0, INSIDE, 1.0), _photo(), PARAMS)
    near = INSIDE + [0, 250 - 1 - 0.9 * space]  # under a space from the bottom edge
    assert not sure_board(FoundBoard(1.0, near, 1.0), _photo(), PARAMS)
    assert not sure_board(FoundBoard(1.0, near, 1.0, 15), _photo(), PARAMS)
    # ... unless found surely with all 16 of its printed lines followed: then three
    # quarters of a space will do
    assert sure_board(FoundBoard(1.0, near, 1.0, 16), _photo(), PARAMS)
    nearer = INSIDE + [0, 250 - 1 - 0.7 * space]
    assert not sure_board(FoundBoard(1.0, nearer, 1.0, 16), _photo(), PARAMS)
    # located less surely (its lines followed, ``followed_surely``): a whole space still
    assert not sure_board(FoundBoard(0.8, near, 1.0, 16), _photo(), PARAMS)
    assert sure_board(FoundBoard(0.8, INSIDE, 1.0, 16), _photo(), PARAMS)
    # a 400-pixel photo shrunk by nothing: too small to read, whatever was found in it
    small = LoadedPhoto(np.full((400, 400, 3), 235, np.uint8), 1.0, (400, 400), name="s.jpg")
    assert not sure_board(FoundBoard(1.0, INSIDE * 0.4, 1.0), small, PARAMS)


def test_a_doubtful_grid_with_no_printed_line_is_no_board():
    """Noise a lattice seemed to fit: none of its lines could be followed (vision.unbend),
    or fewer than 3 of them, which no board read in the evaluation sets had."""
    for lines in (0, 2):
        with pytest.raises(NoBoardFound, match=LINELESS):
            accept_reading(_photo(), _decoded(5), FoundBoard(0.6, INSIDE, 0.7, lines), PARAMS)
    assert accept_reading(_photo(), _decoded(5), FoundBoard(0.6, INSIDE, 0.7, 3), PARAMS) == []
    # a board beyond doubt is still read (its lines hidden under ink and hands, say)
    assert accept_reading(_photo(), _decoded(5), FoundBoard(1.0, INSIDE, 1.0, 0), PARAMS) == []


def test_a_dim_pale_marker_board_is_read_with_its_doubts_and_refused_when_cut():
    """A whole board in pale marker, in a dim room with the phone's denoising: most of its
    spaces are doubtful, but it is found and oriented beyond doubt, so it is read with a
    warning rather than refused; cut by the photo's edge, the same board is refused."""
    grid = sample_grid(np.random.default_rng(64))
    plain = {"sheet": (("flat", 1.0),), "light": (("dim", 1.0),), "shaky": 0.0, "legs": 0.0,
             "sloppy": 0.0, "low_res": 0.0, "small_board": 0.0, "denoise_dim": 1.0,
             "denoise_other": 0.0, "reflection": 0.0, "hand": 0.0, "pen": 0.0, "die": 0.0,
             "ink": (("pale_marker", 1.0),)}
    photo = render_photo(grid, seed=64, megapixels=3,
                         options=PhotoOptions(conditions=PhoneConditions(name="t", **plain)))
    recognizer = Recognizer.load()
    reading = recognizer.read(photo.image)
    assert len(reading.review) > PARAMS.max_review_spaces
    assert any("spaces could not be read surely" in w for w in reading.warnings)
    right = photo.corners[:, 0].max()
    cut = photo.image[:, :int(right - 0.35 * np.ptp(photo.corners[:, 0]))]
    with pytest.raises(BoardCut, match="the part beyond the photo's right edge"):
        recognizer.read(cut)


def test_a_whole_board_near_the_photos_edge_is_no_cut_board():
    """Phone photo 9520149 of scripts/evaluate_partial.py (uncut; pale marker in a dim room,
    curled paper, another sheet at the top): the board is found and oriented surely, all 16
    of its printed lines followed, with over 20 doubtful spaces, its lattice 0.98 of a space
    from the photo's right edge, where its paper runs off the photo. It is read with a
    warning, not refused as a board cut by that edge."""
    rng = np.random.default_rng([9_520_149, 5])
    photo = render_photo(sample_grid(rng), seed=9_520_149, megapixels=float(rng.uniform(1, 4)),
                         options=PhotoOptions(conditions="phone"))
    recognizer = Recognizer.load()
    reading = _read_with_its_doubts(recognizer, photo.image)
    assert reading.bend is not None and reading.bend.lines_followed == 16
    assert _right(reading, photo.grid) >= 40
    # a whole space asked of every board: taken for a board cut by the right edge
    strict = replace(recognizer.params, acceptance=replace(PARAMS, followed_inside_spaces=1.0))
    with pytest.raises(BoardCut, match="the part beyond the photo's right edge"):
        Recognizer.load(params=strict).read(photo.image)


@pytest.mark.parametrize("confidence, frame, paper, inside, read", [
    (0.3, 0.0, 0.0, 1.0, True),  # located surely enough: its frame is not asked
    (0.0, 0.75, 0.7, 0.9, True),  # too doubtful a fit, but a frame seen along every side
    (0.29, 0.74, 1.0, 0.5, False),  # a frame broken somewhere: no board
    (0.0, 1.0, 0.69, 0.5, False),  # the table beyond it: a sheet's edge, not a printed frame
    (0.0, 1.0, 1.0, 0.91, False),  # a whole line across it: a few spaces of a lattice
])
def test_a_doubtful_lattice_is_read_for_a_frame_seen_on_all_sides(confidence, frame, paper,
                                                                 inside, read):
    fit = LatticeFit(corners=INSIDE, score=0.5, confidence=confidence,
                     frame_seen=FrameSeen(frame, paper, inside))
    assert framed_only(fit, PARAMS) == (read and confidence < PARAMS.min_locate_confidence)
    if read:
        warning = FRAMED_WARNING if framed_only(fit, PARAMS) else (
            "the board was found with little confidence (0.30); check that the read grid is "
            "this board's")
        assert accept_lattice(_photo(), fit, PARAMS) == [warning]
    else:
        with pytest.raises(NoBoardFound):
            accept_lattice(_photo(), fit, PARAMS)


@pytest.mark.parametrize("orientation, doubtful, blank, read", [
    (0.9, 5, False, True),
    (0.89, 5, False, False),  # its top not told surely: no Exit marks, perhaps no board
    (1.0, 0, True, False),  # nothing drawn inside: a notepad's printed border
])
def test_a_board_read_for_its_frame_needs_its_top_and_drawings(orientation, doubtful, blank,
                                                              read):
    decoded = _decoded(doubtful)
    if blank:
        decoded = Decoded(grid=[["."] * 7 for _ in range(7)], review=[])
    found = FoundBoard(0.1, INSIDE, orientation, 4)
    if read:
        assert accept_reading(_photo(), decoded, found, PARAMS) == []
    else:
        with pytest.raises(NoBoardFound, match=FRAME_ONLY):
            accept_reading(_photo(), decoded, found, PARAMS)
    # located surely enough, the same reading is no frame-only board
    assert accept_reading(_photo(), _decoded(doubtful), replace(found, fit_confidence=0.3),
                          PARAMS) == []


def test_a_board_with_white_lattice_lines_is_read_from_its_frame():
    """Photo 7100360 (scripts/evaluate.py --seed 7100000): a board whose lattice lines are
    printed white on its pale tint, which the locator's map of dark lines does not see. The
    lattice is located right but only 0.23 surely, its dark frame seen along every side: it
    is read, every space right, with the warning that says so and asks to check it; without
    the frame's say it is refused as no board."""
    photo, _ = load_script("evaluate").render_case(7_100_360)
    recognizer = Recognizer.load()
    reading = recognizer.read(photo.image)
    assert reading.confidence < PARAMS.min_locate_confidence
    assert reading.grid == photo.grid
    assert FRAMED_WARNING in reading.warnings
    strict = replace(recognizer.params, acceptance=replace(PARAMS, framed_board_frame=1.01))
    with pytest.raises(NoBoardFound, match="no board found"):
        Recognizer.load(params=strict).read(photo.image)


def test_a_lattice_with_two_printed_lines_followed_is_no_board():
    """Fresh base render 7400055 (scripts/evaluate.py --seed 7400000): a board whose lattice
    lines are printed white, beside a second grid sheet. The best lattice is not the board's
    (its sheet's edge and a few drawn lines, located 0.32 surely, over a space off), and only
    1 or 2 of its 16 lines (as a JPEG, as the evaluation reads it: 2) are printed lines that
    vision.unbend can follow. Read, every one of its 49 spaces was wrong; it is refused as
    no board now."""
    photo, _ = load_script("evaluate").render_case(7_400_055)
    recognizer = Recognizer.load()
    with pytest.raises(NoBoardFound, match=LINELESS):
        recognizer.read(photo.image)
    lenient = replace(recognizer.params, acceptance=replace(PARAMS, min_lines_seen=1))
    reading = Recognizer.load(params=lenient).read(photo.image)
    assert reading.bend is not None and reading.bend.lines_followed < PARAMS.min_lines_seen
    assert _right(reading, photo.grid) < 10
