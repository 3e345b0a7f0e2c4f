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
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from ..games.agent import Agent, PolicyMatrix, check_agent
from ..games.board import TRANSFORMS
from ..games.registry import DEFAULT_GAME, game_tables
from ..games.statespace import ONGOING, tables
from .loop import LOSS, RESULT_NAMES, result_for
from .opponents import TableOpponent, make_opponent

__all__ = [
    "check_moves",
    "exact_outcome",
    "exact_table_outcome",
    "exact_values",
    "dense_values",
    "policy_matrix",
    "policy_kl",
    "kl_to_reference",
    "empirical_policy_kl",
]


@cache
def _ply_layers(game: str) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per ply, deepest first: the live positions and their (position, move) successors."""
    T = game_tables(game)
    live = T.outcome == ONGOING
    succ = np.maximum(T.succ, 0)  # illegal moves carry probability 0; any row will do
    layers = (np.flatnonzero(live & (T.ply == p)) for p in range(int(T.ply.max()), -1, -1))
    return tuple((ids, succ[ids]) for ids in layers)


@cache
def _terminal_cells(game: str, player: int) -> tuple[np.ndarray, np.ndarray]:
    """The terminal positions and the result column of each, from ``player``'s side."""
    T = game_tables(game)
    done = np.flatnonzero(T.outcome != ONGOING)
    column = np.zeros(4, dtype=np.int8)
    for o in np.unique(T.outcome[done]).tolist():
        column[o] = result_for(player, o)
    return done, column[T.outcome[done]]


def _terminal_values(game: str, player: int) -> np.ndarray:
    """One-hot win/draw/loss rows at terminal positions from ``player``'s side (a fresh
    array: it is the backward pass's working array, positions × 3)."""
    done, column = _terminal_cells(game, player)
    V = np.zeros((game_tables(game).n_positions, 3))
    V[done, column] = 1.0
    return V


def policy_matrix(agent: Agent) -> PolicyMatrix:
    """The agent's move probabilities as a (positions × 9) matrix (see :class:`PolicyMatrix`)."""
    return agent.policy_matrix()


class _Plan(NamedTuple):
    """The backward pass's arithmetic for one opponent and side, as flat arrays.

    Per ply, deepest first: ``ids`` the live positions computed, ``starts`` where
    each one's (move, successor) pairs begin in ``succ``, ``cells`` the flat index
    ``position * n_moves + move`` of each pair, ``succ`` its successor, and the
    opponent's pairs (where in the layer, and their constant weights). Agent rows
    list every legal move (their weights come from the policy matrix); opponent
    rows list only the moves it plays. ``game`` names the game whose tables the plan
    walks. Indices are four bytes where the game allows.
    """

    layers: tuple[tuple[np.ndarray, ...], ...]
    agent_rows: np.ndarray
    agent_checked: np.ndarray
    game: str


@lru_cache(maxsize=32)
def _plan(opponent: TableOpponent, player: int, from_start: bool) -> _Plan:
    """The pass for ``player`` against ``opponent``: every live position, or (with
    ``from_start``) only those reachable from the empty board when the agent may
    play any legal move and the opponent plays as it does. The opponent's rows there
    are checked once (:func:`check_moves`)."""
    T = game_tables(opponent.game)
    n_moves, last = T.succ.shape[1], int(T.ply.max())
    live = T.outcome == ONGOING
    mine = live & (T.player == player)
    theirs = opponent.support()  # the opponent's moves: its distribution's non-zero cells
    weight = 1.0 / np.maximum(theirs.sum(axis=1), 1)  # the distribution's value there
    support = np.where(mine[:, None], T.succ >= 0, theirs) & live[:, None]
    index = np.int32 if T.n_positions * n_moves < 2**31 else np.intp
    keep = np.ones(T.n_positions, dtype=bool)
    if from_start:
        keep[:] = False
        keep[0] = True
        for p in range(last + 1):
            ids = np.flatnonzero(keep & live & (T.ply == p))
            keep[T.succ[ids][support[ids]]] = True
    _check_opponent(opponent, keep & live & ~mine, theirs, T.succ >= 0)
    layers = []
    for p in range(last, -1, -1):
        ids = np.flatnonzero(keep & live & (T.ply == p))
        rows, squares = np.nonzero(support[ids])
        counts = np.bincount(rows, minlength=len(ids))
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)
        at = ids[rows]
        cells = (at * n_moves + squares).astype(index)
        succ = T.succ[at, squares].astype(index)
        opp = np.flatnonzero(~mine[at]).astype(index)
        layers.append((ids, starts, cells, succ, mine[ids], opp, weight[at[opp]]))
        del rows, squares, at
    return _Plan(tuple(layers), mine, keep & mine, opponent.game)


def _check_opponent(opponent: TableOpponent, rows, theirs, legal) -> None:
    """:func:`check_moves` on the opponent's rows, read from its move sets: a row is a
    distribution when it has a move and only legal ones (its weights are 1/count).
    A bad row is reported by :func:`check_moves` itself, from the dense distribution."""
    bad = rows & (~theirs.any(axis=1) | (theirs & ~legal).any(axis=1))
    if bad.any():
        what = "the agent's policy or the opponent's moves"
        check_moves(opponent.distribution(), bad, what, opponent.game)


def _backward(P: np.ndarray, resign: np.ndarray, plan: _Plan, player: int) -> np.ndarray:
    """V over the plan's positions (others keep their terminal rows)."""
    flat = P.ravel()
    V = _terminal_values(plan.game, player)
    loss = np.eye(3)[LOSS]
    resigns = bool(resign.any())
    for ids, starts, cells, succ, _, opp, opp_weights in plan.layers:
        w = flat.take(cells)
        w[opp] = opp_weights
        if len(ids):
            V[ids] = np.add.reduceat(w[:, None] * V[succ], starts, axis=0)
            if resigns:
                V[ids[resign[ids]]] = loss  # a resignation ends the game where it happens
    return V


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
    return _values(agent, opponent, from_start=False)


def _values(agent, opponent: TableOpponent, *, from_start: bool) -> np.ndarray:
    """The values by the cached plan (``from_start``: only what the empty board reaches);
    the positions the plan computes are checked, as :func:`check_moves` says."""
    P, agent_rows, resign = _policy(agent, opponent.game)
    if not isinstance(opponent, TableOpponent):
        # An opponent known only by its distribution (not a table opponent's uniform choice
        # sets): the dense pass reads and checks its every row.
        return _dense_values(agent, opponent, PolicyMatrix(P, agent_rows, resign))
    plan = _plan(opponent, agent.player, from_start)
    if not np.array_equal(agent_rows, plan.agent_rows):
        return _dense_values(agent, opponent, (P, agent_rows, resign))
    check_moves(
        P, plan.agent_checked & ~resign, "the agent's policy or the opponent's moves", plan.game
    )
    return _backward(np.ascontiguousarray(P, dtype=float), resign, plan, agent.player)


def _policy(agent, game: str) -> PolicyMatrix:
    """The agent's policy matrix for ``game``, its shape and types checked."""
    P, agent_rows, resign = agent.policy_matrix()
    n, n_moves = game_tables(game).succ.shape
    agent_rows = _mask("agent_rows", agent_rows, n)
    resign = _mask("resign_rows", resign, n)
    return PolicyMatrix(_matrix("the agent's policy", P, n, n_moves), agent_rows, resign)


def dense_values(agent, opponent: TableOpponent) -> np.ndarray:
    """:func:`exact_values` by the plain pass: every position, nine squares each.

    The yardstick for the benchmark (``python -m menace_lib bench``) and the path for
    an agent whose policy rows are not its side's positions.
    """
    return _dense_values(agent, opponent, _policy(agent, opponent.game))


def _dense_values(agent, opponent: TableOpponent, policy: PolicyMatrix) -> np.ndarray:
    P, agent_rows, resign = policy
    M = np.where(agent_rows[:, None], P, opponent.distribution())
    check_moves(M, ~resign, "the agent's policy or the opponent's moves", opponent.game)
    V = _terminal_values(opponent.game, agent.player)
    resigns = bool(resign.any())
    if resigns:
        V[resign] = np.eye(3)[LOSS]  # a resignation ends the game where it happens
    for ids, succ in _ply_layers(opponent.game):
        if resigns:
            keep = ~resign[ids]
            ids, succ = ids[keep], succ[keep]
        V[ids] = np.einsum("ij,ijk->ik", M[ids], V[succ])
    return V


def _describe(T, pid: int) -> str:
    """A position for an error message: noughts and crosses' text, else its cells."""
    if T.game.name == DEFAULT_GAME:
        return tables().text(pid)
    return "cells " + "".join(str(int(c)) for c in T.cells[pid])


def _mask(name: str, mask: object, n: int) -> np.ndarray:
    mask = np.asarray(mask)
    if mask.shape != (n,) or mask.dtype != bool:
        raise ValueError(
            f"policy {name}: must be {n} booleans, got shape {mask.shape} {mask.dtype}"
        )
    return mask


def _matrix(what: str, P: object, n: int, n_moves: int) -> np.ndarray:
    P = np.asarray(P)
    if P.shape != (n, n_moves) or not np.issubdtype(P.dtype, np.number):
        raise ValueError(
            f"{what}: must be a ({n}, {n_moves}) matrix of numbers, got shape {P.shape}"
        )
    return P.astype(float, copy=False)


def check_moves(M: np.ndarray, rows: np.ndarray, what: str, game: str = DEFAULT_GAME) -> None:
    """Raise ``ValueError`` unless every live position in ``rows`` has a move distribution.

    A row of ``M`` (positions × moves of ``game``) is a distribution when it is finite,
    non-negative, zero on illegal moves and sums to 1 within
    :data:`menace_lib.maths.efe.SUM_TOLERANCE` (the library's one rule for a distribution's
    sum). The message names the first bad position and its row.
    """
    from ..maths.efe import SUM_TOLERANCE

    T = game_tables(game)
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
            f"{what} in position {pid} ({_describe(T, pid)}) is not a distribution over "
            f"its legal moves: {row}"
        )


def exact_outcome(
    agent, opponent: str | TableOpponent = "perfect", tie_break: str = "lowest"
) -> dict[str, float]:
    """Exact win/draw/loss probabilities of a frozen agent from the start of its game.

    Parameters
    ----------
    agent
        Any agent; its frozen policy (:meth:`Agent.policy_matrix`) is evaluated.
    opponent
        A scripted opponent of the agent's game, or its name (see :func:`make_opponent`;
        built for the agent's game).
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
    check_agent(agent, "policy_matrix")
    if isinstance(opponent, str):
        game = getattr(agent, "game", DEFAULT_GAME)  # agents of other games say which
        opp = make_opponent(opponent, tie_break, game=game)
    else:
        opp = opponent
    v = _values(agent, opp, from_start=True)[0]
    return {name: float(v[i]) for i, name in enumerate(RESULT_NAMES)}


class _TablePolicy(NamedTuple):
    """A policy table as an agent of the exact evaluator (``player``, ``policy_matrix``)."""

    P: np.ndarray
    player: int
    game: str

    def policy_matrix(self) -> PolicyMatrix:
        T = game_tables(self.game)
        rows = (T.outcome == ONGOING) & (T.player == self.player)
        return PolicyMatrix(self.P, rows, np.zeros(T.n_positions, dtype=bool))


def exact_table_outcome(
    policy: np.ndarray, player: int, opponent: TableOpponent
) -> dict[str, float]:
    """Exact win/draw/loss probabilities of a policy table against ``opponent``.

    The table needs rows only where the policy can be: at the positions of ``player``
    that its own moves and the opponent's replies reach from the start. Every other
    row (all zeros, say, where a search was never run) is read as a uniform move; it
    carries no probability, so the result does not depend on it.

    Parameters
    ----------
    policy
        ``(positions, moves)`` move probabilities of ``player`` (rows of other
        positions are ignored).
    player
        The side the policy plays (1 first, 2 second).
    opponent
        A scripted opponent of the game (its tables give the shape).

    Returns
    -------
    dict
        ``{"win", "draw", "loss"}`` for ``player``.

    Raises
    ------
    ValueError
        If a reached row is not a distribution over its legal moves.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> from menace_lib.play.evaluation import exact_table_outcome
    >>> T = ml.game_tables("connect4:4x4")
    >>> legal = T.succ >= 0
    >>> leftmost = (legal & (np.cumsum(legal, axis=1) == 1)).astype(float)
    >>> perfect = ml.make_opponent("perfect", "uniform", game="connect4:4x4")
    >>> round(exact_table_outcome(leftmost, 1, perfect)["loss"], 4)  # always the leftmost column
    0.7457
    """
    T = game_tables(opponent.game)
    P = _matrix("the policy table", policy, T.n_positions, T.succ.shape[1])
    live = T.outcome == ONGOING
    mine = live & (T.player == player)
    D = opponent.distribution()
    support = np.where(mine[:, None], P > 0, D > 0) & (T.succ >= 0) & live[:, None]
    reached = np.zeros(T.n_positions, dtype=bool)
    reached[0] = True
    for p in range(int(T.ply.max()) + 1):
        ids = np.flatnonzero(reached & live & (T.ply == p))
        reached[T.succ[ids][support[ids]]] = True
    check_moves(P, reached & mine, "the policy table", opponent.game)
    legal = T.succ >= 0
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    full = np.where((reached & mine)[:, None], P, uniform)
    return exact_outcome(_TablePolicy(full, player, opponent.game), opponent)


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
    :meth:`Agent.canonical_policies`, asked once for every canonical state of the
    agent's side. The reference code sums these values over states; the thesis
    plots them.

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
    check_agent(agent, "canonical_policies")
    states = tables().player_states(agent.player)
    kl = _kl_rows(states, np.asarray(agent.canonical_policies(states), dtype=float))
    return dict(zip(states.tolist(), kl.tolist(), strict=True))


def _kl_rows(states: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """:func:`kl_to_reference` for many states at once (rows of ``pi``), in the same order
    of terms: optimal squares ascending."""
    opt = tables().optimal[states]
    ref = 1.0 / opt.sum(axis=1)
    with np.errstate(divide="ignore"):
        terms = ref[:, None] * np.log(ref[:, None] / np.where(opt, pi, 1.0))
    kl = np.zeros(len(states))
    for m in range(9):
        kl += np.where(opt[:, m], terms[:, m], 0.0)
    kl[(opt & (pi <= 0)).any(axis=1)] = np.inf
    return kl


def empirical_policy_kl(
    moves: Iterable[Sequence[tuple[int, int]]], states: Iterable[int], min_visits: int = 10
) -> dict[int, float]:
    """Per-state KL(π_ref ‖ π̂) from empirical move frequencies (the thesis's eq. 7.4).

    Parameters
    ----------
    moves
        Per game, the ``(position, square)`` pairs a learner played, e.g. a window
        of :attr:`menace_lib.play.loop.TrainingLog.moves`. They are mapped to canonical
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
