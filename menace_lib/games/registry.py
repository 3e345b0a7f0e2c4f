"""The games the library knows, by name, and their tables built once.

``get_game(name)`` returns a :class:`~menace_lib.games.game.Game`; ``game_tables(name)``
its :class:`~menace_lib.games.game.Tables`, built on first use and shared (read-only).
Every game's tables are one :class:`~menace_lib.games.game.Tables`. Noughts and crosses'
come from :mod:`menace_lib.games.statespace`'s vectorised builder and Connect-4's from
:mod:`menace_lib.games.connect4`'s, which ``tests/test_game.py`` and
``tests/test_connect4.py`` check array for array against the one enumerator,
:func:`~menace_lib.games.game.enumerate_game`, which builds every other game.
"""

from __future__ import annotations

import re
from functools import cache

from .game import Game, Tables, enumerate_game
from .hexapawn import HEXAPAWN
from .noughts import NOUGHTS_AND_CROSSES

DEFAULT_GAME = "noughts-and-crosses"
GAMES: dict[str, Game] = {g.name: g for g in (NOUGHTS_AND_CROSSES, HEXAPAWN)}
GAME_NAMES = tuple(GAMES)


CONNECT4 = re.compile(r"connect4:([0-9]{1,2})x([0-9]{1,2})(?:/([0-9]{1,2}))?")
"""Connect-4 names a board: ``connect4:WxH`` (four in a row) or ``connect4:WxH/L``."""


def get_game(name: str) -> Game:
    """The game called ``name``, or a ValueError listing the known games.

    Besides :data:`GAME_NAMES`, ``connect4:WxH`` (or ``connect4:WxH/L``, ``L`` in a row)
    names Connect-4 on a ``W`` × ``H`` board.

    Parameters
    ----------
    name
        ``"noughts-and-crosses"``, ``"hexapawn"`` or ``"connect4:WxH[/L]"``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.get_game("hexapawn").n_symmetries
    2
    >>> ml.get_game("connect4:4x4").n_moves
    4
    """
    if isinstance(name, str) and (m := CONNECT4.fullmatch(name)):
        return _connect4(int(m[1]), int(m[2]), int(m[3] or 4))
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join((*GAME_NAMES, "connect4:WxH"))
        raise ValueError(f"unknown game {str(name)[:40]!r}; choose one of {known}") from None


@cache
def _connect4(width: int, height: int, line: int) -> Game:
    from .connect4 import ConnectFour

    return ConnectFour(width, height, line)


def game_tables(name: str = DEFAULT_GAME) -> Tables:
    """The shared tables of the game called ``name`` (built on first use).

    Parameters
    ----------
    name
        A game of :data:`GAME_NAMES`.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.game_tables("hexapawn").n_positions
    135
    """
    game = get_game(name)
    return _tables(game)


@cache
def _tables(game: Game) -> Tables:
    # Keyed by the game itself, so every spelling of a name (and the default) shares
    # one set of tables.
    builder = getattr(game, "build_tables", None)  # a game's own vectorised builder
    if builder is not None:
        return builder()
    return enumerate_game(game)
