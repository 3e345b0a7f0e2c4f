"""Into the field: any trained agent as a policy in a PettingZoo environment.

A saved agent plays a full game of PettingZoo's ``tictactoe_v3`` in three lines::

    import menace_lib as ml
    from pettingzoo.classic import tictactoe_v3
    ml.interop.play_pettingzoo(ml.load_agent("menace.json"), tictactoe_v3.env(), seed=0)

:class:`PettingZooPolicy` is the adapter: given an agent of the library (any kind that
:func:`menace_lib.load_agent` reads) and an AEC environment of a game the library
knows, it maps what the environment shows to the library's position and the agent's
move back to the environment's action, through the environment's bridge
(:mod:`menace_lib.interop.bridges`, the one place that knows both numberings).
:func:`play_pettingzoo` plays one game with it, the agent on its own side.

Which environments
------------------
* PettingZoo's ``tictactoe_v3``, for agents of noughts and crosses.
* PettingZoo's ``connect_four_v3`` is Connect-4 on the 7×6 board, which the library
  cannot tabulate: no agent plays it, and an agent of a smaller board is refused in one
  line naming both boards. Connect-4 on a board the library holds comes through Shimmy:
  :func:`openspiel_env` ``("connect_four", {"rows": 4, "columns": 4})``.
* Every OpenSpiel game through Shimmy (:func:`openspiel_env`): ``tic_tac_toe``,
  ``connect_four`` on the agent's board, ``python_hexapawn`` (:func:`hexapawn_env`), and
  any game loaded by :func:`~menace_lib.interop.openspiel.spiel_game` for agents trained
  on it.

Any other environment, or an agent of another game, is refused in one line before play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.extras import require
from ..games.registry import DEFAULT_GAME, game_tables
from .bridges import Bridge, pettingzoo_bridge

__all__ = ["PettingZooPolicy", "hexapawn_env", "openspiel_env", "play_pettingzoo"]

RESULTS = {1: "win", 0: "draw", -1: "loss"}
"""The sign of an agent's final reward -> its result."""


class ResignedError(RuntimeError):
    """The agent conceded (an empty matchbox that nothing refills): PettingZoo has no
    resign action, so :func:`play_pettingzoo` scores it a loss and stops."""


def _game_of(agent: Any) -> str:
    return getattr(agent, "game", DEFAULT_GAME)


def _bridge(env: Any, game: str) -> Bridge:
    """The environment's bridge, checked against the agent's game, or a one-line error."""
    bridge = pettingzoo_bridge(env, game)
    raw = env.unwrapped
    label = raw.metadata.get("name", type(raw).__name__)
    if label == "OpenSpielCompatibilityV0":
        label = f"OpenSpiel {raw._env}"
    if bridge is None:
        raise ValueError(
            f"{label}: not a game the library knows (tictactoe_v3, connect_four_v3, "
            "or an OpenSpiel game through Shimmy: tic_tac_toe, connect_four, "
            "python_hexapawn, or one loaded by spiel_game)"
        )
    if bridge.library != game:
        raise ValueError(f"{label} plays {bridge.library}; this agent plays {game}")
    return bridge


class PettingZooPolicy:
    """A library agent as a policy for a PettingZoo AEC environment.

    Parameters
    ----------
    agent
        Any :class:`~menace_lib.games.agent.Agent` (or a scripted opponent of
        :func:`menace_lib.make_opponent`); its ``game`` (noughts and crosses if it has
        none) must be the environment's game.
    env
        A PettingZoo AEC environment (see the module docstring for which).
    side
        The library side it plays, 1 (first) or 2; the agent's own ``player`` by default.
    seed
        Seeds the generator the agent draws its moves with.

    Attributes
    ----------
    name
        The environment's name of the player it acts for (``"player_1"`` in
        ``tictactoe_v3``, ``"player_0"`` through Shimmy).

    Examples
    --------
    >>> import menace_lib as ml
    >>> from pettingzoo.classic import tictactoe_v3
    >>> env = tictactoe_v3.env()
    >>> policy = ml.interop.PettingZooPolicy(ml.make_opponent("perfect"), env, side=1)
    >>> env.reset(seed=0)
    >>> env.step(policy(env.observe(policy.name)))  # the perfect player's first move
    >>> int(env.observe("player_2")["observation"][0, 0, 1])  # X in the top-left cell
    1
    """

    def __init__(
        self, agent: Any, env: Any, *, side: int | None = None, seed: int | None = None
    ) -> None:
        require("pettingzoo", "a PettingZoo policy")
        self.agent = agent
        self.game = _game_of(agent)
        self.bridge = _bridge(env, self.game)
        self.side = int(getattr(agent, "player", 1) if side is None else side)
        if self.side not in (1, 2):
            raise ValueError(f"side {side!r}: expected 1 (first player) or 2")
        self.env = env
        self.name = env.unwrapped.possible_agents[self.side - 1]
        self.tables = game_tables(self.game)
        self.rng = np.random.default_rng(seed)

    def position(self, observation: Any) -> int:
        """The library position id of what the environment shows the player."""
        return self.tables.id_of(self.bridge.position(observation, self.side))

    def __call__(self, observation: Any, name: str | None = None) -> int:
        """The environment action the agent plays, given its observation.

        Raises
        ------
        ResignedError
            If the agent concedes (:data:`~menace_lib.games.agent.RESIGN` or ``STOP``).
        ValueError
            If ``name`` is not the player this policy acts for.
        """
        if name is not None and name != self.name:
            raise ValueError(f"this policy plays {self.name}, not {name}")
        pid = self.position(observation)
        move, _ = self.agent.act(pid, self.rng)
        if move < 0:
            raise ResignedError(f"{self.name} resigned in position {self.tables.text(pid)}")
        return self.bridge.action(int(move))


def _action_mask(env: Any, name: str, observation: Any) -> np.ndarray:
    if isinstance(observation, dict) and "action_mask" in observation:
        return np.asarray(observation["action_mask"])
    return np.asarray(env.infos[name]["action_mask"])


def play_pettingzoo(
    agent: Any,
    env: Any,
    opponent: Any = None,
    *,
    seed: int | None = 0,
) -> dict[str, Any]:
    """Play one full game of a PettingZoo environment with ``agent`` on its side.

    Parameters
    ----------
    agent
        A library agent (e.g. ``ml.load_agent(path)``); it plays its own side
        (``agent.player``).
    env
        A PettingZoo AEC environment of the agent's game (see the module docstring).
    opponent
        The other side: ``None`` for uniformly random legal moves, a library agent or
        scripted opponent (``ml.make_opponent("perfect")``), or any callable
        ``(observation, name) -> action``.
    seed
        Seeds the environment's reset, the agent's draws and the random opponent.

    Returns
    -------
    dict
        ``result`` (``"win"``, ``"draw"`` or ``"loss"`` for the agent), ``rewards``
        (each player's final reward, read from ``env.last()`` at its terminal step,
        since PettingZoo empties ``env.rewards`` when the game ends), ``actions`` (the
        environment's actions in order) and ``resigned``.

    Examples
    --------
    A saved agent file plays a full game in three lines (the first two and the last):

    >>> import menace_lib as ml
    >>> from pettingzoo.classic import tictactoe_v3
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = ml.save_agent(ml.Menace(), pathlib.Path(folder) / "menace.json")
    ...     game = ml.play_pettingzoo(ml.load_agent(path), tictactoe_v3.env(), seed=0)
    >>> game["result"], game["actions"][:3]
    ('win', [7, 3, 1])
    """
    mine = PettingZooPolicy(agent, env, seed=seed)
    theirs = _opponent(opponent, env, 3 - mine.side, seed)
    env.reset(seed=seed)
    rewards: dict[str, float] = {}
    actions: list[int] = []
    resigned = False
    for name in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[name] = float(reward)  # the only place the final reward survives
            env.step(None)
            continue
        try:
            action = mine(observation) if name == mine.name else theirs(observation, name)
        except ResignedError:
            resigned = True
            rewards = {mine.name: -1.0, **{n: 1.0 for n in env.agents if n != mine.name}}
            break
        actions.append(int(action))
        env.step(action)
    sign = int(np.sign(rewards.get(mine.name, 0.0)))
    return {"result": RESULTS[sign], "rewards": rewards, "actions": actions, "resigned": resigned}


def _opponent(opponent: Any, env: Any, side: int, seed: int | None) -> Callable[[Any, str], int]:
    if opponent is None:
        rng = np.random.default_rng(None if seed is None else seed + 1)

        def random_policy(observation: Any, name: str) -> int:
            legal = np.flatnonzero(_action_mask(env, name, observation))
            return int(rng.choice(legal))

        return random_policy
    if hasattr(opponent, "act"):
        policy = PettingZooPolicy(opponent, env, side=side, seed=None if seed is None else seed + 1)
        return lambda observation, name: policy(observation)
    if callable(opponent):
        return opponent
    raise ValueError(f"opponent {str(opponent)[:40]!r}: expected None, an agent or a callable")


def openspiel_env(game: Any, params: dict | None = None, *, render_mode: str | None = None):
    """An OpenSpiel game as a PettingZoo AEC environment (Shimmy's
    ``OpenSpielCompatibilityV0``).

    Examples
    --------
    >>> env = openspiel_env("connect_four", {"rows": 4, "columns": 4})
    >>> env.possible_agents
    ['player_0', 'player_1']
    """
    require("pettingzoo", "an OpenSpiel environment")
    from shimmy import OpenSpielCompatibilityV0

    from .openspiel import load_spiel

    spiel = load_spiel(game, params)
    # By name and parameters, not env=spiel: Shimmy's reset reloads the game from its name
    # and config, so a game passed alone comes back with default parameters (7x6, not 4x4).
    return OpenSpielCompatibilityV0(
        game_name=spiel.get_type().short_name,
        config=dict(spiel.get_parameters()) or None,
        render_mode=render_mode,
    )


def hexapawn_env(render_mode: str | None = None):
    """Hexapawn as a PettingZoo AEC environment (``python_hexapawn`` through Shimmy)."""
    return openspiel_env("python_hexapawn", render_mode=render_mode)
