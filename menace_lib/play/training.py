"""Training through a regimen of scripted opponents, and sampled validation.

:func:`train` plays any :class:`~menace_lib.games.agent.Agent` through a regimen -- one
opponent or the thesis's mixed curriculum -- calling the agent's own
:meth:`~menace_lib.games.agent.Agent.train_against` for each block (MENACE's is its
table-driven fast loop; every other agent plays :func:`menace_lib.play.loop.play_games`).
:func:`validate` plays a frozen copy to estimate win/draw/loss rates by sampling.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from numbers import Integral

import numpy as np

from ..base.files import shorten
from ..base.limits import MAX_GAMES, check_count
from ..base.progress import counting_games
from ..games.agent import Agent, check_agent
from ..games.registry import DEFAULT_GAME
from .loop import TrainingLog, counts_only
from .opponents import TableOpponent, make_opponent, regimen_blocks

__all__ = ["as_rng", "train", "validate"]


def as_rng(rng: object) -> np.random.Generator:
    """``rng`` as a generator: a :class:`numpy.random.Generator` (or anything with its
    ``random`` and ``integers`` methods) as it is, or a seed numpy accepts -- ``None``
    (fresh entropy), an integer ≥ 0, a :class:`numpy.random.SeedSequence` -- through
    :func:`numpy.random.default_rng`.

    Raises
    ------
    ValueError
        For anything else (``True``, ``-1``, ``1.5``, ``"0"``), naming the value.
    """
    if callable(getattr(rng, "random", None)) and callable(getattr(rng, "integers", None)):
        return rng  # type: ignore[return-value]
    seedlike = rng is None or isinstance(rng, np.random.SeedSequence)
    if not seedlike and (isinstance(rng, (bool, np.bool_)) or not isinstance(rng, Integral)):
        raise ValueError(
            f"rng must be a numpy Generator or a seed (None, an integer ≥ 0, a SeedSequence), "
            f"got {shorten(repr(rng))}"
        )
    try:
        return np.random.default_rng(rng)  # type: ignore[arg-type]
    except (ValueError, TypeError) as err:
        raise ValueError(f"rng {shorten(repr(rng))} is not a seed numpy accepts ({err})") from None


def train(
    agent: Agent,
    regimen: str | Sequence[tuple[str, int]],
    games: int | None,
    rng: np.random.Generator,
    *,
    tie_break: str = "lowest",
    progress: bool = False,
    record: bool = True,
) -> TrainingLog:
    """Train ``agent`` through a regimen and return per-game records (or counts).

    Parameters
    ----------
    agent
        Any :class:`~menace_lib.games.agent.Agent`; it learns after each game.
    regimen
        ``"random"``, ``"defensive"``, ``"perfect"`` (``"optimal"`` is read as an
        alias) or ``"mixed"`` (the
        thesis's 40/20/40 curriculum), or explicit ``(opponent, games)`` blocks.
    games
        Total games (ignored when blocks are given).
    rng
        The only source of randomness: a Generator, or a seed (see :func:`as_rng`).
    tie_break
        The perfect player's tie-break.
    progress
        Show a progress bar per block (off by default; tests and notebooks stay quiet).
    record
        ``True``: the log keeps every game (results, decision records, moves).
        ``False``: it keeps counts only (:func:`menace_lib.play.loop.counts_only`), so a
        run of any length needs the same memory; the games are the same.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.Menace()
    >>> log = ml.train(agent, "mixed", 500, np.random.default_rng(0))
    >>> len(log), agent.games_trained
    (500, 500)
    """
    check_agent(agent, "act", "end_game")
    rng = as_rng(rng)
    if not record:
        with counts_only():
            return _train(agent, regimen, games, rng, tie_break, progress, False)
    return _train(agent, regimen, games, rng, tie_break, progress, True)


def _train(agent, regimen, games, rng, tie_break: str, progress: bool, record: bool) -> TrainingLog:
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
            return agent.train_against(opponent, m, rng, record=record)

        log.extend(_with_bar(run, n, progress, name))
        if log.stopped_early:
            break
    return log


def _with_bar(run: Callable[[int], TrainingLog], n: int, progress: bool, label: str) -> TrainingLog:
    """``run(n)`` in one call, with a bar fed by the game loop when ``progress`` is on.

    One call, not chunks: MENACE draws random numbers in blocks, and a run cut into
    chunks would play other games than the same run without a bar.
    """
    if not progress:
        return run(n)
    from tqdm.auto import tqdm

    with tqdm(total=n, desc=f"vs {label}", unit="game") as bar, counting_games(bar.update):
        log = run(n)
        bar.update(max(0, len(log) - bar.n))  # loops that do not report show it at the end
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

    Parameters
    ----------
    agent
        Any agent.
    games
        Sampled games to play.
    rng
        The random generator.
    opponent
        A scripted opponent or its name.
    tie_break
        The perfect player's tie-break, when ``opponent`` is a name.

    Returns
    -------
    dict
        ``{"win", "draw", "loss"}`` rates over the sampled games.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> rates = ml.validate(ml.Menace(), 200, np.random.default_rng(1), "random")
    >>> sorted(rates), round(float(sum(rates.values())), 12)
    (['draw', 'loss', 'win'], 1.0)
    """
    check_agent(agent, "frozen_copy")
    games = check_count("games", games, MAX_GAMES, minimum=1)
    rng = as_rng(rng)
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    return agent.frozen_copy().train_against(opp, games, rng, record=False).rates()
