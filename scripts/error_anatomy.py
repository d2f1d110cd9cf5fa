"""Where a set's wrong spaces lie: what scripts/evaluate.py wrote, taken apart.

    .venv/bin/python scripts/evaluate.py --n 300 --seed 8850000 --conditions phone \
        --workers 2 --csv out/phone.csv --probs out/phone.npz
    .venv/bin/python scripts/error_anatomy.py --probs out/phone.npz --csv out/phone.csv

Reads the saved probabilities, truth, readings and review kinds of every found board (and,
from the CSV, which readers read it and under which conditions) and prints:

- the wrong spaces, covered (a hand, pen or die hides at least a fifth of the space) or
  clear, by kind of mistake (railway and highway swapped in the same shape, a drawn space
  read as empty, an empty space read as drawn, another shape), with how many of each the
  review list misses;
- the wrong spaces by the readers that read the board (vision.recognizer's ``readers``);
- how the railway/highway swaps spread over the boards (a few boards, or many);
- a bound: the clear spaces that the best single railway/highway weighing of each board
  (chosen knowing the truth) would read right, i.e. the most any board-wide re-weighing of
  the two kinds (vision.route_balance and its like) could win;
- the review list: entries on right and on wrong spaces, by kind.

Every figure is recomputed from the files; nothing is read again.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import zipfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evaluate import COVERED  # scripts/ is not a package: imported from its folder

from vision.route_balance import kind_surplus
from vision.space_parts import same_space, side_letters

KINDS = ("railway/highway swapped", "drawn read as empty", "empty read as drawn",
         "other shape")
BIASES = np.linspace(-6.0, 6.0, 49)  # railway-minus-highway log weights tried per board


@dataclass
class Anatomy:
    """The figures printed, as one JSON-able record."""

    boards: int
    spaces: int
    wrong: int
    by_kind: dict[str, dict[str, int]]  # "covered"/"clear" -> kind -> wrong spaces
    unlisted_by_kind: dict[str, dict[str, int]]
    by_readers: dict[str, dict[str, int]]  # readers -> boards, wrong, covered wrong
    swaps_on_worst_boards: list[tuple[int, int, str]]  # (seed, swapped spaces, conditions)
    swap_share_of_worst_tenth: float  # share of all swaps on the worst 10 % of boards
    argmax_wrong_clear: int  # clear spaces wrong when each space takes its best class
    best_bias_wrong_clear: int  # ... with each board's best railway/highway weighing
    review_on_right: dict[str, int] = field(default_factory=dict)
    review_on_wrong: dict[str, int] = field(default_factory=dict)


def mistake(truth: str, read: str) -> str:
    """Which of ``KINDS`` reading ``read`` for ``truth`` is."""
    if read == ".":
        return KINDS[1]
    if truth == ".":
        return KINDS[2]
    if side_shape(truth) == side_shape(read) and truth != read:
        return KINDS[0]
    return KINDS[3]


def side_shape(token: str) -> str:
    """The token's sides with highway and railway alike (water and blanks kept)."""
    return side_letters(token).replace("R", "H")


def best_bias_errors(probs: np.ndarray, truth: np.ndarray, clear: np.ndarray,
                     classes: list[str]) -> tuple[int, int]:
    """(clear spaces wrong at each space's best class, the fewest wrong over the weighings
    ``BIASES`` of railway against highway sides) for one board."""
    logp = np.log(np.clip(probs.reshape(49, -1), 1e-12, 1.0))
    surplus = kind_surplus(tuple(classes))  # railway sides minus highway sides of each class
    names = np.array(classes)
    wanted = truth.reshape(-1)[clear.reshape(-1)]
    wrong = [int((names[np.argmax(logp + b * surplus, axis=1)][clear.reshape(-1)]
                  != wanted).sum()) for b in BIASES]
    return wrong[len(BIASES) // 2], min(wrong)


def anatomy(saved: dict, rows: dict[int, dict[str, str]]) -> Anatomy:
    """The figures of one evaluation: ``saved`` as evaluate.py's --probs file holds them,
    ``rows`` its CSV rows by seed."""
    seeds = [int(s) for s in saved["seeds"]]
    truth, read, review = saved["truth"], saved["read"], saved["review"]
    covered = saved["covered"][:, 0] >= COVERED  # the truth's coverage, not the measured
    classes = [str(c) for c in saved["classes"]]
    wrong = ~np.vectorize(same_space)(truth, read)  # as evaluate.py counts them
    by_kind: dict[str, Counter] = {"covered": Counter(), "clear": Counter()}
    unlisted: dict[str, Counter] = {"covered": Counter(), "clear": Counter()}
    swaps = Counter()  # railway/highway swaps on clear spaces, by board
    for b, r, c in zip(*np.nonzero(wrong)):
        where = "covered" if covered[b, r, c] else "clear"
        kind = mistake(str(truth[b, r, c]), str(read[b, r, c]))
        by_kind[where][kind] += 1
        if review[b, r, c] == "":
            unlisted[where][kind] += 1
        if where == "clear" and kind == KINDS[0]:
            swaps[seeds[b]] += 1
    readers: dict[str, Counter] = defaultdict(Counter)
    argmax_wrong = best_wrong = 0
    for b, seed in enumerate(seeds):
        group = readers[rows.get(seed, {}).get("readers", "?")]
        group["boards"] += 1
        group["wrong"] += int(wrong[b].sum())
        group["covered wrong"] += int((wrong[b] & covered[b]).sum())
        first, best = best_bias_errors(saved["probs"][b], truth[b], ~covered[b], classes)
        argmax_wrong += first
        best_wrong += best
    worst = swaps.most_common(max(1, len(seeds) // 10))
    total_swaps = sum(swaps.values())
    right_flags = Counter(str(k) for k in review[~wrong] if k != "")
    wrong_flags = Counter(str(k) for k in review[wrong] if k != "")
    return Anatomy(
        boards=len(seeds), spaces=int(truth.size), wrong=int(wrong.sum()),
        by_kind={w: {k: by_kind[w][k] for k in KINDS} for w in by_kind},
        unlisted_by_kind={w: {k: unlisted[w][k] for k in KINDS} for w in unlisted},
        by_readers={name: dict(c) for name, c in sorted(readers.items())},
        swaps_on_worst_boards=[(s, n, rows.get(s, {}).get("conditions", ""))
                               for s, n in worst[:10]],
        swap_share_of_worst_tenth=(sum(n for _, n in worst) / total_swaps
                                   if total_swaps else 0.0),
        argmax_wrong_clear=argmax_wrong, best_bias_wrong_clear=best_wrong,
        review_on_right=dict(right_flags.most_common()),
        review_on_wrong=dict(wrong_flags.most_common()))


def report(a: Anatomy) -> str:
    """The figures as text."""
    share = 100.0 * a.wrong / a.spaces if a.spaces else 0.0
    lines = [f"{a.boards} boards found, {a.spaces} spaces, {a.wrong} wrong ({share:.2f} %)", "",
             "| wrong spaces | covered | of them unlisted | clear | of them unlisted |",
             "| --- | --- | --- | --- | --- |"]
    for kind in KINDS:
        lines.append(f"| {kind} | {a.by_kind['covered'][kind]} | "
                     f"{a.unlisted_by_kind['covered'][kind]} | {a.by_kind['clear'][kind]} | "
                     f"{a.unlisted_by_kind['clear'][kind]} |")
    lines += ["", "| readers | boards | wrong | covered wrong |", "| --- | --- | --- | --- |"]
    for name, c in a.by_readers.items():
        lines.append(f"| {name} | {c.get('boards', 0)} | {c.get('wrong', 0)} | "
                     f"{c.get('covered wrong', 0)} |")
    worst = (f"railway/highway swaps on clear spaces: {100 * a.swap_share_of_worst_tenth:.0f} "
             "% of them on the worst tenth of the boards; the worst:")
    lines += ["", worst]
    lines += [f"  {seed}: {n} ({conditions})" for seed, n, conditions in a.swaps_on_worst_boards]
    bound = (f"clear spaces wrong at each space's best class: {a.argmax_wrong_clear}; with "
             "each board's best railway/highway weighing (chosen knowing the truth): "
             f"{a.best_bias_wrong_clear}")
    lines += ["", bound, ""]
    lines += [f"review entries on right spaces: {_kinds(a.review_on_right)}",
              f"review entries on wrong spaces: {_kinds(a.review_on_wrong)}"]
    return "\n".join(lines)


def _kinds(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in counts.items()) or "none"


def load(probs: Path, rows_csv: Path | None) -> tuple[dict, dict[int, dict[str, str]]]:
    """evaluate.py's --probs file and (optional) CSV; exits with one line if unreadable."""
    if not probs.is_file():
        what = "a folder" if probs.is_dir() else "no such file"
        raise SystemExit(f"{probs}: {what} (give the file scripts/evaluate.py --probs wrote)")
    if not zipfile.is_zipfile(probs):
        raise SystemExit(f"{probs}: not an evaluate.py --probs file (not a .npz archive)")
    try:
        with np.load(probs, allow_pickle=False) as f:
            saved = {k: f[k] for k in f.files}
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{probs}: not an evaluate.py --probs file ({exc})") from None
    missing = {"seeds", "probs", "truth", "read", "review", "covered", "classes"} - set(saved)
    if missing:
        raise SystemExit(f"{probs}: not an evaluate.py --probs file (no {', '.join(sorted(missing))};"
                         " written before 3 Dec 2026?)")
    rows: dict[int, dict[str, str]] = {}
    if rows_csv is not None:
        try:
            with rows_csv.open(newline="") as f:
                rows = {int(r["seed"]): r for r in csv.DictReader(f)}
        except KeyError:
            raise SystemExit(f"{rows_csv}: not an evaluate.py CSV (no seed column)") from None
        except (OSError, ValueError) as exc:
            raise SystemExit(f"{rows_csv}: not an evaluate.py CSV ({exc})") from None
    return saved, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--probs", type=Path, required=True,
                        help="the file scripts/evaluate.py --probs wrote")
    parser.add_argument("--csv", type=Path, default=None,
                        help="its per-photo CSV (readers and conditions of each board)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    saved, rows = load(args.probs, args.csv)
    result = anatomy(saved, rows)
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
