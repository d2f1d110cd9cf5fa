"""The ink check (issue 14): real renders through the real pipeline.

Spaces read as empty that hold faint ink (pale marker, pencil) are listed for review; spaces
a hand covers are listed as covered; spaces whose printed lines vanish (a reflection's
blown-out patch, a pale pen lying on them) are listed as hidden; a clean sample photo gains
no flag; tokens never change.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.ink_check import (
    COVERED,
    GHOST,
    HIDDEN,
    INK_SEEN,
    LAKE_FILL,
    InkCheckParams,
    InkMeasures,
    check_ink,
    ghost_spaces,
    loose_ends,
)
from vision.recognizer import ReadParams, Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PhoneConditions

ROOT = Path(__file__).resolve().parents[1]

# One condition at a time: flat sheet, room light, no habits, nothing on the sheet.
PLAIN = {"sheet": (("flat", 1.0),), "light": (("room", 1.0),), "shaky": 0.0, "legs": 0.0,
         "sloppy": 0.0, "low_res": 0.0, "small_board": 0.0, "denoise_dim": 0.0,
         "denoise_other": 0.0, "reflection": 0.0, "hand": 0.0, "pen": 0.0, "die": 0.0}


@pytest.fixture(scope="module")
def readers() -> tuple[Recognizer, Recognizer]:
    with_check = Recognizer.load()
    without = Recognizer(with_check.classifier, with_check.orienter,
                         ReadParams(ink=InkCheckParams(enabled=False)),
                         base_classifier=with_check.base_classifier, faint=with_check.faint)
    return with_check, without


@pytest.fixture(scope="module")
def faint_blind() -> tuple[Recognizer, Recognizer]:
    """Readers that miss much faint ink (the standard readers, without the faint-ink ones),
    with and without the ink check: the check's safety net is tested where it is needed."""
    shipped = Recognizer.load()
    with_check = Recognizer(shipped.classifier, shipped.orienter, ReadParams(),
                            base_classifier=shipped.base_classifier)
    without = Recognizer(shipped.classifier, shipped.orienter,
                         ReadParams(ink=InkCheckParams(enabled=False)),
                         base_classifier=shipped.base_classifier)
    return with_check, without


def _photo(seed: int, ink: str, **conditions):
    grid = sample_grid(np.random.default_rng(seed))
    profile = PhoneConditions(name="test", **{**PLAIN, "ink": ((ink, 1.0),), **conditions})
    photo = render_photo(grid, seed=seed, megapixels=3, options=PhotoOptions(conditions=profile))
    return grid, photo


@pytest.mark.parametrize("ink", ["pale_marker", "pencil"])
def test_faint_ink_read_as_empty_is_flagged(faint_blind, ink: str) -> None:
    with_check, without = faint_blind
    grid, photo = _photo(5, ink)
    reading = with_check.read(photo.image)
    empty_read = [(r, c) for r in range(7) for c in range(7)
                  if grid[r][c] != "." and reading.grid[r][c] == "."]
    assert len(empty_read) >= 10  # this reader misses much of the faint ink
    flagged = {(e.row, e.col): e for e in reading.review}
    # nearly every one is flagged; the faintest, no darker than the board's emptiest spaces,
    # can slip under its noise floor
    assert sum(rc in flagged for rc in empty_read) >= 0.8 * len(empty_read)
    truly_empty = [(r, c) for r in range(7) for c in range(7) if grid[r][c] == "."]
    assert sum(rc in flagged for rc in truly_empty) <= 2
    ink_entries = [e for e in reading.review if e.kind == "ink"]
    assert ink_entries and all(e.reason.startswith(INK_SEEN) and e.token == "."
                               for e in ink_entries)
    # flags only: the grid is the one read without the check
    assert reading.grid == without.read(photo.image).grid


def test_hand_covered_spaces_listed_as_covered(readers) -> None:
    with_check, _ = readers
    _, photo = _photo(5, "marker", hand=1.0)
    covered = [rc for rc, f in photo.covered.items() if f >= 0.5]
    assert covered
    reading = with_check.read(photo.image)
    kinds = {(e.row, e.col): e for e in reading.review}
    for rc in covered:
        assert kinds[rc].kind == "covered" and COVERED in kinds[rc].reason


def test_a_hand_on_a_base_board_is_not_taken_for_a_lake(readers) -> None:
    with_check, _ = readers
    _, photo = _photo(5, "marker", hand=1.0)
    reading = with_check.read(photo.image)
    assert not [e for e in reading.review if LAKE_FILL in e.reason]


def test_a_covered_lake_space_says_the_cover_may_be_its_lake(readers) -> None:
    """Deep Blue tuning render 9150017 (``scripts/evaluate.py --seed 9150017 --expansion
    mix``, clean: nothing lies on the sheet): its filled lakes measure as covered, as a pen
    or a die would. Each such space is still listed as covered, and says that the cover may
    be the lake drawn there."""
    with_check, _ = readers
    photo, played = load_script("evaluate").render_case(9150017, None, None, "mix")
    assert "lake" in played and not photo.covered
    reading = with_check.read(photo.image)
    covered = [e for e in reading.review if e.kind == "covered"]
    assert (1, 2) in {(e.row, e.col) for e in covered} and reading.grid[1][2] == "LLLL"
    for entry in covered:
        lake = "L" in reading.grid[entry.row][entry.col]
        assert COVERED in entry.reason and (LAKE_FILL in entry.reason) == lake


def test_clean_sample_photo_gains_no_flag(readers) -> None:
    with_check, without = readers
    path = ROOT / "sample_photos" / "board_01.jpg"
    reading = with_check.read(path)
    assert [e.kind for e in reading.review if e.kind != "reading"] == []
    assert len(reading.review) == len(without.read(path).review)
    assert "ink_check" in reading.timings


def test_review_json_keys_unchanged(readers) -> None:
    with_check, _ = readers
    _, photo = _photo(5, "marker", hand=1.0)
    reading = with_check.read(photo.image)
    for entry in reading.review:
        assert set(entry.to_json()) == {"row", "col", "token", "alternatives", "reason"}


def _over_spaces(image: np.ndarray, quads: np.ndarray, spaces: list[tuple[int, int]],
                 colour: tuple[int, int, int], opacity: float, soften: int) -> np.ndarray:
    """The photo with ``spaces`` (their true corners in the photo) overlaid with ``colour``,
    edges softened by a blur ``soften`` px wide: a blown-out reflection or a pale object."""
    mask = np.zeros(image.shape[:2], np.float32)
    for r, c in spaces:
        centre = quads[r, c].mean(axis=0)
        grown = centre + 1.2 * (quads[r, c] - centre)  # over its printed lines too
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), soften)[..., None] * opacity
    return (image * (1 - mask) + np.array(colour, np.float32) * mask).astype(np.uint8)


@pytest.mark.parametrize("what, colour, opacity", [
    ("glare", (255, 255, 255), 0.97),  # a reflection's blown-out patch: ink and lines gone
    ("pale pen", (200, 222, 232), 1.0),  # a cream pen body: no darker than the paper
])
def test_spaces_whose_lines_vanish_are_listed_as_hidden(readers, what, colour, opacity) -> None:
    with_check, without = readers
    grid, photo = _photo(5, "marker")
    drawn = [(r, c) for r in range(7) for c in range(7) if grid[r][c] != "."]
    hidden = [rc for rc in drawn if rc[0] in (2, 3) and rc[1] in (2, 3, 4)]
    assert len(hidden) >= 3
    image = _over_spaces(photo.image, photo.space_corners, hidden, colour, opacity, 3)
    reading = with_check.read(image)
    listed = {(e.row, e.col): e for e in reading.review}
    # every hidden space is listed, as hidden unless something else listed it first
    assert all(rc in listed for rc in hidden), what
    assert any(listed[rc].kind == "hidden" and listed[rc].reason.startswith(HIDDEN)
               for rc in hidden)
    # the spaces that show their lines are not
    assert not [rc for rc, e in listed.items() if e.kind == "hidden" and rc not in hidden]
    assert reading.grid == without.read(image).grid  # flags only


def _made_up(grid: list[list[str]], ink: dict[tuple[int, int], float],
             covered: tuple[tuple[int, int], ...] = ()) -> InkMeasures:
    """Ink check measures of a made-up board: 0.5 on drawn spaces unless given, 0.02 on
    empty ones; the covered spaces half covered."""
    levels = np.array([[ink.get((r, c), 0.5 if grid[r][c] != "." else 0.02) for c in range(7)]
                       for r in range(7)], np.float32)
    cover = np.zeros((7, 7), np.float32)
    for rc in covered:
        cover[rc] = 0.5
    return InkMeasures(ink=levels, covered=cover, paper=200.0)


def _board(*rows: str) -> list[list[str]]:
    return [row.split() for row in rows]


# A board of six joined routes (row 1) and one faint station alone (row 4, column 3).
GHOSTED = _board(". . . . . . .",
                 ". _H_H _H_H _H_H _H_H _H_H _H_H",
                 ". . . . . . .",
                 ". . . . . . .",
                 ". . . RHRHo . . .",
                 ". . . . . . .",
                 ". . . . . . .")


def test_a_faint_route_joining_nothing_is_listed_as_a_possible_ghost() -> None:
    lone = (4, 3)
    assert loose_ends(GHOSTED, *lone) == 4 and loose_ends(GHOSTED, 1, 3) == 0
    assert loose_ends(GHOSTED, 1, 1) == 1  # its west end faces the empty (1, 0)
    assert loose_ends(GHOSTED, 1, 6) == 0  # its east end is the board's edge
    measures = _made_up(GHOSTED, {lone: 0.1})
    assert ghost_spaces(GHOSTED, measures) == {lone: 0.5}
    listed = check_ink(GHOSTED, [], measures)
    assert [(e.row, e.col, e.kind) for e in listed] == [(4, 3, "ghost")]
    assert listed[0].reason.startswith(GHOST) and listed[0].token == "RHRHo"
    # as dark as the board's other routes, it is a route like them
    assert ghost_spaces(GHOSTED, _made_up(GHOSTED, {lone: 0.3})) == {}
    # covered, it is left to the cover (listed as covered)
    hidden = check_ink(GHOSTED, [], _made_up(GHOSTED, {lone: 0.1}, covered=(lone,)))
    assert [e.kind for e in hidden] == ["covered"]
    # switched off, nothing
    assert ghost_spaces(GHOSTED, measures, InkCheckParams(ghost_ratio=None)) == {}


def test_a_faint_route_that_joins_its_neighbours_is_no_ghost() -> None:
    """A route as faint, but joined on at least three sides: a faint stroke of this game."""
    joined = [row[:] for row in GHOSTED]
    joined[4][2], joined[4][4], joined[3][3] = "_H_H", "_H_H", "R_R_"
    assert loose_ends(joined, 4, 3) == 1  # only its south end faces an empty space
    assert (4, 3) not in ghost_spaces(joined, _made_up(joined, {(4, 3): 0.1}))


def test_a_board_with_few_drawn_spaces_has_no_ghosts() -> None:
    """Under ghost_min_spaces drawn spaces, there is no usual ink to fall short of."""
    sparse = _board(". . . . . . .", ". _H_H _H_H _H_H . . .", ". . . . . . .",
                    ". . . . . . .", ". . . RHRHo . . .", ". . . . . . .", ". . . . . . .")
    assert ghost_spaces(sparse, _made_up(sparse, {(4, 3): 0.05})) == {}


def test_ghosts_of_an_erased_game_on_a_dry_erase_board_are_listed(readers, tmp_path) -> None:
    """Phone tuning render 8850140 (``scripts/evaluate.py --seed 8850140 --conditions
    phone``): orange dry-erase ink so faint that the faint-ink readers read the ghosts of an
    earlier game as routes, surely and unlisted. Two of them are listed as possible ghosts;
    the board's real routes are not."""
    with_check, without = readers
    photo, _ = load_script("evaluate").render_case(8850140, None, "phone")
    assert "dry_erase" in photo.drawn
    path = tmp_path / "8850140.jpg"  # read as evaluate.py reads it
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    reading = with_check.read(path)
    ghosts = {(e.row, e.col) for e in reading.review if e.kind == "ghost"}
    assert ghosts == {(3, 0), (4, 2)}
    assert all(photo.grid[r][c] == "." and reading.grid[r][c] != "." for r, c in ghosts)
    assert reading.grid == without.read(path).grid  # flags only
