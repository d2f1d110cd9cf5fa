"""The product layer works on typed results (``BoardResult``), also across worker processes."""

import csv
import io
import pickle
from pathlib import Path

from rink.batch import Correction, ScoreOptions, score_item, score_items
from rink.inputs import InputItem
from rink.leaderboard import format_leaderboard, leaderboard_csv, rank
from rink.results import BoardResult
from rink.sheet_text import format_sheet

REPO = Path(__file__).parent.parent
RULEBOOK = REPO / "tests" / "boards" / "rulebook.txt"
PHOTO = REPO / "sample_photos" / "board_08.jpg"  # with spaces to review


def _grid(tmp_path: Path, name: str, rows: list[str]) -> InputItem:
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return InputItem(str(path), "grid")


def test_leaderboard_and_csv_read_the_result_objects(tmp_path):
    plain = [". H_H_ . . . . ."] * 7  # 11 points, no Errors
    errors = list(plain)
    errors[3] = ". H_H_ . _H__ . . ."  # 11 points, 1 Error
    items = [_grid(tmp_path, "b.txt", errors), InputItem(str(RULEBOOK), "grid"),
             _grid(tmp_path, "a.txt", plain), InputItem(str(tmp_path / "gone.txt"), "bad",
                                                        "no such file or folder")]
    results = [score_item(item, ScoreOptions()) for item in items]
    assert all(isinstance(r, BoardResult) for r in results)
    standings = rank(results)
    assert [(s.rank, Path(s.result.source).name) for s in standings] == [
        (1, "rulebook.txt"), (2, "a.txt"), (3, "b.txt")]
    assert "  1.  " in format_leaderboard(standings).splitlines()[1]
    rows = list(csv.DictReader(io.StringIO(leaderboard_csv(results))))
    assert [r["rank"] for r in rows] == ["3", "1", "2", ""]
    assert rows[1] | {"source": ""} == {
        "rank": "1", "source": "", "ok": "True", "total": "46", "networks": "4 6", "exits": "32",
        "highway": "8", "railway": "5", "center": "6", "errors": "5", "expansions": "",
        "illegal": "0", "review": "0", "corrected": "", "error": ""}
    assert rows[3]["ok"] == "False" and rows[3]["error"].endswith("no such file or folder")


def test_corrections_show_on_the_sheet_and_in_the_csv():
    result = score_item(InputItem(str(RULEBOOK), "grid"),
                        ScoreOptions(corrections=(Correction(0, 4, "H_H_"),)))
    assert "row 0, column 4: H_H_ (was HRHRo)" in format_sheet(result)
    [row] = csv.DictReader(io.StringIO(leaderboard_csv([result])))
    assert row["corrected"] == "0,4=H_H_" and row["errors"] == "3"


def test_a_photo_result_is_small_plain_data_for_worker_processes():
    result = score_item(InputItem(str(PHOTO), "photo"), ScoreOptions())
    assert result.ok and result.review
    data = pickle.dumps(result)
    assert len(data) < 50_000  # no photo arrays travel back from a worker
    again = pickle.loads(data)
    assert again.to_json() == result.to_json() and format_sheet(again) == format_sheet(result)


def test_worker_processes_give_the_same_results_in_input_order():
    items = [InputItem(str(PHOTO), "photo"), InputItem(str(RULEBOOK), "grid")]
    one = [r.to_json() for r in score_items(items, ScoreOptions(), jobs=1)]
    two = [r.to_json() for r in score_items(items, ScoreOptions(), jobs=2)]
    assert one == two and [d["source"] for d in two] == [str(PHOTO), str(RULEBOOK)]
