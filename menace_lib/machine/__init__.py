"""The matchbox machine: the bead rules (:mod:`.beads`, the one owner of draw, update,
restock and empty boxes), the table-driven engine (:mod:`.engine`) and its compiled
kernel (:mod:`.kernel`), and MENACE on any game (:mod:`.menace`).
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
