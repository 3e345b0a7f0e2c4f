"""Every kind of agent and the one registry of kinds (:mod:`.registry`, with their
command-line options in :mod:`.options`): Active Inference (:mod:`.aif`), Q-learning and
SARSA (:mod:`.rl`), HER (:mod:`.her`), the open and unsymmetrised MENACE, the stochastic
and web variants.
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
