"""Every agent kind's hyperparameters as command-line options.

Each kind (:data:`KINDS`) offers exactly the settings it uses, named after the
fields of its own configuration class -- :class:`~menace_lib.menace.MenaceConfig`,
:class:`~menace_lib.aif.AIFConfig` (the fields in the agent class's ``USES``),
:class:`~menace_lib.rl.RLConfig`,
:class:`~menace_lib.variants.unsymmetrised.UnsymmetrisedConfig` and the pooled
self-play recipe of :mod:`menace_lib.variants.selfplay` -- so an option that does
not apply to a kind is not offered at all. Options only parse text (a number, a
list of numbers, a side); the range checks are the configuration classes' own,
made when the agent is built, before any training.

An option left out is not passed on, so the configuration's own default applies;
``--help`` shows that default, read from the class.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..aif import EPISTEMIC_TERMS, OPPONENT_MODELS, POLICY_PRIORS, RISK_FORMS, AIFConfig
from ..aif.config import LAMBDA_SCHEDULES
from ..beads import EMPTY_BOX_RULES, RESTOCKS
from ..board import O, X
from ..menace import LAYOUTS, MenaceConfig
from ..rl import RLConfig
from ..statespace import FILTERS

__all__ = ["KINDS", "Kind", "Option", "add_kind_options", "given_params", "numbers", "side"]


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
}

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

DECAY = Option(
    "--decay",
    "forgetful agent: weight in (0, 1] its opponent counts keep above the prior each time "
    "the opponent moves in their position (1 never forgets)",
    metavar="γ",
)

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


@dataclass(frozen=True)
class Kind:
    """An agent kind on the command line.

    Attributes
    ----------
    help
        One line for ``train --help``.
    options
        Field name -> its option.
    defaults
        Field name -> the default its configuration class gives it (shown in help).
    build
        ``build(**fields)`` makes a fresh agent (``None``: the kind trains itself).
    requires
        Field name -> ``(other field, value)`` it needs, e.g. ``--empty-box`` needs
        ``--restock none`` (elsewhere an empty box is refilled and the rule never runs).
    """

    help: str
    options: Mapping[str, Option]
    defaults: Mapping[str, Any]
    build: Callable[..., Any] | None
    requires: Mapping[str, tuple[str, Any]] = field(default_factory=dict)


def _fields(instance: Any) -> dict[str, Any]:
    return {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance)}


def _factory(kind: str) -> Callable[..., Any]:
    def build(**params: Any) -> Any:
        from ..experiments.suite import make_agent

        return make_agent(kind, **params)

    return build


def _build_unsymmetrised(**params: Any) -> Any:
    from ..variants.unsymmetrised import UnsymmetrisedConfig, UnsymmetrisedMenace

    return UnsymmetrisedMenace(UnsymmetrisedConfig(**params))


def _aif_kind(kind: str, help: str) -> Kind:
    from .. import aif

    cls = {"instrumental": aif.InstrumentalAIF, "hybrid": aif.HybridAIF}.get(kind)
    cls = cls or {"forgetful": aif.ForgetfulAIF, "pure": aif.PureAIF, "oracle": aif.OracleAIF}[kind]
    used = cls.USES - ({"lam"} if kind == "instrumental" else set())  # λ = 0 by definition
    options = {name: opt for name, opt in AIF_OPTIONS.items() if name in used}
    defaults = _fields(AIFConfig(**cls.DEFAULTS))
    if kind == "forgetful":  # its one setting outside AIFConfig
        options["decay"] = DECAY
        defaults["decay"] = aif.forgetful.DEFAULT_DECAY
    # A schedule's parameter is used only by that schedule (its default cannot tell).
    schedules = {"lambda_tau": ("lambda_schedule", "decay")}
    schedules["lambda_kappa"] = ("lambda_schedule", "concentration")
    requires = {k: v for k, v in schedules.items() if k in options}
    return Kind(help, options, defaults, _factory(kind), requires)


def _selfplay_defaults() -> dict[str, Any]:
    import inspect

    from ..variants.selfplay import SELFPLAY_CONFIG, pooled_selfplay

    recipe = inspect.signature(pooled_selfplay).parameters
    names = ("learner_side", "pool_size", "epsilon")
    return {**_fields(SELFPLAY_CONFIG), **{n: recipe[n].default for n in names}}


def _kinds() -> dict[str, Kind]:
    from ..variants.unsymmetrised import UnsymmetrisedConfig

    restock_rules = {"empty_box": ("restock", "none"), "move_restock_beads": ("restock", "move")}
    return {
        "menace": Kind(
            "Michie's matchbox learner",
            MENACE_OPTIONS,
            _fields(MenaceConfig()),
            _factory("menace"),
            restock_rules,
        ),
        "instrumental": _aif_kind("instrumental", "Active Inference, learnt opponent, λ = 0"),
        "hybrid": _aif_kind("hybrid", "Active Inference, learnt opponent, information gain λ > 0"),
        "forgetful": _aif_kind(
            "forgetful", "Active Inference, learnt opponent whose counts decay towards the prior"
        ),
        "pure": _aif_kind("pure", "Active Inference with learnt outcomes and no game tree"),
        "oracle": _aif_kind("oracle", "Active Inference with the tree and a fixed opponent model"),
        "qlearning": Kind(
            "tabular Q-learning", RL_OPTIONS, _fields(RLConfig()), _factory("qlearning")
        ),
        "sarsa": Kind("tabular SARSA", RL_OPTIONS, _fields(RLConfig()), _factory("sarsa")),
        "unsymmetrised": Kind(
            "MENACE with a box per raw board (the APL article)",
            UNSYMMETRISED_OPTIONS,
            _fields(UnsymmetrisedConfig()),
            _build_unsymmetrised,
        ),
        "selfplay": Kind(
            "MENACE trained against a pool of learning MENACEs (the blog)",
            SELFPLAY_OPTIONS,
            _selfplay_defaults(),
            None,
            {"move_restock_beads": ("restock", "move")},
        ),
    }


KINDS: dict[str, Kind] = _kinds()
"""Every agent kind ``train`` offers, by name."""


def _show(value: Any, name: str = "") -> str:
    if name in ("player", "learner_side"):
        return "XO"[value - 1]
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "unset"
    return str(value)


def add_kind_options(parser: argparse.ArgumentParser, kind: Kind) -> None:
    """Add a kind's options to ``parser``; an option left out is absent from the result."""
    group = parser.add_argument_group("agent settings")
    for name, opt in kind.options.items():
        text = f"{opt.help} (default {_show(kind.defaults.get(name), name)})"
        if opt.type is None and opt.choices is None:
            action = argparse.BooleanOptionalAction
            group.add_argument(
                opt.flag, dest=name, action=action, default=argparse.SUPPRESS, help=text
            )
        else:
            group.add_argument(
                opt.flag,
                *opt.aliases,
                dest=name,
                type=opt.type or str,
                choices=opt.choices,
                metavar=opt.metavar,
                default=argparse.SUPPRESS,
                help=text,
            )


def given_params(args: argparse.Namespace, kind: Kind) -> dict[str, Any]:
    """The kind's settings given on the command line, checked against ``requires``.

    Raises
    ------
    ValueError
        For a setting that needs another one set otherwise (it would be ignored).
    """
    params = {name: getattr(args, name) for name in kind.options if hasattr(args, name)}
    for name, (other, value) in kind.requires.items():
        if name in params and params.get(other, kind.defaults[other]) != value:
            opt, needed = kind.options[name], kind.options[other]
            raise ValueError(
                f"{opt.flag} {_show(params[name], name)} applies only with {needed.flag} {value}; "
                f"with {needed.flag} {params.get(other, kind.defaults[other])} it is never used"
            )
    return params
