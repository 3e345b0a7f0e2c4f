"""MENACE's fast path: training against a scripted opponent in a table-driven loop.

Per move: one uniform number and a scan over at most nine bead counts, with every
position, successor and result precomputed as integers. Uniform numbers come from
the caller's Generator in blocks, so a seed fixes every game.

This loop is a deliberate copy of three owners, inlined for speed: the bead rules
of :mod:`menace_lib.beads` (draw, update, clamp, restock, empty box),
:meth:`menace_lib.menace.Menace.choose` (which move a box's colour plays) and
:func:`menace_lib.games.play_game`. ``tests/test_rule_parity.py`` plays the same
games through those owners over the whole option grid and demands identical
results, paths and beads.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import numpy as np

from .games import LOSS, TrainingLog
from .limits import MAX_BEADS, MAX_GAMES, check_count
from .statespace import tables

if TYPE_CHECKING:
    from .menace import Menace
    from .opponents import TableOpponent

BLOCK = 1 << 14
"""Uniform numbers drawn from the Generator at a time."""

__all__ = ["BLOCK", "train_fast"]


def train_fast(
    agent: Menace,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
    *,
    record: bool = True,
) -> TrainingLog:
    """MENACE plays ``games`` games against ``opponent`` and learns after each.

    ``record=False`` keeps only results and bead totals (the bench's setting).
    """
    games = check_count("games", games, MAX_GAMES)
    # The per-game lists would otherwise trigger many needless cyclic-GC passes.
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        return _loop(agent, opponent, games, rng, record)
    finally:
        if gc_was_on:
            gc.enable()


def _successors(agent: Menace, opponent: TableOpponent) -> list[tuple[int, ...]]:
    """Per position, where each of the mover's options leads."""
    mine, theirs = agent.raw_next, opponent.next_ids
    return [mine[p] if mine[p] else theirs[p] for p in range(len(mine))]


def _loop(agent, opponent, games, rng, record) -> TrainingLog:  # noqa: C901 (one hot loop)
    log = TrainingLog()
    raw_box, result_of, squares = agent.raw_box, agent.result, agent.raw_squares
    weights, initial, refill = agent.weights, agent.initial, agent.move_refill
    nxt = _successors(agent, opponent)
    opening = (tables().ply < 2).tolist()
    cfg = agent.config
    delta, restock, floor, rule = cfg.reinforcement, cfg.restock, cfg.floor, cfg.empty_box
    learn = not agent.frozen
    results, totals, resigned = log.results, log.bead_totals, log.resigned
    total = agent.total_beads()
    u = rng.random(BLOCK).tolist()
    k = 0
    for _ in range(games):
        if k > BLOCK - 16:
            u = rng.random(BLOCK).tolist()
            k = 0
        s = 0
        path = []
        gave_up = stop = False
        while True:
            r = result_of[s]
            if r >= 0:
                break
            b = raw_box[s]
            if b >= 0:
                w = weights[b]
                t = u[k] * sum(w)
                k += 1
                if t <= 0.0 and sum(w) <= 0:  # empty box (beads.refill_empty)
                    if restock == "none":  # beads.empty_box_move
                        stop = rule == "stop" or (rule == "web" and opening[s])
                        gave_up = True
                        r = LOSS
                        break
                    total += sum(initial[b]) - sum(w)
                    w[:] = initial[b]
                    t = u[k - 1] * sum(w)
                j = 0
                for x in w:  # beads.scan_beads
                    if t < x:
                        break
                    t -= x
                    j += 1
                else:  # rounding ran past the end: take the last live colour
                    j = max(i for i, x in enumerate(w) if x > 0)
                path.append((b, j, s))
                s = nxt[s][j]
            else:
                options = nxt[s]
                if len(options) == 1:
                    s = options[0]
                else:
                    s = options[int(u[k] * len(options))]
                    k += 1
        if stop:
            log.stopped_early = True
            break
        if learn and path:  # beads.reinforce
            d = delta[r]
            for b, j, _ in path:
                w = weights[b]
                old = w[j]
                new = old + d
                if new <= floor:
                    new = refill[b][j] if restock == "move" else floor
                elif new > MAX_BEADS:
                    new = MAX_BEADS
                w[j] = new
                total += new - old
            if restock == "box" and d < 0:
                for b, _, _ in path:
                    w = weights[b]
                    if sum(w) <= 0:
                        total += sum(initial[b]) - sum(w)
                        w[:] = initial[b]
        results.append(r)
        totals.append(total)
        resigned.append(gave_up)
        if record:
            log.paths.append([(b, j) for b, j, _ in path])
            log.moves.append([(p, squares[p][j]) for _, j, p in path])
    n = len(results)
    log.opponents = [opponent.name] * n
    if learn:
        agent.games_trained += n
    return log
