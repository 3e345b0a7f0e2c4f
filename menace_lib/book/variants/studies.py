"""The other-machines chapter's ten-seed studies, computed once and kept as JSON.

Two results of the chapter need ten training runs each: the pooled self-play learner's
exact outcomes at the blog's checkpoints (:func:`~menace_lib.play.selfplay.checkpoint_outcomes`)
and the with/without-symmetry comparison
(:func:`~menace_lib.agents.unsymmetrised.symmetry_comparison`). Together they take
about 15 s, too long for a page a reader runs cell by cell, so they are stored in
``book/data/other_machines.json`` (written by ``scripts/make_variant_studies.py``) and
the page recomputes one seed live to show that the file is what the library computes.

:func:`load_studies` returns both in exactly the shapes the live functions return.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...agents.unsymmetrised import symmetry_comparison
from ...base.files import AgentFileError, check_header, read_json, write_json
from ...play.selfplay import checkpoint_outcomes

__all__ = ["FORMAT", "VERSION", "compute_studies", "load_studies", "save_studies"]

FORMAT = "menace-variant-studies"
VERSION = 1


def compute_studies(seeds: Sequence[int] = range(10)) -> dict[str, Any]:
    """Both studies for ``seeds``: ``{"seeds", "checkpoint_outcomes", "symmetry"}``."""
    seeds = [int(s) for s in seeds]
    if not seeds or any(s < 0 for s in seeds):
        raise ValueError(f"seeds must be a non-empty list of integers >= 0, got {seeds!r}")
    return {
        "seeds": seeds,
        "checkpoint_outcomes": checkpoint_outcomes(seeds=seeds),
        "symmetry": symmetry_comparison(seeds=seeds),
    }


def _to_json(studies: dict[str, Any]) -> dict[str, Any]:
    symmetry = studies["symmetry"]
    return {
        "format": FORMAT,
        "version": VERSION,
        "seeds": list(studies["seeds"]),
        "checkpoint_outcomes": {str(c): v for c, v in studies["checkpoint_outcomes"].items()},
        "symmetry": {
            "checkpoints": list(symmetry["checkpoints"]),
            "curves": {k: np.asarray(v).tolist() for k, v in symmetry["curves"].items()},
            "games_to": {
                name: {repr(float(t)): games for t, games in by_t.items()}
                for name, by_t in symmetry["games_to"].items()
            },
            "opponent": symmetry["opponent"],
        },
    }


def save_studies(studies: dict[str, Any], path: str | Path) -> Path:
    """Write :func:`compute_studies`' result as JSON (stable key order, one file)."""
    return write_json(path, _to_json(studies), indent=1)


def load_studies(path: str | Path) -> dict[str, Any]:
    """Read a studies file back into the live functions' shapes.

    Raises
    ------
    AgentFileError
        If the file cannot be read, is not JSON, or is not this format and version.
    """
    doc = read_json(path, "studies file")
    check_header(doc, FORMAT, VERSION, f"{path}")
    try:
        symmetry = doc["symmetry"]
        return {
            "seeds": [int(s) for s in doc["seeds"]],
            "checkpoint_outcomes": {int(c): list(v) for c, v in doc["checkpoint_outcomes"].items()},
            "symmetry": {
                "checkpoints": [int(c) for c in symmetry["checkpoints"]],
                "curves": {k: np.asarray(v, dtype=float) for k, v in symmetry["curves"].items()},
                "games_to": {
                    name: {float(t): games for t, games in by_t.items()}
                    for name, by_t in symmetry["games_to"].items()
                },
                "opponent": symmetry["opponent"],
            },
        }
    except (KeyError, TypeError, ValueError) as err:
        raise AgentFileError(f"{path}: malformed studies file ({err!r})") from None
