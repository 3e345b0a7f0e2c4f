"""How many examples a costly property test draws, under the active hypothesis profile.

``@examples(n)`` gives ``n`` examples under the ``ci`` profile (the default, see
``tests/conftest.py``) and proportionally more under ``--hypothesis-profile=thorough``.
Use it where each example costs real time (an agent file validated, a command run);
cheap properties simply take the profile's default count.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings


def examples(n: int) -> settings:
    """Settings for ``n`` examples under ``ci``, scaled with the loaded profile."""
    scale = settings.default.max_examples / settings.get_profile("ci").max_examples
    return settings(
        max_examples=max(1, round(n * scale)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def thorough_param(*values, id: str | None = None):  # noqa: A002 - pytest.param's name
    """A parameter set that only the long run (``--thorough``) runs (``tests/conftest.py``)."""
    return pytest.param(*values, id=id, marks=pytest.mark.thorough)
