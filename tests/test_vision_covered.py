"""Covered spaces read from their neighbours (issue 14): the policy on the rulebook's board and
on random boards, the tables' script, and real renders of played games with a hand or a pen
on the sheet through the real pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.board_context import CONTEXT_FILE, BoardContext, ContextScorer
from vision.covered import FROM_NEIGHBOURS, CoveredParams, read_covered
from vision.ink_check import COVERED
from vision.model_files import models_dir
from vision.played import looks_played
from vision.recognizer import ReadParams, Recognizer
from vision.render import PhotoOptions, render_photo
from vision.render.games import play_game, random_board
from vision.render.phone import PhoneConditions
from vision.space_parts import CLASSES, same_space, side_letters

ROOT = Path(__file__).resolve().parents[1]
CLASS_LIST = list(CLASSES)
# a flat sheet in room light, marker ink, no habits: only what lies on the sheet is hard
PLAIN = {"sheet": (("flat", 1.0),), "light": (("room", 1.0),), "ink": (("marker", 1.0),),
         "shaky": 0.0, "legs": 0.0, "sloppy": 0.0, "low_res": 0.0, "small_board": 0.0,
         "denoise_dim": 0.0, "denoise_other": 0.0, "reflection": 0.0, "hand": 0.0, "pen": 0.0,
         "die": 0.0}


@pytest.fixture(scope="module")
def context() -> ContextScorer:
    return ContextScorer(BoardContext.load_if_present(models_dir()), CLASS_LIST)


def _rulebook_grid() -> list[list[str]]:
    rows = [line.split() for line in (ROOT / "tests/boards/rulebook.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    return rows[:7]


def _sure_probs(grid: list[list[str]]) -> np.ndarray:
    """Probabilities of a reader sure of every space of ``grid``."""
    probs = np.full((7, 7, len(CLASS_LIST)), 1e-5)
    for r in range(7):
        for c in range(7):
            probs[r, c, CLASS_LIST.index(grid[r][c])] = 0.99
    return probs / probs.sum(axis=2, keepdims=True)


def test_a_hidden_space_is_rebuilt_from_what_reaches_it(context) -> None:
    grid = _rulebook_grid()
    rebuilt = 0
    for r in range(7):
        for c in range(7):
            probs = _sure_probs(grid)
            probs[r, c] = 1.0 / len(CLASS_LIST)  # the reader sees nothing of it
            covered = np.zeros((7, 7))
            covered[r, c] = 1.0
            new, review = read_covered(grid, probs, [], covered, context)
            assert all(new[i][j] == grid[i][j] for i in range(7) for j in range(7)
                       if (i, j) != (r, c))  # only the covered space is read again
            rebuilt += side_letters(new[r][c]) == side_letters(grid[r][c])
            if new[r][c] == grid[r][c]:
                assert review == []
            else:  # listed, with the photo's reading and the context's candidates
                (entry,) = review
                assert (entry.row, entry.col, entry.token) == (r, c, new[r][c])
                assert entry.reason.startswith(FROM_NEIGHBOURS)
                assert entry.alternatives[0][0] == new[r][c]
    # 43 of the 49 today; the rest sit beside the board's own Errors (a route end facing a
    # blank side), where the neighbours say little
    assert rebuilt >= 40


def test_a_pen_across_an_empty_space_is_not_a_highway(context) -> None:
    grid = _rulebook_grid()  # (2, 2) is empty: nothing reaches its west or east side
    probs = _sure_probs(grid)
    probs[2, 2] = 1e-4
    probs[2, 2, CLASS_LIST.index("_H_H")] = 0.7  # the pen's body, read as a highway
    probs[2, 2, CLASS_LIST.index(".")] = 0.2
    probs[2, 2] /= probs[2, 2].sum()
    covered = np.zeros((7, 7))
    covered[2, 2] = 0.6
    read = [row[:] for row in grid]
    read[2][2] = "_H_H"
    new, review = read_covered(read, probs, [], covered, context)
    assert new[2][2] == "."
    assert [(e.row, e.col, e.token) for e in review] == [(2, 2, ".")]


def test_a_sure_reading_is_kept_however_covered(context) -> None:
    grid = _rulebook_grid()
    read = [row[:] for row in grid]
    read[2][2] = "_H_H"  # a real drawing, joining nothing: an Error the player made
    probs = _sure_probs(read)
    covered = np.zeros((7, 7))
    covered[2, 2] = 0.9
    assert read_covered(read, probs, [], covered, context)[0] == read
    probs[2, 2] = 0.2 / (len(CLASS_LIST) - 1)
    probs[2, 2, CLASS_LIST.index("_H_H")] = 0.8  # less sure: the context has its say
    assert read_covered(read, probs, [], covered, context)[0][2][2] == "."


def test_boards_whose_drawings_do_not_join_get_no_context(context) -> None:
    played = [play_game(np.random.default_rng([s, 3])).grid for s in range(5)]
    drawn = [random_board(np.random.default_rng([s, 4]), fill=0.7).grid for s in range(5)]
    none = np.zeros((7, 7))
    assert all(looks_played(g, _sure_probs(g), none) for g in played)
    assert not any(looks_played(g, _sure_probs(g), none) for g in drawn)
    grid = drawn[0]
    probs = _sure_probs(grid)
    probs[3, 3] = 1.0 / len(CLASS_LIST)
    covered = np.zeros((7, 7))
    covered[3, 3] = 1.0
    new, review = read_covered(grid, probs, [], covered, context)
    assert new == grid and review == []
    off = CoveredParams(enabled=False)
    assert read_covered(played[0], _sure_probs(played[0]), [], covered, context,
                        off)[0] == played[0]


def test_tables_script_is_reproducible(tmp_path: Path) -> None:
    script = load_script("board_context")
    for out in ("a", "b"):
        assert script.main(["--games", "12", "--seed", "555000000",
                            "--out", str(tmp_path / out)]) == 0
    first = (tmp_path / "a" / CONTEXT_FILE).read_bytes()
    assert first == (tmp_path / "b" / CONTEXT_FILE).read_bytes()
    info = json.loads(first)
    assert sum(info["tokens"].values()) == 12 * 49
    assert BoardContext.load_if_present(tmp_path / "a").recipe == \
        "scripts/board_context.py --games 12 --seed 555000000"
    shipped = json.loads((models_dir() / CONTEXT_FILE).read_text())
    assert shipped["recipe"] == "scripts/board_context.py --games 2000 --seed 555000000"
    assert sum(shipped["tokens"].values()) == 2000 * 49


def test_unreadable_tables_name_the_file(tmp_path: Path) -> None:
    (tmp_path / CONTEXT_FILE).write_text("{not json")
    with pytest.raises(ValueError, match=CONTEXT_FILE):
        BoardContext.load_if_present(tmp_path)
    (tmp_path / CONTEXT_FILE).write_text(json.dumps({"tokens": {}}))
    with pytest.raises(ValueError, match="board context"):
        BoardContext.load_if_present(tmp_path)
    assert BoardContext.load_if_present(tmp_path / "nowhere") is None


@pytest.fixture(scope="module")
def readers() -> tuple[Recognizer, Recognizer]:
    shipped = Recognizer.load()
    without = Recognizer(shipped.classifier, shipped.orienter,
                         ReadParams(covered=CoveredParams(enabled=False)),
                         base_classifier=shipped.base_classifier, faint=shipped.faint,
                         context=BoardContext.load_if_present(models_dir()))
    return shipped, without


# held-out played games (seeds never rendered for training) with a hand or a pen on them
@pytest.mark.parametrize(("thing", "seed"), [("hand", 8990000), ("pen", 8990010)])
def test_covered_spaces_of_a_played_game_photo(readers, thing: str, seed: int) -> None:
    shipped, without = readers
    grid = play_game(np.random.default_rng([seed, 3])).grid
    profile = PhoneConditions(name="test", **{**PLAIN, thing: 1.0})
    photo = render_photo(grid, seed=seed, megapixels=3, options=PhotoOptions(conditions=profile))
    covered = {rc for rc, share in photo.covered.items() if share >= 0.2}
    with_context, before = shipped.read(photo.image), without.read(photo.image)

    def wrong(reading) -> set[tuple[int, int]]:
        return {(r, c) for r in range(7) for c in range(7)
                if not same_space(reading.grid[r][c], grid[r][c])}

    assert len(wrong(with_context)) <= len(wrong(before)) - 2
    changed = {(r, c) for r in range(7) for c in range(7)
               if with_context.grid[r][c] != before.grid[r][c]}
    assert changed and changed <= covered  # only covered spaces are read again
    entries = {(e.row, e.col): e for e in with_context.review}
    for rc in changed:  # listed as covered, saying what the photo showed
        assert entries[rc].kind == "covered"
        assert COVERED in entries[rc].reason and FROM_NEIGHBOURS in entries[rc].reason
    assert "covered" in with_context.timings
