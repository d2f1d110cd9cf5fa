"""What scoring a board produces: the score sheet, its Errors and its illegal drawings."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.board import Position
from scoring.exits import Exit
from scoring.sides import KIND_WORDS, Side


def place_words(row: int, col: int, side: Side | None = None) -> str:
    """A place a player can find on the board: 'row 2, column 5, east side'."""
    words = f"row {row}, column {col}"
    return f"{words}, {side.word} side" if side is not None else words


def kind_word(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


@dataclass(frozen=True)
class ErrorEnd:
    """One Error: a route end on ``side`` of space (row, col) that meets nothing it can join."""

    row: int
    col: int
    side: Side
    kind: str
    reason: str
    """What the end meets, e.g. 'meets a blank side'."""

    @property
    def words(self) -> str:
        return f"{place_words(self.row, self.col, self.side)}: {kind_word(self.kind)} end {self.reason}"

    def to_json(self) -> dict:
        return {"row": self.row, "col": self.col, "side": self.side.name,
                "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True)
class Place:
    """A space, optionally one of its sides."""

    row: int
    col: int
    side: Side | None = None

    @property
    def words(self) -> str:
        return place_words(self.row, self.col, self.side)

    def to_json(self) -> dict:
        data: dict = {"row": self.row, "col": self.col}
        if self.side is not None:
            data["side"] = self.side.name
        return data


@dataclass(frozen=True)
class Illegal:
    """A drawing that breaks the drawing rules (still scored as drawn)."""

    code: str
    """Short identifier, e.g. 'mixed-ends', 'wrong-exit', 'too-many-specials', 'special-twice'."""
    message: str
    places: tuple[Place, ...]

    @property
    def words(self) -> str:
        where = "; ".join(place.words for place in self.places)
        return f"{where}: {self.message}" if where else self.message

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message,
                "places": [place.to_json() for place in self.places]}


NETWORK_VALUES = (0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45)
"""Points for a network by its number of Exits (index = Exits, 0-12)."""


def network_points(exits: int) -> int:
    return NETWORK_VALUES[min(exits, len(NETWORK_VALUES) - 1)]


@dataclass(frozen=True)
class NetworkResult:
    """One network that reaches at least one Exit."""

    exits: tuple[Exit, ...]
    points: int
    pieces: tuple[tuple[int, int, int], ...] = ()
    """The pieces it is made of: (row, column, index of the piece in its space)."""

    @property
    def exit_count(self) -> int:
        return len(self.exits)


@dataclass
class ScoreSheet:
    """A scored board, laid out like the board's scoring table."""

    networks: list[NetworkResult]
    """Every network that reaches an Exit (one-Exit networks score 0 and are listed here)."""
    highway: int
    railway: int
    center: int
    errors: list[ErrorEnd]
    illegal: list[Illegal] = field(default_factory=list)
    highway_route: tuple[Position, ...] = ()
    """The spaces of one Longest Highway, in path order."""
    railway_route: tuple[Position, ...] = ()
    expansions: dict[str, int] = field(default_factory=dict)
    """Expansion name -> its points."""
    expansion_lines: dict[str, str] = field(default_factory=dict)
    """Expansion name -> its score-sheet line (how the points were made)."""
    notes: list[str] = field(default_factory=list)
    """Remarks on the board that change no points, e.g. expansions that no box plays together."""

    @property
    def exits_points(self) -> int:
        return sum(network.points for network in self.networks)

    @property
    def error_count(self) -> int:
        return len(self.errors)

    @property
    def total(self) -> int:
        return (self.exits_points + self.highway + self.railway + self.center
                - self.error_count + sum(self.expansions.values()))

    @property
    def scoring_networks(self) -> list[NetworkResult]:
        """The networks that score points (2 or more Exits)."""
        return [network for network in self.networks if network.points > 0]

    def to_json(self) -> dict:
        """The ``score`` object of board-spec 4.3, plus ``notes`` when there are any."""
        data = {
            "networks": [network.exit_count for network in self.scoring_networks],
            "exits": self.exits_points,
            "highway": self.highway,
            "railway": self.railway,
            "center": self.center,
            "errors": self.error_count,
            "expansions": dict(self.expansions),
            "total": self.total,
        }
        if self.notes:
            data["notes"] = list(self.notes)
        return data
