"""Settings shared by every test: the hypothesis profiles.

* ``ci`` (the default): property tests that take hypothesis's default example count run
  :data:`CI_EXAMPLES` examples each, so ``make test`` stays short on two cores.
* ``thorough``: :data:`THOROUGH_EXAMPLES` examples each, for a long run before a release or
  after touching the file readers: ``pytest --hypothesis-profile=thorough tests``.

Tests that name their own ``max_examples`` (cheap properties with hundreds of examples)
keep it under both profiles. Neither profile has a deadline: a timed test fails on a busy
machine, and speed belongs in ``python -m menace_lib bench``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 20
THOROUGH_EXAMPLES = 500

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=CI_EXAMPLES, **_COMMON)
settings.register_profile("thorough", max_examples=THOROUGH_EXAMPLES, **_COMMON)
# `--hypothesis-profile=NAME` is applied after this file is imported, so it wins.
settings.load_profile("ci")
