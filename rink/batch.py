"""Scoring inputs one by one or in worker processes, results in input order.

``score_item`` does everything for one input (load, apply corrections, score with expansions,
annotate a photo) and never raises for a bad input: the result says what went wrong.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rink.inputs import InputError, InputItem, LoadedBoard, load_input
from rink.results import BoardResult, CorrectedSpace, SeenExpansion
from scoring.board import GridError, Position
from scoring.results import ScoreSheet
from scoring.space import format_space, parse_token


@dataclass(frozen=True)
class Correction:
    """``--set ROW,COL=TOKEN``: the space at (row, col) is overruled with ``token``."""

    row: int
    col: int
    token: str


@dataclass(frozen=True)
class ScoreOptions:
    """What every input is scored with."""

    expansions: tuple[str, ...] = ()
    """``--expansion``: added to a grid file's own; for a photo, exactly what it plays (none
    given: the expansions the photo shows)."""
    reentrant_longest: bool = False
    corrections: tuple[Correction, ...] = ()
    strict: bool = False
    corners: tuple[tuple[float, float], ...] | None = None
    annotate_dir: str | None = None
    force: bool = False


def apply_corrections(loaded: LoadedBoard,
                      corrections: tuple[Correction, ...]) -> list[CorrectedSpace]:
    """Overrule spaces of ``loaded.board``; their review entries are dropped."""
    done = []
    for fix in corrections:
        before = format_space(loaded.board[fix.row, fix.col])
        loaded.board = loaded.board.replaced((fix.row, fix.col), parse_token(fix.token))
        done.append(CorrectedSpace(fix.row, fix.col, format_space(loaded.board[fix.row, fix.col]),
                                   before))
    fixed: set[Position] = {(c.row, c.col) for c in done}
    loaded.review = [r for r in loaded.review if (r.row, r.col) not in fixed]
    return done


def _canonical(name: str) -> str:
    """An expansion's registered name ('River' -> 'river'); the name itself if unknown."""
    from scoring.registry import UnknownExpansion, get_expansion

    try:
        return get_expansion(name).name or name
    except UnknownExpansion:
        return name


def photo_expansions(loaded: LoadedBoard, named: tuple[str, ...]
                     ) -> tuple[tuple[str, ...], list[SeenExpansion], list[str]]:
    """What a photo is scored with: the expansions ``named`` (``--expansion``) when any are,
    else those the photo shows. Returns (expansions, what the photo shows, notes): a note for
    each expansion the photo shows that ``named`` leaves out."""
    from rink.sheet_text import expansion_title

    if not named:
        chosen = tuple(dict.fromkeys(s.name for s in loaded.expansions_seen))
        return chosen, [SeenExpansion.of(s) for s in loaded.expansions_seen], []
    played = {_canonical(name) for name in named}
    seen = [SeenExpansion.of(s, _canonical(s.name) in played) for s in loaded.expansions_seen]
    words = ", ".join(expansion_title(name) for name in named)
    notes = [f"the photo shows {expansion_title(s.name)}, but --expansion names {words}: "
             f"scored without {expansion_title(s.name)}" for s in seen if not s.scored]
    return named, seen, notes


def score_item(item: InputItem, options: ScoreOptions, picture: str | None = None) -> BoardResult:
    """Load and score one input; never raises for bad input.

    ``picture``: where to write a photo's annotated picture (``--annotate``; see
    ``picture_paths``).
    """
    from scoring.engine import score

    try:
        loaded = load_input(item, list(options.corners) if options.corners else None)
    except InputError as error:
        return BoardResult(item.source, item.kind, error=str(error))
    result = BoardResult(item.source, loaded.kind, review=loaded.review,
                         warnings=loaded.warnings)
    result.corrected = apply_corrections(loaded, options.corrections)
    result.board = loaded.board
    result.review = loaded.review
    expansions = options.expansions
    if loaded.kind == "photo":
        expansions, result.expansions_seen, notes = photo_expansions(loaded, expansions)
        result.warnings = [*result.warnings, *notes]
    try:
        result.sheet = score(
            loaded.board, expansions, source=item.source,
            reentrant_longest=options.reentrant_longest,
        )
    except GridError as error:
        result.error = str(error)
        return result
    if options.annotate_dir and loaded.reading is not None:
        target = Path(picture or picture_paths([item], options.annotate_dir)[0] or "")
        result.annotated, problem = _annotate(loaded, result.sheet, target, options.force)
        if problem:
            result.write_errors.append(problem)
    if options.strict and result.review:
        result.error = (f"{item.source}: {len(result.review)} space(s) to review "
                        "(--strict); check them or correct them with --set")
    return result


def picture_paths(items: list[InputItem], folder: str | None) -> list[str | None]:
    """Where ``--annotate`` writes each photo's picture: ``folder/<photo name>.rink.png``.

    Photos that share a name (``a/x.jpg``, ``b/x.jpg``) get ``x.rink.png``, ``x-2.rink.png``...,
    never a name another photo has by itself. None for inputs that are not photos.
    """
    if not folder:
        return [None] * len(items)
    stems = [("stdin" if item.data is not None else Path(item.source).stem)
             if item.kind == "photo" else None for item in items]
    taken = {stem for stem in stems if stem is not None}
    used: set[str] = set()
    paths: list[str | None] = []
    for stem in stems:
        if stem is None:
            paths.append(None)
            continue
        name, number = stem, 1
        while name in used or (number > 1 and name in taken):
            number += 1
            name = f"{stem}-{number}"
        used.add(name)
        paths.append(str(Path(folder) / f"{name}.rink.png"))
    return paths


def _annotate(loaded: LoadedBoard, sheet: ScoreSheet, target: Path,
              force: bool) -> tuple[str, str]:
    """Write the annotated picture of a photo to ``target``; returns (path, problem)."""
    import cv2

    from rink.annotate import annotated_image
    from rink.safe_write import OutputError, write_atomic

    where = f"{loaded.source}: annotated picture not written"
    try:
        errors = [(e.row, e.col, e.side) for e in sheet.errors]
        image = annotated_image(loaded.reading, errors=errors)
        ok, encoded = cv2.imencode(".png", image)
        if not ok:
            return "", f"{where}: the picture could not be encoded"
        write_atomic(target, encoded.tobytes(), force=force)
    except OutputError as error:
        return "", f"{where}: {error}"
    except OSError as error:
        folder = target.parent
        if folder.exists() and not folder.is_dir():
            return "", f"{where}: {folder} is not a folder"
        return "", f"{where}: cannot write into {folder} ({error.strerror or error})"
    except Exception as error:  # noqa: BLE001 - a by-product: never lose the score over it
        return "", f"{where}: the picture could not be drawn ({error})"
    return str(target), ""


def _score_job(job: tuple[InputItem, ScoreOptions, str | None]) -> BoardResult:
    return score_item(*job)


def _score_chunk(jobs: list[tuple[InputItem, ScoreOptions, str | None]]) -> list[BoardResult]:
    return [score_item(*job) for job in jobs]


def score_items(
    items: list[InputItem],
    options: ScoreOptions,
    jobs: int = 1,
) -> Iterator[BoardResult]:
    """Score ``items`` (in ``jobs`` worker processes when > 1), yielding results in input order."""
    work = list(zip(items, [options] * len(items), picture_paths(items, options.annotate_dir)))
    if jobs <= 1 or len(items) <= 1:
        for job in work:
            yield _score_job(job)
        return
    import scoring.engine  # noqa: F401  (loaded once here, inherited by forked workers)

    # grid files are quick: send them in chunks; photos are slow: one at a time
    photos = any(item.kind == "photo" for item in items)
    chunk = 1 if photos else max(1, len(items) // (jobs * 4))
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_signals)
    finished = False
    try:
        # not pool.map: on the way out it cancels the futures from this thread while the
        # pool's own thread fails them as its stopped workers end (Python 3.11 then prints an
        # InvalidStateError traceback); here only the pool's thread settles them
        futures = [pool.submit(_score_chunk, work[start:start + chunk])
                   for start in range(0, len(work), chunk)]
        for future in futures:
            yield from future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:  # stopped (a signal, an error, or the caller closed this generator)
            _stop_workers(pool)


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the parent (which stops it) and ends on SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by fork


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now, without waiting for the inputs still queued."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        for process in processes:
            if process.is_alive():
                process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
    # The pool's own thread closes its wake-up pipe as it ends; at exit Python 3.11 writes to
    # that pipe unguarded, and a thread closing it meanwhile printed an "OSError: Bad file
    # descriptor" traceback after "rink: stopped by SIGINT". Let it end here first.
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=5)
