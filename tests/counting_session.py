"""An onnxruntime session stand-in that counts the crops a network is given, for tests that
check which spaces (and how many) a reader reads."""

from __future__ import annotations


class CountingSession:
    """Wraps a real onnxruntime session; ``crops``: how many crops it has run so far."""

    def __init__(self, session) -> None:
        self.session = session
        self.crops = 0

    def run(self, outputs, feed):
        self.crops += len(next(iter(feed.values())))
        return self.session.run(outputs, feed)
