"""scripts/evaluate.py end to end on two rendered photos: CSV rows, summary, saved probabilities."""

from __future__ import annotations

import csv
import json

import numpy as np

from tests.project_scripts import load_script
from vision.decode import decode


def test_evaluate_writes_rows_summary_and_probabilities(tmp_path):
    evaluate = load_script("evaluate")
    out = tmp_path / "eval.csv"
    assert evaluate.main(["--n", "2", "--seed", "7300000", "--workers", "1", "--megapixels",
                          "2", "--csv", str(out), "--json", str(tmp_path / "eval.json"),
                          "--probs", str(tmp_path / "probs.npz")]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [int(r["seed"]) for r in rows] == [7300000, 7300001]
    summary = json.loads((tmp_path / "eval.json").read_text())
    assert summary["photos"] == 2
    found = [r for r in rows if r["found"] == "1"]
    assert found, "neither photo was read"
    saved = np.load(tmp_path / "probs.npz")
    assert list(saved["seeds"]) == [int(r["seed"]) for r in found]
    assert saved["probs"].shape == (len(found), 7, 7, len(saved["classes"])) and saved["truth"].shape[1:] == (7, 7)
    # Decoding the saved probabilities again gives the reading the CSV row describes.
    classes = list(saved["classes"])
    for row, probs, truth in zip(found, saved["probs"], saved["truth"]):
        grid = decode(probs, classes).grid
        wrong = sum(grid[r][c] != truth[r][c] for r in range(7) for c in range(7))
        assert wrong == int(row["wrong_spaces"])
