"""The agent interface: what every learner offers to play, training and evaluation.

Every learner in the library -- MENACE in each layout, the Active Inference agents,
Q-learning and SARSA, and the other matchbox machines -- satisfies :class:`Agent`.
Training, evaluation, episodes, the experiment suite and the command line talk to
learners only through it, so none of them asks which kind of agent it holds.

A game is a walk over position ids of :func:`menace_lib.games.statespace.tables`. On its
turn the agent is asked to :meth:`Agent.act`; it answers with a raw square, or with
:data:`RESIGN` (it concedes the game, a loss) or :data:`STOP` (it refuses to play
on, which ends a training run: the web MENACE's empty opening box). When the game
is over, :meth:`Agent.end_game` receives the agent's own decision records, the
result from its side and the final position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .results import TrainingLog

RESIGN = -1
"""What :meth:`Agent.act` returns to concede the game (an empty box, no restock).

Examples
--------
>>> import menace_lib as ml
>>> ml.RESIGN
-1
"""

STOP = -2
"""What :meth:`Agent.act` returns to end a training run (the game is discarded).

Examples
--------
>>> import menace_lib as ml
>>> ml.STOP
-2
"""


class PolicyMatrix(NamedTuple):
    """A frozen agent's move probabilities in every raw position.

    Attributes
    ----------
    probabilities
        Shape (positions, 9): ``probabilities[s, m]`` is the chance of playing
        square ``m`` in position ``s``, on rows where the agent moves.
    agent_rows
        Boolean mask of the positions where the agent is to move.
    resign_rows
        Boolean mask of the positions where the agent resigns instead.

    Examples
    --------
    >>> import menace_lib as ml
    >>> policy = ml.Menace().policy_matrix()
    >>> policy.probabilities.shape
    (5478, 9)
    >>> float(policy.probabilities[0].sum())  # the empty board: MENACE's first move
    1.0
    """

    probabilities: np.ndarray
    agent_rows: np.ndarray
    resign_rows: np.ndarray


@runtime_checkable
class Agent(Protocol):
    """A noughts-and-crosses learner.

    Attributes
    ----------
    player
        The side it plays: ``X`` (1) or ``O`` (2).
    frozen
        A frozen agent plays but never learns.
    games_trained
        Games it has learnt from.

    Examples
    --------
    >>> import menace_lib as ml
    >>> isinstance(ml.Menace(), ml.Agent), isinstance(ml.QLearning(), ml.Agent)
    (True, True)
    """

    player: int
    frozen: bool
    games_trained: int

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, Any]:
        """Choose a move in raw position ``pid``: ``(square, record)``.

        ``square`` is a raw square 0-8, or :data:`RESIGN` or :data:`STOP`. The
        record is whatever the agent needs later in :meth:`end_game`.
        """
        ...

    def end_game(self, trajectory: list, result: int, final: int) -> None:
        """Learn from a finished game.

        Parameters
        ----------
        trajectory
            The records :meth:`act` returned, in order.
        result
            0 win, 1 draw, 2 loss, from the agent's side.
        final
            The id of the final position (agents that model the opponent need
            its last move).
        """
        ...

    def frozen_copy(self) -> Agent:
        """An independent copy that plays with the current state and never learns."""
        ...

    def policy_matrix(self) -> PolicyMatrix:
        """The current policy, for exact evaluation."""
        ...

    def canonical_policy(self, state: int) -> np.ndarray:
        """Probabilities of the nine canonical squares in canonical ``state``.

        For the policy diagnostics (thesis eq. 7.4). A matchbox whose colour stands
        for a move class shares the colour's probability evenly among its squares.
        """
        ...

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        """:meth:`canonical_policy` of many canonical states at once, shape (len(states), 9).

        The policy diagnostics ask once for every state of the agent's side.
        """
        ...

    def train_against(
        self, opponent: Any, games: int, rng: np.random.Generator, *, record: bool = True
    ) -> TrainingLog:
        """Play and learn ``games`` games against a scripted opponent.

        Most agents use :func:`menace_lib.play.loop.play_games`; MENACE has a
        table-driven fast path here, parity-tested against the generic loop.
        """
        ...

    def to_dict(self) -> dict:
        """A JSON-safe description that :func:`menace_lib.agents.registry.agent_from_dict` reads."""
        ...


def check_agent(agent: object, *needs: str, name: str = "agent") -> None:
    """A TypeError naming ``name`` unless ``agent`` has every method in ``needs``
    (default ``act``, ``end_game``, ``frozen_copy`` and ``policy_matrix``): the public
    entry points refuse a non-agent at once, instead of failing deep inside."""
    needs = needs or ("act", "end_game", "frozen_copy", "policy_matrix")
    missing = [m for m in needs if not callable(getattr(agent, m, None))]
    if missing or not hasattr(agent, "player"):
        shown = repr(agent) if len(repr(agent)) <= 40 else type(agent).__name__
        raise TypeError(
            f"{name} must be an agent (with {', '.join(missing or ['player'])}), got {shown}"
        )
