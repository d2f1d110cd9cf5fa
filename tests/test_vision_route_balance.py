"""Railways and highways in proportion (vision.route_balance): a phone photo whose railways
are read as highways board-wide is weighed again, its changed spaces listed and the board
warned about; sure readings and balanced boards are left alone. The phone render is of the
tuning seeds (scripts/evaluate.py --conditions phone --seed 8850000)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.decode import decode
from vision.recognizer import Recognizer
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.route_balance import (
    RouteBalanceParams,
    balance_routes,
    board_split,
    route_share,
    short_kind,
    split_routes,
)
from vision.space_parts import same_space

SAMPLE = "sample_photos/board_01.jpg"
SWAPPED = 8850190  # faint pencil on curled paper: its railways read as highways


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def swapped(tmp_path_factory):
    """The phone photo of seed SWAPPED as scripts/evaluate.py renders it, and its truth."""
    seed = SWAPPED
    rng = np.random.default_rng([seed, 99])
    photo = render_photo(sample_grid(rng), seed=seed, options=PhotoOptions(conditions="phone"))
    path = tmp_path_factory.mktemp("balance") / f"phone_{seed}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path), photo.grid


def _wrong(grid, truth) -> set[tuple[int, int]]:
    return {(r, c) for r in range(7) for c in range(7) if not same_space(grid[r][c], truth[r][c])}


def test_a_board_read_with_too_few_railways_is_weighed_again(recognizer, swapped):
    path, truth = swapped
    plain = Recognizer.load(params=replace(recognizer.params,
                                           route_balance=RouteBalanceParams(enabled=False)))
    before, after = plain.read(path), recognizer.read(path)
    assert route_share(truth, "R")[0] > 0.5
    assert route_share(before.grid, "R")[0] < 0.3  # read with too few railways
    assert route_share(after.grid, "R")[0] >= 0.35
    wrong_before, wrong_after = _wrong(before.grid, truth), _wrong(after.grid, truth)
    assert len(wrong_after) <= len(wrong_before) - 5
    changed = {(r, c) for r in range(7) for c in range(7) if after.grid[r][c] != before.grid[r][c]}
    listed = {(e.row, e.col): e for e in after.review}
    assert changed and changed <= set(listed)
    assert any("few railways" in listed[rc].reason for rc in changed)
    assert any("railways and highways look alike" in w for w in after.warnings)
    assert not any("look alike" in w for w in before.warnings)
    # the misreads missing from review are fewer
    assert len(wrong_after - set(listed)) < len(wrong_before - {(e.row, e.col)
                                                                for e in before.review})


def test_a_clean_photo_is_not_weighed(recognizer):
    reading = recognizer.read(SAMPLE)
    balance = balance_routes(reading.probs, reading.classes)
    assert balance.kind is None and not balance.changed
    assert balance.probs is reading.probs
    assert not any("look alike" in w for w in reading.warnings)


def test_sure_readings_do_not_move_whatever_the_share(recognizer):
    """Even told that a balanced board is short of railways, the cap keeps sure readings:
    board_01's probabilities come back as they were."""
    reading = recognizer.read(SAMPLE)
    eager = RouteBalanceParams(min_sides=1, low_share=0.99, target_share=0.99)
    kind, _ = short_kind(reading.grid, eager)
    assert kind is not None
    balance = balance_routes(reading.probs, reading.classes, params=eager)
    assert balance.kind is None and balance.probs is reading.probs
    assert balance.decoded.grid == decode(reading.probs, reading.classes).grid


def test_few_route_sides_are_not_weighed():
    classes = [".", "H_H_", "R_R_"]
    probs = np.zeros((7, 7, 3), np.float32)
    probs[..., 0] = 1.0
    probs[0, 0] = [0.0, 0.6, 0.4]  # one unsure highway: 2 route sides, all highway
    balance = balance_routes(probs, classes)
    assert short_kind(balance.decoded.grid, RouteBalanceParams()) == (None, 0.0)
    assert balance.kind is None and balance.decoded.grid[0][0] == "H_H_"
    assert balance_routes(probs, classes, params=RouteBalanceParams(min_sides=2)).kind == "R"



def test_the_board_divide_sits_between_its_two_groups():
    """Railway sides sure (+8), highway sides near even (+0.4 to -1): the divide moves
    towards highway, at most split_cap; two equally sure groups, too few sides or the
    divide switched off leave it even."""
    params = RouteBalanceParams()
    lopsided = np.array([8.0] * 20 + [0.4, 0.2, -0.5, -1.0] * 5)
    assert board_split(lopsided, params) == params.split_cap
    assert board_split(-lopsided, params) == -params.split_cap
    assert 0 < board_split(lopsided, replace(params, split_cap=10.0)) < 6.0
    assert board_split(np.array([8.0] * 20 + [-8.0] * 20), params) == 0.0
    assert board_split(lopsided[:10], params) == 0.0  # under split_min_sides
    assert board_split(np.full(40, 5.0), params) == 0.0  # one group only
    assert board_split(lopsided, replace(params, split_cap=None)) == 0.0


def test_a_near_tie_goes_the_way_the_board_divides():
    """Ten sure railway spaces and ten straight highways near even, half of them read 0.55
    against 0.45 as railway: at the board's divide the near ties are more likely highway;
    sure readings stay. (Which token a near tie decodes to is then the decoder's agreement
    with its neighbours, vision.decode.)"""
    classes = [".", "H_H_", "R_R_"]
    probs = np.zeros((7, 7, 3), np.float32)
    probs[..., 0] = 1.0
    spaces = [(r, c) for r in range(7) for c in range(7)]
    for r, c in spaces[:10]:
        probs[r, c] = [0.0, 0.0001, 0.9999]  # sure railways: 20 sides
    for r, c in spaces[10:15]:
        probs[r, c] = [0.0, 0.45, 0.55]  # near ties read as railway: 10 sides
    for r, c in spaces[15:20]:
        probs[r, c] = [0.0, 0.58, 0.42]  # and as highway: 10 sides
    split, divide = split_routes(probs, classes)
    assert divide == RouteBalanceParams().split_cap
    best = split.argmax(axis=2)
    assert all(best[r, c] == 2 for r, c in spaces[:10])
    assert all(best[r, c] == 1 for r, c in spaces[10:20])
    assert np.allclose(split.sum(axis=2), 1.0)
    balance = balance_routes(probs, classes)
    assert balance.split == divide and np.array_equal(balance.probs, split)
    assert all(balance.decoded.grid[r][c] == "R_R_" for r, c in spaces[:10])
    even = balance_routes(probs, classes, params=RouteBalanceParams(split_cap=None))
    assert even.split == 0.0 and even.kind == "H"  # read all railway, then weighed for it
    assert balance.kind is None  # at the divide the board reads half highway
    assert split_routes(probs, classes, RouteBalanceParams(split_cap=None))[0] is probs


DIVIDED = 8850161  # dry-erase ink on bumpy paper, small in a low-resolution photo


def test_a_phone_board_read_at_its_own_divide(recognizer, tmp_path):
    """Phone tuning render 8850161: its railway sides read surely, several highway sides near
    even; read at the board's own divide it has fewer wrong spaces than read at even."""
    seed = DIVIDED
    rng = np.random.default_rng([seed, 99])
    photo = render_photo(sample_grid(rng), seed=seed, options=PhotoOptions(conditions="phone"))
    path = str(tmp_path / f"phone_{seed}.jpg")
    cv2.imwrite(path, photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    params = recognizer.params
    even = Recognizer.load(params=replace(
        params, route_balance=replace(params.route_balance, split_cap=None)))
    at_even, divided = even.read(path), recognizer.read(path)
    wrong_even, wrong_divided = _wrong(at_even.grid, photo.grid), _wrong(divided.grid, photo.grid)
    assert len(wrong_divided) <= len(wrong_even) - 3
    assert wrong_divided < wrong_even  # every space it gets wrong was wrong at even too
