"""Playing and learning: the game loop (:mod:`.loop`), scripted opponents, training,
exact evaluation, learning curves, episodes, checkpoints and self-play.
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
