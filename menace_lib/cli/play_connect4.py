"""``python -m menace_lib play --game connect4:4x4``: Connect-4 at the terminal.

MENACE plays first (``X``) with one box per canonical position where it has a choice;
it is trained against the perfect player before the first game (:data:`TRAINING_GAMES`,
seeded) and keeps learning from every game you play. You play ``O`` and type a column
number; a full column or junk is asked for again. The game runs in the one terminal
runner (:mod:`.play_runner`); this module draws the board and names the columns.
"""

from __future__ import annotations

import numpy as np

from ..games.registry import game_tables
from ..machine.menace import Menace, MenaceConfig
from ..play.opponents import make_opponent
from .play_runner import Session

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


class ConnectFourView:
    """Connect-4 at the terminal: the board top row first, moves named by column.

    ``human`` is the side the person plays: 1 (``X``, moves first) or 2 (``O``, the
    default).
    """

    def __init__(self, game: str, human: int = 2) -> None:
        self.game = game
        self.side = _STONES[human]  # the person's stones: X or O

    def board(self, pid: int) -> str:
        return board_text(self.game, pid)

    def prompt(self, pid: int) -> str:
        width = game_tables(self.game).game.width
        return f"Your move ({self.side}), a column 1-{width} (q quits): "

    def parse(self, pid: int, text: str) -> tuple[int, str | None]:
        legal = game_tables(self.game).legal(pid)
        if text.isascii() and text.isdigit() and len(text) <= 2 and int(text) - 1 in legal:
            return int(text) - 1, None
        shown = repr(text) if len(text) <= 12 else repr(text[:9] + "...")
        return -1, f"{shown} is not a free column: choose one of {[m + 1 for m in legal]}."

    def hint(self) -> str:
        return "type a column number"

    def chances(self, name: str, pid: int, probabilities: np.ndarray) -> str:
        chances = ", ".join(f"{m + 1}: {p:.0%}" for m, p in enumerate(probabilities) if p > 0)
        return f"{name}'s chances by column: {chances}"

    def move_name(self, pid: int, move: int) -> str:
        return f"column {move + 1}"


def session(game: str) -> Session:
    """MENACE, trained against the perfect player, as X; you as O; it learns as you play."""
    print(f"Training MENACE for {game} ({TRAINING_GAMES:,} games against the perfect player)...")
    agent = Menace(MenaceConfig(game=game, filter="decision"))
    trainer = make_opponent("perfect", "uniform", game=game)
    agent.train_against(trainer, TRAINING_GAMES, np.random.default_rng(0), record=False)
    intro = "MENACE plays X and moves first; you play O. Stones drop to the lowest free cell"
    return Session(ConnectFourView(game), agent, "MENACE", 2, True, intro)


__all__ = ["ConnectFourView", "TRAINING_GAMES", "board_text", "session"]
