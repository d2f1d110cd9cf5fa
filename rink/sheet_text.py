"""The human-readable score sheet of ``rink score``, laid out like the board's scoring table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.exits import Exit
from scoring.quote import one_line
from scoring.results import ScoreSheet, place_words

if TYPE_CHECKING:
    from rink.results import BoardResult
    from vision.review import ReviewEntry

WIDTH = 44


def _line(label: str, value: str) -> str:
    return f"  {label:<{WIDTH - 10}}{value:>8}"


def exit_label(exit_: Exit) -> str:
    """'top 3': the board side and the row or column the Exit serves."""
    side = {0: "top", 1: "right", 2: "bottom", 3: "left"}[int(exit_.side)]
    along = exit_.col if exit_.side in (0, 2) else exit_.row
    return f"{side} {along}"


def _alternatives(entry: ReviewEntry) -> str:
    """The other readings of a review entry, with their probabilities."""
    return ", ".join(f"{token} {probability:.0%}" for token, probability in entry.others())


def expansion_title(name: str) -> str:
    """The expansion's own title ('Street Lamps'), or its name."""
    from scoring.registry import UnknownExpansion, get_expansion

    try:
        return get_expansion(name).title or name
    except UnknownExpansion:
        return name


def sheet_rows(sheet: ScoreSheet) -> list[dict]:
    """The score sheet's lines, for the text sheet and the phone page alike: ``label``,
    ``value``, and where there is one a ``detail`` (the Exits, an expansion's reckoning);
    ``sum`` marks the parts of the total, ``total`` the total, ``network`` the index in
    ``sheet.networks``, ``route`` the longest route a line is about."""
    rows: list[dict] = []
    scoring = [n for n in sheet.networks if n.exit_count > 1]
    single = [n.exits[0] for n in sheet.networks if n.exit_count == 1]
    if not scoring:
        rows.append({"label": "Networks: none joins 2 Exits", "value": "0"})
    for number, network in enumerate(scoring, start=1):
        rows.append({"label": f"Network {number}: {network.exit_count} Exits",
                     "value": str(network.points), "network": sheet.networks.index(network),
                     "detail": ", ".join(exit_label(e) for e in network.exits)})
    if single:
        rows.append({"label": f"Networks reaching 1 Exit: {len(single)}", "value": "0",
                     "detail": ", ".join(exit_label(e) for e in single)})
    rows.append({"label": "Exits (network points)", "value": str(sheet.exits_points),
                 "sum": True})
    rows.append({"label": "Longest Highway", "value": str(sheet.highway), "sum": True,
                 "route": "highway"})
    rows.append({"label": "Longest Railway", "value": str(sheet.railway), "sum": True,
                 "route": "railway"})
    rows.append({"label": "Central Spaces", "value": str(sheet.center), "sum": True})
    rows.append({"label": "Errors", "sum": True,
                 "value": f"-{sheet.error_count}" if sheet.error_count else "0"})
    for name, points in sheet.expansions.items():
        row = {"label": f"Expansion: {expansion_title(name)}", "value": f"{points:+d}",
               "sum": True}
        if sheet.expansion_lines.get(name):
            row["detail"] = sheet.expansion_lines[name]
        rows.append(row)
    rows.append({"label": "TOTAL", "value": str(sheet.total), "total": True})
    return rows


def seen_lines(result: BoardResult) -> list[str]:
    """One line per expansion the photo shows, and why: 'River: seen in the photo (9 spaces
    drawn with a river (row 1, column 2, ...))' (a note says when --expansion left it out)."""
    return [f"{expansion_title(seen.name)}: seen in the photo ({one_line(seen.reason)})"
            for seen in result.expansions_seen or []]


def format_sheet(result: BoardResult) -> str:
    """The score sheet of one scored input, then its Errors and illegal drawings in words."""
    sheet = result.sheet
    assert sheet is not None
    lines = [one_line(result.source), "  " + "-" * (WIDTH - 2)]
    for row in sheet_rows(sheet):
        if row.get("total"):
            lines.append("  " + "-" * (WIDTH - 2))
        lines.append(_line(row["label"], row["value"]))
        if row.get("detail"):
            lines.append(f"    ({row['detail']})")
    lines += [f"  {line}" for line in seen_lines(result)]
    if sheet.errors:
        lines.append(f"  Errors ({sheet.error_count}):")
        lines += [f"    {error.words}" for error in sheet.errors]
    if sheet.illegal:
        lines.append(f"  Illegal drawings ({len(sheet.illegal)}), scored as drawn:")
        lines += [f"    {illegal.words}" for illegal in sheet.illegal]
    if result.corrected:
        lines.append(f"  Corrected by hand ({len(result.corrected)}):")
        lines += [f"    {place_words(c.row, c.col)}: {c.token} (was {c.was})"
                  for c in result.corrected]
    if result.review:
        lines.append(f"  To review ({len(result.review)} space(s) to check, least sure first):")
        for entry in result.review:
            others = _alternatives(entry) or "nothing else likely"
            reason = f"; {entry.reason}" if entry.reason else ""
            lines.append(f"    {place_words(entry.row, entry.col)}: read {entry.token} "
                         f"(or {others}{reason})")
    for note in sheet.notes:
        lines.append(f"  Note: {note}")
    for warning in result.warnings:
        lines.append(f"  Note: {one_line(warning)}")
    if result.annotated:
        lines.append(f"  Annotated picture: {one_line(result.annotated)}")
    return "\n".join(lines)
