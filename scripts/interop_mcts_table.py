"""Write book/data/interop_mcts.json and its table in book/interop.md.

OpenSpiel's ``MCTSBot`` (OpenSpiel's example settings) at a few simulation budgets, and
MENACE after a few counts of training games, each scored exactly against the perfect player
(ties broken uniformly) by the library, as the first player of noughts and crosses and of
Connect-4 on 4×4 (:mod:`menace_lib.interop.mcts`). Needs ``menace_lib[openspiel]``; a few
minutes.

    python scripts/interop_mcts_table.py            # recompute, rewrite both
    python scripts/interop_mcts_table.py --check    # exit 1 if the page's table is out of date
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data" / "interop_mcts.json"
PAGE = ROOT / "book" / "interop.md"
sys.path.insert(0, str(ROOT))

GAMES = {"noughts-and-crosses": "Noughts and crosses", "connect4:4x4": "Connect-4, 4×4"}
BUDGETS = (10, 100, 1000)
SEEDS = (0, 1, 2, 3, 4)
MENACE_GAMES = (0, 100, 1000, 10000)
BEGIN, END = "<!-- mcts table: begin -->", "<!-- mcts table: end -->"


def compute() -> dict:
    from menace_lib.interop.mcts import mcts_table

    rows = {g: mcts_table(g, BUDGETS, seeds=SEEDS, menace_games=MENACE_GAMES) for g in GAMES}
    return {
        "format": "menace_lib.interop_mcts",
        "version": 1,
        "opponent": "perfect(uniform)",
        "side": "first player",
        "seeds": list(SEEDS),
        "rows": rows,
    }


def table(data: dict) -> str:
    lines = [
        "| Game | Player | Budget | Win | Draw | Loss |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for game, rows in data["rows"].items():
        for r in rows:
            what = "simulations" if r["player"] == "MCTSBot" else "training games"
            lines.append(
                f"| {GAMES[game]} | {r['player']} | {r['budget']:,} {what} | "
                f"{r['win']:.3f} | {r['draw']:.3f} | {r['loss']:.3f} |"
            )
    return "\n".join(lines)


def page_with(text: str, data: dict) -> str:
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table(data)}\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    if "--check" in argv:
        data = json.loads(DATA.read_text(encoding="utf-8"))
        return 0 if page_with(text, data) == text else 1
    data = compute()
    DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    PAGE.write_text(page_with(text, data), encoding="utf-8")
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
