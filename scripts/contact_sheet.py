"""Render N random photos and tile them as thumbnails into one image, to eyeball variety.

python scripts/contact_sheet.py --out sheet.jpg --n 12 --seed 0 [--corners] [--megapixels 2]
    [--conditions phone] [--spaces] [--expansion river|lake|both|mix] [--flat]

With ``--conditions`` the photos get a condition profile (vision.render.phone.PROFILES) and each
label names the conditions drawn; ``--spaces`` outlines every recorded space instead.
``--expansion`` draws Deep Blue boards (vision.render.water_games.water_board) with their
water; ``--flat`` shows the flat board instead of the photo.
"""

from __future__ import annotations

import math

import click
import cv2
import numpy as np

from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PROFILES
from vision.render.water_games import CHOICES, pick_expansions, water_board


@click.command()
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@click.option("--n", default=12, show_default=True, type=click.IntRange(1, 200))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--megapixels",
    default=2.0,
    show_default=True,
    type=float,
    help="photo size to render (thumbnails are the same size whatever this is)",
)
@click.option("--thumb", default=400, show_default=True, type=int, help="thumbnail side, px")
@click.option("--corners/--no-corners", default=False, help="outline the recorded lattice corners")
@click.option(
    "--conditions",
    type=click.Choice(sorted(PROFILES)),
    default=None,
    help="render with this condition profile (default: the renderer's own conditions)",
)
@click.option("--spaces", is_flag=True, help="outline every space's recorded corners")
@click.option("--expansion", type=click.Choice(CHOICES), default=None, help="Deep Blue boards")
@click.option("--flat", is_flag=True, help="the flat board, not the photo")
def main(
    out_path: str,
    n: int,
    seed: int,
    megapixels: float,
    thumb: int,
    corners: bool,
    conditions: str | None,
    spaces: bool,
    expansion: str | None,
    flat: bool,
) -> None:
    cv2.setNumThreads(1)
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    sheet = np.full((rows * thumb, cols * thumb, 3), 255, np.uint8)
    for i in range(n):
        photo_seed = seed * 1000 + i
        rng = np.random.default_rng(photo_seed)
        if expansion is None:
            grid, rounds, expansions = sample_grid(rng), None, ()
        else:
            board = water_board(rng, pick_expansions(rng, expansion))
            grid, rounds, expansions = board.grid, board.rounds, board.expansions
        photo = render_photo(
            grid, seed=photo_seed, megapixels=megapixels, rounds=rounds, board_only=flat,
            expansions=expansions, options=PhotoOptions(conditions=conditions),
        )
        img = photo.image
        if spaces:
            img = img.copy()
            quads = np.round(photo.space_quads().reshape(-1, 4, 2)).astype(np.int32)
            cv2.polylines(img, list(quads), True, (0, 0, 255), max(1, img.shape[1] // 800))
        if corners:
            img = img.copy()
            pts = np.round(photo.corners).astype(np.int32)
            cv2.polylines(img, [pts], True, (0, 0, 255), max(2, img.shape[1] // 400), cv2.LINE_AA)
            cv2.circle(img, tuple(pts[0]), max(4, img.shape[1] // 150), (0, 255, 0), -1)
        h, w = img.shape[:2]
        f = thumb / max(h, w)
        small = cv2.resize(img, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA)
        r, c = divmod(i, cols)
        y, x = r * thumb + (thumb - small.shape[0]) // 2, c * thumb + (thumb - small.shape[1]) // 2
        sheet[y : y + small.shape[0], x : x + small.shape[1]] = small
        cond = photo.conditions
        label = str(photo_seed) if flat else f"{photo_seed} t{cond['tilt']:.0f} r{cond['rotation']:.0f}"
        if "water_style" in cond:
            water = cond["water_style"]
            label += f" {'+'.join(expansions)} {water['river']} {water['lake_fill']}"
        lines = [label] + _wrap(" ".join(photo.drawn or []), thumb // 8)
        for k, text in enumerate(lines):
            cv2.putText(
                sheet,
                text,
                (c * thumb + 4, r * thumb + 14 + 15 * k),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45,
                (0, 0, 255),
                1,
                cv2.LINE_AA,
            )
    if not cv2.imwrite(out_path, sheet):
        raise click.ClickException(f"{out_path}: could not write image")
    click.echo(f"wrote {out_path} ({n} photos, seed {seed})")


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


if __name__ == "__main__":
    main()
