"""Results of finished games: from one side's view, and per game of a learner's run.

``WIN``, ``DRAW_RESULT`` and ``LOSS`` (0, 1, 2) are a result from the learner's side;
:func:`result_for` turns a game's outcome into one; :class:`TrainingLog` keeps a run's
games. It imports only :mod:`menace_lib.game`, so the agent interface, the game
loop and the matchbox machine all import it without a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .game import DRAW, FIRST, FIRST_WIN

WIN, DRAW_RESULT, LOSS = 0, 1, 2
RESULT_NAMES = ("win", "draw", "loss")

__all__ = ["DRAW_RESULT", "LOSS", "RESULT_NAMES", "WIN", "TrainingLog", "result_for"]


def result_for(player: int, outcome: int) -> int:
    """A finished game's outcome (first or second player wins, or a draw) from
    ``player``'s side: ``WIN``, ``DRAW_RESULT`` or ``LOSS``."""
    if outcome == DRAW:
        return DRAW_RESULT
    return WIN if (outcome == FIRST_WIN) == (player == FIRST) else LOSS


@dataclass
class TrainingLog:
    """Per-game records of a learner's run.

    Attributes
    ----------
    results
        Per game, 0 win, 1 draw, 2 loss from the learner's side.
    paths
        Per game, the learner's decision records: the ``(box, colour)`` pairs
        MENACE drew, or another learner's own records.
    moves
        Per game, the ``(position, square)`` pairs the learner played.
    bead_totals
        Total beads after each game (MENACE's fast loop only; empty otherwise).
    opponents
        Per game, the opponent's name.
    resigned
        Per game, whether the learner resigned at an empty box.
    stopped_early
        True if the run stopped at an empty box (the ``"stop"`` and ``"web"`` rules).
    """

    results: list[int] = field(default_factory=list)
    paths: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    bead_totals: list[float] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    resigned: list[bool] = field(default_factory=list)
    stopped_early: bool = False

    def __len__(self) -> int:
        return len(self.results)

    def rates(self) -> dict[str, float]:
        """Win, draw and loss rates over all games (all 0 for an empty log)."""
        n = len(self.results)
        counts = np.bincount(np.asarray(self.results, dtype=np.int64), minlength=3)
        return {name: (counts[i] / n if n else 0.0) for i, name in enumerate(RESULT_NAMES)}

    def cumulative_rate(self, result: int = DRAW_RESULT) -> np.ndarray:
        """Running fraction of games with ``result`` after each game."""
        hits = np.asarray(self.results) == result
        return np.cumsum(hits) / np.arange(1, len(hits) + 1)

    def extend(self, other: TrainingLog) -> None:
        """Append another log's games."""
        self.results += other.results
        self.paths += other.paths
        self.moves += other.moves
        self.bead_totals += other.bead_totals
        self.opponents += other.opponents
        self.resigned += other.resigned
        self.stopped_early = self.stopped_early or other.stopped_early
