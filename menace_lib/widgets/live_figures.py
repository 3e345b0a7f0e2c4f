"""Four small live figures for the Bayesian-observer chapters, computed in the page.

Each widget receives its data once, in synced traits built here from the library, and
does all its work in its ES module (no kernel on the static site):

* :class:`DirichletBox` (``dirichlet_box.js``): one of MENACE's matchboxes as a Dirichlet
  belief. The reader adds and removes beads, or plays a game (a bead is drawn, the game
  is won, drawn or lost, and the bead rule updates the box); the bead proportions (the
  posterior predictive) and the Dirichlet mean and variance follow.
* :class:`CountVsBeads` (``count_vs_beads.js``): one game history fed to two boxes, one
  that only counts (pseudo-counts that only grow) and one that follows MENACE's bead rule
  (with its removal after a loss, its clamp and its restock), side by side.
* :class:`EfeBox` (``efe_box.js``): the expected free energy of one box's moves, split
  into risk and epistemic value, and the policy they give, as the reader moves λ.
* :class:`InfoVsReward` (``info_reward.js``): one box played game after game by an agent
  that learns the outcomes of its moves; per game, the information it expects to gain
  and the reward it expects, at λ = 0 and at the reader's λ.

The rules each widget uses have one owner: the bead rule is
:mod:`menace_lib.machine.beads` (``beads.js`` is its tested copy), the Dirichlet and
expected-free-energy maths are :mod:`menace_lib.maths.dirichlet` and
:mod:`menace_lib.maths.efe` (``efe_math.js``), the draws are
:mod:`menace_lib.base.prng` (``prng.js``), box numbers and bead colours are
:mod:`menace_lib.machine.printed` and :mod:`menace_lib.base.palette`. The functions here
(:func:`play_box_games`, :func:`replay_history`, :func:`efe_box_values`,
:func:`info_reward_run`) are the Python references for what each page computes;
``tests/test_live_figures.py`` runs the JavaScript with node over grids of inputs and
demands the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..base.palette import (
    BEAD_COLOUR_NAMES,
    BEAD_COLOURS,
    RESULT_COLOURS,
    RESULT_NAMES,
    agent_colour,
    agent_name,
)
from ..base.prng import CounterRng
from ..games.board import O, X
from ..machine import beads
from ..machine.menace import Menace, MenaceConfig
from ..machine.printed import printed
from ..maths.efe import DEFAULT_PREFERENCES, expected_free_energy_actions, softmax_policy
from ._bundle import bundle, stylesheet
from .inspector import bead_statistics

__all__ = [
    "COUNTING",
    "EFE_BOX_ALPHAS",
    "INFO_TRUTH",
    "SAMPLE_HISTORY",
    "CountVsBeads",
    "DirichletBox",
    "EfeBox",
    "InfoVsReward",
    "box_data",
    "efe_box_values",
    "info_reward_run",
    "play_box_games",
    "replay_history",
]

COUNTING: tuple[float, float, float] = (3.0, 1.0, 0.0)
"""Pseudo-counts a counting box adds after a win, draw, loss: MENACE's additions, and
nothing taken away after a loss (the schedule the quasi-Bayesian chapter calls conjugate
in form)."""

SAMPLE_HISTORY: list[tuple[int, int]] = [
    (1, 0),
    (0, 2),
    (2, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (1, 2),
    (2, 1),
]
"""(colour, result) pairs, result 0 win, 1 draw, 2 loss: a win, two losses that empty two
colours, four losses that empty the box (MENACE restocks it) and a draw."""

EFE_BOX_ALPHAS: list[list[float]] = [
    [3.0, 1.0, 1.0],
    [6.0, 2.0, 2.0],
    [30.0, 10.0, 10.0],
    [3.0, 5.0, 4.0],
]
"""Outcome counts (win, draw, loss) of the free-energy box's four moves: the same
predictions (0.6, 0.2, 0.2) from 5, 10 and 50 games, and a worse move."""

INFO_TRUTH: list[list[float]] = [[0.6, 0.35, 0.05], [0.3, 0.3, 0.4], [0.4, 0.2, 0.4]]
"""The true chances of (win, draw, loss) of the information-versus-reward box's three
moves, hidden from the agent: the first is both the most rewarding and the closest to the
preferred outcomes."""

MAX_GAMES = 200
"""The most games the information-versus-reward widget plays."""

SEED = 2026

_RESULT_INDEX = {name: i for i, name in enumerate(RESULT_NAMES)}


def _result(value: Any) -> int:
    if isinstance(value, str) and value in _RESULT_INDEX:
        return _RESULT_INDEX[value]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value <= 2:
        return int(value)
    raise ValueError(f"a result must be 0/1/2 or one of {RESULT_NAMES}, got {value!r}")


def _finite(name: str, value: Any, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value) or (minimum is not None and value < minimum):
        limit = "" if minimum is None else f" and >= {minimum}"
        raise ValueError(f"{name} must be finite{limit}, got {value!r}")
    return float(value)


def _counts(name: str, values: Any, positive: bool = False) -> list[float]:
    if not isinstance(values, (list, tuple, np.ndarray)) or not 1 <= len(values) <= 9:
        raise ValueError(f"{name} must list 1 to 9 counts, got {values!r}")
    out = [_finite(f"{name}[{i}]", v, 0.0) for i, v in enumerate(values)]
    if positive and min(out) <= 0:
        raise ValueError(f"{name} must all be > 0, got {out}")
    if sum(out) <= 0:
        raise ValueError(f"{name} must hold at least one bead, got {out}")
    return out


def _rules(reinforcement: Any, restock: str, floor: float) -> tuple[list[float], str, float]:
    if not isinstance(reinforcement, (list, tuple)) or len(reinforcement) != 3:
        raise ValueError(f"reinforcement must be (win, draw, loss), got {reinforcement!r}")
    if restock not in beads.RESTOCKS:
        raise ValueError(f"restock must be one of {beads.RESTOCKS}, got {restock!r}")
    delta = [_finite(f"reinforcement[{i}]", r) for i, r in enumerate(reinforcement)]
    return delta, restock, _finite("floor", floor, 0.0)


# ------------------------------------------------------------------------------ boxes


def box_data(move: int, index: int = 0, config: MenaceConfig | None = None) -> dict[str, Any]:
    """One real matchbox as the widgets draw it, in the order its label lists the beads.

    Parameters
    ----------
    move
        MENACE's move (1 = its first) the box serves.
    index
        Which of that move's boxes, in the printed kit's order (0 = the lowest number).
    config
        The machine (default: :class:`MenaceConfig`'s defaults, Michie's MENACE).

    Returns
    -------
    dict
        ``number`` (the printed box number), ``board`` (nine characters ``X``, ``O``,
        ``.``, squares 1-9 in reading order, as printed), ``squares`` (the square 1-9
        each bead colour plays), ``colours`` and ``colour_names`` (from the palette),
        ``beads`` (the box's starting beads), ``reinforcement``, ``restock`` and
        ``floor`` (the bead rule's settings).
    """
    config = config or MenaceConfig()
    agent = Menace(config)
    if config.game != "noughts-and-crosses" or config.layout != "square":
        raise ValueError("box_data draws noughts-and-crosses boxes with one colour per square")
    layout = printed(agent)
    boxes = [b for b in layout.order if layout.moves[b] == move]
    if not 0 <= index < len(boxes):
        raise ValueError(f"move {move!r} has {len(boxes)} boxes; index {index!r} is outside")
    b = boxes[index]
    order = layout.bead_order[b]
    symbol = {X: "X", O: "O", 0: "."}
    return {
        "number": layout.numbers[b],
        "board": "".join(symbol[v] for v in layout.boards[b]),
        "squares": [layout.squares[b][j][0] + 1 for j in order],
        "colours": [BEAD_COLOURS[layout.colours[b][j]] for j in order],
        "colour_names": [BEAD_COLOUR_NAMES[layout.colours[b][j]] for j in order],
        "beads": [float(agent.weights[b][j]) for j in order],
        "reinforcement": [float(r) for r in config.reinforcement],
        "restock": config.restock,
        "floor": float(config.floor),
    }


def play_box_games(
    start: Any,
    initial: Any,
    results: Any,
    seed: int,
    reinforcement: Any = (3.0, 1.0, -1.0),
    restock: str = "box",
    floor: float = 0.0,
    position: int = 0,
) -> list[dict[str, Any]]:
    """Games played with one box: draw a bead, then the bead rule for the game's result.

    The bead is drawn with the uniform number at ``position`` of ``seed``'s stream
    (:mod:`menace_lib.base.prng`), one number per game; an empty box that nothing
    refills ends the list. Returns, per game, the colour drawn, the result and the box
    after the update.
    """
    box = _counts("start", start)
    init = _counts("initial", initial)
    if len(box) != len(init):
        raise ValueError(f"start and initial differ in length: {len(box)} and {len(init)}")
    delta, restock, floor = _rules(list(reinforcement), restock, floor)
    rng = CounterRng(seed, position)
    weights = [box]
    out = []
    for result in results:
        r = _result(result)
        if beads.refill_empty(weights[0], init, restock) is None:
            break
        j = beads.draw_bead(weights[0], rng.random())
        beads.reinforce(weights, [init], [init], [(0, j)], delta[r], restock, floor)
        out.append({"colour": j, "result": r, "beads": list(weights[0])})
    return out


def replay_history(
    initial: Any,
    history: Any,
    reinforcement: Any = (3.0, 1.0, -1.0),
    restock: str = "box",
    floor: float = 0.0,
    counting: Any = COUNTING,
) -> list[dict[str, Any]]:
    """The same games through a counting box and through MENACE's bead rule.

    Parameters
    ----------
    initial
        The box's starting beads (both boxes start there).
    history
        ``(colour, result)`` pairs; every colour must hold beads in MENACE's box when
        its game is played (a colour without beads cannot be drawn).
    reinforcement, restock, floor
        MENACE's bead rule (:func:`menace_lib.machine.beads.reinforce`).
    counting
        What the counting box adds per result; each >= 0, so its counts only grow.

    Returns
    -------
    list of dict
        Per game: ``counting`` and ``menace`` (the two boxes after it) and ``restocked``
        (whether MENACE's box emptied and was refilled by the game).
    """
    init = _counts("initial", initial, positive=True)
    delta, restock, floor = _rules(list(reinforcement), restock, floor)
    adds, _, _ = _rules(list(counting), "none", 0.0)
    if min(adds) < 0:
        raise ValueError(f"counting must add >= 0 per result, got {adds}")
    count_box, bead_box = [list(init)], [list(init)]
    out = []
    for step, pair in enumerate(history):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"history[{step}] must be (colour, result), got {pair!r}")
        j, r = pair[0], _result(pair[1])
        if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < len(init):
            raise ValueError(f"history[{step}] colour must be 0..{len(init) - 1}, got {j!r}")
        if bead_box[0][j] <= 0:
            raise ValueError(f"history[{step}]: colour {j} has no beads and cannot be drawn")
        beads.reinforce(count_box, [init], [init], [(0, j)], adds[r], "none", 0.0)
        unrestocked = [list(bead_box[0])]
        beads.reinforce(unrestocked, [init], [init], [(0, j)], delta[r], "none", floor)
        beads.reinforce(bead_box, [init], [init], [(0, j)], delta[r], restock, floor)
        restocked = restock == "box" and beads.is_empty(unrestocked[0])
        out.append(
            {"counting": list(count_box[0]), "menace": list(bead_box[0]), "restocked": restocked}
        )
    return out


# ----------------------------------------------------------------- free energy of a box


def efe_box_values(
    alphas: Any,
    lam: float,
    lambda_policy: float = 0.25,
    prefs: Any = DEFAULT_PREFERENCES,
) -> dict[str, list[float]]:
    """Risk, epistemic value, G and the policy of one box's moves (KL risk, no ambiguity)."""
    terms = expected_free_energy_actions(alphas, prefs, lam, 0.0, "kl")
    q = softmax_policy(terms.G, lambda_policy)
    return {
        "risk": np.asarray(terms.risk).tolist(),
        "epistemic": np.asarray(terms.epistemic).tolist(),
        "G": np.asarray(terms.G).tolist(),
        "q": q.tolist(),
    }


def info_reward_run(
    truth: Any,
    lam: float,
    games: int,
    seed: int,
    prior: float = 1.0,
    lambda_policy: float = 0.25,
    prefs: Any = DEFAULT_PREFERENCES,
    utility: Any = (3.0, 1.0, -1.0),
) -> dict[str, list]:
    """One box played ``games`` times by an agent that learns its moves' outcomes.

    Each move starts from ``Dir(prior, prior, prior)`` over (win, draw, loss). Per game
    the agent scores its moves by expected free energy at ``lam``, draws a move from the
    softmax policy (one uniform of ``seed``'s stream), the move's outcome is drawn from
    ``truth`` (the next uniform) and one count is added to that outcome. Recorded before
    each game: the information the game is expected to give, ``sum_a q(a) I(o; theta_a)``,
    and the reward it is expected to bring, ``sum_a q(a) sum_o truth[a][o] U(o)``.
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        raise ValueError(f"games must be an integer, got {games!r}")
    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"games must be 0..{MAX_GAMES}, got {games}")
    rows = [_counts(f"truth[{a}]", row) for a, row in enumerate(truth)]
    for a, row in enumerate(rows):
        if len(row) != 3 or abs(sum(row) - 1) > 1e-9:
            raise ValueError(f"truth[{a}] must be three chances summing to 1, got {row}")
    u = [_finite(f"utility[{i}]", x) for i, x in enumerate(utility)]
    prior = _finite("prior", prior, 0.0)
    alphas = [[prior] * 3 for _ in rows]
    rng = CounterRng(seed)
    out: dict[str, list] = {"move": [], "outcome": [], "info": [], "reward": [], "q": []}
    for _ in range(games):
        terms = expected_free_energy_actions(alphas, prefs, lam, 0.0, "kl")
        q = softmax_policy(terms.G, lambda_policy).tolist()
        info = sum(qa * float(i) for qa, i in zip(q, terms.epistemic, strict=True))
        reward = sum(
            qa * sum(p * ui for p, ui in zip(row, u, strict=True))
            for qa, row in zip(q, rows, strict=True)
        )
        a = beads.draw_bead(q, rng.random())
        o = beads.draw_bead(rows[a], rng.random())
        alphas[a][o] += 1.0
        for key, value in (
            ("move", a),
            ("outcome", o),
            ("info", info),
            ("reward", reward),
            ("q", q),
        ):
            out[key].append(value)
    out["alphas"] = alphas
    return out


# ---------------------------------------------------------------------------- widgets


def _results() -> dict[str, list[str]]:
    return {"names": list(RESULT_NAMES), "colours": list(RESULT_COLOURS)}


class _LiveWidget(anywidget.AnyWidget):
    _css = stylesheet()
    results = t.Dict(default_value=_results()).tag(sync=True)
    """Result names and colours (the palette's), for the win / draw / loss buttons."""


class DirichletBox(_LiveWidget):
    """One matchbox as a Dirichlet belief: + / − beads per move, or play a game.

    Parameters
    ----------
    box
        :func:`box_data` of the box to show (default: the first box for MENACE's third
        move, five colours of two beads).
    seed
        The seed of the stream the page draws beads with.
    """

    _esm = bundle("dirichlet_box.js")
    box = t.Dict().tag(sync=True)
    seed = t.Int(SEED).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("box", box_data(3))
        super().__init__(**kwargs)

    def statistics(self, counts: Any = None) -> dict[str, Any]:
        """The numbers the page shows for bead counts ``counts`` (default: the box's)."""
        return bead_statistics(self.box["beads"] if counts is None else counts)

    def __repr__(self) -> str:
        stats = self.statistics()
        moves = ", ".join(
            f"square {s}: {b:g} beads ({m:.3f})"
            for s, b, m in zip(self.box["squares"], self.box["beads"], stats["mean"], strict=True)
        )
        return f"Matchbox {self.box['number']}: {moves}. Interactive in a browser."


class CountVsBeads(_LiveWidget):
    """One game history through a counting box and through MENACE's bead rule.

    Parameters
    ----------
    box
        :func:`box_data` of the box (default: the first box for MENACE's fourth move,
        three colours of one bead).
    counting
        What the counting box adds after a win, draw, loss (default :data:`COUNTING`).
    sample
        The history the "replay a sample history" button plays (:data:`SAMPLE_HISTORY`).
    """

    _esm = bundle("count_vs_beads.js")
    box = t.Dict().tag(sync=True)
    counting = t.List(t.Float(), default_value=list(COUNTING)).tag(sync=True)
    sample = t.List(t.List(t.Int()), default_value=[list(p) for p in SAMPLE_HISTORY]).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("box", box_data(4))
        super().__init__(**kwargs)
        replay_history(self.box["beads"], self.sample, **self._rules())  # a bad sample fails here

    def _rules(self) -> dict[str, Any]:
        return {
            "reinforcement": self.box["reinforcement"],
            "restock": self.box["restock"],
            "floor": self.box["floor"],
            "counting": self.counting,
        }

    def replay(self, history: Any) -> list[dict[str, Any]]:
        """The Python reference for the page's two boxes after each game of ``history``."""
        return replay_history(self.box["beads"], history, **self._rules())

    def __repr__(self) -> str:
        last = self.replay(self.sample)[-1]
        return (
            f"Matchbox {self.box['number']} after the sample history: counting "
            f"{last['counting']}, MENACE {last['menace']}. Interactive in a browser."
        )


class EfeBox(_LiveWidget):
    """Expected free energy of one box's moves, its risk and epistemic terms, and the
    policy, as λ moves (λ = 0 is MENACE's objective).

    Parameters
    ----------
    alphas
        Outcome counts (win, draw, loss) per move (:data:`EFE_BOX_ALPHAS`).
    lam
        The starting λ (0-4 on the slider).
    """

    _esm = bundle("efe_box.js")
    alphas = t.List(t.List(t.Float()), default_value=EFE_BOX_ALPHAS).tag(sync=True)
    lam = t.Float(0.0).tag(sync=True)
    lambda_policy = t.Float(0.25).tag(sync=True)
    prefs = t.List(t.Float(), default_value=list(DEFAULT_PREFERENCES)).tag(sync=True)
    lam_max = t.Float(4.0).tag(sync=True)

    def values(self) -> dict[str, list[float]]:
        """The Python reference for what the page shows at the current λ."""
        return efe_box_values(self.alphas, self.lam, self.lambda_policy, self.prefs)

    def __repr__(self) -> str:
        q = ", ".join(f"{x:.3f}" for x in self.values()["q"])
        return f"EfeBox at λ = {self.lam:g}: policy ({q}). Interactive in a browser."


class InfoVsReward(_LiveWidget):
    """One box played game after game: expected information gain against expected reward,
    at λ = 0 and at the reader's λ, from the same seed.

    Parameters
    ----------
    truth
        The true (win, draw, loss) chances of each move (:data:`INFO_TRUTH`).
    lam
        The reader's λ to start with.
    """

    _esm = bundle("info_reward.js")
    truth = t.List(t.List(t.Float()), default_value=INFO_TRUTH).tag(sync=True)
    lam = t.Float(2.0).tag(sync=True)
    lam_max = t.Float(4.0).tag(sync=True)
    lambda_policy = t.Float(0.25).tag(sync=True)
    prefs = t.List(t.Float(), default_value=list(DEFAULT_PREFERENCES)).tag(sync=True)
    utility = t.List(t.Float(), default_value=[3.0, 1.0, -1.0]).tag(sync=True)
    prior = t.Float(1.0).tag(sync=True)
    seed = t.Int(SEED).tag(sync=True)
    max_games = t.Int(MAX_GAMES).tag(sync=True)
    agent = t.Dict().tag(sync=True)
    """The agent's name and colour (the palette's Pure AIF: a Dirichlet belief over the
    outcomes of each move); its two runs differ by line style, as in the book's figures."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("agent", {"name": agent_name("pure"), "colour": agent_colour("pure")})
        kwargs.setdefault("utility", [float(r) for r in MenaceConfig().reinforcement])
        super().__init__(**kwargs)

    def run(self, lam: float, games: int) -> dict[str, list]:
        """The Python reference for one of the page's two runs."""
        return info_reward_run(
            self.truth,
            lam,
            games,
            self.seed,
            self.prior,
            self.lambda_policy,
            self.prefs,
            self.utility,
        )

    def __repr__(self) -> str:
        return f"InfoVsReward (λ = 0 and λ = {self.lam:g}). Interactive in a browser."
