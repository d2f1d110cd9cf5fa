"""Test-time augmentation with mirror images (``ClassifyParams.mirror``): the eight views the
networks were trained on, each reading mapped back to the unturned token, on the crops of a
real render through the shipped networks."""

from __future__ import annotations

import numpy as np
import pytest

from vision.crops import Darkness, space_crops
from vision.model_meta import mirror_index_map, rotation_index_map
from vision.recognizer import Recognizer
from vision.rectify import warp_board
from vision.render import PhotoOptions, render_photo, sample_grid


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer.load()


@pytest.fixture(scope="module")
def crops(recognizer) -> Darkness:
    """The 49 crops of a phone-condition render, cut along its true corners."""
    grid = sample_grid(np.random.default_rng(5))
    photo = render_photo(grid, seed=5, megapixels=2, options=PhotoOptions(conditions="phone"))
    flat = warp_board(photo.image, photo.corners.astype(np.float32), recognizer.board)
    darkness = Darkness.of(flat, recognizer.board.cell_px)
    return darkness.map(lambda d: space_crops(d, recognizer.board,
                                              recognizer.classifier.meta.margin_px))


@pytest.mark.parametrize("which", ["parts", "base"])
def test_mirrored_views_are_mapped_back_to_the_unturned_token(recognizer, crops, which):
    reader = recognizer.classifier if which == "parts" else recognizer.base_classifier
    board = crops.by(reader.meta.ink_channels)
    classes = list(reader.meta.classes)
    mirror = np.array(mirror_index_map(classes))
    # each view read on its own, then mapped back by hand: a view mirrored and turned k
    # times reads class i as class turned_k(mirror(i))
    views = []
    for k in range(4):
        turned = np.array(rotation_index_map(k, classes))
        plain = np.rot90(board, k=-k, axes=(-2, -1))
        flipped = np.rot90(board[..., ::-1], k=-k, axes=(-2, -1))
        views.append(reader.read(np.ascontiguousarray(plain))[:, turned])
        views.append(reader.read(np.ascontiguousarray(flipped))[:, turned[mirror]])
    np.testing.assert_allclose(reader.read(board, turns=4, mirror=True), np.mean(views, axis=0),
                               atol=1e-5)
    one = reader.read(board)
    both = reader.read(board, turns=1, mirror=True)
    np.testing.assert_allclose(both, (views[0] + views[1]) / 2, atol=1e-5)
    # a clear space reads the same token in (nearly) every view, mirrored or not
    clear = one.max(axis=1) > 0.99
    assert clear.sum() >= 10
    agree = np.argmax(views, axis=2)[:, clear] == one.argmax(axis=1)[clear]
    assert agree[1::2].mean() >= 0.95 and agree.mean() >= 0.95


def test_only_the_unsure_spaces_are_read_in_eight_views(recognizer, crops):
    reader = recognizer.classifier
    board = crops.by(reader.meta.ink_channels)
    first = reader.read(board)
    eight = reader.read(board, turns=4, sure=0.995, first=first, mirror=True)
    sure = first.max(axis=1) >= 0.995
    assert 0 < sure.sum() < 49
    np.testing.assert_array_equal(eight[sure], first[sure])
    np.testing.assert_allclose(eight[~sure], reader.read(board[~sure], turns=4, mirror=True),
                               atol=1e-5)
    assert not np.allclose(eight[~sure], reader.read(board, turns=4, sure=0.995)[~sure])
