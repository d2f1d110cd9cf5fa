"""The photos in sample_photos/: legal games across the conditions of board-spec section 3, one
game with drawings that break the rules (dead ends, three-way stations), and Deep Blue games
played with the River and with the Lake expansion (issue 16)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

# (name, board kind, board seed, photo seed, forced conditions); kind "game" is a legal game
# (games.play_game), "illegal" one with odd drawings (games.illegal_board), "river" and "lake"
# legal games with that expansion (water_games.play_water_game)
SAMPLES: tuple[tuple[str, str, int, int, dict], ...] = (
    (
        "board_01", "game",
        101,
        1,
        {
            "megapixels": 3.0,
            "tilt": 0.0,
            "rotation": 0.0,
            "clutter": False,
            "light": "even",
            "glare": 0.0,
            "lens_k1": 0.0,
            "fill": 0.95,
        },
    ),
    ("board_02", "game", 102, 2,
     {"megapixels": 3.0, "tilt": 38.0, "rotation": 12.0, "fill": 0.9}),
    ("board_03", "game", 103, 3,
     {"megapixels": 3.0, "tilt": 12.0, "rotation": 180.0, "fill": 0.85}),
    ("board_04", "game", 104, 4,
     {"megapixels": 3.0, "tilt": 10.0, "rotation": 90.0, "fill": 0.9}),
    (
        "board_05", "game",
        105,
        5,
        {"megapixels": 3.0, "tilt": 18.0, "light": "dim", "fill": 0.9, "aspect": 4 / 3},
    ),
    (
        "board_06", "game",
        106,
        6,
        {"megapixels": 3.0, "tilt": 20.0, "light": "uneven", "glare": 0.9, "fill": 0.85},
    ),
    ("board_07", "game", 107, 7,
     {"megapixels": 3.0, "tilt": 15.0, "marker": "dark_blue", "fill": 0.9}),
    ("board_08", "game", 108, 8, {"megapixels": 1.0, "tilt": 20.0, "fill": 0.85}),
    ("board_09", "game", 109, 9, {"megapixels": 12.0, "tilt": 25.0, "fill": 0.8}),
    ("board_10", "game", 110, 26,
     {"megapixels": 3.0, "tilt": 22.0, "clutter": True, "fill": 0.65}),
    ("board_11", "illegal", 111, 11,
     {"megapixels": 3.0, "tilt": 16.0, "rotation": 270.0, "fill": 0.85}),
    ("board_12", "river", 185, 12,
     {"megapixels": 3.0, "tilt": 14.0, "rotation": 8.0, "fill": 0.95, "aspect": 3 / 4}),
    ("board_13", "lake", 853, 13,
     {"megapixels": 3.0, "tilt": 18.0, "rotation": 350.0, "fill": 0.88}),
)


def write_samples(out: Path, quality: int = 85) -> list[Path]:
    """Render the sample photos into ``out`` as board_NN.jpg + board_NN.json.

    Each truth file also gets ``expected_score``: the board-spec 4.3 ``score`` object that the
    scorer gives for the drawn grid (and its ``extras`` key lines), so the samples document
    what rink should print.
    """
    import json

    import cv2

    from scoring.board import parse_grid
    from scoring.engine import score

    from .games import illegal_board, play_game
    from .photo import render_photo
    from .water_games import play_water_game

    cv2.setNumThreads(1)
    written = []
    make_board = {"game": play_game, "illegal": illegal_board}
    for name, kind, board_seed, photo_seed, forced in SAMPLES:
        played = (kind,) if kind in ("river", "lake") else ()
        rng = np.random.default_rng(board_seed)
        board = play_water_game(rng, played) if played else make_board[kind](rng)
        photo = render_photo(
            board.grid, seed=photo_seed, rounds=board.rounds, expansions=played, **forced
        )
        photo.conditions.update(board_kind=board.kind, board_seed=board_seed)
        image_path = photo.save(out / f"{name}.jpg", jpeg_quality=quality)
        truth_path = image_path.with_suffix(".json")
        truth = json.loads(truth_path.read_text())
        text = "\n".join([" ".join(row) for row in photo.grid] + photo.extras)
        truth["expected_score"] = score(parse_grid(text, name)).to_json()
        truth_path.write_text(json.dumps(truth, indent=1) + "\n")
        written.append(image_path)
    return written
