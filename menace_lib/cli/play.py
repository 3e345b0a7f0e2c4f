"""``python -m menace_lib play``: play noughts and crosses against MENACE in the terminal.

The opponent is one of the book's shipped checkpoints (a number: MENACE after 25,
100, 1,000 or 5,000 training games, see :mod:`menace_lib.checkpoints`; the default
is 5,000) or any saved agent file (anything else; write ``./25`` for a file named
``25``). MENACE never learns here. Squares are numbered 1-9, left to right and top
to bottom. Before each of its moves MENACE shows the chance it gives every empty
square -- its bead proportions, as in the book's play widget. A move that is not a
number from 1 to 9 naming an empty square is asked for again; at the end of the
input, or on ``q`` or ``quit``, the command stops at once (exit 0).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..board import O, X
from ..limits import MAX_SEED
from .arguments import count, seed
from .game_option import add_game_option, refuse_for_game
from .terminal_input import (  # noqa: F401 (EndOfInputError, QUIT: names of this command)
    MAX_LINE,
    QUIT,
    EndOfInputError,
    QuitRequestedError,
    read_line,
)

EXAMPLES = """\
python -m menace_lib play
python -m menace_lib play 100 --side X --games 3
python -m menace_lib play agent.json --seed 7"""
DEFAULT_CHECKPOINT = 5000
MAX_PLAY_GAMES = 1000
_SYMBOL = {0: " ", X: "X", O: "O"}


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p, connect4=True)
    p.add_argument(
        "agent",
        nargs="?",
        default=str(DEFAULT_CHECKPOINT),
        metavar="CHECKPOINT|FILE",
        help="a shipped checkpoint by its training games (25, 100, 1000 or 5000; "
        f"default {DEFAULT_CHECKPOINT}) or a saved agent file",
    )
    p.add_argument(
        "--side",
        choices=["X", "O"],
        help="the side you play; X moves first (default O against a checkpoint, so MENACE "
        "opens as in Michie's games; against a file, the side its agent does not play)",
    )
    p.add_argument("--seed", type=seed, help="seed for MENACE's draws (default: a fresh one)")
    p.add_argument(
        "--games", type=count(MAX_PLAY_GAMES, 1), default=1, help="games to play (default 1)"
    )


@dataclass
class Opponent:
    """MENACE as a player that shows its move probabilities before it moves."""

    agent: Any
    name: str

    def __post_init__(self) -> None:
        self.policy = self.agent.policy_matrix()  # the agent is frozen: computed once

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, Any]:
        from ..statespace import tables

        board = tables().board(pid)
        if self.policy.resign_rows[pid]:
            print(f"{self.name}'s box for this position is empty: it resigns.")
        else:
            print(f"{self.name}'s chances for each square:")
            print(probability_grid(board, self.policy.probabilities[pid]))
        square, record = self.agent.act(pid, rng)
        if square >= 0:
            print(f"{self.name} plays {square + 1}.\n")
        return square, record


@dataclass
class Human:
    """The person at the keyboard: asked for a square until they name a legal one."""

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        from ..statespace import tables

        board = tables().board(pid)
        print(board_grid(board))
        while True:
            square, problem = read_square(board)
            if problem is None:
                return square, None
            print(problem)


def read_square(board: tuple[int, ...]) -> tuple[int, str | None]:
    """One line of input as a square index 0-8, or a reason to ask again.

    At most :data:`MAX_LINE` characters of a line are kept (the rest is read and
    dropped) and at most 20 are ever echoed, so a huge piped line costs neither
    memory nor output; a long run of digits is asked again, not parsed.
    """
    print(f"Your move ({'XO'[_to_move(board) - 1]}), a square 1-9 (q quits): ", end="", flush=True)
    text, too_long = read_line()
    if too_long:
        return -1, f"That line is over {MAX_LINE} characters: type a number from 1 to 9."
    if not (text.isascii() and text.isdigit() and len(text) <= 3) or not 1 <= int(text) <= 9:
        return -1, f"{_short(text)} is not a square: type a number from 1 to 9."
    square = int(text) - 1
    if board[square] != 0:
        return -1, f"Square {text} is taken; choose an empty one."
    return square, None


def _short(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 20 else shown[:16] + "...'"


def _to_move(board: tuple[int, ...]) -> int:
    return X if board.count(X) == board.count(O) else O


def board_grid(board: tuple[int, ...]) -> str:
    """The board with its pieces, and the number of each empty square."""
    cells = [_SYMBOL[v] if v else str(i + 1) for i, v in enumerate(board)]
    rows = [" " + " | ".join(cells[r : r + 3]) for r in (0, 3, 6)]
    return "\n---+---+---\n".join(rows)


def probability_grid(board: tuple[int, ...], probabilities: np.ndarray) -> str:
    """Per square: its piece, or the chance MENACE plays there (as a percentage)."""
    cells = [f"{_SYMBOL[v]:^5}" if v else f"{probabilities[i]:>4.0%} " for i, v in enumerate(board)]
    return "\n".join("  " + " ".join(cells[r : r + 3]) for r in (0, 3, 6))


def _percent(p: float) -> str:
    """A chance as a 5-character cell: ``" 41% "``, or ``" <1% "`` for a small nonzero one."""
    return " <1% " if 0 < p < 0.005 else f"{p:>4.0%} "


def load_opponent(text: str, side: str | None) -> tuple[Any, int]:
    """MENACE from a checkpoint number or a file, and the side the human plays."""
    if text.isascii() and text.isdigit():
        return _checkpoint(int(text), side)
    from ..agents import load_agent

    agent = load_agent(text)
    human = O if agent.player == X else X
    if side is not None and "XO"[human - 1] != side:
        raise ValueError(
            f"the agent in {text} plays {side}: leave out --side, or choose {'XO'[human - 1]}"
        )
    return agent, human


def _checkpoint(games: int, side: str | None) -> tuple[Any, int]:
    from ..checkpoints import checkpoint_games, load_checkpoints

    if games not in checkpoint_games():
        raise ValueError(f"no checkpoint after {games} games; choose one of {checkpoint_games()}")
    human = X if side == "X" else O
    menace_side = "O" if human == X else "X"
    return load_checkpoints()[menace_side][games], human


def run(args: argparse.Namespace) -> int:
    if args.game.startswith("connect4:"):
        refuse_for_game(
            args,
            ("noughts-and-crosses",),
            **{"CHECKPOINT|FILE": args.agent != str(DEFAULT_CHECKPOINT), "--side": args.side},
        )
        from .play_connect4 import run as play_connect4

        return play_connect4(args)
    if args.game == "hexapawn":
        refuse_for_game(
            args,
            ("noughts-and-crosses",),
            **{"CHECKPOINT|FILE": args.agent != str(DEFAULT_CHECKPOINT), "--side": args.side},
        )
        from .play_hexapawn import run as play_her

        return play_her(args)
    from ..games import play_game

    agent, human = load_opponent(args.agent, args.side)
    menace = Opponent(agent.frozen_copy(), "MENACE")
    chosen = (
        args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % MAX_SEED)
    )
    rng = np.random.default_rng(chosen)
    print(f"You play {'XO'[human - 1]}; MENACE plays {'XO'[2 - human]} (seed {chosen}).\n")
    tally = [0, 0, 0]
    players = (Human(), menace) if human == X else (menace, Human())
    try:
        for g in range(args.games):
            if args.games > 1:
                print(f"Game {g + 1} of {args.games}")
            game = play_game(*players, rng)
            if game.stopped:  # MENACE stopped at an empty opening box (empty_box "stop"/"web")
                print("MENACE's opening box is empty and it stops: no game.")
                break
            tally[game.result(human)] += 1
            _announce(game, human)
    except QuitRequestedError:
        print("Goodbye.")
    except EndOfInputError:
        print("\nInput ended; goodbye.")
    if args.games > 1:
        print(f"You won {tally[0]}, drew {tally[1]}, lost {tally[2]}.")
    return 0


def _announce(game, human: int) -> None:
    from ..statespace import tables

    print(board_grid(tables().board(game.final)))
    result = game.result(human)
    print(("You win!", "A draw.", "MENACE wins.")[result] + "\n")
