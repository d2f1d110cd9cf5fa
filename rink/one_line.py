"""Names and messages printed as one line, whatever characters a file name holds."""

from __future__ import annotations


def one_line(text: str) -> str:
    """``text`` with each control, line-breaking or otherwise unprintable character written as
    its escape (``\\n``, ``\\r``, ``\\x1b``, ``\\u2028``), so a message naming a file prints
    as one line and cannot move the cursor or change a terminal's colours."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
