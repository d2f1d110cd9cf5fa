"""Geometry: tokens under turns/mirrors, straightening, crops, corner order, Exit evidence."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.space import parse_token
from vision.crops import darkest_channel, ink_darkness, space_crops
from vision.decode import DecodeParams, decode
from vision.exit_marks import exit_axis_evidence
from vision.model_meta import CLASSES, mirror_index_map, rotate_token, rotation_index_map
from vision.orient import EXIT_VIEW
from vision.rectify import CanonicalBoard, order_corners, rotate_corners, warp_board
from vision.render import BASE_TOKENS
from vision.space_parts import (
    BASE_CLASSES,
    ODD_CLASSES,
    WATER_CLASSES,
    class_index,
    class_of,
    mirror_token,
    mirrored_parts,
    same_space,
    side_letters,
    token_parts,
    turned_parts,
)


def test_classes_are_every_drawable_side_combination_and_the_water_drawings():
    assert len(CLASSES) == 190 == len(set(CLASSES))
    assert CLASSES[0] == "."
    assert CLASSES[:51] == BASE_CLASSES and set(BASE_CLASSES) == set(BASE_TOKENS)
    assert CLASSES[51:83] == ODD_CLASSES
    assert {"H___", "___R", "HR_H", "_RRH"} <= set(ODD_CLASSES)  # dead ends, 3-way stations
    for token in ODD_CLASSES:
        assert parse_token(token).token == token
    # every River and Lake die face in every turn, and the water drawings no die gives
    assert {"W_W_", "__WW", "H_H_+_W_W", "W_W_+_R_R", "LLLL", "_L_H", "RLLH", "WWW_",
            "L_L_"} <= set(WATER_CLASSES)
    assert len({token_parts(t) for t in CLASSES}) == len(CLASSES)  # no two draw the same


def test_turns_and_mirrors_stay_in_the_classes():
    index = class_index()
    for token in CLASSES:
        assert rotate_token(token, 4) == token
        assert same_space(mirror_token(mirror_token(token)), token)
        assert class_of(rotate_token(token, 1), index) >= 0
        assert class_of(mirror_token(token), index) >= 0
    assert rotate_token("HR__", 1) == "_HR_"  # West goes North: (N,E,S,W) -> (W,N,E,S)
    assert rotate_token("H__R", 1) == "RH__"
    assert rotate_token("HRHRo", 1) == "RHRHo"
    assert mirror_token("HR__") == "H__R"
    assert mirror_token("HH__+__WW") == "H__H+_WW_"
    assert sorted(rotation_index_map(1)) == list(range(len(CLASSES)))
    assert sorted(mirror_index_map()) == list(range(len(CLASSES)))
    turned = CLASSES[rotation_index_map(1)[CLASSES.index("H_H_+_W_W")]]
    assert same_space(turned, "_H_H+W_W_") and turned == "W_W_+_H_H"


def test_space_parts_tell_overpasses_bridges_piers_and_stations_apart():
    # one piece joins every pair of its sides; an overpass or a bridge joins only the
    # straight pairs; an empty side joins nothing
    assert token_parts("HRHR").joins == (1, 1, 1, 1, 1, 1)
    assert token_parts("HRHRo").joins == (0, 0, 0, 0, 1, 1)
    assert token_parts("H_H_+_W_W").joins == (0, 0, 0, 0, 1, 1)
    assert side_letters("H_H_+_W_W") == "HWHW"
    assert token_parts("L_R_").joins == (-1, -1, -1, -1, 1, -1)
    assert token_parts(".").kinds == (0, 0, 0, 0)
    bridge = token_parts("R_R_+_W_W")
    assert turned_parts(bridge, 1) == token_parts("_R_R+W_W_")
    assert mirrored_parts(token_parts("LLHR")) == token_parts("LRHL")


def _board_photo() -> tuple[np.ndarray, np.ndarray, CanonicalBoard]:
    """A drawn straight board (cell 40) with one mark in space (2, 5), seen in perspective."""
    flat_board = CanonicalBoard(cell_px=40, pad_px=40)
    flat = np.full((flat_board.size, flat_board.size, 3), 235, np.uint8)
    for i in range(8):
        p = 40 + 40 * i
        cv2.line(flat, (p, 40), (p, 320), (60, 60, 60), 2)
        cv2.line(flat, (40, p), (320, p), (60, 60, 60), 2)
    cv2.circle(flat, (40 + 40 * 5 + 20, 40 + 40 * 2 + 20), 10, (0, 0, 0), -1)
    src = flat_board.lattice_corners()
    dst = np.array([[120, 90], [520, 130], [560, 500], [90, 470]], np.float32)
    h_mat = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(flat, h_mat, (700, 600), borderValue=(90, 120, 90))
    return photo, dst, CanonicalBoard(cell_px=32, pad_px=16)


def test_warp_and_crops_put_each_space_in_its_place():
    photo, corners, board = _board_photo()
    flat = warp_board(photo, corners, board)
    assert flat.shape == (board.size, board.size, 3)
    crops = space_crops(ink_darkness(flat, board.cell_px), board, margin_px=8)
    assert crops.shape == (49, 48, 48)
    centre_ink = crops[:, 16:32, 16:32].mean(axis=(1, 2))
    assert int(np.argmax(centre_ink)) == 2 * 7 + 5
    assert centre_ink[2 * 7 + 5] > 5 * np.delete(centre_ink, 2 * 7 + 5).max()


def test_rotating_corners_turns_the_straightened_board_clockwise():
    photo, corners, board = _board_photo()
    upright = warp_board(photo, corners, board)
    turned = warp_board(photo, rotate_corners(corners, 1), board)
    diff = np.abs(turned.astype(int) - np.rot90(upright, k=-1).astype(int))
    assert np.median(diff) < 3


def test_order_corners_is_clockwise_from_top_left():
    pts = np.array([[560, 500], [120, 90], [90, 470], [520, 130]], np.float32)
    ordered = order_corners(pts)
    assert ordered[0].tolist() == [120, 90] and ordered[1].tolist() == [520, 130]
    assert ordered[2].tolist() == [560, 500] and ordered[3].tolist() == [90, 470]


def test_large_photo_is_shrunk_before_warping():
    photo, corners, board = _board_photo()
    big = cv2.resize(photo, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
    small = warp_board(photo, corners, board).astype(int)
    large = warp_board(big, corners * 4, board).astype(int)
    assert np.mean(np.abs(small - large)) < 6


def test_exit_marks_tell_a_quarter_turn():
    from vision.render import render_photo

    grid = [["."] * 7 for _ in range(7)]
    photo = render_photo(grid, seed=11, megapixels=1.0, clean=True)
    for turns, sign in ((0, 1), (1, -1), (2, 1), (3, -1)):
        corners = rotate_corners(photo.corners, turns)
        view = ink_darkness(warp_board(photo.image, corners, EXIT_VIEW), EXIT_VIEW.cell_px)
        evidence = exit_axis_evidence(view.astype(np.float32), EXIT_VIEW.cell_px,
                                      EXIT_VIEW.pad_px)
        assert evidence * sign > 0, turns


def _probs_for(grid: list[list[str]], sure: float = 0.99) -> np.ndarray:
    index = {t: i for i, t in enumerate(CLASSES)}
    probs = np.full((7, 7, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    for r in range(7):
        for c in range(7):
            probs[r, c, index[grid[r][c]]] = sure
    return probs


def test_decode_keeps_clear_readings_even_when_neighbours_disagree():
    grid = [["."] * 7 for _ in range(7)]
    grid[3][3] = "H_H_"  # a highway running into two empty spaces: two real Errors
    decoded = decode(_probs_for(grid), list(CLASSES))
    assert decoded.grid == grid and decoded.review == []


@pytest.mark.parametrize("second", [0.40, 0.30])
def test_decode_breaks_near_ties_by_neighbours_and_lists_them(second):
    grid = [["."] * 7 for _ in range(7)]
    grid[3][2], grid[3][3], grid[3][4] = "_H_H", "_H_H", "_H_H"
    probs = _probs_for(grid)
    index = {t: i for i, t in enumerate(CLASSES)}
    probs[3, 3] = 0.001
    probs[3, 3, index["H_H_"]] = 0.45  # the wrong turn, slightly ahead
    probs[3, 3, index["_H_H"]] = second
    probs[3, 3] /= probs[3, 3].sum()
    decoded = decode(probs, list(CLASSES))
    assert decoded.grid[3][3] == "_H_H"
    assert [(d.row, d.col) for d in decoded.review] == [(3, 3)]
    assert "neighbours" in decoded.review[0].reason


def test_decode_turns_a_route_that_meets_an_exit_of_the_other_kind():
    grid = [["."] * 7 for _ in range(7)]
    grid[0][3] = "R_R_"  # a railway from the top's railway Exit (row 0, column 3) down
    probs = _probs_for(grid)
    index = {t: i for i, t in enumerate(CLASSES)}
    probs[0, 3] = 0.001
    probs[0, 3, index["H_H_"]] = 0.60  # read as a highway, far ahead
    probs[0, 3, index["R_R_"]] = 0.25
    probs[0, 3] /= probs[0, 3].sum()
    # a highway meeting the railway Exit: the photo's reading would stand if the Exit only
    # rewarded a match (the rule until 6 Dec 2026) ...
    kept = decode(probs, list(CLASSES), DecodeParams(exit_match=0.5, exit_clash=0.0))
    assert kept.grid[0][3] == "H_H_"
    # ... a highway never joins a railway Exit, so the clash weighs
    decoded = decode(probs, list(CLASSES))
    assert decoded.grid[0][3] == "R_R_"
    assert "H_H_" in next(e.reason for e in decoded.review if (e.row, e.col) == (0, 3))


def test_decode_weighs_each_neighbour_by_how_surely_it_is_read():
    grid = [["."] * 7 for _ in range(7)]
    grid[2][3], grid[3][2], grid[3][3] = "H_H_", "_H_H", "_H_H"
    probs = _probs_for(grid)
    index = {t: i for i, t in enumerate(CLASSES)}
    probs[2, 3] = 0.5 / (len(CLASSES) - 1)
    probs[2, 3, index["H_H_"]] = 0.5  # above: a highway coming down, read in doubt
    probs[3, 3] = 0.18 / (len(CLASSES) - 2)
    probs[3, 3, index["H_H_"]], probs[3, 3, index["_H_H"]] = 0.42, 0.40
    # counted fully, the doubtful highway above and the sure one on the left cancel out and
    # the photo's slightly better reading stands ...
    even = decode(probs, list(CLASSES), DecodeParams(neighbour_sureness=False))
    assert even.grid[3][3] == "H_H_"
    # ... weighed by how surely each is read, the sure neighbour has its way
    decoded = decode(probs, list(CLASSES))
    assert decoded.grid[3][3] == "_H_H" and decoded.grid[2][3] == "H_H_"


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_darkest_channel_is_the_minimum_of_the_three(dtype):
    rng = np.random.default_rng(8)
    image = rng.integers(0, 256, (31, 17, 3)).astype(dtype)
    assert np.array_equal(darkest_channel(image), image.min(axis=2))
    grey = image[..., 0]
    assert darkest_channel(grey) is grey  # a grey image is its own darkest channel
