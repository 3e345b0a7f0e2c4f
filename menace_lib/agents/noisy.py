"""MENACE through noisy eyes: a board that may be misread, and three ways to read it.

The thesis's MENACE sees the board exactly; its discussion says it has no
observation model. This module gives it one, for noughts and crosses.

The observation model
---------------------
Each of the nine cells is misread independently with probability ``eps``: shown as
one of the other two symbols with ``eps / 2`` each. A reading ``o`` of a true
position ``s`` therefore has probability ``(1 - eps)^(9 - d) (eps / 2)^d``, where
``d`` is the number of cells in which they differ (the Hamming distance): the
likelihood depends on ``d`` alone. There are ``3^9 = 19,683`` readings.

The observers
-------------
Each turns a reading into the move distribution it intends, from the same policy
(a trained MENACE's boxes, or the perfect player's moves):

``naive``
    MENACE as built: it opens the box of the board as read. A reading that is not a
    position where the observer moves (impossible, finished, or the other side to
    move) gives it no box and no intended move.
``uniform``
    Bayes with a uniform prior over the positions of the ply it is at (it counts its
    own moves, so it knows the ply): it opens the box of the most probable position
    given the reading. Ties share the probability equally.
``reach``
    Bayes with a reach prior: the probability, without noise, that its own play
    against the opponent reaches each position of that ply; where that prior gives
    the reading no support (only without noise, at a position its play never
    reaches) it falls back to the uniform prior.

**Playing on the true board.** Whatever the observer intends that cannot be played
on the true board -- a move onto a square that is truly occupied, or no move at all
because the reading has no box -- becomes a move chosen uniformly among the truly
empty squares (the hand finds the square taken and puts the stone down at random).
This rule is linear in the intended distribution, so the observer's policy at a true
position ``s`` is exactly::

    M(s, a)  = sum_o P(o | s) q(a | o)
    pi(a | s) = M(s, a) [a empty in s] + (1 - sum_b M(s, b) [b empty in s]) / n_empty(s)

summed over all 19,683 readings, with no sampling (:func:`observer_policy`). The
result is a policy matrix like any agent's, so the library's exact evaluator scores
it (:func:`noisy_outcome`).

Learning through noisy eyes (:func:`train_noisy`) is sampled: every game MENACE
reads the board with noise at each of its moves, opens the box of the reading, and
the bead it drew is reinforced as usual (the machine cannot tell that a move went
astray).

Examples
--------
>>> import menace_lib as ml
>>> from menace_lib.agents import noisy
>>> perfect = noisy.perfect_policy()
>>> round(noisy.noisy_outcome(perfect, 0.0, "naive")["loss"], 12)
0.0
>>> round(noisy.noisy_outcome(perfect, 0.1, "naive")["loss"], 4) > 0
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..base.limits import MAX_GAMES, check_count
from ..games.agent import PolicyMatrix
from ..games.game import ONGOING
from ..games.registry import DEFAULT_GAME, game_tables
from ..games.results import TrainingLog
from ..play.evaluation import exact_outcome
from ..play.loop import result_for
from ..play.opponents import TableOpponent, make_opponent

__all__ = [
    "FILTER_MODELS",
    "OBSERVERS",
    "N_READINGS",
    "PolicySource",
    "belief",
    "channel",
    "intended_rows",
    "reach_prior",
    "check_eps",
    "map_positions",
    "menace_policy",
    "noisy_outcome",
    "observer_policy",
    "perfect_policy",
    "play_filtering",
    "ply_support",
    "reach_probabilities",
    "reading_likelihood",
    "sample_reading",
    "train_noisy",
]

OBSERVERS = ("naive", "uniform", "reach")
"""The three observers of the module docstring."""
N_CELLS = 9
N_READINGS = 3**N_CELLS
_POW3 = 3 ** np.arange(N_CELLS, dtype=np.int64)
_CHUNK = 2048  # readings per block: keeps every temporary array under ~25 MB
_TIE = 1e-9  # relative: posterior values this close to the largest count as a tie


def check_eps(eps: Any, name: str = "eps") -> float:
    """``eps`` as a float if it is a misreading rate in [0, 1), else a one-line ValueError.

    Examples
    --------
    >>> from menace_lib.agents.noisy import check_eps
    >>> check_eps(0.1)
    0.1
    >>> check_eps(1.0)
    Traceback (most recent call last):
    ...
    ValueError: eps = 1.0 is outside [0, 1): a cell is misread with a probability below 1
    """
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} = {eps!r} is not a number: give a misreading rate in [0, 1)")
    value = float(eps)
    if not (0.0 <= value < 1.0):  # NaN fails too
        raise ValueError(
            f"{name} = {eps!r} is outside [0, 1): a cell is misread with a probability below 1"
        )
    return value


@dataclass(frozen=True, eq=False)
class PolicySource:
    """The policy an observer reads with, and the side it plays.

    Attributes
    ----------
    probabilities
        (positions, 9) move probabilities on the rows where the side moves.
    rows
        Boolean mask of the positions where the side moves (and does not resign).
    player
        1 (X, first) or 2 (O).
    name
        A label for tables and figures.
    """

    probabilities: np.ndarray
    rows: np.ndarray
    player: int = 1
    name: str = "policy"

    @property
    def game(self) -> str:
        return DEFAULT_GAME

    def policy_matrix(self) -> PolicyMatrix:
        """The clean policy, for the exact evaluator."""
        return PolicyMatrix(self.probabilities, self.rows, np.zeros_like(self.rows))


def menace_policy(agent: Any, name: str = "MENACE") -> PolicySource:
    """A MENACE's (or any noughts-and-crosses agent's) frozen policy as a :class:`PolicySource`."""
    P, rows, resign = agent.policy_matrix()
    if getattr(agent, "game", DEFAULT_GAME) != DEFAULT_GAME:
        raise ValueError(f"noisy eyes are modelled for {DEFAULT_GAME}, not {agent.game}")
    return PolicySource(np.asarray(P, dtype=float), rows & ~resign, int(agent.player), name)


def perfect_policy(tie_break: str = "uniform", player: int = 1) -> PolicySource:
    """The perfect player as a :class:`PolicySource` (uniform over its optimal moves by default)."""
    T = game_tables(DEFAULT_GAME)
    D = make_opponent("perfect", tie_break).distribution()
    rows = (T.outcome == ONGOING) & (T.player == player)
    return PolicySource(np.where(rows[:, None], D, 0.0), rows, player, "perfect")


# --- the observation model ---------------------------------------------------------


@lru_cache(maxsize=1)
def _reading_cells() -> np.ndarray:
    """(19683, 9) int8: the cells of every reading, by its code (cell i is digit i in base 3)."""
    codes = np.arange(N_READINGS, dtype=np.int64)
    return ((codes[:, None] // _POW3[None, :]) % 3).astype(np.int8)


@lru_cache(maxsize=4)
def ply_support(player: int = 1) -> tuple[tuple[int, np.ndarray], ...]:
    """Per ply where ``player`` moves: ``(ply, ids)`` of the live positions with it to move."""
    T = game_tables(DEFAULT_GAME)
    live = (T.outcome == ONGOING) & (T.player == player)
    out = []
    for ply in range(int(T.ply.max()) + 1):
        ids = np.flatnonzero(live & (T.ply == ply))
        if len(ids):
            ids.setflags(write=False)
            out.append((ply, ids))
    return tuple(out)


@lru_cache(maxsize=16)
def _distances(player: int, ply: int) -> np.ndarray:
    """(19683, S) uint8: cells in which each reading differs from each position of the ply."""
    T = game_tables(DEFAULT_GAME)
    ids = dict(ply_support(player))[ply]
    R, S = _reading_cells(), T.cells[ids]
    d = np.zeros((N_READINGS, len(ids)), dtype=np.uint8)
    for c in range(N_CELLS):
        d += R[:, c, None] != S[None, :, c]
    d.setflags(write=False)
    return d


def reading_likelihood(eps: float) -> np.ndarray:
    """P(reading | position) for 0..9 differing cells: ``(1 - eps)^(9-d) (eps/2)^d``.

    Examples
    --------
    >>> from menace_lib.agents.noisy import reading_likelihood
    >>> f = reading_likelihood(0.1)
    >>> round(float(f[0]), 6), round(float(f[1]), 8)
    (0.38742, 0.02152336)
    """
    eps = check_eps(eps)
    d = np.arange(N_CELLS + 1)
    return (1.0 - eps) ** (N_CELLS - d) * (eps / 2.0) ** d


def sample_reading(cells: Any, eps: float, rng: np.random.Generator) -> np.ndarray:
    """One noisy reading of a board's nine cells (0 empty, 1 X, 2 O).

    Draws nine uniforms for the misreadings and nine for the symbols shown, whatever
    ``eps`` is, so runs at different rates share their random numbers.
    """
    eps = check_eps(eps)
    cells = np.asarray(cells, dtype=np.int64)
    u, v = rng.random(N_CELLS), rng.random(N_CELLS)
    shift = 1 + (v < 0.5)  # one of the other two symbols, equally likely
    return np.where(u < eps, (cells + shift) % 3, cells)


def reach_probabilities(policy: PolicySource, opponent: TableOpponent) -> np.ndarray:
    """(positions,) probability that clean play of ``policy`` against ``opponent`` passes
    through each position, from the empty board."""
    T = game_tables(DEFAULT_GAME)
    D = opponent.distribution()
    M = np.where(policy.rows[:, None], policy.probabilities, D)
    reach = np.zeros(T.n_positions)
    reach[0] = 1.0
    live = T.outcome == ONGOING
    for ply in range(int(T.ply.max())):
        ids = np.flatnonzero(live & (T.ply == ply) & (reach > 0))
        rows, moves = np.nonzero(T.succ[ids] >= 0)
        np.add.at(reach, T.succ[ids[rows], moves], reach[ids[rows]] * M[ids[rows], moves])
    return reach


def _prior(observer: str, ids: np.ndarray, reach: np.ndarray | None) -> np.ndarray:
    if observer == "reach":
        w = reach[ids]
        total = w.sum()
        if total > 0:
            return w / total
    return np.full(len(ids), 1.0 / len(ids))


def belief(
    reading: Any,
    eps: float,
    ply: int,
    prior: np.ndarray | None = None,
    player: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """The posterior over the positions of a ply after one reading.

    Parameters
    ----------
    reading
        Nine cells (0 empty, 1 X, 2 O) as read.
    eps
        The misreading rate, in [0, 1).
    ply
        The ply the observer knows it is at (a ply where ``player`` moves).
    prior
        Prior over that ply's positions (:func:`ply_support` order); uniform if omitted.

    Returns
    -------
    (ids, posterior)
        The ply's position ids and the posterior over them (sums to 1; the uniform
        prior is used where ``prior`` gives the reading no support).

    Examples
    --------
    >>> import numpy as np
    >>> from menace_lib.agents.noisy import belief
    >>> ids, b = belief([1, 2, 0, 0, 0, 0, 0, 0, 0], 0.1, 2)
    >>> len(ids), round(float(b.sum()), 12)
    (72, 1.0)
    """
    eps = check_eps(eps)
    support = dict(ply_support(player))
    if ply not in support:
        raise ValueError(f"ply {ply!r}: player {player} moves at plies {sorted(support)}")
    cells = np.asarray(reading, dtype=np.int64)
    if cells.shape != (N_CELLS,) or not np.isin(cells, (0, 1, 2)).all():
        raise ValueError(f"reading {reading!r}: expected nine cells of 0, 1 or 2")
    ids = support[ply]
    d = _distances(player, ply)[int(cells @ _POW3)]
    like = reading_likelihood(eps)[d]
    p = np.full(len(ids), 1.0 / len(ids)) if prior is None else np.asarray(prior, dtype=float)
    w = p * like
    if w.sum() <= 0:
        w = like
    return ids, w / w.sum()


def map_positions(post: np.ndarray) -> np.ndarray:
    """Indices of the most probable positions of a posterior (ties within 1e-9, relative)."""
    post = np.asarray(post, dtype=float)
    return np.flatnonzero(post >= post.max() * (1 - _TIE))


def channel(Q: np.ndarray, eps: float) -> np.ndarray:
    """``M[s] = sum_o P(o | s) Q[o]`` for every board code ``s``, exactly.

    ``P(o | s)`` factorises over the nine cells, so the sum over 3^9 readings is nine
    small contractions, one per cell, each with the 3 x 3 matrix of one cell's reading
    probabilities; no reading x position matrix is formed.

    Parameters
    ----------
    Q
        (19683, k): a row per reading code.
    eps
        Misreading rate per cell, in [0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from menace_lib.agents.noisy import channel
    >>> Q = np.zeros((3**9, 1))
    >>> Q[0] = 1.0  # the empty board
    >>> M = channel(Q, 0.1)
    >>> round(float(M[0, 0]), 6), round(float(M.sum()), 12)  # 0.9^9; every s reads it
    (0.38742, 1.0)
    """
    eps = check_eps(eps)
    Q = np.asarray(Q, dtype=float)
    if Q.ndim != 2 or Q.shape[0] != N_READINGS:
        raise ValueError(f"Q must have {N_READINGS} rows, one per reading; got {Q.shape}")
    K = np.full((3, 3), eps / 2.0)
    np.fill_diagonal(K, 1.0 - eps)
    X = Q.reshape((3,) * N_CELLS + (Q.shape[1],))
    for axis in range(N_CELLS):
        X = np.moveaxis(np.tensordot(K, X, axes=([1], [axis])), 0, axis)
    return np.ascontiguousarray(X).reshape(N_READINGS, Q.shape[1])


@lru_cache(maxsize=16)
def _extreme_pairs(
    player: int, ply: int, nearest: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per reading, the ply's positions nearest to it (or farthest), as ``(rows, cols,
    share)`` pairs, ``share`` = 1 / the size of the reading's tie: the uniform prior's most
    probable positions, the same for every eps below 2/3 (above it, the farthest)."""
    D = _distances(player, ply)
    ext = D.min(axis=1) if nearest else D.max(axis=1)
    rows, cols = np.nonzero(ext[:, None] == D)
    share = 1.0 / np.bincount(rows, minlength=N_READINGS)[rows]
    return rows, cols, share


def _uniform_rows(policy: PolicySource, ply: int, eps: float) -> np.ndarray:
    """(19683, 9): the move distribution of the uniform-prior observer after each reading."""
    ratio = (eps / 2.0) / (1.0 - eps)  # the likelihood falls with distance iff this is < 1
    return _uniform_rows_at(policy, ply, "near" if ratio < 1 else "far" if ratio > 1 else "all")


@lru_cache(maxsize=20)
def _uniform_rows_at(policy: PolicySource, ply: int, which: str) -> np.ndarray:
    """:func:`_uniform_rows` for every eps at once (cached per policy): the most probable
    positions are the nearest, the farthest, or all of them."""
    ids = dict(ply_support(policy.player))[ply]
    Ps = policy.probabilities[ids]
    if which == "all":  # every position equally likely: all tie
        return np.repeat(Ps.mean(axis=0, keepdims=True), N_READINGS, axis=0)
    rows, cols, share = _extreme_pairs(policy.player, ply, which == "near")
    Q = np.stack(
        [
            np.bincount(rows, weights=Ps[cols, a] * share, minlength=N_READINGS)
            for a in range(Ps.shape[1])
        ],
        axis=1,
    )
    Q.setflags(write=False)
    return Q


def _reach_rows(policy: PolicySource, ply: int, eps: float, prior: np.ndarray) -> np.ndarray:
    """(19683, 9): the reach-prior observer's move distribution after each reading (the
    uniform prior's where the reach prior gives the reading no support)."""
    P, player = policy.probabilities, policy.player
    ids = dict(ply_support(player))[ply]
    keep = np.flatnonzero(prior > 0)
    if len(keep) == 0:
        return _uniform_rows(policy, ply, eps)
    like = reading_likelihood(eps)
    Q = np.empty((N_READINGS, P.shape[1]))
    unsupported = np.zeros(N_READINGS, dtype=bool)
    Ps = P[ids[keep]]
    D = _distances(player, ply)[:, keep]
    for start in range(0, N_READINGS, _CHUNK):
        w = like[D[start : start + _CHUNK]] * prior[keep][None, :]
        best = w.max(axis=1)
        chosen = (w >= best[:, None] * (1 - _TIE)) & (best[:, None] > 0)
        n = chosen.sum(axis=1)
        Q[start : start + _CHUNK] = (chosen @ Ps) / np.maximum(n, 1)[:, None]
        unsupported[start : start + _CHUNK] = n == 0
    if unsupported.any():
        Q[unsupported] = _uniform_rows(policy, ply, eps)[unsupported]
    return Q


def _naive_rows(policy: PolicySource) -> np.ndarray:
    T = game_tables(DEFAULT_GAME)
    rid = T.code_to_id.lookup(np.arange(N_READINGS, dtype=np.int64))
    ok = rid >= 0
    ok[ok] = policy.rows[rid[ok]]
    Q = np.zeros((N_READINGS, policy.probabilities.shape[1]))
    Q[ok] = policy.probabilities[rid[ok]]
    return Q


def reach_prior(
    policy: PolicySource, ply: int, opponent: TableOpponent | None = None
) -> np.ndarray:
    """The reach prior over a ply's positions (:func:`ply_support` order): clean play's
    probability of reaching each, normalised (uniform if the ply is never reached)."""
    opp = opponent if opponent is not None else make_opponent("perfect", "lowest")
    ids = dict(ply_support(policy.player))[ply]
    return _prior("reach", ids, reach_probabilities(policy, opp))


def intended_rows(
    policy: PolicySource,
    eps: float,
    observer: str,
    ply: int,
    opponent: TableOpponent | None = None,
) -> np.ndarray:
    """(19683, 9): the move distribution the observer intends after each reading at ``ply``
    (a row of zeros where it intends none: the naive observer's readings without a box).

    Examples
    --------
    >>> from menace_lib.agents import noisy
    >>> Q = noisy.intended_rows(noisy.perfect_policy(), 0.1, "naive", 0)
    >>> Q.shape, float(Q[0].sum())
    ((19683, 9), 1.0)
    """
    eps = check_eps(eps)
    if observer not in OBSERVERS:
        raise ValueError(f"unknown observer {observer!r}; choose one of {OBSERVERS}")
    support = dict(ply_support(policy.player))
    if ply not in support:
        raise ValueError(f"ply {ply!r}: player {policy.player} moves at plies {sorted(support)}")
    if observer == "naive":
        return _naive_rows(policy)
    if observer == "uniform":
        return np.array(_uniform_rows(policy, ply, eps))
    return _reach_rows(policy, ply, eps, reach_prior(policy, ply, opponent))


def observer_policy(
    policy: PolicySource,
    eps: float,
    observer: str = "naive",
    opponent: TableOpponent | None = None,
) -> PolicySource:
    """The exact policy of ``policy`` read through noise ``eps`` by ``observer``.

    Parameters
    ----------
    policy
        The clean policy (:func:`menace_policy`, :func:`perfect_policy`).
    eps
        Misreading rate per cell, in [0, 1).
    observer
        ``"naive"``, ``"uniform"`` or ``"reach"`` (see the module docstring).
    opponent
        The opponent whose clean play defines the reach prior (default: the perfect
        player, lowest-square tie-break); only ``"reach"`` reads it.

    Returns
    -------
    PolicySource
        The move probabilities at every true position where the side moves, with
        every reading weighed by its exact probability.

    Examples
    --------
    >>> import numpy as np
    >>> from menace_lib.agents import noisy
    >>> clean = noisy.perfect_policy()
    >>> seen = noisy.observer_policy(clean, 0.05, "uniform")
    >>> bool(np.allclose(seen.probabilities[seen.rows].sum(axis=1), 1))
    True
    """
    eps = check_eps(eps)
    if observer not in OBSERVERS:
        raise ValueError(f"unknown observer {observer!r}; choose one of {OBSERVERS}")
    T = game_tables(DEFAULT_GAME)
    player, P = policy.player, policy.probabilities
    reach = None
    if observer == "reach":
        opp = opponent if opponent is not None else make_opponent("perfect", "lowest")
        reach = reach_probabilities(policy, opp)
    out = np.zeros_like(P)
    legal = T.succ >= 0
    seen_naive = channel(_naive_rows(policy), eps) if observer == "naive" else None
    for ply, ids in ply_support(player):
        if seen_naive is not None:
            M = seen_naive[T.codes[ids]]
        elif observer == "uniform":
            M = channel(_uniform_rows(policy, ply, eps), eps)[T.codes[ids]]
        else:
            prior = _prior("reach", ids, reach)
            M = channel(_reach_rows(policy, ply, eps, prior), eps)[T.codes[ids]]
        E = legal[ids]
        inside = np.where(E, M, 0.0)
        stray = np.clip(1.0 - inside.sum(axis=1), 0.0, None)  # mass that found no empty square
        out[ids] = inside + stray[:, None] * E / E.sum(axis=1, keepdims=True)
    out /= np.where(policy.rows, out.sum(axis=1), 1.0)[:, None]  # rounding only
    return PolicySource(out, policy.rows, player, f"{policy.name} ({observer}, eps={eps:g})")


def noisy_outcome(
    policy: PolicySource,
    eps: float,
    observer: str = "naive",
    opponent: str | TableOpponent = "perfect",
    tie_break: str = "lowest",
) -> dict[str, float]:
    """Exact win/draw/loss of ``policy`` through noisy eyes against a clean-eyed opponent.

    The reach prior is taken against the same opponent.

    Examples
    --------
    >>> from menace_lib.agents import noisy
    >>> r = noisy.noisy_outcome(noisy.perfect_policy(), 0.0, "reach")
    >>> r["loss"]
    0.0
    """
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    seen = observer_policy(policy, eps, observer, opp)
    return exact_outcome(seen, opp)


# --- learning through noisy eyes -----------------------------------------------------


def train_noisy(
    agent: Any,
    opponent: TableOpponent,
    games: int,
    eps: float,
    rng: np.random.Generator,
) -> TrainingLog:
    """Train a MENACE that reads the board with noise ``eps`` at each of its moves.

    At each move the machine reads the true board (:func:`sample_reading`), opens the
    box of the reading and draws a bead; the move is played on the true board by the
    rule of the module docstring, and the bead is reinforced as usual at the end of
    the game. The opponent sees the board clearly.

    Parameters
    ----------
    agent
        A :class:`~menace_lib.machine.menace.Menace` of noughts and crosses.
    opponent
        A scripted opponent.
    games
        Training games.
    eps
        Misreading rate per cell, in [0, 1).
    rng
        The one source of randomness.

    Returns
    -------
    TrainingLog
        Per game, the result for the agent.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> from menace_lib.agents import noisy
    >>> agent = ml.Menace()
    >>> log = noisy.train_noisy(agent, ml.make_opponent("perfect"), 50, 0.1,
    ...                         np.random.default_rng(0))
    >>> len(log.results), agent.games_trained
    (50, 50)
    """
    eps = check_eps(eps)
    games = check_count("games", games, MAX_GAMES)
    T = game_tables(DEFAULT_GAME)
    succ, outcome, player_of = T.succ_lists, T.outcome_list, T.player_list
    legal_lists, cells = T.legal_lists, T.cells
    me = int(agent.player)
    lookup = T.code_to_id
    log = TrainingLog()
    for _ in range(games):
        pid, path = 0, []
        while outcome[pid] == ONGOING:
            if player_of[pid] != me:
                pid = succ[pid][opponent.move(pid, rng)]
                continue
            code = int(sample_reading(cells[pid], eps, rng) @ _POW3)
            rid = lookup.get(code, -1)
            square = -1
            if rid >= 0 and outcome[rid] == ONGOING and player_of[rid] == me:
                square, b, j = agent.choose(rid, rng)
                if j >= 0:
                    path.append((b, j))
            legal = legal_lists[pid]
            if square not in legal:  # an occupied square, no box, or a resignation
                square = legal[int(rng.integers(len(legal)))]
            pid = succ[pid][square]
        result = result_for(me, outcome[pid])
        agent.end_game(path, result)
        log.results.append(result)
    return log


# --- an observer that filters over the whole game (sampled) ----------------------------

FILTER_MODELS = ("uniform", "known")
"""What the filtering observer assumes of the opponent's replies: any legal move equally
likely, or the opponent's own move distribution."""


def play_filtering(
    policy: PolicySource,
    eps: float,
    games: int,
    rng: np.random.Generator,
    opponent: TableOpponent | None = None,
    model: str = "uniform",
) -> dict[str, float]:
    """Sampled games of an observer that carries its belief from move to move.

    The stones persist, so every reading is evidence about the same game. Before its
    first move the observer is sure of the empty board. At each of its moves it weighs
    its belief by the reading's likelihood, opens the box of the most probable position
    (the lowest id among ties), and plays by the rule of the module docstring; it sees
    where its own stone went, so positions where that square was taken drop out. Then
    it predicts the opponent's reply with ``model`` (:data:`FILTER_MODELS`). If nothing
    it believes is consistent with what it saw, it starts again from the uniform
    prior over the ply's positions.

    Returns
    -------
    dict
        ``win``, ``draw`` and ``loss`` rates over the games, and ``games``.

    Examples
    --------
    >>> import numpy as np
    >>> from menace_lib.agents import noisy
    >>> r = noisy.play_filtering(noisy.perfect_policy(), 0.0, 20, np.random.default_rng(0))
    >>> r["loss"], r["games"]
    (0.0, 20)
    """
    eps = check_eps(eps)
    games = check_count("games", games, MAX_GAMES, minimum=1)
    if model not in FILTER_MODELS:
        raise ValueError(f"unknown opponent model {model!r}; choose one of {FILTER_MODELS}")
    T = game_tables(DEFAULT_GAME)
    opp = opponent if opponent is not None else make_opponent("perfect", "lowest")
    D = opp.distribution()
    succ, outcome, legal_lists = T.succ_lists, T.outcome_list, T.legal_lists
    me, P = policy.player, policy.probabilities
    f = reading_likelihood(eps)
    cells = T.cells
    support = dict(ply_support(me))
    counts = [0, 0, 0]
    for _ in range(games):
        pid, belief_ = 0, {0: 1.0}
        while outcome[pid] == ONGOING:
            if T.player[pid] != me:
                pid = succ[pid][opp.move(pid, rng)]
                continue
            reading = sample_reading(cells[pid], eps, rng)
            ids = np.fromiter(belief_, dtype=np.int64)
            w = np.fromiter(belief_.values(), dtype=float)
            w = w * f[(cells[ids] != reading).sum(axis=1)]
            if w.sum() <= 0:  # nothing believed fits the reading: start the ply afresh
                ids = support[int(T.ply[pid])]
                w = f[(cells[ids] != reading).sum(axis=1)]
            guess = int(ids[int(np.argmax(w))])
            q = P[guess]
            legal = legal_lists[pid]
            u = float(rng.random())
            square = int(np.searchsorted(np.cumsum(q), u, side="right")) if u < q.sum() else -1
            if square not in legal:  # an occupied square or no intended move
                square = legal[int(rng.integers(len(legal)))]
            pid = succ[pid][square]
            if outcome[pid] != ONGOING:
                break
            # What it saw of its own move, then its prediction of the reply.
            after: dict[int, float] = {}
            for s, p in zip(ids.tolist(), (w / w.sum()).tolist(), strict=True):
                child = succ[s][square]
                if child >= 0 and outcome[child] == ONGOING and p > 0:
                    replies = legal_lists[child]
                    for m in replies:
                        share = D[child, m] if model == "known" else 1.0 / len(replies)
                        if share > 0:
                            nxt = succ[child][m]
                            after[nxt] = after.get(nxt, 0.0) + p * share
            belief_ = {s: p for s, p in after.items() if outcome[s] == ONGOING}
            if not belief_:
                belief_ = {0: 1.0}  # replaced at the next reading by the uniform prior
        counts[result_for(me, outcome[pid])] += 1
    return {
        "win": counts[0] / games,
        "draw": counts[1] / games,
        "loss": counts[2] / games,
        "games": games,
    }
