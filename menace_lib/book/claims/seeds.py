"""Forty seeds of every row: enough to say how likely the thesis's ten were.

Ten seeds cannot tell a real difference from luck on a bimodal row: a tabular RL
agent either learns to hold the perfect player or collapses, and a no-restock
MENACE either empties a matchbox or does not. :func:`many_seeds` runs the whole
suite with seeds ``0 .. n-1`` under the suite's protocol (so seeds 0-9 are exactly
the stored runs) and keeps, per row and seed, only what the ledger needs.
"""

from __future__ import annotations

from typing import Any

from ...experiments import THESIS_SUITE, Condition, Protocol, run_suite

__all__ = ["SEED_FIELDS", "many_seeds", "row_values"]

SEED_FIELDS = ("val_draw", "exact_draw", "train_draw", "stopped", "resigned_games")
"""Per-seed fields kept from each record."""


def many_seeds(
    seeds: int = 40,
    conditions: list[Condition] | None = None,
    protocol: Protocol | None = None,
    n_jobs: int = -1,
) -> dict[str, Any]:
    """Run ``conditions`` (default: the whole suite) with ``seeds`` seeds; a JSON-ready document."""
    conditions = list(conditions or THESIS_SUITE)
    protocol = protocol or Protocol()
    result = run_suite(conditions, seeds=seeds, protocol=protocol, n_jobs=n_jobs, cache=False)
    rows = {}
    for c in conditions:
        records = result.records_for(c.key)
        rows[c.key] = {
            "seeds": [r["seed"] for r in records],
            **{f: [r[f] for r in records] for f in SEED_FIELDS},
        }
    return {
        "format": "menace_lib.claims.seeds",
        "version": 1,
        "seeds": seeds,
        "protocol": protocol.to_dict(),
        "rows": rows,
    }


def row_values(doc: dict[str, Any], key: str, field: str, *, drop_stopped: bool = False) -> list:
    """One field of one row across seeds; ``drop_stopped`` leaves out seeds that stopped.

    Raises
    ------
    KeyError
        For a row or field the document lacks.
    """
    if key not in doc["rows"]:
        raise KeyError(f"no row {key!r} in the many-seed results")
    row = doc["rows"][key]
    if field not in row:
        raise KeyError(f"no field {field!r}; fields are {sorted(row)}")
    keep = [not (drop_stopped and s) for s in row["stopped"]]
    return [v for v, k in zip(row[field], keep, strict=True) if k]
