"""Why a photo cannot be read as a board: one exception per kind of failure.

Every message is one line naming the photo. Code tells the kinds apart by class, never by
matching message text.
"""

from __future__ import annotations

from pathlib import Path

from scoring.quote import one_line


def photo_name(source: str | Path) -> str:
    """A photo's file name as messages show it: on one line, whatever the name holds
    (line breaks, tabs and other control characters are shown escaped, as ``\\n``)."""
    return one_line(Path(source).name)


def joined_lines(text: str) -> str:
    """``text`` on one line: every run of whitespace that holds a line break becomes one
    space, and the ends are trimmed (libraries' messages often end with a newline)."""
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


class PhotoError(Exception):
    """A photo that cannot be read as a board; ``str()`` is one line naming the photo."""

    # The lattice that was found and refused as no board ((4, 2) corners in the loaded
    # image's pixels), when the refusal is of one: vision.rivals looks again without it.
    lattice = None

    def __init__(self, message: str) -> None:
        super().__init__(joined_lines(message))


class UnreadableImage(PhotoError):
    """The file is no usable image: missing, empty, not an image, corrupt, truncated, too
    large to be a photo, or too small to show 49 readable spaces."""


class NoBoardFound(PhotoError):
    """The image decodes, but no Railroad Ink board can be found or read in it."""


class BoardUnreadable(NoBoardFound):
    """A board was found and its top told, but too many of its spaces could not be read
    surely (faint ink, dim light, things on the sheet) to score it; ``doubtful`` says how
    many. A retake in better light helps; corners given by hand read it anyway, every
    doubtful space listed to check."""

    def __init__(self, message: str, doubtful: int = 0) -> None:
        super().__init__(message)
        self.doubtful = doubtful


class BoardCut(PhotoError):
    """Only part of the board is in the photo; ``edges`` names the photo edges it runs past."""

    def __init__(self, message: str, edges: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.edges = edges


class BadCorners(PhotoError):
    """Corners given by hand (``--corners``) that cannot be a board's four corners."""
