"""``python -m menace_lib play --game hexapawn``: play Hexapawn against HER, which learns.

You play White and move first; HER plays Black with Gardner's 19 boxes and learns by
his rule after every game (a loss takes away the bead of its last move). A move is
typed as two squares, ``b1-b2`` or ``b1b2`` (``a2xb3`` for a capture also works); a
move that is not legal is asked for again, and ``q``, ``quit`` or the end of the input
stops the command (exit 0); lines are read as :mod:`~menace_lib.cli.terminal_input` says.
Before each of its moves HER shows the chance of each of its moves.
"""

from __future__ import annotations

import argparse

import numpy as np

from ..game_registry import game_tables
from ..her import her
from ..hexapawn import HEXAPAWN
from .terminal_input import EndOfInputError, read_line

_PIECES = {0: ".", 1: "W", 2: "B"}


def board_text(cells) -> str:
    """The board with ranks 3 (top) to 1 and files a-c."""
    rows = [
        f" {3 - r} " + " ".join(_PIECES[int(cells[3 * r + c])] for c in range(3)) for r in range(3)
    ]
    return "\n".join([*rows, "   a b c"])


def _moves_by_name(pid: int) -> dict[str, int]:
    T = game_tables("hexapawn")
    pos = T.position(pid)
    out = {}
    for m in T.legal(pid):
        name = HEXAPAWN.move_name(pos, m)
        src, dst = name[:2], name[3:]
        for spelling in (name, src + dst, src + "-" + dst, src + "x" + dst, src + " " + dst):
            out[spelling] = m
    return out


class HumanWhite:
    """The person at the keyboard, asked for a move until they type a legal one."""

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        T = game_tables("hexapawn")
        print(board_text(T.cells[pid]))
        moves = _moves_by_name(pid)
        legal = sorted({HEXAPAWN.move_name(T.position(pid), m) for m in moves.values()})
        while True:
            print(f"Your move (White), e.g. {legal[0]}: ", end="", flush=True)
            text, too_long = read_line()
            text = text.lower()
            if not too_long and text in moves:
                return moves[text], None
            print(f"{text[:20]!r} is not a legal move here; legal: {', '.join(legal)}.")


class ShowingHer:
    """HER, printing its chances before each move, and learning after each game."""

    def __init__(self, agent) -> None:
        self.agent = agent

    def act(self, pid: int, rng: np.random.Generator):
        T = game_tables("hexapawn")
        pos = T.position(pid)
        dist = self.agent.move_distribution(pid)
        if dist:
            chances = ", ".join(f"{HEXAPAWN.move_name(pos, m)} {p:.0%}" for m, p in dist.items())
            print(f"HER's chances: {chances}")
        move, record = self.agent.act(pid, rng)
        if move >= 0:
            print(f"HER plays {HEXAPAWN.move_name(pos, move)}.\n")
        else:
            print("HER's box is empty: it resigns.")
        return move, record


def run(args: argparse.Namespace) -> int:
    from ..games import play_game

    agent = her("gardner")
    rng = np.random.default_rng(args.seed if args.seed is not None else None)
    players = (HumanWhite(), ShowingHer(agent))
    tally = [0, 0, 0]
    print("You play White (W) and move first; HER plays Black (B) and learns.\n")
    try:
        for g in range(args.games):
            if args.games > 1:
                print(f"Game {g + 1} of {args.games}")
            game = play_game(*players, rng, game="hexapawn")
            her_result = game.result(2)
            agent.end_game(game.records[1], her_result, game.final)
            print(board_text(game_tables("hexapawn").cells[game.final]))
            print(("HER wins.", "A draw.", "You win!")[her_result] + "\n")
            tally[her_result] += 1
    except EndOfInputError:
        print("\nInput ended; goodbye.")
    if args.games > 1:
        print(f"HER won {tally[0]} and lost {tally[2]}; beads left {agent.total_beads():g} of 47.")
    return 0


__all__ = ["HumanWhite", "ShowingHer", "board_text", "run"]
