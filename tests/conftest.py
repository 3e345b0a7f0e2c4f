"""Settings shared by every test: the hypothesis profiles.

* ``ci`` (the default): cheap properties run :data:`CI_EXAMPLES` examples each (hypothesis's
  own default); costly ones (an agent file validated, a command run per example) take the
  small counts they name through ``tests/budget.py``, so ``make test`` stays short.
* ``thorough``: :data:`THOROUGH_EXAMPLES` examples for the cheap properties and ten times
  the named counts for the costly ones, for a long run before a release or after touching
  the file readers: ``pytest tests -m "not browser" --hypothesis-profile=thorough``.

Tests that name their own ``max_examples`` in ``@settings`` keep it under both profiles.
Neither profile has a deadline: a timed test fails on a busy machine, and speed belongs in
``python -m menace_lib bench``.

``--thorough`` (``make test-thorough``) is the long run: the ``thorough`` profile (unless
``--hypothesis-profile`` names another). ``docs/PERFORMANCE.md`` ("The test suite's time")
says what the default run leaves to it.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100
THOROUGH_EXAMPLES = 1000

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=CI_EXAMPLES, **_COMMON)
settings.register_profile("thorough", max_examples=THOROUGH_EXAMPLES, **_COMMON)
# `--hypothesis-profile=NAME` is applied after this file is imported, so it wins.
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        default=False,
        help="the long run: the thorough hypothesis profile (ten times the examples)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module is imported: tests/budget.py scales its counts at import time.
    if config.getoption("--thorough") and not config.getoption("hypothesis_profile", None):
        settings.load_profile("thorough")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests first: xdist hands tests out in this order, so the long ones start at once
    and the short ones fill in around them (the order of the rest is kept)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True, scope="session")
def tables_cache_in_a_temporary_folder(tmp_path_factory):
    """Built game tables (Connect-4) are cached on disk: keep them in a temporary folder.

    Set before any worker process starts, so loky and Dask workers inherit it.
    """
    os.environ["MENACE_LIB_CACHE"] = str(tmp_path_factory.mktemp("tables"))
    yield
