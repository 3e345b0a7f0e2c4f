"""The claims ledger: every quantitative claim of the thesis's Chapters 4–10, checked.

==========================  =====================================================
:mod:`~.ledger`             :class:`Claim`, the criteria, verdicts
:mod:`~.catalogue`          the claims themselves (:data:`CLAIMS`), read from ``catalogue.json``
:mod:`~.measures`           the measures the claims name (a small registry of code)
:mod:`~.evidence`           what the measures read (:class:`Evidence`)
:mod:`~.findings`           the analyses shared by the ledger and the book
:mod:`~.stats`              the statistics (all from :mod:`scipy.stats`)
:mod:`~.seeds`              forty seeds of every table row
:mod:`~.dynamics`           coverage, KL, agreement, beads, Q over training
:mod:`~.regret`             a matchbox as a bandit over a long horizon
:mod:`~.cache`              the cached results in ``book/data`` and their producers
:mod:`~.render`             the ledger as an HTML table with a chapter filter
:mod:`~.prose`              the ledger's numbers in the book's sentences
==========================  =====================================================

Quick start::

    from menace_lib.book.claims import Evidence, build_ledger, counts
    entries = build_ledger(Evidence())
    counts(entries)   # {'reproduced': ..., 'recomputed': ..., 'differs': ..., 'agrees': ...}

The committed snapshot ``book/data/claims.json`` records every verdict and value;
:func:`compare_snapshot` lists the claims whose verdict or value moved.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ...base.files import check_header, read_json, write_text
from ...experiments.results import dumps
from ...experiments.verdicts import HOLDING
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
    "entries_from_snapshot",
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
        "version": 2,
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
    check_header(doc, "menace_lib.claims.ledger", 2, str(path))
    return doc


def entries_from_snapshot(stored: dict[str, Any], claims: list[Claim] | None = None) -> list[Entry]:
    """The ledger's entries as committed, without measuring anything (for the book's pages).

    Each claim of :data:`CLAIMS` is paired with its stored value, note, verdict and reason;
    ``tests/test_claims.py`` checks that the stored snapshot equals a fresh
    :func:`build_ledger`, so the two give the same page.

    Raises
    ------
    KeyError
        If a claim has no stored entry (the snapshot is out of date).
    """
    by_id = {c["id"]: c for c in stored["claims"]}
    out = []
    for claim in claims or CLAIMS:
        if claim.id not in by_id:
            raise KeyError(f"claim {claim.id!r} is not in the snapshot; write it again")
        c = by_id[claim.id]
        why_at = None
        if c["why"] and c["verdict"] == "differs":
            why_at = CHANCE_LINK if c["why"].startswith("a seed-to-seed") else claim.explained_at
        passed = c["verdict"] in HOLDING
        measured = Measured(None, c["ours"], c["note"])
        out.append(Entry(claim, measured, passed, c["verdict"], c["why"], why_at))
    return out


def compare_snapshot(entries: list[Entry], stored: dict[str, Any]) -> list[str]:
    """Differences between a freshly built ledger and a stored snapshot, one line each.

    Empty when every claim has the same verdict, value and note as stored.
    """
    old = {c["id"]: c for c in stored["claims"]}
    new = {e.claim.id: e.summary() for e in entries}
    out = [f"{i}: new claim" for i in new if i not in old]
    out += [f"{i}: claim removed" for i in old if i not in new]
    for i in new.keys() & old.keys():
        for field in ("verdict", "kind", "ours", "note", "section", "why"):
            if new[i][field] != old[i][field]:
                out.append(f"{i}: {field} {old[i][field]!r} → {new[i][field]!r}")
    return sorted(out)


_SUBMODULES = (
    "cache",
    "catalogue",
    "dynamics",
    "evidence",
    "figures",
    "findings",
    "ledger",
    "measures",
    "prose",
    "regret",
    "render",
    "seeds",
    "stats",
)


def __getattr__(name: str):
    """``ml.claims.<submodule>`` for the book: a submodule loaded on first use."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
