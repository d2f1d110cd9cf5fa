"""The renderer's phone profile (issue 14): opt-in, exact truth on bent sheets, covered
spaces, faint ink that is faint, unread marks, reproducible from the seed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.render import PhotoOptions, read_truth, render_photo, sample_grid
from vision.render.camera import make_view
from vision.render.phone import PROFILE_VERSION, PROFILES, PhoneConditions, draw_conditions
from vision.render.samples import write_samples
from vision.render.sheet import Sheet, build_sheet, make_bend, warp_sheet
from vision.render.unread import KINDS

ROOT = Path(__file__).resolve().parents[1]


def _only(**probabilities) -> PhoneConditions:
    """The phone profile with nothing on the sheet and no marks, plus ``probabilities``."""
    base = {"hand": 0.0, "pen": 0.0, "die": 0.0, "unread_marks": 0.0}
    return PhoneConditions(name="test", **{**base, **probabilities})


def _render(seed: int, conditions, **kw):
    grid = sample_grid(np.random.default_rng(seed))
    return grid, render_photo(grid, seed=seed, options=PhotoOptions(conditions=conditions), **kw)


# --- opt-in: old seeds render as before ---------------------------------------------------


def test_sample_photos_are_byte_identical(tmp_path) -> None:
    written = write_samples(tmp_path)
    assert written
    for path in written:
        for name in (path.name, path.with_suffix(".json").name):
            assert (tmp_path / name).read_bytes() == (ROOT / "sample_photos" / name).read_bytes(), name


def test_no_profile_means_no_profile_fields() -> None:
    grid = sample_grid(np.random.default_rng(3))
    plain = render_photo(grid, seed=3, megapixels=0.4)
    explicit = render_photo(grid, seed=3, megapixels=0.4, options=PhotoOptions(conditions=None))
    assert np.array_equal(plain.image, explicit.image)
    truth = plain.to_truth()
    assert set(truth) == {"grid", "corners", "seed", "size", "conditions"}
    assert "phone" not in truth["conditions"]
    # without recorded space corners they follow from the grid's corners
    quads = plain.space_quads()
    assert quads.shape == (7, 7, 4, 2)
    assert np.allclose(quads[0, 0, 0], plain.corners[0], atol=1e-3)
    assert np.allclose(quads[6, 6, 2], plain.corners[2], atol=1e-3)


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown conditions profile 'fone'"):
        _render(1, "fone", megapixels=0.3)


# --- truth ----------------------------------------------------------------------------------


def test_phone_truth_round_trips(tmp_path) -> None:
    grid, photo = _render(8800003, "phone_marks", megapixels=0.8)
    path = photo.save(tmp_path / "p.jpg")
    truth = read_truth(path)
    assert truth.grid == grid
    assert truth.space_corners.shape == (7, 7, 4, 2)
    assert np.allclose(truth.space_corners, photo.space_corners, atol=2e-3)
    assert np.allclose(truth.space_corners[0, 0, 0], truth.corners[0], atol=2e-3)
    assert np.allclose(truth.space_corners[6, 6, 2], truth.corners[2], atol=2e-3)
    assert truth.covered == photo.covered and truth.unread == photo.unread
    assert truth.drawn == photo.drawn and truth.drawn
    phone = truth.conditions["phone"]
    assert phone["profile"] == "phone_marks" and phone["profile_version"] == PROFILE_VERSION
    assert json.loads((tmp_path / "p.json").read_text())["conditions_drawn"] == photo.drawn


def test_draws_follow_the_stated_probabilities() -> None:
    profile = PROFILES["phone"]
    draws = [draw_conditions(seed, profile) for seed in range(3000)]
    assert abs(np.mean([d.ink == "pencil" for d in draws]) - 0.15) < 0.03
    assert abs(np.mean([d.sheet == "flat" for d in draws]) - 0.4) < 0.04
    assert abs(np.mean(["hand" in d.objects for d in draws]) - profile.hand) < 0.03
    assert not any(d.unread_marks for d in draws)
    assert abs(np.mean([d.unread_marks for d in
                        (draw_conditions(s, PROFILES["phone_marks"]) for s in range(1000))]) - 0.5) < 0.06


def test_rendering_is_reproducible_from_the_seed() -> None:
    _, a = _render(8800011, "phone", megapixels=0.6)
    _, b = _render(8800011, "phone", megapixels=0.6)
    _, c = _render(8800012, "phone", megapixels=0.6)
    assert np.array_equal(a.image, b.image) and a.to_truth() == b.to_truth()
    assert a.image.shape != c.image.shape or not np.array_equal(a.image, c.image)


# --- bent sheets: the truth is where the board is -----------------------------------------


def _dot_board(size_cells: tuple[float, float], cell: float) -> tuple[np.ndarray, np.ndarray]:
    """A black board with a white dot at every whole-cell point inside it."""
    w, h = size_cells
    img = np.zeros((int(h * cell), int(w * cell), 3), np.uint8)
    pts = np.array([(x, y) for y in range(1, int(h)) for x in range(1, int(w))], float)
    for x, y in pts:
        cv2.circle(img, (int(x * cell), int(y * cell)), 2, (255, 255, 255), -1)
    return img, pts


def test_a_folded_sheet_puts_each_point_where_the_truth_says() -> None:
    size_cells, cell = (9.0, 11.0), 40.0
    board, pts = _dot_board(size_cells, cell)
    fold = np.radians(25)
    bend = make_bend((1.0, 0.02), (0.0, 9.2),
                     lambda s: np.where(np.abs(s - 4.5) < 0.04, fold / 0.08, 0.0))
    sheet = Sheet("folded", size_cells, (bend,))
    outline = np.array([[0, 0], [9, 0], [9, 11], [0, 11]], float)
    view, _ = make_view(size_cells, outline, (1400, 1200), 20, 25, 60, 0.8, 0.75, 0.0,
                        np.random.default_rng(4))
    photo = np.zeros((1200, 1400, 3), np.uint8)
    residual = warp_sheet(board, sheet, view, cell, photo)
    assert residual < 0.01
    _, _, stats, centroids = cv2.connectedComponentsWithStats(
        (photo[..., 0] > 60).astype(np.uint8))
    found = centroids[1:][stats[1:, cv2.CC_STAT_AREA] >= 3]
    expected = sheet.to_photo(view, pts)
    flat = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), view.homography).reshape(-1, 2)
    # the fold moves much of the sheet by several pixels ...
    assert np.max(np.linalg.norm(expected - flat, axis=1)) > 15
    # ... and every dot is drawn where the truth says, to a fraction of a pixel
    gaps = np.min(np.linalg.norm(expected[:, None] - found[None], axis=2), axis=1)
    assert np.max(gaps) < 0.5, np.max(gaps)


def test_bends_keep_the_papers_lengths() -> None:
    sheet = next(s for s in (build_sheet(k, "curled", (9.0, 11.0)) for k in range(50))
                 if s.params["shape"] == "edge")
    d = sheet.bends[0].direction
    s0, s1 = sorted(np.array([[0, 0], [9, 0], [9, 11], [0, 11]], float) @ d)[::3]
    line = np.array([4.5, 5.5]) + (np.linspace(s0, s1, 2001) - (4.5 * d[0] + 5.5 * d[1]))[:, None] * d
    inside = (line[:, 0] >= 0) & (line[:, 0] <= 9) & (line[:, 1] >= 0) & (line[:, 1] <= 11)
    line = line[inside]
    surface = sheet.surface(line)
    flat = np.linalg.norm(np.diff(line, axis=0), axis=1).sum()
    bent = np.linalg.norm(np.diff(surface, axis=0), axis=1).sum()
    assert surface[:, 2].max() > 0.3  # it does curl
    assert bent == pytest.approx(flat, rel=2e-3)
    assert surface[:, 2].min() >= 0  # resting on the table, not through it


@pytest.mark.parametrize("kind", ["folded", "curled", "bumpy"])
def test_printed_lines_lie_on_the_recorded_space_edges(kind: str) -> None:
    """On a full render, the printed lattice runs along the recorded space corners: sample
    the middle of every inner space edge and a quarter space off it."""
    seed = {"folded": 8800101, "curled": 8800102, "bumpy": 8800103}[kind]
    conditions = _only(sheet=((kind, 1.0),), ink=(("marker", 1.0),), light=(("room", 1.0),),
                       reflection=0.0, low_res=0.0, small_board=0.0, denoise_other=0.0)
    _, photo = _render(seed, conditions, megapixels=2.0, clutter=False, glare=0.0, blur=0.0,
                       noise=0.0, lens_k1=0.0, tilt=20.0)
    assert photo.drawn[0] == kind, photo.conditions["phone"]["sheet"]
    grey = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    line_is_dark = sum(photo.conditions["board_style"]["line_color"]) < 600
    extreme = np.min if line_is_dark else np.max

    def contrast(shift: float) -> float:
        """Median contrast of the line against the space, sampling the inner vertical edges
        moved ``shift`` of a space across."""
        values = []
        for r in range(7):
            for c in range(6):  # the edge between space (r, c) and (r, c + 1)
                a, b = quads[r, c, 1], quads[r, c, 2]
                across = (quads[r, c + 1, 1] - quads[r, c, 0]) / 2  # one space
                for t in (0.4, 0.5, 0.6):
                    p = a + (b - a) * t + across * shift
                    q = a + (b - a) * t - across * 0.5
                    x, y = np.round(p).astype(int)
                    u, v = np.round(q).astype(int)
                    on = extreme(grey[y - 1 : y + 2, x - 1 : x + 2])
                    values.append(abs(on - np.median(grey[v - 1 : v + 2, u - 1 : u + 2])))
        return float(np.median(values))

    quads = photo.space_corners
    on_line, off_line = contrast(0.0), contrast(0.2)
    assert on_line > 8 and on_line > 3 * off_line, (on_line, off_line)


# --- things on the sheet ------------------------------------------------------------------


def test_a_hand_on_the_sheet_is_recorded_as_covering_spaces() -> None:
    seed = 8800204
    fixed = {"megapixels": 1.0, "clutter": False}
    _, without = _render(seed, _only(hand=0.0), **fixed)
    _, with_hand = _render(seed, _only(hand=1.0), **fixed)
    assert "hand" in with_hand.drawn and with_hand.covered
    assert not without.covered and "hand" not in without.drawn
    diff = np.abs(with_hand.image.astype(int) - without.image.astype(int)).max(axis=2)
    quads = with_hand.space_corners
    assert all(0 < fraction <= 1 for fraction in with_hand.covered.values())
    full = [rc for rc, f in with_hand.covered.items() if f > 0.9]
    assert full, with_hand.covered
    for r, c in full:
        mask = np.zeros(diff.shape, np.uint8)
        cv2.fillPoly(mask, [np.round(quads[r, c]).astype(np.int32)], 1)
        assert diff[mask > 0].mean() > 20, (r, c)
    far = [(r, c) for r in range(7) for c in range(7)
           if all(max(abs(r - a), abs(c - b)) > 2 for a, b in with_hand.covered)]
    for r, c in far:
        mask = np.zeros(diff.shape, np.uint8)
        cv2.fillPoly(mask, [np.round(quads[r, c]).astype(np.int32)], 1)
        assert diff[mask > 0].mean() < 3, (r, c)


# --- faint ink ----------------------------------------------------------------------------


def _ink_contrast(kind: str, seed: int) -> float:
    """Median over drawn spaces of how much darker than the space its darkest ink is."""
    grid, photo = _render(seed, _only(ink=((kind, 1.0),), shaky=0.0, legs=0.0, sloppy=0.0),
                          megapixels=1.0, board_only=True)
    dark = photo.image.min(axis=2).astype(np.float32)
    x0, y0 = photo.corners[0]
    cell = (photo.corners[1][0] - x0) / 7
    values = []
    for r in range(7):
        for c in range(7):
            if grid[r][c] != ".":
                a = dark[int(y0 + (r + 0.3) * cell) : int(y0 + (r + 0.7) * cell),
                         int(x0 + (c + 0.3) * cell) : int(x0 + (c + 0.7) * cell)]
                values.append(np.median(a) - np.percentile(a, 2))
    return float(np.median(values))


def test_pencil_and_pale_markers_are_faint() -> None:
    seeds = range(40, 46)
    marker = [_ink_contrast("marker", s) for s in seeds]
    pencil = [_ink_contrast("pencil", s) for s in seeds]
    pale = [_ink_contrast("pale_marker", s) for s in seeds]
    assert np.median(marker) > 80
    assert max(pencil) < 85 and np.median(pencil) < 60
    assert max(pale) < 80 and np.median(pale) < 55


# --- marks rink does not read -------------------------------------------------------------


def test_unread_marks_are_drawn_only_in_the_recorded_spaces() -> None:
    seed = 8800300
    _, plain = _render(seed, _only(unread_marks=0.0), megapixels=1.0, board_only=True)
    _, marked = _render(seed, _only(unread_marks=1.0), megapixels=1.0, board_only=True)
    assert marked.unread and not plain.unread
    assert {kind for _, _, kind in marked.unread} <= set(KINDS)
    diff = np.abs(marked.image.astype(int) - plain.image.astype(int)).max(axis=2)
    x0, y0 = marked.corners[0]
    cell = (marked.corners[1][0] - x0) / 7
    near = {(r + dr, c + dc) for r, c, _ in marked.unread for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    for r in range(7):
        for c in range(7):
            block = diff[int(y0 + r * cell) : int(y0 + (r + 1) * cell),
                         int(x0 + c * cell) : int(x0 + (c + 1) * cell)]
            if any((r, c) == (a, b) for a, b, _ in marked.unread):
                assert block.max() > 40, (r, c)
            elif (r, c) not in near:
                assert block.max() == 0, (r, c)


# --- the measuring harness ----------------------------------------------------------------


def test_evaluate_reports_per_condition(tmp_path) -> None:
    evaluate = load_script("evaluate")
    out = tmp_path / "eval.csv"
    assert evaluate.main(["--n", "2", "--seed", "8800400", "--workers", "1", "--megapixels",
                          "1.5", "--conditions", "phone", "--csv", str(out),
                          "--json", str(tmp_path / "eval.json")]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [int(r["seed"]) for r in rows] == [8800400, 8800401]
    assert all(r["conditions"] for r in rows)
    summary = json.loads((tmp_path / "eval.json").read_text())
    figures = summary["by_condition"]
    assert summary["conditions"] == "phone" and figures["all"]["photos"] == 2
    for row in rows:
        for name in row["conditions"].split():
            assert name in figures
