"""Training through a regimen of scripted opponents, and sampled validation.

:func:`train` plays any :class:`~menace_lib.agent.Agent` through a regimen -- one
opponent or the thesis's mixed curriculum -- calling the agent's own
:meth:`~menace_lib.agent.Agent.train_against` for each block (MENACE's is its
table-driven fast loop; every other agent plays :func:`menace_lib.games.play_games`).
:func:`validate` plays a frozen copy to estimate win/draw/loss rates by sampling.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .agent import Agent
from .game_registry import DEFAULT_GAME
from .games import TrainingLog
from .limits import MAX_GAMES, check_count
from .opponents import TableOpponent, make_opponent, regimen_blocks

__all__ = ["train", "validate"]


def train(
    agent: Agent,
    regimen: str | Sequence[tuple[str, int]],
    games: int | None,
    rng: np.random.Generator,
    *,
    tie_break: str = "lowest",
    progress: bool = False,
) -> TrainingLog:
    """Train ``agent`` through a regimen and return per-game records.

    Parameters
    ----------
    agent
        Any :class:`~menace_lib.agent.Agent`; it learns after each game.
    regimen
        ``"random"``, ``"defensive"``, ``"perfect"`` (``"optimal"`` is read as an
        alias) or ``"mixed"`` (the
        thesis's 40/20/40 curriculum), or explicit ``(opponent, games)`` blocks.
    games
        Total games (ignored when blocks are given).
    rng
        The only source of randomness.
    tie_break
        The perfect player's tie-break.
    progress
        Show a progress bar per block (off by default; tests and notebooks stay quiet).
    """
    if isinstance(regimen, str):
        games = 0 if games is None else check_count("games", games, MAX_GAMES)
        blocks = regimen_blocks(regimen, games, tie_break)
    else:
        blocks = regimen
    log = TrainingLog()
    game = getattr(agent, "game", DEFAULT_GAME)
    for name, n in blocks:
        opponent = make_opponent(name, tie_break, game)

        def run(m: int, opponent: TableOpponent = opponent) -> TrainingLog:
            return agent.train_against(opponent, m, rng)

        log.extend(_in_chunks(run, n, progress, name))
        if log.stopped_early:
            break
    return log


def _in_chunks(
    run: Callable[[int], TrainingLog], n: int, progress: bool, label: str
) -> TrainingLog:
    if not progress:
        return run(n)
    from tqdm.auto import tqdm

    log = TrainingLog()
    with tqdm(total=n, desc=f"vs {label}", unit="game") as bar:
        done = 0
        while done < n and not log.stopped_early:
            m = min(max(n // 50, 1), n - done)
            log.extend(run(m))
            done += m
            bar.update(m)
    return log


def validate(
    agent: Agent,
    games: int,
    rng: np.random.Generator,
    opponent: str | TableOpponent = "perfect",
    tie_break: str = "lowest",
) -> dict[str, float]:
    """Sampled validation: ``games`` games of a frozen copy of ``agent``.

    The agent itself is untouched. Returns win, draw and loss rates.
    """
    games = check_count("games", games, MAX_GAMES, minimum=1)
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    return agent.frozen_copy().train_against(opp, games, rng, record=False).rates()
