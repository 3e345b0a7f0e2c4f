"""The settings of an Active Inference agent: :class:`AIFConfig`.

One frozen, validated dataclass holds every hyperparameter of the four agents.
Each agent reads the fields it needs and refuses a config that sets a field it
has no use for (:meth:`AIFConfig.check_applies`), so a setting is never
silently ignored. :class:`ForgetfulConfig` adds the forgetful agent's one setting
of its own, the decay of its opponent counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ...base.limits import MAX_BEADS, MAX_TREE_CELLS, MAX_WEIGHT
from ...games.agent_file import settings_from_dict, settings_to_dict
from ...games.board import O, X
from ...games.game import BASE_FILTERS
from ...games.registry import DEFAULT_GAME, game_name
from ...games.statespace import FILTERS
from ...maths.efe import DEFAULT_PREFERENCES, normalise_preferences

__all__ = [
    "DEFAULT_BEAD_SCALE",
    "EPISTEMIC_TERMS",
    "LAMBDA_SCHEDULES",
    "OPPONENT_MODELS",
    "POLICY_PRIORS",
    "RISK_FORMS",
    "AIFConfig",
    "DEFAULT_DECAY",
    "ForgetfulConfig",
    "check_decay",
]

OPPONENT_MODELS = ("uniform", "adversarial", "minimax")
RISK_FORMS = ("cross_entropy", "kl")
EPISTEMIC_TERMS = ("summed", "next")
POLICY_PRIORS = ("uniform", "menace", "menace-initial")
LAMBDA_SCHEDULES = ("fixed", "decay", "concentration")
SCHEDULE_FIELDS = ("lambda_schedule", "lambda_tau", "lambda_kappa")
"""The fields of a λ schedule (written to files only when they differ from the defaults)."""
DEFAULT_BEAD_SCALE = 40.0
"""Beads per box written by the thesis runs (the library's own default was 100)."""


def _number(
    name: str, value: Any, *, minimum: float, strict: bool, maximum: float = math.inf
) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond a float's range
        number = math.inf
    bad = number <= minimum if strict else number < minimum
    if not math.isfinite(number) or bad:
        relation = ">" if strict else "≥"
        raise ValueError(f"{name} must be finite and {relation} {minimum:g}, got {value!r}")
    if number > maximum:
        raise ValueError(f"{name} must be ≤ {maximum:g}, got {value!r}")
    return number


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"unknown {name} {value!r}; choose one of {choices}")
    return value


@dataclass(frozen=True)
class AIFConfig:
    """Hyperparameters of an Active Inference agent (thesis chapter 8).

    Parameters
    ----------
    lam
        Epistemic weight λ, ≥ 0.
    lambda_policy
        Softmax temperature that turns ``G`` into a policy, > 0.
    prefs
        Preferred (win, draw, loss) for the agent. Stored as given; the agents
        use :attr:`preferences`, repaired like the thesis code (divided by the
        sum unless it is 1, zeros raised to 1e-12).
    beta_amb
        Weight of the outcome ambiguity, ≥ 0.
    filter
        Which states get a matchbox (MENACE's filters).
    policy_prior
        ``"uniform"``, ``"menace"`` (centre 8, corners 4, edges 2) or
        ``"menace-initial"`` (the state's initial bead count for every move:
        in effect uniform). Tree agents only.
    player
        The agent's side, X (1) or O (2).
    bead_scale
        Beads written per box, > 0 (no behavioural effect).
    risk_form, epistemic
        The thesis code's readings (``"cross_entropy"``, ``"summed"``) or its
        text's (``"kl"``, ``"next"``); see :class:`~menace_lib.agents.aif.GenerativeModel`.
        Tree agents only.
    opponent_model
        ``"uniform"``, ``"adversarial"`` or ``"minimax"``. Oracle only.
    opponent_alpha
        Prior count of every opponent move, > 0. Hybrid/Instrumental only.
    lazy
        Oracle only: install the policy in a box only once its state has been
        visited (the thesis code's "cache only").
    lambda_schedule, lambda_tau, lambda_kappa
        How the epistemic weight changes during learning (Pure, Hybrid and
        Instrumental agents; beyond the thesis, which asks for it in §11.6.4).
        ``lam`` is then the starting weight λ₀, and a box ``s`` is written with
        the weight of :meth:`epistemic_weight`:

        ``"fixed"`` (the default, the thesis)
            λ = λ₀ always.
        ``"decay"``
            λ_t = λ₀ / (1 + t / τ), ``t`` the games learnt from and ``τ`` =
            ``lambda_tau`` (> 0, in games): harmonic annealing, the rate at which
            one more game changes a count-based belief (as MENACE's beads make
            each reinforcement matter less as a box fills).
        ``"concentration"``
            λ(s) = λ₀ · κα₀⁰(s) / (κα₀⁰(s) + n(s)), where α₀⁰(s) is the total
            prior concentration of the Dirichlet beliefs that box ``s`` reads,
            ``n(s)`` the evidence counted into them since, and κ =
            ``lambda_kappa`` (> 0). It is λ₀ times the share of the prior in the
            posterior's concentration: λ₀ while the box knows nothing, λ₀/2 when
            its evidence equals κ times its prior, vanishing as 1/n as it fills.
            A box's beliefs are, for the Pure agent, the outcome Dirichlets of its
            moves; for the tree agents, the opponent Dirichlets of the positions
            its moves lead to.

        ``lambda_tau`` applies to ``"decay"`` and ``lambda_kappa`` to
        ``"concentration"`` only; set for another schedule they are refused.
    game
        The game played (a name of :mod:`menace_lib.games.registry`); noughts and
        crosses by default. Other games take the filters ``"all"`` and
        ``"decision"``, and only the Instrumental and Hybrid agents play them.

    Examples
    --------
    >>> import menace_lib as ml
    >>> config = ml.AIFConfig(lam=0.5, filter="michie")
    >>> ml.HybridAIF(config).config.lam
    0.5
    """

    lam: float = 0.0
    lambda_policy: float = 0.25
    prefs: tuple[float, ...] = DEFAULT_PREFERENCES
    beta_amb: float = 0.0
    filter: str = "michie"
    policy_prior: str = "uniform"
    player: int = X
    bead_scale: float = DEFAULT_BEAD_SCALE
    risk_form: str = "cross_entropy"
    epistemic: str = "summed"
    opponent_model: str = "uniform"
    opponent_alpha: float = 1.0
    lazy: bool = True
    lambda_schedule: str = "fixed"
    lambda_tau: float = 100.0
    lambda_kappa: float = 1.0
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        lam = _number(
            "lam (epistemic weight)", self.lam, minimum=0, strict=False, maximum=MAX_WEIGHT
        )
        set_(self, "lam", lam)
        set_(
            self,
            "lambda_policy",
            _number(
                "lambda_policy (softmax temperature)", self.lambda_policy, minimum=0, strict=True
            ),
        )
        set_(self, "prefs", _check_prefs(self.prefs))
        set_(self, "beta_amb", _number("beta_amb", self.beta_amb, minimum=0, strict=False))
        # Every Active Inference kind that plays another game builds a tree over all its
        # positions: its boards are capped below the tables' cap, before anything is built.
        game_name(self.game, max_cells=MAX_TREE_CELLS, who="Active Inference (its game tree)")
        if self.game == DEFAULT_GAME:
            _choice("filter", self.filter, FILTERS)
        else:
            _choice(f"filter for {self.game}", self.filter, BASE_FILTERS)
        _choice("policy prior", self.policy_prior, POLICY_PRIORS)
        if self.policy_prior == "menace" and self.game != DEFAULT_GAME:
            raise ValueError(
                f"policy prior 'menace' (centre, corners, edges) is for noughts and crosses, "
                f"not {self.game}; choose 'uniform' or 'menace-initial'"
            )
        if isinstance(self.player, bool) or self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        set_(self, "player", int(self.player))
        set_(
            self,
            "bead_scale",
            _number("bead_scale", self.bead_scale, minimum=0, strict=True, maximum=MAX_BEADS),
        )
        _choice("risk form", self.risk_form, RISK_FORMS)
        _choice("epistemic term", self.epistemic, EPISTEMIC_TERMS)
        _choice("opponent model", self.opponent_model, OPPONENT_MODELS)
        set_(
            self,
            "opponent_alpha",
            _number(
                "opponent_alpha", self.opponent_alpha, minimum=0, strict=True, maximum=MAX_BEADS
            ),
        )
        if not isinstance(self.lazy, bool):
            raise ValueError(f"lazy must be True or False, got {self.lazy!r}")
        _choice("lambda schedule", self.lambda_schedule, LAMBDA_SCHEDULES)
        for name, applies in (("lambda_tau", "decay"), ("lambda_kappa", "concentration")):
            # λ·κ·prior (prior ≤ 9·MAX_BEADS) must stay finite
            top = MAX_WEIGHT if name == "lambda_kappa" else math.inf
            value = _number(name, getattr(self, name), minimum=0, strict=True, maximum=top)
            set_(self, name, value)
            default = type(self).__dataclass_fields__[name].default
            if getattr(self, name) != default and self.lambda_schedule != applies:
                raise ValueError(
                    f"{name}={getattr(self, name)!r} applies only to lambda_schedule="
                    f"{applies!r}, not {self.lambda_schedule!r}"
                )

    @property
    def scheduled(self) -> bool:
        """Whether λ changes during learning (any schedule but ``"fixed"``)."""
        return self.lambda_schedule != "fixed"

    def epistemic_weight(self, games: int, prior: float = 0.0, evidence: float = 0.0) -> float:
        """The epistemic weight of a box under the λ schedule.

        Parameters
        ----------
        games
            Games the agent has learnt from (``"decay"``).
        prior, evidence
            The box's prior concentration α₀⁰(s) and the evidence n(s) counted
            since (``"concentration"``; a box with no beliefs keeps λ₀).
        """
        if self.lambda_schedule == "decay":
            return self.lam / (1.0 + games / self.lambda_tau)
        if self.lambda_schedule == "concentration" and prior > 0:
            c = self.lambda_kappa * prior
            if c + evidence == 0:  # κ·prior underflowed and no evidence yet: λ₀, not 0/0
                return self.lam
            return self.lam * c / (c + evidence)
        return self.lam

    @property
    def preferences(self) -> np.ndarray:
        """``prefs`` repaired as the thesis code does (what the agents use)."""
        return normalise_preferences(np.asarray(self.prefs, dtype=float), strict=False)

    def check_applies(self, agent: str, used: frozenset[str]) -> None:
        """Raise ``ValueError`` if a field outside ``used`` differs from its default.

        ``agent`` names the agent in the message.
        """
        for f in fields(self):
            if f.name not in used and getattr(self, f.name) != f.default:
                raise ValueError(
                    f"{f.name}={getattr(self, f.name)!r} does not apply to {agent} "
                    f"(it uses {', '.join(sorted(used))})"
                )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe fields (``player`` as ``"X"``/``"O"``, ``prefs`` as a list; the
        λ-schedule fields only for a schedule other than ``"fixed"``)."""
        # files of noughts-and-crosses agents stay as they were
        out = settings_to_dict(self, omit={"game": DEFAULT_GAME})
        if not self.scheduled:  # files of fixed-λ agents stay as they were before schedules
            for name in SCHEDULE_FIELDS:
                del out[name]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AIFConfig:
        """Inverse of :meth:`to_dict`; ``ValueError`` names an unknown or bad field."""
        return settings_from_dict(cls, data, lists={"prefs": "a list of three numbers"})


def _check_prefs(prefs: Any) -> tuple[float, ...]:
    """Three finite, non-negative numbers, not all zero (kept as given)."""
    try:
        p = np.asarray(prefs, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"prefs must be three numbers (win, draw, loss), got {prefs!r}") from None
    if p.shape != (3,) or any(isinstance(v, bool) for v in np.ravel(np.asarray(prefs, object))):
        raise ValueError(f"prefs must be three numbers (win, draw, loss), got {prefs!r}")
    normalise_preferences(p, strict=False)  # raises on non-finite, negative or all-zero
    return tuple(float(v) for v in p)


DEFAULT_DECAY = 0.9
"""The forgetful agent's default decay: a memory of about ten observations per state."""


def check_decay(decay: Any) -> float:
    """``decay`` as a float in (0, 1]; ``ValueError`` names a bad value."""
    if isinstance(decay, bool) or not isinstance(decay, (int, float, np.integer, np.floating)):
        raise ValueError(f"decay must be a number in (0, 1], got {decay!r}")
    value = float(decay)
    if not (math.isfinite(value) and 0.0 < value <= 1.0):
        raise ValueError(f"decay must be in (0, 1], got {decay!r}")
    return value


@dataclass(frozen=True)
class ForgetfulConfig(AIFConfig):
    """The settings of :class:`~menace_lib.agents.aif.ForgetfulAIF`: an :class:`AIFConfig` and
    ``decay``.

    Parameters
    ----------
    decay
        Weight in (0, 1] a state's opponent counts keep above the prior each time the
        opponent moves there (default :data:`DEFAULT_DECAY`); 1 never forgets.

    The agent's file keeps ``decay`` as ``opponent_decay`` beside its counts, so
    :meth:`to_dict` writes only the :class:`AIFConfig` fields (files are unchanged).

    Examples
    --------
    >>> import menace_lib as ml
    >>> config = ml.aif.ForgetfulConfig(decay=0.8)
    >>> ml.aif.ForgetfulAIF(config).decay
    0.8
    """

    decay: float = DEFAULT_DECAY

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "decay", check_decay(self.decay))

    @property
    def aif(self) -> AIFConfig:
        """The :class:`AIFConfig` part (every field but ``decay``)."""
        return AIFConfig(**{f.name: getattr(self, f.name) for f in fields(AIFConfig)})

    def to_dict(self) -> dict[str, Any]:
        """:meth:`AIFConfig.to_dict` of :attr:`aif` (``decay`` is saved with the counts)."""
        return self.aif.to_dict()
