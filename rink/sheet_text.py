"""The human-readable score sheet of ``rink score``, laid out like the board's scoring table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.exits import Exit
from scoring.quote import one_line
from scoring.results import place_words

if TYPE_CHECKING:
    from rink.results import BoardResult
    from vision.review import ReviewEntry

WIDTH = 44


def _line(label: str, value: str) -> str:
    return f"  {label:<{WIDTH - 10}}{value:>8}"


def _exit_short(exit_: Exit) -> str:
    side = {0: "top", 1: "right", 2: "bottom", 3: "left"}[int(exit_.side)]
    along = exit_.col if exit_.side in (0, 2) else exit_.row
    return f"{side} {along}"


def _alternatives(entry: ReviewEntry) -> str:
    """The other readings of a review entry, with their probabilities."""
    return ", ".join(f"{token} {probability:.0%}" for token, probability in entry.others())


def _title(name: str) -> str:
    """The expansion's own title ('Street Lamps'), or its name."""
    from scoring.registry import UnknownExpansion, get_expansion

    try:
        return get_expansion(name).title or name
    except UnknownExpansion:
        return name


def format_sheet(result: BoardResult) -> str:
    """The score sheet of one scored input, then its Errors and illegal drawings in words."""
    sheet = result.sheet
    assert sheet is not None
    lines = [one_line(result.source), "  " + "-" * (WIDTH - 2)]
    scoring = [network for network in sheet.networks if network.exit_count > 1]
    single = [network.exits[0] for network in sheet.networks if network.exit_count == 1]
    if not scoring:
        lines.append(_line("Networks: none joins 2 Exits", "0"))
    for number, network in enumerate(scoring, start=1):
        lines.append(_line(f"Network {number}: {network.exit_count} Exits", str(network.points)))
        lines.append(f"    ({', '.join(_exit_short(e) for e in network.exits)})")
    if single:
        lines.append(_line(f"Networks reaching 1 Exit: {len(single)}", "0"))
        lines.append(f"    ({', '.join(_exit_short(e) for e in single)})")
    lines.append(_line("Exits (network points)", str(sheet.exits_points)))
    lines.append(_line("Longest Highway", str(sheet.highway)))
    lines.append(_line("Longest Railway", str(sheet.railway)))
    lines.append(_line("Central Spaces", str(sheet.center)))
    lines.append(_line("Errors", f"-{sheet.error_count}" if sheet.error_count else "0"))
    for name, points in sheet.expansions.items():
        lines.append(_line(f"Expansion: {_title(name)}", f"{points:+d}"))
        explanation = sheet.expansion_lines.get(name)
        if explanation:
            lines.append(f"    ({explanation})")
    lines.append("  " + "-" * (WIDTH - 2))
    lines.append(_line("TOTAL", str(sheet.total)))
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
        lines.append(f"  To review ({len(result.review)} space(s) read with doubt):")
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
