"""What scoring one input gave: the board, its score sheet, the spaces to review, or why it
could not be scored. Plain data, so worker processes hand it back cheaply."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.board import Board
from scoring.results import ScoreSheet
from vision.review import ReviewEntry


@dataclass
class CorrectedSpace:
    """A space overruled by hand (``--set``): its new token and what was read before."""

    row: int
    col: int
    token: str
    was: str


@dataclass
class SeenExpansion:
    """An expansion a photo shows (``vision.water_sighting.ExpansionSighting``): its name, the
    spaces that show it, why in words, and whether the board was scored with it (not when
    ``--expansion`` names others)."""

    name: str
    spaces: tuple[tuple[int, int], ...]
    reason: str
    scored: bool = True

    @classmethod
    def of(cls, sighting, scored: bool = True) -> SeenExpansion:
        """From a sighting (anything with ``name``, ``spaces``, ``reason``)."""
        return cls(sighting.name, tuple((int(r), int(c)) for r, c in sighting.spaces),
                   sighting.reason, scored)

    def to_json(self) -> dict:
        return {"name": self.name, "spaces": [list(rc) for rc in self.spaces],
                "reason": self.reason, "scored": self.scored}


@dataclass
class BoardResult:
    """The outcome for one input: a score sheet, or the reason it could not be scored.

    Plain data (no photo arrays), so worker processes hand it back cheaply.
    """

    source: str
    kind: str
    board: Board | None = None
    sheet: ScoreSheet | None = None
    review: list[ReviewEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    corrected: list[CorrectedSpace] = field(default_factory=list)
    error: str = ""
    """One line naming the file, when the input could not be scored."""
    annotated: str = ""
    """Path of the annotated picture written for a photo (``--annotate``)."""
    write_errors: list[str] = field(default_factory=list)
    """Output files for this input that could not be written (one line each, naming it)."""
    expansions_seen: list[SeenExpansion] | None = None
    """Photos: the expansions the photo shows (a list, maybe empty); None for grid files."""

    @property
    def ok(self) -> bool:
        return not self.error and self.sheet is not None

    @property
    def total(self) -> int:
        """The board's total (only for a scored input)."""
        assert self.sheet is not None
        return self.sheet.total

    @property
    def error_count(self) -> int:
        """How many Errors the board has (only for a scored input)."""
        assert self.sheet is not None
        return self.sheet.error_count

    def to_json(self) -> dict:
        """The board-spec 4.3 object for this input (plus a few extra keys)."""
        if not self.ok:
            data: dict = {"source": self.source, "ok": False, "error": self.error}
            if self.review:
                data["review"] = [entry.to_json() for entry in self.review]
            return data
        sheet, board = self.sheet, self.board
        assert sheet is not None and board is not None
        data = {
            "source": self.source,
            "ok": True,
            "grid": [" ".join(row) for row in board.tokens],
            "score": sheet.to_json(),
            "illegal": [dict(i.to_json(), text=i.words) for i in sheet.illegal],
            "review": [entry.to_json() for entry in self.review],
            "kind": self.kind,
            "error_ends": [dict(e.to_json(), text=e.words) for e in sheet.errors],
            "corrected": [vars(c) for c in self.corrected],
        }
        if board.extras:
            data["extras"] = [f"{key}: {value}" for key, value in board.extras]
        if sheet.expansion_lines:
            data["expansion_lines"] = dict(sheet.expansion_lines)
        if self.warnings:
            data["warnings"] = self.warnings
        if self.annotated:
            data["annotated"] = self.annotated
        if self.expansions_seen is not None:
            data["expansions_seen"] = [seen.to_json() for seen in self.expansions_seen]
        return data
