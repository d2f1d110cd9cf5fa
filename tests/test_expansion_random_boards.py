"""Random boards full of expansion drawings and key lines never crash any expansion."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.board import Board, format_grid, parse_grid
from scoring.engine import score
from scoring.registry import REGISTRY
from scoring.space import TokenError, parse_token

SIDE = st.sampled_from("HRWL__")
MARKERS = st.lists(st.sampled_from(["!", "?", "*", "#", "@A", "@B", "@D"]), max_size=2)
POSITION = st.tuples(st.integers(0, 6), st.integers(0, 6)).map(lambda p: f"{p[0]},{p[1]}")
EDGE = st.tuples(st.sampled_from("NESW"), st.integers(0, 6)).map(lambda p: f"{p[0]}{p[1]}")


@st.composite
def tokens(draw) -> str:
    pieces = draw(st.lists(st.text(SIDE, min_size=4, max_size=4), min_size=0, max_size=2))
    body = "+".join(pieces) or "."
    token = body + "".join(draw(MARKERS))
    try:
        parse_token(token)
    except TokenError:
        return "."
    return token


@st.composite
def boards(draw) -> Board:
    rows = [" ".join(draw(tokens()) for _ in range(7)) for _ in range(7)]
    lines = ["expansion: " + ", ".join(REGISTRY)]
    positions = st.lists(POSITION, max_size=6).map(" ".join)
    for _ in range(draw(st.integers(0, 3))):
        lines.append("tentacle: " + draw(st.lists(POSITION, min_size=1, max_size=6).map(" ".join)))
    lines.append("edge portals: " + draw(st.lists(EDGE, max_size=4).map(" ".join)))
    lines.append("investigator: " + draw(POSITION))
    lines.append("clues collected: " + draw(positions))
    lines.append("lamps activated: " + draw(positions))
    lines.append("electrified: " + draw(positions))
    lines.append(f"charges: {draw(st.integers(0, 3))}")
    return parse_grid("\n".join(rows + lines))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_every_expansion_scores_any_board(board: Board) -> None:
    sheet = score(board)
    assert set(sheet.expansions) == set(REGISTRY)
    assert all(points >= 0 for points in sheet.expansions.values())
    assert isinstance(sheet.total, int)
    assert parse_grid(format_grid(board)) == board
