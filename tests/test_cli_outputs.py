"""Output files (--csv, --save-grid, --annotate): whole, exclusive, with the right permissions,
and never written over anything but a regular file."""

import csv
import io
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rink.cli import main
from rink.safe_write import NotRegularFile, OutputExists, write_atomic

BOARDS = Path(__file__).parent / "boards"
RULEBOOK = BOARDS / "rulebook.txt"


def run(*args: str):
    return CliRunner().invoke(main, ["score", *map(str, args)])


def _rink() -> list[str]:
    rink = Path(sys.executable).parent / "rink"
    return [str(rink)] if rink.exists() else [sys.executable, "-m", "rink"]


@pytest.fixture
def umask():
    """Set the process umask for a test, and put the old one back."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- F6: several runs writing one file at once -----------------------------------------------
def test_six_runs_writing_one_csv_at_once_have_exactly_one_winner(tmp_path):
    night = tmp_path / "night"
    night.mkdir()
    for i in range(400):  # a CSV of some size: the runs reach their write at about one time
        shutil.copy(RULEBOOK, night / f"board_{i:03d}.txt")
    for round_ in range(4):  # a lost race shows in about every other round without the fix
        out = tmp_path / f"out{round_}"
        out.mkdir()
        target = out / "same.csv"
        runs = [subprocess.Popen([*_rink(), "score", str(night), "--csv", str(target)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for _ in range(6)]
        done = [(p.wait(timeout=120), p.stderr.read()) for p in runs]
        codes = sorted(code for code, _ in done)
        assert codes.count(0) == 1, done
        assert all(code in (1, 2) for code in codes[1:])
        assert all("already exists" in err for code, err in done if code)
        rows = list(csv.DictReader(io.StringIO(target.read_text())))
        assert len(rows) == 400 and all(r["total"] == "46" for r in rows)
        assert [p.name for p in out.iterdir()] == ["same.csv"]  # no temporary files left


def test_write_atomic_creates_exclusively(tmp_path):
    target = tmp_path / "x.txt"
    write_atomic(target, "first")
    with pytest.raises(OutputExists):
        write_atomic(target, "second")
    assert target.read_text() == "first"
    write_atomic(target, "third", force=True)
    assert target.read_text() == "third"


# -- F7: permissions, and what may be replaced -----------------------------------------------
@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_output_files_honour_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    table, grid = tmp_path / "night.csv", tmp_path / "saved.txt"
    assert run("--csv", table, "--save-grid", grid, RULEBOOK).exit_code == 0
    assert _mode(table) == expected and _mode(grid) == expected


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_force_keeps_the_mode_of_the_file_it_replaces(tmp_path, umask, mode):
    umask(0o077)
    table = tmp_path / "night.csv"
    table.write_text("old\n")
    table.chmod(mode)
    assert run("--csv", table, "--force", RULEBOOK).exit_code == 0
    assert _mode(table) == mode and table.read_text().startswith("rank,source")


def _special_files(tmp_path: Path) -> dict[str, Path]:
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    (tmp_path / "link.csv").symlink_to(target)
    (tmp_path / "dangling.csv").symlink_to(tmp_path / "nowhere.csv")
    os.mkfifo(tmp_path / "fifo.csv")
    (tmp_path / "folder.csv").mkdir()
    return {"symbolic link": tmp_path / "link.csv", "dangling link": tmp_path / "dangling.csv",
            "FIFO": tmp_path / "fifo.csv", "folder": tmp_path / "folder.csv",
            "device": tmp_path / "null.csv"}


def _device(path: Path) -> None:
    """A character device node like /dev/null (never a real system device: a failing test
    must not replace one)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD; the FIFO case covers the same path")


@pytest.mark.parametrize("kind", ["symbolic link", "dangling link", "FIFO", "folder", "device"])
def test_force_never_replaces_what_is_not_a_regular_file(tmp_path, kind):
    path = _special_files(tmp_path)[kind]
    if kind == "device":
        _device(path)
    before = os.lstat(path)
    for option in ("--csv", "--save-grid"):
        result = run(option, path, "--force", RULEBOOK)
        assert result.exit_code == 2, result.output
        assert "not a regular file" in result.stderr and str(path) in result.stderr
        assert "Traceback" not in result.output
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert (tmp_path / "precious.txt").read_text() == "precious\n"


def test_write_atomic_refuses_a_special_file_that_appears_after_the_check(tmp_path):
    fifo = tmp_path / "late.csv"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="FIFO"):
        write_atomic(fifo, "x", force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late.csv"]


# -- F14: no formulas in the CSV ---------------------------------------------------------------
def test_csv_text_cells_never_start_a_formula(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = ['=HYPERLINK("http:x","y").txt', "+1+2.txt", "@SUM(A1).txt", "\tcmd.txt"]
    for name in names:
        shutil.copy(RULEBOOK, name)
    Path("-3+4.txt").write_text("nonsense\n")
    result = run("--csv", "night.csv", "--", *names, "-3+4.txt", "plain.txt")
    assert result.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(Path("night.csv").read_text())))
    assert [r["source"] for r in rows] == [f"'{name}" for name in names] + ["'-3+4.txt",
                                                                           "plain.txt"]
    assert rows[4]["error"].startswith("'-3+4.txt, line 1: ")
    assert rows[5]["error"] == "plain.txt: no such file or folder"
    assert [r["total"] for r in rows[:4]] == ["46"] * 4  # numbers stay numbers
