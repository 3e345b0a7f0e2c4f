"""The bead ledger: what MENACE's end-of-game updates did over a training run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...base.limits import MAX_BEADS
from ...machine.beads import reinforce
from ...machine.menace import Menace, MenaceConfig
from ...play.loop import TrainingLog


@dataclass(frozen=True)
class UpdateAudit:
    """What MENACE's end-of-game updates did over a training run.

    Every count refers to single ``(box, colour)`` updates. The bead ledger balances:
    ``final_beads = initial_beads + signed_beads + beads_clamped + beads_restocked``.

    Attributes
    ----------
    updates, increments, decrements : int
        All updates, those with a positive and those with a negative reinforcement.
    clamped : int
        Decrements that would have taken a count below 0.
    emptied : int
        Updates that took a colour to 0 beads: unplayable, and ``Dir(alpha)`` improper,
        until a restock (a box restock may follow at once).
    box_restocks, move_restocks : int
        Restocks triggered by the updates.
    initial_beads, final_beads : float
        Beads in all boxes before the first and after the last game.
    signed_beads : float
        The sum of every reinforcement applied (what an unclamped count would gain).
    beads_clamped : float
        Beads the clamp refused to remove (>= 0), less any the ceiling
        ``MAX_BEADS`` refused to add (only a run near 10^12 beads meets it).
    beads_restocked : float
        Beads put back by restocks (>= 0).
    below_initial : float
        Fraction of all bead colours that end below their initial count: a state no
        conjugate (count-adding) update can reach.
    """

    updates: int
    increments: int
    decrements: int
    clamped: int
    emptied: int
    box_restocks: int
    move_restocks: int
    initial_beads: float
    final_beads: float
    signed_beads: float
    beads_clamped: float
    beads_restocked: float
    below_initial: float


def update_audit(config: MenaceConfig, log: TrainingLog) -> UpdateAudit:
    """Replay a MENACE training log and count what the update rule did.

    The log's drawn beads and results determine every update, so a fresh MENACE built
    with ``config`` is replayed through them, one ``(box, colour)`` at a time, with the
    one owner of the update, :func:`menace_lib.machine.beads.reinforce`; what each step did is
    read off before and after it. The ledger therefore matches the trained agent's
    beads for every option (restock mode, clamp level, move-restock count).

    Parameters
    ----------
    config : MenaceConfig
        The configuration the logged agent was built with (from its initial beads).
    log : TrainingLog
        Recorded with its paths (the default of :func:`menace_lib.play.training.train`).

    Returns
    -------
    UpdateAudit
    """
    if len(log.paths) != len(log.results):
        raise ValueError("the log has no paths: train with record=True")
    agent = Menace(config)
    initial_beads = agent.total_beads()
    tally: Counter = Counter()
    beads = {"signed": 0.0, "clamped": 0.0, "restocked": 0.0}
    for path, result in zip(log.paths, log.results, strict=True):
        delta = config.reinforcement[result]
        for b, j in path:
            _audit_step(agent, b, j, delta, tally, beads)
    flat_w = np.fromiter((x for w in agent.weights for x in w), dtype=float)
    flat_0 = np.fromiter((x for w in agent.initial for x in w), dtype=float)
    return UpdateAudit(
        updates=tally["updates"],
        increments=tally["increments"],
        decrements=tally["decrements"],
        clamped=tally["clamped"],
        emptied=tally["emptied"],
        box_restocks=tally["box_restocks"],
        move_restocks=tally["move_restocks"],
        initial_beads=initial_beads,
        final_beads=agent.total_beads(),
        signed_beads=beads["signed"],
        beads_clamped=beads["clamped"],
        beads_restocked=beads["restocked"],
        below_initial=float(np.mean(flat_w < flat_0)),
    )


def _audit_step(agent: Menace, b: int, j: int, delta: float, tally: Counter, beads: dict) -> None:
    """Apply one ``(box, colour)`` update through the owner and book what it did.

    A MENACE opens each box at most once per game, so updating a game's pairs one
    at a time is the same as updating them together.
    """
    cfg = agent.config
    w = agent.weights[b]
    old = w[j]
    raw = old + delta
    change = reinforce(
        agent.weights, agent.initial, agent.move_refill, [(b, j)], delta, cfg.restock, cfg.floor
    )
    tally["updates"] += 1
    tally["increments" if delta > 0 else "decrements" if delta < 0 else "zero"] += 1
    beads["signed"] += delta
    if raw < cfg.floor:
        tally["clamped"] += 1
        beads["clamped"] += cfg.floor - raw
    if raw <= cfg.floor and cfg.restock == "move":
        tally["move_restocks"] += 1
        beads["restocked"] += agent.move_refill[b][j] - cfg.floor
    elif raw <= cfg.floor:
        tally["emptied"] += 1
    if raw > MAX_BEADS:  # the ceiling: the owner stops the count there
        beads["clamped"] += MAX_BEADS - raw
    colour_change = min(max(raw, cfg.floor), MAX_BEADS) - old
    if cfg.restock == "move" and raw <= cfg.floor:
        colour_change = agent.move_refill[b][j] - old
    refilled = change - colour_change  # what a box restock put back (0 if none)
    if refilled != 0:
        tally["box_restocks"] += 1
        beads["restocked"] += refilled
