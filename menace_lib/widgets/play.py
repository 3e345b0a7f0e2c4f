"""Play noughts and crosses against a frozen (or learning) MENACE checkpoint.

The browser does all the work: ``play.js`` draws the board, MENACE's matchbox policy
and the tally, samples beads with a seeded PRNG and, when "learn while playing" is on,
applies MENACE's reinforcement. Everything it needs travels once, in the ``data``
trait, built here from the library:

* per side (``"X"``, ``"O"``): for every raw position where that MENACE moves, the box
  it opens (``-1``: forced move or a position without a box), the raw square each bead
  colour plays and the raw squares of each colour's move class; each box's canonical
  board and initial beads; the bead counts of every checkpoint; reinforcement and
  restock rule;
* every terminal position with its outcome.

Positions are keyed by their base-3 code (:attr:`menace_lib.statespace.GameTables.codes`).

In a live kernel the same game can be driven from Python (:meth:`PlayWidget.play`,
:meth:`PlayWidget.menace_move`, :meth:`PlayWidget.new_game`); those methods use the
library's :class:`~menace_lib.menace.Menace` directly (with a numpy ``Generator`` seeded
from :attr:`PlayWidget.seed`) and update the same synced traits the browser uses.
Whoever acts (browser or Python) also makes MENACE's automatic reply, so the two never
race.

Squares are 0-based (0 = top left, row-major) in the Python API and the traits; the
board buttons' ``aria-label`` uses 1-based numbers ("square 1" = top left) because those
are read aloud.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..board import EMPTY, INVERSE, TRANSFORMS, O, X, board_to_text
from ..menace import DRAW_RESULT, LOSS, WIN, Menace, result_for
from ..statespace import ONGOING, tables
from ._bundle import bundle, stylesheet
from ._checkpoints import checkpoint_agents

__all__ = ["RESULT_TEXT", "PlayWidget", "play_data", "side_lookup"]

SIDES = ("X", "O")
_MARK = {"X": X, "O": O}
RESULT_TEXT = {"menace": "MENACE wins", "draw": "Draw", "human": "You win"}
"""What the live region announces when a game ends, keyed like :attr:`PlayWidget.tally`."""


def _compact(value: float) -> float | int:
    """Whole bead counts travel as ints (shorter JSON, and "4" not "4.0" on screen)."""
    return int(value) if float(value).is_integer() else float(value)


def _beads(agent: Menace) -> list[list[float | int]]:
    return [[_compact(x) for x in w] for w in agent.weights]


def _digits(squares: tuple[int, ...] | list[int]) -> str:
    return "".join(str(s) for s in squares)


def checkpoint_games() -> list[int]:
    """Checkpoints a reader can choose (games of training), ascending."""
    agents = checkpoint_agents()
    common = set(agents["X"]) & set(agents["O"])
    return sorted(common)


def side_lookup(agent: Menace) -> dict[str, list]:
    """What the browser needs to move for ``agent`` in any raw position.

    Returns
    -------
    dict
        Parallel lists over the raw, ongoing positions with ``agent``'s side to move:
        ``codes`` (base-3 position codes), ``box`` (box index or -1), ``squares`` (digit
        string: the raw square each bead colour plays, or the fallback moves where there
        is no box) and ``members`` (the raw squares of each colour's move class, classes
        separated by "/" and each starting with the colour's own square; one square per
        class where there is no box).
    """
    T = tables()
    codes, boxes, squares, members = [], [], [], []
    for pid, raw in enumerate(agent.raw_squares):
        if not raw:
            continue  # not this side's move, or the game is over
        b = agent.raw_box[pid]
        codes.append(int(T.codes[pid]))
        boxes.append(b)
        squares.append(_digits(raw))
        if b < 0:
            members.append("/".join(str(s) for s in raw))
            continue
        # The box's classes live on the canonical board; map them back to this one.
        back = TRANSFORMS[INVERSE[int(T.canon_transform[pid])]]
        members.append("/".join(_digits([back[m] for m in cls]) for cls in agent.members[b]))
    return {"codes": codes, "box": boxes, "squares": squares, "members": members}


def terminal_table() -> dict[str, list[int]]:
    """Codes of all terminal positions and their outcome (1 X wins, 2 O wins, 3 draw)."""
    T = tables()
    ids = np.flatnonzero(T.outcome != ONGOING)
    return {"codes": T.codes[ids].tolist(), "outcome": T.outcome[ids].tolist()}


def _side_data(agents: dict[int, Menace]) -> dict[str, Any]:
    first = agents[min(agents)]
    T = tables()
    cfg = first.config
    return {
        "lookup": side_lookup(first),
        "boxes": [board_to_text(T.boards[s]) for s in first.states],
        "entries": [_digits(e) for e in first.entries],
        "initial": [[_compact(x) for x in w] for w in first.initial],
        "beads": {str(n): _beads(agent) for n, agent in sorted(agents.items())},
        "reinforcement": [_compact(r) for r in cfg.reinforcement],
        "restock": cfg.restock,
        "layout": cfg.layout,
    }


@cache
def play_data() -> dict[str, Any]:
    """The static payload of every :class:`PlayWidget` (built once per process)."""
    agents = checkpoint_agents()
    games = checkpoint_games()
    for side in SIDES:
        structure = {(a.config.filter, a.config.layout) for a in agents[side].values()}
        if len(structure) != 1:
            raise ValueError(f"checkpoints for {side} mix box structures: {sorted(structure)}")
    return {
        "checkpoints": games,
        "sides": {side: _side_data({n: agents[side][n] for n in games}) for side in SIDES},
        "terminals": terminal_table(),
    }


def _empty_tally() -> dict[str, int]:
    return {"menace": 0, "draw": 0, "human": 0}


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
        Apply MENACE's end-of-game reinforcement (+3/+1/-1, box restock), so the
        opponent changes as you play. Off by default: the checkpoint stays frozen.
    seed
        Seed of the bead draws (mulberry32 in the browser, numpy in Python).

    Raises
    ------
    ValueError
        For an unknown checkpoint, a side other than "X"/"O", or a negative seed.
    """

    _esm = bundle("play.js")
    _css = stylesheet()

    checkpoint = t.Int(1000).tag(sync=True)
    human = t.Unicode("O").tag(sync=True)
    auto = t.Bool(False).tag(sync=True)
    learn = t.Bool(False).tag(sync=True)
    seed = t.Int(0).tag(sync=True)

    data = t.Dict().tag(sync=True)
    """Static lookup tables and checkpoint beads (see the module docstring)."""
    game_key = t.Unicode("").tag(sync=True)
    """MENACE's side + checkpoint the game state belongs to (e.g. "X1000"); whoever
    changes the opponent resets the game and stamps this key."""
    board = t.List(t.Int(), default_value=[EMPTY] * 9).tag(sync=True)
    moves = t.List(t.Int()).tag(sync=True)
    path = t.List(t.List(t.Int())).tag(sync=True)
    """(box, colour) of every bead MENACE drew in this game."""
    result = t.Unicode("").tag(sync=True)
    tally = t.Dict(default_value=_empty_tally()).tag(sync=True)
    live_beads = t.List().tag(sync=True)
    """Bead counts of the MENACE in play (the checkpoint's, changed by learning)."""
    bead_changes = t.List().tag(sync=True)
    """After a game with learning on: one dict per box drawn from (box, board, colour,
    square, before, after); ``square`` is the colour's canonical square and
    ``before``/``after`` are the whole box's bead lists."""
    games_learned = t.Int(0).tag(sync=True)
    last_draw = t.Dict().tag(sync=True)
    """MENACE's latest move: square, box, colour, beads, p (box -1: no matchbox)."""

    def __init__(
        self,
        checkpoint: int = 1000,
        human: str = "O",
        auto: bool = False,
        learn: bool = False,
        seed: int = 0,
        **kwargs: Any,
    ) -> None:
        self._check_checkpoint(checkpoint)
        self._check_human(human)
        self._check_seed(seed)
        self._rng = np.random.default_rng(seed)
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

    # --- validation ------------------------------------------------------------

    @staticmethod
    def _check_checkpoint(value: Any) -> int:
        games = checkpoint_games()
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, np.integer))
            or value not in games
        ):
            raise ValueError(f"unknown checkpoint {value!r}; choose one of {games}")
        return int(value)

    @staticmethod
    def _check_human(value: Any) -> str:
        if value not in SIDES:
            raise ValueError(f"human must be 'X' or 'O', got {value!r}")
        return value

    @staticmethod
    def _check_seed(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"seed must be an integer, got {value!r}")
        if not 0 <= value < 2**32:
            raise ValueError(f"seed must be in [0, 2**32), got {value!r}")
        return int(value)

    @t.validate("checkpoint")
    def _valid_checkpoint(self, proposal: t.Bunch) -> int:
        return self._check_checkpoint(proposal.value)

    @t.validate("human")
    def _valid_human(self, proposal: t.Bunch) -> str:
        return self._check_human(proposal.value)

    @t.validate("seed")
    def _valid_seed(self, proposal: t.Bunch) -> int:
        return self._check_seed(proposal.value)

    @t.observe("seed")
    def _reseed(self, change: t.Bunch) -> None:
        self._rng = np.random.default_rng(change.new)

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

    def _reset_opponent(self) -> None:
        with self.hold_trait_notifications():
            self.game_key = self._key()
            self.live_beads = self.data["sides"][self.menace_side]["beads"][str(self.checkpoint)]
            self.tally = _empty_tally()
            self.games_learned = 0
            self.bead_changes = []
        self.new_game()

    # --- actions ---------------------------------------------------------------

    def new_game(self) -> None:
        """Clear the board (the tally stays); MENACE opens at once if ``auto`` and X."""
        with self.hold_trait_notifications():
            self.board = [EMPTY] * 9
            self.moves = []
            self.path = []
            self.result = ""
            self.last_draw = {}
        if self.auto and self.turn == "menace":
            self.menace_move()

    def play(self, square: int) -> None:
        """The reader plays ``square`` (0-8, row-major); MENACE replies if ``auto``.

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
            raise ValueError(f"square {square} is occupied")
        self._place(int(square), _MARK[self.human])
        if self.auto and self.turn == "menace":
            self.menace_move()

    def menace_move(self) -> int:
        """MENACE draws a bead (numpy ``Generator`` from ``seed``) and plays it.

        Returns
        -------
        int
            The square played, or -1 if MENACE resigned at an empty box.
        """
        if self.turn != "menace":
            raise ValueError(f"it is not MENACE's turn (turn: {self.turn})")
        agent = self.agent
        pid = tables().id_of(tuple(self.board))
        square, box, colour = agent.choose(pid, self._rng)
        beads = list(agent.weights[box]) if box >= 0 else []
        with self.hold_trait_notifications():
            if box >= 0:
                # choose() may restock an empty box before drawing: keep that.
                self.live_beads = _beads(agent)
            if colour >= 0:
                self.path = [*self.path, [box, colour]]
            self.last_draw = {
                "square": square,
                "box": box,
                "colour": colour,
                "beads": _compact(beads[colour]) if box >= 0 and colour >= 0 else None,
                "p": beads[colour] / sum(beads) if box >= 0 and colour >= 0 else None,
            }
        if square < 0:
            self._finish(LOSS)
        else:
            self._place(square, _MARK[self.menace_side])
        return square

    def _place(self, square: int, mark: int) -> None:
        board = list(self.board)
        board[square] = mark
        with self.hold_trait_notifications():
            self.board = board
            self.moves = [*self.moves, square]
        outcome = int(tables().outcome[tables().id_of(tuple(board))])
        if outcome == ONGOING:
            return
        self._finish(result_for(_MARK[self.menace_side], outcome))

    def _finish(self, result: int) -> None:
        """Score the game from MENACE's side and, if learning, reinforce."""
        key = {WIN: "menace", DRAW_RESULT: "draw", LOSS: "human"}[result]
        tally = dict(self.tally)
        tally[key] += 1
        with self.hold_trait_notifications():
            self.result = RESULT_TEXT[key]
            self.tally = tally
            if self.learn:
                self._learn(result)

    def _learn(self, result: int) -> None:
        agent = self.agent
        boxes = self.data["sides"][self.menace_side]["boxes"]
        path = [(b, j) for b, j in self.path]
        before = {b: list(agent.weights[b]) for b, _ in path}
        agent.reinforce(path, result)
        self.live_beads = _beads(agent)
        self.games_learned += 1
        self.bead_changes = [
            {
                "box": b,
                "board": boxes[b],
                "colour": j,
                "square": agent.entries[b][j],
                "before": [_compact(x) for x in before[b]],
                "after": [_compact(x) for x in agent.weights[b]],
            }
            for b, j in path
        ]
