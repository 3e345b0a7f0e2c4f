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


def _known() -> str:
    return ", ".join((*GAME_NAMES, "connect4:WxH", *_REGISTERED))


_REGISTERED: dict[str, Game] = {}
"""Games added at run time by :func:`register_game` (an OpenSpiel game, say)."""


def register_game(game: Game) -> Game:
    """Add ``game`` to the registry under ``game.name``; the game already there if any.

    Registering is how a game defined outside the library (an OpenSpiel game through
    :mod:`menace_lib.interop.openspiel`) gets tables, exact evaluation, scripted
    opponents and MENACE, all of which find a game by its name (:func:`game_name` admits
    it). A name is registered once: registering it again returns the first game, so
    shared tables stay true.

    Raises
    ------
    ValueError
        If ``game`` is not a :class:`~menace_lib.games.game.Game` or its name is a
        built-in one (``noughts-and-crosses``, ``hexapawn``, ``connect4:...``).

    Examples
    --------
    >>> from menace_lib.games.registry import get_game, register_game
    >>> register_game(get_game("hexapawn"))
    Traceback (most recent call last):
    ...
    ValueError: game name 'hexapawn' is built in; choose another name
    """
    if not isinstance(game, Game):
        raise ValueError(f"{type(game).__name__} is not a Game (see menace_lib.games.game)")
    name = game.name
    if not isinstance(name, str) or name in GAMES or name.startswith("connect4:"):
        raise ValueError(f"game name {str(name)[:40]!r} is built in; choose another name")
    return _REGISTERED.setdefault(name, game)


def game_name(
    name: object, *, max_cells: int | None = None, what: str = "game", who: str = "the library"
) -> str:
    """``name`` if it is a game the library can tabulate, spelt the one way; else a ValueError.

    The one admission of a game's name and size, read by every entry point (the
    command line's ``--game``, the agent files' loader, the agents' configurations,
    the JSON Schemas' pattern, :func:`get_game` and :func:`game_tables`) *before*
    anything is built. A Connect-4 board is spelt ``connect4:WxH`` (``connect4:WxH/L``
    when ``L`` in a row is not four), without leading zeros: ``connect4:04x4`` and
    ``connect4:4x4/4`` are refused with the spelling to use, never read as another
    game. Its cells are at most :data:`~menace_lib.base.limits.MAX_TABLE_CELLS`
    (``max_cells`` lowers the cap, for a kind whose tree is larger).

    Parameters
    ----------
    name
        The game's name as given.
    max_cells
        A lower cap for this use (default :data:`~menace_lib.base.limits.MAX_TABLE_CELLS`).
    what
        How the caller names the value in its message (``"--game"``, ``"config.game"``).
    who
        Whose cap ``max_cells`` is, for the message (``"hybrid"``).

    Examples
    --------
    >>> from menace_lib.games.registry import game_name
    >>> game_name("connect4:4x4")
    'connect4:4x4'
    >>> game_name("connect4:04x4")
    Traceback (most recent call last):
    ...
    ValueError: game 'connect4:04x4': write it connect4:4x4
    """
    from ..base.limits import MAX_TABLE_CELLS

    if isinstance(name, str) and (name in GAMES or name in _REGISTERED):
        return name
    m = CONNECT4.fullmatch(name) if isinstance(name, str) else None
    if m is None:
        hint = ""
        if isinstance(name, str) and name.startswith("openspiel:"):
            hint = " (load it first with menace_lib.interop.openspiel.spiel_game)"
        raise ValueError(f"{what} {str(name)[:60]!r}: unknown game{hint}; choose one of {_known()}")
    width, height, line = int(m[1]), int(m[2]), int(m[3] or 4)
    canonical = f"connect4:{width}x{height}" + ("" if line == 4 else f"/{line}")
    if name != canonical:
        raise ValueError(f"{what} {name!r}: write it {canonical}")
    cap = MAX_TABLE_CELLS if max_cells is None else min(max_cells, MAX_TABLE_CELLS)
    if width * height > cap:
        raise ValueError(
            f"{what} {name!r}: a {width}x{height} board has {width * height} cells; "
            f"{who} plays boards of at most {cap} cells (Connect-4 "
            f"{'5x4 or 4x5' if cap >= 20 else '4x4'})"
        )
    try:
        _connect4(width, height, line)  # width, height and line checked by ConnectFour
    except ValueError as err:
        raise ValueError(f"{what} {name!r}: {err}") from None
    return name


def check_entry_counts(game: str, parts: dict[str, object]) -> None:
    """A ValueError unless every list of per-position entries in ``parts`` (a file's
    documents by prefix: ``{"": doc, "menace.": doc["menace"]}``) is at most as long as
    ``game`` has positions: counted before any entry is validated, so a file of a
    million boxes is refused at once. ``game`` must be admitted already."""
    positions = None
    for prefix, part in parts.items():
        if not isinstance(part, dict):
            continue
        for key, value in part.items():
            if isinstance(value, list) and len(value) > 3:
                if positions is None:
                    positions = game_tables(game).n_positions
                if len(value) > positions:
                    raise ValueError(
                        f"{prefix}{key}: {len(value):,} entries, but {game} has only "
                        f"{positions:,} positions"
                    )


def game_cells(name: str) -> int:
    """Cells of the admitted game ``name``'s board (9 for both 3x3 games)."""
    name = game_name(name)
    if name in GAMES:
        return 9
    game = get_game(name)
    return int(game.n_cells)


def connect4_pattern() -> str:
    """The JSON Schemas' pattern for a Connect-4 ``config.game``: exactly the spellings
    of the sizes :func:`game_name` admits (``tests/test_admission.py`` checks that every
    schema holds it)."""
    from ..base.limits import MAX_TABLE_CELLS

    sizes = [f"{w}x{h}" for w in range(1, 16) for h in range(1, 16) if w * h <= MAX_TABLE_CELLS]
    return f"connect4:({'|'.join(sizes)})(/([235-9]|1[0-5]))?"


def get_game(name: str) -> Game:
    """The game called ``name``, or a ValueError listing the known games.

    Besides :data:`GAME_NAMES`, ``connect4:WxH`` (or ``connect4:WxH/L``, ``L`` in a row)
    names Connect-4 on a ``W`` × ``H`` board of at most
    :data:`~menace_lib.base.limits.MAX_TABLE_CELLS` cells (see :func:`game_name`).

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
    name = game_name(name)
    if name in GAMES:
        return GAMES[name]
    if name in _REGISTERED:
        return _REGISTERED[name]
    m = CONNECT4.fullmatch(name)
    return _connect4(int(m[1]), int(m[2]), int(m[3] or 4))


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
    game = get_game(name)  # the admission: an unknown or oversized game is refused here
    return _tables(game)


@cache
def _tables(game: Game) -> Tables:
    # Keyed by the game itself, so every spelling of a name (and the default) shares
    # one set of tables.
    builder = getattr(game, "build_tables", None)  # a game's own vectorised builder
    if builder is not None:
        return builder()
    return enumerate_game(game)
