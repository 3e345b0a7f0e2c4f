"""The settings of an Active Inference agent: :class:`AIFConfig`.

One frozen, validated dataclass holds every hyperparameter of the four agents.
Each agent reads the fields it needs and refuses a config that sets a field it
has no use for (:meth:`AIFConfig.check_applies`), so a setting is never
silently ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..board import O, X
from ..efe import DEFAULT_PREFERENCES, normalise_preferences
from ..statespace import FILTERS

__all__ = [
    "DEFAULT_BEAD_SCALE",
    "EPISTEMIC_TERMS",
    "OPPONENT_MODELS",
    "POLICY_PRIORS",
    "RISK_FORMS",
    "AIFConfig",
]

OPPONENT_MODELS = ("uniform", "adversarial", "minimax")
RISK_FORMS = ("cross_entropy", "kl")
EPISTEMIC_TERMS = ("summed", "next")
POLICY_PRIORS = ("uniform", "menace", "menace-initial")
DEFAULT_BEAD_SCALE = 40.0
"""Beads per box written by the thesis runs (the library's own default was 100)."""


def _number(name: str, value: Any, *, minimum: float, strict: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    number = float(value)
    bad = number <= minimum if strict else number < minimum
    if not math.isfinite(number) or bad:
        relation = ">" if strict else "≥"
        raise ValueError(f"{name} must be finite and {relation} {minimum:g}, got {value!r}")
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
        text's (``"kl"``, ``"next"``); see :class:`~menace_lib.aif.GenerativeModel`.
        Tree agents only.
    opponent_model
        ``"uniform"``, ``"adversarial"`` or ``"minimax"``. Oracle only.
    opponent_alpha
        Prior count of every opponent move, > 0. Hybrid/Instrumental only.
    lazy
        Oracle only: install the policy in a box only once its state has been
        visited (the thesis code's "cache only").
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

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "lam", _number("lam (epistemic weight)", self.lam, minimum=0, strict=False))
        set_(
            self,
            "lambda_policy",
            _number(
                "lambda_policy (softmax temperature)", self.lambda_policy, minimum=0, strict=True
            ),
        )
        set_(self, "prefs", _check_prefs(self.prefs))
        set_(self, "beta_amb", _number("beta_amb", self.beta_amb, minimum=0, strict=False))
        _choice("filter", self.filter, FILTERS)
        _choice("policy prior", self.policy_prior, POLICY_PRIORS)
        if isinstance(self.player, bool) or self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        set_(self, "player", int(self.player))
        set_(self, "bead_scale", _number("bead_scale", self.bead_scale, minimum=0, strict=True))
        _choice("risk form", self.risk_form, RISK_FORMS)
        _choice("epistemic term", self.epistemic, EPISTEMIC_TERMS)
        _choice("opponent model", self.opponent_model, OPPONENT_MODELS)
        set_(
            self,
            "opponent_alpha",
            _number("opponent_alpha", self.opponent_alpha, minimum=0, strict=True),
        )
        if not isinstance(self.lazy, bool):
            raise ValueError(f"lazy must be True or False, got {self.lazy!r}")

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
        """JSON-safe fields (``player`` as ``"X"``/``"O"``, ``prefs`` as a list)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["prefs"] = list(self.prefs)
        out["player"] = "XO"[self.player - 1]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AIFConfig:
        """Inverse of :meth:`to_dict`; ``ValueError`` names an unknown or bad field."""
        if not isinstance(data, dict):
            raise ValueError(f"must be an object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        extra = sorted(set(data) - known)
        if extra:
            raise ValueError(f"unknown field(s) {extra}")
        values = dict(data)
        if "player" in values:
            if values["player"] not in ("X", "O"):
                raise ValueError(f"player must be 'X' or 'O', got {values['player']!r}")
            values["player"] = X if values["player"] == "X" else O
        if "prefs" in values and not isinstance(values["prefs"], list):
            raise ValueError(f"prefs must be a list of three numbers, got {values['prefs']!r}")
        return cls(**values)


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
