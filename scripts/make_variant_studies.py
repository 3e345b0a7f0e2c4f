"""Write the other-machines chapter's ten-seed studies to ``book/data/other_machines.json``.

Usage: ``python scripts/make_variant_studies.py [--seeds 10] [--output PATH]``

See :mod:`menace_lib.book.variants.studies`. The same seeds always give the same file; re-run
this after a library change that moves the pooled self-play or symmetry numbers (the test
``tests/test_variant_studies.py`` fails when the file is out of date).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing: the repository root holds menace_lib.
sys.path.insert(0, str(ROOT))

from menace_lib.book.variants.studies import compute_studies, save_studies  # noqa: E402

DEFAULT_OUTPUT = ROOT / "book" / "data" / "other_machines.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 (default 10)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="where to write the JSON")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        print(f"error: --seeds must be ≥ 1, got {args.seeds}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    path = save_studies(compute_studies(range(args.seeds)), args.output)
    print(f"wrote {path} in {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
