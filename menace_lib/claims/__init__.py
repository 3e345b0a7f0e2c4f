"""The claims ledger: every quantitative claim of the thesis's Chapters 4–10, checked.

==========================  =====================================================
:mod:`~.ledger`             :class:`Claim`, the criteria, verdicts
:mod:`~.catalogue`          the claims themselves (:data:`CLAIMS`)
:mod:`~.evidence`           what the measures read (:class:`Evidence`)
:mod:`~.findings`           the analyses shared by the ledger and the book
:mod:`~.stats`              the statistics (all from :mod:`scipy.stats`)
:mod:`~.seeds`              forty seeds of every table row
:mod:`~.dynamics`           coverage, KL, agreement, beads, Q over training
:mod:`~.regret`             a matchbox as a bandit over a long horizon
:mod:`~.cache`              the cached results in ``book/data`` and their producers
:mod:`~.render`             the ledger as an HTML table with a chapter filter
==========================  =====================================================

Quick start::

    from menace_lib.claims import Evidence, build_ledger, counts
    entries = build_ledger(Evidence())
    counts(entries)   # {'reproduced': ..., 'differs': ..., 'not reproducible': ..., ...}

The committed snapshot ``book/data/claims.json`` records every verdict and value;
:func:`compare_snapshot` lists the claims whose verdict or value moved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..experiments.results import dumps
from ..files import check_header, read_json, write_text
from .cache import DATA_DIR
from .catalogue import CHANCE_LINK, CLAIMS
from .evidence import Evidence
from .ledger import VERDICTS, Claim, Entry, Link, Measured, counts, evaluate

__all__ = [
    "CLAIMS",
    "SNAPSHOT",
    "VERDICTS",
    "Claim",
    "Entry",
    "Evidence",
    "Link",
    "Measured",
    "build_ledger",
    "compare_snapshot",
    "counts",
    "read_snapshot",
    "snapshot",
    "write_snapshot",
]

SNAPSHOT = "claims.json"
"""File name of the committed verdicts in the results folder."""


def build_ledger(
    evidence: Evidence | None = None, claims: list[Claim] | None = None
) -> list[Entry]:
    """Measure and judge every claim (default: :data:`CLAIMS` on this checkout's results)."""
    evidence = evidence or Evidence()
    return [evaluate(c, evidence, CHANCE_LINK) for c in (claims or CLAIMS)]


def snapshot(entries: list[Entry]) -> dict[str, Any]:
    """The JSON document that records every verdict and value."""
    return {
        "format": "menace_lib.claims.ledger",
        "version": 1,
        "counts": counts(entries),
        "claims": [e.summary() for e in entries],
    }


def write_snapshot(entries: list[Entry], data_dir: str | Path = DATA_DIR) -> Path:
    """Write :func:`snapshot` to ``data_dir/claims.json`` (after a deliberate change)."""
    text = dumps(snapshot(entries)).replace('},{"id"', '},\n{"id"') + "\n"
    return write_text(Path(data_dir) / SNAPSHOT, text)


def read_snapshot(data_dir: str | Path = DATA_DIR) -> dict[str, Any]:
    """The committed snapshot."""
    path = Path(data_dir) / SNAPSHOT
    doc = read_json(path, "claims snapshot")
    check_header(doc, "menace_lib.claims.ledger", 1, str(path))
    return doc


def compare_snapshot(entries: list[Entry], stored: dict[str, Any]) -> list[str]:
    """Differences between a freshly built ledger and a stored snapshot, one line each.

    Empty when every claim has the same verdict, value and note as stored.
    """
    old = {c["id"]: c for c in stored["claims"]}
    new = {e.claim.id: e.summary() for e in entries}
    out = [f"{i}: new claim" for i in new if i not in old]
    out += [f"{i}: claim removed" for i in old if i not in new]
    for i in new.keys() & old.keys():
        for field in ("verdict", "ours", "note", "section"):
            if new[i][field] != old[i][field]:
                out.append(f"{i}: {field} {old[i][field]!r} → {new[i][field]!r}")
    return sorted(out)


from ..lazy import submodule_getattr  # noqa: E402

# ml.claims.<module> after `import menace_lib as ml` (menace_lib.lazy).
__getattr__ = submodule_getattr(__name__, __path__)
