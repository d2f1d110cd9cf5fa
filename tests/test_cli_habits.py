"""Command-line habits: ``-`` reads standard input, ``--quiet``, ``--version``."""

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rink.stdin_input
from rink.cli import main

BOARDS = Path(__file__).parent / "boards"
RULEBOOK = BOARDS / "rulebook.txt"
SAMPLES = Path(__file__).parent.parent / "sample_photos"


def run(*args: str, stdin: bytes | None = None):
    return CliRunner().invoke(main, ["score", *map(str, args)], input=stdin)


def _expected(photo: Path) -> int:
    return json.loads(photo.with_suffix(".json").read_text())["expected_score"]["total"]


def _rink() -> list[str]:
    rink = Path(sys.executable).parent / "rink"
    return [str(rink)] if rink.exists() else [sys.executable, "-m", "rink"]


# -- "-": standard input ---------------------------------------------------------------------
def test_a_grid_file_on_standard_input():
    result = run("--json", "-", stdin=RULEBOOK.read_bytes())
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["source"] == "<stdin>" and data["kind"] == "grid"
    assert data["score"]["total"] == 46


def test_a_photo_on_standard_input_reads_as_the_photo_file(tmp_path):
    photo = SAMPLES / "board_11.jpg"
    piped = run("--json", "--annotate", tmp_path, "-", stdin=photo.read_bytes())
    assert piped.exit_code == 0, piped.output
    from_file = json.loads(run("--json", photo).stdout)
    data = json.loads(piped.stdout)
    assert data["source"] == "<stdin>" and data["kind"] == "photo"
    assert data["score"] == from_file["score"] and data["review"] == from_file["review"]
    assert data["score"]["total"] == _expected(photo)
    assert data["annotated"] == str(tmp_path / "stdin.rink.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stdin.rink.png"]


def test_an_avif_photo_reads_from_its_file_and_from_standard_input(tmp_path):
    """Phones that save AVIF (Android's camera can) give a photo, not a grid file: the file
    by its suffix, standard input by its bytes (``ftypavif``)."""
    from PIL import Image

    photo = SAMPLES / "board_01.jpg"
    avif = tmp_path / "board_01.avif"
    Image.open(photo).save(avif, quality=90)
    assert avif.read_bytes()[4:12] == b"ftypavif"
    from_file = run("--json", avif)
    assert from_file.exit_code == 0, from_file.output
    data = json.loads(from_file.stdout)
    assert data["kind"] == "photo" and data["score"]["total"] == _expected(photo)
    piped = json.loads(run("--json", "-", stdin=avif.read_bytes()).stdout)
    assert piped["kind"] == "photo" and piped["score"] == data["score"]


def test_standard_input_among_other_inputs_in_a_real_process():
    photo = SAMPLES / "board_01.jpg"
    with photo.open("rb") as stdin:
        done = subprocess.run([*_rink(), "score", "--json", str(RULEBOOK), "-"], stdin=stdin,
                              capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["score"]["total"] == 46
    assert second["source"] == "<stdin>" and second["score"]["total"] == _expected(photo)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "<stdin>: empty file"),
    (b"  \n\n", "<stdin>: empty file"),
    (b"\x00" * 300, "<stdin>: not a text grid file (binary data)"),
    (b". . . . . . .\n. . HXH_ . . . .\n", "<stdin>, line 2: column 2: 'HXH_': unknown side"),
    (b"\xff\xfe" + b"x" * 50, "<stdin>: not a text grid file (not UTF-8 text)"),
    (b". " * 40_000, "<stdin>: more than 64 KiB and not a photo: too large for a grid file"),
    (b"\xff\xd8\xff" + b"\x00" * 100, "<stdin>: "),  # a JPEG start, and then nothing
])
def test_bad_standard_input_is_one_line_naming_it(data, message):
    result = run("-", RULEBOOK, stdin=data)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "Could not score 1 of 2 inputs:" and len(lines) == 2
    assert lines[1].startswith(message)
    assert "stdin.jpg" not in lines[1] and "rink-stdin-" not in lines[1]
    assert "TOTAL" in result.stdout  # the other input is scored


def test_standard_input_is_capped(monkeypatch):
    photo = (SAMPLES / "board_01.jpg").read_bytes()
    monkeypatch.setattr(rink.stdin_input, "MAX_PHOTO_BYTES", len(photo) - 1)
    result = run("-", stdin=photo)
    assert result.exit_code == 1
    assert result.stderr.strip() == "<stdin>: photo larger than 0 MB"


def test_standard_input_is_read_once_and_corners_need_a_photo():
    twice = run("-", "-", stdin=RULEBOOK.read_bytes())
    assert twice.exit_code == 2 and "only once" in twice.stderr
    corners = run("--corners", "1,1,90,1,90,90,1,90", "-", stdin=RULEBOOK.read_bytes())
    assert corners.exit_code == 2 and "<stdin> is a grid file" in corners.stderr


# -- --quiet ---------------------------------------------------------------------------------
def test_quiet_prints_totals_and_failures_only(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("nonsense\n")
    photo = SAMPLES / "board_08.jpg"  # with spaces to review
    table = tmp_path / "night.csv"
    result = run("--quiet", "--csv", table, RULEBOOK, bad, photo)
    assert result.exit_code == 1
    review = len(json.loads(run("--json", photo).stdout)["review"])
    assert review > 0
    assert result.stdout.splitlines() == [
        f"{RULEBOOK}: 46", f"{photo}: {_expected(photo)} ({review} to review)"]
    assert result.stderr.splitlines() == [f"{bad}, line 1: row 0 has 1 tokens, expected 7"]
    assert table.exists()  # output files are still written
    saved = tmp_path / "saved.txt"
    one = run("-q", "--save-grid", saved, RULEBOOK)
    assert one.exit_code == 0 and one.stdout == f"{RULEBOOK}: 46\n" and saved.exists()


# -- --version -------------------------------------------------------------------------------
def test_version_names_the_installed_package():
    version = importlib.metadata.version("railroad-ink-scorer")
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and result.output == f"rink, version {version}\n"
    done = subprocess.run([sys.executable, "-m", "rink", "--version"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == f"rink, version {version}\n"
