"""The printable matchbox kit: noughts and crosses (:mod:`.noughts`), Hexapawn
(:mod:`.hexapawn`) and their shared options (:mod:`.options`).
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
