"""``python -m menace_lib play``: play against MENACE in the terminal.

Every game runs in the one terminal runner (:mod:`.play_runner`); this module is the
command and noughts and crosses' view (the board and its squares). ``--game hexapawn``
(:mod:`.play_hexapawn`) and ``--game connect4:WxH`` (:mod:`.play_connect4`) bring their
own views and machines.

The opponent is one of the book's shipped checkpoints (a number: MENACE after 25,
100, 1,000 or 5,000 training games, see :mod:`menace_lib.play.checkpoints`; the default
is 5,000) or any saved agent file (anything else; write ``./25`` for a file named
``25``). MENACE never learns here. Squares are numbered 1-9, left to right and top
to bottom. Before each of its moves MENACE shows the chance it gives every empty
square -- its bead proportions, as in the book's play widget. A move that is not a
number from 1 to 9 naming an empty square is asked for again; at the end of the
input, or on ``q`` or ``quit``, the command stops at once (exit 0).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from ..base.limits import MAX_SEED
from ..games.board import O, X
from .arguments import count, input_file, seed
from .game_option import add_game_option, load_agent_for, refuse_for_game
from .terminal_input import (  # noqa: F401 (names of this command)
    MAX_LINE,
    QUIT,
    EndOfInputError,
    QuitRequestedError,
)

EXAMPLES = """\
python -m menace_lib play
python -m menace_lib play 100 --side X --games 3
python -m menace_lib play agent.json --seed 7"""
DEFAULT_CHECKPOINT = 5000
MAX_PLAY_GAMES = 1000
_SYMBOL = {0: " ", X: "X", O: "O"}


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p, connect4=True, from_file=True)
    p.add_argument(
        "agent",
        nargs="?",
        default=None,
        type=input_file("CHECKPOINT|FILE"),
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


class NoughtsView:
    """Noughts and crosses at the terminal: squares 1-9, left to right, top to bottom."""

    game = "noughts-and-crosses"

    def board(self, pid: int) -> str:
        return board_grid(_board(pid))

    def prompt(self, pid: int) -> str:
        return f"Your move ({'XO'[_to_move(_board(pid)) - 1]}), a square 1-9 (q quits): "

    def parse(self, pid: int, text: str) -> tuple[int, str | None]:
        return parse_square(_board(pid), text)

    def hint(self) -> str:
        return "type a number from 1 to 9"

    def chances(self, name: str, pid: int, probabilities: np.ndarray) -> str:
        return f"{name}'s chances for each square:\n" + probability_grid(_board(pid), probabilities)

    def move_name(self, pid: int, move: int) -> str:
        return str(move + 1)


def _board(pid: int) -> tuple[int, ...]:
    from ..games.statespace import tables

    return tables().position(pid)


def parse_square(board: tuple[int, ...], text: str) -> tuple[int, str | None]:
    """One line of input as a square index 0-8, or a reason to ask again.

    At most 20 characters of a line are ever echoed, and a long run of digits is
    asked again, not parsed.
    """
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


def load_opponent(text: str, side: str | None, agent: Any = None) -> tuple[Any, int]:
    """MENACE from a checkpoint number or a file (or its ``agent``, read already), and
    the side the human plays."""
    if agent is None and text.isascii() and text.isdigit():
        return _checkpoint(int(text), side)
    if agent is None:
        agent = load_agent_for(text, "noughts-and-crosses")
    human = O if agent.player == X else X
    if side is not None and "XO"[human - 1] != side:
        raise ValueError(
            f"the agent in {text} plays {side}: leave out --side, or choose {'XO'[human - 1]}"
        )
    return agent, human


def _checkpoint(games: int, side: str | None) -> tuple[Any, int]:
    from ..play.checkpoints import checkpoint_games, load_checkpoints

    if games not in checkpoint_games():
        raise ValueError(f"no checkpoint after {games} games; choose one of {checkpoint_games()}")
    human = X if side == "X" else O
    menace_side = "O" if human == X else "X"
    return load_checkpoints()[menace_side][games], human


def run(args: argparse.Namespace) -> int:
    from .play_runner import Session, run_session

    chosen = (
        args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % MAX_SEED)
    )
    text = args.agent
    checkpoint = text is None or (text.isascii() and text.isdigit())
    if checkpoint and args.game not in (None, "noughts-and-crosses"):
        if text is not None:
            raise ValueError(
                f"checkpoint {text} is a noughts-and-crosses MENACE, not --game {args.game}; "
                f"name an agent file of that game (write ./{text} for a file named {text})"
            )
        refuse_for_game(args, ("noughts-and-crosses",), **{"--side": args.side})
        return run_session(_game_session(args.game), args.games, chosen)
    loaded = None
    if not checkpoint:  # the file names its game, admitted before anything is built
        loaded = load_agent_for(text, args.game)
        args.game = getattr(loaded, "game", "noughts-and-crosses")
        if args.game != "noughts-and-crosses":
            refuse_for_game(args, ("noughts-and-crosses",), **{"--side": args.side})
            return run_session(_file_session(args.game, text, loaded), args.games, chosen)
    agent, human = load_opponent(text or str(DEFAULT_CHECKPOINT), args.side, loaded)
    intro = f"You play {'XO'[human - 1]}; MENACE plays {'XO'[2 - human]}"
    session = Session(NoughtsView(), agent.frozen_copy(), "MENACE", human, False, intro)
    return run_session(session, args.games, chosen)


def _file_session(game: str, path: str, agent: Any = None):
    """A saved agent of ``game`` (any kind ``train --game`` writes), not learning; you
    play the side it does not."""
    from ..agents.registry import agent_kinds
    from .play_connect4 import ConnectFourView
    from .play_hexapawn import HexapawnView
    from .play_runner import Session

    if agent is None:
        agent = load_agent_for(path, game)
    human = 3 - agent.player
    view = HexapawnView(human) if game == "hexapawn" else ConnectFourView(game, human)
    name = next(k.label for k in agent_kinds().values() if k.agent is type(agent))
    intro = f"You play {view.side}; {name} plays the other side"
    return Session(view, agent.frozen_copy(), name, human, False, intro)


def _game_session(game: str):
    """The session of a game other than noughts and crosses: its own module's."""
    if game == "hexapawn":
        from .play_hexapawn import session
    else:  # connect4:WxH (add_game_option offers no other game)
        from .play_connect4 import session
    return session(game)
