"""The printable matchbox kit: noughts and crosses (:mod:`.noughts`), Hexapawn
(:mod:`.hexapawn`) and their shared options (:mod:`.options`).
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
