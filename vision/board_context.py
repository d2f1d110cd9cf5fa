"""What a played board looks like around one space: the prior a covered space is read with.

In a game played by the rules, a space is not drawn independently of its neighbours: a
route that reaches a space's side is usually carried on across it, a blank side rarely
meets a route end (that is an Error players avoid), and a highway never meets a railway. A
space hidden under a hand, a pen or a die shows the reader little of its own ink, but its
neighbours still show what reaches it.

``BoardContext`` holds two tables counted on games played with the real dice by the
renderer's players (``scripts/board_context.py``, from a fixed seed; shipped as
``models/board_context.json``):

- ``log_prior``: how often each drawing (a token, up to its notation) fills a space;
- ``side_log_likelihood``: for a side of kind ``H``, ``R``, ``_`` (a drawn space's blank
  side) or ``e`` (a side of an empty space), how often it faces each *situation*: an Exit of
  either kind (``xH``, ``xR``), the board's edge without an Exit (``edge``), an empty
  neighbour (``empty``), or a drawn neighbour's facing side (``dH``, ``dR``, ``d_``).

``ContextScorer.scores`` combines them as naive Bayes: the log-prior of each class plus, for each
side, the log-likelihood of what that side faces given the class's side there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.exits import exit_at, on_outer_edge
from scoring.sides import Side
from scoring.space import EMPTY_TOKEN
from vision.space_parts import side_letters, token_parts

CONTEXT_FILE = "board_context.json"
SIDE_STATES: tuple[str, ...] = ("H", "R", "_", "e")  # "e": a side of an empty space
SITUATIONS: tuple[str, ...] = ("xH", "xR", "edge", "empty", "dH", "dR", "d_")
_SITUATION_ROW = {name: i for i, name in enumerate(SITUATIONS)}
# Pseudo-counts: every situation is possible for every side state (a player's Error), and a
# drawing never seen in the games (a dead end, a water piece) is rare, not impossible.
SIDE_PSEUDO = 1.0
TOKEN_PSEUDO = 0.5
# a class with a side the tables do not know (river, lake) is left out
UNKNOWN = -1e9


def side_state(token: str, side: Side) -> str:
    """A space's side as the tables count it: "e" on an empty space, else its side letter."""
    return "e" if token == EMPTY_TOKEN else side_letters(token)[side]


def situation(grid: list[list[str]], row: int, col: int, side: Side) -> str | None:
    """What ``side`` of (row, col) faces on ``grid`` (one of ``SITUATIONS``), or None where
    the neighbour's facing side is of a kind the tables do not count (water)."""
    if on_outer_edge(row, col, side):
        exit_ = exit_at(row, col, side)
        return "edge" if exit_ is None else "x" + exit_.kind
    dr, dc = side.delta
    token = grid[row + dr][col + dc]
    if token == EMPTY_TOKEN:
        return "empty"
    name = "d" + side_letters(token)[side.opposite]
    return name if name in SITUATIONS else None


@dataclass(frozen=True)
class BoardContext:
    """The two tables of played boards, as log-probabilities (see the module's docstring)."""

    token_counts: dict[str, float]  # a token of each drawing (one per token_parts) -> count
    side_counts: dict[str, dict[str, float]]  # side state -> situation -> count
    recipe: str = ""

    @classmethod
    def from_counts(cls, info: dict) -> BoardContext:
        """Build from the JSON written by ``scripts/board_context.py``; raises ValueError on
        tables it cannot use."""
        try:
            tokens = {str(t): float(n) for t, n in info["tokens"].items()}
            sides = {state: {s: float(info["sides"][state].get(s, 0)) for s in SITUATIONS}
                     for state in SIDE_STATES}
        except (KeyError, AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"board context tables unreadable: {exc!r}") from None
        if not tokens or EMPTY_TOKEN not in tokens:
            raise ValueError("board context tables hold no token counts")
        return cls(tokens, sides, str(info.get("recipe", "")))

    @classmethod
    def load_if_present(cls, models_dir: Path) -> BoardContext | None:
        """The shipped tables in ``models_dir``, or None where there are none."""
        path = Path(models_dir) / CONTEXT_FILE
        if not path.exists():
            return None
        try:
            info = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a board context file ({exc})") from None
        return cls.from_counts(info)

    def log_prior(self, classes: list[str]) -> np.ndarray:
        """(n_classes,) log-probability that a space of a played board holds each class."""
        by_parts: dict = {}
        for token, n in self.token_counts.items():
            parts = token_parts(token)
            by_parts[parts] = by_parts.get(parts, 0.0) + n
        counts = np.array([by_parts.get(token_parts(t), 0.0) + TOKEN_PSEUDO for t in classes])
        return np.log(counts / counts.sum())

    def side_log_likelihood(self, classes: list[str]) -> np.ndarray:
        """(len(SITUATIONS), 4, n_classes): log P(situation | the class's side), per side
        N, E, S, W; ``UNKNOWN`` where the class's side is water."""
        table = np.full((len(SITUATIONS), 4, len(classes)), UNKNOWN)
        likelihood = {}
        for state, counts in self.side_counts.items():
            total = sum(counts.values()) + SIDE_PSEUDO * len(SITUATIONS)
            likelihood[state] = [np.log((counts[s] + SIDE_PSEUDO) / total) for s in SITUATIONS]
        for i, token in enumerate(classes):
            for side in Side:
                state = side_state(token, side)
                if state in likelihood:
                    table[:, side, i] = likelihood[state]
        return table


class ContextScorer:
    """``BoardContext`` laid out for one class list: scores every class at a space."""

    def __init__(self, context: BoardContext, classes: list[str]) -> None:
        self.classes = list(classes)
        self.prior = context.log_prior(self.classes)
        self.sides = context.side_log_likelihood(self.classes)

    def scores(self, grid: list[list[str]], row: int, col: int) -> np.ndarray:
        """(n_classes,) log P(class) + the sum over sides of log P(what it faces | class);
        a side facing water adds nothing."""
        out = self.prior.copy()
        for side in Side:
            name = situation(grid, row, col, side)
            if name is not None:
                out = out + self.sides[_SITUATION_ROW[name], side]
        return out
