"""The JavaScript port (menace_lib/widgets/efe_math.js) agrees with the Python library.

A grid of inputs goes to ``node tests/js/efe_grid.mjs`` as JSON on stdin; every number
it prints must match menace_lib.maths.dirichlet / menace_lib.maths.efe to 1e-9 (absolute, or
relative for large values).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from node_runner import NODE, node_json
from scipy.special import digamma

from menace_lib.maths.dirichlet import expected_entropy, mutual_information
from menace_lib.maths.efe import expected_free_energy_actions, policy_to_beads, softmax_policy

DRIVER = Path(__file__).parent / "js" / "efe_grid.mjs"

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed; cannot run the JS port"
)

ALPHA_SETS_BY_K = {
    3: [
        [[6, 2, 2], [3, 5, 4], [9, 1, 1]],
        [[1, 1, 1], [2, 1, 1], [1, 2, 1], [1, 1, 2]],
        [[0.05, 0.05, 0.05], [0.05, 1, 0.2], [0.5, 0.05, 3]],
        [[500, 500, 500], [500, 1, 20], [1000, 2000, 500]],
        [[0.05, 500, 1], [9.99, 10.01, 3]],
    ],
    2: [[[0.05, 500], [1, 1], [30, 7]]],
    4: [[[1, 1, 1, 1], [0.05, 2, 500, 9]]],
}
PREFS_BY_K = {
    3: [[0.6, 0.35, 0.05], [1 / 3, 1 / 3, 1 / 3], [0.98, 0.01, 0.01], [0.05, 0.35, 0.6]],
    2: [[0.9, 0.1]],
    4: [[0.4, 0.3, 0.2, 0.1]],
}
LAMS = [0.0, 0.1, 0.25, 0.5, 1.0, 2.0]
LAMBDA_POLICIES = [0.05, 0.25, 1.0]
RISK_FORMS = ["kl", "cross_entropy"]
BETA_AMBS = [0.0, 0.5]
SCALES = [100.0, 40.0]


def grid_cases() -> list[dict]:
    cases = []
    for k, alpha_sets in ALPHA_SETS_BY_K.items():
        for alphas, prefs, lam, lambda_policy, form, beta_amb in itertools.product(
            alpha_sets, PREFS_BY_K[k], LAMS, LAMBDA_POLICIES, RISK_FORMS, BETA_AMBS
        ):
            cases.append(
                {
                    "alphas": alphas,
                    "prefs": prefs,
                    "lam": lam,
                    "lambdaPolicy": lambda_policy,
                    "betaAmb": beta_amb,
                    "riskForm": form,
                    "scale": SCALES[len(cases) % len(SCALES)],
                }
            )
    return cases


def python_explore(case: dict) -> dict[str, np.ndarray]:
    terms = expected_free_energy_actions(
        case["alphas"], case["prefs"], case["lam"], case["betaAmb"], case["riskForm"]
    )
    q = softmax_policy(terms.G, case["lambdaPolicy"])
    return {
        "risk": terms.risk,
        "ambiguity": terms.ambiguity,
        "epistemic": terms.epistemic,
        "G": terms.G,
        "q": q,
        "beads": policy_to_beads(q, case["scale"]),
    }


def run_node(payload: dict) -> dict:
    return node_json([str(DRIVER)], payload)


def assert_close(js: object, python: object, what: str) -> None:
    np.testing.assert_allclose(
        np.asarray(js, dtype=float), python, rtol=1e-9, atol=1e-9, err_msg=what
    )


@pytest.fixture(scope="module")
def grid() -> tuple[list[dict], dict]:
    cases = grid_cases()
    return cases, run_node({"cases": cases})


def test_grid_is_large_and_covers_the_brief(grid: tuple[list[dict], dict]) -> None:
    cases, _ = grid
    assert len(cases) > 1000
    smallest = min(min(min(a) for a in case["alphas"]) for case in cases)
    largest = max(max(max(a) for a in case["alphas"]) for case in cases)
    assert smallest <= 0.05 and largest >= 500


def test_explore_matches_python_on_grid(grid: tuple[list[dict], dict]) -> None:
    cases, output = grid
    assert len(output["cases"]) == len(cases)
    for case, js in zip(cases, output["cases"], strict=True):
        assert "error" not in js, (case, js)
        python = python_explore(case)
        for key, expected in python.items():
            assert_close(js[key], expected, f"{key} for {case}")


def test_table_7_1_in_javascript() -> None:
    output = run_node({"cases": [{"alphas": [[6, 2, 2], [3, 5, 4], [9, 1, 1]]}]})
    result = output["cases"][0]
    np.testing.assert_array_equal(np.round(result["G"], 3), [0.143, 0.467, 0.166])
    np.testing.assert_array_equal(np.round(result["q"], 3), [0.458, 0.125, 0.416])
    np.testing.assert_array_equal(np.floor(np.asarray(result["beads"]) + 0.5), [46, 13, 42])


def test_digamma_and_dirichlet_terms_match_scipy() -> None:
    xs = np.concatenate([np.geomspace(1e-6, 1e8, 200), [1.4616321449683622, 5.99, 6, 9.999, 10]])
    alphas = [[1, 1, 1], [0.05, 0.05], [1e-6, 3, 7], [500, 500, 500], [1e6, 1, 2e6], [4.0]]
    output = run_node(
        {"digamma": xs.tolist(), "mutualInformation": alphas, "expectedEntropy": alphas}
    )
    # digamma has a root near 1.4616, so compare with an absolute floor there.
    np.testing.assert_allclose(output["digamma"], digamma(xs), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(
        output["mutualInformation"], [mutual_information(a) for a in alphas], rtol=1e-11, atol=1e-15
    )
    np.testing.assert_allclose(
        output["expectedEntropy"], [expected_entropy(a) for a in alphas], rtol=1e-12, atol=1e-14
    )


@pytest.mark.parametrize(
    "case, message",
    [
        ({"alphas": [[1, -1, 1]]}, "strictly positive"),
        ({"alphas": [[1, 1, 1]], "lam": -0.5}, "lam"),
        ({"alphas": [[1, 1, 1]], "lambdaPolicy": 0}, "lambdaPolicy"),
        ({"alphas": [[1, 1, 1]], "betaAmb": -1}, "betaAmb"),
        ({"alphas": [[1, 1, 1]], "prefs": [0.6, 0.35, 0.1]}, "sum to 1"),
        ({"alphas": [[1, 1, 1]], "prefs": [0.65, 0.35, 0]}, "> 0 where ln p"),
        ({"alphas": [[1, 1, 1]], "riskForm": "hinge"}, "risk form"),
        ({"alphas": [[1, 1]]}, "outcomes"),
    ],
)
def test_javascript_rejects_bad_input(case: dict, message: str) -> None:
    result = run_node({"cases": [case]})["cases"][0]
    assert "error" in result and message in result["error"], result


def test_lenient_preferences_match_python() -> None:
    case = {"alphas": [[2, 1, 1], [1, 1, 3]], "prefs": [6, 3.5, 0], "strict": False}
    js = run_node({"cases": [case]})["cases"][0]
    terms = expected_free_energy_actions(case["alphas"], case["prefs"], 0.25, strict=False)
    assert_close(js["G"], terms.G, "G with lenient preferences")
