"""The ten photos in sample_photos/: legal games across the conditions of board-spec section 3."""

from __future__ import annotations

from pathlib import Path

import numpy as np

# (name, board seed, photo seed, forced conditions)
SAMPLES: tuple[tuple[str, int, int, dict], ...] = (
    (
        "board_01",
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
    ("board_02", 102, 2, {"megapixels": 3.0, "tilt": 38.0, "rotation": 12.0, "fill": 0.9}),
    ("board_03", 103, 3, {"megapixels": 3.0, "tilt": 12.0, "rotation": 180.0, "fill": 0.85}),
    ("board_04", 104, 4, {"megapixels": 3.0, "tilt": 10.0, "rotation": 90.0, "fill": 0.9}),
    (
        "board_05",
        105,
        5,
        {"megapixels": 3.0, "tilt": 18.0, "light": "dim", "fill": 0.9, "aspect": 4 / 3},
    ),
    (
        "board_06",
        106,
        6,
        {"megapixels": 3.0, "tilt": 20.0, "light": "uneven", "glare": 0.9, "fill": 0.85},
    ),
    ("board_07", 107, 7, {"megapixels": 3.0, "tilt": 15.0, "marker": "dark_blue", "fill": 0.9}),
    ("board_08", 108, 8, {"megapixels": 1.0, "tilt": 20.0, "fill": 0.85}),
    ("board_09", 109, 9, {"megapixels": 12.0, "tilt": 25.0, "fill": 0.8}),
    ("board_10", 110, 26, {"megapixels": 3.0, "tilt": 22.0, "clutter": True, "fill": 0.65}),
)


def write_samples(out: Path, quality: int = 85) -> list[Path]:
    """Render the ten sample photos into ``out`` as board_NN.jpg + board_NN.json.

    Each truth file also gets ``expected_score``: the board-spec 4.3 ``score`` object that the
    scorer gives for the drawn grid, so the samples document what rink should print.
    """
    import json

    import cv2

    from scoring.board import Board
    from scoring.engine import score_board

    from .games import play_game
    from .photo import render_photo

    cv2.setNumThreads(1)
    written = []
    for name, board_seed, photo_seed, forced in SAMPLES:
        board = play_game(np.random.default_rng(board_seed))
        photo = render_photo(board.grid, seed=photo_seed, rounds=board.rounds, **forced)
        photo.conditions.update(board_kind=board.kind, board_seed=board_seed)
        image_path = photo.save(out / f"{name}.jpg", jpeg_quality=quality)
        truth_path = image_path.with_suffix(".json")
        truth = json.loads(truth_path.read_text())
        truth["expected_score"] = score_board(Board.from_tokens(photo.grid)).to_json()
        truth_path.write_text(json.dumps(truth, indent=1) + "\n")
        written.append(image_path)
    return written
