"""``python -m menace_lib states``: golden facts of the enumerated game."""

from __future__ import annotations

import argparse

from ..games import statespace
from .arguments import add_json_option
from .game_option import add_game_option
from .output import emit_json

EXAMPLES = """\
python -m menace_lib states
python -m menace_lib states --json
python -m menace_lib states --json states.json"""


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p, connect4=True)
    add_json_option(p, "the facts")


def run(args: argparse.Namespace) -> int:
    if args.game != "noughts-and-crosses":
        return _other_game(args)

    summary = statespace.summary()
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


def game_summary(name: str) -> dict:
    """The golden facts of any game of the registry (positions, boxes per side, value)."""
    import numpy as np

    from ..games.registry import game_tables

    T = game_tables(name)
    out: dict = {
        "game": name,
        "positions": T.n_positions,
        "canonical_positions": len(T.canonical_ids),
        "value_of_start_for_first_player": int(T.value[0]),
    }
    for player, side in ((1, "first_player"), (2, "second_player")):
        raw = np.flatnonzero((T.outcome == 0) & (T.player == player))
        out[side] = {
            "positions_to_move": len(raw),
            "boxes": len(T.matchbox_states("all", player)),
            "boxes_with_a_choice": len(T.matchbox_states("decision", player)),
        }
    if name == "hexapawn":
        from ..games.hexapawn import gardner_boxes

        out["gardner_boxes_by_move"] = {str(k): v for k, v in gardner_boxes(T).items()}
    return out


def _other_game(args: argparse.Namespace) -> int:
    summary = game_summary(args.game)
    if emit_json(args.json, summary):
        return 0
    rows = [
        ("legal positions", summary["positions"]),
        ("canonical positions", summary["canonical_positions"]),
        ("value of the start (first player)", summary["value_of_start_for_first_player"]),
    ]
    for side in ("first_player", "second_player"):
        s = summary[side]
        label = side.replace("_", " ")
        rows.append(
            (
                f"{label}: to move / boxes / with a choice",
                f"{s['positions_to_move']} / {s['boxes']} / {s['boxes_with_a_choice']}",
            )
        )
    if "gardner_boxes_by_move" in summary:
        g = summary["gardner_boxes_by_move"]
        rows.append(("Gardner's boxes (moves 2/4/6)", " + ".join(str(v) for v in g.values())))
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>}")
    return 0
