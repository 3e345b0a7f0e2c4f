"""The same matchbox in pymdp: the expected free energy cross-checked against the field's library.

pymdp (``inferactively-pymdp``, JAX-based) is the reference implementation of
discrete Active Inference. A matchbox -- one box, its actions, each with a
Dirichlet belief over the game's outcome (win, draw, loss) -- is a pymdp agent
with one hidden-state factor:

* hidden state = the outcome (3 states), ``A`` = identity (the outcome is seen);
* ``B[:, :, u]`` = the Dirichlet mean of action ``u``'s outcome counts, in every
  column (the outcome does not depend on the previous one), and ``pB`` = the counts;
* ``C = ln p`` (the preferred outcomes), policies of one step, precision γ = 1/λ_policy.

pymdp's negative EFE of action ``u`` is then ``E_q[ln p] + H(q) + I(pB)`` (utility,
state information gain with ``A`` = identity, parameter information gain), which is
``−(KL(q ‖ p) − I)``: the library's ``G`` at λ = 1 with the thesis's KL risk
(:func:`menace_lib.maths.efe.expected_free_energy_actions`). Each EFE term is a switch in
pymdp, so it can express:

=======================================  ====================================
pymdp switches                           the library's setting
=======================================  ====================================
utility, state info gain, param info     λ = 1, risk ``"kl"``
utility, state info gain                 λ = 0, risk ``"kl"``
utility, param info gain                 λ = 1, risk ``"cross_entropy"``
utility                                  λ = 0, risk ``"cross_entropy"``
=======================================  ====================================

and nothing in between: a weight λ on the curiosity term other than 0 or 1 is not a
pymdp setting (:data:`SETTINGS`). Its parameter information gain is the exact
mutual information of a Dirichlet (pymdp's ``spm_wnorm`` with
``exact_param_info_gain=True``, the default), the library's
:func:`menace_lib.maths.dirichlet.mutual_information`; pymdp's legacy heuristic
``1/α₀ − 1/α`` gives ``(k − 1)/α₀``, twice the large-count limit ``(k − 1)/(2α₀)``
(:func:`legacy_information_gain`).

pymdp is a test dependency, not a runtime one: :func:`pymdp_numbers` imports it when
called. The book reads the cached numbers (``book/data/pymdp_crosscheck.json``,
written by ``python -m menace_lib.book.pymdp_check --json PATH``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..base.files import write_json
from ..maths.dirichlet import mutual_information
from ..maths.efe import DEFAULT_PREFERENCES, expected_free_energy_actions, softmax_policy

__all__ = [
    "CASES",
    "FORMAT",
    "SETTINGS",
    "crosscheck",
    "legacy_information_gain",
    "library_numbers",
    "main",
    "pymdp_numbers",
    "pymdp_version",
]

FORMAT = "menace_lib.pymdp_crosscheck"

SETTINGS = (
    {"lam": 1.0, "risk_form": "kl"},
    {"lam": 0.0, "risk_form": "kl"},
    {"lam": 1.0, "risk_form": "cross_entropy"},
    {"lam": 0.0, "risk_form": "cross_entropy"},
)
"""Every (λ, risk form) a pymdp agent can express with its three EFE switches."""

CASES = (
    {
        "name": "Table 7.1",
        "counts": [[6, 2, 2], [3, 5, 4], [9, 1, 1]],
        "prefs": list(DEFAULT_PREFERENCES),
        "lambda_policy": 0.25,
    },
    {
        "name": "an untried move",
        "counts": [[1, 1, 1], [6, 2, 2], [2, 7, 1], [20, 10, 2]],
        "prefs": list(DEFAULT_PREFERENCES),
        "lambda_policy": 0.25,
    },
    {
        "name": "draw-seeking preferences",
        "counts": [[0.5, 3, 1], [4, 4, 4], [12, 30, 2]],
        "prefs": [0.2, 0.75, 0.05],
        "lambda_policy": 1.0,
    },
)
"""Matchboxes to compare: count vectors per action, preferences and λ_policy (= 1/γ)."""


def library_numbers(
    counts: ArrayLike, prefs: ArrayLike, lam: float, risk_form: str, lambda_policy: float
) -> dict[str, list[float]]:
    """The library's ``G``, information gain and policy for one matchbox."""
    terms = expected_free_energy_actions(counts, prefs, lam, 0.0, risk_form)  # type: ignore[arg-type]
    return {
        "G": [float(g) for g in terms.G],
        "info_gain": [float(i) for i in terms.epistemic],
        "q_pi": [float(q) for q in softmax_policy(terms.G, lambda_policy)],
    }


def pymdp_numbers(
    counts: ArrayLike, prefs: ArrayLike, lam: float, risk_form: str, lambda_policy: float
) -> dict[str, list[float]]:
    """pymdp's ``G`` (its ``−neg_efe``) and ``q_pi`` for one matchbox, from a pymdp ``Agent``.

    Raises
    ------
    ValueError
        If (λ, risk form) is not one of :data:`SETTINGS`.
    ImportError
        If pymdp (the test extra) is not installed.
    """
    if {"lam": float(lam), "risk_form": risk_form} not in SETTINGS:
        raise ValueError(
            f"pymdp cannot express lam={lam!r} with risk {risk_form!r}; it can: {SETTINGS}"
        )
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from pymdp.agent import Agent

    alpha = np.asarray(counts, dtype=float)
    n = alpha.shape[0]
    mean = alpha / alpha.sum(axis=1, keepdims=True)
    B = np.repeat(mean.T[:, None, :], 3, axis=1)  # B[o', o, u] = mean[u, o'] in every column o
    pB = np.repeat(alpha.T[:, None, :], 3, axis=1)
    agent = Agent(
        A=[jnp.eye(3)[None]],
        B=[jnp.asarray(B)[None]],
        C=[jnp.log(jnp.asarray(prefs, dtype=float))[None]],
        pB=[jnp.asarray(pB)[None]],
        A_dependencies=[[0]],
        B_dependencies=[[0]],
        num_controls=[n],
        gamma=1.0 / lambda_policy,
        use_utility=True,
        use_states_info_gain=risk_form == "kl",
        use_param_info_gain=lam == 1.0,
    )
    q_pi, neg_efe = agent.infer_policies([jnp.asarray([[[1.0, 0.0, 0.0]]])])
    return {
        "G": [float(-g) for g in np.asarray(neg_efe)[0]],
        "q_pi": [float(q) for q in np.asarray(q_pi)[0]],
    }


def legacy_information_gain(alpha: ArrayLike) -> float:
    """pymdp's legacy heuristic ``Σ q_i (1/α_i − 1/α₀)`` = ``(k − 1)/α₀`` for ``Dir(α)``."""
    a = np.asarray(alpha, dtype=float)
    return float(np.sum(a / a.sum() * (1.0 / a - 1.0 / a.sum())))


def crosscheck(cases: Sequence[dict[str, Any]] = CASES) -> dict[str, Any]:
    """Every case at every expressible setting, by pymdp and by the library (JSON-ready).

    pymdp's parameter information gain of an action is the difference of its ``G``
    without and with the term (λ = 0 and λ = 1, same risk), which both rows hold.
    """
    rows = []
    for case in cases:
        by_setting = {}
        for setting in SETTINGS:
            args = (case["counts"], case["prefs"], setting["lam"], setting["risk_form"])
            row = {
                "case": case["name"],
                **setting,
                "lambda_policy": case["lambda_policy"],
                "pymdp": pymdp_numbers(*args, case["lambda_policy"]),
                "library": library_numbers(*args, case["lambda_policy"]),
            }
            by_setting[(setting["lam"], setting["risk_form"])] = row
            rows.append(row)
        for form in ("kl", "cross_entropy"):
            g0, g1 = (by_setting[(lam, form)]["pymdp"]["G"] for lam in (0.0, 1.0))
            gain = [a - b for a, b in zip(g0, g1, strict=True)]
            for lam in (0.0, 1.0):
                by_setting[(lam, form)]["pymdp"]["info_gain"] = gain
    gains = [
        {
            "alpha": list(a),
            "exact": float(mutual_information(np.asarray(a, dtype=float))),
            "legacy": legacy_information_gain(a),
            "large_count_limit": (len(a) - 1) / (2 * float(sum(a))),
        }
        for a in ([6, 2, 2], [3, 5, 4], [9, 1, 1], [1, 1, 1], [60, 20, 20])
    ]
    return {
        "format": FORMAT,
        "version": 1,
        "pymdp": pymdp_version(),
        "cases": list(cases),
        "rows": rows,
        "information_gain": gains,
    }


PYMDP_DISTRIBUTION = "inferactively-pymdp"
"""The distribution pymdp installs as (its module has no ``__version__``)."""


def pymdp_version() -> str:
    """The installed pymdp's version, from its package metadata.

    Raises
    ------
    ModuleNotFoundError
        If pymdp (the test extra) is not installed.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PYMDP_DISTRIBUTION)
    except PackageNotFoundError:
        raise ModuleNotFoundError(
            f"pymdp is not installed: pip install {PYMDP_DISTRIBUTION} (menace_lib[test])"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m menace_lib.book.pymdp_check --json PATH``: write :func:`crosscheck`."""
    p = argparse.ArgumentParser(prog="python -m menace_lib.pymdp_check")
    p.add_argument("--json", required=True, help="where to write the numbers")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    write_json(args.json, crosscheck(), option="--json")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
