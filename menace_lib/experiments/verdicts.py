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
                      outside count quoted (no data of ours decides it);
``consistent``        a time or a memory size measured on this machine, of the same order
                      as the thesis's (within a factor of 3 either way, or under its bound):
                      another machine and another code, so not a reproduction;
``new``               the thesis asks a question and leaves it open; the book answers it
                      with its own runs, so there is nothing of the thesis's to reproduce.

A timing claim more than 3 times *under* the thesis's figure is ``faster``: it does not
agree, and it does not contradict anything either. Any other claim whose criterion fails is
``differs`` (explained), ``not reproducible`` (with the reason) or ``unexplained`` (the
ledger's test fails on it).

Several table rows can be one and the same run (Michie's MENACE is a row of Tables 9.1,
9.3 and 9.4): a claim that repeats another's run says so (``repeats``), and
``distinct reproductions`` counts such a run once.
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
    "is_historical",
    "row_verdicts",
    "verdict_counts",
    "verdict_of",
]

KINDS = {
    "empirical": "reproduced",
    "computed": "recomputed",
    "construction": "by construction",
    "restatement": "restated",
    "timing": "consistent",
    "answer": "new",
}
"""A claim's kind -> its verdict when its criterion holds."""

HOLDING = tuple(KINDS.values())
"""The verdicts of a claim whose criterion holds."""

AGREEING = tuple(v for v in HOLDING if v != "new")
"""The verdicts that agree with the thesis; only the first is an empirical reproduction
(an answer to an open question agrees with nothing: the thesis gives no value)."""

VERDICTS = (*HOLDING, "faster", "differs", "not reproducible", "unexplained")
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


def is_historical(claim: dict[str, Any]) -> bool:
    """Whether a snapshot claim is one of the historical record's (section ``H.n``: Michie,
    Gardner, Scroggs), not the thesis's: it has a verdict, but never agrees *with the
    thesis*."""
    return str(claim.get("section", "")).startswith("H.")


def verdict_counts(
    verdicts: list[str] | tuple[str, ...],
    repeats: list[bool] | tuple[bool, ...] = (),
    historical: list[bool] | tuple[bool, ...] = (),
) -> dict[str, int]:
    """Number of claims per verdict, in :data:`VERDICTS` order, with totals: ``agrees``
    (the thesis's claims with a verdict of :data:`AGREEING`), ``distinct reproductions``
    (the thesis's ``reproduced`` claims less those whose run another reproduced claim already
    counts: ``repeats[i]`` true), ``thesis`` and ``historical`` (``historical[i]`` true:
    claim ``i`` is the historical record's)."""
    out = {v: sum(x == v for x in verdicts) for v in VERDICTS}
    repeats = tuple(repeats) or (False,) * len(verdicts)
    historical = tuple(historical) or (False,) * len(verdicts)
    if not len(repeats) == len(historical) == len(verdicts):
        raise ValueError(
            f"{len(repeats)} repeat and {len(historical)} history flags for "
            f"{len(verdicts)} verdicts"
        )
    rows = list(zip(verdicts, repeats, historical, strict=True))
    out["agrees"] = sum(v in AGREEING and not h for v, _, h in rows)
    out["distinct reproductions"] = sum(v == "reproduced" and not r and not h for v, r, h in rows)
    out["historical"] = sum(historical)
    out["thesis"] = len(verdicts) - out["historical"]
    return out
