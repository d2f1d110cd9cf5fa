"""Whether a board looks played (vision.played), and the decoder's neighbour prior, which
holds on a game's board and is dropped on a sheet of drawings that do not join."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decode import DecodeParams, decode
from vision.played import PlayedParams, clash_share, looks_played, looks_unplayed
from vision.render.games import play_game, random_board
from vision.space_parts import CLASSES

CLASS_LIST = list(CLASSES)
INDEX = {token: i for i, token in enumerate(CLASS_LIST)}
ALWAYS = DecodeParams(played=PlayedParams(max_clashes=1.0))  # the prior on every board


def _sure_probs(grid: list[list[str]], sure: float = 0.99) -> np.ndarray:
    probs = np.full((7, 7, len(CLASS_LIST)), (1 - sure) / (len(CLASS_LIST) - 1))
    for r in range(7):
        for c in range(7):
            probs[r, c, INDEX[grid[r][c]]] = sure
    return probs


def _near_tie(probs: np.ndarray, r: int, c: int, ahead: str, second: str) -> np.ndarray:
    """``probs`` with (r, c) read as ``ahead`` (0.45) slightly before ``second`` (0.40)."""
    tied = probs.copy()
    tied[r, c] = 0.15 / (len(CLASS_LIST) - 2)
    tied[r, c, INDEX[ahead]], tied[r, c, INDEX[second]] = 0.45, 0.40
    return tied


def _tie_the_prior_breaks(grid: list[list[str]]) -> tuple[int, int, str, str]:
    """A space of ``grid`` and two readings of it such that, with the second slightly less
    likely, the neighbour prior picks the second."""
    probs = _sure_probs(grid)
    for r in range(1, 6):
        for c in range(1, 6):
            for ahead in CLASS_LIST:
                for second in CLASS_LIST:
                    if ahead == second:
                        continue
                    if decode(_near_tie(probs, r, c, ahead, second), CLASS_LIST,
                              ALWAYS).grid[r][c] == second:
                        return r, c, ahead, second
    raise AssertionError("no near tie the neighbour prior breaks")


def test_games_look_played_and_random_sheets_unplayed() -> None:
    games = [play_game(np.random.default_rng([s, 13])).grid for s in range(6)]
    sheets = [random_board(np.random.default_rng([s, 14]), fill=0.7).grid for s in range(6)]
    for grid in games:
        assert looks_played(grid, _sure_probs(grid)) and not looks_unplayed(grid, _sure_probs(grid))
    for grid in sheets:
        assert looks_unplayed(grid, _sure_probs(grid)) and not looks_played(grid, _sure_probs(grid))


def test_a_board_with_too_few_sure_joins_is_neither() -> None:
    grid = [["."] * 7 for _ in range(7)]
    grid[3][2], grid[3][3] = "_H_H", "_R_R"  # one pair, and it clashes
    probs = _sure_probs(grid)
    assert clash_share(grid, probs) == (1.0, 1)
    assert not looks_played(grid, probs) and not looks_unplayed(grid, probs)
    covered = np.zeros((7, 7))
    covered[3, 3] = 0.5  # a covered space is no evidence either way
    assert clash_share(grid, probs, covered) == (1.0, 0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_neighbour_prior_breaks_ties_on_a_game_only(seed: int) -> None:
    game = play_game(np.random.default_rng([seed, 15])).grid
    r, c, ahead, second = _tie_the_prior_breaks(game)
    decoded = decode(_near_tie(_sure_probs(game), r, c, ahead, second), CLASS_LIST)
    assert decoded.grid[r][c] == second
    assert any("neighbours" in e.reason for e in decoded.review if (e.row, e.col) == (r, c))

    sheet = random_board(np.random.default_rng([seed, 16]), fill=0.7).grid
    r, c, ahead, second = _tie_the_prior_breaks(sheet)
    decoded = decode(_near_tie(_sure_probs(sheet), r, c, ahead, second), CLASS_LIST)
    assert decoded.grid[r][c] == ahead  # the photo's reading stands on a sheet that does not join
    entry = next(e for e in decoded.review if (e.row, e.col) == (r, c))
    assert entry.reason.startswith("uncertain reading")  # still listed, as unclear
