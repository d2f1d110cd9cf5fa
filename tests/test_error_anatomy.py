"""scripts/error_anatomy.py on what scripts/evaluate.py writes for two phone-condition renders.

Renders 8850096-8850097 of the phone tuning set: the first (pale light, a pen, a small board)
is read with 3 spaces wrong by the faint-ink readers, the second (a small board in a low
resolution photo) with 10, most of them railways and highways swapped. The exact counts are
the shipped models'; the tests check that the anatomy accounts for every wrong space the
evaluation counted, whatever the models read.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tests.project_scripts import load_script


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    out = tmp_path_factory.mktemp("anatomy")
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "2", "--seed", "8850096", "--conditions", "phone",
                          "--workers", "1", "--csv", str(out / "eval.csv"),
                          "--probs", str(out / "probs.npz")]) == 0
    return out


@pytest.fixture(scope="module")
def figures(evaluated):
    anatomy = load_script("error_anatomy")
    assert anatomy.main(["--probs", str(evaluated / "probs.npz"), "--csv",
                         str(evaluated / "eval.csv"), "--json",
                         str(evaluated / "anatomy.json")]) == 0
    return json.loads((evaluated / "anatomy.json").read_text())


def test_every_wrong_space_is_counted_once(evaluated, figures):
    rows = list(csv.DictReader((evaluated / "eval.csv").open()))
    counted = sum(int(r["wrong_spaces"]) for r in rows if r["found"] == "1")
    assert figures["boards"] == 2 and figures["spaces"] == 98
    assert figures["wrong"] == counted > 0
    by_kind = figures["by_kind"]
    assert sum(n for where in by_kind.values() for n in where.values()) == counted
    for where, kinds in figures["unlisted_by_kind"].items():
        for kind, n in kinds.items():
            assert 0 <= n <= by_kind[where][kind]
    # each board's spaces in the photo as the readers saw them (ClassifyParams.small_space_px)
    assert all(float(r["space_px"]) > 10 for r in rows if r["found"] == "1")
    unlisted = sum(int(r["unflagged_wrong"]) for r in rows if r["found"] == "1")
    assert sum(n for where in figures["unlisted_by_kind"].values()
               for n in where.values()) == unlisted


def test_the_readers_and_the_review_add_up(evaluated, figures):
    rows = list(csv.DictReader((evaluated / "eval.csv").open()))
    by_readers = figures["by_readers"]
    assert sum(c["boards"] for c in by_readers.values()) == 2
    assert sum(c["wrong"] for c in by_readers.values()) == figures["wrong"]
    assert set(by_readers) == {r["readers"] for r in rows}
    listed = sum(int(r["review"]) for r in rows)
    on_spaces = sum(figures["review_on_right"].values()) + sum(figures["review_on_wrong"].values())
    assert on_spaces == listed


def test_the_weighing_bound_never_reads_worse(figures):
    # the zero weighing is among those tried, so the best one is at most as wrong
    assert 0 <= figures["best_bias_wrong_clear"] <= figures["argmax_wrong_clear"]
    # of two boards, the worst tenth is the one with the most swaps
    swaps = figures["by_kind"]["clear"]["railway/highway swapped"]
    [(_, worst, _)] = figures["swaps_on_worst_boards"]
    assert 0 < worst <= swaps
    assert figures["swap_share_of_worst_tenth"] == pytest.approx(worst / swaps)


def test_mistakes_are_named_by_what_was_read():
    anatomy = load_script("error_anatomy")
    assert anatomy.mistake("R_R_", "H_H_") == "railway/highway swapped"
    assert anatomy.mistake("HRHRo", "RHRHo") == "railway/highway swapped"
    assert anatomy.mistake("HH__", ".") == "drawn read as empty"
    assert anatomy.mistake(".", "_H_H") == "empty read as drawn"
    assert anatomy.mistake("HH__", "_HH_") == "other shape"
    assert anatomy.mistake("H_H_", "W_W_") == "other shape"  # a highway read as a river


def test_a_file_that_is_not_an_evaluation_says_so(tmp_path):
    anatomy = load_script("error_anatomy")
    text = tmp_path / "notes.npz"
    text.write_text("not numpy")
    with pytest.raises(SystemExit, match=r"notes\.npz: not an evaluate\.py --probs file"):
        anatomy.main(["--probs", str(text)])
    other = tmp_path / "other.npz"
    np.savez(other, seeds=np.arange(2))
    with pytest.raises(SystemExit, match=r"other\.npz: not an evaluate\.py --probs file \(no "):
        anatomy.main(["--probs", str(other)])
    with pytest.raises(SystemExit, match=r"missing\.npz: no such file"):
        anatomy.main(["--probs", str(tmp_path / "missing.npz")])


def test_a_csv_that_is_not_an_evaluation_says_so(evaluated, tmp_path):
    anatomy = load_script("error_anatomy")
    notes = tmp_path / "notes.csv"
    notes.write_text("name,score\nanna,46\n")
    with pytest.raises(SystemExit, match=r"notes\.csv: not an evaluate\.py CSV \(no seed col"):
        anatomy.main(["--probs", str(evaluated / "probs.npz"), "--csv", str(notes)])
