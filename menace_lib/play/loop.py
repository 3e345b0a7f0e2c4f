"""Playing games: one game between two players, and a learner's run of games.

A *player* is anything with ``act(pid, rng) -> (square, record)``: every
:class:`~menace_lib.games.agent.Agent`, and every scripted opponent
(:class:`~menace_lib.play.opponents.TableOpponent`). :func:`play_game` is the one place
where a game is played move by move; MENACE's table-driven fast loop
(:mod:`menace_lib.machine.engine`) is the only other, and it is parity-tested
against this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..base.limits import MAX_GAMES, check_count
from ..games.agent import RESIGN, STOP, Agent
from ..games.board import X
from ..games.registry import DEFAULT_GAME, game_tables
from ..games.results import (
    DRAW_RESULT,
    LOSS,
    RESULT_NAMES,
    WIN,
    Tally,
    TrainingLog,
    counts_only,
    result_for,
)
from ..games.statespace import O_WIN, ONGOING, X_WIN

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


def play_game(
    x: Player, o: Player, rng: np.random.Generator, start: int = 0, game: str = DEFAULT_GAME
) -> Game:
    """Play one game from position ``start``; nobody learns here.

    Parameters
    ----------
    x, o
        The players of X and of O (of any game: the first and the second player).
    rng
        The only source of randomness, shared by both players in move order.
    start
        The starting position id (default: the empty board).
    game
        The game (:mod:`menace_lib.games.registry`); position ids are its tables' ids.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> game = ml.play_game(ml.Menace().frozen_copy(), ml.make_opponent("random"),
    ...                     np.random.default_rng(0))
    >>> game.result(ml.Menace().player) in (0, 1, 2)  # win, draw or loss for X
    True
    """
    T = game_tables(game)
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
    board_game = getattr(agent, "game", DEFAULT_GAME)
    for _ in range(games):
        game = play_game(*pair, rng, game=board_game)
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
