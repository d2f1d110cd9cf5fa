"""The synthetic renderer: determinism, geometry of the recorded corners, every piece state,
the games it plays, truth files and the ``rink render`` command."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from scoring.exits import EXITS
from scoring.space import parse_token
from vision.render import BASE_TOKENS, read_truth, render_photo, sample_grid
from vision.render.games import SPECIAL_ROUTES, orientations, play_game, random_board
from vision.render.pieces import Pen, draw_piece
from vision.render.style import WIDE_PENS, sample_ink_style
from vision.render.tokens import SPECIAL_TOKENS, TokenError, sides

# dead ends, 3-way stations, a highway over a railway dead end
ODD_TOKENS = ("H___", "_R__", "HR_R", "RRH_", "H_H_+___R")
CELL = 48  # canonical cell size for checks, px


def _side_windows(cell: int) -> dict[str, tuple[slice, slice]]:
    """(rows, cols) slices just inside each side of a cell, centred on the side midpoint."""
    a, b = int(0.09 * cell), int(0.22 * cell)
    lo, hi = int(0.36 * cell), int(0.64 * cell) + 1
    return {
        "N": (slice(a, b), slice(lo, hi)),
        "S": (slice(cell - b, cell - a), slice(lo, hi)),
        "W": (slice(lo, hi), slice(a, b)),
        "E": (slice(lo, hi), slice(cell - b, cell - a)),
    }


def _inked_sides(cell_img: np.ndarray, background: float) -> set[str]:
    """Sides of a grey cell image with marker ink (clearly darker than the background) near
    their midpoints."""
    cell = cell_img.shape[0]
    return {
        side
        for side, (rows, cols) in _side_windows(cell).items()
        if background - float(cell_img[rows, cols].min()) > 50
    }


def _drawn_sides(token: str) -> set[str]:
    return {s for s, k in zip("NESW", sides(token), strict=True) if k != "_"}


def _draw_alone(token: str, seed: int, pens: str = "standard") -> np.ndarray:
    """``token`` drawn on blank paper (grey 235) with a random style of small end errors; the
    grey image of its cell."""
    rng = np.random.default_rng(seed)
    style = sample_ink_style(rng, pens=pens)
    style.end_error = min(style.end_error, 0.04)
    img = np.full((3 * CELL, 3 * CELL, 3), 235, np.uint8)
    draw_piece(Pen(img, np.array([CELL, CELL], float), CELL, (30, 30, 30), style, rng), token)
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[CELL : 2 * CELL, CELL : 2 * CELL]


# --- pieces ---------------------------------------------------------------------------------


@pytest.mark.parametrize("token", BASE_TOKENS[1:] + ODD_TOKENS)
def test_every_piece_state_inks_exactly_its_sides(token: str) -> None:
    for seed in range(6):
        grey = _draw_alone(token, seed)
        assert _inked_sides(grey, 235) == _drawn_sides(token), (token, seed)


def test_pieces_drawn_with_wide_pens_ink_exactly_their_sides() -> None:
    """The finest liners and the broadest markers of WIDE_PENS still ink a piece's sides and
    no others."""
    for token in BASE_TOKENS[1:] + ODD_TOKENS:
        for seed in range(4):
            grey = _draw_alone(token, seed, pens="wide")
            assert _inked_sides(grey, 235) == _drawn_sides(token), (token, seed)


def test_wide_pens_reach_past_the_renderers_own_and_keep_the_rest_of_the_look() -> None:
    """pens="wide" draws every pen size from WIDE_PENS (well past the standard ranges both
    ways), keeps the pieces drawable, and leaves the rest of the seed's look as it was."""
    sizes = {name: [] for name in WIDE_PENS}
    for seed in range(300):
        standard = sample_ink_style(np.random.default_rng(seed))
        wide = sample_ink_style(np.random.default_rng(seed), pens="wide")
        assert (standard.pens, wide.pens) == ("standard", "wide")
        for name in sizes:
            sizes[name].append(getattr(wide, name))
        assert wide.tie_spacing >= 2.5 * wide.line_width - 1e-12
        assert wide.rail_gap >= 2.0 * wide.line_width - 1e-12
        assert wide.station_size >= 1.15 * wide.highway_width - 1e-12
        kept = {k: v for k, v in standard.to_json().items() if k not in WIDE_PENS}
        assert "pens" not in kept and wide.to_json()["pens"] == "wide"
        assert kept == {k: v for k, v in wide.to_json().items()
                        if k not in WIDE_PENS and k != "pens"}, seed
    assert min(sizes["line_width"]) < 0.015 and max(sizes["line_width"]) > 0.08
    assert min(sizes["highway_width"]) < 0.08 and max(sizes["highway_width"]) > 0.26
    assert min(sizes["tie_spacing"]) < 0.08
    with pytest.raises(ValueError, match="pens must be one of standard, wide, not 'huge'"):
        sample_ink_style(np.random.default_rng(0), pens="huge")


def test_station_square_is_drawn_at_the_centre() -> None:
    for seed in range(5):
        rng = np.random.default_rng(seed)
        style = sample_ink_style(rng)
        style.station_fill, style.wobble = "filled", 0.0
        img = np.full((CELL, CELL, 3), 235, np.uint8)
        draw_piece(Pen(img, np.zeros(2), CELL, (30, 30, 30), style, rng), "H_R_")
        dark = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < 120
        # the square is wider than the highway arm that runs into it from the north
        assert dark[CELL // 2].sum() > dark[int(0.15 * CELL)].sum() + 2, seed


def test_malformed_token_is_a_clear_error() -> None:
    grid = [["."] * 7 for _ in range(7)]
    grid[3][3] = "HXH_"
    with pytest.raises(TokenError, match="row 3, column 3: not a space token: 'HXH_'"):
        render_photo(grid, seed=1, megapixels=0.3)
    with pytest.raises(TokenError, match="7 rows of 7"):
        render_photo(grid[:6], seed=1, megapixels=0.3)


# --- photos ---------------------------------------------------------------------------------


def _checkerboard_grids() -> list[list[list[str]]]:
    """All drawn states, each on a space whose four neighbours are empty."""
    tokens = list(BASE_TOKENS[1:]) + list(ODD_TOKENS)
    grids = []
    while tokens:
        grid = [["."] * 7 for _ in range(7)]
        for r in range(7):
            for c in range(7):
                if (r + c) % 2 == 0 and tokens:
                    grid[r][c] = tokens.pop(0)
        grids.append(grid)
    return grids


def _rectify(photo, cell: int = CELL) -> np.ndarray:
    side = 7 * cell
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    matrix = cv2.getPerspectiveTransform(photo.corners.astype(np.float32), target)
    flat = cv2.warpPerspective(photo.image, matrix, (side, side), flags=cv2.INTER_AREA)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize(
    "grid_index, seed, overrides",
    [
        (0, 11, {"rotation": 0.0, "tilt": 0.0}),
        (1, 12, {"rotation": 180.0, "tilt": 38.0}),
        (2, 13, {"rotation": 97.0, "tilt": 25.0}),
        (0, 14, {"rotation": 270.0, "tilt": 35.0, "marker": "red"}),
        (1, 15, {"rotation": 33.0, "tilt": 15.0, "marker": "blue"}),
    ],
)
def test_corners_put_piece_ends_on_side_midpoints(
    grid_index: int, seed: int, overrides: dict
) -> None:
    grid = _checkerboard_grids()[grid_index]
    photo = render_photo(grid, seed=seed, megapixels=1.0, clean=True, fill=1.0, **overrides)
    flat = _rectify(photo)
    for r in range(7):
        for c in range(7):
            if grid[r][c] == ".":
                continue
            cell_img = flat[r * CELL : (r + 1) * CELL, c * CELL : (c + 1) * CELL]
            background = float(np.percentile(cell_img, 75))
            assert _inked_sides(cell_img, background) == _drawn_sides(grid[r][c]), (
                r,
                c,
                grid[r][c],
            )


def test_rendering_is_deterministic_from_the_seed() -> None:
    grid = sample_grid(np.random.default_rng(5))
    assert grid == sample_grid(np.random.default_rng(5))
    a = render_photo(grid, seed=77, megapixels=0.5)
    b = render_photo(grid, seed=77, megapixels=0.5)
    c = render_photo(grid, seed=78, megapixels=0.5)
    assert np.array_equal(a.image, b.image)
    assert a.to_truth() == b.to_truth()
    assert not np.array_equal(a.image, c.image) or a.image.shape != c.image.shape


def test_requested_megapixels_and_random_size() -> None:
    grid = sample_grid(np.random.default_rng(1))
    photo = render_photo(grid, seed=3, megapixels=1.0)
    h, w = photo.image.shape[:2]
    assert abs(w * h - 1e6) < 5e3 and photo.image.dtype == np.uint8 and photo.image.ndim == 3
    assert photo.conditions["size"] == [w, h]
    mp = render_photo(grid, seed=0, megapixels=None).conditions["megapixels"]
    assert 1.0 <= mp <= 12.0


def test_board_only_gives_the_flat_board_and_its_lattice() -> None:
    grid = [["."] * 7 for _ in range(7)]
    grid[0][0] = "H_H_"
    photo = render_photo(grid, seed=2, megapixels=0.5, board_only=True)
    (x0, y0), (x1, _), (_, y2), _ = photo.corners
    assert x1 - x0 == pytest.approx(y2 - y0)  # straight-on: the lattice is square
    cell = (x1 - x0) / 7
    grey = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY).astype(int)
    column = grey[
        int(y0 + 0.3 * cell) : int(y0 + 0.7 * cell), int(x0 + 0.35 * cell) : int(x0 + 0.65 * cell)
    ]
    assert (
        column.min() < grey[int(y0 + 3.5 * cell), int(x0 + 3.8 * cell)] - 60
    )  # ink in space (0, 0)


def test_grid_and_exits_stay_in_frame_under_random_conditions() -> None:
    for seed in range(6):
        grid = sample_grid(np.random.default_rng(seed))
        photo = render_photo(grid, seed=seed, megapixels=0.4)
        h, w = photo.image.shape[:2]
        assert (
            (photo.corners >= 0).all()
            and (photo.corners[:, 0] < w).all()
            and (photo.corners[:, 1] < h).all()
        )
        # corners are in board order: TL -> TR -> BR -> BL runs clockwise in the image
        x, y = photo.corners[:, 0], photo.corners[:, 1]
        assert 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0


def test_truth_file_round_trips(tmp_path) -> None:
    grid = sample_grid(np.random.default_rng(9))
    photo = render_photo(grid, seed=9, megapixels=0.5)
    path = photo.save(tmp_path / "board.jpg")
    truth = read_truth(path)
    assert truth.grid == grid
    assert np.allclose(truth.corners, photo.corners, atol=1e-3)
    assert truth.seed == 9
    assert truth.size == (photo.image.shape[1], photo.image.shape[0])
    assert cv2.imread(str(path)).shape == photo.image.shape
    data = json.loads((tmp_path / "board.json").read_text())
    assert set(data) >= {"grid", "corners", "seed", "size", "conditions"}
    assert all(len(row.split(" ")) == 7 for row in data["grid"])


# --- what gets drawn ------------------------------------------------------------------------


def _side(token: str, index: int) -> str:
    return sides(token)[index]


def test_games_are_legal() -> None:
    legal = set(BASE_TOKENS)
    for seed in range(15):
        board = play_game(np.random.default_rng(seed))
        g = board.grid
        assert all(t in legal for row in g for t in row)
        specials = [t for row in g for t in row if t in SPECIAL_TOKENS]
        assert len(specials) <= 3
        assert len({o for t in specials for o in SPECIAL_ROUTES if t in orientations(o)}) == len(
            specials
        )
        for r in range(7):
            for c in range(7):
                if c < 6:
                    a, b = _side(g[r][c], 1), _side(g[r][c + 1], 3)
                    assert {a, b} != {"H", "R"}, (r, c)
                if r < 6:
                    a, b = _side(g[r][c], 2), _side(g[r + 1][c], 0)
                    assert {a, b} != {"H", "R"}, (r, c)
        for exit_ in EXITS:
            assert _side(g[exit_.row][exit_.col], exit_.side) in ("_", exit_.kind)
        assert sum(t != "." for row in g for t in row) >= 5


def test_random_boards_cover_all_states_and_fill_rates() -> None:
    rng = np.random.default_rng(0)
    seen, fills = set(), []
    for _ in range(60):
        g = random_board(rng).grid
        seen |= {t for row in g for t in row}
        fills.append(sum(t != "." for row in g for t in row) / 49)
    assert seen == set(BASE_TOKENS)
    assert min(fills) < 0.15 and max(fills) > 0.85


def test_sample_grid_mixes_kinds() -> None:
    grids = [sample_grid(np.random.default_rng(s)) for s in range(60)]
    assert all(len(g) == 7 and all(len(row) == 7 for row in g) for g in grids)
    odd = [g for g in grids if any(t not in BASE_TOKENS for row in g for t in row)]
    assert 0 < len(odd) < 20
    for g in grids:
        for row in g:
            for t in row:
                parse_token(t)  # the project's notation reads every drawn token


def test_rink_render_command_writes_photos_and_truth(tmp_path) -> None:
    from rink.cli import main

    result = CliRunner().invoke(
        main, ["render", "--out", str(tmp_path), "--n", "2", "--seed", "4", "--megapixels", "0.3"]
    )
    assert result.exit_code == 0, result.output
    jpgs = sorted(tmp_path.glob("*.jpg"))
    assert len(jpgs) == 2
    for jpg in jpgs:
        truth = read_truth(jpg)
        assert cv2.imread(str(jpg)).shape[:2][::-1] == truth.size
        assert "pens" not in truth.conditions["ink_style"]  # the renderer's own pens


def test_rink_render_draws_wide_pens_when_asked(tmp_path) -> None:
    from rink.cli import main

    result = CliRunner().invoke(main, ["render", "--out", str(tmp_path), "--n", "1", "--seed", "4",
                                       "--megapixels", "0.3", "--pens", "wide"])
    assert result.exit_code == 0, result.output
    (jpg,) = tmp_path.glob("*.jpg")
    ink = read_truth(jpg).conditions["ink_style"]
    assert ink["pens"] == "wide"
    assert ink["tie_spacing"] >= 2.5 * ink["line_width"]
    wrong = CliRunner().invoke(main, ["render", "--out", str(tmp_path), "--pens", "huge"])
    assert wrong.exit_code == 2 and "'huge' is not one of 'standard', 'wide'" in wrong.output


def test_exif_orientation_is_honoured_by_a_viewer(tmp_path) -> None:
    from PIL import Image, ImageOps

    grid = sample_grid(np.random.default_rng(2))
    photo = render_photo(grid, seed=2, megapixels=0.3)
    for orientation in (3, 6, 8):
        path = photo.save(tmp_path / f"turned{orientation}.jpg", exif_orientation=orientation)
        with Image.open(path) as pil:
            assert pil.getexif()[0x0112] == orientation
            shown = np.asarray(ImageOps.exif_transpose(pil).convert("RGB"))[..., ::-1]
        assert shown.shape == photo.image.shape
        assert np.abs(shown.astype(int) - photo.image).mean() < 4
        assert read_truth(path).conditions["exif_orientation"] == orientation


# Expansion drawings (docs/NOTATION.md): every side with a route, river or lake shows ink
EXPANSION_TOKENS = (
    "W_W_",
    "_W_W",
    "WW__",
    "__WW",
    "H_H_+_W_W",
    "_R_R+W_W_",
    "L___",
    "_LL_",
    "LLL_",
    "LLLL",
    "L_R_",
    "_H_L",
    "LLHR",
    "RLLH",
    "R___@A",
    "H___@B",
    ".@C",
    "H_H_!",
    "RR__!",
    ".!",
    "H_H_?",
    "H_H_*",
    "HHHH*",
    "H_H_+_H_H*",
    "HH__+__HH*",
    "H__H+_HH_*",
    ".#",
)


@pytest.mark.parametrize("token", EXPANSION_TOKENS)
def test_expansion_drawings_ink_their_sides(token: str) -> None:
    drawn = {
        s
        for piece in token.split("+")
        for s, k in zip("NESW", piece[:4], strict=False)
        if k in "HRWL"
    }
    for seed in range(4):
        grey = _draw_alone(token, seed)
        assert _inked_sides(grey, 235) == drawn, (token, seed)
        assert (grey < 185).any()  # markers alone (".#") leave ink too


def test_expansion_grid_renders_as_a_photo() -> None:
    grid = [["."] * 7 for _ in range(7)]
    for i, token in enumerate(EXPANSION_TOKENS):
        grid[i // 7][i % 7] = token
    photo = render_photo(grid, seed=5, megapixels=0.5)
    assert photo.to_truth()["grid"][0].split() == list(EXPANSION_TOKENS[:7])
