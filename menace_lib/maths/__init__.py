"""The mathematics of the Bayesian reading: the Dirichlet distribution and its
information measures (:mod:`.dirichlet`) and the expected free energy (:mod:`.efe`).
It imports only :mod:`menace_lib.base`.
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
