"""``rink score`` with expansions: the expansion's own line, JSON, and bad expansion input."""

import json
from pathlib import Path

from click.testing import CliRunner

from rink.cli import main

BOARDS = Path(__file__).parent / "boards" / "expansions"
EMPTY_ROWS = "\n".join([". . . . . . ."] * 7) + "\n"


def rink(*args: str):
    return CliRunner().invoke(main, ["score", *args])


def json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_expansion_named_in_the_file_gets_its_own_sheet_line() -> None:
    result = rink(str(BOARDS / "river_rulebook.txt"))
    assert result.exit_code == 0
    assert "river" in result.output and "+8" in result.output
    assert "best River 5 spaces + 3 for both ends at the edge" in result.output


def test_json_lists_every_rulebook_example_under_expansions() -> None:
    files = sorted(BOARDS.glob("*.txt"))
    result = rink("--json", *map(str, files))
    assert result.exit_code == 0
    points = {Path(r["source"]).name: r["score"]["expansions"] for r in json_lines(result.output)}
    assert points == {
        "investigation_example.txt": {"investigation": 7},
        "lake_rulebook.txt": {"lake": 3},
        "portal_rulebook.txt": {"portal": 0},
        "power_grid_rulebook.txt": {"power-grid": 10},
        "ritual_rulebook.txt": {"ritual": 24},
        "river_rulebook.txt": {"river": 8},
        "street_lamps_rulebook.txt": {"street-lamps": 3},
        "tentacle_rulebook.txt": {"tentacle": 15},
    }


def test_expansion_option_adds_an_expansion(tmp_path: Path) -> None:
    grid = tmp_path / "lamps.txt"
    text = (BOARDS / "street_lamps_rulebook.txt").read_text()
    grid.write_text(text.replace("expansion: street-lamps\n", ""))
    plain = json_lines(rink("--json", str(grid)).output)[0]
    assert plain["score"]["expansions"] == {}
    assert [i["code"] for i in plain["illegal"]] == ["undeclared-expansion"]
    added = json_lines(rink("--json", "--expansion", "street-lamps", str(grid)).output)[0]
    assert added["score"]["expansions"] == {"street-lamps": 3}
    assert added["score"]["total"] == plain["score"]["total"] + 3
    assert added["illegal"] == []


def test_expansion_illegal_drawings_join_the_illegal_list(tmp_path: Path) -> None:
    grid = tmp_path / "tentacle.txt"
    grid.write_text(EMPTY_ROWS + "expansion: tentacle\ntentacle: 3,3 3,4\n")
    record = json_lines(rink("--json", str(grid)).output)[0]
    assert record["ok"] is True
    assert sorted(i["code"] for i in record["illegal"]) == ["tentacle-length", "tentacle-start"]


def test_bad_key_line_fails_that_input_only(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(EMPTY_ROWS + "expansion: power-grid\ncharges: 9\n")
    result = rink("--json", str(bad), str(BOARDS / "lake_rulebook.txt"))
    assert result.exit_code == 1
    first, second = json_lines(result.output)
    assert first == {"source": str(bad), "ok": False, "error": (
        f"{bad}: bad key line 'charges: 9': expected a whole number from 0 to 3")}
    assert second["ok"] is True


def test_unknown_expansion_in_the_file_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(EMPTY_ROWS + "expansion: volcano\n")
    result = rink(str(bad))
    assert result.exit_code == 1
    assert "unknown expansion 'volcano'" in result.output
    assert "Traceback" not in result.output
