"""Deep Blue renders (issue 16, Drawings): River and Lake games played by the rules, their
truth in the notation, water drawn where the truth says, base renders unchanged, samples."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from scoring.board import parse_grid
from scoring.engine import score
from scoring.sides import LAKE, RIVER
from vision.render import read_truth, render_photo, sample_grid
from vision.render.board_art import FlatBoard
from vision.render.pieces import Pen
from vision.render.style import sample_ink_style
from vision.render.tokens import EMPTY, orientations, sides
from vision.render.water import WaterPainter
from vision.render.water_games import (
    FULL_LAKE,
    LAKE_DIE,
    RIVER_DIE,
    fill_with_water,
    illegal_water_board,
    play_water_game,
    random_water_board,
    water_board,
)
from vision.render.water_style import CHOICES, WaterStyle, sample_water_style

ROOT = Path(__file__).resolve().parent.parent
PLAYED = (("river",), ("lake",), ("river", "lake"))
BLUE = (200, 90, 20)  # BGR, far from the black routes and the white paper


def _faces(dice: tuple[str, ...]) -> set[str]:
    return {t for face in dice for t in orientations(face)}


# --- games ----------------------------------------------------------------------------------


@pytest.mark.parametrize("played", PLAYED, ids="+".join)
def test_games_are_legal_and_score_without_illegal_reports(played) -> None:
    allowed = _faces(RIVER_DIE) | _faces(LAKE_DIE) | {FULL_LAKE}
    for seed in range(8):
        board = play_water_game(np.random.default_rng(seed), played)
        parsed = parse_grid(board.text(), f"seed {seed}")
        sheet = score(parsed)
        assert sheet.illegal == [], (seed, [i.code for i in sheet.illegal])
        assert set(sheet.to_json()["expansions"]) == set(played)
        assert bool(sheet.notes) == (len(played) == 2)  # River with Lake gets a note
        water = [t for row in board.grid for t in row if set(sides(t)) & {RIVER, LAKE}]
        assert set(water) <= allowed and water
        assert max(max(row) for row in board.rounds) <= 6
        assert all((t == EMPTY) == (n == 0) for tr, nr in zip(board.grid, board.rounds)
                   for t, n in zip(tr, nr))


def test_lake_games_join_lakes_and_may_fill_spaces() -> None:
    joined = 0
    for seed in range(120, 160):
        grid = play_water_game(np.random.default_rng(seed), ("lake",)).grid
        joined += sum(
            sides(grid[r][c])[1] == LAKE == sides(grid[r][c + 1])[3]
            or sides(grid[c][r])[2] == LAKE == sides(grid[c + 1][r])[0]
            for r in range(7)
            for c in range(6)
        )
    assert joined >= 40  # lake sides meeting lake sides: Lakes of several spaces
    sample = play_water_game(np.random.default_rng(853), ("lake",)).grid  # board_13
    assert sum(t == FULL_LAKE for row in sample for t in row) == 1


def test_filling_with_water_cascades() -> None:
    grid = [[EMPTY] * 7 for _ in range(7)]
    rounds = [[0] * 7 for _ in range(7)]
    grid[2][3], grid[3][2], grid[3][4] = "__L_", "_L__", "___L"  # round (3, 3)
    grid[4][2], grid[4][4] = "_L__", "___L"  # and round (4, 3), once (3, 3) is water
    grid[5][3] = "L___"
    fill_with_water(grid, rounds, 4)
    assert grid[3][3] == grid[4][3] == FULL_LAKE and rounds[4][3] == 4
    assert score(parse_grid("\n".join(" ".join(r) for r in grid) + "\nexpansion: lake")).illegal == []


@pytest.mark.parametrize("played", PLAYED, ids="+".join)
def test_random_and_illegal_boards_parse_and_score(played) -> None:
    for seed in range(6):
        rng = np.random.default_rng(seed)
        score(parse_grid(random_water_board(rng, played).text()))
        sheet = score(parse_grid(illegal_water_board(rng, played).text()))
        assert sheet.illegal  # every odd water drawing is one no die gives
        assert water_board(rng, played).kind in ("game", "random", "illegal")


# --- drawing --------------------------------------------------------------------------------


def _style(fill: str, river: str, seed: int) -> WaterStyle:
    """A random water style with this fill and river look, in blue."""
    rng = np.random.default_rng(seed)
    style = sample_water_style(rng, sample_ink_style(rng))
    return WaterStyle(**{**style.to_json(), "color": BLUE, "lake_fill": fill, "river": river,
                         "shore": "closed" if fill == "outline" else style.shore})


def _blue(img: np.ndarray) -> np.ndarray:
    b, r = img[..., 0].astype(int), img[..., 2].astype(int)
    return b - r > 25  # on white paper, with black routes: the blue pen, even a pale wash


def _draw_water(grid, style: WaterStyle, cell: int = 48) -> tuple[np.ndarray, WaterPainter]:
    """The water of ``grid`` alone (and the routes of its water spaces), on white paper with
    the lattice's top-left corner at (cell, cell)."""
    image = np.full((9 * cell, 9 * cell, 3), 255, np.uint8)
    board = FlatBoard(image, np.array([cell, cell], float), float(cell))
    ink = sample_ink_style(np.random.default_rng(1))
    ink.colors, ink.opacity, ink.end_error = [(20, 20, 20)], 1.0, 0.03
    painter = WaterPainter(grid, style, ink, ("tl", 0.22), np.random.default_rng(2))
    painter.draw_lakes(board)
    rng = np.random.default_rng(3)
    for r in range(7):
        for c in range(7):
            pen = Pen(image, board.cell_origin(r, c), float(cell), ink.colors[0], ink, rng)
            painter.draw_space(pen, r, c)
    return image, painter


def _inked_near_side(
    blue: np.ndarray, cell: int, r: int, c: int, side: int, depth: float = 0.12
) -> bool:
    """Blue ink just inside a side of space (r, c), about its midpoint (up to ``depth``)."""
    x0, y0 = (np.array([c, r]) + 1) * cell
    a, b, lo, hi = int(0.03 * cell), int(depth * cell), int(0.38 * cell), int(0.62 * cell)
    window = {
        0: blue[y0 + a : y0 + b, x0 + lo : x0 + hi],
        1: blue[y0 + lo : y0 + hi, x0 + cell - b : x0 + cell - a],
        2: blue[y0 + cell - b : y0 + cell - a, x0 + lo : x0 + hi],
        3: blue[y0 + lo : y0 + hi, x0 + a : x0 + b],
    }[side]
    return bool(window.any())


def _water_at_side(painter: WaterPainter, r: int, c: int, side: int) -> bool:
    """Whether the lake water of (r, c) reaches a side about its middle (at all points 0.03
    inside it from 0.35 to 0.65 along it); False when it reaches none of them."""
    t = np.linspace(0.35, 0.65, 7)
    near = np.full(7, 0.03)
    x, y = {0: (t, near), 1: (1 - near, t), 2: (t, 1 - near), 3: (near, t)}[side]
    wet = painter.lakes.field(r, c, x, y) < 1
    assert wet.all() or not wet.any(), (r, c, side, wet)
    return bool(wet.all())


@pytest.mark.parametrize("fill", CHOICES["lake_fill"][0])
def test_water_is_drawn_where_the_truth_says(fill: str) -> None:
    """Lake water reaches the middle of every lake side and of no other side, river ink
    is at the middle of every river side and no other, every water space shows blue ink,
    and the spaces without water none."""
    cell = 48
    for seed, river in ((11, "line"), (12, "banks")):
        board = play_water_game(np.random.default_rng(seed), ("river", "lake"))
        image, painter = _draw_water(board.grid, _style(fill, river, seed), cell)
        blue = _blue(image)
        for r in range(7):
            for c in range(7):
                kinds = sides(board.grid[r][c])
                x0, y0 = (np.array([c, r]) + 1) * cell
                inner = blue[y0 + 6 : y0 + cell - 6, x0 + 6 : x0 + cell - 6]
                where = (fill, river, seed, r, c, board.grid[r][c])
                if not set(kinds) & {RIVER, LAKE}:
                    assert inner.mean() < 0.005, where
                    continue
                assert inner.any(), where
                if LAKE in kinds:
                    wet = {k for k in range(4) if _water_at_side(painter, r, c, k)}
                else:
                    wet = {k for k in range(4) if _inked_near_side(blue, cell, r, c, k)}
                assert wet == {k for k in range(4) if kinds[k] in (RIVER, LAKE)}, where


def test_filled_lakes_show_their_water_at_the_lake_sides() -> None:
    """A scribbled or washed lake has ink by the middle of each lake side (hatches, dots and
    wave marks may fall either side of it)."""
    cell = 48
    for fill in ("scribble", "wash"):
        board = play_water_game(np.random.default_rng(21), ("lake",))
        image, _ = _draw_water(board.grid, _style(fill, "line", 21), cell)
        blue = _blue(image)
        for r in range(7):
            for c in range(7):
                for k, kind in enumerate(sides(board.grid[r][c])):
                    if kind == LAKE:
                        assert _inked_near_side(blue, cell, r, c, k, 0.2), (fill, r, c, k)


def test_a_base_grid_renders_exactly_as_before_even_when_opted_in() -> None:
    for seed in (3, 8):
        grid = sample_grid(np.random.default_rng(seed))
        base = render_photo(grid, seed=seed, megapixels=0.4)
        opted = render_photo(grid, seed=seed, megapixels=0.4, expansions=("river",))
        assert np.array_equal(base.image, opted.image)
        assert "extras" not in base.to_truth() and "water_style" not in base.conditions
        assert opted.to_truth()["extras"] == ["expansion: river"]


def test_water_renders_follow_the_seed_and_differ_from_the_plain_look() -> None:
    board = play_water_game(np.random.default_rng(7), ("lake",))
    kwargs = {"seed": 7, "megapixels": 0.4, "rounds": board.rounds, "board_only": True}
    a = render_photo(board.grid, expansions=("lake",), **kwargs)
    b = render_photo(board.grid, expansions=("lake",), **kwargs)
    plain = render_photo(board.grid, **kwargs)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, plain.image)
    with pytest.raises(ValueError, match="portal"):
        render_photo(board.grid, expansions=("portal",), **kwargs)


def test_every_kind_of_deep_blue_board_renders() -> None:
    """Games, random boards and odd drawings (dead-end rivers, lakes on opposite sides...)."""
    for seed in range(9):
        rng = np.random.default_rng(seed)
        played = PLAYED[seed % 3]
        board = (play_water_game, random_water_board, illegal_water_board)[seed // 3](rng, played)
        photo = render_photo(board.grid, seed=seed, megapixels=0.3, rounds=board.rounds,
                             expansions=played)
        assert photo.image.size and photo.grid == board.grid


def test_water_style_choices_are_probabilities() -> None:
    for options, p in CHOICES.values():
        assert len(options) == len(p) and abs(sum(p) - 1) < 1e-9


# --- truth, command, samples ----------------------------------------------------------------


def test_truth_round_trips_through_the_notation(tmp_path) -> None:
    board = play_water_game(np.random.default_rng(4), ("river",))
    photo = render_photo(board.grid, seed=4, megapixels=0.4, rounds=board.rounds,
                         expansions=("river",))
    truth = read_truth(photo.save(tmp_path / "river.jpg"))
    assert truth.grid == board.grid and truth.extras == ["expansion: river"]
    text = "\n".join([" ".join(row) for row in truth.grid] + truth.extras)
    assert parse_grid(text).tokens == board.grid
    assert score(parse_grid(text)).to_json() == score(parse_grid(board.text())).to_json()


def test_rink_render_expansion_writes_deep_blue_photos(tmp_path) -> None:
    from rink.cli import main

    args = ["render", "--out", str(tmp_path), "--n", "2", "--seed", "6", "--megapixels", "0.3"]
    result = CliRunner().invoke(main, [*args, "--expansion", "lake"])
    assert result.exit_code == 0, result.output
    for jpg in sorted(tmp_path.glob("*.jpg")):
        truth = read_truth(jpg)
        assert truth.extras == ["expansion: lake"] and "water_style" in truth.conditions
        score(parse_grid("\n".join([" ".join(r) for r in truth.grid] + truth.extras)))
    both = CliRunner().invoke(main, [*args, "--expansion", "river", "--expansions"])
    assert both.exit_code != 0 and "give one" in both.output


def test_samples_are_reproducible_and_include_river_and_lake_boards(tmp_path) -> None:
    from vision.render.samples import write_samples

    written = write_samples(tmp_path)
    kinds = set()
    for image_path in written:
        kept = ROOT / "sample_photos" / image_path.name
        new, old = (json.loads(p.with_suffix(".json").read_text()) for p in (image_path, kept))
        assert new == old, image_path.name
        diff = cv2.absdiff(cv2.imread(str(image_path)), cv2.imread(str(kept)))
        assert diff.max() <= 2, image_path.name
        kinds.add(tuple(new.get("extras", [])))
        text = "\n".join(new["grid"] + new.get("extras", []))
        assert score(parse_grid(text)).to_json() == new["expected_score"]
    assert {("expansion: river",), ("expansion: lake",), ()} <= kinds
