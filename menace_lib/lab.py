"""The MENACE lab's games in Python, with the library's own rules.

The lab widget (:mod:`menace_lib.widgets.lab`) plays its games in JavaScript
(``lab_engine.js``). :class:`LabSession` plays the same games here, built only from the
library: :meth:`Menace.choose <menace_lib.menace.Menace.choose>` draws MENACE's beads,
:meth:`TableOpponent.move <menace_lib.opponents.TableOpponent.move>` the scripted
opponents' moves, :meth:`Menace.reinforce <menace_lib.menace.Menace.reinforce>` learns,
and :func:`menace_lib.evaluation.exact_outcome` evaluates. Both sides read one
Philox4x32-10 stream (:class:`menace_lib.prng.CounterRng`) in the same order, so a seed
fixes every game in the browser and here alike: the tests replay the widget's games
through this module and compare bead counts, and the book's lab page states facts
computed with it.

Vocabulary (the widget's settings):

``opponent``   ``"random"``, ``"defensive"``, ``"perfect"`` (with ``tie_break``),
               ``"menace"`` (a second MENACE on the other side, learning too) or
               ``"human"`` (the reader, in the browser only)
``side``       MENACE's side, ``"X"`` (it opens) or ``"O"``
``on_empty``   what an empty box does when there is no restock: ``"resign"`` (that game
               is lost), ``"stop"`` (the session halts, the game is dropped) or ``"web"``
               (halt at an empty *opening* box, resign at any other: Scroggs' web MENACE)

The rest (layout, filter, schedule, reinforcement, restock, floor, move_restock_beads)
are :class:`~menace_lib.menace.MenaceConfig`'s fields, shared by both MENACEs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .board import O, X
from .evaluation import exact_outcome
from .menace import LOSS, RESULT_NAMES, WIN, Menace, MenaceConfig, result_for
from .opponents import TIE_BREAKS, make_opponent
from .prng import CounterRng, check_seed
from .statespace import ONGOING, tables

__all__ = [
    "LAB_OPPONENTS",
    "ON_EMPTY",
    "LabSession",
    "LabSettings",
    "Series",
    "games_until",
]

LAB_OPPONENTS = ("human", "random", "defensive", "perfect", "menace")
ON_EMPTY = ("resign", "stop", "web")
SIDES = {"X": X, "O": O}
SERIES_POINTS = 1200


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
    on_empty: str = "resign"
    floor: float = 0.0
    move_restock_beads: float | None = None
    seed: int = 1

    def __post_init__(self) -> None:
        if self.opponent not in LAB_OPPONENTS:
            raise ValueError(f"unknown opponent {self.opponent!r}; choose one of {LAB_OPPONENTS}")
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie_break {self.tie_break!r}; choose one of {TIE_BREAKS}")
        if self.side not in SIDES:
            raise ValueError(f"side must be 'X' or 'O', got {self.side!r}")
        if self.on_empty not in ON_EMPTY:
            raise ValueError(f"unknown on_empty {self.on_empty!r}; choose one of {ON_EMPTY}")
        if check_seed(self.seed) >= 2**32:
            raise ValueError(f"seed must be in [0, 2**32), got {self.seed!r}")
        config = self.config(self.side)  # validates the MenaceConfig fields
        object.__setattr__(self, "schedule", config.schedule)
        object.__setattr__(self, "reinforcement", config.reinforcement)

    def config(self, side: str) -> MenaceConfig:
        """The :class:`MenaceConfig` of the MENACE playing ``side``."""
        return MenaceConfig(
            filter=self.filter,
            schedule=tuple(self.schedule),
            reinforcement=tuple(self.reinforcement),
            restock=self.restock,
            layout=self.layout,
            player=SIDES[side],
            floor=self.floor,
            move_restock_beads=self.move_restock_beads,
        )

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["schedule"] = list(self.schedule)
        out["reinforcement"] = list(self.reinforcement)
        return out


def other_side(side: str) -> str:
    return "O" if side == "X" else "X"


class Series:
    """A growing series thinned to at most ``max_points`` (``lab_engine.js``'s ``Series``).

    Every ``stride``-th point pushed is kept; when more than ``max_points`` are kept,
    every other one is dropped and the stride doubles. So a long run keeps an evenly
    spaced sketch of its whole history in bounded memory.
    """

    def __init__(self, saved: dict | None = None, max_points: int = SERIES_POINTS) -> None:
        saved = saved or {}
        self.max_points = max_points
        self.stride = int(saved.get("stride", 1))
        self.seen = int(saved.get("seen", 0))
        self.x: list[float] = list(saved.get("x", []))
        self.y: list[list[float]] = [list(col) for col in saved.get("y", [])]

    def push(self, x: float, ys: list[float]) -> None:
        if not self.y:
            self.y = [[] for _ in ys]
        if self.seen % self.stride == 0:
            self.x.append(x)
            for col, v in zip(self.y, ys, strict=True):
                col.append(v)
            if len(self.x) > self.max_points:
                self.x = self.x[::2]
                self.y = [col[::2] for col in self.y]
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
        self.opening = [b for b, s in enumerate(self.menace.states) if tables().ply[s] < 2]

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
        opponent_name = self.settings.opponent
        if opponent_name == "human":
            raise ValueError("the reader's moves come from the browser; pick another opponent")
        T = tables()
        opponent = None
        if opponent_name != "menace":
            opponent = make_opponent(opponent_name, self.settings.tie_break)
        me = self.menace.config.player
        pid, path1, path2 = 0, [], []
        while T.outcome[pid] == ONGOING:
            if T.player[pid] == me or opponent is None:
                agent, path = (self.menace, path1) if T.player[pid] == me else (self.menace2, path2)
                square, box, colour = agent.choose(pid, self.rng)
                if square < 0:
                    return self._empty_box(agent, box, path1, path2)
                if colour >= 0:
                    path.append((box, colour))
            else:
                square = opponent.move(pid, self.rng)
            pid = int(T.succ[pid, square])
        outcome = int(T.outcome[pid])
        self._finish(
            path1, path2, result_for(me, outcome), result_for(self.menace2.config.player, outcome)
        )
        return "over"

    def _empty_box(self, agent: Menace, box: int, path1: list, path2: list) -> str:
        """An empty box with no restock: resign (a loss, learnt as training does) or halt."""
        opening = tables().ply[agent.states[box]] < 2
        rule = self.settings.on_empty
        if rule == "stop" or (rule == "web" and opening):
            name = "MENACE" if agent is self.menace else "MENACE 2"
            self.stopped = f"{name}'s {'opening box' if opening else 'box'} {box + 1} is empty"
            return "stopped"
        first = agent is self.menace
        self._finish(path1, path2, LOSS if first else WIN, WIN if first else LOSS)
        return "over"

    def _finish(self, path1: list, path2: list, r1: int, r2: int) -> None:
        self.menace.reinforce(path1, r1)
        if self.settings.opponent == "menace":
            self.menace2.reinforce(path2, r2)
        self.games += 1
        self.tally[RESULT_NAMES[r1]] += 1
        self.bead_series.push(self.games, self.opening_change())
        self.tally_series.push(self.games, [self.tally[name] for name in RESULT_NAMES])

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
        perfect = exact_outcome(self.menace, make_opponent("perfect", self.settings.tie_break))
        random = exact_outcome(self.menace, make_opponent("random"))
        out = {"games": self.games, **perfect, "win_random": random["win"]}
        if record and (not self.exact_series.x or self.exact_series.x[-1] != self.games):
            self.exact_series.push(self.games, [perfect["draw"], perfect["loss"], random["win"]])
        return out

    def state(self) -> dict[str, Any]:
        """The plain state the widget stores (``lab_engine.js``'s ``state()``)."""
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


def games_until(
    settings: LabSettings,
    metric: str,
    threshold: float,
    max_games: int,
) -> int | None:
    """The first game count after which ``metric`` of the exact evaluation is ≥ ``threshold``.

    ``metric`` is a key of :meth:`LabSession.exact` (``"draw"``, ``"loss"``, ``"win"``,
    ``"win_random"``). The exact evaluation is redone after every game, as the lab does at
    low speed. Returns None if it does not happen within ``max_games`` games (or the
    session stops first).
    """
    session = LabSession(settings)
    if metric not in session.exact(record=False):
        raise ValueError(f"unknown metric {metric!r}")
    for _ in range(max_games):
        if session.play_game() != "over":
            return None
        if session.exact(record=False)[metric] >= threshold:
            return session.games
    return None
