"""Play Connect-4 on a 4×4 board against a trained MENACE, in the browser.

The browser does all the work (``connect4.js``): it computes the rules, finds MENACE's box
for each position from its bitboard code, draws a bead with the library's Philox stream
(:mod:`menace_lib.base.prng`) and, when "MENACE learns" is ticked, applies the bead rules of
``beads.js`` at the end of each game. MENACE plays first and opens every game; the reader
plays second. Everything it needs travels once, in the ``data`` trait: the trained MENACE
of :mod:`.connect4_data`, about 36 kB.

In a live kernel the same game can be driven from Python (:meth:`Connect4Widget.play`,
:meth:`Connect4Widget.new_game`, :meth:`Connect4Widget.reset`): those methods use the
library's :class:`~menace_lib.machine.menace.Menace` and its tables, draw from the same Philox
stream and update the same synced traits, so the browser and Python continue each
other's games (a test plays both and compares). :meth:`Connect4Widget.menace` gives the
MENACE in play, learnt beads included.

Columns are 0-3 in the Python API and the traits, and 1-4 wherever a reader sees them.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets as t

from ..base.limits import check_count
from ..base.prng import CounterRng
from ..games.agent import RESIGN
from ..games.game import DRAW, FIRST_WIN, ONGOING
from ..games.registry import game_tables
from ..games.results import DRAW_RESULT, LOSS, WIN
from ..machine.menace import Menace
from ._bundle import bundle, stylesheet
from .connect4_data import GAME, load_data, trained_menace

__all__ = ["RESULTS", "Connect4StateError", "Connect4Widget"]

RESULTS = ("menace", "draw", "human")
"""The ``result`` trait after a game, indexed by the result from MENACE's side."""
SEED_LIMIT = 2**32
MAX_COUNT = 2**53 - 1
"""Counts the browser keeps exactly (JavaScript's largest safe integer)."""


class Connect4StateError(t.TraitError, ValueError):
    """A bad value of a synced trait (from Python, the browser or a saved notebook)."""


def _count(name: str, value: Any) -> int:
    try:
        return check_count(name, value, MAX_COUNT)
    except ValueError as err:
        raise Connect4StateError(str(err)) from None


def _empty_tally() -> dict[str, int]:
    return {"menace": 0, "draw": 0, "human": 0}


class Connect4Widget(anywidget.AnyWidget):
    """Connect-4 on 4 columns × 4 rows against a MENACE trained against the perfect player.

    Parameters
    ----------
    learn
        MENACE learns from each game (its own bead rules: +3/+1/-1, box restock).
        Off by default: the trained MENACE stays as it is.
    seed
        Seed of MENACE's bead draws (the Philox stream shared with the browser), in
        ``[0, 2**32)``.

    Raises
    ------
    ValueError
        For a seed outside ``[0, 2**32)``; later bad values of the synced traits (a move
        into a full column, a result the board does not show, ...) raise
        :class:`Connect4StateError` (a ``traitlets.TraitError``) naming the value.
    """

    _esm = bundle("connect4.js")
    _css = stylesheet() + stylesheet("connect4.css")

    data = t.Dict().tag(sync=True)
    """The board, the bead rules and the trained boxes (:mod:`.connect4_data`)."""
    seed = t.Int(0).tag(sync=True)
    learn = t.Bool(False).tag(sync=True)
    moves = t.List().tag(sync=True)
    """Columns played in this game, from the empty board (MENACE's first)."""
    result = t.Unicode("").tag(sync=True)
    """``""`` while the game goes on, then one of :data:`RESULTS`."""
    tally = t.Dict(default_value=_empty_tally()).tag(sync=True)
    draws = t.Int(0).tag(sync=True)
    """Uniform numbers drawn so far: the Philox stream's position."""
    learned = t.Dict().tag(sync=True)
    """Beads of every box changed by learning here, keyed by its canonical code (text)."""
    games_learned = t.Int(0).tag(sync=True)
    path = t.List().tag(sync=True)
    """``[code, colour]`` of every bead MENACE drew in this game."""
    last = t.Dict().tag(sync=True)
    """MENACE's latest move: column, box code, colour, the box's columns, beads and p."""

    def __init__(self, learn: bool = False, seed: int = 0, **kwargs: Any) -> None:
        _check_seed(seed)
        data = load_data()
        self._live: Menace | None = None  # built when Python first needs it (_agent)
        super().__init__(data=data, seed=seed, learn=bool(learn), **kwargs)

    def __repr__(self) -> str:
        return f"Connect4Widget(learn={self.learn}, seed={self.seed})"

    # --- what Python sees -----------------------------------------------------------

    def menace(self) -> Menace:
        """A library MENACE with the beads in play (trained, then learnt here)."""
        agent = self._agent().copy()
        agent.games_trained = trained_menace().games_trained + self.games_learned
        return agent

    def _agent(self) -> Menace:
        """The beads in play (trained, then learnt here), built on first use."""
        if self._live is None:
            self._live = trained_menace().copy()
            self._apply({}, self.learned)
        return self._live

    def _box(self, code: int) -> int:
        """The box of a canonical code (``-1``: none)."""
        T = game_tables(GAME)
        cid = T.code_to_id.get(code)
        return -1 if cid is None else self._agent().box_of.get(cid, -1)

    @t.observe("learned")
    def _learned_changed(self, change: t.Bunch) -> None:
        # The beads in play follow the trait, whoever set it (Python or the browser).
        if self._live is not None:
            self._apply(change.old or {}, change.new or {})

    def _apply(self, old: dict, new: dict) -> None:
        trained, live = trained_menace(), self._agent()
        for code in old.keys() - new.keys():
            b = self._box(int(code))
            live.weights[b] = list(trained.weights[b])
        for code, beads in new.items():
            live.weights[self._box(int(code))] = [float(x) for x in beads]

    def position(self) -> int:
        """The position id (in the game's tables) after :attr:`moves`."""
        return _position(self.moves)

    def describe(self) -> str:
        """The board and tally in words: what a notebook shows without JavaScript."""
        T = game_tables(GAME)
        height, width = T.game.shape
        cells = T.cells[self.position()]
        rows = [
            " ".join(".XO"[int(cells[r * width + c])] for c in range(width)) for r in range(height)
        ]
        tl = self.tally
        return "\n".join(
            [
                f"Connect-4 on {width}x{height} against MENACE (X, moves first; trained for "
                f"{self.data['training']['games']:,} games against the perfect player).",
                "You play O.",
                *rows,
                " ".join(str(c + 1) for c in range(width)),
                f"MENACE {tl['menace']} · Draws {tl['draw']} · You {tl['human']}",
                "The interactive board needs JavaScript: run this cell in Jupyter, "
                "or read the page in the built book.",
            ]
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle_ = super()._repr_mimebundle_(**kwargs)
        data = bundle_[0] if isinstance(bundle_, tuple) else bundle_  # (data, metadata)
        if isinstance(data, dict):
            data["text/plain"] = self.describe()
        return bundle_

    # --- playing from Python ------------------------------------------------------------

    def play(self, column: int) -> None:
        """Drop the reader's stone in ``column`` (0-3); MENACE replies at once.

        A new widget waits for MENACE's opening move (the browser makes it when it first
        shows the widget): if MENACE is still to move, it moves first.

        Raises
        ------
        ValueError
            If the game is over, it is not the reader's move, or the column is full.
        """
        self._menace_move()
        T = game_tables(GAME)
        pid = self.position()
        if self.result or T.outcome[pid] != ONGOING:
            raise ValueError("the game is over: call new_game()")
        if T.player[pid] == self.data["player"]:
            raise ValueError("it is MENACE's move")
        if isinstance(column, bool) or column not in T.legal(pid):
            free = [int(m) + 1 for m in T.legal(pid)]
            raise ValueError(f"column {column!r} is not free: choose a 0-based column of {free}")
        self.moves = [*self.moves, int(column)]
        self._after_move()
        self._menace_move()

    def new_game(self) -> None:
        """A new game (tally, learning and draws go on); MENACE opens."""
        with self.hold_trait_notifications():
            self.moves, self.path, self.result, self.last = [], [], "", {}
        self._menace_move()

    def reset(self) -> None:
        """MENACE back to its trained beads; tally and draws from the start; a new game."""
        with self.hold_trait_notifications():
            self.learned, self.games_learned = {}, 0
            self.tally, self.draws = _empty_tally(), 0
        self.new_game()

    def _menace_move(self) -> None:
        T = game_tables(GAME)
        pid = self.position()
        if self.result or T.outcome[pid] != ONGOING or T.player[pid] != self.data["player"]:
            return
        agent = self._agent()
        rng = CounterRng(self.seed, self.draws)
        box = agent.raw_box[pid]
        before = list(agent.weights[box]) if box >= 0 else []
        column, b, j = agent.choose(pid, rng)
        self.draws = rng.position
        if b < 0:  # one free column: no box, no draw
            self.last = {"column": column, "code": -1, "colour": -1, "columns": [column],
                         "beads": [], "p": [1]}  # fmt: skip
            self.moves = [*self.moves, column]
            self._after_move()
            return
        code = int(T.codes[agent.states[b]])
        beads = [_whole(x) for x in agent.weights[b]]
        if agent.weights[b] != before:  # an empty box restocked before the draw
            self.learned = {**self.learned, str(code): beads}
        total = sum(beads)
        self.last = {"column": int(column), "code": code, "colour": int(j),
                     "columns": list(agent.raw_squares[pid]), "beads": beads,
                     "p": [x / total if total else 0 for x in beads]}  # fmt: skip
        if column == RESIGN:
            self._finish(LOSS)
        if j < 0:  # an empty box nothing refills: MENACE resigns, or stops the game
            return
        self.path = [*self.path, [code, int(j)]]
        self.moves = [*self.moves, int(column)]
        self._after_move()

    def _after_move(self) -> None:
        outcome = int(game_tables(GAME).outcome[self.position()])
        if outcome == ONGOING:
            return
        if outcome == DRAW:
            self._finish(DRAW_RESULT)
        else:
            self._finish(WIN if (outcome == FIRST_WIN) == (self.data["player"] == 1) else LOSS)

    def _finish(self, result: int) -> None:
        key = RESULTS[result]
        with self.hold_trait_notifications():
            self.result = key
            self.tally = {**self.tally, key: self.tally[key] + 1}
            if not self.learn or not self.path:
                return
            agent = self._agent()
            boxes = [(self._box(code), j) for code, j in self.path]
            agent.reinforce(boxes, result)
            changed = {str(code): [_whole(x) for x in agent.weights[b]]
                       for (code, _), (b, _) in zip(self.path, boxes, strict=True)}  # fmt: skip
            self.learned = {**self.learned, **changed}
            self.games_learned += 1

    # --- validation (browser messages are input too) -------------------------------------

    @t.validate("seed")
    def _valid_seed(self, proposal: t.Bunch) -> int:
        return _check_seed(proposal.value)

    @t.validate("moves")
    def _valid_moves(self, proposal: t.Bunch) -> list[int]:
        moves = proposal.value
        _position(moves)  # a TraitError naming the bad move
        return [int(m) for m in moves]

    @t.validate("result")
    def _valid_result(self, proposal: t.Bunch) -> str:
        if proposal.value not in ("", *RESULTS):
            value = str(proposal.value)[:20]
            raise Connect4StateError(f"result must be '' or one of {RESULTS}, got {value!r}")
        return proposal.value

    @t.validate("tally")
    def _valid_tally(self, proposal: t.Bunch) -> dict[str, int]:
        value = proposal.value
        if not isinstance(value, dict) or set(value) != set(RESULTS):
            raise Connect4StateError(f"tally must have the keys {RESULTS}, got {value!r}")
        return {k: _count(f"tally[{k}]", value[k]) for k in RESULTS}

    @t.validate("draws", "games_learned")
    def _valid_count(self, proposal: t.Bunch) -> int:
        return _count(proposal.trait.name, proposal.value)

    @t.validate("path")
    def _valid_path(self, proposal: t.Bunch) -> list[list[int]]:
        path = proposal.value
        for k, entry in enumerate(path):
            ok = (
                isinstance(entry, (list, tuple))
                and len(entry) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in entry)
            )
            box = self._box(entry[0]) if ok and 0 <= entry[0] < 2**62 else -1
            if box < 0 or not 0 <= entry[1] < len(self._agent().initial[box]):
                shown = repr(entry)[:40]
                raise Connect4StateError(f"path[{k}] = {shown} is not a [box code, colour] pair")
        return [[int(c), int(j)] for c, j in path]

    @t.validate("learned")
    def _valid_learned(self, proposal: t.Bunch) -> dict[str, list]:
        for code, beads in proposal.value.items():
            box = self._box(int(code)) if str(code).isdigit() and len(str(code)) < 19 else -1
            if box < 0:
                raise Connect4StateError(f"learned: {str(code)[:20]!r} is not a box's code")
            n = len(self._agent().initial[box])
            if (
                not isinstance(beads, list)
                or len(beads) != n
                or not all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1e12
                    for x in beads
                )
            ):
                raise Connect4StateError(f"learned[{code}]: expected {n} counts from 0 to 1e12")
        return proposal.value


def _whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _check_seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEED_LIMIT:
        raise Connect4StateError(f"seed must be an integer in [0, 2**32), got {value!r}")
    return value


def _position(moves: Any) -> int:
    """The position id after ``moves`` (0-based columns), or a TraitError naming the bad one."""
    T = game_tables(GAME)
    if not isinstance(moves, list):
        raise Connect4StateError(f"moves must be a list of columns, got {type(moves).__name__}")
    pid = 0
    for k, m in enumerate(moves):
        if T.outcome[pid] != ONGOING:
            raise Connect4StateError(f"moves[{k}]: the game was already over")
        legal = T.legal(pid)
        if isinstance(m, bool) or not isinstance(m, int) or m not in legal:
            raise Connect4StateError(f"moves[{k}] = {m!r} is not a free column ({list(legal)})")
        pid = int(T.succ[pid, m])
    return pid
