"""Explore expected free energy: how lambda, the softmax temperature and the preferences
shape risk, epistemic value, G, the policy and the beads of one state.

The browser computes everything with ``efe_math.js`` (the JavaScript port of
:mod:`menace_lib.maths.efe`, tested against it to 1e-9); :func:`explorer_values` is the
Python reference for the same numbers, used by the tests and available in a kernel.

Two states are shown: thesis Table 7.1's worked example (outcome counts (6, 2, 2),
(3, 5, 4), (9, 1, 1)) and a state whose Dirichlet outcome counts the reader types in.
Preferences are set as three positive weights (win, draw, loss) and normalised by their
sum; the page shows the normalised values. The page keeps its settings in the URL
fragment (``#lambda=lam:2.6;pol:0.25;...``), so a link reopens the same set-up.

Since ``G(a) = risk(a) - lambda * I(o; theta_a)``, two actions' G are equal at one value
of lambda (:func:`crossover_lambda`): past it, the one the agent knows less about wins.
"""

from __future__ import annotations

import math
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..maths.efe import (
    DEFAULT_PREFERENCES,
    expected_free_energy_actions,
    policy_to_beads,
    softmax_policy,
)
from ._bundle import bundle, stylesheet

__all__ = [
    "DEFAULT_CUSTOM_ALPHAS",
    "LAMBDA_SLIDER_MAX",
    "WORKED_ALPHAS",
    "LambdaExplorer",
    "crossover_lambda",
    "explorer_values",
    "normalised_preferences",
]

WORKED_ALPHAS: list[list[float]] = [[6.0, 2.0, 2.0], [3.0, 5.0, 4.0], [9.0, 1.0, 1.0]]
"""Outcome pseudo-counts (win, draw, loss) of thesis Table 7.1's three actions."""
DEFAULT_CUSTOM_ALPHAS: list[list[float]] = [[1.0, 1.0, 1.0], [4.0, 2.0, 1.0], [20.0, 10.0, 5.0]]
"""The reader's state to start from: an unexplored action, and the same mean seen
seven and thirty-five times."""
MAX_ACTIONS = 6
RISK_FORMS = ("kl", "cross_entropy")
LAMBDA_SLIDER_MAX = 4.0
"""The top of the page's lambda slider (lambda_explorer.js's RANGES.lam), past the
crossovers the book's examples point at."""
RESETTABLE = ("lam", "lambda_policy", "pref_weights", "risk_form", "custom_alphas")


def _finite(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def normalised_preferences(weights: Any) -> list[float]:
    """Preference weights (win, draw, loss), each > 0, divided by their sum.

    Raises
    ------
    ValueError
        Unless there are exactly three finite weights, all > 0.
    """
    if not isinstance(weights, (list, tuple, np.ndarray)) or len(weights) != 3:
        raise ValueError(
            f"preference weights must be three numbers (win, draw, loss), got {weights!r}"
        )
    w = [
        _finite(f"preference weight {name}", x)
        for name, x in zip(("win", "draw", "loss"), weights, strict=True)
    ]
    if min(w) <= 0:
        raise ValueError(f"preference weights must all be > 0 (ln p is taken), got {w}")
    total = sum(w)
    return [x / total for x in w]


def _check_alphas(alphas: Any) -> list[list[float]]:
    if not isinstance(alphas, (list, tuple, np.ndarray)) or not 1 <= len(alphas) <= MAX_ACTIONS:
        raise ValueError(f"alphas must list 1 to {MAX_ACTIONS} actions, got {alphas!r}")
    out = []
    for i, row in enumerate(alphas):
        if not isinstance(row, (list, tuple, np.ndarray)) or len(row) != 3:
            raise ValueError(f"alphas[{i}] must hold three counts (win, draw, loss), got {row!r}")
        values = [_finite(f"alphas[{i}]", x) for x in row]
        if min(values) <= 0:
            raise ValueError(f"alphas[{i}] must be > 0 (Dirichlet pseudo-counts), got {values}")
        out.append(values)
    return out


def explorer_values(
    alphas: Any,
    pref_weights: Any = DEFAULT_PREFERENCES,
    lam: float = 0.25,
    lambda_policy: float = 0.25,
    risk_form: str = "kl",
    scale: float = 100.0,
) -> dict[str, list[float]]:
    """What the explorer shows for one state, computed with :mod:`menace_lib.maths.efe`.

    Returns
    -------
    dict
        ``prefs`` (normalised), and per action ``risk``, ``epistemic``, ``G``,
        ``q`` (the policy) and ``beads`` (``q * scale``, unrounded).
    """
    prefs = normalised_preferences(pref_weights)
    terms = expected_free_energy_actions(_check_alphas(alphas), prefs, lam, 0.0, risk_form)
    q = softmax_policy(terms.G, lambda_policy)
    return {
        "prefs": prefs,
        "risk": np.asarray(terms.risk).tolist(),
        "epistemic": np.asarray(terms.epistemic).tolist(),
        "G": np.asarray(terms.G).tolist(),
        "q": q.tolist(),
        "beads": policy_to_beads(q, scale).tolist(),
    }


def crossover_lambda(
    alphas: Any,
    first: int,
    second: int,
    pref_weights: Any = DEFAULT_PREFERENCES,
    risk_form: str = "kl",
) -> float | None:
    """The lambda at which actions ``first`` and ``second`` have equal G.

    ``G = risk - lambda * epistemic`` is linear in lambda, so the crossover is
    ``(risk_1 - risk_2) / (epistemic_1 - epistemic_2)``. Returns ``None`` when the lines
    never meet at a lambda >= 0 (equal epistemic values, or a crossing below zero).
    """
    alphas = _check_alphas(alphas)
    n = len(alphas)
    for name, i in (("first", first), ("second", second)):
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n:
            raise ValueError(f"{name} must index one of the {n} actions, got {i!r}")
    terms = expected_free_energy_actions(
        alphas, normalised_preferences(pref_weights), 0.0, 0.0, risk_form
    )
    d_risk = float(terms.risk[first] - terms.risk[second])
    d_epi = float(terms.epistemic[first] - terms.epistemic[second])
    if d_epi == 0.0 or d_risk / d_epi < 0:
        return None
    return d_risk / d_epi


class LambdaExplorer(anywidget.AnyWidget):
    """Sliders for lambda, lambda_policy and the preferences; tables of the EFE terms.

    Parameters
    ----------
    lam
        Epistemic weight, 0-4 on the slider (Table 7.1: 0.25).
    lambda_policy
        Softmax temperature, 0.01-2 on the slider (Table 7.1: 0.25).
    pref_weights
        Positive weights for (win, draw, loss), normalised by their sum.
    custom_alphas
        The reader's state: 1-6 actions, each three Dirichlet counts > 0.
    risk_form
        ``"kl"`` (the thesis implementation) or ``"cross_entropy"``.
    """

    _esm = bundle("lambda_explorer.js")
    _css = stylesheet()

    lam = t.Float(0.25).tag(sync=True)
    lambda_policy = t.Float(0.25).tag(sync=True)
    pref_weights = t.List(t.Float(), default_value=list(DEFAULT_PREFERENCES)).tag(sync=True)
    risk_form = t.Unicode("kl").tag(sync=True)
    scale = t.Float(100.0).tag(sync=True)
    worked_alphas = t.List(t.List(t.Float()), default_value=WORKED_ALPHAS).tag(sync=True)
    custom_alphas = t.List(t.List(t.Float()), default_value=DEFAULT_CUSTOM_ALPHAS).tag(sync=True)
    defaults = t.Dict().tag(sync=True)
    """The settings "Reset to defaults" restores: those the widget was built with."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.defaults = {name: getattr(self, name) for name in RESETTABLE}

    def reset(self) -> None:
        """Back to the settings the widget was built with (its "Reset to defaults" button)."""
        for name in RESETTABLE:
            setattr(self, name, self.defaults[name])

    def __repr__(self) -> str:
        """A text form for where the widget cannot be drawn (a notebook not yet run)."""
        prefs = ", ".join(f"{p:.3f}" for p in normalised_preferences(self.pref_weights))
        lines = [
            f"LambdaExplorer: lambda = {self.lam:g}, lambda_policy = {self.lambda_policy:g}, "
            f"preferences p(win, draw, loss) = ({prefs}), risk {self.risk_form}.",
        ]
        for which, title in (("worked", "Thesis Table 7.1"), ("custom", "Your state")):
            alphas = self.worked_alphas if which == "worked" else self.custom_alphas
            v = self.values(which)
            lines.append(f"{title}:")
            for i, alpha in enumerate(alphas):
                counts = ", ".join(f"{a:g}" for a in alpha)
                lines.append(
                    f"  a{i + 1} ({counts}): G {v['G'][i]:.3f}, policy {v['q'][i]:.3f}, "
                    f"{round(v['beads'][i])} beads"
                )
        lines.append("Interactive in a browser: run the notebook, or read the built book.")
        return "\n".join(lines)

    @t.validate("lam")
    def _valid_lam(self, proposal: t.Bunch) -> float:
        value = _finite("lam", proposal.value)
        if value < 0:
            raise ValueError(f"lam must be >= 0, got {value}")
        return value

    @t.validate("lambda_policy")
    def _valid_lambda_policy(self, proposal: t.Bunch) -> float:
        value = _finite("lambda_policy", proposal.value)
        if value <= 0:
            raise ValueError(f"lambda_policy must be > 0, got {value}")
        return value

    @t.validate("scale")
    def _valid_scale(self, proposal: t.Bunch) -> float:
        value = _finite("scale", proposal.value)
        if value <= 0:
            raise ValueError(f"scale must be > 0, got {value}")
        return value

    @t.validate("pref_weights")
    def _valid_prefs(self, proposal: t.Bunch) -> list[float]:
        normalised_preferences(proposal.value)
        return [float(x) for x in proposal.value]

    @t.validate("risk_form")
    def _valid_risk_form(self, proposal: t.Bunch) -> str:
        if proposal.value not in RISK_FORMS:
            raise ValueError(f"risk_form must be one of {RISK_FORMS}, got {proposal.value!r}")
        return proposal.value

    @t.validate("custom_alphas", "worked_alphas")
    def _valid_alphas(self, proposal: t.Bunch) -> list[list[float]]:
        return _check_alphas(proposal.value)

    def values(self, which: str = "worked") -> dict[str, list[float]]:
        """The Python reference for the table ``which`` ("worked" or "custom")."""
        if which not in ("worked", "custom"):
            raise ValueError(f"which must be 'worked' or 'custom', got {which!r}")
        alphas = self.worked_alphas if which == "worked" else self.custom_alphas
        return explorer_values(
            alphas, self.pref_weights, self.lam, self.lambda_policy, self.risk_form, self.scale
        )
