"""Results of finished games: from one side's view, and per game of a learner's run.

``WIN``, ``DRAW_RESULT`` and ``LOSS`` (0, 1, 2) are a result from the learner's side;
:func:`result_for` turns a game's outcome into one; :class:`TrainingLog` keeps a run's
games. It imports only :mod:`menace_lib.games.game`, so the agent interface, the game
loop and the matchbox machine all import it without a circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .game import DRAW, FIRST, FIRST_WIN

WIN, DRAW_RESULT, LOSS = 0, 1, 2
RESULT_NAMES = ("win", "draw", "loss")

__all__ = [
    "DRAW_RESULT",
    "LOSS",
    "RESULT_NAMES",
    "WIN",
    "Tally",
    "TrainingLog",
    "counting",
    "counts_only",
    "repeated",
    "result_for",
]


def result_for(player: int, outcome: int) -> int:
    """A finished game's outcome (first or second player wins, or a draw) from
    ``player``'s side: ``WIN``, ``DRAW_RESULT`` or ``LOSS``."""
    if outcome == DRAW:
        return DRAW_RESULT
    return WIN if (outcome == FIRST_WIN) == (player == FIRST) else LOSS


class Tally:
    """A column of a counts-only :class:`TrainingLog`: how many values were appended,
    how often each one (``distinct``) and the last one; never the values themselves,
    so its memory does not grow with the number of games.
    """

    __slots__ = ("counts", "distinct", "last", "n")

    def __init__(self, distinct: bool = True) -> None:
        self.n = 0
        self.counts: dict[Any, int] = {}
        self.distinct = distinct
        self.last: Any = None

    def append(self, value: Any) -> None:
        self.n += 1
        self.last = value
        if self.distinct:
            counts = self.counts
            counts[value] = counts.get(value, 0) + 1

    def extend(self, values: Iterable[Any]) -> None:
        if isinstance(values, Tally):
            if values.n:
                self.n += values.n
                self.last = values.last
                for value, k in values.counts.items():
                    self.counts[value] = self.counts.get(value, 0) + k
            return
        if isinstance(values, (list, tuple)):  # one pass per distinct value, at C speed
            if values:
                self.n += len(values)
                self.last = values[-1]
                if self.distinct:
                    for value in set(values):
                        self.counts[value] = self.counts.get(value, 0) + values.count(value)
            return
        for value in values:
            self.append(value)

    def __iadd__(self, values: Iterable[Any]) -> Tally:
        self.extend(values)
        return self

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("this training log kept counts, not games: train with record=True")

    def __repr__(self) -> str:
        return f"Tally(n={self.n}, counts={self.counts})"


_COUNTING: ContextVar[bool] = ContextVar("menace_lib_counting", default=False)


@contextmanager
def counts_only() -> Iterator[None]:
    """Inside this block every new :class:`TrainingLog` keeps counts (:class:`Tally`
    columns), not per-game lists: a training run of any length then needs the same
    memory. The games played are the same; only what is kept of them differs."""
    token = _COUNTING.set(True)
    try:
        yield
    finally:
        _COUNTING.reset(token)


def counting() -> bool:
    """Whether this code runs inside :func:`counts_only` (game loops then keep no games)."""
    return _COUNTING.get()


def repeated(value: Any, n: int) -> list | Tally:
    """A log column that holds ``value`` ``n`` times: a list, or its counts inside
    :func:`counts_only` (where a list of ``n`` entries is what must not be built)."""
    if not _COUNTING.get():
        return [value] * n
    tally = Tally()
    if n:
        tally.n, tally.last, tally.counts[value] = n, value, n
    return tally


def _column() -> list | Tally:
    return Tally() if _COUNTING.get() else []


def _last_only() -> list | Tally:
    return Tally(distinct=False) if _COUNTING.get() else []


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

    Notes
    -----
    A log made inside :func:`counts_only` holds :class:`Tally` columns instead of
    lists (``paths``, ``moves`` and ``bead_totals`` keep only their last entry):
    :meth:`rates`, :meth:`counts` and ``len`` work; reading a game raises a ``TypeError``.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> log = ml.train(ml.Menace(), "random", 100, np.random.default_rng(0))
    >>> len(log), log.stopped_early
    (100, False)
    >>> round(float(sum(log.rates().values())), 12)
    1.0
    """

    results: list[int] = field(default_factory=_column)
    paths: list = field(default_factory=_last_only)
    moves: list = field(default_factory=_last_only)
    bead_totals: list[float] = field(default_factory=_last_only)
    opponents: list[str] = field(default_factory=_column)
    resigned: list[bool] = field(default_factory=_column)
    stopped_early: bool = False

    def __setattr__(self, name: str, value: Any) -> None:
        current = self.__dict__.get(name)
        if isinstance(current, Tally) and not isinstance(value, Tally):
            tally = Tally(current.distinct)  # a fast loop filling a column in one go
            tally.extend(value)
            value = tally
        object.__setattr__(self, name, value)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def counting(self) -> bool:
        """Whether the log keeps counts only (see :func:`counts_only`)."""
        return isinstance(self.results, Tally)

    def counts(self) -> tuple[int, int, int]:
        """Wins, draws and losses."""
        if isinstance(self.results, Tally):
            c = self.results.counts
            return c.get(0, 0), c.get(1, 0), c.get(2, 0)
        k = np.bincount(np.asarray(self.results, dtype=np.int64), minlength=3)
        return int(k[0]), int(k[1]), int(k[2])

    def rates(self) -> dict[str, float]:
        """Win, draw and loss rates over all games (all 0 for an empty log)."""
        n = len(self.results)
        counts = self.counts()
        return {name: (counts[i] / n if n else 0.0) for i, name in enumerate(RESULT_NAMES)}

    def cumulative_rate(self, result: int = DRAW_RESULT) -> np.ndarray:
        """Running fraction of games with ``result`` after each game."""
        if self.counting:
            raise TypeError("this training log kept counts, not games: train with record=True")
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
