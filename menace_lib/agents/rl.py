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

Any game
--------
The agents read only the game's tables (:mod:`menace_lib.games.game`): ``RLConfig.game``
names the game (noughts and crosses by default; ``"hexapawn"``, ``"connect4:4x4"``,
...). "Square" above is then the game's move number and "canonical" its symmetry
group; on noughts and crosses every number is what it was before other games existed.

Both take an :class:`RLConfig` (or its fields as keywords) and satisfy
:class:`~menace_lib.games.agent.Agent`, saving to and loading from a JSON-safe dict.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..base.files import read_progress
from ..base.limits import MAX_GAMES, MAX_REINFORCEMENT, check_count
from ..games.agent import PolicyMatrix
from ..games.agent_file import open_agent_document, settings_from_dict, settings_to_dict
from ..games.board import O, X
from ..games.game import ONGOING, Tables, row_tuples
from ..games.registry import DEFAULT_GAME, check_entry_counts, game_name, game_tables, get_game
from ..machine.menace import DRAW_RESULT, LOSS, WIN, AgentFileError
from ..play.loop import TrainingLog, play_games, result_for

if TYPE_CHECKING:
    from ..play.opponents import TableOpponent

__all__ = ["QLearning", "RLConfig", "Sarsa", "epsilon_after", "train_td_fast"]

FORMAT_VERSION = 1


def _check(name: str, value: Any, low: float, high: float, *, open_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:  # an int beyond a float's range
        value = math.inf
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


@dataclass(frozen=True)
class RLConfig:
    """Hyperparameters of the tabular TD learners (thesis §8.3.2).

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
        The agent's side, X (1) or O (2).
    greedy_validation
        False (the reference): frozen copies keep the final ε. True: frozen
        copies play greedily (ε = 0).
    game
        The game the agent learns (:func:`menace_lib.games.registry.get_game`); X is
        its first player and O its second.

    Examples
    --------
    >>> import menace_lib as ml
    >>> config = ml.RLConfig(learning_rate=0.3, discount=0.9)
    >>> ml.QLearning(config).config.discount
    0.9
    """

    learning_rate: float = 0.5
    discount: float = 0.99
    epsilon: float = 0.5
    epsilon_decay: float = 0.995
    min_epsilon: float = 0.01
    q_init: float = 0.0
    rewards: tuple[float, float, float] = (1.0, 0.5, -1.0)
    player: int = X
    greedy_validation: bool = False
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        get_game(self.game)  # a ValueError naming the known games
        set_(
            self,
            "learning_rate",
            _check("learning_rate η", self.learning_rate, 0.0, 1.0, open_low=True),
        )
        set_(self, "discount", _check("discount γ", self.discount, 0.0, 1.0))
        set_(self, "epsilon", _check("epsilon ε", self.epsilon, 0.0, 1.0))
        set_(self, "epsilon_decay", _check("epsilon_decay", self.epsilon_decay, 0.0, 1.0))
        set_(self, "min_epsilon", _check("min_epsilon", self.min_epsilon, 0.0, 1.0))
        lim = MAX_REINFORCEMENT
        set_(self, "q_init", _check("q_init", self.q_init, -lim, lim))
        rewards = self.rewards
        if (
            isinstance(rewards, (str, bytes))
            or not hasattr(rewards, "__len__")
            or len(rewards) != 3
        ):
            raise ValueError(f"rewards must be (win, draw, loss), got {rewards!r}")
        set_(
            self,
            "rewards",
            tuple(
                _check(f"rewards[{name}]", r, -lim, lim)
                for name, r in zip(("win", "draw", "loss"), rewards, strict=True)
            ),
        )
        if isinstance(self.player, bool) or self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        set_(self, "player", int(self.player))
        if not isinstance(self.greedy_validation, bool):
            raise ValueError(
                f"greedy_validation must be True or False, got {self.greedy_validation!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe fields (``player`` as ``"X"``/``"O"``, ``rewards`` as a list;
        ``game`` only for a game other than noughts and crosses)."""
        # files of noughts-and-crosses agents stay as they were
        return settings_to_dict(self, omit={"game": DEFAULT_GAME})

    @classmethod
    def from_dict(cls, data: Any) -> RLConfig:
        """Inverse of :meth:`to_dict`; ``ValueError`` names an unknown or bad field."""
        return settings_from_dict(cls, data, lists={"rewards": "a list of three numbers"})


@cache
def _lookups(player: int, game: str = DEFAULT_GAME) -> dict:
    """Per raw position: canonical id, raw legal moves and their canonical moves."""
    T = game_tables(game)
    legal_mask = T.succ >= 0
    canon_square = T.move_maps[T.canon_transform].astype(np.intp)  # (N, n_moves)
    legal = row_tuples(legal_mask)
    canon_moves = row_tuples(legal_mask, canon_square[legal_mask])
    agent_rows = (T.outcome == ONGOING) & (T.player == player)
    canon_ids = np.unique(T.canon)
    outcomes = T.outcome.tolist()
    return {
        "n_moves": T.succ.shape[1],
        "canon": tuple(T.canon.tolist()),
        "legal": legal,
        "canon_moves": canon_moves,
        "succ": tuple(tuple(row) for row in T.succ.tolist()),
        "mover": tuple(T.player.tolist()),
        "result": [-1 if o == ONGOING else result_for(player, o) for o in outcomes],
        "agent_rows": agent_rows,
        "canon_square": canon_square,
        "canon_ids": canon_ids.tolist(),
        "canon_array": T.canon.astype(np.intp),
        "agent_ids": np.flatnonzero(agent_rows),
        "canon_rank": np.searchsorted(canon_ids, T.canon).astype(np.intp),
    }


_FILE_KEYS = frozenset({"format", "version", "config", "frozen", "games_trained", "epsilon", "q"})


def _admit(data: dict) -> None:
    """The file's game and its Q rows' count, before any row is read."""
    config = data.get("config")
    game = config.get("game", DEFAULT_GAME) if isinstance(config, dict) else DEFAULT_GAME
    check_entry_counts(game_name(game, what="config.game"), {"": data})


class _TabularTD:
    """Shared machinery of the two TD learners (see the module docstring).

    Parameters
    ----------
    config
        An :class:`RLConfig`; or give its fields as keywords (``Sarsa(epsilon=0.1)``).
    """

    kind = "td"
    FORMAT: ClassVar[str] = ""

    def __init__(self, config: RLConfig | None = None, **fields: Any) -> None:
        if config is None:
            config = RLConfig(**fields)
        elif not isinstance(config, RLConfig):
            raise TypeError(
                f"config must be an RLConfig, got {config!r}; give settings as keywords, "
                f"e.g. {type(self).__name__}(epsilon=0.1)"
            )
        elif fields:
            raise TypeError("give either a config or keyword fields, not both")
        self.config = config
        self.player = config.player
        self.epsilon = config.epsilon
        self.frozen = False
        self.games_trained = 0
        self._look = _lookups(self.player, config.game)
        # Rows are canonical position ids; Python lists keep the per-move lookups fast.
        width = self._look["n_moves"]
        self.q = [[config.q_init] * width for _ in range(self.tables.n_positions)]

    @property
    def game(self) -> str:
        """The name of the game the agent plays."""
        return self.config.game

    @property
    def tables(self) -> Tables:
        """The game's :class:`~menace_lib.games.game.Tables`."""
        return game_tables(self.config.game)

    # --- the Agent interface ---------------------------------------------------------

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
            raise ValueError(f"no move to make in {self.tables.text(pid)!r}")
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
        """TD updates for one game, then one step of the ε schedule (``final`` unused)."""
        if self.frozen:
            return
        if result not in (WIN, DRAW_RESULT, LOSS):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        cfg = self.config
        if trajectory:
            self._update(trajectory, cfg.rewards[result])
        self.epsilon = max(self.epsilon * cfg.epsilon_decay, cfg.min_epsilon)
        self.games_trained += 1

    def frozen_copy(self) -> _TabularTD:
        """A copy that plays with the current table and ε and never learns."""
        twin = copy.copy(self)
        twin.q = [list(row) for row in self.q]
        twin.frozen = True
        if self.config.greedy_validation:
            twin.epsilon = 0.0
        return twin

    def policy_matrix(self) -> PolicyMatrix:
        """Exact ε-greedy move probabilities in every raw position.

        ``P[s, m] = ε / |A(s)| + (1 - ε) [m is the greedy move]``, the greedy move
        being the last raw square among those tied for the largest ``Q``.
        """
        T = self.tables
        rows = self._look["agent_rows"]
        P = np.zeros((T.n_positions, self._look["n_moves"]))
        P[self._look["agent_ids"]] = self._probabilities(self._look["agent_ids"])
        return PolicyMatrix(P, rows.copy(), np.zeros(T.n_positions, dtype=bool))

    def _probabilities(self, positions: np.ndarray) -> np.ndarray:
        """The ε-greedy rows of :meth:`policy_matrix` for ``positions`` only."""
        look = self._look
        live = look["agent_rows"][positions]
        width = look["n_moves"]
        legal = (self.tables.succ[positions] >= 0) & live[:, None]
        canon = look["canon_array"][positions]
        # Only the rows of canonical positions are read (a few hundred, not 5,478).
        if canon.size < len(look["canon_ids"]):
            q_rows = np.array([self.q[c] for c in canon.tolist()], dtype=float).reshape(-1, width)
        else:
            q = self.q
            q_rows = np.array([q[c] for c in look["canon_ids"]], dtype=float)
            q_rows = q_rows[look["canon_rank"][positions]]
        q = np.take_along_axis(q_rows, np.asarray(look["canon_square"])[positions], axis=1)
        q = np.where(legal, q, -np.inf)
        greedy = width - 1 - np.argmax(q[:, ::-1], axis=1)  # the last maximum in raw order
        n_legal = np.maximum(legal.sum(axis=1), 1)
        P = np.where(legal, self.epsilon / n_legal[:, None], 0.0)
        idx = np.flatnonzero(live)
        P[idx, greedy[idx]] += 1.0 - self.epsilon
        return P

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities over canonical squares in canonical ``state``."""
        return self._probabilities(np.array([int(state)]))[0]

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        """:meth:`canonical_policy` of each canonical state in ``states``, in one pass."""
        return self._probabilities(np.asarray(states, dtype=np.intp))

    def train_against(
        self,
        opponent: TableOpponent,
        games: int,
        rng: np.random.Generator,
        *,
        record: bool = True,
    ) -> TrainingLog:
        """Play and learn ``games`` games against a scripted opponent.

        Against a :class:`~menace_lib.play.opponents.TableOpponent` this is the
        table-driven loop :func:`train_td_fast`: the same random draws, games and
        Q updates as :func:`menace_lib.play.loop.play_games` (``tests/test_rl_fast.py``
        checks it over the option grid); any other player goes through
        ``play_games`` itself.
        """
        from ..play.opponents import TableOpponent

        if not isinstance(opponent, TableOpponent):
            return play_games(self, opponent, games, rng, record=record)
        return train_td_fast(self, opponent, games, rng, record=record)

    # --- files ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe description that :meth:`from_dict` reads back.

        ``q`` lists the rows (canonical positions, one value per move) that differ
        from ``q_init``.
        """
        T, init = self.tables, self.config.q_init
        return {
            "format": self.FORMAT,
            "version": FORMAT_VERSION,
            "config": self.config.to_dict(),
            "frozen": self.frozen,
            "games_trained": self.games_trained,
            "epsilon": self.epsilon,
            "q": [
                {"board": T.text(c), "values": list(row)}
                for c, row in enumerate(self.q)
                if any(v != init for v in row)
            ],
        }

    @classmethod
    def from_dict(cls, data: Any) -> _TabularTD:
        """Rebuild an agent from :meth:`to_dict` output, validating every field.

        Raises
        ------
        AgentFileError
            Naming the first bad field.
        """
        # the game and the entries' count before each entry; the schema is
        # menace_lib/schemas/menace_lib.rl.v1.schema.json
        open_agent_document(data, cls.FORMAT, FORMAT_VERSION, admit=_admit, keys=_FILE_KEYS)
        try:
            agent = cls(RLConfig.from_dict(data.get("config")))
        except (TypeError, ValueError) as err:
            raise AgentFileError(f"config: {err}") from None
        frozen, games = read_progress(data)
        try:
            agent.epsilon = _check("epsilon", data.get("epsilon", agent.epsilon), 0.0, 1.0)
        except ValueError as err:
            raise AgentFileError(f"epsilon: {err}") from None
        rows = data.get("q", [])
        if not isinstance(rows, list):
            raise AgentFileError("q: must be a list")
        T, seen = agent.tables, set()
        width = agent._look["n_moves"]
        for i, row in enumerate(rows):
            where = f"q[{i}]"
            if not isinstance(row, dict) or set(row) != {"board", "values"}:
                raise AgentFileError(f"{where}: must be an object with board and values")
            board = row["board"]
            try:
                c = T.canonical_id_of_text(board)
            except ValueError:
                c = -1
            if c < 0 or c in seen:
                raise AgentFileError(
                    f"{where}.board: {str(board)[:40]!r} is not a new canonical position "
                    f"of {agent.game}"
                )
            # A row is a position where the agent chooses: its own turn, game not over.
            if int(T.player[c]) != agent.player or int(T.outcome[c]) != ONGOING:
                raise AgentFileError(
                    f"{where}.board: {str(board)[:40]!r} is not a position where player "
                    f"{'XO'[agent.player - 1]} moves (the other side's turn, or the game is over)"
                )
            seen.add(c)
            values = row["values"]
            if not isinstance(values, list) or len(values) != width:
                raise AgentFileError(f"{where}.values: must list {width} numbers")
            try:
                agent.q[c] = [_check("value", v, -math.inf, math.inf) for v in values]
            except ValueError:
                raise AgentFileError(f"{where}.values: must be finite numbers") from None
        agent.frozen, agent.games_trained = frozen, games
        return agent

    # --- read-out ------------------------------------------------------------------

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
    """Off-policy tabular Q-learning (see the module docstring for the exact rules).

    Parameters
    ----------
    config
        An :class:`RLConfig` (learning rate, discount, exploration, rewards, side).
    **fields
        Any :class:`RLConfig` field, instead of ``config``.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.QLearning(learning_rate=0.3)
    >>> log = ml.train(agent, "random", 200, np.random.default_rng(0))
    >>> len(log)
    200
    """

    kind = "q-learning"
    FORMAT: ClassVar[str] = "menace_lib.rl.qlearning"

    @property
    def name(self) -> str:
        return "Q-learning"

    def _update(self, trajectory: list, reward: float) -> None:
        q, eta, gamma = self.q, self.config.learning_rate, self.config.discount
        legal_values = _legal_getters(self.config.game)
        last = len(trajectory) - 1
        for t, (_, c, a, _) in enumerate(trajectory):
            if t < last:  # the opponent replied and the game went on: bootstrap
                nxt = trajectory[t + 1][1]
                target = gamma * max(legal_values[nxt](q[nxt]))
            else:
                target = reward
            q[c][a] += eta * (target - q[c][a])


class Sarsa(_TabularTD):
    """On-policy tabular SARSA (see the module docstring for the exact rules).

    Parameters
    ----------
    config
        An :class:`RLConfig` (learning rate, discount, exploration, rewards, side).
    **fields
        Any :class:`RLConfig` field, instead of ``config``.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.Sarsa()
    >>> log = ml.train(agent, "random", 200, np.random.default_rng(0))
    >>> len(log)
    200
    """

    kind = "sarsa"
    FORMAT: ClassVar[str] = "menace_lib.rl.sarsa"

    @property
    def name(self) -> str:
        return "SARSA"

    def _update(self, trajectory: list, reward: float) -> None:
        q, eta, gamma = self.q, self.config.learning_rate, self.config.discount
        for t in range(1, len(trajectory)):
            _, c, a, ends = trajectory[t]
            _, pc, pa, _ = trajectory[t - 1]
            target = reward if ends else gamma * q[c][a]
            q[pc][pa] += eta * (target - q[pc][pa])
        _, c, a, _ = trajectory[-1]
        q[c][a] += eta * (reward - q[c][a])


@cache
def _legal_getters(game: str) -> list:
    """Per canonical position, a function giving a Q row's legal entries as a tuple."""
    T = game_tables(game)
    legal, canon = row_tuples(T.succ >= 0), T.canon.tolist()
    getters = []
    for pid in range(T.n_positions):
        moves = legal[pid] if canon[pid] == pid else ()
        if len(moves) == 1:
            getters.append(lambda row, m=moves[0]: (row[m],))
        else:  # itemgetter of several items returns a tuple; none only at terminals
            getters.append(itemgetter(*moves) if moves else None)
    return getters


def train_td_fast(
    agent: _TabularTD,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
    *,
    record: bool = True,
) -> TrainingLog:
    """A Q-learning or SARSA agent plays ``games`` games against a scripted opponent.

    A table-driven copy of :func:`menace_lib.play.loop.play_games` with the agent's
    :meth:`~_TabularTD.act` and :meth:`~_TabularTD.end_game` inlined: per move the
    same calls on ``rng`` (``random()`` for the ε test and the exploring draw,
    ``integers(n)`` for the opponent's choice among ``n`` moves), so the games,
    the Q table, ε and the log are those of the generic loop.
    """
    games = check_count("games", games, MAX_GAMES)
    if getattr(opponent, "game", DEFAULT_GAME) != agent.game:
        raise ValueError(f"opponent {opponent.name!r} plays {opponent.game}, not {agent.game}")
    look = agent._look
    legal, canon_moves, canon = look["legal"], look["canon_moves"], look["canon"]
    succ, outcome_of, mover = look["succ"], look["result"], look["mover"]
    choices = opponent.next_ids
    me, q, cfg = agent.player, agent.q, agent.config
    rewards, decay, floor = cfg.rewards, cfg.epsilon_decay, cfg.min_epsilon
    random, integers = rng.random, rng.integers
    update, frozen = agent._update, agent.frozen
    log = TrainingLog()
    label = opponent.name
    for _ in range(games):
        s = 0
        path: list[tuple[int, int, int, bool]] = []
        moves: list[tuple[int, int]] = []
        epsilon = agent.epsilon
        while outcome_of[s] < 0:
            if mover[s] != me:
                options = choices[s]
                s = options[0] if len(options) == 1 else options[int(integers(len(options)))]
                continue
            squares, cm = legal[s], canon_moves[s]
            c = canon[s]
            if random() < epsilon:
                j = int(random() * len(squares))
            else:
                row = q[c]
                j, best = 0, row[cm[0]]
                for i in range(1, len(squares)):
                    v = row[cm[i]]
                    if v >= best:  # ties: the last one
                        j, best = i, v
            square = squares[j]
            nxt = succ[s][square]
            path.append((s, c, cm[j], outcome_of[nxt] >= 0))
            if record:
                moves.append((s, square))
            s = nxt
        result = outcome_of[s]
        if not frozen:
            if path:
                update(path, rewards[result])
            agent.epsilon = max(epsilon * decay, floor)
            agent.games_trained += 1
        log.results.append(result)
        if record:
            log.paths.append(path)
            log.moves.append(moves)
        log.opponents.append(label)
        log.resigned.append(False)
    return log
