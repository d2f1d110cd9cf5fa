"""Ranking a batch of boards, and the CSV with one row per board and its full breakdown.

Ranking follows the rulebook: the highest total wins; on a tie, fewer Errors wins; if still
tied the rank is shared.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.quote import one_line

if TYPE_CHECKING:
    from rink.results import BoardResult


@dataclass(frozen=True)
class Standing:
    rank: int
    result: BoardResult


def _key(result: BoardResult) -> tuple[int, int]:
    return -result.total, result.error_count


def rank(results: list[BoardResult]) -> list[Standing]:
    """Scored boards ranked by total (high first), then Errors (few first); ties share a rank."""
    ordered = sorted((r for r in results if r.ok), key=_key)  # stable: input order if equal
    standings: list[Standing] = []
    for position, result in enumerate(ordered, start=1):
        if standings and _key(standings[-1].result) == _key(result):
            standings.append(Standing(standings[-1].rank, result))
        else:
            standings.append(Standing(position, result))
    return standings


def format_leaderboard(standings: list[Standing]) -> str:
    lines = ["Leaderboard (total, then fewer Errors; ties share a rank)"]
    names = [one_line(s.result.source) for s in standings]
    width = max((len(name) for name in names), default=10)
    for standing, name in zip(standings, names):
        errors = standing.result.error_count
        lines.append(f"  {standing.rank:>3}.  {name:<{width}}  "
                     f"{standing.result.total:>4} points  {errors:>2} "
                     f"Error{'' if errors == 1 else 's'}")
    return "\n".join(lines)


CSV_FIELDS = ["rank", "source", "ok", "total", "networks", "exits", "highway", "railway",
              "center", "errors", "expansions", "illegal", "review", "corrected", "error"]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, CSV injection)."""


def _cell(value: object) -> object:
    """A text cell that would start a formula gets a leading ``'`` (numbers are left as they
    are: they are written as numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_row(result: BoardResult, rank_of: dict[int, int]) -> dict:
    row: dict = {"source": result.source, "ok": result.ok, "error": result.error}
    if result.ok:
        sheet = result.sheet
        assert sheet is not None
        row.update(
            rank=rank_of[id(result)], total=sheet.total,
            networks=" ".join(str(n.exit_count) for n in sheet.scoring_networks),
            exits=sheet.exits_points, highway=sheet.highway, railway=sheet.railway,
            center=sheet.center, errors=sheet.error_count,
            expansions=" ".join(f"{name}={points}" for name, points in sheet.expansions.items()),
            illegal=len(sheet.illegal), review=len(result.review),
            corrected=" ".join(f"{c.row},{c.col}={c.token}" for c in result.corrected),
        )
    return row


def leaderboard_csv(results: list[BoardResult]) -> str:
    """CSV text: one row per input in input order, with its rank and full breakdown; no text
    cell starts a spreadsheet formula."""
    rank_of = {id(s.result): s.rank for s in rank(results)}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        writer.writerow({key: _cell(value) for key, value in _csv_row(result, rank_of).items()})
    return out.getvalue()
