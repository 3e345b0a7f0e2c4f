"""Every kind of agent and the one registry of kinds (:mod:`.registry`, with their
command-line options in :mod:`.options`): Active Inference (:mod:`.aif`), Q-learning and
SARSA (:mod:`.rl`), HER (:mod:`.her`), the open and unsymmetrised MENACE, the stochastic
and web variants.
"""

from __future__ import annotations

from typing import Any

from .._moved import old_attribute
from ..base._lazy import submodule_getattr

_submodule = submodule_getattr(__name__, __path__)


def __getattr__(name: str) -> Any:
    """A module of this folder, loaded on first use, or a name of its old path."""
    try:
        return _submodule(name)
    except AttributeError:
        return old_attribute(__name__, name)
