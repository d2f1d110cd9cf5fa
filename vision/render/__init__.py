"""Synthetic Railroad Ink boards and phone photos of them, with ground truth (issue 4).

    from vision.render import render_photo, sample_grid, RenderedPhoto
    grid = sample_grid(np.random.default_rng(0))        # 7 lists of 7 tokens
    photo = render_photo(grid, seed=123, megapixels=2)  # megapixels None: random 1..12
    photo.image, photo.corners, photo.grid, photo.conditions, photo.to_truth()
    photo.save("out/board.jpg")                        # + out/board.json

Everything follows from the seed. Conditions can be forced by keyword (PhotoOptions fields:
``tilt=38, rotation=180, light="dim", glare=0.8, marker="blue", clean=True``...);
``board_only=True`` gives the flat, straight-on board. Modules: tokens (the notation, read
with scoring.space), style (random looks), board_art (the printed board), pieces + marks
(hand-drawn spaces, expansion drawings), drawing (the player's ink on the board), games (what
gets drawn), camera + scene + photo (the photo), truth (result and truth file), command
(``rink render``), samples. Deep Blue boards (``render_photo(..., expansions=("river",))``):
water_games (River and Lake games), water_style + lakes + rivers + water (their drawing).
"""

from .games import expansion_board, sample_board, sample_grid
from .photo import RENDERER_VERSION, PhotoOptions, render_photo, round_number_box
from .tokens import BASE_TOKENS
from .truth import RenderedPhoto, read_truth

__all__ = [
    "BASE_TOKENS",
    "RENDERER_VERSION",
    "PhotoOptions",
    "RenderedPhoto",
    "expansion_board",
    "read_truth",
    "render_photo",
    "round_number_box",
    "sample_board",
    "sample_grid",
]
