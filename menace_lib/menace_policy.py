"""MENACE's policy read off its beads: the raw-position matrix and canonical rows.

Exact evaluation needs a MENACE's move probabilities in every raw position; the
policy diagnostics need them per canonical state. Both are bead proportions. The
gather indices from boxes to raw positions depend only on the filter, layout and
side, so they are built once per combination.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from .agent import PolicyMatrix
from .statespace import tables

if TYPE_CHECKING:
    from .menace import Menace

__all__ = ["canonical_policy", "menace_policy_matrix"]


@cache
def _gather(filter: str, layout: str, player: int) -> dict:
    """Indices from flat bead arrays to (position, square) cells."""
    from .menace import Menace, MenaceConfig

    agent = Menace(MenaceConfig(filter=filter, layout=layout, player=player))
    offsets = np.cumsum([0] + [len(e) for e in agent.entries])
    rows, cols, flat, fb_rows, fb_cols, fb_p = [], [], [], [], [], []
    for pid, b in enumerate(agent.raw_box):
        squares = agent.raw_squares[pid]
        if not squares:
            continue
        if b >= 0:
            rows += [pid] * len(squares)
            cols += list(squares)
            flat += list(range(offsets[b], offsets[b] + len(squares)))
        else:
            fb_rows += [pid] * len(squares)
            fb_cols += list(squares)
            fb_p += [1.0 / len(squares)] * len(squares)
    box_of_flat = np.repeat(np.arange(len(agent.entries)), np.diff(offsets))
    flat_arr = np.array(flat, dtype=int)
    return {
        "offsets": offsets,
        "rows": np.array(rows, dtype=int),
        "cols": np.array(cols, dtype=int),
        "flat": flat_arr,
        "box": box_of_flat[flat_arr],
        "fallback": (np.array(fb_rows, dtype=int), np.array(fb_cols, dtype=int), np.array(fb_p)),
        "agent_rows": np.array([bool(sq) for sq in agent.raw_squares]),
    }


def menace_policy_matrix(agent: Menace) -> PolicyMatrix:
    """Bead proportions in every raw position where ``agent`` moves.

    An empty box that restock would refill before a draw plays its initial
    proportions; one that nothing refills is a resignation row.
    """
    cfg = agent.config
    idx = _gather(cfg.filter, cfg.layout, cfg.player)
    starts = idx["offsets"][:-1]
    flat = np.fromiter((x for w in agent.weights for x in w), dtype=float)
    sums = np.add.reduceat(flat, starts) if len(flat) else flat
    empty = sums <= 0
    if cfg.restock != "none" and empty.any():  # beads.refill_empty
        init = np.fromiter((x for w in agent.initial for x in w), dtype=float)
        refill = np.repeat(empty, np.diff(idx["offsets"]))
        flat[refill] = init[refill]
        sums = np.add.reduceat(flat, starts)
        empty = sums <= 0
    n = tables().n_positions
    P = np.zeros((n, 9))
    safe = np.where(empty, 1.0, sums)
    P[idx["rows"], idx["cols"]] = flat[idx["flat"]] / safe[idx["box"]]
    fb_rows, fb_cols, fb_p = idx["fallback"]
    P[fb_rows, fb_cols] = fb_p
    resign = np.zeros(n, dtype=bool)
    if empty.any():
        resign[idx["rows"][empty[idx["box"]]]] = True
    return PolicyMatrix(P, idx["agent_rows"], resign)


def canonical_policy(agent: Menace, state: int) -> np.ndarray:
    """Probability of each canonical square in canonical ``state`` (MENACE's side to move).

    A move class's probability is shared evenly among its squares; a state
    without a box plays uniformly over every legal square.
    """
    b = agent.box_of.get(int(state), -1)
    pi = np.zeros(9)
    if b < 0:
        legal = tables().legal(int(state))
        pi[legal] = 1.0 / len(legal)
        return pi
    for p, members in zip(agent.probabilities(b), agent.members[b], strict=True):
        pi[list(members)] += p / len(members)
    return pi
