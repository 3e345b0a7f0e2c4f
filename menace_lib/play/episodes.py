"""Recorded play: one episode move by move, and a box's beads across a training run.

The fast training loop (:mod:`menace_lib.machine.engine`) keeps only what the statistics need.
The pictures of the mechanism need more: for one game, each box MENACE opened, the beads
it held when the bead was drawn, which bead came out, and the box after the delayed
update at the end of the game (:func:`play_episode`); and, for a training run, how one
box's beads changed game by game (:func:`bead_history`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..games.board import X, board_to_grid
from ..games.statespace import tables
from ..machine.menace import Menace, MenaceConfig
from .loop import RESULT_NAMES, TrainingLog, play_game
from .opponents import TableOpponent, make_opponent

__all__ = ["Episode", "EpisodeStep", "bead_history", "play_episode"]


@dataclass(frozen=True)
class EpisodeStep:
    """One MENACE move of a recorded episode.

    Attributes
    ----------
    pid
        Position id (:func:`menace_lib.games.statespace.tables`) MENACE moved from.
    board
        That position as a 9-tuple, in the game's own orientation.
    square
        The square MENACE played (``-1``: it resigned at an empty box).
    box
        Index of the box opened (``-1``: no box, e.g. a forced move).
    colour
        Index of the bead colour drawn (``-1`` without a box).
    colour_squares
        For each bead colour of the box, the square it plays on *this* board (the box
        stores canonical squares; here they are mapped back to the game's orientation).
    before
        The box's bead counts when the bead was drawn.
    after
        The same box's bead counts after the end-of-game update.
    """

    pid: int
    board: tuple[int, ...]
    square: int
    box: int
    colour: int
    colour_squares: tuple[int, ...]
    before: tuple[float, ...]
    after: tuple[float, ...]

    @property
    def delta(self) -> tuple[float, ...]:
        """Change of each colour's count over the update (``after - before``)."""
        return tuple(a - b for a, b in zip(self.after, self.before, strict=True))


@dataclass(frozen=True)
class Episode:
    """A recorded game of MENACE against an opponent.

    Attributes
    ----------
    moves
        Every square played, both sides, in order.
    steps
        One :class:`EpisodeStep` per MENACE move.
    result
        0 win, 1 draw, 2 loss, from MENACE's side.
    final_pid
        The final position's id.
    reinforcement
        The number of beads added to each drawn colour (before clamping at 0).
    """

    moves: tuple[int, ...]
    steps: tuple[EpisodeStep, ...]
    result: int
    final_pid: int
    reinforcement: float

    @property
    def result_name(self) -> str:
        return RESULT_NAMES[self.result]

    @property
    def final_board(self) -> tuple[int, ...]:
        return tuple(int(v) for v in tables().cells[self.final_pid])

    @property
    def final_text(self) -> str:
        return board_to_grid(self.final_board)

    @property
    def boxed_steps(self) -> tuple[EpisodeStep, ...]:
        """The steps where a box was opened (the ones the update changes)."""
        return tuple(s for s in self.steps if s.box >= 0)


def _opponent(opponent: str | TableOpponent) -> TableOpponent:
    return make_opponent(opponent) if isinstance(opponent, str) else opponent


@dataclass
class _Witness:
    """Plays for a MENACE and notes the beads of every box it opens, as drawn."""

    agent: Menace
    drawn: list = field(default_factory=list)

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int]]:
        square, box, colour = self.agent.choose(pid, rng)
        # Read the beads after choose(): it may have restocked an empty box first.
        beads = tuple(self.agent.weights[box]) if box >= 0 else ()
        self.drawn.append((pid, square, box, colour, beads))
        return square, (box, colour)


def play_episode(
    agent: Menace,
    opponent: str | TableOpponent,
    rng: np.random.Generator,
    *,
    learn: bool = True,
) -> Episode:
    """Play one game of a MENACE against ``opponent`` and record every MENACE move.

    Parameters
    ----------
    agent
        The MENACE. With ``learn=True`` (and the agent not frozen) it is updated in
        place at the end of the game, exactly as in training; pass ``agent.copy()`` to
        keep the original.
    opponent
        An opponent name (see :func:`menace_lib.play.opponents.make_opponent`) or table.
    rng
        Source of every random draw.
    learn
        Apply the end-of-game reinforcement. Without it ``after`` equals ``before``.

    Returns
    -------
    Episode

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> episode = ml.play_episode(ml.Menace(), "random", np.random.default_rng(0))
    >>> len(episode.steps) > 0
    True
    """
    if not callable(getattr(agent, "choose", None)):
        raise ValueError(f"play_episode shows a MENACE's matchboxes; got {agent!r}")
    witness = _Witness(agent)
    opp = _opponent(opponent)
    me = 0 if agent.player == X else 1
    game = play_game(*((witness, opp) if me == 0 else (opp, witness)), rng)
    if game.stopped:
        raise ValueError("MENACE stopped at an empty opening box: there is no game to show")
    result = game.result(agent.player)
    if learn:
        agent.end_game(game.records[me], result, game.final)
    T = tables()
    steps = tuple(
        EpisodeStep(
            pid=pid,
            board=tuple(int(v) for v in T.cells[pid]),
            square=square,
            box=box,
            colour=colour,
            colour_squares=tuple(agent.raw_squares[pid]) if box >= 0 else (),
            before=beads,
            after=tuple(agent.weights[box]) if box >= 0 else (),
        )
        for pid, square, box, colour, beads in witness.drawn
    )
    moves = sorted(game.moves[0] + game.moves[1])
    return Episode(
        moves=tuple(square for _, square in moves),
        steps=steps,
        result=int(result),
        final_pid=int(game.final),
        reinforcement=float(agent.config.reinforcement[result]),
    )


def bead_history(config: MenaceConfig, log: TrainingLog, box: int = 0) -> np.ndarray:
    """Replay a training log on a fresh MENACE and record one box's beads after each game.

    The log's drawn beads and results fully determine the updates, so replaying them
    with :meth:`Menace.reinforce` reproduces the trained agent's box game by game
    without slowing the training loop down.

    Parameters
    ----------
    config
        The configuration the logged agent was built with (it must have started from
        its initial beads).
    log
        A :class:`~menace_lib.play.loop.TrainingLog` recorded with its paths.
    box
        The box to follow (box 0 is the opening box of an X MENACE).

    Returns
    -------
    ndarray of shape (games + 1, colours)
        Row 0 holds the initial beads; row ``g`` the beads after game ``g``.
    """
    if len(log.paths) != len(log.results):
        raise ValueError("the log has no paths: train with record=True")
    agent = Menace(config)
    if isinstance(box, bool) or not isinstance(box, (int, np.integer)):
        raise ValueError(f"box must be an integer, got {box!r}")
    if not 0 <= box < agent.n_boxes:
        raise ValueError(f"box {box} does not exist ({agent.n_boxes} boxes)")
    history = np.empty((len(log.results) + 1, len(agent.weights[box])))
    history[0] = agent.weights[box]
    for g, (path, result) in enumerate(zip(log.paths, log.results, strict=True), start=1):
        agent.reinforce(path, result)
        history[g] = agent.weights[box]
    return history
