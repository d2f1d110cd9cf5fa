"""Player input and file names in messages: on one line, and short."""

QUOTE_LIMIT = 40
"""Characters of a bad token or line quoted in a message; a longer one is cut, with '…'."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to its first ``limit`` characters (plus '…' when cut), so
    control characters are escaped and a huge token is not echoed whole."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def one_line(text: str) -> str:
    """``text`` with each control, line-breaking or otherwise unprintable character written as
    its escape (``\\n``, ``\\r``, ``\\x1b``, ``\\u2028``), so a message naming a file prints
    as one line and cannot move the cursor or change a terminal's colours."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
