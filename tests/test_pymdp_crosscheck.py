"""The matchbox's expected free energy, information gain and policy against pymdp.

A matchbox is a one-factor pymdp agent (menace_lib.book.pymdp_check): hidden state = the
outcome, A = identity, B[:, :, u] the Dirichlet mean of action u's counts, pB the
counts, C = ln p, γ = 1/λ_policy. pymdp is in the test extra (it brings JAX); its
agents are built once for the module (each compiles).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
