"""Playing games: one game between two players, and a learner's run of games.

A *player* is anything with ``act(pid, rng) -> (square, record)``: every
:class:`~menace_lib.agent.Agent`, and every scripted opponent
(:class:`~menace_lib.opponents.TableOpponent`). :func:`play_game` is the one place
where a game is played move by move; MENACE's table-driven fast loop
(:mod:`menace_lib.machine`) is the only other, and it is parity-tested
against this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .agent import RESIGN, STOP, Agent
from .board import X
from .game_registry import DEFAULT_GAME, game_tables
from .limits import MAX_GAMES, check_count
from .statespace import DRAW, O_WIN, ONGOING, X_WIN

WIN, DRAW_RESULT, LOSS = 0, 1, 2
RESULT_NAMES = ("win", "draw", "loss")

__all__ = [
    "DRAW_RESULT",
    "Game",
    "LOSS",
    "Player",
    "RESULT_NAMES",
    "TrainingLog",
    "WIN",
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
        The game (:mod:`menace_lib.game_registry`); position ids are its tables' ids.
    """
    T = game_tables(game)
    s = int(start)
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
