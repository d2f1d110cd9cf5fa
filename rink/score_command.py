"""``rink score``: score grid files, photos and folders of them (``-``: standard input).

One result per input, in input order: a score sheet (``--json``: one JSON object per line,
board-spec 4.3; ``--quiet``: one 'name: total' line). Inputs that cannot be scored, and output
files that cannot be written, are listed at the end on stderr, one line each. Exit status: 0 all
scored, 1 some inputs could not be scored or an output not written, 2 usage error, 130/143
stopped by SIGINT/SIGTERM.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager

import click

from rink.batch import Correction, ScoreOptions, score_items
from rink.inputs import expand_paths
from rink.leaderboard import format_leaderboard, leaderboard_csv, rank
from rink.results import BoardResult
from rink.safe_write import OutputError, check_writable, write_atomic
from rink.stdin_input import STDIN_PATH
from scoring.board import SIZE, format_grid
from scoring.quote import one_line
from scoring.space import TokenError, parse_token


def _plain(value: object) -> object:
    """JSON for values the photo reader may put in a review entry (numpy numbers, arrays)."""
    if hasattr(value, "tolist"):
        return value.tolist()  # type: ignore[union-attr]
    return str(value)


_CORRECTION = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*=(.*)", re.DOTALL)
"""``ROW,COL=TOKEN``; ``[0-9]`` is ASCII digits only (``str.isdigit`` would take '²')."""


def _parse_correction(text: str) -> Correction:
    """One ``--set ROW,COL=TOKEN``; a usage error saying what is wrong otherwise."""
    match = _CORRECTION.fullmatch(text)
    if match is None:
        raise click.BadParameter(f"{text!r}: expected ROW,COL=TOKEN with ROW and COL digits "
                                 "0-6, e.g. 2,3=H_H_", param_hint="--set")
    row, col, token = int(match[1]), int(match[2]), match[3].strip()
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise click.BadParameter(f"{text!r}: rows and columns are 0-6", param_hint="--set")
    try:
        parse_token(token)
    except TokenError as error:
        raise click.BadParameter(f"{text!r}: {error}", param_hint="--set") from None
    return Correction(row, col, token)


def _parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise click.BadParameter(
            f"{text!r}: expected 8 numbers x1,y1,...,x4,y4 (top-left, top-right, "
            "bottom-right, bottom-left corner of the grid, in photo pixels)")
    return tuple((values[i], values[i + 1]) for i in range(0, 8, 2))


def _grid_text(result: BoardResult) -> str:
    """The scored board as a grid file, with comments saying what was corrected."""
    assert result.board is not None
    header = [f"# {one_line(result.source)} as scored by rink"]
    header += [f"# corrected: row {c.row}, column {c.col} = {c.token} (was {c.was})"
               for c in result.corrected]
    header += [f"# to review: row {r.row}, column {r.col}: read {r.token}" for r in result.review]
    return "\n".join(header) + "\n" + format_grid(result.board)


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per input (board-spec 4.3).")
@click.option("--expansion", "expansions", multiple=True, metavar="NAME",
              help="Score with this expansion too (repeatable); a grid file may also name it "
                   "in an 'expansion: NAME' line. A photo plays the rivers and lakes it shows, "
                   "unless --expansion names what it plays.")
@click.option("--reentrant-longest", is_flag=True,
              help="Longest routes may re-enter a space by another piece and count a closed "
                   "loop's first space again (digital-version variant; off by default).")
@click.option("--corners", metavar="x1,y1,x2,y2,x3,y3,x4,y4",
              help="Board corners by hand (one photo): top-left, top-right, bottom-right, "
                   "bottom-left of the grid, in photo pixels.")
@click.option("--annotate", "annotate_dir", metavar="DIR",
              help="Write an annotated picture of each photo (Errors marked) into DIR.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; results stay in input order.")
@click.option("--csv", "csv_path", metavar="FILE",
              help="Write one row per input with its rank and full breakdown.")
@click.option("--set", "corrections", multiple=True, metavar="ROW,COL=TOKEN",
              help="Overrule the space at ROW,COL (0-6) with TOKEN and rescore (repeatable; "
                   "one input only).")
@click.option("--save-grid", metavar="FILE",
              help="Write the (read or corrected) board as a grid file (one input only).")
@click.option("--strict", is_flag=True,
              help="A board with spaces to review counts as not scored (tournament use).")
@click.option("--force", is_flag=True, help="Overwrite existing output files.")
@click.option("--quiet", "-q", is_flag=True,
              help="Only the essentials: one line per scored board (name: total) on stdout, "
                   "the inputs that failed on stderr; no sheets, no leaderboard.")
def score(paths: tuple[str, ...], as_json: bool, expansions: tuple[str, ...],
          reentrant_longest: bool, corners: str | None, annotate_dir: str | None, jobs: int,
          csv_path: str | None, corrections: tuple[str, ...], save_grid: str | None,
          strict: bool, force: bool, quiet: bool) -> None:
    """Score Railroad Ink boards: grid files (.txt), photos, or folders of them; - reads one
    photo or grid file from standard input.

    Rows and columns are numbered 0-6 from the top-left corner of the grid.
    """
    fixes = tuple(_parse_correction(text) for text in corrections)
    hand_corners = _parse_corners(corners) if corners else None
    if paths.count(STDIN_PATH) > 1:
        raise click.UsageError("- (standard input) can be given only once")
    _check_outputs({"--csv": csv_path, "--save-grid": save_grid}, force)
    _check_expansions(expansions)
    items = expand_paths(list(paths))
    if (fixes or save_grid or hand_corners) and len(items) != 1:
        raise click.UsageError("--set, --save-grid and --corners work on exactly one input "
                               f"(got {len(items)})")
    if hand_corners and items[0].kind == "grid":
        raise click.UsageError(f"--corners is for a photo; {one_line(items[0].source)} is a "
                               "grid file")
    options = ScoreOptions(
        expansions=expansions, reentrant_longest=reentrant_longest, corrections=fixes,
        strict=strict, corners=hand_corners, annotate_dir=annotate_dir, force=force,
    )
    output = "json" if as_json else "quiet" if quiet else "sheets"
    try:
        with _stop_on_signals():
            results = _score_and_print(items, options, jobs, output)
    except (Stopped, KeyboardInterrupt) as stop:
        signum = stop.signum if isinstance(stop, Stopped) else signal.SIGINT
        click.echo(f"rink: stopped by {signal.Signals(signum).name}; no output files written",
                   err=True)
        sys.exit(128 + signum)
    problems = _write_outputs(results, csv_path, save_grid, force, output)
    if output == "sheets" and len(results) > 1:
        standings = rank(results)
        if standings:
            click.echo(format_leaderboard(standings))
    failed = [r for r in results if not r.ok]
    if failed and len(results) > 1 and output != "quiet":
        click.echo(f"Could not score {len(failed)} of {len(results)} inputs:", err=True)
    for line in [r.error for r in failed] + problems:
        click.echo(one_line(line), err=True)
    if failed or problems:
        sys.exit(1)


def _write_outputs(results: list[BoardResult], csv_path: str | None, save_grid: str | None,
                   force: bool, output: str) -> list[str]:
    """Write --save-grid and --csv; the problems, one line each (annotated pictures' too)."""
    problems = [line for result in results for line in result.write_errors]
    if save_grid and results and results[0].board is not None:
        problems += _write(save_grid, lambda: _grid_text(results[0]), force)
        if not problems and output == "sheets":
            click.echo(f"Grid saved to {one_line(save_grid)}")
    if csv_path:
        problems += _write(csv_path, lambda: leaderboard_csv(results), force)
    return problems


def _check_outputs(outputs: dict[str, str | None], force: bool) -> None:
    """Usage errors before anything is scored: an output file that exists (without --force)
    or is not a regular file, or one file named by two options."""
    named: dict[str, str] = {}
    for option, path in outputs.items():
        if not path:
            continue
        try:
            check_writable(path, force)
        except OutputError as error:
            raise click.UsageError(one_line(str(error))) from None
        real = os.path.realpath(path)
        if real in named:
            raise click.UsageError(f"{named[real]} and {option} name the same file "
                                   f"({one_line(path)}); give each its own")
        named[real] = option


def _check_expansions(expansions: tuple[str, ...]) -> None:
    """A usage error for an unknown ``--expansion``."""
    if expansions:
        from scoring.registry import UnknownExpansion, get_expansion

        for name in expansions:
            try:
                get_expansion(name)
            except UnknownExpansion as error:
                raise click.BadParameter(str(error), param_hint="--expansion") from None


class Stopped(BaseException):
    """SIGTERM arrived while scoring (a BaseException, like KeyboardInterrupt for Ctrl-C, so no
    ``except Exception`` on the way swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: object) -> None:
    raise Stopped(signum)


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """While scoring, SIGTERM raises Stopped, so worker processes are ended on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers
        return
    previous = signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _score_and_print(items: list, options: ScoreOptions, jobs: int,
                     output: str) -> list[BoardResult]:
    """Score every input in order, printing each as it comes: its sheet (``output`` 'sheets'),
    its JSON line ('json') or its name and total ('quiet').

    Sheets on a terminal: a progress bar runs on stderr, and the sheets follow once it is done.
    """
    from rink.sheet_text import format_sheet

    show_progress = output == "sheets" and len(items) > 1 and sys.stderr.isatty()
    results: list[BoardResult] = []
    with closing(score_items(items, options, jobs)) as scored, \
            click.progressbar(length=len(items), file=sys.stderr, label="Scoring",
                              hidden=not show_progress) as bar:
        for result in scored:
            results.append(result)
            bar.update(1)
            if output == "json":
                click.echo(json.dumps(result.to_json(), default=_plain))
            elif output == "quiet" and result.ok:
                click.echo(_total_line(result))
            elif result.ok and not show_progress:
                click.echo(format_sheet(result) + "\n")
    if show_progress:
        for result in results:
            if result.ok:
                click.echo(format_sheet(result) + "\n")
    return results


def _total_line(result: BoardResult) -> str:
    """``--quiet``: 'night/anna.jpg: 52', and how many spaces to check, if any."""
    check = f" ({len(result.review)} to review)" if result.review else ""
    return f"{one_line(result.source)}: {result.total}{check}"


def _write(path: str, make_text, force: bool) -> list[str]:
    """Write an output file whole; returns the problem (one line) if it could not be."""
    try:
        write_atomic(path, make_text(), force=force)
    except OutputError as error:
        return [str(error)]
    except OSError as error:
        return [f"{path}: cannot write ({error.strerror or error})"]
    return []
