"""The MENACE lab's games in Python, with the library's own rules.

The lab widget (:mod:`menace_lib.widgets.lab`) plays its games in JavaScript
(``lab_session.js``). :class:`LabSession` plays the same games here, built only from the
library: :func:`menace_lib.play.loop.play_game` plays each game, in which
:meth:`Menace.act <menace_lib.machine.menace.Menace.act>` draws MENACE's beads (with the rules of
:mod:`menace_lib.machine.beads`) and :meth:`TableOpponent.act
<menace_lib.play.opponents.TableOpponent.act>`
makes the scripted opponents' moves; :meth:`Menace.end_game
<menace_lib.machine.menace.Menace.end_game>`
learns, and :func:`menace_lib.play.evaluation.exact_outcome` evaluates. Both sides read one
Philox4x32-10 stream (:class:`menace_lib.base.prng.CounterRng`) in the same order, so a seed
fixes every game in the browser and here alike: the tests replay the widget's games
through this module and compare bead counts, and the book's lab page states facts
computed with it.

Vocabulary (the widget's settings):

``game``       ``"noughts-and-crosses"`` (the lab widget's game) or ``"hexapawn"``
               (:data:`LAB_GAMES`; the Python lab plays both)
``opponent``   ``"random"``, ``"defensive"`` (noughts and crosses) or ``"human-like"``
               (Hexapawn), ``"perfect"`` (with ``tie_break``), ``"menace"`` (a second
               MENACE on the other side, learning too) or ``"human"`` (the reader, in the
               browser only)
``side``       MENACE's side, ``"X"`` (it opens; White in Hexapawn) or ``"O"``

The rest (layout, filter, schedule, reinforcement, restock, empty_box, floor,
move_restock_beads, credit) are :class:`~menace_lib.machine.menace.MenaceConfig`'s fields,
shared by both MENACEs. :func:`lab_settings` gives a game's defaults (HER's, Gardner's
rule, for Hexapawn). Under ``empty_box="stop"`` (or ``"web"`` at an opening box) the session halts
at an empty box: the unfinished game is dropped and no more are played, as in
:func:`menace_lib.play.loop.play_games`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from typing import Any

from ..base.prng import CounterRng, check_seed
from ..games.board import O, X
from ..games.registry import DEFAULT_GAME, game_tables
from ..machine.menace import Menace, MenaceConfig
from ..play.evaluation import exact_outcome
from ..play.loop import RESULT_NAMES, play_game
from ..play.opponents import GAME_OPPONENTS, TIE_BREAKS, make_opponent

__all__ = [
    "LAB_GAMES",
    "LAB_OPPONENTS",
    "LabSession",
    "LabSettings",
    "METRICS",
    "Series",
    "games_until",
    "lab_settings",
]

LAB_OPPONENTS = ("human", "random", "defensive", "perfect", "menace")
LAB_GAMES = ("noughts-and-crosses", "hexapawn")
"""The games the lab plays: the ones whose every position a page can carry."""
GAME_LAB_OPPONENTS = {
    "noughts-and-crosses": LAB_OPPONENTS,
    "hexapawn": ("human", *GAME_OPPONENTS, "menace"),
}
SIDES = {"X": X, "O": O}
SERIES_HEAD = 400
SERIES_POINTS = 800


@dataclass(frozen=True)
class LabSettings:
    """Everything that decides the lab's games (see the module docstring)."""

    opponent: str = "perfect"
    tie_break: str = "uniform"
    side: str = "X"
    layout: str = "class"
    filter: str = "decision"
    schedule: tuple[float, ...] = (4, 3, 2, 1)
    reinforcement: tuple[float, float, float] = (3, 1, -1)
    restock: str = "box"
    empty_box: str = "resign"
    floor: float = 0.0
    move_restock_beads: float | None = None
    seed: int = 1
    credit: str = "every"
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        if self.game not in LAB_GAMES:
            raise ValueError(
                f"the lab cannot show {str(self.game)[:40]!r}; it shows {' and '.join(LAB_GAMES)}"
            )
        opponents = GAME_LAB_OPPONENTS[self.game]
        if self.opponent not in opponents:
            raise ValueError(
                f"unknown opponent {self.opponent!r} for {self.game}; choose one of {opponents}"
            )
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie_break {self.tie_break!r}; choose one of {TIE_BREAKS}")
        if self.side not in SIDES:
            raise ValueError(f"side must be 'X' or 'O', got {self.side!r}")
        if check_seed(self.seed) >= 2**32:
            raise ValueError(f"seed must be in [0, 2**32), got {self.seed!r}")
        config = self.config(self.side)  # validates the MenaceConfig fields
        object.__setattr__(self, "schedule", config.schedule)
        object.__setattr__(self, "reinforcement", config.reinforcement)

    def replace(self, **changes: Any) -> LabSettings:
        """These settings with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def config(self, side: str) -> MenaceConfig:
        """The :class:`MenaceConfig` of the MENACE playing ``side``."""
        return MenaceConfig(
            filter=self.filter,
            schedule=tuple(self.schedule),
            reinforcement=tuple(self.reinforcement),
            restock=self.restock,
            empty_box=self.empty_box,
            layout=self.layout,
            player=SIDES[side],
            floor=self.floor,
            move_restock_beads=self.move_restock_beads,
            credit=self.credit,
            game=self.game,
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain values: the lab widget's (:data:`WIDGET_SETTINGS`), and
        ``credit`` and ``game`` where they are not the widget's own (Python only)."""
        out = asdict(self)
        out["schedule"] = list(self.schedule)
        out["reinforcement"] = list(self.reinforcement)
        for name in PYTHON_ONLY:
            if out[name] == LabSettings.__dataclass_fields__[name].default:
                del out[name]
        return out


PYTHON_ONLY = ("credit", "game")
"""Settings the lab widget does not show (it plays noughts and crosses, Michie's credit)."""
WIDGET_SETTINGS = tuple(n for n in LabSettings.__dataclass_fields__ if n not in PYTHON_ONLY)
"""The settings the lab widget shows, one trait each."""


def lab_settings(game: str = DEFAULT_GAME, **changes: Any) -> LabSettings:
    """The lab's default settings for ``game``, with ``changes``.

    Hexapawn's are HER's (:func:`menace_lib.agents.her.her_config`, Gardner's rule): MENACE plays
    Black (``side="O"``) against the perfect White.

    Raises
    ------
    ValueError
        For a game the lab cannot show (one line, naming the games it shows), or a bad
        setting.
    """
    if game == "hexapawn":
        from ..agents.her import her_config

        c = her_config("gardner")
        base = {
            "side": "O",
            "layout": c.layout,
            "filter": c.filter,
            "schedule": c.schedule,
            "reinforcement": c.reinforcement,
            "restock": c.restock,
            "empty_box": c.empty_box,
            "credit": c.credit,
        }
        return LabSettings(game=game, **{**base, **changes})
    return LabSettings(game=game, **changes)


def other_side(side: str) -> str:
    return "O" if side == "X" else "X"


class Series:
    """A growing series in bounded memory (``lab_session.js``'s ``Series``).

    The first ``head`` points are all kept (the first games, for a log-scale axis);
    after them every ``stride``-th point is kept, and when more than ``max_points`` are,
    every other one is dropped and the stride doubles. So a long run keeps its start in
    full and an evenly spaced sketch of the rest.
    """

    def __init__(
        self, saved: dict | None = None, head: int = SERIES_HEAD, max_points: int = SERIES_POINTS
    ) -> None:
        saved = saved or {}
        self.head = head
        self.max_points = max_points
        self.stride = int(saved.get("stride", 1))
        self.seen = int(saved.get("seen", 0))
        self.x: list[float] = list(saved.get("x", []))
        self.y: list[list[float]] = [list(col) for col in saved.get("y", [])]

    def push(self, x: float, ys: list[float]) -> None:
        if not self.y:
            self.y = [[] for _ in ys]
        if self.seen < self.head or (self.seen - self.head) % self.stride == 0:
            self.x.append(x)
            for col, v in zip(self.y, ys, strict=True):
                col.append(v)
            if len(self.x) > self.head + self.max_points:
                h = self.head
                self.x = self.x[:h] + self.x[h:][::2]
                self.y = [col[:h] + col[h:][::2] for col in self.y]
                self.stride *= 2
        self.seen += 1

    def to_dict(self) -> dict[str, Any]:
        return {"stride": self.stride, "seen": self.seen, "x": self.x, "y": self.y}


def _compact(value: float) -> float | int:
    """Whole bead counts travel as ints (shorter JSON)."""
    return int(value) if float(value).is_integer() else float(value)


class LabSession:
    """The lab's games, played by the library (see the module docstring).

    Parameters
    ----------
    settings
        Opponent, side, MENACE's configuration, empty-box rule and seed.
    state
        A saved session to resume (:meth:`state`'s output, as the widget stores it);
        fresh MENACEs and a fresh stream when omitted.
    """

    def __init__(self, settings: LabSettings, state: dict[str, Any] | None = None) -> None:
        state = state or {}
        self.settings = settings
        self.menace = self._menace(settings.side, state.get("beads"))
        self.menace2 = self._menace(other_side(settings.side), state.get("beads2"))
        self.rng = CounterRng(settings.seed, int(state.get("position", 0)))
        self.games = int(state.get("games", 0))
        tally = {name: 0 for name in RESULT_NAMES}
        tally.update(state.get("tally") or {})
        self.tally = tally
        self.stopped = str(state.get("stopped", ""))
        history = state.get("history") or {}
        self.bead_series = Series(history.get("beads"))
        self.tally_series = Series(history.get("tally"))
        self.exact_series = Series(history.get("exact"))
        opening = self.menace.box_layout.opening
        self.opening = [b for b, s in enumerate(self.menace.states) if opening[s]]

    def _menace(self, side: str, beads: list | None) -> Menace:
        agent = Menace(self.settings.config(side))
        if beads:
            if len(beads) != agent.n_boxes:
                raise ValueError(f"{len(beads)} bead lists for {agent.n_boxes} boxes ({side})")
            agent.weights = [[float(x) for x in w] for w in beads]
        return agent

    # --- playing ----------------------------------------------------------------

    def play_game(self) -> str:
        """Play one game and learn from it.

        Returns
        -------
        str
            ``"over"``, or ``"stopped"`` when MENACE met an empty box under the stop
            rule (the game is dropped; the session plays no more).

        Raises
        ------
        ValueError
            Against the ``"human"`` opponent: the reader plays in the browser.
        """
        if self.stopped:
            return "stopped"
        name = self.settings.opponent
        if name == "human":
            raise ValueError("the reader's moves come from the browser; pick another opponent")
        learner2 = name == "menace"
        game_name = self.settings.game
        other = (
            self.menace2
            if learner2
            else make_opponent(name, self.settings.tie_break, game=game_name)
        )
        first = self.menace.player == X
        pair = (self.menace, other) if first else (other, self.menace)
        game = play_game(*pair, self.rng, game=game_name)
        if game.stopped:
            self._stop(game.final)
            return "stopped"
        side1, side2 = (0, 1) if first else (1, 0)
        r1 = game.result(self.menace.player)
        self.menace.end_game(game.records[side1], r1, game.final)
        if learner2:
            self.menace2.end_game(game.records[side2], game.result(self.menace2.player))
        self.games += 1
        self.tally[RESULT_NAMES[r1]] += 1
        self.bead_series.push(self.games, self.opening_change())
        self.tally_series.push(self.games, [self.tally[n] for n in RESULT_NAMES])
        return "over"

    def _stop(self, pid: int) -> None:
        """Record which MENACE stopped at which empty box (the message the page shows)."""
        T = game_tables(self.settings.game)
        agent = self.menace if T.player[pid] == self.menace.player else self.menace2
        box = agent.box_for(pid)
        name = "MENACE" if agent is self.menace else "MENACE 2"
        kind = "opening box" if agent.box_layout.opening[pid] else "box"
        self.stopped = f"{name}'s {kind} {box + 1} is empty"

    def play(self, games: int) -> int:
        """Play up to ``games`` games; returns how many were played (fewer if stopped)."""
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            raise ValueError(f"games must be an integer ≥ 0, got {games!r}")
        played = 0
        while played < games and self.play_game() == "over":
            played += 1
        return played

    # --- what the lab shows -----------------------------------------------------

    def opening_change(self) -> list[float]:
        """Per opening box of MENACE: its bead total now minus its initial total."""
        m = self.menace
        return [sum(m.weights[b]) - sum(m.initial[b]) for b in self.opening]

    def exact(self, record: bool = True) -> dict[str, float | int]:
        """Exact draw/loss/win against the perfect player and win against random, now."""
        game = self.settings.game
        perfect = exact_outcome(
            self.menace, make_opponent("perfect", self.settings.tie_break, game=game)
        )
        random = exact_outcome(self.menace, make_opponent("random", game=game))
        out = {"games": self.games, **perfect, "win_random": random["win"]}
        if record and (not self.exact_series.x or self.exact_series.x[-1] != self.games):
            self.exact_series.push(self.games, [perfect["draw"], perfect["loss"], random["win"]])
        return out

    def state(self) -> dict[str, Any]:
        """The plain state the widget stores (``lab_session.js``'s ``state()``)."""
        return {
            "games": self.games,
            "position": self.rng.position,
            "tally": dict(self.tally),
            "beads": [[_compact(x) for x in w] for w in self.menace.weights],
            "beads2": [[_compact(x) for x in w] for w in self.menace2.weights],
            "stopped": self.stopped,
            "history": {
                "beads": self.bead_series.to_dict(),
                "tally": self.tally_series.to_dict(),
                "exact": self.exact_series.to_dict(),
            },
        }


METRICS = {
    "draw": ("perfect", "draw"),
    "loss": ("perfect", "loss"),
    "win": ("perfect", "win"),
    "win_random": ("random", "win"),
}
"""The exact rates the lab shows: metric -> (opponent, outcome)."""


def games_until(
    settings: LabSettings,
    metric: str,
    threshold: float,
    max_games: int,
) -> int | None:
    """The first game count after which an exact rate is ≥ ``threshold``.

    ``metric`` is ``"draw"``, ``"loss"`` or ``"win"`` against the perfect player (with
    the settings' tie-break) or ``"win_random"`` against the random player. The rate is
    evaluated after every game, as the lab does at low speed. Returns None if it does
    not happen within ``max_games`` games (or the session stops first).
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {tuple(METRICS)}")
    name, outcome = METRICS[metric]
    opponent = make_opponent(name, settings.tie_break, game=settings.game)
    session = LabSession(settings)
    for _ in range(max_games):
        if session.play_game() != "over":
            return None
        if exact_outcome(session.menace, opponent)[outcome] >= threshold:
            return session.games
    return None
