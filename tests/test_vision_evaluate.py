"""scripts/evaluate.py end to end on two held-out rendered photos: CSV rows, summary figures,
saved probabilities.

The two photos are seeds 7100070-7100071 of the held-out set that docs/VISION.md reports on:
the first is read exactly, the second with one space wrong (listed for review). The figures
are the shipped models' and preprocessing's own (7100058-7100059 served until the crops took
each colour channel against its own paper, which read 7100059's one wrong space right); a
retrained model changes them, and this test with it.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tests.project_scripts import load_script
from vision.decode import decode
from vision.model_files import models_dir


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    out = tmp_path_factory.mktemp("evaluate")
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "2", "--seed", "7100070", "--workers", "1",
                          "--csv", str(out / "eval.csv"), "--json", str(out / "eval.json"),
                          "--probs", str(out / "probs.npz")]) == 0
    rows = list(csv.DictReader((out / "eval.csv").open()))
    return rows, json.loads((out / "eval.json").read_text()), np.load(out / "probs.npz")


def test_each_photo_gets_its_row(evaluated):
    rows, _, _ = evaluated
    assert [int(r["seed"]) for r in rows] == [7100070, 7100071]
    assert [r["found"] for r in rows] == ["1", "1"]
    exact, one_wrong = rows
    assert (exact["wrong_spaces"], exact["exact"], exact["review"]) == ("0", "1", "0")
    assert one_wrong["wrong_spaces"] == "1" and one_wrong["exact"] == "0"
    assert one_wrong["confusions"].split() == ["RR__>HH__"]
    # read in eight views (3 Dec 2026) the misread is surer and no longer listed, but the
    # board still has spaces listed, so it is not silent
    assert one_wrong["unflagged_wrong"] == "1" and one_wrong["silent_wrong"] == "0"
    assert int(one_wrong["review"]) + int(one_wrong["warnings"]) >= 1
    for row in rows:
        assert float(row["corner_error_spaces"]) < 0.1
        assert float(row["confidence"]) == 1.0 and float(row["orientation_confidence"]) > 0.99
        assert row["score_exact"] == "1"  # the wrong space happens to score the same
        assert float(row["t_total"]) > 0 and float(row["t_unbend"]) > 0
        # the printed lines were followed; these renders record no true space corners
        assert (row["unbend_applied"], row["unbend_warned"]) == ("1", "0")
        assert row["space_corner_error_mean"] == row["space_corner_error_max"] == ""


def test_the_summary_counts_the_rows(evaluated):
    _, summary, _ = evaluated
    assert summary["photos"] == 2 and summary["not_found_pct"] == 0.0
    assert summary["space_error_pct"] == pytest.approx(100 * 1 / 98)
    assert (summary["rotation_errors"], summary["piece_errors"]) == (0, 1)
    assert summary["boards_exact_pct"] == 50.0
    assert summary["boards_at_most_1_wrong_pct"] == 100.0
    assert summary["score_exact_pct"] == 100.0
    assert summary["silent_wrong_pct"] == 0.0 and summary["wrong_spaces_not_in_review"] == 1
    assert summary["boards_with_review_pct"] == 50.0
    assert summary["top_confusions (truth>read: count)"] == {"RR__>HH__": 1}
    assert summary["unbend_applied_pct"] == 100.0 and summary["space_corner_error_mean"] is None
    assert summary["median_ms"]["unbend"] > 0


def test_rows_and_summary_say_which_kind_of_board_was_drawn(evaluated):
    rows, summary, _ = evaluated
    assert [r["board_kind"] for r in rows] == ["random", "random"]  # both random sheets
    assert summary["by_board_kind"] == {"random": {
        "photos": 2, "wrong_spaces": 1, "space_error_pct": pytest.approx(100 * 1 / 98, abs=1e-3),
        "boards_exact_pct": 50.0}}


def test_each_seed_draws_one_board_the_photo_shows():
    evaluate = load_script("evaluate")
    kinds = {evaluate.case_board(seed)[0].kind for seed in range(7100000, 7100030)}
    assert kinds == {"game", "random", "illegal"}
    board, played = evaluate.case_board(9100001, "mix")
    assert board.kind in {"game", "random", "illegal"} and played
    photo, again = evaluate.render_case(9100001, 1.0, None, "mix")
    assert photo.grid == board.grid and again == played
    wide, _ = evaluate.render_case(9100001, 1.0, None, "mix", pens="wide")
    assert wide.grid == board.grid
    assert "pens" not in photo.conditions["ink_style"]
    assert wide.conditions["ink_style"]["pens"] == "wide"
    assert wide.conditions["ink_style"]["line_width"] != photo.conditions["ink_style"]["line_width"]


def test_saved_probabilities_decode_to_the_rows(evaluated):
    rows, _, saved = evaluated
    assert list(saved["seeds"]) == [7100070, 7100071]
    assert saved["probs"].shape == (2, 7, 7, len(saved["classes"]))
    assert saved["truth"].shape == (2, 7, 7)
    classes = list(saved["classes"])
    for row, probs, truth in zip(rows, saved["probs"], saved["truth"], strict=True):
        grid = decode(probs, classes).grid
        wrong = sum(grid[r][c] != truth[r][c] for r in range(7) for c in range(7))
        assert wrong == int(row["wrong_spaces"])


def test_saved_review_kinds_are_the_rows_review(evaluated):
    rows, _, saved = evaluated
    assert saved["review"].shape == (2, 7, 7) and saved["ink"].shape == (2, 7, 7)
    for row, listed in zip(rows, saved["review"], strict=True):
        assert int((listed != "").sum()) == int(row["review"])
        assert set(listed.ravel()) <= {"", "reading", "ink", "covered", "hidden", "mark", "water",
                                       "ghost"}


def test_deep_blue_renders_report_water_figures(tmp_path):
    """--expansion mix: River/Lake boards, totals scored with the expansions played and seen,
    and the water figures of issue 16 in the rows and the summary."""
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "2", "--seed", "9100000", "--expansion", "mix",
                          "--workers", "1", "--csv", str(tmp_path / "w.csv"),
                          "--json", str(tmp_path / "w.json")]) == 0
    rows = list(csv.DictReader((tmp_path / "w.csv").open()))
    summary = json.loads((tmp_path / "w.json").read_text())
    assert all(row["played"] in ("river", "lake", "lake river") for row in rows)
    assert summary["expansion"] == "mix" and summary["water_sides"] > 0
    true_water = sum(int(r["water_sides"]) for r in rows)
    assert summary["water_sides"] == true_water
    missed = sum(int(r["water_sides_missed"]) + int(r["false_water_sides"]) for r in rows)
    assert summary["water_side_error_pct"] == pytest.approx(100 * missed / true_water, abs=1e-3)
    assert sum(summary["boards_by_expansions"].values()) == 2
    for row in rows:
        assert row["seen_right"] == str(int(sorted(row["seen"].split()) ==
                                            sorted(row["played"].split())))


def test_boards_with_marks_report_how_the_marks_fared(tmp_path):
    """--conditions plain_marks: every board carries marks rink does not read; the rows, the
    summary and the saved arrays say which were put in review, by the mark head or at all."""
    evaluate = load_script("evaluate")
    assert evaluate.main(["--n", "2", "--seed", "8960001", "--conditions", "plain_marks",
                          "--workers", "1", "--csv", str(tmp_path / "m.csv"),
                          "--json", str(tmp_path / "m.json"),
                          "--probs", str(tmp_path / "m.npz")]) == 0
    rows = list(csv.DictReader((tmp_path / "m.csv").open()))
    figures = json.loads((tmp_path / "m.json").read_text())["by_condition"]["all"]
    saved = np.load(tmp_path / "m.npz")
    assert [r["found"] for r in rows] == ["1", "1"]
    for row in rows:
        unread, flagged = int(row["unread_spaces"]), int(row["unread_mark_flagged"])
        assert unread >= 1 and flagged <= int(row["unread_in_review"]) <= unread
        assert int(row["mark_flags"]) == flagged + int(row["mark_flags_unmarked"])
        assert row["marked_silent"] == str(int(row["review"] == "0" and row["warnings"] == "0"))
    assert figures["unread_spaces"] == sum(int(r["unread_spaces"]) for r in rows)
    assert figures["boards_with_marks_silent_pct"] is not None
    assert saved["unread"].shape == saved["marks"].shape == (2, 7, 7)
    assert int((saved["unread"] > 0).sum()) == figures["unread_spaces"]
    kinds = list(saved["mark_kinds"])
    assert "tentacle" in kinds and saved["unread"].max() <= len(kinds)
    assert ((saved["marks"] >= 0) & (saved["marks"] <= 1)).all()


def test_bad_arguments_end_in_one_line(capsys):
    evaluate = load_script("evaluate")
    for argv, said in ((["--n", "0"], "--n 0: at least 1 photo"),
                       (["--small-space-px", "0"], "0: a size in pixels (above 0) or 'none'"),
                       (["--merge-sure", "2"], "2: a probability (0..1) or 'none'"),
                       (["--parts-sure", "sure"], "sure: a probability (0..1) or 'none'"),
                       (["--faint-route-spaces", "1.5"],
                        "1.5: a whole number of spaces (1 or more) or 'none'"),
                       (["--faint-route-letters", "X"], "invalid choice: 'X'"),
                       (["--tta-sure", "1.5"], "1.5: a probability (0..1) or 'none'")):
        with pytest.raises(SystemExit):
            evaluate.main(argv)
        assert said in capsys.readouterr().err.strip().splitlines()[-1]


def test_the_augmentations_threshold_reaches_the_reader():
    evaluate = load_script("evaluate")
    for tta, sure, expected in (("unsure", 0.98, 0.98), ("unsure", 0.995, 0.995),
                                ("all", 0.995, None), ("unsure", None, None)):
        evaluate._init(str(models_dir()), tta, tta_sure=sure)
        assert evaluate._recognizer.params.classify.sure == expected


def test_float_readers_reach_the_reader():
    """``--float-readers`` measures the float networks the 8-bit twins were made from."""
    evaluate = load_script("evaluate")
    for int8, suffix in ((True, ".int8.onnx"), (False, "cell_classifier.onnx")):
        evaluate._init(str(models_dir()), "unsure", int8=int8)
        assert evaluate._recognizer.classifier.session._model_path.endswith(suffix)
