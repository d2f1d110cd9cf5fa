"""Synthetic Railroad Ink boards and phone photos of them, with ground truth.

from vision.render import render_photo, sample_grid, RenderedPhoto
grid = sample_grid(np.random.default_rng(0))
photo = render_photo(grid, seed=123, megapixels=2)
"""

from .games import sample_board, sample_grid
from .photo import PhotoOptions, render_photo
from .tokens import BASE_TOKENS
from .truth import RenderedPhoto, read_truth

__all__ = [
    "BASE_TOKENS",
    "PhotoOptions",
    "RenderedPhoto",
    "read_truth",
    "render_photo",
    "sample_board",
    "sample_grid",
]
