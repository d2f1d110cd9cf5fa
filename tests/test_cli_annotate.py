"""--annotate (F5): every picture is written where asked, or the run says why and exits 1."""

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rink.cli import main

SAMPLES = Path(__file__).parent.parent / "sample_photos"


def run(*args: str):
    return CliRunner().invoke(main, ["score", *map(str, args)])


def test_two_photos_with_one_name_get_two_pictures(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(SAMPLES / "board_01.jpg", tmp_path / "a" / "x.jpg")
    shutil.copy(SAMPLES / "board_11.jpg", tmp_path / "b" / "x.jpg")
    (tmp_path / "x-2.png").write_bytes(b"")  # a third photo whose own name is x-2: not scored,
    pictures = tmp_path / "pictures"         # but its name must not be taken by the second x
    result = run("--json", "--annotate", pictures, tmp_path / "a" / "x.jpg",
                 tmp_path / "b" / "x.jpg", tmp_path / "x-2.png")
    assert result.exit_code == 1  # x-2.png is empty
    first, second, third = (json.loads(line) for line in result.stdout.splitlines())
    assert first["annotated"] == str(pictures / "x.rink.png")
    assert second["annotated"] == str(pictures / "x-3.rink.png")
    assert third["ok"] is False
    written = sorted(pictures.iterdir())
    assert [p.name for p in written] == ["x-3.rink.png", "x.rink.png"]
    assert written[0].read_bytes() != written[1].read_bytes()
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in written)


def test_annotating_into_a_file_is_an_error_on_stderr(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("not a folder\n")
    result = run("--annotate", target, SAMPLES / "board_01.jpg")
    assert result.exit_code == 1
    assert "TOTAL" in result.stdout and "Note" not in result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith(f"{SAMPLES / 'board_01.jpg'}: annotated picture not written")
    assert str(target) in line
    assert target.read_text() == "not a folder\n"


def test_annotating_into_an_unwritable_folder_is_an_error_on_stderr():
    result = run("--json", "--annotate", "/proc", SAMPLES / "board_01.jpg")  # no one writes here
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is True and "annotated" not in data
    [line] = result.stderr.splitlines()
    assert line.startswith(f"{SAMPLES / 'board_01.jpg'}: annotated picture not written")


def test_an_existing_picture_is_kept_without_force(tmp_path):
    photo = SAMPLES / "board_01.jpg"
    assert run("--annotate", tmp_path, photo).exit_code == 0
    picture = tmp_path / "board_01.rink.png"
    picture.write_bytes(b"mine")
    result = run("--annotate", tmp_path, photo)
    assert result.exit_code == 1 and "already exists" in result.stderr
    assert picture.read_bytes() == b"mine"
    assert run("--annotate", tmp_path, "--force", photo).exit_code == 0
    assert picture.read_bytes()[:4] == b"\x89PNG"
