"""Why a photo cannot be read as a board: one exception per kind of failure.

Every message is one line naming the photo. Code tells the kinds apart by class, never by
matching message text.
"""

from __future__ import annotations


class PhotoError(Exception):
    """A photo that cannot be read as a board; ``str()`` is one line naming the photo."""


class UnreadableImage(PhotoError):
    """The file is no usable image: missing, empty, not an image, corrupt, truncated, too
    large to be a photo, or too small to show 49 readable spaces."""


class NoBoardFound(PhotoError):
    """The image decodes, but no Railroad Ink board can be found or read in it."""


class BoardCut(PhotoError):
    """Only part of the board is in the photo; ``edges`` names the photo edges it runs past."""

    def __init__(self, message: str, edges: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.edges = edges


class BadCorners(PhotoError):
    """Corners given by hand (``--corners``) that cannot be a board's four corners."""
