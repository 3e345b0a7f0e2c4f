"""The matchbox's expected free energy, information gain and policy against pymdp.

A matchbox is a one-factor pymdp agent (menace_lib.book.pymdp_check): hidden state = the
outcome, A = identity, B[:, :, u] the Dirichlet mean of action u's counts, pB the
counts, C = ln p, γ = 1/λ_policy. pymdp is in the test extra (it brings JAX); its
agents are built once for the module (each compiles).

The noisy observer's belief (menace_lib.agents.noisy) against pymdp's state inference is
here too, not beside the other noisy-eyes tests: one module runs in one process, so JAX's
import and first compilation (about 4 CPU-s) are paid once for every pymdp check.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from budget import thorough_param

import menace_lib as ml
from menace_lib.agents import noisy
from menace_lib.base.reproducibility import assert_same_numbers, same_numbers
from menace_lib.book.pymdp_check import (
    CASES,
    SETTINGS,
    crosscheck,
    legacy_information_gain,
    library_numbers,
    pymdp_numbers,
    pymdp_version,
)

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


@pytest.fixture(scope="module")
def fresh() -> dict:
    return crosscheck()


def _row(fresh: dict, case: str, lam: float, form: str) -> dict:
    (row,) = [
        r for r in fresh["rows"] if (r["case"], r["lam"], r["risk_form"]) == (case, lam, form)
    ]
    return row


def test_pymdp_gives_the_golden_numbers_of_table_7_1(fresh):
    # Golden values (issue 22), six decimals: information gain of Dir(6,2,2),
    # Dir(3,5,4), Dir(9,1,1) and Dir(1,1,1); -neg_efe and q_pi at λ = 1, KL risk, γ = 4.
    got = _row(fresh, "Table 7.1", 1.0, "kl")["pymdp"]
    assert [round(x, 6) for x in got["info_gain"]] == [0.091302, 0.078512, 0.076717]
    assert [round(x, 6) for x in got["G"]] == [0.074033, 0.407641, 0.108843]
    assert [round(x, 6) for x in got["q_pi"]] == [0.468751, 0.123426, 0.407824]
    untried = _row(fresh, "an untried move", 1.0, "kl")["pymdp"]
    assert round(untried["info_gain"][0], 6) == 0.265279


def test_library_equals_pymdp_at_every_expressible_lambda(fresh):
    seen = set()
    for row in fresh["rows"]:
        assert_same_numbers(row["library"], row["pymdp"], f"{row['case']} λ={row['lam']}")
        seen.add((row["case"], row["lam"], row["risk_form"]))
    assert seen == {(c["name"], s["lam"], s["risk_form"]) for c in CASES for s in SETTINGS}


def test_a_lambda_pymdp_cannot_express_is_refused():
    with pytest.raises(ValueError, match="cannot express lam=0.5"):
        pymdp_numbers(CASES[0]["counts"], CASES[0]["prefs"], 0.5, "kl", 0.25)


def test_the_legacy_heuristic_is_twice_the_large_count_limit():
    for alpha in ([6, 2, 2], [3, 5, 4], [60, 20, 20]):
        k, a0 = len(alpha), sum(alpha)
        assert legacy_information_gain(alpha) == pytest.approx((k - 1) / a0, rel=1e-12)
    # The exact information gain tends to (k-1)/(2 α0): half the legacy value.
    big = [600, 200, 200]
    exact = library_numbers([big], CASES[0]["prefs"], 1.0, "kl", 0.25)["info_gain"][0]
    assert exact == pytest.approx(legacy_information_gain(big) / 2, rel=2e-3)


def test_the_books_cached_crosscheck_is_current(fresh):
    stored = json.loads((DATA / "pymdp_crosscheck.json").read_text(encoding="utf-8"))
    assert same_numbers(stored, fresh)


def test_the_stored_pymdp_version_is_the_installed_packages():
    # Read from the package's metadata when the numbers are made, never typed in.
    from importlib.metadata import version

    stored = json.loads((DATA / "pymdp_crosscheck.json").read_text(encoding="utf-8"))
    assert stored["pymdp"] == version("inferactively-pymdp") == pymdp_version()


@pytest.mark.parametrize(
    ("eps", "ply"),
    [(0.2, 6), thorough_param(0.1, 4, id="0.1-4"), thorough_param(0.03, 2, id="0.03-2")],
)
def test_belief_equals_pymdp_infer_states(eps, ply):
    """Nine observation modalities, one hidden-state factor over the ply's positions.

    Each (noise, ply) builds a pymdp agent of its own size, which JAX compiles anew (about
    3 CPU-s each). The default run takes the ply with the most positions (1,372) at the
    highest noise, where the beliefs are spread widest; the same code runs at the other two
    (fewer positions, less noise) in the long run (``--thorough``).
    """
    pytest.importorskip("pymdp")
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from pymdp.agent import Agent

    T = ml.game_tables()
    rng = np.random.default_rng(2)
    ids = dict(noisy.ply_support(1))[ply]
    S = len(ids)
    A = []
    for m in range(9):
        a = np.full((3, S), eps / 2)
        a[T.cells[ids][:, m], np.arange(S)] = 1 - eps
        A.append(jnp.asarray(a)[None])
    prior = rng.dirichlet(np.ones(S))
    agent = Agent(
        A=A,
        B=[jnp.eye(S)[None, :, :, None]],
        D=[jnp.asarray(prior)[None]],
        A_dependencies=[[0]] * 9,
        B_dependencies=[[0]],
        num_controls=[1],
    )
    true = T.cells[ids[int(rng.integers(S))]]
    for _ in range(3):
        reading = noisy.sample_reading(true, eps, rng)
        qs = agent.infer_states([jnp.asarray([int(c)]) for c in reading], agent.D)
        _, mine = noisy.belief(reading, eps, ply, prior)
        assert np.abs(np.asarray(qs[0]).reshape(-1) - mine).max() < 1e-12
