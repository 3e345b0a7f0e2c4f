"""Tabular temporal-difference baselines: Q-learning and SARSA.

Both agents follow the thesis's implementation (reference notes §6):

* **Table.** ``Q[s][a]`` over canonical positions ``s`` and canonical squares
  ``a``, initialised to ``q_init``; the state filter plays no part.
* **Acting.** The legal moves are the raw empty squares in ascending order, each
  mapped to its canonical square, *kept in raw order*. One uniform number
  ``u`` is drawn per move; if ``u < epsilon`` a second draw picks a legal move
  uniformly, otherwise the move with the largest ``Q`` is played, ties going to
  the **last** tied move of that list (Rust's ``max_by``).
* **Exploration schedule.** ``epsilon`` starts at 0.5 and after every training
  game becomes ``max(epsilon * 0.995, 0.01)``, reaching the floor after 781
  games. Frozen copies (validation) keep the final ``epsilon``, as the reference
  does; ``greedy_validation=True`` makes them greedy instead.
* **Rewards.** ``+1`` win, ``+0.5`` draw, ``-1`` loss, on the final transition only.
* **Transitions.** The opponent's reply is folded into the transition: from the
  agent's move in ``s`` the next state is the agent's next decision position.
  Q-learning updates each move in order with target ``gamma * max_a' Q(s', a')``,
  or the reward for the agent's last move. SARSA updates the previous move at
  each agent move ``t > 0`` with target ``gamma * Q(s_t, a_t)`` -- or the reward
  if move ``t`` itself ends the game -- and finally the last move with the
  reward, so when the agent's own move ends the game its last two moves both
  receive the reward without bootstrapping.

Both implement the :class:`~menace_lib.training.Learner` protocol, so
:func:`~menace_lib.training.train`, :func:`~menace_lib.training.validate` and
:func:`~menace_lib.evaluation.exact_outcome` work unchanged.
"""

from __future__ import annotations

import copy
import math
from functools import cache
from operator import itemgetter

import numpy as np

from .agent import PolicyMatrix
from .board import TRANSFORMS, O, X
from .games import play_games
from .menace import DRAW_RESULT, LOSS, WIN, Menace, MenaceConfig
from .statespace import ONGOING, tables

__all__ = ["QLearning", "Sarsa", "epsilon_after"]


def _check(name: str, value: float, low: float, high: float, *, open_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    too_low = value <= low if open_low else value < low
    if not math.isfinite(value) or too_low or value > high:
        bracket = "(" if open_low else "["
        raise ValueError(f"{name} must lie in {bracket}{low:g}, {high:g}], got {value!r}")
    return value


def epsilon_after(games: int, epsilon: float = 0.5, decay: float = 0.995, floor: float = 0.01):
    """Exploration rate after ``games`` training games of the reference schedule."""
    for _ in range(games):
        epsilon = max(epsilon * decay, floor)
    return epsilon


@cache
def _lookups(player: int) -> dict:
    """Per raw position: canonical id, raw legal moves and their canonical squares."""
    T = tables()
    legal = [tuple(T.legal(pid)) for pid in range(T.n_positions)]
    canon_moves = []
    for pid, moves in enumerate(legal):
        t = TRANSFORMS[int(T.canon_transform[pid])]
        canon_moves.append(tuple(t[m] for m in moves))
    agent_rows = (T.outcome == ONGOING) & (T.player == player)
    canon_square = np.array([TRANSFORMS[int(t)] for t in T.canon_transform], dtype=np.intp)
    return {
        "canon": [int(c) for c in T.canon],
        "legal": legal,
        "canon_moves": canon_moves,
        "succ": [tuple(int(v) for v in row) for row in T.succ],
        "result": Menace(MenaceConfig(player=player)).result,
        "agent_rows": agent_rows,
        "canon_square": canon_square,  # (N, 9): canonical square of each raw square
    }


class _TabularTD:
    """Shared machinery of the two TD learners (see the module docstring).

    Parameters
    ----------
    learning_rate
        η in (0, 1].
    discount
        γ in [0, 1].
    epsilon
        Initial exploration rate in [0, 1].
    epsilon_decay
        Factor applied after every training game, in [0, 1].
    min_epsilon
        Floor of the exploration rate, in [0, 1].
    q_init
        Initial value of every Q entry (finite).
    rewards
        Terminal rewards (win, draw, loss), finite.
    player
        The agent's side (X moves first).
    greedy_validation
        False (the reference): frozen copies keep the final ε. True: frozen
        copies play greedily (ε = 0).
    """

    kind = "td"

    def __init__(
        self,
        learning_rate: float = 0.5,
        discount: float = 0.99,
        epsilon: float = 0.5,
        epsilon_decay: float = 0.995,
        min_epsilon: float = 0.01,
        q_init: float = 0.0,
        rewards: tuple[float, float, float] = (1.0, 0.5, -1.0),
        *,
        player: int = X,
        greedy_validation: bool = False,
    ) -> None:
        self.learning_rate = _check("learning_rate η", learning_rate, 0.0, 1.0, open_low=True)
        self.discount = _check("discount γ", discount, 0.0, 1.0)
        self.epsilon = _check("epsilon ε", epsilon, 0.0, 1.0)
        self.epsilon_decay = _check("epsilon_decay", epsilon_decay, 0.0, 1.0)
        self.min_epsilon = _check("min_epsilon", min_epsilon, 0.0, 1.0)
        self.q_init = _check("q_init", q_init, -math.inf, math.inf)
        if len(rewards) != 3:
            raise ValueError(f"rewards must be (win, draw, loss), got {rewards!r}")
        self.rewards = tuple(
            _check(f"rewards[{name}]", r, -math.inf, math.inf)
            for name, r in zip(("win", "draw", "loss"), rewards, strict=True)
        )
        if player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
        self.player = player
        self.greedy_validation = bool(greedy_validation)
        self.frozen = False
        self.games_trained = 0
        self._look = _lookups(player)
        # Rows are canonical position ids; Python lists keep the per-move lookups fast.
        self.q = [[self.q_init] * 9 for _ in range(tables().n_positions)]

    # --- the Learner protocol ------------------------------------------------------

    @property
    def result(self) -> list[int]:
        """Per position: 0/1/2 (win/draw/loss for the agent) at terminals, else -1."""
        return self._look["result"]

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int, int, bool]]:
        """ε-greedy move in raw position ``pid``.

        Returns the raw square and the record ``(pid, canonical state, canonical
        move, whether the move ends the game)``.
        """
        look = self._look
        moves = look["legal"][pid]
        if not moves or look["result"][pid] >= 0:
            raise ValueError(f"no move to make in {tables().text(pid)!r}")
        canon_moves = look["canon_moves"][pid]
        c = look["canon"][pid]
        if rng.random() < self.epsilon:
            j = int(rng.random() * len(moves))  # the reference's second, uniform draw
        else:
            row = self.q[c]
            j = 0
            for i in range(1, len(moves)):
                if row[canon_moves[i]] >= row[canon_moves[j]]:  # ties: the last one
                    j = i
        square = moves[j]
        ends = look["result"][look["succ"][pid][square]] >= 0
        return square, (pid, c, canon_moves[j], ends)

    def end_game(self, trajectory: list, result: int, final: int | None = None) -> None:
        """TD updates for one game, then one step of the ε schedule."""
        if self.frozen:
            return
        if result not in (WIN, DRAW_RESULT, LOSS):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        if trajectory:
            self._update(trajectory, self.rewards[result])
        self.epsilon = max(self.epsilon * self.epsilon_decay, self.min_epsilon)
        self.games_trained += 1

    def frozen_copy(self):
        """A copy that plays with the current table and ε and never learns."""
        twin = copy.copy(self)
        twin.q = [list(row) for row in self.q]
        twin.frozen = True
        if self.greedy_validation:
            twin.epsilon = 0.0
        return twin

    def policy_matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Exact ε-greedy move probabilities in every raw position.

        ``P[s, m] = ε / |A(s)| + (1 - ε) [m is the greedy move]``, the greedy move
        being the last raw square among those tied for the largest ``Q``.
        """
        look = self._look
        T = tables()
        rows = look["agent_rows"]
        legal = (T.succ >= 0) & rows[:, None]
        q = np.asarray(self.q)[np.asarray(look["canon"])[:, None], look["canon_square"]]
        q = np.where(legal, q, -np.inf)
        greedy = 8 - np.argmax(q[:, ::-1], axis=1)  # the last maximum in raw order
        n_legal = np.maximum(legal.sum(axis=1), 1)
        P = np.where(legal, self.epsilon / n_legal[:, None], 0.0)
        live = np.flatnonzero(rows)
        P[live, greedy[live]] += 1.0 - self.epsilon
        return PolicyMatrix(P, rows.copy(), np.zeros(T.n_positions, dtype=bool))

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities over canonical squares in canonical ``state``."""
        return self.policy_matrix().probabilities[int(state)]

    def train_against(self, opponent, games: int, rng: np.random.Generator, *, record=True):
        """Play and learn against a scripted opponent (:func:`menace_lib.games.play_games`)."""
        return play_games(self, opponent, games, rng, record=record)

    # --- description ------------------------------------------------------------------

    def config(self) -> dict:
        return {
            "agent": self.kind,
            "learning_rate": self.learning_rate,
            "discount": self.discount,
            "epsilon": self.epsilon,
            "epsilon_decay": self.epsilon_decay,
            "min_epsilon": self.min_epsilon,
            "q_init": self.q_init,
            "rewards": list(self.rewards),
            "player": "XO"[self.player - 1],
            "greedy_validation": self.greedy_validation,
        }

    def q_values(self, pid: int) -> dict[int, float]:
        """Q of each legal raw square in raw position ``pid``."""
        look = self._look
        row = self.q[look["canon"][pid]]
        return {
            m: row[cm] for m, cm in zip(look["legal"][pid], look["canon_moves"][pid], strict=True)
        }

    def _update(self, trajectory: list, reward: float) -> None:
        raise NotImplementedError


class QLearning(_TabularTD):
    """Off-policy tabular Q-learning (see the module docstring for the exact rules)."""

    kind = "q-learning"

    @property
    def name(self) -> str:
        return "Q-learning"

    def _update(self, trajectory: list, reward: float) -> None:
        q, eta, gamma = self.q, self.learning_rate, self.discount
        legal_values = _legal_getters()
        last = len(trajectory) - 1
        for t, (_, c, a, _) in enumerate(trajectory):
            if t < last:  # the opponent replied and the game went on: bootstrap
                nxt = trajectory[t + 1][1]
                target = gamma * max(legal_values[nxt](q[nxt]))
            else:
                target = reward
            q[c][a] += eta * (target - q[c][a])


class Sarsa(_TabularTD):
    """On-policy tabular SARSA (see the module docstring for the exact rules)."""

    kind = "sarsa"

    @property
    def name(self) -> str:
        return "SARSA"

    def _update(self, trajectory: list, reward: float) -> None:
        q, eta, gamma = self.q, self.learning_rate, self.discount
        for t in range(1, len(trajectory)):
            _, c, a, ends = trajectory[t]
            _, pc, pa, _ = trajectory[t - 1]
            target = reward if ends else gamma * q[c][a]
            q[pc][pa] += eta * (target - q[pc][pa])
        _, c, a, _ = trajectory[-1]
        q[c][a] += eta * (reward - q[c][a])


@cache
def _legal_getters() -> list:
    """Per canonical position, a function giving a Q row's legal entries as a tuple."""
    T = tables()
    getters = []
    for pid in range(T.n_positions):
        moves = T.legal(pid) if T.canon[pid] == pid else []
        if len(moves) == 1:
            getters.append(lambda row, m=moves[0]: (row[m],))
        else:  # itemgetter of several items returns a tuple; none only at terminals
            getters.append(itemgetter(*moves) if moves else None)
    return getters
