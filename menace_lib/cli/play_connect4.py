"""``python -m menace_lib play --game connect4:4x4``: play Connect-4 against MENACE.

MENACE plays first (``X``) with one box per canonical position where it has a choice;
it is trained against the perfect player before the first game (:data:`TRAINING_GAMES`,
seeded) and keeps learning from every game you play. You play ``O`` and type a column
number; a full column or junk is asked for again, and ``q``, ``quit`` or the end of the
input stops the command (exit 0). Before each move MENACE shows its chance for every
column.
"""

from __future__ import annotations

import argparse

import numpy as np

from ..game_registry import game_tables
from ..menace import Menace, MenaceConfig
from ..opponents import make_opponent
from .terminal_input import MAX_LINE, EndOfInputError, read_line

TRAINING_GAMES = 20_000
"""Games MENACE trains against the perfect player (random tie-breaks) before you play."""
_STONES = {0: ".", 1: "X", 2: "O"}


def board_text(game: str, pid: int) -> str:
    """The board, top row first, with the column numbers underneath."""
    T = game_tables(game)
    height, width = T.game.shape
    cells = T.cells[pid]
    rows = [
        " ".join(_STONES[int(cells[r * width + c])] for c in range(width)) for r in range(height)
    ]
    return "\n".join([*rows, " ".join(str(c + 1) for c in range(width))])


class Human:
    """The person at the keyboard: asked for a column until they name a playable one."""

    def __init__(self, game: str) -> None:
        self.game = game

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        T = game_tables(self.game)
        print(board_text(self.game, pid))
        legal = T.legal(pid)
        while True:
            print(f"Your move (O), a column 1-{T.game.width} (q quits): ", end="", flush=True)
            text, too_long = read_line()
            if too_long:
                print(f"That line is over {MAX_LINE} characters: type a column number.")
            elif text.isascii() and text.isdigit() and len(text) <= 2 and int(text) - 1 in legal:
                return int(text) - 1, None
            else:
                shown = repr(text) if len(text) <= 12 else repr(text[:9] + "...")
                print(f"{shown} is not a free column: choose one of {[m + 1 for m in legal]}.")


class ShowingMenace:
    """MENACE, printing its chance for each column before it moves."""

    def __init__(self, agent: Menace) -> None:
        self.agent = agent

    def act(self, pid: int, rng: np.random.Generator):
        P = self.agent.policy_matrix().probabilities[pid]
        chances = ", ".join(f"{m + 1}: {p:.0%}" for m, p in enumerate(P) if p > 0)
        print(f"MENACE's chances by column: {chances}")
        move, record = self.agent.act(pid, rng)
        if move >= 0:
            print(f"MENACE plays column {move + 1}.\n")
        else:
            print("MENACE's box is empty: it resigns.")
        return move, record


def run(args: argparse.Namespace) -> int:
    from ..games import play_game

    game = args.game
    print(f"Training MENACE for {game} ({TRAINING_GAMES:,} games against the perfect player)...")
    agent = Menace(MenaceConfig(game=game, filter="decision"))
    trainer = make_opponent("perfect", "uniform", game=game)
    agent.train_against(trainer, TRAINING_GAMES, np.random.default_rng(0), record=False)
    rng = np.random.default_rng(args.seed)
    players = (ShowingMenace(agent), Human(game))
    tally = [0, 0, 0]
    print("MENACE plays X and moves first; you play O. Stones drop to the lowest free cell.\n")
    try:
        for g in range(args.games):
            if args.games > 1:
                print(f"Game {g + 1} of {args.games}")
            played = play_game(*players, rng, game=game)
            result = played.result(1)
            agent.end_game(played.records[0], result, played.final)
            print(board_text(game, played.final))
            print(("MENACE wins.", "A draw.", "You win!")[result] + "\n")
            tally[result] += 1
    except EndOfInputError:
        print("\nGoodbye.")
    if args.games > 1:
        print(f"MENACE won {tally[0]}, drew {tally[1]} and lost {tally[2]}.")
    return 0


__all__ = ["Human", "ShowingMenace", "TRAINING_GAMES", "board_text", "run"]
