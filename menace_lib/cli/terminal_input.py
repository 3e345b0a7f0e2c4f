"""Reading a player's moves at the terminal: the rules every ``play`` game shares.

At most :data:`MAX_LINE` characters of a line are kept (the rest is read and dropped) and
at most 20 are ever echoed, so a huge piped line costs neither memory nor output; ``q``
or ``quit`` stops the session, as the end of the input does.
"""

from __future__ import annotations

import sys

QUIT = ("q", "quit")
"""What ends the session at a move prompt (as the end of the input does)."""
MAX_LINE = 100
"""The longest line of input ``play`` reads as a move (longer ones are asked again)."""


class EndOfInputError(Exception):
    """The player's input ended (Ctrl-D, or a pipe that ran dry)."""


class QuitRequestedError(EndOfInputError):
    """The player typed ``q`` or ``quit``."""


def read_line() -> tuple[str, bool]:
    """One line of the player's input, stripped, and whether it was over :data:`MAX_LINE`.

    Piped input is echoed (at most 20 characters), so the transcript reads as a game.

    Raises
    ------
    EndOfInputError
        At the end of the input.
    QuitRequestedError
        On ``q`` or ``quit``.
    """
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        raise EndOfInputError
    too_long = len(line) > MAX_LINE and not line.endswith("\n")
    if too_long:
        _skip_rest_of_line()
    text = line.strip()
    if not sys.stdin.isatty():
        print(printable(text if len(text) <= 20 else text[:17] + "..."))
    if text.lower() in QUIT:
        raise QuitRequestedError
    return text, too_long


def printable(text: str) -> str:
    """``text`` with every control or unprintable character shown escaped (``\\x1b``),
    so input echoed to the terminal can never clear it, set its title or move the cursor."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _skip_rest_of_line() -> None:
    """Read and drop input up to the end of the current line (or of the input)."""
    while True:
        chunk = sys.stdin.readline(1 << 16)
        if not chunk or chunk.endswith("\n"):
            return
