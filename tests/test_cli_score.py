"""``rink score`` through click's CliRunner and as a real subprocess."""

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rink.cli import main

BOARDS = Path(__file__).parent / "boards"
RULEBOOK = BOARDS / "rulebook.txt"
DOUBTFUL = Path(__file__).parent.parent / "sample_photos" / "board_08.jpg"
"""A sample photo with spaces the reader is unsure of (to review)."""


def run(*args: str):
    return CliRunner().invoke(main, ["score", *map(str, args)])


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A game night: alice's rulebook board, and bob and carol with the same plain highway."""
    shutil.copy(RULEBOOK, tmp_path / "alice.txt")
    rows = [". H_H_ . . . . ." for _ in range(7)]
    (tmp_path / "bob.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "carol.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "notes.md").write_text("not a board")
    return tmp_path


# -- one board -------------------------------------------------------------------------------
def test_score_sheet_lists_breakdown_and_placed_errors():
    result = run(RULEBOOK)
    assert result.exit_code == 0, result.output
    out = result.output
    for label, value in [("Network 1: 4 Exits", "12"), ("Network 2: 6 Exits", "20"),
                         ("Longest Highway", "8"), ("Longest Railway", "5"),
                         ("Central Spaces", "6"), ("Errors", "-5"), ("TOTAL", "46")]:
        line = next(line for line in out.splitlines() if label in line)
        assert line.split()[-1] == value
    assert "row 0, column 4, west side: railway end meets a blank side" in out


def test_json_output_follows_board_spec():
    result = run("--json", RULEBOOK)
    assert result.exit_code == 0
    [data] = json_lines(result.output)
    assert data["source"] == str(RULEBOOK) and data["ok"] is True
    assert data["score"] == {"networks": [4, 6], "exits": 32, "highway": 8, "railway": 5,
                             "center": 6, "errors": 5, "expansions": {}, "total": 46}
    assert data["grid"][0] == ". H_H_ . R_R_ HRHRo . ."
    assert data["illegal"] == [] and data["review"] == []


def test_illegal_drawing_is_listed_with_its_place(tmp_path):
    grid = tmp_path / "mixed.txt"
    rows = [". . . . . . ."] * 7
    rows[3] = ". . . _R__ ___H . ."
    grid.write_text("\n".join(rows))
    result = run(grid)
    assert result.exit_code == 0
    assert ("row 3, column 3, east side: railway end meets a highway end (row 3, column 4); "
            "they cannot be drawn together") in result.output
    data = json_lines(run("--json", grid).output)[0]
    assert data["illegal"][0]["code"] == "mixed-ends"
    assert data["illegal"][0]["places"] == [{"row": 3, "col": 3, "side": "E"}]


# -- bad input -------------------------------------------------------------------------------
BAD = {
    "short.txt": ("H_H_ . . . . . .\n" * 6, "only 6 rows, expected 7"),
    "wide.txt": (". . . . . . . .\n" * 7, "line 1: row 0 has 8 tokens, expected 7"),
    "token.txt": (". . . . . . .\n. . HXH_ . . . .\n" + ". . . . . . .\n" * 5,
                  "line 2: column 2: 'HXH_': unknown side letter 'X'"),
    "empty.txt": ("", "empty file"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_grid_file_gives_one_line_and_other_inputs_are_scored(tmp_path, name):
    text, message = BAD[name]
    bad = tmp_path / name
    bad.write_text(text)
    result = run("--json", bad, RULEBOOK)
    assert result.exit_code == 1
    first, second = json_lines(result.stdout)
    assert first["ok"] is False and first["source"] == str(bad)
    assert message in first["error"] and "\n" not in first["error"]
    assert second["ok"] is True and second["score"]["total"] == 46
    text_run = run(bad)
    assert text_run.exit_code == 1
    assert text_run.stderr.strip().splitlines() == [f"{bad}" + first["error"][len(str(bad)):]]
    assert "Traceback" not in text_run.output


def test_binary_file_missing_path_and_empty_folder(tmp_path):
    binary = tmp_path / "photo.txt"
    binary.write_bytes(bytes(range(256)))
    (tmp_path / "nothing").mkdir()
    result = run("--json", binary, tmp_path / "missing.txt", tmp_path / "nothing")
    assert result.exit_code == 1
    errors = [d["error"] for d in json_lines(result.stdout)]
    assert errors == [f"{binary}: not a text grid file (binary data)",
                      f"{tmp_path / 'missing.txt'}: no such file or folder",
                      f"{tmp_path / 'nothing'}: folder has no grid files (.txt) or photos"]


def test_usage_errors_exit_2():
    assert run().exit_code == 2
    assert run("--set", "7,0=H_H_", RULEBOOK).exit_code == 2
    assert run("--set", "0,0=HXXX", RULEBOOK).exit_code == 2
    assert run("--expansion", "nonsense", RULEBOOK).exit_code == 2
    assert run("--set", "0,0=H_H_", RULEBOOK, RULEBOOK).exit_code == 2


# -- batches ---------------------------------------------------------------------------------
def test_folder_is_scored_in_name_order_with_a_leaderboard(folder):
    result = run(folder)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Scoring" not in out  # no progress bar when the output is not a terminal
    assert out.index("alice.txt") < out.index("bob.txt") < out.index("carol.txt")
    board = out[out.index("Leaderboard"):].splitlines()
    assert "1." in board[1] and "alice.txt" in board[1] and "46 points" in board[1]
    # bob and carol are identical: tied on points and Errors, they share 2nd place
    assert "2." in board[2] and "2." in board[3]


def test_leaderboard_breaks_ties_on_fewer_errors(tmp_path):
    rows = [". H_H_ . . . . ."] * 7
    (tmp_path / "a.txt").write_text("\n".join(rows))  # network 4 + highway 7 = 11, 0 Errors
    rows[3] = ". H_H_ . _H__ . . ."  # + 1 Central Space, + 1 Error: still 11 points
    (tmp_path / "b.txt").write_text("\n".join(rows))
    data = {d["source"]: d["score"] for d in json_lines(run("--json", tmp_path).stdout)}
    a, b = data[str(tmp_path / "a.txt")], data[str(tmp_path / "b.txt")]
    assert a["total"] == b["total"] == 11 and (a["errors"], b["errors"]) == (0, 1)
    board = run(tmp_path / "b.txt", tmp_path / "a.txt").output.split("Leaderboard")[1]
    lines = board.splitlines()
    assert "a.txt" in lines[1] and lines[1].strip().startswith("1.")
    assert "b.txt" in lines[2] and lines[2].strip().startswith("2.")


def test_jobs_keep_input_order_and_match_one_job(folder):
    paths = [folder / n for n in ("carol.txt", "alice.txt", "bob.txt")] * 2
    one = json_lines(run("--json", *paths).stdout)
    two = json_lines(run("--json", "--jobs", "2", *paths).stdout)
    assert one == two
    assert [d["source"] for d in two] == [str(p) for p in paths]


def test_csv_has_one_row_per_board_and_is_never_overwritten_without_force(folder, tmp_path):
    out = tmp_path / "night.csv"
    result = run("--csv", out, folder, folder / "missing.txt")
    assert result.exit_code == 1  # one input failed; the CSV is still written
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [Path(r["source"]).name for r in rows] == ["alice.txt", "bob.txt", "carol.txt",
                                                      "missing.txt"]
    assert rows[0]["rank"] == "1" and rows[0]["total"] == "46" and rows[0]["networks"] == "4 6"
    assert rows[3]["ok"] == "False" and "no such file" in rows[3]["error"]
    before = out.read_text()
    again = run("--csv", out, folder)
    assert again.exit_code == 2 and "already exists" in again.output
    assert out.read_text() == before
    assert run("--csv", out, "--force", folder).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir() if not p.is_dir()) == [
        "alice.txt", "bob.txt", "carol.txt", "night.csv", "notes.md"]  # no temporary files left


# -- corrections -----------------------------------------------------------------------------
def test_set_overrules_a_space_and_save_grid_writes_a_board_that_scores_again(tmp_path):
    saved = tmp_path / "fixed.txt"
    result = run("--set", "0,4=H_H_", "--save-grid", saved, RULEBOOK)
    assert result.exit_code == 0, result.output
    assert "row 0, column 4: H_H_ (was HRHRo)" in result.output
    again = json_lines(run("--json", saved).stdout)[0]
    first = json_lines(run("--json", "--set", "0,4=H_H_", RULEBOOK).stdout)[0]
    assert again["score"] == first["score"]
    assert first["corrected"] == [{"row": 0, "col": 4, "token": "H_H_", "was": "HRHRo"}]
    assert first["score"]["errors"] == 3  # the overpass's two railway Errors are gone
    assert RULEBOOK.read_text().splitlines()[1].startswith(". H_H_ . R_R_ HRHRo")  # untouched
    assert run("--save-grid", saved, RULEBOOK).exit_code == 2  # exists, no --force


def test_strict_scores_a_grid_file_as_without_it():
    """A typed board has no spaces read with doubt: --strict changes nothing for it, while a
    photo with doubts in the same run is refused."""
    plain, strict = run("--json", RULEBOOK), run("--json", "--strict", RULEBOOK)
    assert strict.exit_code == plain.exit_code == 0
    assert json.loads(strict.stdout) == json.loads(plain.stdout)
    assert run("--strict", RULEBOOK).stdout == run(RULEBOOK).stdout
    mixed = run("--json", "--strict", RULEBOOK, DOUBTFUL)
    assert mixed.exit_code == 1
    grid, photo = json_lines(mixed.stdout)
    assert grid["ok"] is True and grid["score"]["total"] == 46
    assert photo["ok"] is False and "to review (--strict)" in photo["error"]


# -- expansions ------------------------------------------------------------------------------
def test_expansion_points_get_their_own_line_and_json_key(tmp_path):
    board = BOARDS / "expansions" / "river_rulebook.txt"  # says 'expansion: river' itself
    data = json_lines(run("--json", board).stdout)[0]
    assert "river" in data["score"]["expansions"]
    text = run(board).output
    line = next(line for line in text.splitlines() if line.strip().startswith("Expansion: River"))
    assert line.split()[-1] == f"{data['score']['expansions']['river']:+d}"


def test_expansion_option_adds_an_expansion_to_a_plain_board():
    data = json_lines(run("--json", "--expansion", "river", RULEBOOK).stdout)[0]
    assert data["score"]["expansions"] == {"river": 0}
    assert data["score"]["total"] == 46


# -- a real process --------------------------------------------------------------------------
def _rink() -> list[str]:
    rink = Path(sys.executable).parent / "rink"
    if rink.exists():
        return [str(rink)]
    return [sys.executable, "-c", "from rink.cli import main; main()"]


def test_real_subprocess_exit_codes_and_streams(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("nonsense\n")
    done = subprocess.run([*_rink(), "score", str(RULEBOOK), str(bad)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "TOTAL" in done.stdout and "46" in done.stdout
    assert "Traceback" not in done.stderr
    assert f"{bad}, line 1: row 0 has 1 tokens, expected 7" in done.stderr
    done = subprocess.run([*_rink(), "score", "--json", str(RULEBOOK)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["score"]["total"] == 46
    done = subprocess.run([*_rink(), "score", "--jobs", "0", str(RULEBOOK)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr


# -- photos ----------------------------------------------------------------------------------
def test_folder_lists_grids_and_photos_sorted_and_skips_other_files(tmp_path):
    from rink.inputs import expand_paths

    for name in ("b.jpg", "a.txt", "c.HEIC", "notes.md", ".hidden.txt"):
        (tmp_path / name).write_text("x")
    items = expand_paths([str(tmp_path)])
    assert [(Path(i.source).name, i.kind) for i in items] == [
        ("a.txt", "grid"), ("b.jpg", "photo"), ("c.HEIC", "photo")]


def test_unreadable_photo_is_one_clean_line_and_the_rest_is_scored(tmp_path):
    photo = tmp_path / "broken.jpg"
    photo.write_text("this is not a picture")
    result = run(photo, RULEBOOK)
    assert result.exit_code == 1
    assert "TOTAL" in result.stdout
    lines = result.stderr.strip().splitlines()
    assert lines[0] == "Could not score 1 of 2 inputs:"
    assert lines[1].startswith(str(photo)) and len(lines) == 2
    assert "Traceback" not in result.output


PHOTO = Path(__file__).parent.parent / "sample_photos" / "board_01.jpg"


def test_photo_is_read_scored_and_annotated(tmp_path):
    """A real photo through the real photo pipeline (vision.recognizer) and the scorer."""
    result = run("--json", "--annotate", tmp_path / "pictures", PHOTO)
    assert result.exit_code == 0, result.output
    [data] = json_lines(result.stdout)
    assert data["ok"] is True and data["kind"] == "photo" and len(data["grid"]) == 7
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    assert data["score"] == truth["expected_score"]
    assert data["annotated"] == str(tmp_path / "pictures" / "board_01.rink.png")
    assert (tmp_path / "pictures" / "board_01.rink.png").read_bytes()[:4] == b"\x89PNG"
    assert data["review"] == []  # read without doubt: nothing to review, --strict passes it
    assert "To review" not in run(PHOTO).output
    assert run("--strict", PHOTO).exit_code == 0


def test_spaces_read_with_doubt_are_listed_refused_by_strict_and_settled_by_set():
    """board_08 has spaces the reader is unsure of: each path that depends on them runs."""
    [data] = json_lines(run("--json", DOUBTFUL).stdout)
    review = data["review"]
    assert review, "board_08.jpg should have spaces to review"
    text = run(DOUBTFUL).output
    assert f"To review ({len(review)} space(s) to check, least sure first):" in text
    for entry in review:
        others = ", ".join(f"{token} {p:.0%}" for token, p in entry["alternatives"]
                           if token != entry["token"]) or "nothing else likely"
        assert (f"row {entry['row']}, column {entry['col']}: read {entry['token']} "
                f"(or {others}; {entry['reason']})") in text
    strict = run("--strict", "--json", DOUBTFUL)
    assert strict.exit_code == 1
    [refused] = json_lines(strict.stdout)
    assert refused["ok"] is False
    assert refused["error"] == (f"{DOUBTFUL}: {len(review)} space(s) to review (--strict); "
                                "check them or correct them with --set")
    assert refused["review"] == review
    assert run("--strict", DOUBTFUL).stderr.strip() == refused["error"]
    # settling all but one doubt still fails; settling every one makes the board count
    fixes = [arg for r in review for arg in ("--set", f"{r['row']},{r['col']}={r['token']}")]
    if len(review) > 1:
        assert run("--strict", *fixes[:-2], DOUBTFUL).exit_code == 1
    settled = run("--strict", "--json", *fixes, DOUBTFUL)
    assert settled.exit_code == 0, settled.output
    [fixed] = json_lines(settled.stdout)
    assert fixed["review"] == [] and fixed["score"] == data["score"]
    assert fixed["corrected"] == [{"row": r["row"], "col": r["col"], "token": r["token"],
                                   "was": r["token"]} for r in review]


def test_set_on_a_doubtful_space_takes_the_other_reading():
    [data] = json_lines(run("--json", DOUBTFUL).stdout)
    entry = data["review"][0]
    other = next(token for token, _ in entry["alternatives"] if token != entry["token"])
    result = run("--json", "--set", f"{entry['row']},{entry['col']}={other}", DOUBTFUL)
    assert result.exit_code == 0, result.output
    [fixed] = json_lines(result.stdout)
    assert fixed["grid"][entry["row"]].split()[entry["col"]] == other
    assert (entry["row"], entry["col"]) not in {(r["row"], r["col"]) for r in fixed["review"]}
    assert len(fixed["review"]) == len(data["review"]) - 1
    assert fixed["corrected"] == [{"row": entry["row"], "col": entry["col"], "token": other,
                                   "was": entry["token"]}]
    text = run("--set", f"{entry['row']},{entry['col']}={other}", DOUBTFUL).output
    assert f"row {entry['row']}, column {entry['col']}: {other} (was {entry['token']})" in text


def test_corrected_photo_saves_a_grid_that_scores_the_same(tmp_path):
    saved = tmp_path / "board_01.txt"
    result = run("--json", "--set", "3,3=HHHH", "--save-grid", saved, PHOTO)
    assert result.exit_code == 0, result.output
    [data] = json_lines(result.stdout)
    assert data["grid"][3].split()[3] == "HHHH"
    again = json_lines(run("--json", saved).stdout)[0]
    assert again["score"] == data["score"] and again["grid"] == data["grid"]
    assert "# corrected: row 3, column 3 = HHHH" in saved.read_text()


def test_corners_by_hand_read_the_photo_and_bad_corners_are_usage_errors():
    truth = json.loads(PHOTO.with_suffix(".json").read_text())
    corners = ",".join(str(v) for point in truth["corners"] for v in point)
    result = run("--json", "--corners", corners, PHOTO)
    assert result.exit_code == 0, result.output
    [data] = json_lines(result.stdout)
    assert data["ok"] is True and len(data["grid"]) == 7
    assert run("--corners", "1,2,3", PHOTO).exit_code == 2
    assert run("--corners", corners, PHOTO, RULEBOOK).exit_code == 2
