"""``python -m menace_lib play --game hexapawn``: play Hexapawn against HER, which learns.

You play White and move first; HER plays Black with Gardner's 19 boxes and learns by
his rule after every game (a loss takes away the bead of its last move). A move is
typed as two squares, ``b1-b2`` or ``b1b2`` (``a2xb3`` for a capture also works); a
move that is not legal is asked for again. The game runs in the one terminal runner
(:mod:`.play_runner`); this module draws the board and names the moves.
"""

from __future__ import annotations

import numpy as np

from ..agents.her import her
from ..games.hexapawn import HEXAPAWN
from ..games.registry import game_tables
from .play_runner import Session

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


def _legal_names(pid: int) -> list[str]:
    T = game_tables("hexapawn")
    return sorted(HEXAPAWN.move_name(T.position(pid), m) for m in T.legal(pid))


class HexapawnView:
    """Hexapawn at the terminal: ranks 3 to 1, files a-c, moves named ``b1-b2``.

    ``human`` is the side the person plays: 1 (White, the default) or 2 (Black).
    """

    game = "hexapawn"

    def __init__(self, human: int = 1) -> None:
        self.side = ("White", "Black")[human - 1]

    def board(self, pid: int) -> str:
        return board_text(game_tables(self.game).cells[pid])

    def prompt(self, pid: int) -> str:
        return f"Your move ({self.side}), e.g. {_legal_names(pid)[0]}: "

    def parse(self, pid: int, text: str) -> tuple[int, str | None]:
        moves = _moves_by_name(pid)
        if text.lower() in moves:
            return moves[text.lower()], None
        legal = ", ".join(_legal_names(pid))
        return -1, f"{text.lower()[:20]!r} is not a legal move here; legal: {legal}."

    def hint(self) -> str:
        return "type a move such as b1-b2"

    def chances(self, name: str, pid: int, probabilities: np.ndarray) -> str:
        pos = game_tables(self.game).position(pid)
        moves = [m for m, p in enumerate(probabilities) if p > 0]
        shown = (f"{HEXAPAWN.move_name(pos, m)} {probabilities[m]:.0%}" for m in moves)
        return f"{name}'s chances: " + ", ".join(shown)

    def move_name(self, pid: int, move: int) -> str:
        return HEXAPAWN.move_name(game_tables(self.game).position(pid), move)


def session(game: str = "hexapawn") -> Session:
    """You as White; HER as Black with Gardner's boxes and rule, learning as you play."""
    agent = her("gardner")
    intro = "You play White (W) and move first; HER plays Black (B) and learns"

    def beads_left() -> str:
        return f"HER has {agent.total_beads():g} of its 47 beads left."

    return Session(HexapawnView(), agent, "HER", 1, True, intro, beads_left)


__all__ = ["HexapawnView", "board_text", "session"]
