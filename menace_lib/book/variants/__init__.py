"""The other matchbox machines of the sources, and their command-line entry.

- :mod:`menace_lib.play.selfplay` -- pooled self-play with move-class boxes (the blog chapter)
- :mod:`menace_lib.agents.unsymmetrised` -- 6,046 raw-position boxes (the APL article)
- :mod:`menace_lib.agents.stochastic` -- the rule-agnostic stochastic player (the blog post)
- :mod:`menace_lib.book.variants.figures` -- their figures

The ``tournament`` command (:mod:`menace_lib.cli.tournament`) runs the stochastic player::

    python -m menace_lib tournament --player stochastic --rounds 100 --games 40 --seed 0 --json
"""

from __future__ import annotations

from typing import Any

from ..._moved import old_attribute
from ...base._lazy import submodule_getattr

_submodule = submodule_getattr(__name__, __path__)


def __getattr__(name: str) -> Any:
    """``ml.book.variants.<module>``: loaded on first use (or a module that moved away)."""
    try:
        return _submodule(name)
    except AttributeError:
        return old_attribute(__name__, name)
