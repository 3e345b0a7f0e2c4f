"""The games the library knows, by name, and their tables built once.

``get_game(name)`` returns a :class:`~menace_lib.game.Game`; ``game_tables(name)``
its :class:`~menace_lib.game.Tables`, built on first use and shared (read-only).
Noughts and crosses' tables come from :mod:`menace_lib.statespace`'s vectorised
builder, which ``tests/test_game.py`` checks array for array against the one
enumerator; every other game goes through :func:`~menace_lib.game.enumerate_game`.
"""

from __future__ import annotations

from functools import cache

from .game import Game, Tables, enumerate_game
from .hexapawn import HEXAPAWN
from .noughts import NOUGHTS_AND_CROSSES

DEFAULT_GAME = "noughts-and-crosses"
GAMES: dict[str, Game] = {g.name: g for g in (NOUGHTS_AND_CROSSES, HEXAPAWN)}
GAME_NAMES = tuple(GAMES)


def get_game(name: str) -> Game:
    """The game called ``name``, or a ValueError listing the known games.

    Parameters
    ----------
    name
        ``"noughts-and-crosses"`` or ``"hexapawn"``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.get_game("hexapawn").n_symmetries
    2
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}") from None


@cache
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
    if game is NOUGHTS_AND_CROSSES:
        from .statespace import tables

        T = tables()
        codes = T.codes.astype("int64")
        codes.setflags(write=False)
        return Tables(
            game,
            T.boards,
            codes,
            T.ply,
            T.player,
            T.outcome,
            T.succ,
            T.canon,
            T.canon_transform,
            T.value,
            T.optimal,
            paths=T.paths,
            code_to_id={int(c): i for i, c in enumerate(T.codes.tolist())},
        )
    return enumerate_game(game)
