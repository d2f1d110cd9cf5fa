"""Measure the locate stage alone on held-out rendered photos: found or refused, and why.

    nice -n 15 .venv/bin/python scripts/evaluate_locate.py --n 120 --seed 8800000 --conditions phone

Photos are rendered exactly as scripts/evaluate.py renders them (same grids, seeds and
sizes), saved as JPEG (quality 92) and loaded back through the real loader; then only
``vision.locate.find_lattice`` and the acceptance policy's verdict on its lattice
(``vision.acceptance.accept_lattice``: no board, a cut board, a photo too small) run. No
network is loaded, so this works whatever the models. Per photo: the outcome, why a photo
was refused, the largest corner error in spaces against the true corners (up to which
corner is the top: the orienter's business), the locate time, and what lies on the sheet
(hand, pen, die; spaces at least 20 % covered). The summary gives found % and corner error
overall, per object on the sheet and, with ``--conditions``, per condition.

``--only hand`` (or pen, die) keeps only the photos among those ``--n`` seeds that the
profile puts that object on (decided from the seed, without rendering the others).
``--no-lines`` locates without the frame's visible sides (vision.locate.lines), for
before/after; ``--set fit.ranked=2`` (repeatable) changes one of the locator's tunables
(vision.locate.params: section and field) for a run. ``--cache DIR`` keeps the rendered JPEGs and truths there, so a before/after comparison
renders each photo once.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.acceptance import AcceptanceParams, accept_lattice
from vision.errors import BoardCut, NoBoardFound, PhotoError
from vision.image_io import load_photo
from vision.locate import LatticeFit, LocateParams, find_lattice
from vision.locate.params import LineParams
from vision.render import PhotoOptions, render_photo, sample_grid
from vision.render.phone import PROFILES, draw_conditions

OBJECTS = ("hand", "pen", "die")
COVERED = 0.2  # a space this much hidden counts as covered (as in scripts/evaluate.py)
WRONG = 0.3  # a found lattice with a corner further off than this (spaces) is located wrong


def rendered(seed: int, conditions: str | None, cache: Path | None, tmp: Path
             ) -> tuple[Path, dict]:
    """The photo scripts/evaluate.py renders for ``seed``, saved as JPEG, and its truth."""
    if cache is not None:
        path, meta = cache / f"{seed}.jpg", cache / f"{seed}.json"
        if path.exists() and meta.exists():
            return path, json.loads(meta.read_text())
    rng = np.random.default_rng([seed, 99])
    photo = render_photo(sample_grid(rng), seed=seed,
                         options=PhotoOptions(conditions=conditions))
    covered = sum(1 for f in (photo.covered or {}).values() if f >= COVERED)
    truth = {"corners": np.asarray(photo.corners, float).tolist(),
             "drawn": list(photo.drawn or []), "covered": covered}
    folder = cache if cache is not None else tmp
    path = folder / f"{seed}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if cache is not None:
        (cache / f"{seed}.json").write_text(json.dumps(truth))
    return path, truth


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance in spaces, up to which corner is the top."""
    space = float(np.linalg.norm(truth - np.roll(truth, 1, axis=0), axis=1).mean()) / 7
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max())
               for k in range(4)) / space


def verdict(fit: LatticeFit | None, error: PhotoError | None, policy: AcceptanceParams) -> str:
    """Why the photo was refused ('' when its lattice was accepted)."""
    if error is None:
        return ""
    if isinstance(error, BoardCut):
        if fit is None:
            return "cut: no lattice, a cut piece"
        if fit.confidence < policy.min_locate_confidence:
            return "cut: weak lattice, a cut piece"
        if fit.runs_off:
            return "cut: lines run off"
        return "cut: past the edge or doubtful"
    if isinstance(error, NoBoardFound):
        if fit is None:
            return "no lattice"
        if fit.confidence < policy.min_locate_confidence:
            return "weak lattice"
        return "lines run on, doubtful"
    return "too small"


def evaluate_one(job: tuple) -> dict:
    """Render (or take from the cache), load, locate and judge one photo."""
    seed, conditions, cache, tmp, params = job
    path, truth = rendered(seed, conditions, cache, Path(tmp))
    photo = load_photo(path)
    if cache is None:
        path.unlink()
    policy = AcceptanceParams()
    start = time.perf_counter()
    fit = find_lattice(photo.image, params)
    locate_ms = 1000 * (time.perf_counter() - start)
    error = None
    try:
        accept_lattice(photo, fit, policy)
    except PhotoError as caught:
        error = caught
    drawn = truth["drawn"]
    row = {"seed": seed, "found": int(error is None), "refused": verdict(fit, error, policy),
           "objects": " ".join(o for o in OBJECTS if o in drawn), "covered": truth["covered"],
           "conditions": " ".join(drawn), "locate_ms": round(locate_ms, 1),
           "confidence": "" if fit is None else round(fit.confidence, 3),
           "runs_on": "" if fit is None else fit.runs_on,
           "runs_off": "" if fit is None else " ".join(fit.runs_off), "corner_error": ""}
    if fit is not None:
        found = fit.corners.astype(np.float64) / photo.scale
        row["corner_error"] = round(corner_error(found, np.array(truth["corners"])), 3)
    return row


def figures(rows: list[dict]) -> dict:
    """Found %, photos located wrong, corner error of the accepted ones, refusal reasons."""
    found = [r for r in rows if r["found"]]
    errors = [r["corner_error"] for r in found]
    reasons: dict[str, int] = {}
    for r in rows:
        if r["refused"]:
            reasons[r["refused"]] = reasons.get(r["refused"], 0) + 1
    return {
        "photos": len(rows),
        "found_pct": round(100 * len(found) / len(rows), 1) if rows else None,
        "located_wrong": sum(1 for e in errors if e > WRONG),
        "corner_error_median": round(float(np.median(errors)), 3) if errors else None,
        "corner_error_mean": round(float(np.mean(errors)), 3) if errors else None,
        "corner_error_max": round(float(np.max(errors)), 3) if errors else None,
        "refused": reasons,
    }


def summarise(rows: list[dict], by_condition: bool) -> dict:
    """``figures`` for all photos, per object on the sheet, and per condition if asked."""
    groups = {"all": rows, "nothing on the sheet": [r for r in rows if not r["objects"]]}
    for name in OBJECTS:
        groups[name] = [r for r in rows if name in r["objects"].split()]
    if by_condition:
        for name in sorted({c for r in rows for c in r["conditions"].split()} - set(OBJECTS)):
            groups[name] = [r for r in rows if name in r["conditions"].split()]
    summary = {name: figures(group) for name, group in groups.items() if group}
    times = [r["locate_ms"] for r in rows]
    summary["locate_ms"] = {"median": round(float(np.median(times)), 1),
                            "p90": round(float(np.percentile(times, 90)), 1)}
    return summary


def with_settings(params: LocateParams, settings: list[str]) -> LocateParams:
    """``params`` with each ``section.field=value`` of ``settings`` set (the value parsed as
    the field's current type; a tuple as comma-separated numbers)."""
    for setting in settings:
        name, _, text = setting.partition("=")
        section, _, field = name.partition(".")
        part = getattr(params, section, None)
        if part is None or not hasattr(part, field) or not text:
            raise SystemExit(f"--set {setting}: expected section.field=value, a field of "
                             "vision.locate.params.LocateParams")
        current = getattr(part, field)
        try:
            if isinstance(current, bool):
                value = text.lower() in ("1", "true", "yes")
            elif isinstance(current, tuple):
                value = tuple(type(current[0])(v) for v in text.split(","))
            else:
                value = type(current)(text)
            params = replace(params, **{section: replace(part, **{field: value})})
        except ValueError as exc:  # a number that is not one, a choice that is not offered
            raise SystemExit(f"--set {setting}: {exc}") from None
    return params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=120)
    parser.add_argument("--seed", type=int, default=8_800_000)
    parser.add_argument("--conditions", choices=sorted(PROFILES), default=None)
    parser.add_argument("--only", choices=OBJECTS, default=None,
                        help="only the photos with this object on the sheet (needs --conditions)")
    parser.add_argument("--no-lines", action="store_true",
                        help="locate without the frame's visible sides (vision.locate.lines)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                        help="change a locator tunable for this run (e.g. fit.ranked=2)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep rendered photos and truths here (reused when present)")
    parser.add_argument("--csv", type=Path, default=None, help="per-photo rows")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary here")
    args = parser.parse_args(argv)

    if args.only and not args.conditions:
        parser.error("--only needs --conditions")
    seeds = [seed for seed in range(args.seed, args.seed + args.n)
             if not args.only or args.only in draw_conditions(seed, PROFILES[args.conditions]).objects]
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        params = with_settings(LocateParams(lines=LineParams(enabled=not args.no_lines)),
                               args.set)
        jobs = [(seed, args.conditions, args.cache, tmp, params) for seed in seeds]
        if args.workers > 1:
            with Pool(args.workers) as pool:
                rows = list(pool.imap(evaluate_one, jobs, chunksize=2))
        else:
            rows = [evaluate_one(job) for job in jobs]
    summary = summarise(rows, args.conditions is not None)
    print(json.dumps(summary, indent=1))
    if args.csv:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        with args.csv.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
