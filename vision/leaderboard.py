"""Ranking a batch of boards, and the CSV with one row per board and its full breakdown.

Ranking follows the rulebook: the highest total wins; on a tie, fewer Errors wins; if still
tied the rank is shared.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from vision.batch import BoardResult


@dataclass(frozen=True)
class Standing:
    rank: int
    result: BoardResult


def rank(results: list[BoardResult]) -> list[Standing]:
    """Scored results ranked by total (high first), then Errors (few first); ties share a rank."""
    scored = [r for r in results if r.ok]
    key = lambda r: (-r.sheet.total, r.sheet.error_count)  # noqa: E731
    ordered = sorted(scored, key=key)  # stable: input order among equals
    standings = []
    for position, result in enumerate(ordered, start=1):
        if standings and key(standings[-1].result) == key(result):
            standings.append(Standing(standings[-1].rank, result))
        else:
            standings.append(Standing(position, result))
    return standings


def format_leaderboard(standings: list[Standing]) -> str:
    lines = ["Leaderboard (total, then fewer Errors; ties share a rank)"]
    width = max((len(s.result.source) for s in standings), default=10)
    for standing in standings:
        sheet = standing.result.sheet
        assert sheet is not None
        lines.append(f"  {standing.rank:>3}.  {standing.result.source:<{width}}  "
                     f"{sheet.total:>4} points  {sheet.error_count:>2} Errors")
    return "\n".join(lines)


CSV_FIELDS = ["rank", "source", "ok", "total", "networks", "exits", "highway", "railway",
              "center", "errors", "expansions", "illegal", "review", "corrected", "error"]


def leaderboard_csv(results: list[BoardResult]) -> str:
    """CSV text: one row per input in input order, with its rank and full breakdown."""
    ranks = {id(s.result): s.rank for s in rank(results)}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        row: dict = {"source": result.source, "ok": result.ok, "error": result.error}
        if result.ok:
            sheet = result.sheet
            assert sheet is not None
            score = sheet.to_json()
            row.update(
                rank=ranks[id(result)], total=sheet.total,
                networks=" ".join(str(n) for n in score["networks"]),
                exits=score["exits"], highway=sheet.highway, railway=sheet.railway,
                center=sheet.center, errors=sheet.error_count,
                expansions=" ".join(f"{k}={v}" for k, v in sheet.expansions.items()),
                illegal=len(sheet.illegal), review=len(result.review),
                corrected=" ".join(f"{c.row},{c.col}={c.token}" for c in result.corrected),
            )
        writer.writerow(row)
    return out.getvalue()
