"""The MENACE lab: watch MENACE learn against any opponent, every matchbox on screen.

The browser does the work (``lab.js`` with ``lab_session.js`` on the one engine
``lab_engine.js``, ``lab_exact.js`` and ``lab_plot.js``): it plays and learns with
MENACE's rules, shows every box's beads, and after every game (every few games at high
speed) evaluates MENACE's current policy *exactly* against the perfect and the random
player. The game tables travel once, in
the ``data`` trait (:func:`menace_lib.widgets.lab_data.lab_data`, about 94 kB).

Traits
------
Settings (the reader's controls; :class:`menace_lib.widgets.lab_games.LabSettings` documents them):
``opponent``, ``tie_break``, ``side``, ``bead_layout`` (the settings' ``layout``: the
name ``layout`` belongs to every ipywidget's CSS layout), ``filter``, ``schedule``,
``reinforcement``, ``restock``, ``empty_box``, ``floor``, ``move_restock_beads``,
``seed``; and ``speed`` (an index into the page's speed list).
On the page these settings (with the speed and the plots' log scale) also live in the
URL fragment, ``#lab=opp:perfect;...;seed:1`` (``lab_settings.js`` documents the format),
so a link reproduces a run; the browser alone reads and writes it.

State, written by whoever plays (the browser at sync points, or :meth:`LabWidget.play`):
``games``, ``position`` (draws taken from the seed's Philox4x32-10 stream), ``tally``,
``beads`` and ``beads2`` (both MENACEs' per-box bead lists; empty means "initial"),
``stopped``, ``exact``, ``history``, ``games_before`` (training an imported agent had).
``state_settings`` records the settings the state belongs to: a change from Python
that does not match it is applied here (a change of side, layout, filter, schedule or
seed starts MENACE afresh) and ``revision`` is bumped, so the browser reloads.

In a live kernel the same session can be driven from Python: :meth:`LabWidget.play`
plays games with the library's rules (:class:`menace_lib.widgets.lab_games.LabSession`) -- the very
games the browser would have played from that state -- :meth:`LabWidget.agent`
returns MENACE as a :class:`~menace_lib.machine.menace.Menace`, and :meth:`LabWidget.load_agent`
puts a saved agent in the lab.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from ..games.statespace import FILTERS
from ..machine.beads import EMPTY_BOX_RULES, RESTOCKS
from ..machine.menace import LAYOUTS, Menace
from ..play.opponents import TIE_BREAKS
from ._bundle import bundle, stylesheet
from .lab_data import lab_data
from .lab_games import LAB_OPPONENTS, WIDGET_SETTINGS, LabSession, LabSettings

__all__ = ["SPEED_LABELS", "LabWidget"]

SPEED_LABELS = (
    "one move at a time",
    "1 game / s",
    "10 games / s",
    "100 games / s",
    "1,000 games / s",
    "as fast as possible",
)
"""The page's speed choices; the ``speed`` trait is an index into them."""
SETTINGS = WIDGET_SETTINGS
TRAIT_OF = {name: "bead_layout" if name == "layout" else name for name in SETTINGS}
"""The trait holding each setting (``layout`` is taken by ipywidgets' DOMWidget)."""
STRUCTURAL = ("side", "layout", "filter", "schedule", "seed")
"""Settings that start MENACE afresh (the seed restarts the random stream too)."""


def _choice(name: str, options: tuple[str, ...]):
    def check(self, proposal: t.Bunch) -> str:
        if proposal.value not in options:
            raise ValueError(f"unknown {name} {proposal.value!r}; choose one of {options}")
        return proposal.value

    return check


class LabWidget(anywidget.AnyWidget):
    """The MENACE lab (see the module docstring).

    Parameters
    ----------
    **settings
        Any :class:`menace_lib.widgets.lab_games.LabSettings` field (``opponent="random"``,
        ``schedule=(8, 4, 2, 1)``, ``seed=7``, ...), plus ``speed``.

    Raises
    ------
    ValueError
        For a bad setting, naming it.
    """

    _esm = bundle("lab.js")
    _css = stylesheet()

    data = t.Dict().tag(sync=True)

    opponent = t.Unicode("perfect").tag(sync=True)
    tie_break = t.Unicode("uniform").tag(sync=True)
    side = t.Unicode("X").tag(sync=True)
    bead_layout = t.Unicode("class").tag(sync=True)
    filter = t.Unicode("decision").tag(sync=True)
    schedule = t.List(t.Float(), default_value=[4.0, 3.0, 2.0, 1.0]).tag(sync=True)
    reinforcement = t.List(t.Float(), default_value=[3.0, 1.0, -1.0]).tag(sync=True)
    restock = t.Unicode("box").tag(sync=True)
    empty_box = t.Unicode("resign").tag(sync=True)
    floor = t.Float(0.0).tag(sync=True)
    move_restock_beads = t.Float(None, allow_none=True).tag(sync=True)
    seed = t.Int(1).tag(sync=True)
    speed = t.Int(3).tag(sync=True)

    games = t.Int(0).tag(sync=True)
    position = t.Int(0).tag(sync=True)
    tally = t.Dict().tag(sync=True)
    beads = t.List().tag(sync=True)
    beads2 = t.List().tag(sync=True)
    stopped = t.Unicode("").tag(sync=True)
    exact = t.Dict().tag(sync=True)
    history = t.Dict().tag(sync=True)
    games_before = t.Int(0).tag(sync=True)
    state_settings = t.Dict().tag(sync=True)
    revision = t.Int(0).tag(sync=True)

    _valid_opponent = t.validate("opponent")(_choice("opponent", LAB_OPPONENTS))
    _valid_tie_break = t.validate("tie_break")(_choice("tie_break", TIE_BREAKS))
    _valid_side = t.validate("side")(_choice("side", ("X", "O")))
    _valid_layout = t.validate("bead_layout")(_choice("layout", LAYOUTS))
    _valid_filter = t.validate("filter")(_choice("filter", FILTERS))
    _valid_restock = t.validate("restock")(_choice("restock", RESTOCKS))
    _valid_empty_box = t.validate("empty_box")(_choice("empty_box", EMPTY_BOX_RULES))

    def __init__(self, **kwargs: Any) -> None:
        speed = kwargs.pop("speed", 3)
        unknown = set(kwargs) - set(SETTINGS)
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}; choose from {SETTINGS}")
        settings = LabSettings(**kwargs)  # validates every value together
        super().__init__(data=lab_data(), speed=speed, **self._traits_of(settings))
        self.state_settings = settings.to_dict()

    # --- settings ----------------------------------------------------------------

    @staticmethod
    def _traits_of(settings: LabSettings) -> dict[str, Any]:
        """Trait values for ``settings``."""
        return {TRAIT_OF[name]: value for name, value in settings.to_dict().items()}

    @property
    def settings(self) -> LabSettings:
        """The current settings, validated together."""
        values = {name: getattr(self, TRAIT_OF[name]) for name in SETTINGS}
        values["schedule"] = tuple(values["schedule"])
        values["reinforcement"] = tuple(values["reinforcement"])
        return LabSettings(**values)

    @t.validate("speed")
    def _valid_speed(self, proposal: t.Bunch) -> int:
        if not 0 <= proposal.value < len(SPEED_LABELS):
            raise ValueError(f"speed must be 0-{len(SPEED_LABELS) - 1}, got {proposal.value!r}")
        return proposal.value

    @t.validate("seed")
    def _valid_seed(self, proposal: t.Bunch) -> int:
        if not 0 <= proposal.value < 2**32:
            raise ValueError(f"seed must be in [0, 2**32), got {proposal.value!r}")
        return proposal.value

    @t.observe(*TRAIT_OF.values())
    def _settings_changed(self, change: t.Bunch) -> None:
        """Apply a change made from Python (the browser applies its own before syncing)."""
        if not self.state_settings:
            return  # still constructing
        settings = self.settings  # raises on an inconsistent combination
        current = settings.to_dict()
        if current == self.state_settings:
            return
        old = self.state_settings
        with self.hold_trait_notifications():
            if any(old.get(k) != current[k] for k in STRUCTURAL):
                self._write(LabSession(settings), games_before=0)
            self.state_settings = current
            self.revision += 1

    def __repr__(self) -> str:
        """A text form for where the widget cannot be drawn (a notebook not yet run)."""
        s = self.settings
        lines = [
            f"LabWidget: MENACE plays {s.side} against the {s.opponent} player "
            f"(layout {s.layout}, filter {s.filter}, restock {s.restock}, seed {s.seed}).",
        ]
        if self.games:
            tally = self.tally
            lines.append(
                f"After {self.games:,} games: MENACE won {tally.get('win', 0)}, "
                f"drew {tally.get('draw', 0)}, lost {tally.get('loss', 0)}."
            )
        else:
            lines.append("No games played yet.")
        if self.exact:
            e = self.exact
            lines.append(
                f"Exactly, against the perfect player: draw {e['draw']:.3f}, "
                f"loss {e['loss']:.3f}; against the random player: win {e['win_random']:.3f}."
            )
        if self.stopped:
            lines.append(f"Stopped: {self.stopped}")
        lines.append("Interactive in a browser: run the notebook, or read the built book.")
        return "\n".join(lines)

    # --- state -------------------------------------------------------------------

    def session(self) -> LabSession:
        """A :class:`~menace_lib.widgets.lab_games.LabSession` holding the lab's current state."""
        state = {
            "games": self.games,
            "position": self.position,
            "tally": self.tally,
            "beads": self.beads,
            "beads2": self.beads2,
            "stopped": self.stopped,
            "history": self.history,
        }
        return LabSession(self.settings, state)

    def _write(self, session: LabSession, **extra: Any) -> None:
        state = session.state()
        state["exact"] = session.exact()
        state["history"] = session.state()["history"]  # now with the exact point
        with self.hold_trait_notifications():
            for name, value in {**state, **extra}.items():
                setattr(self, name, value)

    def play(self, games: int) -> int:
        """Play ``games`` games with the library's rules, from the lab's current state.

        They are the games the browser would play from here with this seed. Returns how
        many were played (fewer if MENACE stopped at an empty box).

        Raises
        ------
        ValueError
            Against the ``"human"`` opponent, or for a negative count.
        """
        session = self.session()
        played = session.play(games)
        self._commit(session)
        return played

    def _commit(self, session: LabSession, **extra: Any) -> None:
        with self.hold_trait_notifications():
            self._write(session, **extra)
            self.state_settings = self.settings.to_dict()
            self.revision += 1

    def reset(self) -> None:
        """Fresh MENACEs, no games, the random stream from its start."""
        self._commit(LabSession(self.settings), games_before=0)

    def agent(self, which: int = 1) -> Menace:
        """MENACE (``which=1``) or MENACE 2 as a library agent with the lab's beads."""
        if which not in (1, 2):
            raise ValueError(f"which must be 1 or 2, got {which!r}")
        session = self.session()
        agent = (session.menace if which == 1 else session.menace2).copy()
        agent.games_trained = self.games_before + self.games if which == 1 else self.games
        return agent

    def export_agent(self, path: str | Path, which: int = 1) -> None:
        """Save MENACE (or MENACE 2) as an agent file :meth:`Menace.load` reads."""
        self.agent(which).save(path)

    def load_agent(self, agent: Menace | str | Path) -> None:
        """Put a saved MENACE (an agent or its file) in the lab as MENACE, untrained here.

        Its configuration becomes the lab's; MENACE 2 starts afresh.
        """
        if not isinstance(agent, Menace):
            agent = Menace.load(agent)
        cfg = agent.config
        values = {
            **self.settings.to_dict(),
            "side": "XO"[cfg.player - 1],
            "layout": cfg.layout,
            "filter": cfg.filter,
            "schedule": cfg.schedule,
            "reinforcement": cfg.reinforcement,
            "restock": cfg.restock,
            "empty_box": cfg.empty_box,
            "floor": cfg.floor,
            "move_restock_beads": cfg.move_restock_beads,
        }
        values["schedule"] = tuple(values["schedule"])
        values["reinforcement"] = tuple(values["reinforcement"])
        settings = LabSettings(**values)
        session = LabSession(settings, {"beads": agent.weights})
        with self.hold_trait_notifications():
            for name, value in self._traits_of(settings).items():
                setattr(self, name, value)
            self.state_settings = settings.to_dict()
            self._write(session, games_before=agent.games_trained)
            self.revision += 1
