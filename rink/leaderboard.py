"""Ranking a batch of boards, and the CSV with one row per board and its full breakdown.

Ranking follows the rulebook: the highest total wins; on a tie, fewer Errors wins; if still
tied the rank is shared.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from rink.batch import Outcome


@dataclass(frozen=True)
class Standing:
    rank: int
    outcome: Outcome


def _key(outcome: Outcome) -> tuple[int, int]:
    return -outcome.total, outcome.error_count


def rank(outcomes: list[Outcome]) -> list[Standing]:
    """Scored boards ranked by total (high first), then Errors (few first); ties share a rank."""
    ordered = sorted((o for o in outcomes if o.ok), key=_key)  # stable: input order if equal
    standings: list[Standing] = []
    for position, outcome in enumerate(ordered, start=1):
        if standings and _key(standings[-1].outcome) == _key(outcome):
            standings.append(Standing(standings[-1].rank, outcome))
        else:
            standings.append(Standing(position, outcome))
    return standings


def format_leaderboard(standings: list[Standing]) -> str:
    lines = ["Leaderboard (total, then fewer Errors; ties share a rank)"]
    width = max((len(s.outcome.source) for s in standings), default=10)
    for standing in standings:
        errors = standing.outcome.error_count
        lines.append(f"  {standing.rank:>3}.  {standing.outcome.source:<{width}}  "
                     f"{standing.outcome.total:>4} points  {errors:>2} "
                     f"Error{'' if errors == 1 else 's'}")
    return "\n".join(lines)


CSV_FIELDS = ["rank", "source", "ok", "total", "networks", "exits", "highway", "railway",
              "center", "errors", "expansions", "illegal", "review", "corrected", "error"]


def leaderboard_csv(outcomes: list[Outcome]) -> str:
    """CSV text: one row per input in input order, with its rank and full breakdown."""
    ranks = {id(s.outcome): s.rank for s in rank(outcomes)}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for outcome in outcomes:
        row: dict = {"source": outcome.source, "ok": outcome.ok, "error": outcome.error}
        if outcome.ok:
            data, score = outcome.data, outcome.data["score"]
            row.update(
                rank=ranks[id(outcome)],
                networks=" ".join(str(n) for n in score["networks"]),
                **{key: score[key] for key in ("total", "exits", "highway", "railway",
                                               "center", "errors")},
                expansions=" ".join(f"{k}={v}" for k, v in score["expansions"].items()),
                illegal=len(data["illegal"]), review=len(data["review"]),
                corrected=" ".join(f"{c['row']},{c['col']}={c['token']}"
                                   for c in data["corrected"]),
            )
        writer.writerow(row)
    return out.getvalue()
