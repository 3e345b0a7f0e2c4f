"""The book's own code, beside the library rather than inside it: the claims ledger
(:mod:`.claims`), Part V's questions (:mod:`.beyond`), the correspondence checks
(:mod:`.correspondence`), figures (:mod:`.plotting`, :mod:`.suite_figures`), the
sources' variant studies (:mod:`.variants`), HER's comparison, the pymdp cross-check and
the census of double threats. Nothing in the library imports it.
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
