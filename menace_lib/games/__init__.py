"""The games: the one game interface and its integer tables (:mod:`.game`), noughts and
crosses (:mod:`.board`, :mod:`.statespace`, :mod:`.noughts`), Hexapawn, Connect-4, the
registry of games by name, game outcomes, the :class:`~.agent.Agent` protocol that
every learner follows and the one skeleton of its saved file (:mod:`.agent_file`). It
imports only :mod:`menace_lib.base` and the schemas beside it.
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
