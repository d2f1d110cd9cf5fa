"""Property tests: turning the board, printing/parsing, and any board at all."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.board import Board, format_grid, parse_grid
from scoring.engine import score
from scoring.space import parse_token

KINDS = "HRWL"
MARKERS = ["", "", "", "!", "?", "*", "#", "@A", "@C"]


@st.composite
def tokens(draw) -> str:
    """Any space: empty, one piece, an overpass, or two unconnected pieces, maybe a marker."""
    shape = draw(st.sampled_from(["empty", "piece", "piece", "piece", "overpass", "two"]))
    marker = draw(st.sampled_from(MARKERS))
    if shape == "empty":
        return "." + marker if marker else "."
    if shape == "overpass":
        return draw(st.sampled_from(["HRHRo", "RHRHo"])) + marker
    sides = draw(st.lists(st.sampled_from(KINDS + "_"), min_size=4, max_size=4))
    if shape == "piece":
        if sides == ["_"] * 4:
            sides[draw(st.integers(0, 3))] = draw(st.sampled_from(KINDS))
        return "".join(sides) + marker
    groups = draw(st.lists(st.integers(0, 1), min_size=4, max_size=4))
    codes = []
    for group in (0, 1):
        code = "".join(k if g == group else "_" for k, g in zip(sides, groups))
        if code != "____":
            codes.append(code)
    return "+".join(codes or ["H___"]) + marker


boards = st.lists(st.lists(tokens(), min_size=7, max_size=7), min_size=7, max_size=7).map(
    Board.from_tokens)
base_tokens = st.sampled_from(
    [".", ".", ".", "H_H_", "HH__", "HHH_", "R_R_", "RR__", "RRR_", "HRHRo", "H_R_", "HR__",
     "H__R", "HHHH", "RRRR", "HHRH", "HRRR", "HHRR", "HRHR"]).map(
    lambda t: parse_token(t).turned(0))
base_boards = st.lists(st.lists(base_tokens, min_size=7, max_size=7), min_size=7,
                       max_size=7).map(lambda rows: Board(tuple(tuple(r) for r in rows)))


def unordered_networks(sheet: dict) -> dict:
    """A score sheet's JSON with its networks' Exit counts sorted."""
    return {**sheet, "networks": sorted(sheet["networks"])}


def turned_randomly(space, quarter):
    return space.turned(quarter)


@settings(max_examples=150, deadline=None)
@given(base_boards, st.lists(st.integers(0, 3), min_size=49, max_size=49))
def test_half_turn_leaves_the_score_unchanged(board, turns):
    # pieces are rotated at random first, so every orientation of every piece is covered
    rows = [[board[r, c].turned(turns[r * 7 + c]) for c in range(7)] for r in range(7)]
    board = Board(tuple(tuple(row) for row in rows))
    before, after = score(board), score(board.turned(2))
    # networks are listed by their first Exit clockwise, which a half turn moves: the same
    # networks, perhaps in another order
    assert unordered_networks(after.to_json()) == unordered_networks(before.to_json())
    assert sorted(i.code for i in after.illegal) == sorted(i.code for i in before.illegal)


@settings(max_examples=80, deadline=None)
@given(boards)
def test_printing_then_parsing_gives_the_same_board(board):
    assert parse_grid(format_grid(board)) == board


@settings(max_examples=80, deadline=None)
@given(boards)
def test_any_board_scores_without_crashing(board):
    sheet = score(board)
    data = sheet.to_json()
    assert data["total"] == (data["exits"] + data["highway"] + data["railway"] + data["center"]
                             - data["errors"])
    assert 0 <= data["center"] <= 9 and 0 <= data["highway"] <= 49
    for error in sheet.errors:
        assert board[error.row, error.col].kind_at(error.side) == error.kind
