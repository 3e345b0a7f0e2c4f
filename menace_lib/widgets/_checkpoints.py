"""The packaged MENACE checkpoints, read once per process for all widgets."""

from __future__ import annotations

from functools import cache

from ..machine.menace import Menace
from ..play.checkpoints import load_checkpoints


@cache
def checkpoint_agents() -> dict[str, dict[int, Menace]]:
    """``{"X": {25: Menace, ...}, "O": {...}}`` from the packaged checkpoint file.

    Shared and cached: callers must copy an agent before changing its beads.
    """
    return load_checkpoints()
