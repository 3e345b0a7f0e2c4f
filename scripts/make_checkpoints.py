"""Write the play widget's frozen MENACE checkpoints.

Usage: ``python scripts/make_checkpoints.py --seed 0 [--output PATH]``

Trains the pooled self-play learners described in :mod:`menace_lib.play.checkpoints`
and writes ``menace_lib/data/checkpoints.json``. The same seed always produces
the same file byte for byte.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# Run from a checkout without installing: the repository root holds menace_lib.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from menace_lib.play.checkpoints import DEFAULT_PATH, write_checkpoints  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--output", default=str(DEFAULT_PATH), help="where to write the JSON")
    args = parser.parse_args(argv)
    if args.seed < 0:
        print(f"error: --seed must be ≥ 0, got {args.seed}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    path = write_checkpoints(args.seed, args.output)
    print(f"wrote {path} in {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
