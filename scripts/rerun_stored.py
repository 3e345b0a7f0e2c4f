"""Rerun stored results of the book and compare them under the reproducibility contract.

Run it under numpy's baseline kernels to show that a processor difference cannot change a
game, a bead or a sampled outcome::

    NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4" python scripts/rerun_stored.py --json out.json

Every record of the thesis suite (``book/data/thesis_results.json``), the λ suite
(``lambda_results.json``) and the Part V sweeps (``beyond_*.json``) is run again from its
seed and compared with the file by :func:`menace_lib.base.reproducibility.same_numbers`:
integers to the bit, floats within the one documented tolerance. The report also counts
the floats that differ at all (the last-bit differences the tolerance exists for).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from menace_lib.base.reproducibility import differences, same_numbers
from menace_lib.book.beyond import sweeps
from menace_lib.experiments import SuiteResult
from menace_lib.experiments.results import rerun
from menace_lib.experiments.sweep import SweepResult, run_sweep

DATA = Path(__file__).resolve().parents[1] / "book" / "data"
SUITES = ("thesis_results.json", "lambda_results.json")
SWEEP_FILES = {
    "priors": "beyond_priors.json",
    "lambda-schedule": "beyond_lambda_schedule.json",
    "opponent-model": "beyond_opponent_model.json",
}


def floats(a: Any, b: Any) -> Iterator[tuple[float, float]]:
    """Every pair of floats found at the same place in ``a`` and ``b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a.keys() & b.keys():
            if k != "seconds":
                yield from floats(a[k], b[k])
    elif isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b, strict=False):
            yield from floats(x, y)
    elif isinstance(a, float) and isinstance(b, float):
        yield a, b


def tally(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Records compared, records breaking the contract, floats differing in any bit."""
    bad = [differences(a, b) for a, b in pairs if not same_numbers(a, b)]
    drift = [(x, y) for a, b in pairs for x, y in floats(a, b) if x != y]
    rel = max((abs(x - y) / max(abs(x), abs(y)) for x, y in drift if x or y), default=0.0)
    return {
        "records": len(pairs),
        "breaking_the_contract": len(bad),
        "examples": bad[:3],
        "floats_differing_in_any_bit": len(drift),
        "largest_relative_float_difference": rel,
    }


def suite_pairs(name: str, per_condition: int | None) -> list[tuple[Any, Any]]:
    stored = SuiteResult.load_json(DATA / name)
    keys = dict.fromkeys(r["key"] for r in stored.records)
    chosen = [r for k in keys for r in stored.records_for(k)[:per_condition]]
    return [(json.loads(json.dumps(rerun(r))), r) for r in chosen]


def sweep_pairs(name: str, seeds: int | None) -> list[tuple[Any, Any]]:
    cached = SweepResult.load_json(DATA / SWEEP_FILES[name])
    chosen = cached.config["seeds"][:seeds]
    again = run_sweep(sweeps()[name], chosen, options=cached.config["options"], jobs=1)
    fresh = json.loads(json.dumps(again.to_dict()))["records"]
    return [(r, cached.record(r["condition"], r["seed"])) for r in fresh]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-condition", type=int, default=None, help="records per suite row")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per sweep condition")
    parser.add_argument("--only", nargs="*", default=None, help="files or sweep names")
    parser.add_argument("--json", type=Path, default=None, help="write the report here")
    args = parser.parse_args(argv)
    report = {}
    for name in SUITES:
        if args.only is None or name in args.only:
            report[name] = tally(suite_pairs(name, args.per_condition))
            print(name, report[name], flush=True)
    for name in SWEEP_FILES:
        if args.only is None or name in args.only:
            report[name] = tally(sweep_pairs(name, args.seeds))
            print(name, report[name], flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))
    bad = sum(r["breaking_the_contract"] for r in report.values())
    return (
        1
        if bad
        or not all(math.isfinite(r["largest_relative_float_difference"]) for r in report.values())
        else 0
    )


if __name__ == "__main__":
    sys.exit(main())
