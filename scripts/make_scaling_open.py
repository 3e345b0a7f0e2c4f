"""Regenerate book/data/beyond_scaling_open.json: MENACE on boards too big to tabulate.

python scripts/make_scaling_open.py [--games 20000] [--every 2000] [--eval-games 400]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from menace_lib.base.files import write_json
from menace_lib.book.beyond.scaling import open_growth_all

OUT = Path(__file__).resolve().parents[1] / "book" / "data" / "beyond_scaling_open.json"

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=2_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--output", type=Path, default=OUT)
    args = parser.parse_args()
    write_json(args.output, open_growth_all(args.games, args.every, args.eval_games))
