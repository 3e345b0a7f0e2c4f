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

from collections.abc import Iterable, Sequence
from functools import cache

import numpy as np

from .agent import Agent, PolicyMatrix
from .board import TRANSFORMS
from .games import LOSS, RESULT_NAMES, result_for
from .opponents import TableOpponent, make_opponent
from .statespace import ONGOING, tables

__all__ = [
    "check_moves",
    "exact_outcome",
    "exact_values",
    "policy_matrix",
    "policy_kl",
    "kl_to_reference",
    "empirical_policy_kl",
]


@cache
def _ply_layers() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per ply, deepest first: the live positions and their (position, square) successors."""
    T = tables()
    live = T.outcome == ONGOING
    succ = np.maximum(T.succ, 0)  # illegal squares carry probability 0; any row will do
    layers = (np.flatnonzero(live & (T.ply == p)) for p in range(8, -1, -1))
    return tuple((ids, succ[ids]) for ids in layers)


@cache
def _terminal_values(player: int) -> np.ndarray:
    """One-hot win/draw/loss rows at terminal positions from ``player``'s side."""
    T = tables()
    V = np.zeros((T.n_positions, 3))
    for pid in np.flatnonzero(T.outcome != ONGOING):
        V[pid, result_for(player, int(T.outcome[pid]))] = 1.0
    V.setflags(write=False)
    return V


def policy_matrix(agent: Agent) -> PolicyMatrix:
    """The agent's move probabilities as a (positions × 9) matrix (see :class:`PolicyMatrix`)."""
    return agent.policy_matrix()


def exact_values(agent, opponent: TableOpponent) -> np.ndarray:
    """Win/draw/loss probabilities from every position, shape (positions, 3).

    Parameters
    ----------
    agent
        Any agent; its frozen policy is evaluated.
    opponent
        A scripted opponent (:func:`make_opponent`).

    Returns
    -------
    numpy.ndarray
        ``values[position] = (win, draw, loss)`` for the agent, from that position on.

    Raises
    ------
    ValueError
        If the agent's or the opponent's move probabilities are not a distribution
        over the legal squares of every position where they move (see
        :func:`check_moves`): a policy that is not one would give NaN or values above 1.

    Examples
    --------
    >>> import menace_lib as ml
    >>> values = ml.exact_values(ml.Menace(), ml.make_opponent("perfect"))
    >>> values.shape
    (5478, 3)
    >>> bool(abs(values.sum(axis=1) - 1).max() < 1e-9)
    True
    """
    P, agent_rows, resign = agent.policy_matrix()
    n = tables().n_positions
    agent_rows = _mask("agent_rows", agent_rows, n)
    resign = _mask("resign_rows", resign, n)
    M = np.where(agent_rows[:, None], _matrix("the agent's policy", P, n), opponent.distribution())
    check_moves(M, ~resign, "the agent's policy or the opponent's moves")
    V = _terminal_values(agent.player).copy()
    resigns = bool(resign.any())
    if resigns:
        V[resign] = np.eye(3)[LOSS]  # a resignation ends the game where it happens
    for ids, succ in _ply_layers():
        if resigns:
            keep = ~resign[ids]
            ids, succ = ids[keep], succ[keep]
        V[ids] = np.einsum("ij,ijk->ik", M[ids], V[succ])
    return V


def _mask(name: str, mask: object, n: int) -> np.ndarray:
    mask = np.asarray(mask)
    if mask.shape != (n,) or mask.dtype != bool:
        raise ValueError(
            f"policy {name}: must be {n} booleans, got shape {mask.shape} {mask.dtype}"
        )
    return mask


def _matrix(what: str, P: object, n: int) -> np.ndarray:
    P = np.asarray(P)
    if P.shape != (n, 9) or not np.issubdtype(P.dtype, np.number):
        raise ValueError(f"{what}: must be a ({n}, 9) matrix of numbers, got shape {P.shape}")
    return P.astype(float, copy=False)


def check_moves(M: np.ndarray, rows: np.ndarray, what: str) -> None:
    """Raise ``ValueError`` unless every live position in ``rows`` has a move distribution.

    A row of ``M`` (positions × 9) is a distribution when it is finite, non-negative,
    zero on taken squares and sums to 1 within :data:`menace_lib.efe.SUM_TOLERANCE`
    (the library's one rule for a distribution's sum). The message names the first
    bad position and its row.
    """
    from .efe import SUM_TOLERANCE

    T = tables()
    live = np.flatnonzero(rows & (T.outcome == ONGOING))
    block = M[live]
    legal = T.succ[live] >= 0
    with np.errstate(invalid="ignore", over="ignore"):
        sums = block.sum(axis=1)
        bad = (
            ~np.isfinite(block).all(axis=1)
            | (block < 0).any(axis=1)
            | (np.where(legal, 0.0, block) != 0).any(axis=1)
            | ~(np.abs(sums - 1.0) <= SUM_TOLERANCE)
        )
    if bad.any():
        first = int(np.argmax(bad))
        pid = int(live[first])
        row = np.round(block[first], 6).tolist()
        raise ValueError(
            f"{what} in position {pid} ({T.text(pid)}) is not a distribution over its "
            f"empty squares: {row}"
        )


def exact_outcome(
    agent, opponent: str | TableOpponent = "perfect", tie_break: str = "lowest"
) -> dict[str, float]:
    """Exact win/draw/loss probabilities of a frozen agent from the empty board.

    Parameters
    ----------
    agent
        Any agent; its frozen policy (:meth:`Agent.policy_matrix`) is evaluated.
    opponent
        A scripted opponent or its name (see :func:`make_opponent`).
    tie_break
        The perfect player's tie-break, when ``opponent`` is a name.

    Returns
    -------
    dict
        ``{"win", "draw", "loss"}`` probabilities for the agent's side, summing to 1.

    Examples
    --------
    >>> import menace_lib as ml
    >>> rates = ml.exact_outcome(ml.Menace(), "perfect")
    >>> rates["win"], round(rates["draw"] + rates["loss"], 12)
    (0.0, 1.0)
    """
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    v = exact_values(agent, opp)[0]
    return {name: float(v[i]) for i, name in enumerate(RESULT_NAMES)}


# --- policy diagnostic (thesis eq. 7.4) ------------------------------------------


def kl_to_reference(pid: int, pi: np.ndarray) -> float:
    """KL(π_ref ‖ π) at canonical state ``pid``: π_ref uniform over the minimax-optimal
    moves, ``pi`` over the nine squares (infinite where π misses an optimal move)."""
    opt = tables().optimal_moves(pid)
    ref = 1.0 / len(opt)
    if np.any(pi[opt] <= 0):
        return float("inf")
    return float(sum(ref * np.log(ref / pi[m]) for m in opt))


def policy_kl(agent: Agent) -> dict[int, float]:
    """Per-state KL(π_ref ‖ π) of the agent's current policy (thesis eq. 7.4).

    π_ref is uniform over the minimax-optimal canonical moves; π is
    :meth:`Agent.canonical_policy`. Every canonical state of the agent's side is
    covered. The reference code sums these values over states; the thesis plots them.

    Parameters
    ----------
    agent
        Any agent.

    Returns
    -------
    dict
        Canonical state → KL divergence in nats (0 where the agent plays only optimal moves).

    Examples
    --------
    >>> import menace_lib as ml
    >>> kl = ml.policy_kl(ml.Menace())
    >>> len(kl) > 0 and min(kl.values()) >= 0
    True
    """
    T = tables()
    return {
        int(s): kl_to_reference(int(s), agent.canonical_policy(int(s)))
        for s in T.player_states(agent.player)
    }


def empirical_policy_kl(
    moves: Iterable[Sequence[tuple[int, int]]], states: Iterable[int], min_visits: int = 10
) -> dict[int, float]:
    """Per-state KL(π_ref ‖ π̂) from empirical move frequencies (the thesis's eq. 7.4).

    Parameters
    ----------
    moves
        Per game, the ``(position, square)`` pairs a learner played, e.g. a window
        of :attr:`menace_lib.games.TrainingLog.moves`. They are mapped to canonical
        positions and squares.
    states
        The canonical states that count (e.g. the learner's matchboxes).
    min_visits
        Only states visited at least this often count as "frequently visited".
        States where π̂ gives zero to an optimal move are omitted, as in the thesis.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.Menace()
    >>> log = ml.train(agent, "optimal", 300, np.random.default_rng(0))
    >>> kl = ml.empirical_policy_kl(log.moves[-100:], agent.states, min_visits=10)
    >>> len(kl) > 0 and min(kl.values()) >= 0
    True
    """
    T = tables()
    keep = {int(s) for s in states}
    counts: dict[int, np.ndarray] = {}
    for game in moves:
        for pid, square in game:
            c = int(T.canon[pid])
            if c in keep:
                t = int(T.canon_transform[pid])
                counts.setdefault(c, np.zeros(9))[TRANSFORMS[t][square]] += 1
    out = {}
    for c, n in sorted(counts.items()):
        if n.sum() < min_visits:
            continue
        kl = kl_to_reference(c, n / n.sum())
        if np.isfinite(kl):
            out[c] = kl
    return out
