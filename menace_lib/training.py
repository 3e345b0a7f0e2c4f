"""Training and sampled validation.

:func:`train` plays a learner through a regimen of scripted opponents and
returns a :class:`TrainingLog`. MENACE against a scripted opponent runs in a
table-driven loop: per move, one uniform number and a scan over at most nine
bead counts, with every position, successor and result precomputed as
integers. Uniform numbers are drawn from the caller's ``numpy`` Generator in
blocks, so a seed fixes every game.

Any other learner (Active Inference, Q-learning, ...) plugs in through the
small :class:`Learner` protocol and runs in :func:`play_game`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .limits import MAX_BEADS, MAX_GAMES, check_count
from .menace import DRAW_RESULT, LOSS, RESULT_NAMES, Menace, result_for
from .opponents import TableOpponent, make_opponent, regimen_blocks
from .statespace import ONGOING, tables

ON_DEPLETION = ("resign", "stop")
_BLOCK = 1 << 14


class Learner(Protocol):
    """What :func:`play_game` needs from an agent."""

    player: int

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, object]:
        """Return (raw square, a record of the decision) in position ``pid``."""

    def end_game(self, trajectory: list, result: int) -> None:
        """Learn from a finished game (``result`` 0 win, 1 draw, 2 loss)."""


@dataclass
class TrainingLog:
    """Per-game records of a training run.

    Attributes
    ----------
    results
        Per game, 0 win, 1 draw, 2 loss from the learner's side.
    paths
        Per game, the ``(box, colour)`` pairs the learner drew (MENACE), or the
        learner's own decision records.
    bead_totals
        Total beads after each game (MENACE only; empty otherwise).
    opponents
        Per game, the opponent's name.
    resigned
        Per game, whether MENACE resigned at an empty box.
    stopped_early
        True if the run stopped at an empty box (``on_depletion="stop"``).
    """

    results: list[int] = field(default_factory=list)
    paths: list = field(default_factory=list)
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
        self.results += other.results
        self.paths += other.paths
        self.bead_totals += other.bead_totals
        self.opponents += other.opponents
        self.resigned += other.resigned
        self.stopped_early = self.stopped_early or other.stopped_early


def _uniforms(rng: np.random.Generator) -> list[float]:
    return rng.random(_BLOCK).tolist()


def train_menace_against(
    agent: Menace,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
    *,
    on_depletion: str = "resign",
    record_paths: bool = True,
) -> TrainingLog:
    """MENACE against one scripted opponent, in the table-driven loop.

    Parameters
    ----------
    agent
        Learns after each game unless frozen.
    opponent
        Any :class:`~menace_lib.opponents.TableOpponent`.
    games
        Number of games.
    rng
        Source of every random draw.
    on_depletion
        ``"resign"``: an empty box with no restock loses that game (default).
        ``"stop"``: the thesis pipeline's behaviour -- the run ends there, the
        unfinished game is discarded and later games are not played.
    record_paths
        Keep each game's drawn beads (costs a little memory).
    """
    if on_depletion not in ON_DEPLETION:
        raise ValueError(f"unknown on_depletion {on_depletion!r}; choose one of {ON_DEPLETION}")
    games = check_count("games", games, MAX_GAMES)
    # The per-game lists would otherwise trigger many needless cyclic-GC passes.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        return _menace_loop(agent, opponent, games, rng, on_depletion, record_paths)
    finally:
        if gc_was_on:
            gc.enable()


def _menace_loop(
    agent: Menace,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
    on_depletion: str,
    record_paths: bool,
) -> TrainingLog:
    log = TrainingLog()
    # Local names keep attribute look-ups out of the hot loop.
    raw_box, result_of = agent.raw_box, agent.result
    weights, initial = agent.weights, agent.initial
    opp_next = opponent.next_ids
    nxt = [
        agent.raw_next[p] if raw_box[p] >= 0 or agent.raw_next[p] else opp_next[p]
        for p in range(len(raw_box))
    ]
    delta = agent.config.reinforcement
    restock = agent.config.restock
    floor = agent.config.floor
    ceiling = MAX_BEADS
    refill = agent.move_refill
    learn = not agent.frozen
    results, paths, totals = log.results, log.paths, log.bead_totals
    resigned = log.resigned
    total = agent.total_beads()
    u = _uniforms(rng)
    k = 0
    for _ in range(games):
        if k > _BLOCK - 16:
            u = _uniforms(rng)
            k = 0
        s = 0
        path = []
        gave_up = False
        while True:
            r = result_of[s]
            if r >= 0:
                break
            b = raw_box[s]
            if b >= 0:
                w = weights[b]
                t = u[k] * sum(w)
                k += 1
                if t <= 0.0 and max(w) <= 0:
                    if restock == "box":
                        total += sum(initial[b]) - sum(w)
                        w[:] = initial[b]
                        t = u[k - 1] * sum(w)
                    else:
                        gave_up = True
                        r = LOSS
                        break
                j = 0
                for x in w:
                    if t < x:
                        break
                    t -= x
                    j += 1
                else:  # rounding ran past the end: take the last live colour
                    j = max(i for i, x in enumerate(w) if x > 0)
                path.append((b, j))
                s = nxt[s][j]
            else:
                options = nxt[s]
                if len(options) == 1:
                    s = options[0]
                else:
                    s = options[int(u[k] * len(options))]
                    k += 1
        if gave_up and on_depletion == "stop":
            log.stopped_early = True
            break
        if learn and path:
            d = delta[r]
            for b, j in path:
                w = weights[b]
                old = w[j]
                new = old + d
                if new <= floor:
                    new = refill[b][j] if restock == "move" else floor
                elif new > ceiling:
                    new = ceiling
                w[j] = new
                total += new - old
            if restock == "box" and d < 0:
                for b, _ in path:
                    w = weights[b]
                    if max(w) <= 0:
                        total += sum(initial[b]) - sum(w)
                        w[:] = initial[b]
        results.append(r)
        if record_paths:
            paths.append(path)
        totals.append(total)
        resigned.append(gave_up)
    n = len(results)
    log.opponents = [opponent.name] * n
    if learn:
        agent.games_trained += n
    return log


def train(
    agent,
    regimen: str | Sequence[tuple[str, int]],
    games: int | None,
    rng: np.random.Generator,
    *,
    tie_break: str = "lowest",
    on_depletion: str = "resign",
    progress: bool = False,
) -> TrainingLog:
    """Train ``agent`` through a regimen and return per-game records.

    Parameters
    ----------
    agent
        A :class:`~menace_lib.menace.Menace` or any :class:`Learner`.
    regimen
        ``"random"``, ``"defensive"``, ``"optimal"`` or ``"mixed"`` (the
        thesis's 40/20/40 curriculum), or explicit ``(opponent, games)`` blocks.
    games
        Total games (ignored when blocks are given).
    rng
        The only source of randomness.
    progress
        Show a progress bar per block (off by default; tests and notebooks stay quiet).
    """
    if isinstance(regimen, str):
        games = 0 if games is None else check_count("games", games, MAX_GAMES)
        blocks = regimen_blocks(regimen, games, tie_break)
    else:
        blocks = regimen
    log = TrainingLog()
    for name, n in blocks:
        opponent = make_opponent(name, tie_break)
        if isinstance(agent, Menace):

            def run(m: int, opponent=opponent) -> TrainingLog:
                return train_menace_against(agent, opponent, m, rng, on_depletion=on_depletion)

        else:

            def run(m: int, opponent=opponent) -> TrainingLog:
                return play_games(agent, opponent, m, rng)

        part = _in_chunks(run, n, progress, name)
        log.extend(part)
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


def play_game(
    learner: Learner, opponent: TableOpponent, rng: np.random.Generator
) -> tuple[int, list]:
    """One game of a generic learner against a scripted opponent.

    Returns the result from the learner's side and its decision records.
    """
    T = tables()
    s = 0
    trajectory = []
    while T.outcome[s] == ONGOING:
        if T.player[s] == learner.player:
            square, record = learner.act(s, rng)
            trajectory.append(record)
        else:
            square = opponent.move(s, rng)
        s = int(T.succ[s, square])
    observe_end = getattr(learner, "observe_end", None)
    if observe_end is not None:  # learners that model the opponent need its last move
        observe_end(s)
    return result_for(learner.player, int(T.outcome[s])), trajectory


def play_games(
    learner: Learner, opponent: TableOpponent, games: int, rng: np.random.Generator
) -> TrainingLog:
    log = TrainingLog()
    for _ in range(check_count("games", games, MAX_GAMES)):
        result, trajectory = play_game(learner, opponent, rng)
        learner.end_game(trajectory, result)
        log.results.append(result)
        log.paths.append(trajectory)
        log.opponents.append(opponent.name)
        log.resigned.append(False)
    return log


def validate(
    agent,
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
    if isinstance(agent, Menace):
        log = train_menace_against(agent.frozen_copy(), opp, games, rng, record_paths=False)
    else:
        frozen = agent.frozen_copy()
        log = play_games(frozen, opp, games, rng)
    return log.rates()
