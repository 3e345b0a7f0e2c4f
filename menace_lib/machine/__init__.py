"""The matchbox machine: the bead rules (:mod:`.beads`, the one owner of draw, update,
restock and empty boxes), the table-driven engine (:mod:`.engine`) and its compiled
kernel (:mod:`._kernel`), and MENACE on any game (:mod:`.menace`).
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
