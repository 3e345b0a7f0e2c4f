"""The long run's extra instances (``tests/conftest.py``): a test or a parameter set marked
``thorough`` is deselected by the default run and run by ``--thorough``, and
``make test-thorough`` passes ``--thorough`` to both the unit and the browser tests.

The suite's own ``conftest.py`` is copied into a temporary folder and run by pytest there
(pytester), so these are the real hooks, not a copy of them.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import tomllib

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

EXAMPLE = """
import pytest
from budget import thorough_param


@pytest.mark.parametrize("n", [1, thorough_param(2, id="two")])
def test_some(n):
    assert n in (1, 2)


@pytest.mark.thorough
def test_only_long():
    pass


def test_always():
    pass
"""


def _run(pytester, *extra: str):
    for name in ("conftest.py", "budget.py"):
        pytester.makefile(".py", **{name[:-3]: (ROOT / "tests" / name).read_text("utf-8")})
    pytester.makepyfile(test_example=EXAMPLE)
    # The project's own options (its addopts turn off plugins it does not use; jaxtyping's
    # would import numpy again in this process after pytester has unloaded it).
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"][
        "ini_options"
    ]["addopts"]
    return pytester.runpytest(
        *shlex.split(addopts), "-p", "no:cacheprovider", "-p", "no:nbval", *extra
    )


def test_the_default_run_deselects_what_is_marked_thorough(pytester):
    outcome = _run(pytester, "-v")
    outcome.assert_outcomes(passed=2, deselected=2)
    ran = set(re.findall(r"::(\S+) PASSED", outcome.stdout.str()))
    assert ran == {"test_some[1]", "test_always"}


def test_the_long_run_runs_everything(pytester):
    outcome = _run(pytester, "-v", "--thorough")
    outcome.assert_outcomes(passed=4)


def test_make_test_thorough_passes_thorough_to_unit_and_browser_tests():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test-thorough:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    lines = [line for line in recipe.splitlines() if "pytest" in line]
    assert any('-m "not browser"' in line and "--thorough" in line for line in lines), lines
    assert any("-m browser" in line and "--thorough" in line for line in lines), lines
