"""Any file at all gives a score or one clean line naming the file - never an exception."""

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rink.batch import ScoreOptions, score_item
from rink.inputs import InputItem

PIECES = ["H_H_", "HRHRo", ".", "RRRR", "HHHH*", "H_H_+_W_W", "W_W_", "L___", "@A", "HXH_",
          "HRHR", "o", "+", "_", "H__", "expansion:", "river", "#", "tentacle: 0,1 1,1", "é",
          "\t", "HHHH@B", "R_R_!", "?", "ritual"]

lines = st.lists(st.sampled_from(PIECES), min_size=0, max_size=9).map(" ".join)
files = st.one_of(
    st.lists(lines, min_size=0, max_size=10).map("\n".join),
    st.text(max_size=200),
)


@settings(max_examples=120, deadline=None)
@given(files)
def test_any_text_scores_or_fails_with_one_line_naming_the_file(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.txt"
        path.write_text(text, encoding="utf-8")
        result = score_item(InputItem(str(path), "grid"), ScoreOptions())
    if result.ok:
        assert result.sheet is not None and len(result.board.tokens) == 7
    else:
        assert result.error.startswith(str(path)) and "\n" not in result.error


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_score_or_fail_cleanly(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.txt"
        path.write_bytes(data)
        result = score_item(InputItem(str(path), "grid"), ScoreOptions())
    assert result.ok or (result.error.startswith(str(path)) and "\n" not in result.error)
