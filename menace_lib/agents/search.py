"""Search with bead priors: MENACE's beliefs inside a tree search (thesis §11.6.3).

A trained MENACE holds two kinds of belief. Its **beads** are a Dirichlet over the moves
of each box; and, if its training games are tallied, every position it passed through
has a Dirichlet over the game's **outcome** (win, draw, loss). This module plugs both
into a search over the game's own tables (the position ids and ``succ`` array of
:func:`menace_lib.games.registry.game_tables`), and scores each searcher against the
perfect player.

The searchers (:data:`ARMS`), all choosing the learner's move in one position:

``menace``
    MENACE alone: a bead drawn from the box (stochastic; scored exactly, the bead
    proportions are its policy).
``greedy``
    The colour with the most beads; ties go to the lowest column. No search.
``puct``
    AlphaZero's rule, ``Q + c P sqrt(N) / (1 + N_a)`` with ``c = 1.25``, bead proportions
    as the prior ``P`` at the learner's nodes (a flat prior at the opponent's), and each
    leaf valued by the Dirichlet mean of its learned outcome counts,
    ``(W - L) / (W + D + L + 3)`` (a uniform Dirichlet prior; an unvisited position is
    worth 0). No rollouts and no random numbers.
``flat``
    The same search with a flat prior everywhere (the beads unused).
``uct``
    The textbook baseline: UCB1 with ``c = sqrt(2)`` on rewards in [0, 1], untried moves
    first (lowest column first), one uniformly random rollout per leaf. Stochastic.
``thompson``
    Thompson sampling at every node: each child's Dirichlet over (win, draw, loss) has
    the uniform prior, the child's learned counts and the outcomes of the simulations
    through it; a value ``θ_win - θ_loss`` is drawn from each and the best is followed.
    A new leaf adds one outcome drawn from its predictive distribution. Stochastic.

Every search keeps its statistics per position id (a transposition table: a position
reached by two move orders is one node), starts afresh at every move, and plays the
move visited most; ties go to the larger prior, then the lowest column. With a budget
of 0 simulations every searcher therefore plays its prior's best move: ``puct`` is
``greedy``, and the flat-prior searchers play the lowest legal column.

``puct`` and ``flat`` are deterministic functions of the position (given the beads and
the counts), so :func:`search_outcome` scores them **exactly**: the search runs once at
every position the perfect player's replies can reach, and the resulting table is
evaluated by the library's one exact evaluator
(:func:`menace_lib.play.evaluation.exact_table_outcome`). ``uct`` and ``thompson`` are
scored by sampled games (:func:`sampled_search_outcome`) with Wilson intervals.

The search loops are compiled with numba when it is installed (the owner of that
choice is :mod:`menace_lib.base.compiling`; ``MENACE_LIB_COMPILED=0`` forces Python,
which gives the same moves for the deterministic searchers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..base import compiling
from ..base.confidence import proportion_ci
from ..base.limits import MAX_GAMES, check_count
from ..games.game import DRAW, FIRST_WIN, ONGOING, SECOND_WIN
from ..games.registry import game_tables
from ..machine.menace import Menace
from ..play.evaluation import exact_outcome, exact_table_outcome
from ..play.opponents import TableOpponent

__all__ = [
    "ARMS",
    "DETERMINISTIC_ARMS",
    "MAX_SIMULATIONS",
    "PUCT_C",
    "UCT_C",
    "OutcomeCounts",
    "SearchSetting",
    "arm_outcome",
    "greedy_table",
    "sampled_search_outcome",
    "search_move",
    "search_outcome",
    "search_table",
]

ARMS = ("menace", "greedy", "puct", "flat", "uct", "thompson")
"""The searchers, in display order (see the module docstring)."""
DETERMINISTIC_ARMS = ("greedy", "puct", "flat")
"""Searchers whose move is a function of the position: scored exactly."""
SEARCH_ARMS = ("puct", "flat", "uct", "thompson")
FLAT_ARMS = ("flat", "uct", "thompson")
"""Searchers that do not read the beads: their prior (and final tie-break) is flat."""
PUCT_C = 1.25
"""AlphaZero's ``pb_c_init``."""
UCT_C = math.sqrt(2.0)
"""UCB1's constant for rewards in [0, 1]."""
MAX_SIMULATIONS = 100_000
"""The most simulations a move: a budget above it is refused (a move would take minutes)."""

_KIND = {"puct": 0, "flat": 0, "uct": 1, "thompson": 2}


def check_budget(budget: object) -> int:
    """``budget`` simulations a move as an int, else a one-line ``ValueError``.

    Examples
    --------
    >>> check_budget(16)
    16
    """
    return check_count("simulations a move", budget, MAX_SIMULATIONS)


# --- learned outcome counts --------------------------------------------------------------


class OutcomeCounts:
    """Win/draw/loss tallies of the learner's training games, per position.

    Every position a training game passes through (its start, each position after a
    move, the final one) gains one in the column of that game's result for the
    learner. The array has one row per position of the game, so its memory does not
    grow with the number of games.

    Parameters
    ----------
    game
        The game's name (its tables give the positions).

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> from menace_lib.agents.search import OutcomeCounts, train_counting
    >>> agent = ml.Menace(ml.MenaceConfig(game="connect4:4x4", filter="decision"))
    >>> perfect = ml.make_opponent("perfect", "uniform", game="connect4:4x4")
    >>> counts = OutcomeCounts("connect4:4x4")
    >>> train_counting(agent, perfect, 50, np.random.default_rng(0), counts)
    >>> int(counts.counts[0].sum())
    50
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.counts = np.zeros((game_tables(game).n_positions, 3), dtype=np.int64)

    def add(self, moves: list[list[tuple[int, int]]], results: list[int]) -> None:
        """Tally games given as the learner's ``(position, move)`` pairs and results."""
        succ = game_tables(self.game).succ
        for pairs, result in zip(moves, results, strict=True):
            seen = {0}
            for pid, move in pairs:
                seen.add(int(pid))
                seen.add(int(succ[pid, move]))
            self.counts[list(seen), result] += 1

    def values(self) -> np.ndarray:
        """The Dirichlet mean of ``θ_win - θ_loss`` per position, uniform prior:
        ``(W - L) / (W + D + L + 3)`` (0 where no game passed)."""
        c = self.counts
        return (c[:, 0] - c[:, 2]) / (c.sum(axis=1) + 3.0)


def train_counting(
    agent: Menace,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
    counts: OutcomeCounts,
    chunk: int = 1000,
) -> None:
    """Train ``agent`` for ``games`` games, tallying outcomes into ``counts``.

    Games are played in chunks of ``chunk`` (each chunk's log is read, then dropped),
    so memory stays flat however many games are played.
    """
    games = check_count("games", games, MAX_GAMES)
    done = 0
    while done < games:
        n = min(chunk, games - done)
        log = agent.train_against(opponent, n, rng, record=True)
        counts.add(log.moves, log.results)
        done += n


# --- the search kernel ------------------------------------------------------------------


@dataclass(frozen=True)
class SearchSetting:
    """The flat arrays one search reads (built once per trained machine).

    Attributes
    ----------
    succ
        ``(positions, moves)`` successor ids, ``-1`` where illegal.
    terminal
        Per position: 2 ongoing, else the learner's result value (1, 0, -1).
    learner
        Per position: whether the learner moves there.
    prior
        ``(positions, moves)`` move priors (bead proportions at the learner's rows;
        flat elsewhere).
    value
        Per position, the learned value in [-1, 1] (:meth:`OutcomeCounts.values`).
    counts
        ``(positions, 3)`` learned outcome counts (the Thompson searcher's prior).
    """

    succ: np.ndarray
    terminal: np.ndarray
    learner: np.ndarray
    prior: np.ndarray
    value: np.ndarray
    counts: np.ndarray


def setting(
    agent: Menace, counts: OutcomeCounts | None = None, *, flat: bool = False
) -> SearchSetting:
    """The search's arrays for a trained ``agent`` and its outcome ``counts``.

    ``flat=True`` replaces the bead proportions by a flat prior over legal moves.
    """
    T = game_tables(agent.game)
    succ = T.succ.astype(np.int64)
    legal = succ >= 0
    live = T.outcome == ONGOING
    learner = live & (T.player == agent.player)
    uniform = np.where(legal, 1.0 / np.maximum(legal.sum(axis=1, keepdims=True), 1), 0.0)
    if flat:
        prior = uniform
    else:
        P = np.asarray(agent.policy_matrix()[0], dtype=float)
        prior = np.where(learner[:, None], P, uniform)
    first = agent.player == 1
    terminal = np.full(T.n_positions, 2, dtype=np.int64)
    terminal[T.outcome == DRAW] = 0
    terminal[T.outcome == FIRST_WIN] = 1 if first else -1
    terminal[T.outcome == SECOND_WIN] = -1 if first else 1
    if counts is None:
        counts = OutcomeCounts(agent.game)
    return SearchSetting(
        succ=np.ascontiguousarray(succ),
        terminal=terminal,
        learner=learner,
        prior=np.ascontiguousarray(prior),
        value=np.ascontiguousarray(counts.values()),
        counts=np.ascontiguousarray(counts.counts.astype(np.float64)),
    )


def _search(  # noqa: C901, PLR0912, PLR0913, PLR0915 (one hot loop)
    root, sims, kind, c, succ, terminal, learner, prior, value, counts, N, W, T3, seen, touched
):
    """Visit counts of the root's moves after ``sims`` simulations (see the module doc).

    ``N``, ``W``, ``T3`` (per position and move: visits, summed value, outcome tallies)
    and ``seen`` are scratch arrays, zero on entry and reset on exit; ``touched`` holds
    at least ``sims + 1`` position ids.
    """
    n_moves = succ.shape[1]
    path_s = np.empty(64, dtype=np.int64)
    path_a = np.empty(64, dtype=np.int64)
    n_touched = 0
    seen[root] = True
    touched[n_touched] = root
    n_touched += 1
    for _ in range(sims):
        s = root
        depth = 0
        leaf = 0.0
        outcome = 0  # 0 win, 1 draw, 2 loss for the learner (Thompson's tallies)
        while True:
            mine = learner[s]
            total = 0.0
            for a in range(n_moves):
                total += N[s, a]
            best = -1
            best_score = -1e300
            for a in range(n_moves):
                if succ[s, a] < 0:
                    continue
                n = N[s, a]
                if kind == 0:  # PUCT on values in [-1, 1]
                    q = 0.0
                    if n > 0:
                        q = W[s, a] / n
                        if not mine:
                            q = -q
                    score = q + c * prior[s, a] * math.sqrt(max(total, 1.0)) / (1.0 + n)
                elif kind == 1:  # UCB1 on rewards in [0, 1], untried moves first
                    if n == 0:
                        score = 1e200
                    else:
                        q = W[s, a] / n
                        if not mine:
                            q = 1.0 - q
                        score = q + c * math.sqrt(math.log(total) / n)
                else:  # Thompson: a draw from the child's Dirichlet over outcomes
                    child = succ[s, a]
                    g0 = np.random.gamma(1.0 + counts[child, 0] + T3[s, a, 0])
                    g1 = np.random.gamma(1.0 + counts[child, 1] + T3[s, a, 1])
                    g2 = np.random.gamma(1.0 + counts[child, 2] + T3[s, a, 2])
                    score = (g0 - g2) / (g0 + g1 + g2)
                    if not mine:
                        score = -score
                if score > best_score:
                    best_score = score
                    best = a
            path_s[depth] = s
            path_a[depth] = best
            depth += 1
            child = succ[s, best]
            if terminal[child] != 2:
                leaf = float(terminal[child])
                outcome = 0 if terminal[child] == 1 else (1 if terminal[child] == 0 else 2)
                if kind == 1:
                    leaf = 0.5 * (leaf + 1.0)
                break
            if not seen[child]:
                seen[child] = True
                touched[n_touched] = child
                n_touched += 1
                if kind == 0:
                    leaf = value[child]
                elif kind == 1:  # one uniformly random rollout
                    r = child
                    while terminal[r] == 2:
                        k = 0
                        for a in range(n_moves):
                            if succ[r, a] >= 0:
                                k += 1
                        pick = np.random.randint(k)
                        for a in range(n_moves):
                            if succ[r, a] >= 0:
                                if pick == 0:
                                    r = succ[r, a]
                                    break
                                pick -= 1
                    leaf = 0.5 * (float(terminal[r]) + 1.0)
                else:  # an outcome from the leaf's predictive distribution
                    u = np.random.random() * (
                        counts[child, 0] + counts[child, 1] + counts[child, 2] + 3.0
                    )
                    if u < counts[child, 0] + 1.0:
                        outcome = 0
                    elif u < counts[child, 0] + counts[child, 1] + 2.0:
                        outcome = 1
                    else:
                        outcome = 2
                break
            s = child
        for d in range(depth):
            s = path_s[d]
            a = path_a[d]
            N[s, a] += 1.0
            if kind == 2:
                T3[s, a, outcome] += 1.0
            else:
                W[s, a] += leaf
    out = np.empty(n_moves, dtype=np.float64)
    for a in range(n_moves):
        out[a] = N[root, a]
    for i in range(n_touched):
        t = touched[i]
        seen[t] = False
        for a in range(n_moves):
            N[t, a] = 0.0
            W[t, a] = 0.0
            if kind == 2:
                T3[t, a, 0] = 0.0
                T3[t, a, 1] = 0.0
                T3[t, a, 2] = 0.0
    return out


def _choose(visits, prior, legal):
    """The most visited legal move; ties to the larger prior, then the lowest column."""
    best = -1
    for a in range(len(visits)):
        if not legal[a]:
            continue
        if (
            best < 0
            or visits[a] > visits[best]
            or (visits[a] == visits[best] and prior[a] > prior[best])
        ):
            best = a
    return best


def _play_games(  # noqa: PLR0913 (the kernel's arrays)
    games, seed, sims, kind, c, succ, terminal, learner, prior, value, counts, opp_cum, scratch
):
    """Sampled games from the start: the searcher against an opponent given by
    cumulative move probabilities; returns (wins, draws, losses) for the learner."""
    np.random.seed(seed)
    N, W, T3, seen, touched = scratch
    tally = np.zeros(3, dtype=np.int64)
    n_moves = succ.shape[1]
    for _ in range(games):
        s = 0
        while terminal[s] == 2:
            if learner[s]:
                visits = _search_impl(
                    s,
                    sims,
                    kind,
                    c,
                    succ,
                    terminal,
                    learner,
                    prior,
                    value,
                    counts,
                    N,
                    W,
                    T3,
                    seen,
                    touched,
                )
                a = _choose_impl(visits, prior[s], succ[s] >= 0)
            else:
                u = np.random.random()
                a = n_moves - 1
                for m in range(n_moves):
                    if u < opp_cum[s, m]:
                        a = m
                        break
                while succ[s, a] < 0:  # rounding at the top of the cumulative row
                    a -= 1
            s = succ[s, a]
        t = terminal[s]
        tally[0 if t == 1 else (1 if t == 0 else 2)] += 1
    return tally


def _seed(seed):
    """Seed the random numbers of the search (numba keeps its own, seeded in compiled code)."""
    np.random.seed(seed)


_search_impl = _search
_choose_impl = _choose


@cache
def _kernels():
    """``(search, choose, play_games, seed)``: compiled when numba is installed and not
    refused (:mod:`menace_lib.base.compiling`)."""
    global _search_impl, _choose_impl
    if compiling.forced() is False or not compiling.available():
        return _search, _choose, _play_games, _seed
    import numba

    jit = numba.njit(cache=True, nogil=True)
    _search_impl = jit(_search)
    _choose_impl = jit(_choose)
    return _search_impl, _choose_impl, jit(_play_games), jit(_seed)


def _scratch(n_positions: int, n_moves: int, sims: int, thompson: bool = True):
    """Zeroed scratch arrays of one search (the outcome tallies only for Thompson's)."""
    rows = n_positions if thompson else 1
    return (
        np.zeros((n_positions, n_moves)),
        np.zeros((n_positions, n_moves)),
        np.zeros((rows, n_moves, 3)),
        np.zeros(n_positions, dtype=np.bool_),
        np.zeros(sims + 2, dtype=np.int64),
    )


def search_move(
    arm: str, setting_: SearchSetting, pid: int, budget: int, *, seed: int = 0, scratch=None
) -> int:
    """The move the searcher ``arm`` plays in position ``pid`` after ``budget`` simulations.

    Parameters
    ----------
    arm
        One of ``puct``, ``flat``, ``uct``, ``thompson`` (``puct`` and ``flat`` run the
        same search: the prior in ``setting_`` tells them apart).
    setting_
        The arrays of :func:`setting` (built with ``flat=True`` for the searchers of
        :data:`FLAT_ARMS`).
    pid
        A position where the learner moves.
    budget
        Simulations (0 plays the prior's best move).
    seed
        The random seed of the stochastic searchers (``uct``, ``thompson``).

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.agents.search import setting, search_move
    >>> agent = ml.Menace(ml.MenaceConfig(game="connect4:4x4", filter="decision"))
    >>> search_move("puct", setting(agent), 0, 64) in range(4)
    True
    """
    if arm not in _KIND:
        raise ValueError(f"searcher {arm!r}: choose one of {tuple(_KIND)}")
    budget = check_budget(budget)
    if not setting_.learner[pid]:
        raise ValueError(f"position {pid}: the learner does not move there")
    search, choose, _, seed_kernel = _kernels()
    n, m = setting_.succ.shape
    scratch = scratch or _scratch(n, m, budget, arm == "thompson")
    if arm in ("uct", "thompson"):
        seed_kernel(seed)
    visits = search(
        pid,
        budget,
        _KIND[arm],
        UCT_C if arm == "uct" else PUCT_C,
        setting_.succ,
        setting_.terminal,
        setting_.learner,
        setting_.prior,
        setting_.value,
        setting_.counts,
        *scratch,
    )
    return int(choose(visits, setting_.prior[pid], setting_.succ[pid] >= 0))


# --- scoring -------------------------------------------------------------------------------


def search_table(
    arm: str, setting_: SearchSetting, opponent: TableOpponent, budget: int
) -> tuple[np.ndarray, int]:
    """The deterministic searcher's move at every position the opponent's replies reach.

    Returns ``(moves, searched)``: per position the move played (``-1`` where the
    search never ran) and how many positions were searched.
    """
    if arm not in ("puct", "flat"):
        raise ValueError(f"searcher {arm!r} is not deterministic: score it by sampled games")
    budget = check_budget(budget)
    T = game_tables(opponent.game)
    search, choose, _, _ = _kernels()
    n, m = setting_.succ.shape
    scratch = _scratch(n, m, budget, False)
    support = opponent.distribution() > 0
    moves = np.full(n, -1, dtype=np.int64)
    frontier = {0}
    searched = 0
    for _ply in range(int(T.ply.max()) + 1):
        nxt: set[int] = set()
        for s in sorted(frontier):
            if setting_.terminal[s] != 2:
                continue
            if setting_.learner[s]:
                visits = search(
                    s,
                    budget,
                    0,
                    PUCT_C,
                    setting_.succ,
                    setting_.terminal,
                    setting_.learner,
                    setting_.prior,
                    setting_.value,
                    setting_.counts,
                    *scratch,
                )
                a = int(choose(visits, setting_.prior[s], setting_.succ[s] >= 0))
                moves[s] = a
                searched += 1
                nxt.add(int(setting_.succ[s, a]))
            else:
                nxt.update(int(x) for x in setting_.succ[s][support[s]])
        frontier = nxt
    return moves, searched


def greedy_table(agent: Menace) -> np.ndarray:
    """Per position, the colour with the most beads (``-1`` where the learner does not
    move); ties to the lowest column."""
    T = game_tables(agent.game)
    P = np.asarray(agent.policy_matrix()[0], dtype=float)
    mine = (T.outcome == ONGOING) & (T.player == agent.player)
    P = np.where(T.succ >= 0, P, -1.0)
    return np.where(mine, P.argmax(axis=1), -1)


def _one_hot(moves: np.ndarray, n_moves: int) -> np.ndarray:
    out = np.zeros((len(moves), n_moves))
    rows = np.flatnonzero(moves >= 0)
    out[rows, moves[rows]] = 1.0
    return out


def search_outcome(
    arm: str, agent: Menace, counts: OutcomeCounts, opponent: TableOpponent, budget: int
) -> dict[str, float]:
    """Exact win/draw/loss probabilities of a deterministic searcher against ``opponent``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.agents.search import OutcomeCounts, search_outcome
    >>> agent = ml.Menace(ml.MenaceConfig(game="connect4:4x4", filter="decision"))
    >>> perfect = ml.make_opponent("perfect", "uniform", game="connect4:4x4")
    >>> r = search_outcome("puct", agent, OutcomeCounts("connect4:4x4"), perfect, 4)
    >>> round(sum(r.values()), 12)
    1.0
    """
    if arm == "greedy":
        moves = greedy_table(agent)
    else:
        moves, _ = search_table(arm, setting(agent, counts, flat=arm == "flat"), opponent, budget)
    n_moves = game_tables(agent.game).succ.shape[1]
    return exact_table_outcome(_one_hot(moves, n_moves), agent.player, opponent)


def sampled_search_outcome(
    arm: str,
    agent: Menace,
    counts: OutcomeCounts,
    opponent: TableOpponent,
    budget: int,
    games: int,
    seed: int,
) -> dict[str, dict[str, float]]:
    """Sampled win/draw/loss rates of a searcher over ``games`` games, with Wilson 95 %
    intervals: ``{"win": {"rate", "low", "high"}, ...}``.

    Every searcher can be sampled (the exact scorer's test uses this on ``puct``).
    """
    if arm not in _KIND:
        raise ValueError(f"searcher {arm!r}: choose one of {tuple(_KIND)}")
    budget = check_budget(budget)
    games = check_count("games", games, MAX_GAMES, minimum=1)
    s = setting(agent, counts, flat=arm in FLAT_ARMS)
    D = opponent.distribution()
    cum = np.ascontiguousarray(np.cumsum(D, axis=1))
    _, _, play, _ = _kernels()
    n, m = s.succ.shape
    c = UCT_C if arm == "uct" else PUCT_C
    tally = play(
        games,
        seed,
        budget,
        _KIND[arm],
        c,
        s.succ,
        s.terminal,
        s.learner,
        s.prior,
        s.value,
        s.counts,
        cum,
        _scratch(n, m, budget, arm == "thompson"),
    )
    out = {}
    for i, name in enumerate(("win", "draw", "loss")):
        ci = proportion_ci(int(tally[i]), games)
        out[name] = {"rate": ci["rate"], "low": ci["low"], "high": ci["high"]}
    return out


def arm_outcome(
    arm: str,
    agent: Menace,
    counts: OutcomeCounts,
    opponent: TableOpponent,
    budget: int,
    *,
    games: int = 400,
    seed: int = 0,
) -> dict:
    """One searcher's score: exact where it can be, else sampled (``"scored"`` says which).

    Returns ``{"scored": "exact" | "sampled", "win", "draw", "loss"}`` (plus ``"low"``
    and ``"high"`` Wilson bounds of the loss rate when sampled).
    """
    if arm == "menace":
        rates = exact_outcome(agent.frozen_copy(), opponent)
        return {"scored": "exact", **rates}
    if arm in DETERMINISTIC_ARMS:
        return {"scored": "exact", **search_outcome(arm, agent, counts, opponent, budget)}
    r = sampled_search_outcome(arm, agent, counts, opponent, budget, games, seed)
    return {
        "scored": "sampled",
        **{k: v["rate"] for k, v in r.items()},
        "low": r["loss"]["low"],
        "high": r["loss"]["high"],
    }
