"""The reproducibility contract (menace_lib.base.reproducibility) and the stored results under it.

The golden tests here rerun one stored record of every condition of the thesis suite and
the λ suite. ``make test-baseline`` runs every ``golden`` test again under numpy's baseline
kernels, so a processor-dependent float shows up on any machine.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

import numpy as np
import pytest

from menace_lib.base.reproducibility import (
    ABS_TOL,
    REL_TOL,
    assert_same_numbers,
    differences,
    same_float,
    same_numbers,
)
from menace_lib.experiments import SuiteResult
from menace_lib.experiments.results import rerun

DATA = Path(__file__).resolve().parents[1] / "book" / "data"

# --- the contract ------------------------------------------------------------------------


def test_last_bit_differences_from_the_issue_are_the_same_numbers():
    # Seen between AVX-512 and AVX2 kernels in stored Active Inference curves.
    assert same_float(0.29153240519709633, 0.2915324051970963)
    assert same_float(0.8301270513159303, 0.8301270513159302)
    assert not 0.29153240519709633 == 0.2915324051970963  # noqa: SIM201 (they differ)


def test_a_real_change_is_not_the_same_number():
    assert not same_float(0.5, 0.5 + 1e-9)
    assert not same_float(0.0, 1e-11)
    assert same_float(0.0, ABS_TOL / 2)
    assert same_float(1e6, 1e6 * (1 + REL_TOL / 2))
    assert not same_float(1e6, 1e6 * (1 + 10 * REL_TOL))


def test_integers_must_be_equal_to_the_bit():
    assert not same_numbers({"beads": [4, 3, 2]}, {"beads": [4, 3, 3]})
    assert not same_numbers(2**60, 2**60 + 1)
    assert same_numbers({"beads": np.array([4, 3])}, {"beads": [4, 3]})


def test_booleans_strings_and_none_are_not_floats():
    assert not same_numbers(True, 1.0)
    assert not same_numbers(None, 0.0)
    assert not same_numbers("0.5", 0.5)
    assert same_numbers(float("nan"), float("nan"))
    assert not same_numbers(float("nan"), 0.0)
    assert same_numbers(float("inf"), float("inf"))


def test_an_integer_read_back_as_a_float_is_the_same_number():
    # JSON round trips may write 0 as 0.0; the value is the same.
    assert same_numbers({"draw": 0}, {"draw": 0.0})


def test_structure_must_match_and_timings_are_ignored():
    assert not same_numbers({"a": 1}, {"a": 1, "b": 2})
    assert not same_numbers([1, 2], [1, 2, 3])
    assert same_numbers({"a": 1, "seconds": 3.0}, {"a": 1, "seconds": 9.5})
    assert same_numbers({"a": 1, "seconds": 3.0}, {"a": 1})


def test_differences_name_the_path_and_the_values():
    found = differences(
        {"curve": {"draw": [0.5, 0.25]}, "n": 3}, {"curve": {"draw": [0.5, 0.3]}, "n": 4}
    )
    assert found == ["curve.draw[1]: 0.25 != 0.3", "n: 3 != 4"]
    assert differences([1], [1, 2]) == ["value: length 1 != 2"]
    with pytest.raises(AssertionError, match=r"^9.1/x: b: only in the second$"):
        assert_same_numbers({"a": 1}, {"a": 1, "b": 2}, "9.1/x")


def test_the_library_comparisons_use_the_contract():
    from menace_lib.experiments.results import same_numbers as suite_same
    from menace_lib.experiments.sweep import SweepResult

    a = {"key": "k", "seed": 0, "curve": [0.29153240519709633], "games": 5}
    b = {**a, "curve": [0.2915324051970963]}
    assert suite_same(a, b) and not suite_same(a, {**a, "games": 6})
    sweep = dict(name="s", summary={}, paired={}, config={})
    one = SweepResult(records=[{"condition": "c", "seed": 0, "x": 0.8301270513159303}], **sweep)
    two = SweepResult(records=[{"condition": "c", "seed": 0, "x": 0.8301270513159302}], **sweep)
    assert one.matches(two)


# --- stored results, rerun ----------------------------------------------------------------


def first_records(name: str) -> list[tuple[str, str]]:
    stored = json.loads((DATA / name).read_text())
    return [(name, key) for key in dict.fromkeys(r["key"] for r in stored["records"])]


@pytest.fixture(scope="module")
def suites() -> dict[str, SuiteResult]:
    return {
        name: SuiteResult.load_json(DATA / name)
        for name in ("thesis_results.json", "lambda_results.json")
    }


@pytest.mark.golden
@pytest.mark.parametrize(
    ("name", "key"), first_records("thesis_results.json") + first_records("lambda_results.json")
)
def test_stored_records_rerun_on_baseline_kernels(suites, name: str, key: str) -> None:
    """One record of every condition: every agent kind, games, beads and curves."""
    record = suites[name].records_for(key)[0]
    assert_same_numbers(json.loads(json.dumps(rerun(record))), record, key)


@pytest.mark.golden
def test_baseline_kernels_are_in_force_when_asked_for():
    """``make test-baseline`` must really run on the baseline kernels, or it proves nothing."""
    asked = os.environ.get("NPY_DISABLE_CPU_FEATURES", "")
    if "X86_V3" not in asked or platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("not a baseline-kernel run on x86-64")
    from numpy._core._multiarray_umath import __cpu_features__

    assert not __cpu_features__.get("X86_V3") and not __cpu_features__.get("X86_V4")


def test_the_makefiles_golden_files_are_every_file_with_a_golden_test():
    """``make test-baseline`` collects only the files its grep names: a golden test in any
    other file (a marker spelt otherwise) would silently never run on the baseline kernels."""
    import re

    root = DATA.parents[1]
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    (pattern,) = re.findall(
        r"^GOLDEN_TESTS := \$\(shell grep -l '([^']+)' tests/test_\*\.py", makefile, re.M
    )
    marker = re.compile(r"mark\s*\.\s*golden\b|mark\s*\(\s*[\"']" + "golden")
    named = re.compile(pattern)
    files = sorted((root / "tests").rglob("*.py"))
    using = [p for p in files if marker.search(p.read_text(encoding="utf-8"))]
    assert len(using) >= 10
    for path in using:
        assert path.parent == root / "tests" and path.name.startswith("test_"), path
        assert named.search(path.read_text(encoding="utf-8")), path
    assert Path(__file__) in using  # this file's golden reruns, found by both
