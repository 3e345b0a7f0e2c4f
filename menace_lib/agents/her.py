"""HER, Gardner's Hexapawn Educable Robot: MENACE on Hexapawn.

HER is a :class:`~menace_lib.machine.menace.Menace` on the ``hexapawn`` game, playing Black
(the second player), one box per Black-to-move position up to mirror symmetry (19),
one bead per legal move. :func:`her_config` gives two learning rules:

``gardner``
    Gardner's: nothing happens after a win; after a loss the bead of HER's *last* move
    is confiscated (credit ``"last"``, reinforcement ``(0, 0, -1)``). An empty box
    resigns, and the move before it loses its bead.
``michie``
    MENACE's rule applied to Hexapawn: every drawn bead gains 3 after a win and loses 1
    after a loss (credit ``"every"``), with 4-3-2 beads per colour by HER's move and box
    restock, as in the thesis's MENACE.

The HER chapter's learning curves, figures and cached numbers are the book's code
(:mod:`menace_lib.book.her_chapter`).
"""

from __future__ import annotations

from typing import Any

from .._moved import old_attribute
from ..games.hexapawn import BLACK
from ..machine.menace import Menace, MenaceConfig
from ..play.opponents import GAME_OPPONENTS, make_opponent

RULES = ("gardner", "michie")
"""HER's two learning rules (:func:`her_config`)."""

__all__ = ["RULES", "her", "her_config", "opponents"]


def her_config(rule: str = "gardner") -> MenaceConfig:
    """HER's configuration under Gardner's rule or Michie's (see the module docstring).

    Parameters
    ----------
    rule
        ``"gardner"`` or ``"michie"``.

    Returns
    -------
    MenaceConfig
        HER's boxes and bead rules.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.Menace(ml.her_config()).total_beads()
    47.0
    """
    if rule == "gardner":
        return MenaceConfig(
            game="hexapawn",
            player=BLACK,
            filter="all",
            schedule=(1,),
            reinforcement=(0, 0, -1),
            credit="last",
            restock="none",
            empty_box="resign",
        )
    if rule == "michie":
        return MenaceConfig(
            game="hexapawn",
            player=BLACK,
            filter="all",
            schedule=(4, 3, 2),
            reinforcement=(3, 1, -1),
            credit="every",
            restock="box",
        )
    raise ValueError(f"unknown rule {rule!r}; choose one of {RULES}")


def her(rule: str = "gardner") -> Menace:
    """A fresh HER."""
    return Menace(her_config(rule))


def opponents() -> dict:
    """White's scripted players: perfect (uniform among minimax moves), random and
    human-like (one ply of lookahead)."""
    return {name: make_opponent(name, "uniform", game="hexapawn") for name in GAME_OPPONENTS[::-1]}


def __getattr__(name: str) -> Any:
    """The chapter's names that moved to :mod:`menace_lib.book.her_chapter` (one release)."""
    return old_attribute(__name__, name)
