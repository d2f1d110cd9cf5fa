"""Grid-file input that must not break, hang or flood: odd line separators in comments,
files that are not regular files, huge files and huge bad tokens."""

import io
import os
import stat
import threading
from pathlib import Path

import pytest

from scoring.board import (
    GRID_FILE_LIMIT,
    GridError,
    parse_grid,
    parse_grid_bytes,
    read_grid_file,
    read_grid_stream,
)
from scoring.engine import score

RULEBOOK = Path(__file__).parent / "boards" / "rulebook.txt"
ROWS = RULEBOOK.read_text()
MESSAGE_LIMIT = 300
"""No message should come near this (a path, a 40-character quote and words)."""


@pytest.mark.parametrize("separator", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                       "\u2029"])
def test_a_separator_inside_a_comment_is_part_of_the_comment(tmp_path, separator):
    path = tmp_path / "board.txt"
    path.write_text(f"# Alice{separator}round 7\n" + ROWS, encoding="utf-8")
    assert score(read_grid_file(path)).total == 46


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_end_at_newline_carriage_return_or_both(newline):
    text = newline.join(ROWS.splitlines())
    assert score(parse_grid_bytes(text.encode())).total == 46


def test_a_separator_between_tokens_is_whitespace():
    rows = ROWS.splitlines()
    rows[0] = rows[0].replace(" ", "\f", 1)
    assert score(parse_grid("\n".join(rows))).total == 46


def in_a_thread(function, *args, timeout: float = 5.0):
    """``function(*args)``'s exception (or None), failing the test when it does not end."""
    outcome: list = []

    def run() -> None:
        try:
            function(*args)
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    return thread, outcome


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "board.txt"
    os.mkfifo(fifo)
    thread, outcome = in_a_thread(read_grid_file, fifo)
    if thread.is_alive():  # let the stuck reader go: open the pipe for writing, then close it
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(5)
        pytest.fail("reading a named pipe hung")
    error = outcome[0]
    assert isinstance(error, GridError)
    assert str(error) == f"{fifo}: is a named pipe, not a regular file: a grid file is a text file"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused(device):
    if not os.path.exists(device) or not stat.S_ISCHR(os.stat(device).st_mode):
        pytest.skip(f"no {device} device here")
    with pytest.raises(GridError, match=f"^{device}: is a device, not a regular file"):
        read_grid_file(device)


def test_a_folder_and_a_missing_file_are_named(tmp_path):
    with pytest.raises(GridError, match="is a folder, not a grid file"):
        read_grid_file(tmp_path)
    with pytest.raises(GridError, match="no such file"):
        read_grid_file(tmp_path / "missing.txt")
    with pytest.raises(GridError, match="no such file"):
        read_grid_file(RULEBOOK / "inside-a-file.txt")


def test_a_grid_file_over_the_limit_is_refused_with_the_limit(tmp_path):
    path = tmp_path / "board.txt"
    padding = "# " + "x" * (GRID_FILE_LIMIT - len(ROWS.encode()) - 3) + "\n"
    path.write_text(padding + ROWS)
    assert path.stat().st_size == GRID_FILE_LIMIT
    assert score(read_grid_file(path)).total == 46  # at the limit: read
    path.write_text("#" + padding + ROWS)
    with pytest.raises(GridError, match=r"too large for a grid file \(the limit is 64 KiB\)"):
        read_grid_file(path)


def test_standard_input_has_the_same_limit_and_checks():
    assert score(read_grid_stream(io.BytesIO(ROWS.encode()))).total == 46
    endless = io.BytesIO(b"\x00" * (GRID_FILE_LIMIT * 4))
    with pytest.raises(GridError, match=r"^<stdin>: too large for a grid file"):
        read_grid_stream(endless)
    assert endless.tell() == GRID_FILE_LIMIT + 1  # read no further than needed to know
    with pytest.raises(GridError, match=r"^-: empty file"):
        read_grid_stream(io.BytesIO(b" \n"), "-")
    with pytest.raises(GridError, match="not UTF-8 text"):
        parse_grid_bytes(b"\xff" + ROWS.encode(), "-")


@pytest.mark.parametrize("bad", [
    "Q" * 5_000_000,             # a 5 MB bad token
    "H_H_" + "+H_H_" * 200_000,  # a 1 MB token of pieces that overlap
    "@" * 100_000,               # a marker without its letter
    "HHH" * 100_000 + "o",       # an overpass that is none
])
def test_a_huge_bad_token_is_quoted_short(bad):
    rows = ROWS.splitlines()
    rows[3] = bad + rows[3][rows[3].index(" "):]
    with pytest.raises(GridError) as error:
        parse_grid("\n".join(rows), "big.txt")
    message = str(error.value)
    assert message.startswith("big.txt, line 4: column 0: ")
    assert len(message) < MESSAGE_LIMIT and "…" in message


@pytest.mark.parametrize("line", [
    "charges: " + "9" * 100_000,
    "electrified: " + "1,1 " * 10 + "x" * 100_000,
    "investigator: " + "Q" * 100_000,
    "tentacle-" * 10_000 + ": 0,0",
    "not a key line " * 10_000,
])
def test_a_huge_bad_key_line_is_quoted_short(line):
    with pytest.raises(GridError) as error:
        score(parse_grid(ROWS + "expansion: power-grid, investigation\n" + line, "big.txt"))
    assert len(str(error.value)) < MESSAGE_LIMIT and "…" in str(error.value)


def test_a_long_run_of_markers_is_read_as_drawn():
    # markers are split off by index now, not by re-slicing the token once per marker
    rows = ROWS.splitlines()
    rows[3] = "." + "!" * 60_000 + rows[3][rows[3].index(" "):]
    board = parse_grid("\n".join(rows))
    assert len(board[2, 0].markers) == 60_000  # line 4 is row 2 (line 1 is a comment)


@pytest.mark.parametrize("line, why", [
    ("charges: ²", "expected a whole number from 0 to 3"),
    ("electrified: 1,²", "'1,²' is not a space"),
    ("investigator: W³", "expected a space 'row,col' or an Exit place"),
])
def test_digits_that_are_not_ascii_are_a_bad_key_line(line, why):
    with pytest.raises(GridError, match=why):
        score(parse_grid(ROWS + "expansion: power-grid, investigation\n" + line))


def test_a_file_name_with_a_newline_gives_a_one_line_message(tmp_path):
    path = tmp_path / "two\nlines.txt"
    path.write_text("nothing like a grid\n")
    with pytest.raises(GridError) as error:
        read_grid_file(path)
    assert "\n" not in str(error.value) and "two\\nlines.txt" in str(error.value)
