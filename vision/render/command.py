"""``rink render``: write rendered photos and their truth files to a folder."""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from .phone import PROFILES
from .style import PEN_RANGES
from .water_games import CHOICES


def render_many(
    out: Path,
    n: int,
    seed: int,
    megapixels: float | None = None,
    fmt: str = "jpg",
    quality: int = 85,
    exif_rate: float = 0.0,
    expansions: bool = False,
    conditions: str | None = None,
    expansion: str | None = None,
    pens: str = "standard",
) -> list[Path]:
    """Render ``n`` photos ``render_<seed>_<i>.<fmt>`` with truth JSON beside each.

    Photo i uses seed ``seed * 1_000_003 + i``; ``exif_rate`` of the JPEGs are stored turned
    with an EXIF Orientation tag (their truth describes the photo as shown). ``expansions``
    draws boards mixing expansion drawings into random spaces instead of ``sample_board``;
    ``conditions`` names a condition profile (phone.PROFILES) to render with.
    ``expansion`` (water_games.CHOICES: river, lake, both, mix) draws Deep Blue boards
    (water_games.water_board) with their water and ``expansion:`` key line instead.
    ``pens`` "wide" draws the players' pens past the renderer's own sizes (style.WIDE_PENS).
    """
    import cv2

    from .games import expansion_board, sample_board
    from .photo import PhotoOptions, render_photo
    from .water_games import pick_expansions, water_board

    cv2.setNumThreads(1)
    written = []
    for i in range(n):
        photo_seed = seed * 1_000_003 + i
        board_rng = np.random.default_rng([photo_seed, 99])
        played: tuple[str, ...] = ()
        if expansion is not None:
            played = pick_expansions(board_rng, expansion)
            board = water_board(board_rng, played)
        elif expansions:
            board = expansion_board(board_rng)
        else:
            board = sample_board(board_rng)
        photo = render_photo(
            board.grid,
            seed=photo_seed,
            megapixels=megapixels,
            rounds=board.rounds,
            options=PhotoOptions(conditions=conditions, pens=pens),
            expansions=played,
        )
        photo.conditions["board_kind"] = board.kind
        pick = np.random.default_rng([photo_seed, 98])
        turned = fmt == "jpg" and pick.random() < exif_rate
        orientation = int(pick.choice([3, 6, 8])) if turned else None
        path = out / f"render_{seed}_{i:05d}.{fmt}"
        written.append(photo.save(path, jpeg_quality=quality, exif_orientation=orientation))
    return written


@click.command()
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="folder to write photos and truth JSON into",
)
@click.option("--n", default=10, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0))
@click.option(
    "--megapixels",
    default=None,
    type=click.FloatRange(0.05, 50),
    help="photo size; random 1..12 when not given",
)
@click.option(
    "--format", "fmt", default="jpg", show_default=True, type=click.Choice(["jpg", "png", "webp"])
)
@click.option(
    "--quality",
    default=85,
    show_default=True,
    type=click.IntRange(1, 100),
    help="JPEG quality of the written files",
)
@click.option(
    "--exif-rate",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="share of JPEGs stored turned with an EXIF Orientation tag",
)
@click.option(
    "--expansions", is_flag=True, help="mix expansion drawings (rivers, lakes...) into the boards"
)
@click.option(
    "--conditions",
    type=click.Choice(sorted(PROFILES)),
    default=None,
    help="render with a condition profile: bent paper, faint ink, dim rooms, things on the "
    "sheet (phone_marks: also marks rink does not read)",
)
@click.option(
    "--expansion",
    type=click.Choice(CHOICES),
    default=None,
    help="Deep Blue boards played with River, Lake, both, or a mix of the three (45/45/10 %)",
)
@click.option(
    "--pens",
    type=click.Choice(PEN_RANGES),
    default="standard",
    show_default=True,
    help="pen sizes: the renderer's own, or 'wide': finer liners and broader markers, wide or "
    "narrow double-line highways, close or sparse ties",
)
@click.option(
    "--samples", is_flag=True, help="write the fixed sample photos (sample_photos/board_NN) instead"
)
def render(
    out_dir: Path,
    n: int,
    seed: int,
    megapixels: float | None,
    fmt: str,
    quality: int,
    exif_rate: float,
    expansions: bool,
    conditions: str | None,
    expansion: str | None,
    pens: str,
    samples: bool,
) -> None:
    """Render N synthetic phone photos of drawn boards, each with <stem>.json ground truth."""
    from .samples import write_samples

    if expansions and expansion:
        raise click.UsageError("--expansions and --expansion draw different boards; give one")
    try:
        if samples:
            paths = write_samples(out_dir, quality)
        else:
            paths = render_many(
                out_dir, n, seed, megapixels, fmt, quality, exif_rate, expansions, conditions,
                expansion, pens,
            )
    except OSError as err:
        message = f"{out_dir}: cannot write there ({err.strerror or err})"
        raise click.ClickException(message) from None
    click.echo(f"wrote {len(paths)} photos and truth files to {out_dir}")
