"""Playing games: one game between two players, and a learner's run of games.

A *player* is anything with ``act(pid, rng) -> (square, record)``: every
:class:`~menace_lib.agent.Agent`, and every scripted opponent
(:class:`~menace_lib.opponents.TableOpponent`). :func:`play_game` is the one place
where a game is played move by move; MENACE's table-driven fast loop
(:mod:`menace_lib.menace_loop`) is the only other, and it is parity-tested
against this one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .agent import RESIGN, STOP, Agent
from .board import X
from .limits import MAX_GAMES, check_count
from .statespace import DRAW, O_WIN, ONGOING, X_WIN, tables

WIN, DRAW_RESULT, LOSS = 0, 1, 2
RESULT_NAMES = ("win", "draw", "loss")

__all__ = [
    "DRAW_RESULT",
    "Game",
    "LOSS",
    "Player",
    "RESULT_NAMES",
    "Tally",
    "TrainingLog",
    "WIN",
    "counts_only",
    "play_game",
    "play_games",
    "result_for",
]


class Player(Protocol):
    """Anything that can move: an agent or a scripted opponent."""

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, Any]: ...


def result_for(player: int, outcome: int) -> int:
    """A finished game's outcome (``X_WIN``/``O_WIN``/``DRAW``) from ``player``'s side."""
    if outcome == DRAW:
        return DRAW_RESULT
    return WIN if (outcome == X_WIN) == (player == X) else LOSS


@dataclass(frozen=True)
class Game:
    """One game as it was played.

    Attributes
    ----------
    final
        Id of the last position (not terminal if a side resigned or stopped).
    outcome
        ``X_WIN``, ``O_WIN`` or ``DRAW`` (a resignation is a win for the other
        side), or ``ONGOING`` if a side stopped the game.
    records
        Per side (X first), the records its ``act`` returned, in order.
    moves
        Per side (X first), the ``(position, square)`` pairs it played.
    resigned
        Whether the game ended by a resignation.
    """

    final: int
    outcome: int
    records: tuple[list, list]
    moves: tuple[list[tuple[int, int]], list[tuple[int, int]]]
    resigned: bool = False

    @property
    def stopped(self) -> bool:
        """Whether a side stopped the game (it has no result)."""
        return self.outcome == ONGOING

    def result(self, player: int) -> int:
        """The result from ``player``'s side (0 win, 1 draw, 2 loss)."""
        if self.stopped:
            raise ValueError("a stopped game has no result")
        return result_for(player, self.outcome)


def play_game(x: Player, o: Player, rng: np.random.Generator, start: int = 0) -> Game:
    """Play one game from position ``start``; nobody learns here.

    Parameters
    ----------
    x, o
        The players of X and of O.
    rng
        The only source of randomness, shared by both players in move order.
    start
        The starting position id (default: the empty board).

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> game = ml.play_game(ml.Menace().frozen_copy(), ml.make_opponent("random"),
    ...                     np.random.default_rng(0))
    >>> game.result(ml.Menace().player) in (0, 1, 2)  # win, draw or loss for X
    True
    """
    T = tables()
    s = T.check_id(start)  # -1 is refused, not read as the last position
    records: tuple[list, list] = ([], [])
    moves: tuple[list, list] = ([], [])
    while T.outcome[s] == ONGOING:
        side = 0 if T.player[s] == X else 1
        square, record = (x, o)[side].act(s, rng)
        if square < 0:  # RESIGN or STOP
            outcome = ONGOING if square == STOP else (O_WIN if side == 0 else X_WIN)
            return Game(s, outcome, records, moves, resigned=square == RESIGN)
        records[side].append(record)
        moves[side].append((s, square))
        s = int(T.succ[s, square])
    return Game(s, int(T.outcome[s]), records, moves)


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


def play_games(
    agent: Agent,
    opponent: Any,
    games: int,
    rng: np.random.Generator,
    *,
    record: bool = True,
    name: str | None = None,
) -> TrainingLog:
    """The agent plays ``games`` games against a player and learns after each.

    The agent plays its own side (``agent.player``). A game the agent stops ends
    the run (``stopped_early``) and is discarded. ``record=False`` keeps only the
    results.

    Parameters
    ----------
    agent
        Any learning agent.
    opponent
        A scripted opponent or another player with ``act``.
    games
        How many games.
    rng
        The random generator (the only source of randomness).
    record
        Keep every game's moves (``False``: only the results).
    name
        The opponent's name in the log.

    Returns
    -------
    TrainingLog
        One entry per game played.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> log = ml.play_games(ml.Menace(), ml.make_opponent("random"), 100, np.random.default_rng(0))
    >>> len(log), sorted(log.rates())
    (100, ['draw', 'loss', 'win'])
    """
    games = check_count("games", games, MAX_GAMES)
    log = TrainingLog()
    side = 0 if agent.player == X else 1
    pair = (agent, opponent) if side == 0 else (opponent, agent)
    label = name or getattr(opponent, "name", type(opponent).__name__)
    for _ in range(games):
        game = play_game(*pair, rng)
        if game.stopped:
            log.stopped_early = True
            break
        result = game.result(agent.player)
        agent.end_game(game.records[side], result, game.final)
        log.results.append(result)
        if record:
            log.paths.append(game.records[side])
            log.moves.append(game.moves[side])
        log.opponents.append(label)
        log.resigned.append(game.resigned and result == LOSS)
    return log
