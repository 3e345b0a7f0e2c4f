"""``python -m menace_lib states``: golden facts of the enumerated game."""

from __future__ import annotations

import argparse

from .arguments import add_json_option
from .output import emit_json

EXAMPLES = """\
python -m menace_lib states
python -m menace_lib states --json
python -m menace_lib states --json states.json"""


def configure(p: argparse.ArgumentParser) -> None:
    add_json_option(p, "the facts")


def run(args: argparse.Namespace) -> int:
    from ..statespace import tables

    summary = tables().summary()
    if emit_json(args.json, summary):
        return 0
    rows = [
        ("legal positions", summary["positions"]),
        ("canonical positions", summary["canonical_positions"]),
        ("complete games", summary["games"]),
        (
            "  X wins / O wins / draws",
            f"{summary['x_wins']} / {summary['o_wins']} / {summary['draws']}",
        ),
        ("  by length 5..9", " / ".join(str(v) for v in summary["game_lengths"].values())),
        ("canonical trajectories", summary["canonical_trajectories"]),
        (
            "matchboxes all / decision / michie",
            " / ".join(str(v) for v in summary["matchboxes"].values()),
        ),
        ("double threats", len(summary["double_threats"])),
    ]
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>}")
    return 0
