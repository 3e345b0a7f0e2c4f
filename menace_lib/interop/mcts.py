"""A yardstick for the field's searchers: OpenSpiel's ``MCTSBot`` scored exactly.

OpenSpiel's Monte Carlo tree search (``open_spiel.python.algorithms.mcts.MCTSBot``), with
the settings of OpenSpiel's own example (``uct_c = 2``, one random rollout per leaf,
``solve=True``), at a budget of ``simulations``, plays a library game through its
OpenSpiel twin (:mod:`menace_lib.interop.bridges`). The bot draws random numbers; seeded
afresh from ``(seed, position)`` at every position it is asked about, it becomes one
deterministic policy per seed, and the library scores that policy *exactly* against its
perfect player by one backward pass (:func:`menace_lib.exact_outcome`), with no sampling
noise: the bot is asked only in the positions it can reach against that opponent.

:func:`mcts_table` gives the win, draw and loss probabilities, averaged over seeds, at a
few budgets, beside :func:`menace_curve`: MENACE's exact rates after a number of
training games (the book's table; ``scripts/interop_mcts_table.py`` writes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base.extras import require
from ..games.agent import PolicyMatrix
from ..games.game import ONGOING
from ..games.registry import game_tables, get_game
from ..play.evaluation import exact_outcome
from ..play.opponents import make_opponent
from .bridges import spiel_bridge
from .openspiel import load_spiel

__all__ = [
    "SPIEL_TWINS",
    "MctsPolicy",
    "mcts_outcome",
    "mcts_policy",
    "mcts_table",
    "menace_curve",
]

SPIEL_TWINS = {
    "noughts-and-crosses": ("tic_tac_toe", None),
    "connect4:4x4": ("connect_four", {"rows": 4, "columns": 4, "x_in_row": 4}),
    "hexapawn": ("python_hexapawn", None),
}
"""Library game -> its OpenSpiel twin (name, parameters)."""

UCT_C = 2.0
"""The exploration constant of OpenSpiel's MCTS example (``examples/mcts.py``)."""
ROLLOUTS = 1
"""Random rollouts per leaf in OpenSpiel's example."""


@dataclass
class MctsPolicy:
    """A deterministic policy read from seeded ``MCTSBot`` calls: an agent for exact
    evaluation (``player``, ``game``, ``policy_matrix``).

    Attributes
    ----------
    queried
        Positions the bot was asked about (its moves there are one-hot rows).
    """

    game: str
    player: int
    probabilities: np.ndarray
    queried: int

    def policy_matrix(self) -> PolicyMatrix:
        T = game_tables(self.game)
        rows = (T.outcome == ONGOING) & (T.player == self.player)
        return PolicyMatrix(self.probabilities, rows, np.zeros(T.n_positions, dtype=bool))


def _twin(game: str) -> tuple[Any, Any]:
    from .bridges import adapted_bridge
    from .openspiel import OpenSpielGame

    found = get_game(game)
    if isinstance(found, OpenSpielGame):  # an OpenSpiel game itself: its own twin
        return found.spiel, adapted_bridge(found.spiel)
    if game not in SPIEL_TWINS:
        raise ValueError(
            f"game {game!r} has no OpenSpiel twin here; choose one of {list(SPIEL_TWINS)}"
        )
    spiel = load_spiel(*SPIEL_TWINS[game])
    return spiel, spiel_bridge(spiel)


def mcts_policy(
    game: str,
    simulations: int,
    *,
    player: int = 1,
    seed: int = 0,
    opponent: str = "perfect",
    tie_break: str = "uniform",
) -> MctsPolicy:
    """``MCTSBot``'s choices in every position it reaches against ``opponent``.

    Parameters
    ----------
    game
        A library game with an OpenSpiel twin (:data:`SPIEL_TWINS`), or an OpenSpiel game
        loaded by :func:`~menace_lib.interop.openspiel.spiel_game`.
    simulations
        The bot's budget (``max_simulations``), from 1 to 100,000.
    player
        The library side the bot plays.
    seed
        The bot's generator at position ``pid`` is seeded by ``(seed, pid)``.
    opponent, tie_break
        The library's scripted opponent whose replies the walk follows (every move the
        opponent may play).
    """
    require("openspiel", "MCTSBot")
    from open_spiel.python.algorithms import mcts

    if (
        isinstance(simulations, bool)
        or not isinstance(simulations, int)
        or not (1 <= simulations <= 100_000)
    ):
        raise ValueError(f"simulations {simulations!r}: expected an integer from 1 to 100,000")
    if player not in (1, 2):
        raise ValueError(f"player {player!r}: expected 1 or 2")
    spiel, bridge = _twin(game)
    T = game_tables(game)
    opp = make_opponent(opponent, tie_break, game=game)
    legal = T.succ >= 0
    live = T.outcome == ONGOING
    # Rows the bot never reaches stay uniform over the legal moves (they carry weight 0).
    P = np.where(legal & live[:, None], 1.0, 0.0)
    P /= np.maximum(P.sum(axis=1, keepdims=True), 1.0)
    queried = 0
    stack = [(0, spiel.new_initial_state())]
    seen = {0}
    while stack:
        pid, state = stack.pop()
        if not live[pid]:
            continue
        if T.player[pid] == player:
            rs = np.random.RandomState(np.random.SeedSequence([seed, pid]).generate_state(1))
            evaluator = mcts.RandomRolloutEvaluator(ROLLOUTS, rs)
            bot = mcts.MCTSBot(spiel, UCT_C, simulations, evaluator, random_state=rs)
            move = bridge.move(bot.step(state.clone()))
            P[pid] = 0.0
            P[pid, move] = 1.0
            queried += 1
            moves = [move]
        else:
            moves = list(opp.choices[pid])
        for m in moves:
            child = int(T.succ[pid, m])
            if child not in seen:
                seen.add(child)
                stack.append((child, state.child(bridge.action(m))))
    return MctsPolicy(game, player, P, queried)


def mcts_outcome(
    game: str,
    simulations: int,
    *,
    player: int = 1,
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    tie_break: str = "uniform",
) -> dict[str, Any]:
    """``MCTSBot``'s exact win/draw/loss against the perfect player, averaged over seeds.

    Returns
    -------
    dict
        ``win``, ``draw``, ``loss`` (means over ``seeds``), ``per_seed`` (each seed's
        rates) and ``queried`` (positions the bot was asked, summed over seeds).

    Examples
    --------
    >>> r = mcts_outcome("noughts-and-crosses", 1000, seeds=(0,))
    >>> r["win"], r["loss"]  # a thousand simulations never lose here
    (0.0, 0.0)
    """
    get_game(game)
    per_seed = []
    queried = 0
    for s in seeds:
        policy = mcts_policy(game, simulations, player=player, seed=s, tie_break=tie_break)
        per_seed.append(exact_outcome(policy, make_opponent("perfect", tie_break, game=game)))
        queried += policy.queried
    mean = {k: float(np.mean([r[k] for r in per_seed])) for k in ("win", "draw", "loss")}
    return {**mean, "per_seed": per_seed, "queried": queried}


def menace_curve(
    game: str,
    games: Sequence[int],
    *,
    player: int = 1,
    training: str = "perfect",
    seed: int = 0,
    tie_break: str = "uniform",
) -> list[dict[str, Any]]:
    """MENACE's exact rates against the perfect player after each count of ``games``.

    A MENACE with the library's defaults for ``game`` (noughts and crosses: Michie's
    boxes; other games: a box for every position of its side with a choice) trains
    against ``training`` (a scripted opponent of the game), seeded by ``seed``.
    """
    import menace_lib as ml

    filt = "michie" if game == "noughts-and-crosses" else "decision"
    agent = ml.Menace(ml.MenaceConfig(game=game, player=player, filter=filt))
    rng = np.random.default_rng(seed)
    coach = make_opponent(training, tie_break, game=game)
    perfect = make_opponent("perfect", tie_break, game=game)
    rows, done = [], 0
    for n in games:
        if n > done:
            agent.train_against(coach, n - done, rng, record=False)
            done = n
        rows.append({"games": n, **exact_outcome(agent, perfect)})
    return rows


def mcts_table(
    game: str,
    budgets: Sequence[int] = (10, 100, 1000),
    *,
    player: int = 1,
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    menace_games: Sequence[int] = (0, 100, 1000, 10000),
    tie_break: str = "uniform",
) -> list[dict[str, Any]]:
    """Rows ``{"player", "budget", "win", "draw", "loss"}``: ``MCTSBot`` at each budget
    (``"MCTSBot"``, ``n`` simulations), then MENACE after each count of training games
    (``"MENACE"``, ``n`` games), all scored exactly against the perfect player."""
    rows = []
    for b in budgets:
        r = mcts_outcome(game, b, player=player, seeds=seeds, tie_break=tie_break)
        rows.append(
            {"player": "MCTSBot", "budget": b, **{k: r[k] for k in ("win", "draw", "loss")}}
        )
    for r in menace_curve(game, menace_games, player=player, tie_break=tie_break):
        rows.append(
            {"player": "MENACE", "budget": r["games"], **{k: r[k] for k in ("win", "draw", "loss")}}
        )
    return rows
