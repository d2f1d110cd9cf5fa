"""Every message the command line prints is one clear line; options that cannot work together
are usage errors (exit 2) before anything is scored."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rink.cli import main

BOARDS = Path(__file__).parent / "boards"
RULEBOOK = BOARDS / "rulebook.txt"
PHOTO = Path(__file__).parent.parent / "sample_photos" / "board_01.jpg"


def run(*args: str):
    return CliRunner().invoke(main, ["score", *map(str, args)])


# -- F10: --set takes ASCII digits only ------------------------------------------------------
@pytest.mark.parametrize("text", ["²,1=H_H_", "1,²=H_H_", "\u0661,1=H_H_", "\uff11,1=H_H_",
                                  "1,1=", "1;1=H_H_", "-1,1=H_H_", "1,1,1=H_H_", "a,1=H_H_"])
def test_set_with_anything_but_ascii_digits_is_a_usage_error(text):
    result = run("--set", text, RULEBOOK)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a usage error, not a crash
    [message] = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert "--set" in message and repr(text) in message


def test_set_accepts_spaces_around_the_numbers():
    result = run("--json", "--set", " 0 , 4 = H_H_ ", RULEBOOK)
    assert result.exit_code == 0, result.output
    assert '"corrected": [{"row": 0, "col": 4, "token": "H_H_", "was": "HRHRo"}]' in result.output


# -- F13: names with control characters print as one line ------------------------------------
NAMES = ["two\nlines.txt", "carriage\rreturn.txt", "esc\x1b[31mred.txt", "para\u2028sep.txt",
         "tab\there.txt"]


@pytest.mark.parametrize("name", NAMES)
def test_a_file_name_with_a_control_character_gives_one_line(tmp_path, name):
    bad = tmp_path / name
    bad.write_text("not a board\n")
    good = tmp_path / ("good " + name)
    shutil.copy(RULEBOOK, good)
    result = run(bad, good, tmp_path / ("missing " + name))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    escaped = repr(name)[1:-1]
    assert lines == [
        "Could not score 2 of 3 inputs:",
        f"{tmp_path}/{escaped}, line 1: row 0 has 3 tokens, expected 7",
        f"{tmp_path}/missing {escaped}: no such file or folder",
    ]
    # the score sheet and the leaderboard name the good board on one line too
    out = result.stdout.splitlines()
    assert f"{tmp_path}/good {escaped}" in out
    assert any(line.strip().startswith("1.") and f"good {escaped}" in line for line in out)


def test_a_photo_named_with_a_newline_gives_one_line(tmp_path):
    photo = tmp_path / "broken\nphoto.jpg"
    photo.write_bytes(b"\xff\xd8\xff" + b"\0" * 100)
    result = run(photo)
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f"{tmp_path}/broken\\nphoto.jpg: ")


def test_usage_errors_naming_a_file_are_one_line(tmp_path):
    existing = tmp_path / "old\nscores.csv"
    existing.write_text("x\n")
    result = run("--csv", existing, RULEBOOK)
    assert result.exit_code == 2
    [message] = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert "old\\nscores.csv: already exists" in message


# -- F15: options that cannot work together --------------------------------------------------
def test_one_file_for_csv_and_save_grid_is_a_usage_error(tmp_path):
    for csv_path, grid_path in [(tmp_path / "out.txt", tmp_path / "out.txt"),
                                (tmp_path / "sub" / ".." / "out.txt", tmp_path / "out.txt")]:
        result = run("--csv", csv_path, "--save-grid", grid_path, RULEBOOK)
        assert result.exit_code == 2, result.output
        assert "--csv and --save-grid" in result.stderr and "same file" in result.stderr
        assert not (tmp_path / "out.txt").exists()
    (tmp_path / "real.txt").write_text("x\n")
    (tmp_path / "alias.txt").symlink_to(tmp_path / "real.txt")
    result = run("--csv", tmp_path / "real.txt", "--save-grid", tmp_path / "alias.txt", "--force",
                 RULEBOOK)
    assert result.exit_code == 2 and (tmp_path / "real.txt").read_text() == "x\n"


def test_corners_on_a_grid_file_is_a_usage_error():
    result = run("--corners", "1,1,100,1,100,100,1,100", RULEBOOK)
    assert result.exit_code == 2
    assert "--corners" in result.stderr and "grid file" in result.stderr
    assert "TOTAL" not in result.output


def test_a_saved_grid_of_a_board_named_with_a_newline_scores_again(tmp_path):
    board = tmp_path / "anna\nfinal.txt"
    shutil.copy(RULEBOOK, board)
    saved = tmp_path / "saved.txt"
    assert run("--set", "0,4=H_H_", "--save-grid", saved, board).exit_code == 0
    assert saved.read_text().startswith(f"# {tmp_path}/anna\\nfinal.txt as scored by rink\n")
    again = run("--json", saved)
    assert again.exit_code == 0, again.output
    fixed = run("--json", "--set", "0,4=H_H_", board)
    assert json.loads(again.stdout)["score"] == json.loads(fixed.stdout)["score"]
