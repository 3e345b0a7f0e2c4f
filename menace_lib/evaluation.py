"""Exact evaluation and policy diagnostics.

The thesis validates with 100 sampled games against the perfect player, which
carries up to ±5 percentage points of sampling noise. Because the game tree is
small, the exact win/draw/loss probabilities of a frozen stochastic policy
against any opponent with a known move distribution follow by one backward
pass over the plies::

    V(s) = Σ_m π(m | s) · V(succ(s, m)),   V(terminal) = one-hot result.

Both policies are (positions × 9) probability matrices, so the pass is ten
small vectorised steps.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .menace import LOSS, RESULT_NAMES, Menace
from .opponents import TableOpponent, make_opponent
from .statespace import ONGOING, tables

__all__ = [
    "exact_outcome",
    "exact_values",
    "policy_matrix",
    "policy_kl",
    "empirical_policy_kl",
    "learning_curve",
]


@cache
def _ply_layers() -> tuple[np.ndarray, ...]:
    T = tables()
    live = T.outcome == ONGOING
    return tuple(np.flatnonzero(live & (T.ply == p)) for p in range(8, -1, -1))


_INDEX_CACHE: dict[tuple[str, str, int], dict[str, np.ndarray]] = {}


def _menace_index(agent: Menace) -> dict[str, np.ndarray]:
    """Gather indices from flat bead arrays to (position, square) cells, cached per layout."""
    key = (agent.config.filter, agent.config.layout, agent.config.player)
    if key in _INDEX_CACHE:
        return _INDEX_CACHE[key]
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
    index = {
        "offsets": offsets[:-1],
        "rows": np.array(rows),
        "cols": np.array(cols),
        "flat": np.array(flat),
        "box": box_of_flat[np.array(flat)] if flat else np.array([], dtype=int),
        "fb_rows": np.array(fb_rows, dtype=int),
        "fb_cols": np.array(fb_cols, dtype=int),
        "fb_p": np.array(fb_p),
        "agent_rows": np.array([bool(sq) for sq in agent.raw_squares]),
    }
    _INDEX_CACHE[key] = index
    return index


def policy_matrix(agent) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The agent's move probabilities as a (positions × 9) matrix.

    Returns
    -------
    (P, agent_rows, resign_rows)
        ``P[s, m]`` for positions where the agent moves; boolean masks of those
        positions and of positions where it resigns (an empty box, no restock).
        Agents other than MENACE provide ``policy_matrix()`` themselves.
    """
    if not isinstance(agent, Menace):
        return agent.policy_matrix()
    idx = _menace_index(agent)
    flat = np.fromiter((x for w in agent.weights for x in w), dtype=float)
    init = np.fromiter((x for w in agent.initial for x in w), dtype=float)
    sums = np.add.reduceat(flat, idx["offsets"]) if len(flat) else flat
    empty = sums <= 0
    if agent.config.restock != "none" and empty.any():
        starts = idx["offsets"]
        for b in np.flatnonzero(empty):  # sampling restocks an empty box first
            end = starts[b + 1] if b + 1 < len(starts) else len(flat)
            flat[starts[b] : end] = init[starts[b] : end]
        sums = np.add.reduceat(flat, idx["offsets"])
        empty = sums <= 0
    n = tables().n_positions
    P = np.zeros((n, 9))
    safe = np.where(empty, 1.0, sums)
    P[idx["rows"], idx["cols"]] = flat[idx["flat"]] / safe[idx["box"]]
    P[idx["fb_rows"], idx["fb_cols"]] = idx["fb_p"]
    resign = np.zeros(n, dtype=bool)
    if empty.any():
        resign[idx["rows"][empty[idx["box"]]]] = True
    return P, idx["agent_rows"], resign


def exact_values(agent, opponent: TableOpponent) -> np.ndarray:
    """Win/draw/loss probabilities from every position, shape (positions, 3)."""
    T = tables()
    P, agent_rows, resign = policy_matrix(agent)
    M = np.where(agent_rows[:, None], P, opponent.distribution())
    result = np.asarray(agent.result)
    V = np.zeros((T.n_positions, 3))
    terminal = result >= 0
    V[np.flatnonzero(terminal), result[terminal]] = 1.0
    succ = np.maximum(T.succ, 0)
    V[resign] = np.eye(3)[LOSS]  # a resignation ends the game where it happens
    for ids in _ply_layers():
        ids = ids[~resign[ids]]
        V[ids] = np.einsum("ij,ijk->ik", M[ids], V[succ[ids]])
    return V


def exact_outcome(
    agent, opponent: str | TableOpponent = "perfect", tie_break: str = "lowest"
) -> dict[str, float]:
    """Exact win/draw/loss probabilities of a frozen agent from the empty board."""
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    v = exact_values(agent, opp)[0]
    return {name: float(v[i]) for i, name in enumerate(RESULT_NAMES)}


# --- policy diagnostic (thesis eq. 7.4) ------------------------------------------


def _canonical_policy(agent: Menace, box: int) -> np.ndarray:
    """A box's probabilities spread over canonical squares (classes shared evenly)."""
    pi = np.zeros(9)
    for p, members in zip(agent.probabilities(box), agent.members[box], strict=True):
        pi[list(members)] += p / len(members)
    return pi


def _kl_to_reference(pid: int, pi: np.ndarray) -> float:
    opt = tables().optimal_moves(pid)
    ref = 1.0 / len(opt)
    if np.any(pi[opt] <= 0):
        return float("inf")
    return float(sum(ref * np.log(ref / pi[m]) for m in opt))


def policy_kl(agent: Menace) -> dict[int, float]:
    """Per-state KL(π_ref ‖ π) from exact bead proportions.

    π_ref is uniform over the minimax-optimal canonical moves. Every canonical
    state of MENACE's side is covered; states without a box play uniformly.
    The reference code sums these values over states; the thesis plots them.
    """
    T = tables()
    out = {}
    for s in T.player_states(agent.config.player):
        s = int(s)
        b = agent.box_of.get(s, -1)
        if b >= 0:
            pi = _canonical_policy(agent, b)
        else:
            legal = T.legal(s)
            pi = np.zeros(9)
            pi[legal] = 1.0 / len(legal)
        out[s] = _kl_to_reference(s, pi)
    return out


def empirical_policy_kl(agent: Menace, paths, min_visits: int = 10) -> dict[int, float]:
    """Per-state KL(π_ref ‖ π̂) from empirical move frequencies (the thesis's eq. 7.4).

    Parameters
    ----------
    paths
        Per-game ``(box, colour)`` lists, e.g. a window of ``TrainingLog.paths``.
    min_visits
        Only states visited at least this often count as "frequently visited".
        States where π̂ gives zero to an optimal move are omitted, as in the thesis.
    """
    counts = [np.zeros(len(e)) for e in agent.entries]
    for path in paths:
        for b, j in path:
            counts[b][j] += 1
    out = {}
    for b, c in enumerate(counts):
        total = c.sum()
        if total < min_visits:
            continue
        pi = np.zeros(9)
        for p, members in zip(c / total, agent.members[b], strict=True):
            pi[list(members)] += p / len(members)
        kl = _kl_to_reference(agent.states[b], pi)
        if np.isfinite(kl):
            out[agent.states[b]] = kl
    return out


def learning_curve(
    agent,
    train_step,
    checkpoints,
    opponent: str | TableOpponent = "perfect",
) -> list[dict[str, float]]:
    """Exact outcome against ``opponent`` at each checkpoint of a training run.

    ``train_step(n)`` must train ``agent`` for ``n`` more games.
    """
    opp = make_opponent(opponent) if isinstance(opponent, str) else opponent
    done = 0
    curve = []
    for c in checkpoints:
        if c < done:
            raise ValueError("checkpoints must be ascending")
        train_step(c - done)
        done = c
        curve.append({"games": c, **exact_outcome(agent, opp)})
    return curve
