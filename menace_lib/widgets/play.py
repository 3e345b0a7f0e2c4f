"""Play noughts and crosses against a frozen (or learning) MENACE checkpoint.

The browser does all the work: ``play.js`` draws the board, MENACE's matchbox policy
and the tally, samples beads through the widgets' one game engine (``lab_engine.js``)
from the Philox stream of ``seed`` and, when "learn while playing" is on, applies
MENACE's reinforcement under the checkpoint's own rules. It also exports and
imports the MENACE in play as an agent file (:meth:`Menace.load` reads the export),
restores its settings from a link (``#play=checkpoint:25,human:X,...``) and resets to
the defaults. Everything it needs travels once, in the ``data`` trait
(:func:`~menace_lib.widgets.play_data.play_data`).

In a live kernel the same game can be driven from Python (:meth:`PlayWidget.play`,
:meth:`PlayWidget.menace_move`, :meth:`PlayWidget.new_game`,
:meth:`PlayWidget.export_agent`, :meth:`PlayWidget.import_agent`,
:meth:`PlayWidget.reset`); those methods use the library's
:class:`~menace_lib.machine.menace.Menace` directly (drawing from the same stream,
:class:`~menace_lib.base.prng.CounterRng` of :attr:`PlayWidget.seed` at position
:attr:`PlayWidget.draws`) and update the same synced traits the browser uses. So a game
played in the browser replays exactly in Python from its seed, draw for draw. Whoever
acts (browser or Python) also makes MENACE's automatic reply, so the two never race.
Every synced trait is validated (:mod:`.play_state`): a bad value from the browser or a
saved notebook raises :class:`~menace_lib.widgets.play_state.PlayStateError`.

Squares are list indexes 0-8 (0 = top left, row-major) in the Python API and the
traits. Everything a reader sees -- the board, its spoken names ("Square 1, empty, 4
beads, p 0.33"), the messages and the learning log -- numbers them 1-9.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..base.prng import CounterRng
from ..games.agent import STOP
from ..games.board import EMPTY, O, X, board_to_grid, board_to_text
from ..games.statespace import ONGOING, tables
from ..machine.menace import Menace
from ..play.loop import DRAW_RESULT, LOSS, WIN, result_for
from ._bundle import bundle, stylesheet
from ._checkpoints import checkpoint_agents
from .play_data import DEFAULTS, checkpoint_games, play_data, side_lookup
from .play_state import (
    RESULT_TEXT,
    SIDES,
    PlayStateError,
    check_agent_fits,
    check_bead_changes,
    check_board,
    check_count,
    check_last_draw,
    check_live_beads,
    check_moves,
    check_path,
    check_result,
    check_seed,
    check_tally,
)

__all__ = [
    "FRAGMENT_KEY",
    "RESULT_TEXT",
    "PlayStateError",
    "PlayWidget",
    "checkpoint_games",
    "play_data",
    "settings_fragment",
    "side_lookup",
]

_MARK = {"X": X, "O": O}
FRAGMENT_KEY = "play"
"""The play widget's key in a page's URL fragment (other widgets use other keys)."""


def _compact(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _beads(agent: Menace) -> list[list[float | int]]:
    return [[_compact(x) for x in w] for w in agent.weights]


def _empty_tally() -> dict[str, int]:
    return {"menace": 0, "draw": 0, "human": 0}


def settings_fragment(checkpoint: int, human: str, auto: bool, learn: bool, seed: int) -> str:
    """The URL fragment that opens a play widget with these settings.

    ``play.js`` writes the same text (a test checks) and reads it back when a page opens
    with it, e.g. ``play.html#play=checkpoint:25,human:X,auto:1,learn:1,seed:7``.
    """
    return (
        f"{FRAGMENT_KEY}=checkpoint:{checkpoint},human:{human},"
        f"auto:{int(auto)},learn:{int(learn)},seed:{seed}"
    )


class PlayWidget(anywidget.AnyWidget):
    """Play against MENACE in the browser (or from Python in a live kernel).

    Parameters
    ----------
    checkpoint
        Games of training of the MENACE to face: one of :func:`checkpoint_games`
        (25, 100, 1000, 5000).
    human
        The reader's side, ``"O"`` (MENACE opens as X, the default) or ``"X"``.
    auto
        Play MENACE's moves at once instead of waiting for "Sample MENACE move".
    learn
        Apply MENACE's end-of-game reinforcement (the checkpoint's own rules: +3/+1/-1,
        box restock), so the opponent changes as you play. Off by default: the
        checkpoint stays frozen.
    seed
        Seed of the bead draws: the Philox4x32-10 stream shared by ``prng.js`` and
        :class:`~menace_lib.base.prng.CounterRng`, read from its start whenever the opponent
        is reset.

    Raises
    ------
    ValueError
        For an unknown checkpoint, a side other than "X"/"O", or a seed outside
        [0, 2**32). Later bad values of any synced trait raise
        :class:`~menace_lib.widgets.play_state.PlayStateError`, which is both a
        ``ValueError`` and a ``traitlets.TraitError``.
    """

    _esm = bundle("play.js")
    _css = stylesheet()

    checkpoint = t.Int(DEFAULTS["checkpoint"]).tag(sync=True)
    human = t.Unicode(DEFAULTS["human"]).tag(sync=True)
    auto = t.Bool(DEFAULTS["auto"]).tag(sync=True)
    learn = t.Bool(DEFAULTS["learn"]).tag(sync=True)
    seed = t.Int(DEFAULTS["seed"]).tag(sync=True)

    data = t.Dict().tag(sync=True)
    """Static lookup tables and checkpoint beads (:func:`play_data`)."""
    game_key = t.Unicode("").tag(sync=True)
    """MENACE's side + checkpoint the game state belongs to (e.g. "X1000"); whoever
    changes the opponent resets the game and stamps this key."""
    board = t.List(default_value=[EMPTY] * 9).tag(sync=True)
    moves = t.List().tag(sync=True)
    path = t.List().tag(sync=True)
    """(box, colour) of every bead MENACE drew in this game."""
    result = t.Unicode("").tag(sync=True)
    tally = t.Dict(default_value=_empty_tally()).tag(sync=True)
    live_beads = t.List().tag(sync=True)
    """Bead counts of the MENACE in play (the checkpoint's, changed by learning)."""
    bead_changes = t.List().tag(sync=True)
    """After a game with learning on: one dict per box drawn from: ``box``, ``board``
    (its canonical board), ``played`` (the board as it stood in the game), ``move``
    (the square played there), ``colour``, ``square`` (the colour's canonical square)
    and ``before``/``after`` (the whole box's bead lists)."""
    games_learned = t.Int(0).tag(sync=True)
    last_draw = t.Dict().tag(sync=True)
    """MENACE's latest move: square, box, colour, beads, p (box -1: no matchbox)."""
    draws = t.Int(0).tag(sync=True)
    """How many numbers of the seed's stream MENACE has read since the opponent was reset."""

    def __init__(
        self,
        checkpoint: int = DEFAULTS["checkpoint"],
        human: str = DEFAULTS["human"],
        auto: bool = DEFAULTS["auto"],
        learn: bool = DEFAULTS["learn"],
        seed: int = DEFAULTS["seed"],
        **kwargs: Any,
    ) -> None:
        self._check_checkpoint(checkpoint)
        self._check_human(human)
        self._check_seed(seed)
        super().__init__(
            data=play_data(),
            checkpoint=checkpoint,
            human=human,
            auto=bool(auto),
            learn=bool(learn),
            seed=seed,
            **kwargs,
        )
        self._reset_opponent()

    # --- readable forms --------------------------------------------------------

    def __repr__(self) -> str:
        return (
            f"PlayWidget(checkpoint={self.checkpoint}, human={self.human!r}, "
            f"auto={self.auto}, learn={self.learn}, seed={self.seed})"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # What a notebook shows before the widget's JavaScript runs (or without it).
        bundle_ = super()._repr_mimebundle_(**kwargs)
        data = bundle_[0] if isinstance(bundle_, tuple) else bundle_  # (data, metadata)
        if isinstance(data, dict):
            data["text/plain"] = self.describe()
        return bundle_

    def describe(self) -> str:
        """The widget's state in words: the text shown where JavaScript cannot run."""
        board = board_to_grid(self.board).split("/")
        numbers = ["1 2 3", "4 5 6", "7 8 9"]
        rows = [f"  {n}    {' '.join(r)}" for n, r in zip(numbers, board, strict=True)]
        tl = self.tally
        return "\n".join(
            [
                f"Play against MENACE: MENACE plays {self.menace_side} "
                f"(trained for {self.checkpoint:,} games), you play {self.human}.",
                "Squares 1-9 and the board:",
                *rows,
                f"MENACE {tl['menace']} · Draws {tl['draw']} · You {tl['human']}",
                "The interactive board needs JavaScript: run this cell in Jupyter, "
                "or read the page in the built book.",
            ]
        )

    @property
    def fragment(self) -> str:
        """The URL fragment (without "#") that opens the widget with these settings."""
        return settings_fragment(self.checkpoint, self.human, self.auto, self.learn, self.seed)

    # --- validation of the settings -----------------------------------------------

    @staticmethod
    def _check_checkpoint(value: Any) -> int:
        games = checkpoint_games()
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, np.integer))
            or value not in games
        ):
            raise PlayStateError(f"unknown checkpoint {value!r}; choose one of {games}")
        return int(value)

    @staticmethod
    def _check_human(value: Any) -> str:
        if value not in SIDES:
            raise PlayStateError(f"human must be 'X' or 'O', got {value!r}")
        return value

    _check_seed = staticmethod(check_seed)

    @t.validate("checkpoint")
    def _valid_checkpoint(self, proposal: t.Bunch) -> int:
        return self._check_checkpoint(proposal.value)

    @t.validate("human")
    def _valid_human(self, proposal: t.Bunch) -> str:
        human = self._check_human(proposal.value)
        # A browser change of side arrives stamped with its key and the new side's beads.
        side = "X" if human == "O" else "O"
        if self.game_key == f"{side}{self.checkpoint}" and self.live_beads:
            self._side_beads(self.live_beads, side)
        return human

    @t.validate("seed")
    def _valid_seed(self, proposal: t.Bunch) -> int:
        return self._check_seed(proposal.value)

    # --- validation of the game state (browser messages are input too) ----------

    def _side_beads(self, value: Any, side: str) -> list:
        d = self.data["sides"][side]
        return check_live_beads(value, d["initial"], d["config"]["floor"], side)

    @t.validate("live_beads")
    def _valid_live_beads(self, proposal: t.Bunch) -> list:
        return self._side_beads(proposal.value, self.menace_side)

    @t.validate("board")
    def _valid_board(self, proposal: t.Bunch) -> list[int]:
        board = check_board(proposal.value)
        check_moves(self.moves, board)
        check_result(self.result, board, self.human)
        return board

    @t.validate("moves")
    def _valid_moves(self, proposal: t.Bunch) -> list[int]:
        return check_moves(proposal.value, self.board)

    @t.validate("path")
    def _valid_path(self, proposal: t.Bunch) -> list:
        return check_path(proposal.value, self._initial())

    @t.validate("tally")
    def _valid_tally(self, proposal: t.Bunch) -> dict:
        return check_tally(proposal.value)

    @t.validate("games_learned")
    def _valid_games_learned(self, proposal: t.Bunch) -> int:
        return check_count("games_learned", proposal.value)

    @t.validate("draws")
    def _valid_draws(self, proposal: t.Bunch) -> int:
        return check_count("draws", proposal.value)

    @t.validate("result")
    def _valid_result(self, proposal: t.Bunch) -> str:
        return check_result(proposal.value, self.board, self.human)

    @t.validate("last_draw")
    def _valid_last_draw(self, proposal: t.Bunch) -> dict:
        return check_last_draw(proposal.value, self._initial())

    @t.validate("bead_changes")
    def _valid_bead_changes(self, proposal: t.Bunch) -> list:
        d = self.data["sides"][self.menace_side]
        return check_bead_changes(proposal.value, d["initial"], d["config"]["floor"])

    def _initial(self) -> list:
        return self.data["sides"][self.menace_side]["initial"]

    @t.observe("seed")
    def _reseed(self, change: t.Bunch) -> None:
        self.draws = 0  # a new seed's stream, from its start

    @t.observe("checkpoint", "human")
    def _opponent_changed(self, change: t.Bunch) -> None:
        # A change from the browser arrives with the matching game_key and a reset game.
        if self.game_key != self._key():
            self._reset_opponent()

    # --- state -----------------------------------------------------------------

    @property
    def menace_side(self) -> str:
        """MENACE plays the side the reader does not."""
        return "X" if self.human == "O" else "O"

    def _key(self) -> str:
        return f"{self.menace_side}{self.checkpoint}"

    @property
    def agent(self) -> Menace:
        """The MENACE in play: a learning copy of the checkpoint holding ``live_beads``."""
        agent = checkpoint_agents()[self.menace_side][self.checkpoint].copy()
        agent.frozen = False
        agent.weights = [[float(x) for x in w] for w in self.live_beads]
        return agent

    @property
    def turn(self) -> str:
        """``"human"``, ``"menace"`` or ``"over"``."""
        if self.result:
            return "over"
        x_count = sum(v == X for v in self.board)
        o_count = sum(v == O for v in self.board)
        to_move = "X" if x_count == o_count else "O"
        return "human" if to_move == self.human else "menace"

    def _reset_opponent(self, beads: list | None = None, games_learned: int = 0) -> None:
        with self.hold_trait_notifications():
            self.game_key = self._key()
            self.draws = 0
            side = self.data["sides"][self.menace_side]
            self.live_beads = beads if beads is not None else side["beads"][str(self.checkpoint)]
            self.tally = _empty_tally()
            self.games_learned = games_learned
            self.bead_changes = []
            self._clear_board()
        if self.auto and self.turn == "menace":
            self.menace_move()

    def _clear_board(self) -> None:
        self.board = [EMPTY] * 9
        self.moves = []
        self.path = []
        self.result = ""
        self.last_draw = {}

    # --- actions ---------------------------------------------------------------

    def new_game(self) -> None:
        """Clear the board (the tally stays); MENACE opens at once if ``auto`` and X."""
        with self.hold_trait_notifications():
            self._clear_board()
        if self.auto and self.turn == "menace":
            self.menace_move()

    def reset(self) -> None:
        """Back to the default settings and the stored checkpoint (as the Reset button)."""
        with self.hold_trait_notifications():
            self.game_key = ""  # the observers below must reset the opponent
            for name, value in DEFAULTS.items():
                setattr(self, name, value)
        if self.game_key != self._key():  # nothing changed: reset by hand
            self._reset_opponent()

    def play(self, square: int) -> None:
        """The reader plays ``square`` (index 0-8, row-major); MENACE replies if ``auto``.

        Raises
        ------
        ValueError
            If the square is not 0-8 or is occupied, the game is over, or it is
            MENACE's turn.
        """
        if isinstance(square, bool) or not isinstance(square, (int, np.integer)):
            raise ValueError(f"square must be an integer 0-8, got {square!r}")
        if not 0 <= square <= 8:
            raise ValueError(f"square must be 0-8 (row-major), got {square!r}")
        if self.turn == "over":
            raise ValueError(f"the game is over ({self.result}); call new_game()")
        if self.turn == "menace":
            raise ValueError("it is MENACE's turn; call menace_move()")
        if self.board[square] != EMPTY:
            raise ValueError(f"square {square} (square {square + 1} on the board) is occupied")
        self._place(int(square), _MARK[self.human])
        if self.auto and self.turn == "menace":
            self.menace_move()

    def menace_move(self) -> int:
        """MENACE draws a bead (the stream of ``seed`` at ``draws``) and plays it.

        Returns
        -------
        int
            The square index played; at an empty box that nothing refills,
            :data:`~menace_lib.games.agent.RESIGN` (-1, a lost game it learns from) or
            :data:`~menace_lib.games.agent.STOP` (-2, under the "stop" and "web" empty-box
            rules: the game ends and is not learnt from, as training discards it).
        """
        if self.turn != "menace":
            raise ValueError(f"it is not MENACE's turn (turn: {self.turn})")
        agent = self.agent
        pid = tables().id_of(tuple(self.board))
        rng = CounterRng(self.seed, self.draws)
        square, box, colour = agent.choose(pid, rng)
        beads = list(agent.weights[box]) if box >= 0 else []
        with self.hold_trait_notifications():
            self.draws = rng.position
            if box >= 0:
                # choose() may restock an empty box before drawing: keep that.
                self.live_beads = _beads(agent)
            if colour >= 0:
                self.path = [*self.path, [box, colour]]
            if colour >= 0:
                p = beads[colour] / sum(beads)
            else:  # no box: a uniform pick; an empty box: MENACE resigned
                p = 1 / len(agent.raw_squares[pid]) if box < 0 else None
            self.last_draw = {
                "square": square,
                "box": box,
                "colour": colour,
                "beads": _compact(beads[colour]) if colour >= 0 else None,
                "p": p,
            }
        if square < 0:  # an empty box: resigned (learnt from) or stopped (not)
            with self.hold_trait_notifications():
                self._finish(LOSS, learnable=square != STOP)
        else:
            self._place(square, _MARK[self.menace_side])
        return square

    def _place(self, square: int, mark: int) -> None:
        board = list(self.board)
        board[square] = mark
        outcome = int(tables().outcome[tables().id_of(tuple(board))])
        # One change: a finished board never shows without its result.
        with self.hold_trait_notifications():
            self.board = board
            self.moves = [*self.moves, square]
            if outcome != ONGOING:
                self._finish(result_for(_MARK[self.menace_side], outcome))

    def _finish(self, result: int, learnable: bool = True) -> None:
        """Score the game from MENACE's side and, if learning and it counts, reinforce."""
        key = {WIN: "menace", DRAW_RESULT: "draw", LOSS: "human"}[result]
        tally = dict(self.tally)
        tally[key] += 1
        with self.hold_trait_notifications():
            self.result = RESULT_TEXT[key]
            self.tally = tally
            if self.learn and learnable:
                self._learn(result)

    def _played_positions(self, agent: Menace) -> list[tuple[str, int]]:
        """(board as it stood, square played) at each of MENACE's moves that opened a box."""
        T = tables()
        board = [EMPTY] * 9
        out = []
        for k, square in enumerate(self.moves):
            mark = X if k % 2 == 0 else O
            if mark == _MARK[self.menace_side] and agent.raw_box[T.id_of(tuple(board))] >= 0:
                out.append((board_to_text(board), square))
            board[square] = mark
        return out

    def _learn(self, result: int) -> None:
        agent = self.agent
        boxes = self.data["sides"][self.menace_side]["boxes"]
        path = [(b, j) for b, j in self.path]
        played = self._played_positions(agent)
        before = {b: list(agent.weights[b]) for b, _ in path}
        agent.reinforce(path, result)
        self.live_beads = _beads(agent)
        self.games_learned += 1
        self.bead_changes = [
            {
                "box": b,
                "board": boxes[b],
                "played": text,
                "move": move,
                "colour": j,
                "square": agent.entries[b][j],
                "before": [_compact(x) for x in before[b]],
                "after": [_compact(x) for x in agent.weights[b]],
            }
            for (b, j), (text, move) in zip(path, played, strict=True)
        ]

    # --- agent files -------------------------------------------------------------

    def export_agent(self) -> dict:
        """The MENACE in play as an agent file (:meth:`Menace.to_dict`), as the browser's
        Export button writes it: ``games_trained`` counts the checkpoint's games plus
        the games learnt here, and the agent is ``frozen`` unless learning is on."""
        doc = self.agent.to_dict()
        doc["games_trained"] = self.data["sides"][self.menace_side]["games_trained"][
            str(self.checkpoint)
        ] + int(self.games_learned)
        doc["frozen"] = not self.learn
        return doc

    def save_agent(self, path: str | Path) -> None:
        """Write :meth:`export_agent` to ``path`` (read it back with :meth:`Menace.load`)."""
        agent = Menace.from_dict(self.export_agent())
        agent.save(path)

    def import_agent(self, source: Menace | dict | str | Path) -> None:
        """Play on with a saved MENACE, as the browser's Import button does.

        ``source`` is a :class:`Menace`, an agent dict or the path of an agent file
        (read with :meth:`Menace.load`'s checks). MENACE's side is the agent's player,
        so the reader takes the other side. The checkpoint shown is the largest one at
        or below the agent's ``games_trained``; the rest counts as games learnt.
        Learning is on unless the agent is frozen.

        Raises
        ------
        ValueError
            (:class:`~menace_lib.machine.menace.AgentFileError` for a bad file) if the agent
            cannot be read, or has other rules or boxes than the widget's MENACE.
        """
        if isinstance(source, Menace):
            agent = source
        elif isinstance(source, dict):
            agent = Menace.from_dict(source)
        else:
            agent = Menace.load(source)
        side = "XO"[agent.config.player - 1]
        d = self.data["sides"][side]
        games = self.data["checkpoints"]
        check_agent_fits(agent, d["config"], side, min(d["games_trained"].values()))
        checkpoint = max(n for n in games if d["games_trained"][str(n)] <= agent.games_trained)
        learned = agent.games_trained - d["games_trained"][str(checkpoint)]
        with self.hold_trait_notifications():
            self.game_key = f"{side}{checkpoint}"  # the opponent is set here, not reset
            self.draws = 0
            self.checkpoint = checkpoint
            self.human = "O" if side == "X" else "X"
            self.learn = not agent.frozen
            self.live_beads = _beads(agent)
            self.tally = _empty_tally()
            self.games_learned = learned
            self.bead_changes = []
            self._clear_board()
        if self.auto and self.turn == "menace":
            self.menace_move()
