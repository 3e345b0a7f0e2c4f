"""Frozen MENACE checkpoints for the play widget.

``menace_lib/data/checkpoints.json`` holds frozen copies of two pooled
self-play learners (:mod:`menace_lib.play.selfplay`) after 25, 100, 1,000
and 5,000 training games, so the book can let a reader play against MENACE at
several stages of learning without training anything in the browser::

    {"format": "menace_lib.checkpoints", "version": 1, "seed": 0,
     "recipe": "...",
     "X": {"25": <Menace.to_dict()>, "100": ..., "1000": ..., "5000": ...},
     "O": {"25": ..., ...}}

``X`` is the blog's opening player. ``O`` is a second-player MENACE trained,
for each checkpoint, with the thesis's mixed curriculum (random → defensive →
perfect, 40/20/40): trained by pooled self-play instead, the second player
learns to avoid the centre reply to a corner opening and never draws against a
perfect X, which makes a dull opponent for a reader playing X. Both use
move-class matchboxes. The file
is written by ``scripts/make_checkpoints.py --seed 0`` and regenerating it from
its seed reproduces it exactly (a unit test checks this).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from ..base.files import (
    AgentFileError,
    check_output_path,
    dumps,
    read_json,
    write_text,
)
from ..games.agent_file import open_agent_document
from ..games.board import O, X
from ..machine.menace import Menace

__all__ = [
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_VERSION",
    "DEFAULT_PATH",
    "build_checkpoints",
    "checkpoint_games",
    "load_checkpoints",
    "recipe",
    "write_checkpoints",
]

CHECKPOINT_FORMAT = "menace_lib.checkpoints"
CHECKPOINT_VERSION = 1
DEFAULT_PATH = Path(__file__).resolve().parents[1] / "data" / "checkpoints.json"
_SIDES = {"X": X, "O": O}


def checkpoint_games() -> tuple[int, ...]:
    """Training-game counts at which checkpoints are kept: (25, 100, 1000, 5000)."""
    from .selfplay import CHECKPOINTS

    return tuple(CHECKPOINTS)


def recipe(seed: int) -> str:
    """A one-paragraph description of how the checkpoints of ``seed`` are made."""
    return (
        "Pooled self-play (menace_lib.play.selfplay.pooled_selfplay): move-class "
        "matchboxes, filter 'michie', 4-3-2-1 beads, +3/+1/-1, restock 'box'. The learner "
        "plays 5,000 games against a pool of 4 MENACEs of the other side (rotated "
        "round-robin, learning too, playing a uniformly random legal move with probability "
        f"0.05). X: learner_side=X, rng=numpy.random.default_rng({seed}); frozen copies "
        "after 25, 100, 1,000 and 5,000 games. O: for each n in (25, 100, 1,000, 5,000), a "
        "fresh second-player MENACE with the same boxes and beads trained n games with the "
        "thesis's mixed curriculum (menace_lib.play.training.train(agent, 'mixed', n, rng), "
        f"rng=numpy.random.default_rng([{seed}, 1, n]))."
    )


def _rngs(seed: int) -> dict[str, np.random.Generator]:
    return {"X": np.random.default_rng(seed), "O": np.random.default_rng([seed, 1])}


def build_checkpoints(seed: int = 0) -> dict[str, Any]:
    """Train both learners and return the JSON-ready checkpoint document."""
    from .selfplay import pooled_selfplay

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer ≥ 0, got {seed!r}")
    games = checkpoint_games()
    doc: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "seed": seed,
        "recipe": recipe(seed),
    }
    run = pooled_selfplay(max(games), _rngs(seed)["X"], learner_side=X, checkpoints=games)
    doc["X"] = {str(n): run.snapshots[n].to_dict() for n in games}
    doc["O"] = {str(n): _curriculum_o(seed, n).to_dict() for n in games}
    return doc


def _curriculum_o(seed: int, games: int) -> Menace:
    from ..machine.menace import MenaceConfig
    from .training import train

    agent = Menace(MenaceConfig(layout="class", player=O))
    train(agent, "mixed", games, np.random.default_rng([seed, 1, games]))
    return agent.frozen_copy()


def write_checkpoints(seed: int = 0, path: str | Path | None = None) -> Path:
    """Build the checkpoints of ``seed`` and write them as JSON (atomically)."""
    path = Path(path) if path is not None else DEFAULT_PATH
    check_output_path(path)  # before minutes of training
    doc = build_checkpoints(seed)
    parse_checkpoints(doc)  # never write a file that load_checkpoints refuses
    write_text(path, dumps(doc, separators=(",", ":")) + "\n")
    return path


def parse_checkpoints(doc: Any) -> dict[str, dict[int, Menace]]:
    """Validate a checkpoint document and rebuild its agents.

    Raises
    ------
    AgentFileError
        Naming the first bad field (e.g. ``X["1000"].boxes[3].beads``).
    """
    open_agent_document(doc, CHECKPOINT_FORMAT, CHECKPOINT_VERSION, what="checkpoints")
    out: dict[str, dict[int, Menace]] = {}
    for name, side in _SIDES.items():
        agents = doc[name]
        out[name] = {}
        for key, data in agents.items():
            if not re.fullmatch(r"[0-9]{1,12}", key):  # ASCII digits only: not "²"
                raise AgentFileError(f"{name}[{key!r}]: key must be a number of games")
            try:
                agent = Menace.from_dict(data)
            except AgentFileError as err:
                raise AgentFileError(f"{name}[{key!r}].{err}") from None
            if agent.config.player != side:
                raise AgentFileError(f"{name}[{key!r}].config.player: must be {name!r}")
            out[name][int(key)] = agent
    return out


def load_checkpoints(path: str | Path | None = None) -> dict[str, dict[int, Menace]]:
    """Read the checkpoint file: ``{"X": {25: Menace, ...}, "O": {...}}``.

    Parameters
    ----------
    path
        Defaults to the packaged ``menace_lib/data/checkpoints.json``.

    Raises
    ------
    AgentFileError
        If the file is missing, not JSON, or any field is wrong (the message
        names the field).
    """
    path = Path(path) if path is not None else DEFAULT_PATH
    return parse_checkpoints(read_json(path, "checkpoint file"))
