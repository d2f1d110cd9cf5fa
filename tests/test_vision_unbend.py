"""Bent paper (issue 14): the printed grid lines followed on the straightened board
(vision.unbend), on phone-profile renders read through the real pipeline, against the
renders' true space corners."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognizer import ReadParams, Recognizer
from vision.rectify import CanonicalBoard
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PhoneConditions
from vision.unbend import Unbend, UnbendParams, unbend

LOST = "printed grid lines could not be followed"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def plain() -> Recognizer:
    """The reader with one homography for the whole grid (the stage switched off)."""
    return Recognizer.load(params=ReadParams(unbend=UnbendParams(enabled=False)))


def _sheet(kind: str) -> PhoneConditions:
    """The phone profile with the sheet ``kind`` forced, a marker, a room's light and nothing
    on the sheet: what the board shows is the bend."""
    return PhoneConditions(name="test", sheet=((kind, 1.0),), ink=(("marker", 1.0),),
                           light=(("room", 1.0),), hand=0.0, pen=0.0, die=0.0,
                           reflection=0.0, low_res=0.0, small_board=0.0, denoise_other=0.0)


def _bent_photo(seed: int, kind: str, rotation: float):
    grid = sample_grid(np.random.default_rng(seed))
    return render_photo(grid, seed=seed, megapixels=3.0, options=PhotoOptions(
        conditions=_sheet(kind), clutter=False, lens_k1=0.0, rotation=rotation))


def _corner_error(read: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """(largest, mean) distance of read space corners from the true ones, in spaces."""
    space = np.linalg.norm(np.roll(truth, -1, axis=2) - truth, axis=-1).mean()
    distance = np.linalg.norm(read - truth, axis=-1) / space
    return float(distance.max()), float(distance.mean())


@pytest.mark.parametrize(("seed", "kind", "rotation"), [(8840003, "curled", 90.0),
                                                        (8840101, "folded", 180.0)])
def test_spaces_of_a_bent_sheet_are_cut_along_their_own_lines(recognizer, plain, seed, kind,
                                                              rotation):
    photo = _bent_photo(seed, kind, rotation)
    assert photo.drawn[0] == kind
    bent, flat = recognizer.read(photo.image), plain.read(photo.image)
    assert bent.bend.applied and bent.bend.lines_followed == 16
    assert not any(LOST in w for w in bent.warnings)
    assert "unbend" in bent.timings and "unbend" not in flat.timings
    followed_max, followed_mean = _corner_error(bent.space_corners, photo.space_corners)
    one_max, one_mean = _corner_error(flat.space_corners, photo.space_corners)
    assert one_max > 0.05  # the homography misses the bent lines by a twentieth of a space
    assert followed_max < 0.04 and followed_max < one_max / 3
    assert followed_mean < one_mean / 3
    # the crossings the crops are cut at: the outer ones are the lattice's corners (upright)
    np.testing.assert_allclose(bent.space_corners[0, 0, 0], photo.space_corners[0, 0, 0],
                               atol=0.04 * np.linalg.norm(photo.corners[1] - photo.corners[0]) / 7)


def test_a_flat_board_is_left_as_it_is(recognizer, plain):
    """A flat lens-free render straightened with its true corners: the lines lie where the
    homography puts them, so nothing is remapped and the crops are the same."""
    seed = 8830100
    grid = sample_grid(np.random.default_rng(seed))
    photo = render_photo(grid, seed=seed, megapixels=3.0,
                         options=PhotoOptions(clean=True, lens_k1=0.0))
    bent = recognizer.read(photo.image, corners=photo.corners)
    flat = plain.read(photo.image, corners=photo.corners)
    assert bent.bend.trusted and not bent.bend.applied and bent.bend.reason == "flat"
    assert np.abs(bent.bend.offsets).max() < 1.0  # canonical px: 0.02 of a space
    np.testing.assert_array_equal(bent.board_image, flat.board_image)
    np.testing.assert_array_equal(bent.probs, flat.probs)
    np.testing.assert_allclose(bent.space_corners, flat.space_corners, atol=1e-3)
    assert bent.warnings == flat.warnings


def test_a_flat_board_located_in_its_photo_reads_the_same(recognizer, plain):
    """Located (the corners a pixel or two off), a flat board's lines move the spaces by
    hardly anything, towards the truth, and the reading is the same."""
    seed = 8830101
    grid = sample_grid(np.random.default_rng(seed))
    photo = render_photo(grid, seed=seed, megapixels=3.0, options=PhotoOptions(
        conditions=_sheet("flat"), clutter=False, lens_k1=0.0))
    bent, flat = recognizer.read(photo.image), plain.read(photo.image)
    assert bent.bend.trusted
    assert np.abs(bent.bend.offsets).max() < 0.05 * recognizer.board.cell_px
    assert bent.grid == flat.grid == photo.grid
    followed_max, _ = _corner_error(bent.space_corners, photo.space_corners)
    one_max, _ = _corner_error(flat.space_corners, photo.space_corners)
    assert followed_max <= one_max


def test_lines_that_cannot_be_followed_warn_and_fall_back(recognizer, plain):
    """Corners given half a space off the lattice: the lines are nowhere near where they are
    looked for, so the board is cut by the given corners alone, with a warning."""
    photo = _bent_photo(8840003, "curled", 90.0)
    space = (photo.corners[2] - photo.corners[0]) / 7
    corners = photo.corners + space / 2
    bent = recognizer.read(photo.image, corners=corners)
    flat = plain.read(photo.image, corners=corners)
    assert not bent.bend.trusted and not bent.bend.applied and bent.bend.warning
    assert bent.bend.lines_followed < UnbendParams().min_lines
    [warning] = [w for w in bent.warnings if LOST in w]
    assert "\n" not in warning and warning.endswith("check the read grid")
    assert [w for w in bent.warnings if LOST not in w] == flat.warnings
    np.testing.assert_array_equal(bent.board_image, flat.board_image)
    np.testing.assert_allclose(bent.space_corners, flat.space_corners, atol=1e-3)


def test_blank_paper_has_no_lines_to_follow():
    board = CanonicalBoard(cell_px=48, pad_px=24)
    paper = np.random.default_rng(0).normal(200, 3, (board.size, board.size))
    result = unbend(np.clip(paper, 0, 255).astype(np.uint8), board)
    assert isinstance(result, Unbend)
    assert not result.trusted and not result.applied and result.warning
    assert result.lines_followed < 4
    assert result.offsets.shape == (8, 8, 2)


def test_no_displacement_maps_every_point_to_itself():
    board = CanonicalBoard(cell_px=48, pad_px=24)
    params = UnbendParams()
    result = unbend(np.full((board.size, board.size), 200, np.uint8), board, params)
    result.curves[:] = 0.0
    points = np.random.default_rng(1).uniform(0, board.size, (5, 7, 2))
    np.testing.assert_allclose(result.source_points(board, points), points)
