"""The mathematics of the Bayesian reading: the Dirichlet distribution and its
information measures (:mod:`.dirichlet`) and the expected free energy (:mod:`.efe`).
It imports only :mod:`menace_lib.base`.
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
