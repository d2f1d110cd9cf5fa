"""Small boards for the expansion rule tests: a few spaces drawn, the rest empty."""

from scoring.board import Board, parse_grid
from scoring.engine import score
from scoring.results import ScoreSheet

Spaces = dict[tuple[int, int], str]


def board(spaces: Spaces, *lines: str) -> Board:
    """A board with ``spaces`` drawn (the rest empty) and key ``lines`` after the rows."""
    rows = [["."] * 7 for _ in range(7)]
    for (row, col), token in spaces.items():
        rows[row][col] = token
    return parse_grid("\n".join(" ".join(r) for r in rows + [[line] for line in lines]))


def scored(expansion: str, spaces: Spaces, *lines: str) -> ScoreSheet:
    """``board(spaces, *lines)`` scored with ``expansion`` declared on its key line."""
    return score(board(spaces, f"expansion: {expansion}", *lines))


def codes(sheet: ScoreSheet) -> list[str]:
    """The codes of the sheet's illegal drawings, in order."""
    return [illegal.code for illegal in sheet.illegal]
