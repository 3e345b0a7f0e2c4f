"""The verdicts of the claims ledger: their names, and the committed verdict of every claim.

One owner decides whether the book agrees with a claim of the thesis: the claims
ledger (:mod:`menace_lib.book.claims`). Its committed snapshot (``book/data/claims.json``)
records every verdict; everything else that shows a verdict -- the key results, the
suite tables, the Discussion -- reads it here, and a test checks that no page says
otherwise. This module only reads that file, so any module may import it (the
ledger itself imports the experiments, which must not import the ledger).

Verdicts
--------
A claim whose criterion holds gets the verdict of its *kind*:

``reproduced``        an empirical result (training runs, seeds) that could have come
                      out otherwise and did not;
``recomputed``        an exact mathematical fact -- a count of the game, a formula, the
                      worked example -- recomputed to the printed digits;
``by construction``   our configuration or rule was set to the thesis's, so it agrees
                      by construction (a settings echo, a rule the code implements);
``restated``          numbers we did not produce: the thesis's own, re-derived, or an
                      outside count quoted (no data of ours decides it).

A claim whose criterion fails is ``differs`` (explained), ``not reproducible``
(with the reason) or ``unexplained`` (the ledger's test fails on it).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..base.files import book_data, check_header, read_json

__all__ = [
    "AGREEING",
    "DATA_DIR",
    "HOLDING",
    "KINDS",
    "SNAPSHOT",
    "VERDICTS",
    "committed",
    "row_verdicts",
    "verdict_counts",
    "verdict_of",
]

KINDS = {
    "empirical": "reproduced",
    "computed": "recomputed",
    "construction": "by construction",
    "restatement": "restated",
    "new": "new result",
}
"""A claim's kind -> its verdict when its criterion holds."""

HOLDING = tuple(KINDS.values())
"""The verdicts of a claim whose criterion holds."""

AGREEING = tuple(v for k, v in KINDS.items() if k != "new")
"""The verdicts of a thesis claim that agrees with it; only the first is an empirical
reproduction. A new result (a question the thesis left open) holds but agrees with nothing."""

VERDICTS = (*HOLDING, "differs", "not reproducible", "unexplained")
"""Every verdict, in display order; a finished ledger has none of the last."""

DATA_DIR = book_data()
"""The book's stored results (:func:`menace_lib.base.files.book_data`)."""

SNAPSHOT = "claims.json"
"""File name of the committed verdicts in the results folder."""


@cache
def _read(data_dir: str) -> dict[str, Any]:
    path = Path(data_dir) / SNAPSHOT
    doc = read_json(path, "claims snapshot")
    check_header(doc, "menace_lib.claims.ledger", 2, str(path))
    return doc


def committed(data_dir: str | Path = DATA_DIR) -> dict[str, dict[str, Any]]:
    """Every claim of the committed snapshot by id: ``verdict``, ``why``, ``ours``, ``row``...

    Raises
    ------
    ValueError
        If the snapshot is missing or not a version-2 ledger.
    """
    return {c["id"]: c for c in _read(str(Path(data_dir).resolve()))["claims"]}


def verdict_of(claim_id: str, data_dir: str | Path = DATA_DIR) -> str:
    """The committed verdict of one claim.

    Raises
    ------
    KeyError
        Naming the unknown claim id.
    """
    claims = committed(data_dir)
    if claim_id not in claims:
        raise KeyError(f"no claim {claim_id!r} in the ledger")
    return claims[claim_id]["verdict"]


def row_verdicts(data_dir: str | Path = DATA_DIR) -> dict[str, str]:
    """The committed verdict of every results-table row the ledger judges, by suite key."""
    return {c["row"]: c["verdict"] for c in committed(data_dir).values() if c.get("row")}


def verdict_counts(verdicts: list[str] | tuple[str, ...]) -> dict[str, int]:
    """Number of claims per verdict, in :data:`VERDICTS` order, with two totals:
    ``agrees`` (every verdict of :data:`AGREEING`) and ``reproduced`` alone stays the
    count of empirical reproductions."""
    out = {v: sum(x == v for x in verdicts) for v in VERDICTS}
    out["agrees"] = sum(out[v] for v in AGREEING)
    return out
