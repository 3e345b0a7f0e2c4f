"""Play Hexapawn against HER, Gardner's matchbox machine, in the browser or from Python.

The reader plays White (moving first) and HER plays Black, learning as they play: under
Gardner's rule a lost game confiscates the bead of HER's last move; under Michie's rule
every bead it drew gains or loses beads (:func:`menace_lib.agents.her.her_config`). All of HER's
19 boxes are on screen with their beads. ``her_play.js`` plays on a static page with no
kernel, through the widgets' one game engine (``lab_engine.js``: ``machineMove``,
``machineLearn``) on the Hexapawn tables of :func:`~menace_lib.widgets.game_data.game_payload`.

Both sides draw from the one Philox4x32-10 stream (:class:`menace_lib.base.prng.CounterRng`
and ``prng.js``) of ``seed``, read from position ``draws``, in the order
:meth:`Menace.choose <menace_lib.machine.menace.Menace.choose>` reads it. So the same seed and
the same White moves give the same games here and in the browser, bead for bead
(``tests/test_her_widget.py`` replays the browser's games in Python). ``record`` holds
White's moves of every finished game, so a link (``#her=rule:gardner,seed:3,games:...``)
replays the whole session: HER's boxes as the reader left them.

Moves are Hexapawn's integers (``3 * cell + direction``, :mod:`menace_lib.games.hexapawn`);
readers see them as ``b1-b2`` or ``a2xb3``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..agents.her import RULES, her_config
from ..base.prng import CounterRng
from ..games.game import ONGOING
from ..games.hexapawn import BLACK, HEXAPAWN
from ..games.registry import game_tables
from ..games.results import LOSS, WIN
from ..machine.menace import Menace
from . import her_state
from ._bundle import bundle, stylesheet
from .game_data import game_payload
from .play_state import check_seed

__all__ = ["FRAGMENT_KEY", "HerWidget", "her_data", "record_text"]

GAME = "hexapawn"
FRAGMENT_KEY = "her"
"""The HER widget's key in a page's URL fragment."""
DEFAULTS: dict[str, Any] = {"rule": "gardner", "seed": 0}
MAX_GAMES_IN_LINK = 60
"""Games a link replays (each is a few characters; the fragment is capped at 1,000).
After more games a link carries the rule and the seed only."""
RESULT_TEXT = {WIN: "HER wins", LOSS: "You win"}


def _compact(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _rules(rule: str) -> dict[str, Any]:
    c = her_config(rule)
    return {
        "layout": c.layout,
        "filter": c.filter,
        "schedule": list(c.schedule),
        "reinforcement": list(c.reinforcement),
        "restock": c.restock,
        "empty_box": c.empty_box,
        "floor": c.floor,
        "credit": c.credit,
    }


@cache
def her_data() -> dict[str, Any]:
    """The static payload of every :class:`HerWidget`: Hexapawn's tables, both rules."""
    return {
        "tables": game_payload(GAME),
        "rules": {rule: _rules(rule) for rule in RULES},
        "player": BLACK,
        "defaults": dict(DEFAULTS),
        "max_games_in_link": MAX_GAMES_IN_LINK,
    }


def record_text(record: list[list[int]]) -> str:
    """White's moves of finished games as a link writes them: a base-36 digit per move,
    games separated by ``.`` (``her_play.js`` reads and writes the same text)."""
    return ".".join("".join(np.base_repr(m, 36).lower() for m in game) for game in record)


class HerWidget(anywidget.AnyWidget):
    """Play Hexapawn as White against HER (Black), who learns as you play.

    Parameters
    ----------
    rule
        ``"gardner"`` (confiscate the last move's bead after a loss) or ``"michie"``.
    seed
        Seed of HER's bead draws, in ``[0, 2**32)``.

    Raises
    ------
    ValueError
        For an unknown rule or a bad seed.
    """

    _esm = bundle("her_play.js")
    _css = stylesheet()

    data = t.Dict().tag(sync=True)
    rule = t.Unicode(DEFAULTS["rule"]).tag(sync=True)
    seed = t.Int(DEFAULTS["seed"]).tag(sync=True)
    draws = t.Int(0).tag(sync=True)
    """How many numbers of the seed's stream have been read."""
    moves = t.List().tag(sync=True)
    """The game in progress (or just finished): every move, White's first."""
    path = t.List().tag(sync=True)
    """(box, colour) of every bead HER drew in this game."""
    result = t.Unicode("").tag(sync=True)
    tally = t.Dict(default_value={"her": 0, "human": 0}).tag(sync=True)
    beads = t.List().tag(sync=True)
    """HER's live bead counts, per box."""
    record = t.List().tag(sync=True)
    """White's moves in each finished game (a link replays them)."""
    last_draw = t.Dict().tag(sync=True)
    """HER's latest move: move, box, colour (colour -1: an empty box, HER resigned)."""

    def __init__(self, rule: str = DEFAULTS["rule"], seed: int = DEFAULTS["seed"], **kwargs):
        self._check_rule(rule)
        self._check_seed(seed)
        super().__init__(data=her_data(), rule=rule, seed=seed, **kwargs)
        self.reset(rule, seed)

    def __repr__(self) -> str:
        return f"HerWidget(rule={self.rule!r}, seed={self.seed})"

    @staticmethod
    def _check_rule(rule: Any) -> str:
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; choose one of {RULES}")
        return rule

    _check_seed = staticmethod(check_seed)

    @t.validate("rule")
    def _valid_rule(self, proposal: t.Bunch) -> str:
        return self._check_rule(proposal.value)

    @t.validate("seed")
    def _valid_seed(self, proposal: t.Bunch) -> int:
        return self._check_seed(proposal.value)

    # The browser's messages are input too (menace_lib.widgets.her_state).
    @t.validate("draws")
    def _valid_draws(self, proposal: t.Bunch) -> int:
        return her_state.check_draws(proposal.value)

    @t.validate("moves")
    def _valid_moves(self, proposal: t.Bunch) -> list[int]:
        return her_state.check_moves(proposal.value)

    @t.validate("path")
    def _valid_path(self, proposal: t.Bunch) -> list[list[int]]:
        return her_state.check_path(proposal.value)

    @t.validate("beads")
    def _valid_beads(self, proposal: t.Bunch) -> list[list[float]]:
        return her_state.check_beads(proposal.value)

    @t.validate("result")
    def _valid_result(self, proposal: t.Bunch) -> str:
        return her_state.check_result(proposal.value)

    @t.validate("tally")
    def _valid_tally(self, proposal: t.Bunch) -> dict[str, int]:
        return her_state.check_tally(proposal.value)

    @t.validate("record")
    def _valid_record(self, proposal: t.Bunch) -> list[list[int]]:
        return her_state.check_record(proposal.value)

    @t.validate("last_draw")
    def _valid_last_draw(self, proposal: t.Bunch) -> dict[str, int]:
        return her_state.check_last_draw(proposal.value)

    # --- state -------------------------------------------------------------------

    @property
    def agent(self) -> Menace:
        """HER as a :class:`Menace` holding the live beads."""
        agent = Menace(her_config(self.rule))
        agent.weights = [[float(x) for x in w] for w in self.beads]
        return agent

    @property
    def position(self) -> int:
        """The position id of the game in progress (:func:`game_tables` of Hexapawn)."""
        T = game_tables(GAME)
        pid = 0
        for m in self.moves:
            pid = int(T.succ[pid, m])
        return pid

    @property
    def turn(self) -> str:
        """``"human"`` (White to move), ``"her"`` or ``"over"``."""
        if self.result:
            return "over"
        return "her" if int(game_tables(GAME).player[self.position]) == BLACK else "human"

    def legal_moves(self) -> list[str]:
        """White's legal moves now, as readers name them (``b1-b2``)."""
        T = game_tables(GAME)
        pid = self.position
        if self.turn != "human":
            return []
        return [HEXAPAWN.move_name(T.position(pid), m) for m in T.legal(pid)]

    # --- actions -----------------------------------------------------------------

    def reset(self, rule: str | None = None, seed: int | None = None) -> None:
        """A fresh HER (the rule's initial beads), the stream from its start, no games."""
        rule = self._check_rule(self.rule if rule is None else rule)
        seed = self._check_seed(self.seed if seed is None else seed)
        with self.hold_trait_notifications():
            self.rule, self.seed = rule, seed
            self.beads = [[_compact(x) for x in w] for w in Menace(her_config(rule)).initial]
            self.draws = 0
            self.tally = {"her": 0, "human": 0}
            self.record = []
            self._clear()

    def _clear(self) -> None:
        self.moves = []
        self.path = []
        self.result = ""
        self.last_draw = {}

    def new_game(self) -> None:
        """Clear the board (HER keeps what it learnt)."""
        with self.hold_trait_notifications():
            self._clear()

    def play(self, move: int | str) -> None:
        """White plays ``move`` (Hexapawn's integer, or a name such as ``"b1-b2"``);
        HER replies at once. After a finished game the board is cleared first.

        Raises
        ------
        ValueError
            For a move that is not legal for White now.
        """
        if self.turn == "over":
            self.new_game()
        T = game_tables(GAME)
        pid = self.position
        names = {HEXAPAWN.move_name(T.position(pid), m): m for m in T.legal(pid)}
        if isinstance(move, str):
            if move not in names:
                raise ValueError(f"move {move[:12]!r} is not legal now; legal: {sorted(names)}")
            move = names[move]
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)):
            raise ValueError(f"move must be an integer or a name like 'b1-b2', got {move!r}")
        if int(move) not in names.values():
            raise ValueError(f"move {move!r} is not legal now; legal: {sorted(names)}")
        self._advance(int(move))
        if self.turn == "her":
            self.her_move()

    def her_move(self) -> int:
        """HER draws a bead and plays it (or resigns at an empty box); returns the move."""
        if self.turn != "her":
            raise ValueError(f"it is not HER's turn (turn: {self.turn})")
        agent = self.agent
        rng = CounterRng(self.seed, self.draws)
        move, box, colour = agent.choose(self.position, rng)
        with self.hold_trait_notifications():
            self.draws = rng.position
            self.last_draw = {"move": move, "box": box, "colour": colour}
            if colour >= 0:
                self.path = [*self.path, [box, colour]]
            if move < 0:
                self._finish(LOSS)
            else:
                self._advance(move)
        return move

    def _advance(self, move: int) -> None:
        T = game_tables(GAME)
        pid = int(T.succ[self.position, move])
        with self.hold_trait_notifications():
            self.moves = [*self.moves, move]
            outcome = int(T.outcome[pid])
            if outcome != ONGOING:
                self._finish(WIN if outcome == BLACK else LOSS)

    def _finish(self, result: int) -> None:
        """Score the game for HER and learn from it (the rule's credit and beads)."""
        agent = self.agent
        agent.reinforce([(b, j) for b, j in self.path], result)
        key = "her" if result == WIN else "human"
        self.beads = [[_compact(x) for x in w] for w in agent.weights]
        self.result = RESULT_TEXT[result]
        self.tally = {**self.tally, key: self.tally[key] + 1}
        self.record = [*self.record, self.moves[0::2]]

    @property
    def fragment(self) -> str:
        """The URL fragment (without "#") that replays this session on the page."""
        games = record_text(self.record) if len(self.record) <= MAX_GAMES_IN_LINK else ""
        text = f"{FRAGMENT_KEY}=rule:{self.rule},seed:{self.seed}"
        return text + (f",games:{games}" if games else "")
