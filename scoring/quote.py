"""Quoting a piece of the player's input in a message: on one line, and short."""

QUOTE_LIMIT = 40
"""Characters of a bad token or line quoted in a message; a longer one is cut, with '…'."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to its first ``limit`` characters (plus '…' when cut), so
    control characters are escaped and a huge token is not echoed whole."""
    return repr(text if len(text) <= limit else text[:limit] + "…")
