"""The field's game interfaces: OpenSpiel and PettingZoo, both ways.

============================  =============================================================
:mod:`~.openspiel`            any small OpenSpiel game as a library game (tables, exact
                              evaluation, the perfect player, MENACE)
:mod:`~.hexapawn_spiel`       Hexapawn as an OpenSpiel game, ``python_hexapawn``
:mod:`~.bridges`              which OpenSpiel or PettingZoo game is which library game,
                              position for position and move for move (the one place)
:mod:`~.pettingzoo`           any trained agent as a policy in a PettingZoo environment
:mod:`~.mcts`                 OpenSpiel's ``MCTSBot`` scored exactly by the library
============================  =============================================================

Loading this folder registers Hexapawn with OpenSpiel when OpenSpiel is installed, so that
``import menace_lib.interop`` (or any use of ``ml.interop``) is enough for
``pyspiel.load_game("python_hexapawn")``.

Everything here needs an extra: ``pip install "menace_lib[interop]"`` (or
``[openspiel]``, ``[pettingzoo]``); a missing one is named in one line.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ..base._lazy import submodule_getattr

_submodule = submodule_getattr(__name__, __path__)
_NAMES = {
    "spiel_game": "openspiel",
    "PettingZooPolicy": "pettingzoo",
    "play_pettingzoo": "pettingzoo",
}
"""The short names: ``ml.interop.play_pettingzoo`` is ``ml.interop.pettingzoo.play_pettingzoo``."""


def __getattr__(name: str) -> Any:
    """A module of this folder or one of its short names, loaded on first use."""
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    return _submodule(name)


if importlib.util.find_spec("pyspiel") is not None:  # OpenSpiel learns Hexapawn's name at once
    importlib.import_module(f"{__name__}.hexapawn_spiel")
