"""An onnxruntime session stand-in that counts the crops a network is given, for tests that
check which spaces (and how many) a reader reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class CountingSession:
    """Wraps a real onnxruntime session; ``crops``: how many crops it has run so far, in
    ``calls`` runs."""

    def __init__(self, session) -> None:
        self.session = session
        self.crops = 0
        self.calls = 0

    def run(self, outputs, feed):
        self.calls += 1
        self.crops += len(next(iter(feed.values())))
        return self.session.run(outputs, feed)


@contextmanager
def counting(network) -> Iterator[CountingSession]:
    """``network``'s session counted while the block runs, put back after it."""
    counted = CountingSession(network.session)
    network.session = counted
    try:
        yield counted
    finally:
        network.session = counted.session
