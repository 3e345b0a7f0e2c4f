"""Rerun the book's stored results with whichever menace_lib this Python imports.

For another interpreter or an installed wheel: run it from outside the repository with that
interpreter, giving the book's data folder::

    /path/to/python3.10 scripts/golden_subset.py --data book/data

It reruns one stored record of every condition of the thesis suite and of the λ suite (every
agent kind: MENACE, the AIF agents, Q-learning and SARSA), compares each with the stored one
through the reproducibility contract (``ml.same_numbers``: integers to the bit, floats within
its one tolerance), and prints one JSON document: the interpreter, numpy's version, where
menace_lib was imported from, the number of records rerun and the keys of those that differ.
Exit status 1 if any differs. It uses only the library and the standard library.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

SUITES = ("thesis_results.json", "lambda_results.json")


def rerun_suites(data: Path) -> tuple[int, list[str]]:
    """Rerun the first stored record of each condition; (records rerun, keys that differ)."""
    import menace_lib as ml
    from menace_lib.experiments import SuiteResult
    from menace_lib.experiments.results import rerun

    count, differ = 0, []
    for name in SUITES:
        suite = SuiteResult.load_json(data / name)
        keys = dict.fromkeys(r["key"] for r in json.loads((data / name).read_text())["records"])
        for key in keys:
            record = suite.records_for(key)[0]
            again = json.loads(json.dumps(rerun(record)))
            count += 1
            if not ml.same_numbers(again, record):
                differ.append(f"{name}: {key}")
    return count, differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="the book's data folder")
    args = parser.parse_args(argv)
    missing = [name for name in SUITES if not (args.data / name).is_file()]
    if missing:
        print(f"error: no {', '.join(missing)} in {args.data}", file=sys.stderr)
        return 2
    import numpy

    import menace_lib

    count, differ = rerun_suites(args.data)
    report = {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "menace_lib": str(Path(menace_lib.__file__).parent),
        "records": count,
        "differ": differ,
    }
    print(json.dumps(report))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
