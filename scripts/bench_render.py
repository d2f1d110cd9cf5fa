"""Time render_photo on one core at given photo sizes and print the figures.

    python scripts/bench_render.py [--n 20] [--megapixels 2 --megapixels 12] [--seed 0]

Target (issue 4): <= 0.2 s per 2-megapixel photo on one core.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import click
import cv2
import numpy as np

from vision.render import render_photo, sample_grid


@click.command()
@click.option("--n", default=20, show_default=True, type=click.IntRange(1))
@click.option(
    "--megapixels", "sizes", multiple=True, type=float, default=(1.0, 2.0, 12.0), show_default=True
)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--repeat",
    default=1,
    show_default=True,
    type=click.IntRange(1),
    help="render each photo this often and keep its fastest time (shared machines)",
)
def main(n: int, sizes: tuple[float, ...], seed: int, repeat: int) -> None:
    cv2.setNumThreads(1)
    grids = [sample_grid(np.random.default_rng([seed, i])) for i in range(n)]
    render_photo(grids[0], seed=seed, megapixels=1.0)  # warm up imports and caches
    click.echo(f"render_photo on one core, {n} photos per size (random conditions, seed {seed})")
    click.echo(
        "wall = elapsed time; cpu = process CPU time (less affected by other load)"
        + (f"; fastest of {repeat} runs per photo" if repeat > 1 else "")
    )
    click.echo(
        f"{'MP':>6} {'wall mean':>10} {'wall p90':>9} {'cpu mean':>9} {'cpu p90':>8} {'cpu max':>8}"
    )
    for mp in sizes:
        wall, cpu = [], []
        for i, grid in enumerate(grids):
            best_wall = best_cpu = float("inf")
            for _ in range(repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                render_photo(grid, seed=seed * 10_000 + i, megapixels=mp)
                best_wall = min(best_wall, time.perf_counter() - t0)
                best_cpu = min(best_cpu, time.process_time() - c0)
            wall.append(best_wall)
            cpu.append(best_cpu)
        w, c = np.array(wall), np.array(cpu)
        click.echo(
            f"{mp:6.1f} {w.mean():10.3f} {np.percentile(w, 90):9.3f} {c.mean():9.3f} "
            f"{np.percentile(c, 90):8.3f} {c.max():8.3f}"
        )


if __name__ == "__main__":
    main()
