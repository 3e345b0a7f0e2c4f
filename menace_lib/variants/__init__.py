"""The other matchbox machines of the sources, and their command-line entry.

- :mod:`menace_lib.variants.selfplay` -- pooled self-play with move-class boxes (the blog chapter)
- :mod:`menace_lib.variants.unsymmetrised` -- 6,046 raw-position boxes (the APL article)
- :mod:`menace_lib.variants.stochastic` -- the rule-agnostic stochastic player (the blog post)
- :mod:`menace_lib.variants.figures` -- their figures

The ``tournament`` command (:mod:`menace_lib.cli.tournament`) runs the stochastic player::

    python -m menace_lib tournament --player stochastic --rounds 100 --games 40 --seed 0 --json
"""

from __future__ import annotations

from ..lazy import submodule_getattr  # noqa: E402

# ml.variants.<module> after `import menace_lib as ml` (menace_lib.lazy).
__getattr__ = submodule_getattr(__name__, __path__)
