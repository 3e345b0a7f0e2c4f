"""Part V -- beyond the thesis: sweeps that answer its future-work questions.

``SWEEPS`` maps each sweep's command-line name to its :class:`~.sweep.Sweep`; a sweep
module registers itself by being imported here.
"""

from __future__ import annotations

from .priors import PRIORS
from .sweep import Sweep

SWEEPS: dict[str, Sweep] = {PRIORS.name: PRIORS}

__all__ = ["SWEEPS"]
