"""Every configuration field of every agent kind, as a command-line option.

One :class:`Option` per field name (its flag, help text and parser), grouped by the
configuration class the field belongs to. The registry of agent kinds
(:mod:`menace_lib.agents.registry`) picks each kind's options from these tables, and the command
line (:mod:`menace_lib.cli.agent_options`) turns them into ``argparse`` arguments. An
option only parses text (a number, a list of numbers, a side); the range checks are the
configuration classes' own.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..games.board import O, X
from ..games.statespace import FILTERS
from ..machine.beads import EMPTY_BOX_RULES, RESTOCKS
from ..machine.engine import LAYOUTS
from .aif.config import (
    EPISTEMIC_TERMS,
    LAMBDA_SCHEDULES,
    OPPONENT_MODELS,
    POLICY_PRIORS,
    RISK_FORMS,
)

__all__ = [
    "AIF_OPTIONS",
    "DECAY",
    "MENACE_OPTIONS",
    "Option",
    "RL_OPTIONS",
    "SELFPLAY_OPTIONS",
    "UNSYMMETRISED_OPTIONS",
    "PEGASUS_OPTIONS",
    "numbers",
    "side",
]


def numbers(text: str) -> tuple[float, ...]:
    """An option type for comma-separated numbers (``4,3,2,1``); ranges are checked later."""
    try:
        return tuple(float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers, got {text[:40]!r}"
        ) from None


def side(text: str) -> int:
    """An option type for a side: ``X`` or ``O``."""
    sides = {"X": X, "O": O}
    if text not in sides:
        raise argparse.ArgumentTypeError(f"expected X or O, got {text[:40]!r}")
    return sides[text]


@dataclass(frozen=True)
class Option:
    """One option: its flag, help text and parser (``type=None``: an on/off switch)."""

    flag: str
    help: str
    type: Callable[[str], Any] | None = float
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    aliases: tuple[str, ...] = ()


SIDE = Option("--player", "the side the agent plays", side, metavar="{X,O}")
FILTER = Option("--filter", "which positions get a matchbox", None, FILTERS)

MENACE_OPTIONS = {
    "filter": FILTER,
    "schedule": Option(
        "--schedule", "initial beads per colour by MENACE's move number", numbers, None, "N,N,..."
    ),
    "reinforcement": Option(
        "--reward", "beads added per drawn bead after a win, draw, loss", numbers, None, "W,D,L"
    ),
    "restock": Option(
        "--restock", "what refills beads: nothing, a spent colour, or an empty box", None, RESTOCKS
    ),
    "empty_box": Option(
        "--empty-box",
        "at an empty box with --restock none: resign the game, stop the run, or "
        "stop only at the opening box (web)",
        None,
        EMPTY_BOX_RULES,
    ),
    "layout": Option("--layout", "one bead colour per square or per move class", None, LAYOUTS),
    "player": SIDE,
    "floor": Option("--floor", "clamp level: a colour never falls below it"),
    "move_restock_beads": Option(
        "--move-restock-beads", "with --restock move: beads a spent colour gets back"
    ),
}
""":class:`~menace_lib.machine.menace.MenaceConfig`'s fields."""

DECAY = Option(
    "--decay",
    "forgetful agent: weight in (0, 1] its opponent counts keep above the prior each time "
    "the opponent moves in their position (1 never forgets)",
    metavar="γ",
)

AIF_OPTIONS = {
    "lam": Option("--lam", "epistemic weight λ ≥ 0 (0: no information gain)", metavar="λ"),
    "lambda_schedule": Option(
        "--lambda-schedule",
        "how λ changes: fixed, decay (λ/(1 + games/τ)) or concentration (large while a "
        "box's counts are few)",
        None,
        LAMBDA_SCHEDULES,
    ),
    "lambda_tau": Option(
        "--lambda-tau", "with --lambda-schedule decay: games τ > 0 for λ to halve", metavar="τ"
    ),
    "lambda_kappa": Option(
        "--lambda-kappa",
        "with --lambda-schedule concentration: weight κ > 0 of the prior against the evidence",
        metavar="κ",
    ),
    "lambda_policy": Option(
        "--lambda-policy",
        "softmax temperature > 0 that turns the expected free energy G into a policy",
    ),
    "prefs": Option(
        "--prefs", "preferred outcome probabilities (divided by their sum)", numbers, None, "W,D,L"
    ),
    "beta_amb": Option("--beta-amb", "weight β ≥ 0 of the outcome ambiguity", metavar="β"),
    "filter": FILTER,
    "policy_prior": Option("--policy-prior", "prior over moves", None, POLICY_PRIORS),
    "player": SIDE,
    "bead_scale": Option("--bead-scale", "beads written per box, > 0 (no effect on play)"),
    "risk_form": Option("--risk-form", "the thesis code's or text's risk term", None, RISK_FORMS),
    "epistemic": Option(
        "--epistemic",
        "information gain summed over the tree or at the next move",
        None,
        EPISTEMIC_TERMS,
    ),
    "opponent_model": Option(
        "--opponent-model", "the fixed model of the opponent's moves", None, OPPONENT_MODELS
    ),
    "opponent_alpha": Option(
        "--opponent-alpha", "prior count > 0 of every opponent move", metavar="α"
    ),
    "lazy": Option("--lazy", "install the policy only in visited boxes (the thesis code)", None),
    "decay": DECAY,
}
""":class:`~menace_lib.agents.aif.AIFConfig`'s and :class:`~menace_lib.agents.aif.ForgetfulConfig`'s
fields (a kind offers those its agent class ``USES``)."""

RL_OPTIONS = {
    "learning_rate": Option(
        "--learning-rate", "learning rate α (η) in (0, 1]", metavar="α", aliases=("--alpha",)
    ),
    "discount": Option("--discount", "discount γ in [0, 1]", metavar="γ", aliases=("--gamma",)),
    "epsilon": Option("--epsilon", "initial exploration rate ε in [0, 1]", metavar="ε"),
    "epsilon_decay": Option("--epsilon-decay", "factor applied to ε after every game, in [0, 1]"),
    "min_epsilon": Option("--min-epsilon", "floor of ε, in [0, 1]"),
    "q_init": Option("--q-init", "initial value of every Q entry"),
    "rewards": Option(
        "--rewards", "terminal rewards for a win, draw, loss", numbers, None, "W,D,L"
    ),
    "player": SIDE,
    "greedy_validation": Option("--greedy-validation", "frozen copies play greedily (ε = 0)", None),
}
""":class:`~menace_lib.agents.rl.RLConfig`'s fields (``game`` comes from ``--game``)."""

SELFPLAY_OPTIONS = {
    **{k: v for k, v in MENACE_OPTIONS.items() if k not in ("player", "empty_box")},
    "learner_side": dataclasses.replace(
        SIDE, help="the side the learner plays (the pool plays the other)"
    ),
    "pool_size": Option(
        "--pool-size", "learning MENACEs in the opponent pool, played in turn", int
    ),
    "epsilon": Option(
        "--epsilon",
        "chance that a pool member plays a random move instead of drawing a bead",
        metavar="ε",
    ),
}
""":class:`~menace_lib.play.selfplay.SelfPlayConfig`'s fields."""

UNSYMMETRISED_OPTIONS = {
    "player": SIDE,
    "schedule": MENACE_OPTIONS["schedule"],
    "reinforcement": MENACE_OPTIONS["reinforcement"],
    "restock": Option(
        "--restock",
        "what refills beads: nothing (an empty box resigns), a spent colour, or an empty box",
        None,
        RESTOCKS,
    ),
}
""":class:`~menace_lib.agents.unsymmetrised.UnsymmetrisedConfig`'s fields."""

PEGASUS_OPTIONS = {
    "A": Option("--A", "odds multiplier of the machine's last move in a game (> 1)", metavar="A"),
    "B": Option("--B", "each earlier move's multiplier is B times weaker (>= 1)", metavar="B"),
    "decay": Option(
        "--origin-decay", "D in mu <- D mu + (1 - D) v: how slowly the origin slides", metavar="D"
    ),
    "player": SIDE,
}
""":class:`~menace_lib.agents.pegasus.PegasusConfig`'s fields."""
