"""Which foreign game is which library game, position for position and move for move.

This module is the one place that knows how another library numbers a game the library
also has: its cells, its players and its actions. Every adapter reads it
(:mod:`menace_lib.interop.pettingzoo`, :mod:`menace_lib.interop.mcts`) and
``tests/test_interop_bridges.py`` checks each bridge on every position of its game.

==============================================  =========================  ==================
foreign game                                    library game               actions
==============================================  =========================  ==================
OpenSpiel ``tic_tac_toe``,                      ``noughts-and-crosses``    cell row by row,
``python_tic_tac_toe``, ``mnk(m=3,n=3,k=3)``                               as the library
OpenSpiel ``connect_four(columns=W,rows=H,      ``connect4:WxH`` (``/L``)  the column
x_in_row=L)``
OpenSpiel ``python_hexapawn``                   ``hexapawn``               the library's
                                                                           (it is written
                                                                           over its rules)
any OpenSpiel game loaded by                    ``openspiel:...``          the action id
:func:`~menace_lib.interop.openspiel.spiel_game`
PettingZoo ``tictactoe_v3``                     ``noughts-and-crosses``    cell column by
                                                                           column (a
                                                                           transpose)
PettingZoo ``connect_four_v3``                  ``connect4:7x6``           the column
==============================================  =========================  ==================

Through Shimmy (``OpenSpielCompatibilityV0``) every OpenSpiel game is a PettingZoo
environment, and its bridge is the OpenSpiel game's.

The traps, each owned here: PettingZoo's ``tictactoe_v3`` numbers its cells column by
column (action 1 is the left cell of the middle row), and its observation is the
observer's own marks and the other side's, not X's and O's; OpenSpiel's ``connect_four``
tensor counts rows from the bottom and its planes are the observer's stones, the
other side's and the empty cells; OpenSpiel's ``breakthrough`` on 3×3 is not Hexapawn
(its pawns may step diagonally without capturing), so it has no bridge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.game import FIRST, SECOND
from ..games.registry import get_game

__all__ = [
    "Bridge",
    "pettingzoo_bridge",
    "pz_square",
    "spiel_bridge",
]

Position = tuple[int, ...]


@dataclass(frozen=True)
class Bridge:
    """One foreign game as one library game.

    Attributes
    ----------
    library
        The library game's name (:func:`menace_lib.games.registry.get_game`).
    position
        ``position(view, side)`` -> the library position: ``view`` is what the foreign
        library shows (an OpenSpiel state, or a PettingZoo observation), ``side`` the
        library side (1 or 2) of the player it is shown to.
    action
        Library move -> foreign action.
    move
        Foreign action -> library move.
    """

    library: str
    position: Callable[[Any, int], Position]
    action: Callable[[int], int]
    move: Callable[[int], int]


def _same(m: int) -> int:
    return int(m)


# --- OpenSpiel --------------------------------------------------------------------------


def _tic_tac_toe_position(state: Any, side: int) -> Position:
    # OpenSpiel's planes are (empty, nought, cross), cells row by row as the library's.
    t = np.asarray(state.observation_tensor(0)).reshape(3, 9)
    return tuple(int(FIRST if t[2, i] else SECOND if t[1, i] else 0) for i in range(9))


def _connect_four_position(width: int, height: int) -> Callable[[Any, int], Position]:
    def position(state: Any, side: int) -> Position:
        # Player 0's view: planes (own, other's, empty); rows counted from the bottom.
        # The library reads rows from the top.
        t = np.asarray(state.observation_tensor(0)).reshape(3, height, width)
        cells = np.where(t[0] == 1, FIRST, np.where(t[1] == 1, SECOND, 0))[::-1]
        return tuple(int(v) for v in cells.ravel())

    return position


def _hexapawn_position(state: Any, side: int) -> Position:
    return tuple(state.position)  # the state holds the library's own position


def _adapted_position(game: Any) -> Callable[[Any, int], Position]:
    return lambda state, side: game.position_of(state)


def spiel_bridge(spiel: Any) -> Bridge | None:
    """The bridge of an OpenSpiel game, or ``None`` if the library has no such game.

    A game loaded by :func:`~menace_lib.interop.openspiel.spiel_game` bridges to itself
    (``openspiel:...``); OpenSpiel's ``tic_tac_toe``, ``connect_four`` and
    ``python_hexapawn`` bridge to the library's own games.
    """
    name = spiel.get_type().short_name
    params = spiel.get_parameters()
    three = name == "mnk" and all(int(params[k]) == 3 for k in ("m", "n", "k"))
    if name in ("tic_tac_toe", "python_tic_tac_toe") or three:  # one game, three names
        return Bridge("noughts-and-crosses", _tic_tac_toe_position, _same, _same)
    if name == "connect_four":
        w, h, line = int(params["columns"]), int(params["rows"]), int(params["x_in_row"])
        library = f"connect4:{w}x{h}" + ("" if line == 4 else f"/{line}")
        try:
            get_game(library)
        except ValueError:
            return None  # a board the library's Connect-4 does not hold
        return Bridge(library, _connect_four_position(w, h), _same, _same)
    if name == "python_hexapawn":
        return Bridge("hexapawn", _hexapawn_position, _same, _same)
    return adapted_bridge(spiel)


def adapted_bridge(spiel: Any) -> Bridge | None:
    """The bridge of an OpenSpiel game to its own adapter, if it has been loaded."""
    from .openspiel import OpenSpielGame

    try:
        game = get_game(f"openspiel:{spiel}")
    except ValueError:
        return None
    if not isinstance(game, OpenSpielGame):
        return None
    return Bridge(game.name, _adapted_position(game), _same, _same)


# --- PettingZoo's own classic environments -----------------------------------------------------


def pz_square(index: int) -> int:
    """PettingZoo ``tictactoe_v3``'s cell ``index`` (column by column) as the library's
    square (row by row), and back: the map is a transpose, its own inverse.

    Examples
    --------
    >>> [pz_square(a) for a in range(9)]
    [0, 3, 6, 1, 4, 7, 2, 5, 8]
    """
    index = int(index)
    if not 0 <= index <= 8:
        raise ValueError(f"cell {index}: tic-tac-toe cells run from 0 to 8")
    return 3 * (index % 3) + index // 3


def _marks(planes: np.ndarray, side: int) -> np.ndarray:
    """PettingZoo's (own, other's) planes as library cells: FIRST, SECOND or 0."""
    own, other = (FIRST, SECOND) if side == FIRST else (SECOND, FIRST)
    return np.where(planes[..., 0] == 1, own, np.where(planes[..., 1] == 1, other, 0))


def _tictactoe_v3_position(observation: Any, side: int) -> Position:
    # observation[a, b] is PettingZoo's cell 3a + b, i.e. row b, column a: a transpose.
    cells = _marks(np.asarray(observation["observation"]), side).T
    return tuple(int(v) for v in cells.ravel())


def _connect_four_v3_position(observation: Any, side: int) -> Position:
    cells = _marks(np.asarray(observation["observation"]), side)  # rows from the top
    return tuple(int(v) for v in cells.ravel())


PETTINGZOO_BRIDGES: dict[str, Bridge] = {
    "tictactoe_v3": Bridge("noughts-and-crosses", _tictactoe_v3_position, pz_square, pz_square),
    "connect_four_v3": Bridge("connect4:7x6", _connect_four_v3_position, _same, _same),
}
"""PettingZoo's classic environments the library has, by their ``metadata["name"]``."""


def pettingzoo_bridge(env: Any, game: str | None = None) -> Bridge | None:
    """The bridge of a PettingZoo environment, or ``None`` if the library lacks its game.

    A Shimmy ``OpenSpielCompatibilityV0`` environment bridges as its OpenSpiel game
    (:func:`spiel_bridge`): its view is the OpenSpiel state, not the observation. With
    ``game`` an ``openspiel:...`` name, it bridges to that adapted game instead of the
    library's twin (an agent trained on OpenSpiel's ``tic_tac_toe`` itself).
    """
    raw = env.unwrapped
    name = raw.metadata.get("name")
    if name == "OpenSpielCompatibilityV0":
        if game is not None and game.startswith("openspiel:"):
            bridge = adapted_bridge(raw._env)
        else:
            bridge = spiel_bridge(raw._env)
        if bridge is None:
            return None
        return Bridge(
            bridge.library,
            lambda observation, side, _b=bridge, _raw=raw: _b.position(_raw.game_state, side),
            bridge.action,
            bridge.move,
        )
    return PETTINGZOO_BRIDGES.get(name)
