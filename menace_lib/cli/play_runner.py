"""The one terminal game runner of ``play``: a person against a matchbox machine, any game.

A game is played move by move by :func:`menace_lib.play.loop.play_game` over the game's
tables; this module seats the two players and runs the session. What differs between
games is only how a position is drawn and how a move is named and read: a
:class:`GameView` (noughts and crosses in :mod:`.play`, Connect-4 in
:mod:`.play_connect4`, Hexapawn in :mod:`.play_hexapawn`). Every game shares the rest:

* the person is asked for a move until they name a legal one; lines are read as
  :mod:`.terminal_input` says (``q``, ``quit`` or the end of the input stop, exit 0);
* before each of its moves the machine shows its chance for every move (or says that
  its box is empty and it resigns) and then names its move;
* after each game the final position and the result are shown; a machine that learns
  while you play learns then (:attr:`Session.learns`);
* with several games, the tally closes the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..games.agent import RESIGN
from .terminal_input import MAX_LINE, EndOfInputError, QuitRequestedError, read_line

__all__ = ["GameView", "Human", "Session", "ShowingMachine", "run_session"]


class GameView(Protocol):
    """How one game looks at the terminal (its board drawing and its move names)."""

    game: str
    """The game's name (:mod:`menace_lib.games.registry`)."""

    def board(self, pid: int) -> str:
        """The position drawn for the person."""
        ...

    def prompt(self, pid: int) -> str:
        """The question before the person's move (``"Your move (X), ..."``)."""
        ...

    def parse(self, pid: int, text: str) -> tuple[int, str | None]:
        """A typed line as a legal move, or ``(-1, reason to ask again)``."""
        ...

    def hint(self) -> str:
        """What to type, for a line that was too long (``"type a number from 1 to 9"``)."""
        ...

    def chances(self, name: str, pid: int, probabilities: np.ndarray) -> str:
        """The machine's chance of every move, before it moves."""
        ...

    def move_name(self, pid: int, move: int) -> str:
        """A move as the person reads it (``"5"``, ``"column 2"``, ``"b3-b2"``)."""
        ...


@dataclass
class Human:
    """The person at the keyboard: asked for a move until they name a legal one."""

    view: GameView

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        print(self.view.board(pid))
        while True:
            print(self.view.prompt(pid), end="", flush=True)
            text, too_long = read_line()
            if too_long:
                print(f"That line is over {MAX_LINE} characters: {self.view.hint()}.")
                continue
            move, problem = self.view.parse(pid, text)
            if problem is None:
                return move, None
            print(problem)


class ShowingMachine:
    """A machine that shows its chance for every move, then names the move it makes."""

    def __init__(self, agent: Any, name: str, view: GameView) -> None:
        self.agent, self.name, self.view = agent, name, view
        self._policy = None

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, Any]:
        if self._policy is None:  # once per game: the machine learns only between games
            self._policy = self.agent.policy_matrix()
        empty = bool(self._policy.resign_rows[pid])
        if not empty:
            print(self.view.chances(self.name, pid, self._policy.probabilities[pid]))
        move, record = self.agent.act(pid, rng)
        if empty and move == RESIGN:  # under "stop" the game ends unplayed: said once, later
            print(f"{self.name}'s box for this position is empty: it resigns.")
        if move >= 0:
            print(f"{self.name} plays {self.view.move_name(pid, move)}.\n")
        return move, record

    def learn(self, records: list, result: int, final: int) -> None:
        """Learn from a finished game (and show the new policy from the next move on)."""
        self.agent.end_game(records, result, final)
        self._policy = None


@dataclass
class Session:
    """One ``play`` session: the game's view, the machine, the sides and what is said.

    Attributes
    ----------
    view
        The game's :class:`GameView`.
    agent
        The machine (any agent of the game).
    name
        The machine's name (``"MENACE"``, ``"HER"``).
    human
        The side the person plays: 1 (moves first) or 2.
    learns
        Whether the machine learns from each game played.
    intro
        The opening line (the seed is added).
    summary
        Called after the tally of several games, for a line of its own (or ``""``).
    """

    view: GameView
    agent: Any
    name: str
    human: int
    learns: bool
    intro: str
    summary: Callable[[], str] | None = None


def run_session(session: Session, games: int, seed: int) -> int:
    """Play ``games`` games of ``session`` with seed ``seed``; returns the exit status 0."""
    machine = ShowingMachine(session.agent, session.name, session.view)
    human = Human(session.view)
    me = 2 if session.human == 1 else 1  # the machine's side
    players = (human, machine) if session.human == 1 else (machine, human)
    rng = np.random.default_rng(seed)
    print(f"{session.intro} (seed {seed}).\n")
    tally = [0, 0, 0]
    try:
        for g in range(games):
            if games > 1:
                print(f"Game {g + 1} of {games}")
            if not _one_game(session, machine, players, me, rng, tally):
                break
    except QuitRequestedError:
        print("Goodbye.")
    except EndOfInputError:
        print("\nInput ended; goodbye.")
    if games > 1:
        won, drew, lost = tally
        print(
            f"You won {won}, drew {drew}, lost {lost}. "
            f"{session.name} won {lost}, drew {drew}, lost {won}."
        )
        if session.summary is not None and (line := session.summary()):
            print(line)
    return 0


def _one_game(session: Session, machine, players, me: int, rng, tally: list[int]) -> bool:
    """One game, shown and counted; ``False`` if the machine stopped before it began."""
    from ..play.loop import play_game

    played = play_game(*players, rng, game=session.view.game)
    if played.stopped:  # an empty opening box under empty_box "stop" or "web"
        print(f"{session.name}'s opening box is empty and it stops: no game.")
        return False
    if session.learns:
        machine.learn(played.records[me - 1], played.result(me), played.final)
    result = played.result(session.human)
    tally[result] += 1
    print(session.view.board(played.final))
    print(("You win!", "A draw.", f"{session.name} wins.")[result] + "\n")
    return True
