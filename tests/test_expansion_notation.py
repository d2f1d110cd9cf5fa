"""Expansion notation: side letters, markers, key lines, and the examples in docs/NOTATION.md."""

import re
from pathlib import Path

import pytest

from scoring.board import Board, GridError, format_grid, parse_grid, read_grid_file
from scoring.engine import score
from scoring.registry import check_key_lines
from scoring.sides import Side
from scoring.space import TokenError, format_space, parse_token

ROOT = Path(__file__).parent.parent
BOARDS = Path(__file__).parent / "boards" / "expansions"
EMPTY_ROWS = "\n".join([". . . . . . ."] * 7)


@pytest.mark.parametrize("token", [
    "W_W_", "WW__", "H_H_+_W_W", "_R_R+W_W_", "L___", "LL__", "LLL_", "LLLL", "L_R_", "_H_L",
    "LLHR", "R___@A", "_H__@B", "H_H_!", ".!", "H_H_?", "HRHRo?", "H_H_*", "HHHH*",
    "H_H_+_H_H*", "HH__+__HH*", ".#", "H___@A!",
])
def test_expansion_tokens_round_trip(token: str) -> None:
    space = parse_token(token)
    assert parse_token(format_space(space)) == space


def test_bridge_and_double_pieces_do_not_connect() -> None:
    bridge = parse_token("H_H_+_W_W")
    assert len(bridge.pieces) == 2
    assert bridge.kind_at(Side.N) == "H" and bridge.kind_at(Side.E) == "W"
    assert bridge.piece_at(Side.N) != bridge.piece_at(Side.E)
    double_curve = parse_token("HH__+__HH*")
    assert double_curve.markers == "*"
    assert double_curve.piece_at(Side.N) != double_curve.piece_at(Side.S)


def test_portal_marker_keeps_its_letter_and_the_pier_is_one_piece() -> None:
    portal = parse_token("R___@A")
    assert portal.markers == "@A" and portal.pieces[0].sides == (Side.N,)
    pier = parse_token("LLHR")
    assert len(pier.pieces) == 1 and pier.pieces[0].kinds == ("L", "L", "H", "R")


@pytest.mark.parametrize("token, words", [
    ("H___@", "needs a capital letter"),
    ("H_X_", "unknown side letter 'X'"),
    ("L___+L___", "same side"),
])
def test_bad_expansion_tokens_say_why(token: str, words: str) -> None:
    with pytest.raises(TokenError, match=words):
        parse_token(token)


def test_bad_token_in_a_grid_names_the_line_and_column() -> None:
    rows = EMPTY_ROWS.splitlines()
    rows[2] = ". . . H___@ . . ."
    with pytest.raises(GridError, match=r"<text>, line 3: column 3: 'H___@'"):
        parse_grid("\n".join(rows))


def test_key_lines_with_words_are_read_in_order() -> None:
    board = parse_grid(EMPTY_ROWS + "\nexpansion: ritual\nedge portals: N2 W4\ncharges: 2\n")
    assert board.extras == (("expansion", "ritual"), ("edge portals", "N2 W4"), ("charges", "2"))
    assert parse_grid(format_grid(board)) == board


@pytest.mark.parametrize("line, words", [
    ("tentacle: 0,2 1,x", "bad key line 'tentacle: 0,2 1,x': '1,x' is not a space"),
    ("tentacle: 0,7", "'0,7' is not a space"),
    ("tentacle:", "no spaces listed"),
    ("edge portals: N9", "'N9' is not an edge place"),
    ("charges: 4", "bad key line 'charges: 4': expected a whole number from 0 to 3"),
    ("charges: two", "expected a whole number"),
    ("electrified: 1;3", "'1;3' is not a space"),
    ("lamps activated: 7,7", "'7,7' is not a space"),
    ("clues collected: a", "'a' is not a space"),
    ("investigator: N0", "there is no Exit at N0"),
    ("investigator: middle", "expected a space 'row,col' or an Exit place"),
    ("expansion: rivers", "unknown expansion 'rivers'"),
    ("colour: blue", "unknown key line 'colour: blue'"),
])
def test_bad_key_lines_are_grid_errors_quoting_the_line(line: str, words: str) -> None:
    board = parse_grid(EMPTY_ROWS + "\n" + line + "\n", "b.txt")
    with pytest.raises(GridError, match=re.escape(words)) as caught:
        check_key_lines(board, "b.txt")
    assert str(caught.value).startswith("b.txt: ")


def test_a_key_given_twice_is_an_error_but_tentacles_repeat() -> None:
    twice = parse_grid(EMPTY_ROWS + "\ncharges: 1\ncharges: 2\n")
    with pytest.raises(GridError, match="'charges' is given twice"):
        check_key_lines(twice)
    tentacles = parse_grid(EMPTY_ROWS + "\ntentacle: 0,0 0,1 0,2\ntentacle: 6,6 5,6 4,6\n")
    check_key_lines(tentacles)


def test_scoring_a_bad_key_line_is_a_grid_error_not_a_crash() -> None:
    board = parse_grid(EMPTY_ROWS + "\nexpansion: tentacle\ntentacle: 0,0 9,9\n")
    with pytest.raises(GridError, match="'9,9' is not a space"):
        score(board, source="t.txt")


def test_unknown_expansion_name_from_the_command_line_is_a_grid_error() -> None:
    with pytest.raises(GridError, match="unknown expansion 'lakes'"):
        score(Board.empty(), ["lakes"], source="t.txt")


def test_turning_a_board_keeps_markers() -> None:
    board = read_grid_file(BOARDS / "portal_rulebook.txt")
    turned = board.turned(2)
    assert turned[5, 2].markers == "@A" and turned[5, 2].pieces[0].sides == (Side.E,)


def _notation_examples() -> list[str]:
    """The fenced blocks without a language tag (the example boards) in docs/NOTATION.md."""
    blocks, current, tag = [], [], None
    for line in (ROOT / "docs" / "NOTATION.md").read_text().splitlines():
        if line.startswith("```"):
            if tag is None:
                tag, current = line[3:], []
            else:
                if not tag:
                    blocks.append("\n".join(current))
                tag = None
        elif tag is not None:
            current.append(line)
    return blocks


def test_every_notation_example_is_a_test_board() -> None:
    """docs/NOTATION.md shows exactly the boards that the rulebook tests score."""
    documented = [parse_grid(block) for block in _notation_examples()]
    files = [read_grid_file(path) for path in sorted(BOARDS.glob("*_rulebook.txt"))]
    files.append(read_grid_file(BOARDS / "investigation_example.txt"))
    assert len(documented) == 8
    assert sorted(map(format_grid, documented)) == sorted(map(format_grid, files))
