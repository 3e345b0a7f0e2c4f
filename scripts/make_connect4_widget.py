"""Regenerate menace_lib/data/connect4_4x4.json: the Connect-4 widget's trained MENACE.

python scripts/make_connect4_widget.py [--games 20000] [--seed 0] [--output PATH]

MENACE plays first on 4 columns × 4 rows and trains against the perfect player (random
tie-breaks), seeded; only the boxes whose beads training changed are written
(menace_lib.widgets.connect4_data). Takes a few seconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from menace_lib.base.files import write_json
from menace_lib.widgets.connect4_data import DATA_FILE, TRAINING, build_data

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TRAINING["games"])
    parser.add_argument("--seed", type=int, default=TRAINING["seed"])
    parser.add_argument("--output", type=Path, default=DATA_FILE)
    args = parser.parse_args()
    data = build_data(args.games, args.seed)
    write_json(args.output, data, separators=(",", ":"))
    size = args.output.stat().st_size
    print(f"{args.output}: {len(data['codes']):,} boxes changed, {size:,} bytes")
