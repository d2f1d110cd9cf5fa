"""Random boards full of expansion drawings and key lines: every expansion scores them, the
sheet's parts are consistent with the board, scoring is repeatable, and a half turn (key
lines turned too) changes nothing where the rules are symmetric."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.board import Board, format_grid, parse_grid
from scoring.engine import CENTRAL, score
from scoring.expansions.investigation import clues
from scoring.expansions.street_lamps import lamps
from scoring.expansions.tentacle import tentacles
from scoring.registry import REGISTRY
from scoring.results import ScoreSheet, network_points
from scoring.sides import HIGHWAY, RAILWAY
from scoring.space import TokenError, parse_token

SIDE = st.sampled_from("HRWL__")
ALL_MARKERS = ["!", "?", "*", "#", "@A", "@B", "@D"]
SYMMETRIC_MARKERS = ["!", "?", "*"]
"""Markers whose rules do not depend on reading order (Portals link the first two of a
letter, the Accumulator is the first '#'), for the half-turn test."""
POSITION = st.tuples(st.integers(0, 6), st.integers(0, 6)).map(lambda p: f"{p[0]},{p[1]}")
EDGE = st.tuples(st.sampled_from("NESW"), st.integers(0, 6)).map(lambda p: f"{p[0]}{p[1]}")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tokens(draw, markers: list[str]) -> str:
    pieces = draw(st.lists(st.text(SIDE, min_size=4, max_size=4), min_size=0, max_size=2))
    body = "+".join(pieces) or "."
    token = body + "".join(draw(st.lists(st.sampled_from(markers), max_size=2)))
    try:
        parse_token(token)
    except TokenError:
        return "."
    return token


@st.composite
def boards(draw, markers: list[str] = ALL_MARKERS) -> Board:
    rows = [[draw(tokens(markers)) for _ in range(7)] for _ in range(7)]
    if markers is SYMMETRIC_MARKERS and draw(st.booleans()):
        rows[3][3] = ".#"  # the Accumulator, in the centre that a half turn keeps
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
    return parse_grid("\n".join([" ".join(row) for row in rows] + lines))


def half_turned(board: Board) -> Board:
    """The board turned 180 degrees, its key lines' places turned with it."""
    def place(item: str) -> str:
        if "," in item:
            row, col = item.split(",")
            return f"{6 - int(row)},{6 - int(col)}"
        return "SWNE"["NESW".index(item[0])] + str(6 - int(item[1:]))

    extras = tuple(
        (key, value if key == "expansion" or key == "charges"
         else " ".join(place(item) for item in value.split()))
        for key, value in board.extras
    )
    return Board(board.turned(2).spaces, extras)


def assert_consistent(board: Board, sheet: ScoreSheet) -> None:
    """What any sheet must say about the board it scored."""
    data = sheet.to_json()
    parts = data["exits"] + data["highway"] + data["railway"] + data["center"] - data["errors"]
    assert data["total"] == parts + sum(data["expansions"].values())
    assert set(data["expansions"]) == set(REGISTRY)
    # networks: each Exit in one network at most, points from the Network Values table
    exits = [e.index for network in sheet.networks for e in network.exits]
    assert len(exits) == len(set(exits)) <= 12
    assert data["exits"] == sum(network_points(n.exit_count) for n in sheet.networks)
    # a Longest Route lists distinct spaces, each with an end of its kind
    for kind, route, length in ((HIGHWAY, sheet.highway_route, sheet.highway),
                                (RAILWAY, sheet.railway_route, sheet.railway)):
        assert len(route) == length == len(set(route))
        assert all(any(kind in p.kinds for p in board[position].pieces) for position in route)
    drawn = sum(not board[position].is_empty for position in CENTRAL)
    assert drawn <= data["center"] <= 9
    # every Error is a real end, every illegal place is on the board
    for error in sheet.errors:
        assert board[error.row, error.col].kind_at(error.side) == error.kind
    for illegal in sheet.illegal:
        assert illegal.code and illegal.message
        assert all(0 <= p.row < 7 and 0 <= p.col < 7 for p in illegal.places)
    # expansion points within what is drawn
    points = sheet.expansions
    assert 0 <= points["street-lamps"] <= len(lamps(board))
    assert 0 <= points["investigation"] <= len(clues(board)) + 4
    drawn_tentacles = len(tentacles(board))
    assert 2 * drawn_tentacles <= points["tentacle"] <= 2 * drawn_tentacles + 49
    assert points["portal"] == 0
    assert 0 <= points["lake"] <= 49 and 0 <= points["river"] <= 49 + 3
    charges = int(board.extra("charges") or 0)
    assert points["power-grid"] % max(charges, 1) == 0 and points["power-grid"] <= 12 * charges
    assert parse_grid(format_grid(board)) == board


@SETTINGS
@given(boards())
def test_every_expansion_scores_any_board_consistently(board: Board) -> None:
    sheet = score(board)
    assert_consistent(board, sheet)
    again = score(board)
    assert again.to_json() == sheet.to_json()
    assert again.illegal == sheet.illegal and again.errors == sheet.errors


@SETTINGS
@given(boards(SYMMETRIC_MARKERS))
def test_a_half_turn_with_its_key_lines_changes_no_score(board: Board) -> None:
    sheet, turned = score(board), score(half_turned(board))
    assert_consistent(half_turned(board), turned)
    assert turned.to_json() == sheet.to_json()
    assert sorted(i.code for i in turned.illegal) == sorted(i.code for i in sheet.illegal)
    assert len(turned.errors) == len(sheet.errors)


def test_half_turned_turns_every_key_line_place() -> None:
    board = parse_grid("\n".join([". . . . . . ."] * 7 + [
        "expansion: ritual", "edge portals: N2 W0 E6 S4", "tentacle: 0,0 0,1",
        "investigator: 6,5", "charges: 2"]))
    assert half_turned(board).extras == (
        ("expansion", "ritual"), ("edge portals", "S4 E6 W0 N2"), ("tentacle", "6,6 6,5"),
        ("investigator", "0,1"), ("charges", "2"))
