"""Regenerate book/data/beyond_scaling_aif.json: the Instrumental AIF agent on Connect-4 4×4.

python scripts/make_scaling_aif.py [--seeds 8] [--budget 300000]

Needs the compiled training to finish in minutes (pip install menace_lib[fast]).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from menace_lib.base.files import write_json
from menace_lib.book.beyond.scaling_aif import CACHE, aif_curves

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--budget", type=int, default=300_000)
    parser.add_argument("--output", type=Path, default=CACHE)
    args = parser.parse_args()
    write_json(args.output, aif_curves(args.seeds, args.budget))
