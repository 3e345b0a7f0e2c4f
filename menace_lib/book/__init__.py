"""The book's own code, beside the library rather than inside it: the claims ledger
(:mod:`.claims`), Part V's questions (:mod:`.beyond`), the correspondence checks
(:mod:`.correspondence`), figures (:mod:`.plotting`, :mod:`.suite_figures`), the
sources' variant studies (:mod:`.variants`), HER's comparison, the pymdp cross-check and
the census of double threats. Nothing in the library imports it.
"""

from __future__ import annotations

from ..base._lazy import folder_getattr

# Its modules load on first use (ml.games.board); old flat names warn (menace_lib._moved).
__getattr__ = folder_getattr(__name__, __path__)
