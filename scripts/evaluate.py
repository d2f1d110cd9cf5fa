"""Measure the photo reader on held-out rendered photos; print figures, write a per-photo CSV.

    nice -n 10 .venv/bin/python scripts/evaluate.py --n 500 --seed 7000000 --csv out/eval.csv

Photos are rendered with seeds seed, seed+1, ... (training used 1,000,000 + i; keep apart),
at the renderer's random 1-12 megapixels, saved as JPEG (quality 92) and read back through
the real loader, exactly as a user's photo would be.

``--conditions phone`` renders them with a condition profile (vision.render.phone: bent
paper, faint ink, dim rooms, things on the sheet...) and adds, per photo, the conditions
drawn and how misreads, covered spaces and unread marks fared against the review list, and
in the summary the same figures for each condition (``by_condition``).

``--pens wide`` draws the players' pens from wider and finer ranges than the renderer's own
(vision.render.style.WIDE_PENS), which the reader must read as well.

``--finish NAME`` puts every photo through a photo finish before it is saved
(vision.render.finishing: heavy JPEG recompression, oversharpening, tone curves, a colour
cast, soft focus, black and white, vivid colours, a vignette, strong grain for each pixel and
channel): looks a phone or another renderer may give and this renderer never does.

``--expansion river|lake|both|mix`` renders Deep Blue boards (vision.render.water_games): the
true total is scored with the expansions the board plays, the read total with those the
reader saw (as ``rink score`` does without ``--expansion``), and the summary adds the water
figures of issue 16 (water sides misread, expansions seen right). On base boards
``false_water_spaces_pct`` is the share of spaces read with water that have none.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.channels import ChannelParams
from vision.classify import ClassifyParams
from vision.covered import FROM_NEIGHBOURS, CoveredParams
from vision.faint_empty import FAINT_EMPTY, FaintEmptyParams
from vision.grain import GrainParams
from vision.ink_check import InkCheckParams
from vision.marks import UNEXPLAINED, MarkParams
from vision.model_files import models_dir
from vision.model_meta import META_FILE, ModelMeta
from vision.recognizer import PhotoError, ReadParams, Recognizer
from vision.render import PhotoOptions, render_photo, sample_board
from vision.render.finishing import FINISHES, finish_photo
from vision.render.games import Board
from vision.render.phone import PROFILES
from vision.render.style import PEN_RANGES
from vision.render.unread import KINDS as MARK_KINDS
from vision.render.water_games import CHOICES, pick_expansions, water_board
from vision.route_balance import RouteBalanceParams
from vision.space_parts import same_space, side_letters, token_parts, turned_parts
from vision.unbend import UnbendParams
from vision.water_sighting import WATER_LETTERS, WaterParams

STAGES = ("load", "locate", "rectify", "unbend", "orient", "classify", "decode", "ink_check",
          "covered", "total")
_recognizer: Recognizer | None = None


def _piece(token: str) -> str:
    """A token up to rotation (same parts, any turn)."""
    return min(repr(turned_parts(token_parts(token), k)) for k in range(4))


def _score_total(lines: list[str], expansions: tuple[str, ...] = ()) -> int | None:
    """Total score by the project's scorer, or None where it is unavailable or refuses."""
    try:
        from scoring.board import parse_grid
        from scoring.engine import score
        return int(score(parse_grid("\n".join(lines)), list(expansions)).total)
    except Exception:  # noqa: BLE001 - the column is optional
        return None


def water_sides(truth: str, read: str) -> tuple[int, int, int]:
    """(true water sides, of them read otherwise, sides read as water that are not)."""
    t, r = side_letters(truth), side_letters(read)
    true_water = sum(1 for a in t if a in WATER_LETTERS)
    missed = sum(1 for a, b in zip(t, r) if a in WATER_LETTERS and a != b)
    false = sum(1 for a, b in zip(t, r) if b in WATER_LETTERS and a != b)
    return true_water, missed, false


TTA_MODES = {"unsure": ClassifyParams(), "all": ClassifyParams(sure=None),
             "off": ClassifyParams(turns=1, mirror=False),
             "turns": ClassifyParams(mirror=False), "mirror-all": ClassifyParams(mirror_parts=True)}


def _number_or_none(text: str, valid: Callable[[float], bool], what: str) -> float | None:
    """A number that ``valid`` accepts, or None for 'none'; else an argparse error saying
    ``what`` is wanted."""
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: {what} or 'none'") from None
    if not valid(value):
        raise argparse.ArgumentTypeError(f"{text}: {what} or 'none'")
    return value


def _probability_or_none(text: str) -> float | None:
    """--merge-sure, --parts-sure, --faint-stroke-share, --unseen-sure, --tta-sure: a
    probability (a share), or 'none'."""
    return _number_or_none(text, lambda p: 0.0 <= p <= 1.0, "a probability (0..1)")


def _ratio_or_none(text: str) -> float | None:
    """--water-loss-ratio, --split-cap: a number above 0, or 'none'."""
    return _number_or_none(text, lambda r: r > 0.0, "a number above 0")


def _grain_or_none(text: str) -> float | None:
    """--grain-gate: grey levels of grain (above 0), or 'none'."""
    return _number_or_none(text, lambda g: g > 0.0, "grey levels above 0")


def _count_or_none(text: str) -> int | None:
    """--faint-route-spaces: a count of spaces (1 or more), or 'none'."""
    value = _number_or_none(text, lambda n: n >= 1 and float(n).is_integer(),
                            "a whole number of spaces (1 or more)")
    return None if value is None else int(value)


def _joins(text: str) -> int:
    """--faint-route-river-joins: a count of joins (0 or more)."""
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text}: a whole number of joins (0 or more)")
    return int(text)


def _pixels_or_none(text: str) -> float | None:
    """--small-space-px: a size in pixels, or 'none'."""
    return _number_or_none(text, lambda px: px > 0.0, "a size in pixels (above 0)")


def _init(models: str, tta: str, ink_check: bool = True, unbend: bool = True,
          faint_above: float = ClassifyParams().faint_above, mark_check: bool = True,
          mark_threshold: float | None = None, covered_context: bool = True,
          second_doubt_ratio: float = ClassifyParams().second_doubt_ratio,
          dry_second_doubt_ratio: float = ClassifyParams().dry_second_doubt_ratio,
          merge_sure: float | None = ClassifyParams().merge_sure,
          parts_sure: float | None = ClassifyParams().parts_sure,
          route_balance: bool = True, skin_test: bool = True,
          faint_empty: bool = True,
          small_space_px: float | None = ClassifyParams().small_space_px,
          faint_route_spaces: int | None = WaterParams().faint_route_spaces,
          faint_route_letters: str = WaterParams().faint_route_letters,
          faint_route_river_joins: int = WaterParams().faint_route_river_joins,
          water_check: bool = True,
          faint_stroke_share: float | None = ClassifyParams().faint_stroke_share,
          water_loss_ratio: float | None = ClassifyParams().water_loss_ratio,
          split_cap: float | None = RouteBalanceParams().split_cap,
          unseen_sure: float | None = WaterParams().unseen_sure,
          tta_sure: float | None = ClassifyParams().sure, int8: bool = True,
          grain_gate: float | None = GrainParams().gate, dark_channels: bool = True) -> None:
    global _recognizer
    cv2.setNumThreads(1)
    augmentation = TTA_MODES[tta]
    if tta_sure != ClassifyParams().sure:  # the default keeps the mode's own (all: None)
        augmentation = replace(augmentation, sure=tta_sure)
    _recognizer = Recognizer.load(models, int8=int8, params=ReadParams(
        classify=replace(augmentation, faint_above=faint_above,
                         faint_stroke_share=faint_stroke_share,
                         water_loss_ratio=water_loss_ratio,
                         second_doubt_ratio=second_doubt_ratio,
                         dry_second_doubt_ratio=dry_second_doubt_ratio, merge_sure=merge_sure,
                         parts_sure=parts_sure, small_space_px=small_space_px,
                         water_check_weight=(ClassifyParams().water_check_weight
                                             if water_check else None)),
        ink=InkCheckParams(enabled=ink_check, skin_test=skin_test),
        unbend=UnbendParams(enabled=unbend),
        marks=MarkParams(enabled=mark_check, threshold=mark_threshold),
        covered=CoveredParams(enabled=covered_context),
        route_balance=RouteBalanceParams(enabled=route_balance, split_cap=split_cap),
        faint_empty=FaintEmptyParams(enabled=faint_empty),
        water=WaterParams(faint_route_spaces=faint_route_spaces,
                          faint_route_letters=faint_route_letters,
                          faint_route_river_joins=faint_route_river_joins,
                          unseen_sure=unseen_sure),
        grain=GrainParams(gate=grain_gate),
        channels=ChannelParams() if dark_channels else ChannelParams(dark_below=None)))


def evaluate_all(jobs: list[tuple], workers: int, reader: tuple) -> Iterator[dict]:
    """``evaluate_one`` over ``jobs`` in order, the reader made by ``_init(*reader)``: in this
    process for one worker, else in a pool of ``workers`` forked processes. (One worker
    forks nothing: a process that has run OpenCV's thread pool, such as a test session,
    cannot fork safely; the child hangs in ``cv2.setNumThreads``.)"""
    if workers <= 1:
        threads = cv2.getNumThreads()
        try:
            _init(*reader)
            yield from map(evaluate_one, jobs)
        finally:
            cv2.setNumThreads(threads)  # this process's own setting, as it was
        return
    with Pool(workers, initializer=_init, initargs=reader) as pool:
        yield from pool.imap(evaluate_one, jobs, chunksize=2)


def space_corner_errors(read: np.ndarray | None, truth: np.ndarray | None
                        ) -> tuple[float | str, float | str]:
    """(largest, mean) distance of the read space corners (7, 7, 4, 2) from the true ones,
    in spaces (the true spaces' mean side); blank where either is missing."""
    if read is None or truth is None:
        return "", ""
    truth = np.asarray(truth, np.float64)
    space = float(np.linalg.norm(np.roll(truth, -1, axis=2) - truth, axis=-1).mean())
    distance = np.linalg.norm(np.asarray(read, np.float64) - truth, axis=-1) / space
    return round(float(distance.max()), 4), round(float(distance.mean()), 4)


COVERED = 0.2  # a space this much hidden by a hand, pen or die counts as covered


def case_board(seed: int, expansion: str | None = None) -> tuple[Board, tuple[str, ...]]:
    """The board drawn for ``seed`` (a base board, or with ``expansion`` a River / Lake
    board; its ``kind``: a game, a random sheet or one with illegal drawings), and the
    expansions played on it."""
    rng = np.random.default_rng([seed, 99])
    if expansion is None:
        return sample_board(rng), ()
    played = pick_expansions(rng, expansion)
    return water_board(rng, played), played


def render_case(seed: int, megapixels: float | None = None, conditions: str | None = None,
                expansion: str | None = None, pens: str = "standard"):
    """The photo of ``seed`` as this script renders it (``case_board``), and the expansions
    played on it."""
    board, played = case_board(seed, expansion)
    return _photo_of(board, played, seed, megapixels, conditions, pens), played


def _photo_of(board: Board, played: tuple[str, ...], seed: int, megapixels: float | None,
              conditions: str | None, pens: str = "standard"):
    return render_photo(board.grid, seed=seed, megapixels=megapixels,
                        options=PhotoOptions(conditions=conditions, pens=pens),
                        expansions=played)


def evaluate_one(args: tuple) -> dict:
    """Render, save, read and compare one photo."""
    seed, megapixels, tmp, conditions, expansion, pens, finish = args
    board, played = case_board(seed, expansion)
    photo = _photo_of(board, played, seed, megapixels, conditions, pens)
    path = Path(tmp) / f"eval_{seed}.jpg"
    image = photo.image if finish is None else finish_photo(photo.image, finish)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    truth = photo.grid
    row = {"seed": seed, "board_kind": board.kind,
           "megapixels": photo.conditions.get("megapixels"),
           "tilt": photo.conditions.get("tilt"), "rotation": photo.conditions.get("rotation"),
           "light": photo.conditions.get("light"), "glare": photo.conditions.get("glare"),
           "clutter": photo.conditions.get("clutter")}
    if conditions is not None:
        covered = {rc for rc, f in (photo.covered or {}).items() if f >= COVERED}
        unread = {(r, c) for r, c, _ in photo.unread or []}
        row.update(conditions=" ".join(photo.drawn or []), covered_spaces=len(covered),
                   unread_spaces=len(unread))
    try:
        reading = _recognizer.read(path)
    except PhotoError as exc:
        path.unlink()
        return {**row, "found": 0, "error": str(exc)}
    path.unlink()
    wrong = [(r, c) for r in range(7) for c in range(7)
             if not same_space(reading.grid[r][c], truth[r][c])]
    rotation = sum(1 for r, c in wrong if truth[r][c] != "." and reading.grid[r][c] != "."
                   and _piece(truth[r][c]) == _piece(reading.grid[r][c]))
    flagged = {(item.row, item.col) for item in reading.review}
    marked = {(item.row, item.col) for item in reading.review if UNEXPLAINED in item.reason}
    from_neighbours = {(item.row, item.col) for item in reading.review
                       if FROM_NEIGHBOURS in item.reason}
    faint_empty = {(item.row, item.col) for item in reading.review if FAINT_EMPTY in item.reason}
    truth_lines = [" ".join(r) for r in truth]
    seen = tuple(sorted(s.name for s in reading.expansions_seen))
    true_total = _score_total(truth_lines, played)
    read_total = _score_total(reading.grid_lines(), seen)
    sides = [water_sides(truth[r][c], reading.grid[r][c]) for r in range(7) for c in range(7)]
    corner_err = float(np.abs(reading.corners - photo.corners).max()
                       / (np.linalg.norm(photo.corners[1] - photo.corners[0]) / 7))
    quad_max, quad_mean = space_corner_errors(reading.space_corners, photo.space_corners)
    bend = reading.bend
    row.update(
        found=1, error="", wrong_spaces=len(wrong), rotation_errors=rotation,
        piece_errors=len(wrong) - rotation, unflagged_wrong=len(set(wrong) - flagged),
        review=len(reading.review), warnings=len(reading.warnings), mark_flags=len(marked),
        from_neighbours=len(from_neighbours),
        # the colour channel set aside as too dark to show ink (vision.channels), e.g. "B"
        channel_set_aside=reading.channel_set_aside,
        from_neighbours_wrong=len(from_neighbours & set(wrong)),
        faint_empty_flags=len(faint_empty), faint_empty_wrong=len(faint_empty & set(wrong)),
        exact=int(not wrong), at_most_1_wrong=int(len(wrong) <= 1),
        score_exact="" if true_total is None or read_total is None else int(true_total == read_total),
        silent_wrong=int(bool(wrong) and not reading.review and not reading.warnings),
        corner_error_spaces=round(corner_err, 3),
        space_corner_error_max=quad_max, space_corner_error_mean=quad_mean,
        unbend_applied="" if bend is None else int(bend.applied),
        unbend_lines="" if bend is None else bend.lines_followed,
        unbend_residual_px="" if bend is None else round(bend.residual_px, 3),
        unbend_lost="" if bend is None else int(not bend.trusted),
        unbend_warned="" if bend is None else int(bend.warning),
        confusions=" ".join(f"{truth[r][c]}>{reading.grid[r][c]}" for r, c in wrong),
        readers=reading.readers, space_px=round(reading.space_px, 1),
        confidence=round(reading.confidence, 3),
        orientation_confidence=round(reading.orientation_confidence, 3),
        played=" ".join(played), seen=" ".join(seen), seen_right=int(seen == tuple(sorted(played))),
        water_sides=sum(t for t, _, _ in sides), water_sides_missed=sum(m for _, m, _ in sides),
        false_water_sides=sum(f for _, _, f in sides),
        false_water_spaces=sum(1 for _, _, f in sides if f),
        **{f"t_{k}": round(reading.timings.get(k, 0.0) * 1000, 1) for k in STAGES})
    if conditions is not None:
        drawn_empty = [(r, c) for r, c in wrong if truth[r][c] != "." and reading.grid[r][c] == "."]
        row.update(
            wrong_in_review=len(set(wrong) & flagged),
            drawn_read_empty=len(drawn_empty),
            drawn_read_empty_unflagged=len(set(drawn_empty) - flagged),
            covered_in_review=len(covered & flagged),
            covered_wrong=len(covered & set(wrong)),
            unread_in_review=len(unread & flagged),
            unread_mark_flagged=len(unread & marked),
            mark_flags_unmarked=len(marked - unread),
            # marks rink does not score, and nothing on the board says to look
            marked_silent=int(bool(unread) and not reading.review and not reading.warnings),
            silent_wrong_score=int(row["score_exact"] == 0 and not reading.review
                                   and not reading.warnings),
        )
    row["_probs"], row["_truth"] = reading.probs.astype(np.float32), truth  # for --probs
    row["_marks"] = (np.full((7, 7), np.nan, np.float32) if reading.marks is None
                     else reading.marks.astype(np.float32))
    truth_marks = np.zeros((7, 7), np.uint8)  # 1 + the mark's kind (MARK_KINDS), 0: none
    for r, c, kind in photo.unread or []:
        truth_marks[r, c] = 1 + MARK_KINDS.index(kind)
    row["_unread"] = truth_marks
    true_covered = np.zeros((7, 7), np.float32)
    for (r, c), f in (photo.covered or {}).items():
        true_covered[r, c] = f
    row["_covered"] = np.stack([true_covered, np.full((7, 7), np.nan, np.float32)
                                if reading.ink is None else reading.ink.covered])
    row["_ink"] = (np.full((7, 7), np.nan, np.float32) if reading.ink is None
                   else reading.ink.ink.astype(np.float32))
    row["_grid"] = reading.grid
    listed = np.full((7, 7), "", dtype="<U8")  # each space's review entry's kind, "" if none
    for item in reading.review:
        listed[item.row, item.col] = item.kind
    row["_review"] = listed
    return row


def summarise(rows: list[dict]) -> dict:
    """The headline figures from per-photo rows."""
    n = len(rows)
    found = [r for r in rows if r["found"]]
    spaces = 49 * len(found)
    wrong = sum(r["wrong_spaces"] for r in found)
    scored = [r for r in found if r["score_exact"] != ""]
    summary = {
        "photos": n,
        "not_found_pct": 100 * (n - len(found)) / n,
        "space_error_pct": 100 * wrong / max(spaces, 1),
        "rotation_errors": sum(r["rotation_errors"] for r in found),
        "piece_errors": sum(r["piece_errors"] for r in found),
        "boards_exact_pct": 100 * sum(r["exact"] for r in found) / n,
        "boards_at_most_1_wrong_pct": 100 * sum(r["at_most_1_wrong"] for r in found) / n,
        "score_exact_pct": (100 * sum(r["score_exact"] for r in scored) / n) if scored else None,
        "silent_wrong_pct": 100 * sum(r["silent_wrong"] for r in found) / n,
        "wrong_spaces_not_in_review": sum(r["unflagged_wrong"] for r in found),
        "read_from_neighbours": sum(r["from_neighbours"] for r in found),
        "read_from_neighbours_wrong": sum(r["from_neighbours_wrong"] for r in found),
        "mark_flags_per_board": round(sum(r["mark_flags"] for r in found) / len(found), 3)
        if found else None,
        # empty readings listed on boards of faint ink (vision.faint_empty), and the misreads
        # among them
        "faint_empty_flags": sum(r["faint_empty_flags"] for r in found),
        "faint_empty_wrong": sum(r["faint_empty_wrong"] for r in found),
        "boards_with_review_pct": 100 * sum(1 for r in found if r["review"]) / n,
        "top_confusions (truth>read: count)": dict(Counter(
            pair for r in found if r["corner_error_spaces"] <= 0.3
            for pair in r["confusions"].split()).most_common(12)),
        "median_ms": {k: float(np.median([r[f"t_{k}"] for r in found])) if found else None
                      for k in STAGES},
    }
    summary.update(corner_figures(found))
    summary.update(water_figures(found))
    return summary


def corner_figures(found: list[dict]) -> dict:
    """How far the read space corners are from the true ones (renders that record them), in
    spaces: over photos, the mean (and the median: a board turned wrong weighs a lot in
    the mean) of each photo's mean distance, and the mean of its largest; and how often the
    printed lines were followed and applied, could not be followed, and were warned of (lost
    on a sheet whose frame does not show it flat)."""
    measured = [r for r in found if r["space_corner_error_mean"] != ""]
    looked = [r for r in found if r["unbend_applied"] != ""]
    means = [r["space_corner_error_mean"] for r in measured]
    return {
        "space_corner_error_mean": _mean(means),
        "space_corner_error_median": round(float(np.median(means)), 4) if means else None,
        "space_corner_error_max": _mean(r["space_corner_error_max"] for r in measured),
        "unbend_applied_pct": _share(sum(r["unbend_applied"] for r in looked), len(looked)),
        "unbend_lost_pct": _share(sum(r["unbend_lost"] for r in looked), len(looked)),
        "unbend_warned_pct": _share(sum(r["unbend_warned"] for r in looked), len(looked)),
    }


def _mean(values) -> float | None:
    values = list(values)
    return round(float(np.mean(values)), 4) if values else None


def water_figures(found: list[dict]) -> dict:
    """Issue 16's figures: water sides misread (of the true ones, and false ones), and how
    often the reader saw exactly the expansions the board plays."""
    true_sides = sum(r["water_sides"] for r in found)
    spaces = 49 * len(found)
    return {
        "water_sides": true_sides,
        "water_side_error_pct": _share(sum(r["water_sides_missed"] + r["false_water_sides"]
                                           for r in found), true_sides),
        "false_water_spaces_pct": _share(sum(r["false_water_spaces"] for r in found), spaces),
        "expansions_seen_right_pct": _share(sum(r["seen_right"] for r in found), len(found)),
        "boards_by_expansions": dict(Counter(r["played"] or "base" for r in found)),
    }


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 3) if whole else None


def condition_figures(rows: list[dict]) -> dict:
    """The figures of issue 14 for a set of rows rendered with a condition profile."""
    n = len(rows)
    found = [r for r in rows if r["found"]]
    wrong = sum(r["wrong_spaces"] for r in found)
    scored = [r for r in found if r["score_exact"] != ""]
    covered = sum(r["covered_spaces"] for r in rows if r["found"])
    unread = sum(r["unread_spaces"] for r in rows if r["found"])
    return {
        "photos": n,
        "space_error_pct": _share(wrong, 49 * len(found)),
        "boards_exact_pct": _share(sum(r["exact"] for r in found), n),
        "score_exact_pct": _share(sum(r["score_exact"] for r in scored), n) if scored else None,
        "not_found_pct": _share(n - len(found), n),
        "misread_in_review_pct": _share(sum(r["wrong_in_review"] for r in found), wrong),
        "flagged_per_board": round(sum(r["review"] for r in found) / len(found), 2) if found else None,
        "silent_wrong_pct": _share(sum(r["silent_wrong"] for r in found), n),
        "silent_wrong_score_pct": _share(sum(r["silent_wrong_score"] for r in found), n),
        "drawn_read_empty": sum(r["drawn_read_empty"] for r in found),
        "drawn_read_empty_unflagged": sum(r["drawn_read_empty_unflagged"] for r in found),
        "covered_spaces": covered,
        "covered_in_review_pct": _share(sum(r["covered_in_review"] for r in found), covered),
        "covered_read_wrong_pct": _share(sum(r["covered_wrong"] for r in found), covered),
        "unread_spaces": unread,
        "unread_in_review_pct": _share(sum(r["unread_in_review"] for r in found), unread),
        "unread_mark_flagged_pct": _share(sum(r["unread_mark_flagged"] for r in found), unread),
        "boards_with_marks_none_in_review": sum(
            1 for r in found if r["unread_spaces"] and not r["unread_in_review"]),
        "boards_with_marks_silent_pct": _share(sum(r["marked_silent"] for r in found),
                                               sum(1 for r in found if r["unread_spaces"])),
        "mark_flags_on_unmarked_per_board": round(
            sum(r["mark_flags_unmarked"] for r in found) / len(found), 3) if found else None,
        "top_confusions": dict(Counter(
            pair for r in found for pair in r["confusions"].split()).most_common(6)),
        **corner_figures(found),
    }


def by_board_kind(rows: list[dict]) -> dict:
    """Spaces wrong and boards exact for each kind of board drawn: games played by the rules,
    random sheets (whose neighbours say nothing of a space) and boards with illegal
    drawings."""
    out = {}
    for kind in sorted({r["board_kind"] for r in rows}):
        mine = [r for r in rows if r["board_kind"] == kind]
        found = [r for r in mine if r["found"]]
        wrong = sum(r["wrong_spaces"] for r in found)
        out[kind] = {"photos": len(mine), "wrong_spaces": wrong,
                     "space_error_pct": _share(wrong, 49 * len(found)),
                     "boards_exact_pct": _share(sum(r["exact"] for r in found), len(mine))}
    return out


def by_condition(rows: list[dict]) -> dict:
    """``condition_figures`` for all rows and for the rows of each condition drawn."""
    names = sorted({name for r in rows for name in r["conditions"].split()})
    out = {"all": condition_figures(rows)}
    for name in names:
        out[name] = condition_figures([r for r in rows if name in r["conditions"].split()])
    return out


_TABLE = (("photos", "n"), ("space_error_pct", "space err %"), ("boards_exact_pct", "exact %"),
          ("score_exact_pct", "score %"), ("not_found_pct", "not found %"),
          ("misread_in_review_pct", "misread in review %"), ("flagged_per_board", "flagged/board"),
          ("silent_wrong_pct", "silent wrong %"), ("drawn_read_empty", "drawn>empty"),
          ("space_corner_error_mean", "corner err (spaces)"),
          ("unbend_applied_pct", "unbent %"), ("unbend_lost_pct", "lines lost %"),
          ("unbend_warned_pct", "warned %"))


def condition_table(figures: dict) -> str:
    """``by_condition`` as a Markdown table."""
    lines = ["| condition | " + " | ".join(label for _, label in _TABLE) + " |",
             "| --- |" + " --- |" * len(_TABLE)]
    for name, fig in figures.items():
        cells = ["" if fig[key] is None else f"{fig[key]:g}" for key, _ in _TABLE]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7_000_000)
    parser.add_argument("--megapixels", type=float, default=None,
                        help="fixed photo size (default: the renderer's random 1-12 MP)")
    parser.add_argument("--models", default=str(models_dir()))
    parser.add_argument("--tta", choices=sorted(TTA_MODES), default="unsure",
                        help="test-time augmentation for unsure spaces (default: 4 turns, "
                             "and their mirror images for the base-game reader), all spaces, "
                             "or none; 'turns': 4 turns only (as before 3 Dec 2026); "
                             "'mirror-all': mirror images for the parts network too")
    parser.add_argument("--tta-sure", type=_probability_or_none, default=ClassifyParams().sure,
                        help="the test-time augmentation reads again only the spaces read "
                             f"less surely than this (default {ClassifyParams().sure})")
    parser.add_argument("--float-readers", action="store_true",
                        help="read through the float networks, not their 8-bit twins "
                             "(scripts/quantize_models.py)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--csv", type=Path, default=Path("out/eval.csv"))
    parser.add_argument("--json", type=Path, default=None, help="also write the summary here")
    parser.add_argument("--probs", type=Path, default=None,
                        help="also save each found board's space probabilities and true "
                             "grid here (.npz), to study decoding without reading again; "
                             "with the mark heads' probabilities and the true marks, the "
                             "covered share of each space (true, and as the ink check "
                             "measured it), the ink check's ink contrast, the grid read and "
                             "each space's review entry's kind")
    parser.add_argument("--conditions", choices=sorted(PROFILES), default=None,
                        help="render with this condition profile and report figures per "
                             "condition (default: the renderer's own conditions)")
    parser.add_argument("--expansion", choices=CHOICES, default=None,
                        help="Deep Blue boards: river, lake, both, or a mix (45 %% River, "
                             "45 %% Lake, 10 %% both)")
    parser.add_argument("--pens", choices=PEN_RANGES, default="standard",
                        help="pen sizes: the renderer's own ranges, or wider and finer ones "
                             "(vision.render.style.WIDE_PENS)")
    parser.add_argument("--finish", choices=sorted(FINISHES), default=None,
                        help="put every photo through this photo finish before it is saved "
                             "(vision.render.finishing: what a phone or another renderer "
                             "may do and this renderer never does)")
    parser.add_argument("--no-ink-check", action="store_true",
                        help="read without the ink check (vision.ink_check), for before/after")
    parser.add_argument("--no-mark-check", action="store_true",
                        help="read without the mark head's review entries (vision.marks)")
    parser.add_argument("--mark-threshold", type=float, default=None,
                        help="list spaces whose mark probability reaches this (default: the "
                             "network's own threshold, vision.marks)")
    parser.add_argument("--no-covered-context", action="store_true",
                        help="keep the classifier's reading of covered spaces (vision.covered: "
                             "read from their neighbours), for before/after")
    parser.add_argument("--no-unbend", action="store_true",
                        help="read without following the printed lines (vision.unbend): one "
                             "homography for the whole grid, for before/after")
    parser.add_argument("--faint-above", type=float, default=ClassifyParams().faint_above,
                        help="boards whose ink gain is above this are read by the faint-ink "
                             "readers (vision.classify.has_faint_ink)")
    parser.add_argument("--faint-stroke-share", type=_probability_or_none,
                        default=ClassifyParams().faint_stroke_share,
                        help="a board of faint ink counts its strokes in the spaces whose ink "
                             "stands this share of its darkest space's above the paper too "
                             "(ClassifyParams.faint_stroke_share; 'none': only those whose "
                             "ink stands InkGain.min_contrast above it), for before/after")
    parser.add_argument("--water-loss-ratio", type=_ratio_or_none,
                        default=ClassifyParams().water_loss_ratio,
                        help="a doubtful board's faint-ink reading that loses the water the "
                             "standard one shows is kept when less than this many times as "
                             "much in doubt (ClassifyParams.water_loss_ratio; 'none': never), "
                             "for before/after")
    parser.add_argument("--second-doubt-ratio", type=float,
                        default=ClassifyParams().second_doubt_ratio,
                        help="a doubtful board's faint-ink reading is kept unless it is at "
                             "least this many times as much in doubt as the standard one "
                             "(inf: whatever its doubt; vision.classify.second_reading_kept), "
                             "on a board whose first reading shows water, with --merge-sure "
                             "none")
    parser.add_argument("--dry-second-doubt-ratio", type=float,
                        default=ClassifyParams().dry_second_doubt_ratio,
                        help="the same on a board whose first reading shows no water "
                             "(ClassifyParams.dry_second_doubt_ratio; measured at 1.5)")
    parser.add_argument("--small-space-px", type=_pixels_or_none,
                        default=ClassifyParams().small_space_px,
                        help="a doubtful board whose spaces are smaller than this in the photo "
                             "as decoded keeps its faint-ink reading whatever its doubt "
                             "(ClassifyParams.small_space_px); 'none': the doubt alone decides")
    parser.add_argument("--merge-sure", type=_probability_or_none,
                        default=ClassifyParams().merge_sure,
                        help="merge a doubtful board's two readings when the second is not "
                             "kept and neither shows water: the spaces the standard readers "
                             "are at least this sure of keep their reading, the others take "
                             "the faint-ink readers' (vision.classify.second_reading_spaces; "
                             "0.995 measured); 'none' (default): no merging")
    parser.add_argument("--parts-sure", type=_probability_or_none,
                        default=ClassifyParams().parts_sure,
                        help="on a board without water, the spaces the parts network is at "
                             "least this sure of keep its reading and the base-game reader "
                             "reads only the others (ClassifyParams.parts_sure); 'none': it "
                             "reads all 49")
    parser.add_argument("--faint-route-spaces", type=_count_or_none,
                        default=WaterParams().faint_route_spaces,
                        help="the faint-ink parts network, not the faint-ink base-game reader, "
                             "reads a board on which this many spaces read one kind of water "
                             "(--faint-route-letters), one of them surely "
                             "(WaterParams.faint_route_spaces); 'none': only a space read as "
                             "water at least WaterParams.route_sure surely")
    parser.add_argument("--faint-route-letters", choices=["L", "W", "WL"],
                        default=WaterParams().faint_route_letters,
                        help="the kinds of water --faint-route-spaces counts: L lakes, W "
                             "rivers, WL both (default)")
    parser.add_argument("--faint-route-river-joins", type=_joins,
                        default=WaterParams().faint_route_river_joins,
                        help="rivers count for --faint-route-spaces only where their spaces "
                             "join each other along this many sides "
                             "(WaterParams.faint_route_river_joins; 0: wherever they lie)")
    parser.add_argument("--no-route-balance", action="store_true",
                        help="decode without weighing railways and highways again on a board "
                             "that reads far too few of one kind (vision.route_balance), for "
                             "before/after")
    parser.add_argument("--split-cap", type=_ratio_or_none,
                        default=RouteBalanceParams().split_cap,
                        help="each board's own divide between railway and highway evidence "
                             "is moved at most this far from even, in log-odds "
                             "(RouteBalanceParams.split_cap; 'none': even on every board), "
                             "for before/after")
    parser.add_argument("--unseen-sure", type=_probability_or_none,
                        default=WaterParams().unseen_sure,
                        help="on a board read without water, list the spaces the parts "
                             "network read as water at least this surely "
                             "(WaterParams.unseen_sure; 'none': never), for before/after")
    parser.add_argument("--no-skin-test", action="store_true",
                        help="read without telling a hand from a filled lake by its colour "
                             "(vision.ink_check.covering_skin), for before/after")
    parser.add_argument("--no-water-check", action="store_true",
                        help="read without the wide-pen parts network's say on the water of a "
                             "board the standard readers read (vision.classify.WaterCheck), "
                             "for before/after")
    parser.add_argument("--no-faint-empty", action="store_true",
                        help="read without listing the empty readings of a board of faint ink "
                             "that give a route some probability (vision.faint_empty), for "
                             "before/after")
    parser.add_argument("--grain-gate", type=_grain_or_none, default=GrainParams().gate,
                        help="quieten a straightened board whose grain is over this many grey "
                             "levels before its ink is measured (vision.grain, "
                             "GrainParams.gate; 'none': never, the default; measured at 2.4), "
                             "for before/after")
    parser.add_argument("--no-dark-channels", action="store_true",
                        help="read without setting aside the colour channels too dark to show "
                             "ink (vision.channels), for before/after")
    parser.add_argument("--write-meta", action="store_true",
                        help="record the figures in the model metadata (models/*.json)")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error(f"--n {args.n}: at least 1 photo")

    start = time.time()
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    reader = (args.models, args.tta, not args.no_ink_check, not args.no_unbend,
              args.faint_above, not args.no_mark_check, args.mark_threshold,
              not args.no_covered_context, args.second_doubt_ratio,
              args.dry_second_doubt_ratio, args.merge_sure, args.parts_sure,
              not args.no_route_balance, not args.no_skin_test, not args.no_faint_empty,
              args.small_space_px, args.faint_route_spaces,
              args.faint_route_letters, args.faint_route_river_joins, not args.no_water_check,
              args.faint_stroke_share, args.water_loss_ratio, args.split_cap,
              args.unseen_sure, args.tta_sure, not args.float_readers, args.grain_gate,
              not args.no_dark_channels)
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [(args.seed + i, args.megapixels, tmp, args.conditions, args.expansion,
                 args.pens, args.finish) for i in range(args.n)]
        rows = []
        for i, row in enumerate(evaluate_all(jobs, args.workers, reader)):
            rows.append(row)
            if (i + 1) % 50 == 0:
                print(f"{i + 1}/{args.n} photos, {time.time() - start:.0f}s", flush=True)
    studied = [(r["seed"], r.pop("_probs"), r.pop("_truth"), r.pop("_marks"), r.pop("_unread"),
                r.pop("_covered"), r.pop("_grid"), r.pop("_review"), r.pop("_ink"))
               for r in rows if "_probs" in r]
    if args.probs:
        args.probs.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.probs, seeds=np.array([s[0] for s in studied]),
                            probs=np.array([s[1] for s in studied], np.float32),
                            truth=np.array([s[2] for s in studied]),
                            marks=np.array([s[3] for s in studied], np.float32),
                            unread=np.array([s[4] for s in studied], np.uint8),
                            mark_kinds=np.array(MARK_KINDS),
                            covered=np.array([s[5] for s in studied], np.float32),
                            read=np.array([s[6] for s in studied]),
                            review=np.array([s[7] for s in studied]),
                            ink=np.array([s[8] for s in studied], np.float32),
                            classes=np.array(ModelMeta.load(Path(args.models) / META_FILE).classes))
    fields = sorted({k for r in rows for k in r}, key=lambda k: (k != "seed", k))
    with args.csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    summary = summarise(rows)
    summary["by_board_kind"] = by_board_kind(rows)
    if args.expansion:
        summary["expansion"] = args.expansion
    if args.pens != "standard":
        summary["pens"] = args.pens
    if args.finish:
        summary["finish"] = args.finish
    if args.grain_gate is not None:
        summary["grain_gate"] = args.grain_gate
    if args.no_water_check:
        summary["water_check"] = False
    if args.no_dark_channels:
        summary["dark_channels"] = False
    if args.conditions:
        summary["conditions"] = args.conditions
        summary["by_condition"] = by_condition(rows)
    summary["seconds"] = round(time.time() - start)
    print(json.dumps(summary, indent=1))
    if args.conditions:
        print(condition_table(summary["by_condition"]))
    if summary["score_exact_pct"] is None:
        print("score column skipped: the scoring package did not score these grids")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n")
    if args.write_meta:
        path = Path(args.models) / META_FILE
        meta = ModelMeta.load(path)
        key = f"evaluate_seed{args.seed}_n{args.n}" + (f"_finish_{args.finish}"
                                                       if args.finish else "")
        meta.accuracy[key] = {
            "command": "scripts/evaluate.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "tta": args.tta, **summary}
        meta.save(path)
        print(f"figures recorded in {path}")
    print(f"per-photo rows in {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
