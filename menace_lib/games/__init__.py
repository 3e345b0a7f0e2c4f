"""The games: the one game interface and its integer tables (:mod:`.game`), noughts and
crosses (:mod:`.board`, :mod:`.statespace`, :mod:`.noughts`), Hexapawn, Connect-4, the
registry of games by name, game outcomes and the :class:`~.agent.Agent` protocol that
every learner follows. It imports only :mod:`menace_lib.base`.
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
