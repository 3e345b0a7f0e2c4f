"""From the field: any small OpenSpiel game becomes a library game.

:func:`spiel_game` loads an OpenSpiel game (a name such as ``"tic_tac_toe"``, a name
with parameters, or a ``pyspiel.Game``), walks every position reachable from its start
once, and registers it in the library's registry of games
(:func:`menace_lib.games.registry.register_game`) as an :class:`OpenSpielGame`, a
:class:`~menace_lib.games.game.Game`. From then on it is a game like noughts and
crosses: its name (``"openspiel:tic_tac_toe()"``) gives tables, the scripted opponents
(random, human-like, perfect), exact evaluation and MENACE::

    name = spiel_game("tic_tac_toe").name
    agent = ml.Menace(ml.MenaceConfig(game=name, filter="decision"))
    ml.exact_outcome(agent, "perfect")

What the adapter assumes, and refuses otherwise
-----------------------------------------------
The library's games are finite, sequential, deterministic, perfect-information games of
two players scored win, draw or loss, in which every move leads one ply deeper (a position
is never reached in two different numbers of moves: exact evaluation walks the plies).
:func:`check_game` refuses, in one line and before any position is walked, a game with
chance nodes, simultaneous moves, imperfect information, more or fewer than two players or
a general-sum score; the walk itself stops at ``max_positions`` positions and names the
count reached and the limit, or at a position reached in two numbers of moves (Nim, where
one can take one stick twice or two at once). Returns are read by their sign: the player
with the larger return wins, equal returns draw (a game that scores margins, such as
Oware, keeps only who won).

Two states are one position when OpenSpiel prints them alike (``str(state)``) and the same
player is to move, so transpositions merge as the library's own games merge them; moves
are OpenSpiel's action ids, ``0 .. num_distinct_actions - 1``. OpenSpiel knows nothing
of a game's symmetries, so an OpenSpiel game has the trivial group (one element): MENACE
gets a box for every position of its side, not for every position up to symmetry.

A position's cells are read from the observation tensor when it is one-hot over its
first axis (a board game's planes): cell value = the plane that is set, followed by the
side to move (1 or 2), spelt by the digits ``0, 1, 2, ...`` in
:meth:`~menace_lib.games.game.Tables.text`. A game without
such a tensor has no cells (an agent of it can play and be evaluated, not be saved).

The other direction, a library game checked against OpenSpiel's own, is
:mod:`menace_lib.interop.bridges` (which OpenSpiel game is which library game, move for
move) and ``tests/test_interop_openspiel.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.extras import require
from ..games.game import DRAW, FIRST, FIRST_WIN, ONGOING, SECOND, SECOND_WIN
from ..games.registry import get_game, register_game

__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "MAX_POSITIONS",
    "OpenSpielGame",
    "check_game",
    "load_spiel",
    "spiel_game",
]

DEFAULT_MAX_POSITIONS = 1_000_000
"""Positions walked before a game is refused, unless ``max_positions`` says otherwise
(Connect-4 on 4×4 has 161,029; on 5×4 3,945,711, which needs ``max_positions``)."""
MAX_POSITIONS = 20_000_000
"""The most ``max_positions`` may be (the tables of 20 million positions fill gigabytes)."""

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
Position = tuple[int, ...]


def load_spiel(game: Any, params: dict | None = None) -> Any:
    """A ``pyspiel.Game`` from a name (with ``params``), a full game string or a game.

    Examples
    --------
    >>> str(load_spiel("connect_four", {"rows": 4, "columns": 4}))
    'connect_four(columns=4,rows=4)'
    """
    require("openspiel", "an OpenSpiel game")
    import pyspiel

    if isinstance(game, pyspiel.Game):
        if params:
            raise ValueError("params go with a game's name, not with a loaded pyspiel.Game")
        return game
    if not isinstance(game, str):
        raise ValueError(f"{str(game)[:40]!r}: expected an OpenSpiel game name or pyspiel.Game")
    if game.startswith("python_"):  # Python games register on import: OpenSpiel's, ours
        import open_spiel.python.games  # noqa: F401

        from . import hexapawn_spiel  # noqa: F401

    try:
        return pyspiel.load_game(game, params) if params else pyspiel.load_game(game)
    except pyspiel.SpielError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else "unknown game"
        raise ValueError(f"OpenSpiel cannot load {game!r}: {first[:120]}") from None


def check_game(game: Any) -> None:
    """Raise a one-line ``ValueError`` unless the library can hold ``game``.

    The library's games are sequential, deterministic, perfect-information games of
    two players with a zero-sum (or constant-sum) score; the message names what the game
    is instead.

    Examples
    --------
    >>> check_game(load_spiel("kuhn_poker"))
    Traceback (most recent call last):
    ...
    ValueError: kuhn_poker(): has chance nodes (explicit_stochastic); the library holds ...
    """
    import pyspiel

    gt = game.get_type()
    name = str(game)
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(
            f"{name}: moves are {_word(gt.dynamics)}; the library holds turn-based games"
        )
    if gt.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        raise ValueError(
            f"{name}: has chance nodes ({_word(gt.chance_mode)}); "
            "the library holds deterministic games"
        )
    if gt.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(
            f"{name}: has {_word(gt.information)}; the library holds perfect-information games"
        )
    if game.num_players() != 2:
        raise ValueError(f"{name}: has {game.num_players()} players; the library holds two")
    if gt.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        raise ValueError(
            f"{name}: its score is {_word(gt.utility)}; the library scores win, draw or loss "
            "and holds zero-sum games"
        )


def _word(enum_value: Any) -> str:
    """``Information.IMPERFECT_INFORMATION`` -> ``imperfect_information``."""
    return str(enum_value).rsplit(".", 1)[-1].lower()


class OpenSpielGame:
    """An OpenSpiel game as a library :class:`~menace_lib.games.game.Game`.

    Built by :func:`spiel_game` (which also registers it). Its positions are 1-tuples
    ``(code,)``, ``code`` the position's number in the walk from the start (the start is
    0); everything the tables need was read from OpenSpiel during the walk.

    Attributes
    ----------
    spiel
        The ``pyspiel.Game``.
    name
        ``"openspiel:"`` followed by OpenSpiel's own string for the game and its
        parameters (``"openspiel:connect_four(columns=4,rows=4)"``).
    n_moves
        OpenSpiel's ``num_distinct_actions()``: a move is an action id.
    """

    n_symmetries = 1

    def __init__(self, spiel: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> None:
        check_game(spiel)
        if (
            isinstance(max_positions, bool)
            or not isinstance(max_positions, int)
            or not (1 <= max_positions <= MAX_POSITIONS)
        ):
            raise ValueError(
                f"max_positions {max_positions!r}: expected an integer from 1 to {MAX_POSITIONS:,}"
            )
        self.spiel = spiel
        self.name = f"openspiel:{spiel}"
        self.n_moves = int(spiel.num_distinct_actions())
        self._walk(max_positions)
        self.n_codes = len(self._keys)
        # Board cells (the side to move, last of a position's cells, is not one).
        self.n_cells = max(len(self._cells[0]) - 1, 0)
        planes = max((max(c) for c in self._cells if c), default=0) + 1
        self.symbols = _DIGITS[: max(planes, 1)]

    # --- the walk --------------------------------------------------------------

    def _walk(self, limit: int) -> None:
        """Every reachable position, breadth first: its key, mover, result, cells and
        children, and the (parent, action) that first reached it (to rebuild a state)."""
        start = self.spiel.new_initial_state()
        keys: dict[tuple, int] = {}
        movers: list[int] = []
        results: list[int] = []
        tensors: list[list[float]] = []
        children: list[dict[int, int]] = []
        parent: list[tuple[int, int]] = []
        shape = self._plane_shape()

        def add(state: Any, key: tuple, mover: int, via: tuple[int, int]) -> int:
            code = keys[key] = len(keys)
            movers.append(mover)
            results.append(_result(state))
            if shape is not None:
                tensors.append(state.observation_tensor(0))
            children.append({})
            parent.append(via)
            return code

        add(start, _key(start), _mover(start, FIRST), (-1, -1))
        layer = [(0, start)]
        ply = 0
        while layer:
            nxt = []
            first_of_next = len(keys)  # codes from here on lie one ply deeper
            for code, state in layer:
                if results[code] != ONGOING:
                    continue
                for action in state.legal_actions():
                    child = state.child(action)
                    key = _key(child)
                    found = keys.get(key)
                    if found is not None and found < first_of_next:
                        # Reached again in fewer moves than ply + 1: exact evaluation walks
                        # the positions ply by ply and needs every move one ply deeper.
                        raise ValueError(
                            f"{self.spiel}: a position is reached both {ply + 1} moves and "
                            "fewer from the start; the library needs every move to lead one "
                            "ply deeper (as in noughts and crosses or Connect-4)"
                        )
                    if found is None:
                        if len(keys) >= limit:
                            raise ValueError(
                                f"{self.spiel}: has more than {limit:,} positions (more than "
                                f"{len(keys):,} within {ply + 1} moves of the start); "
                                f"the limit is max_positions={limit:,}, at most {MAX_POSITIONS:,}"
                            )
                        found = add(child, key, _mover(child, 3 - movers[code]), (code, action))
                        nxt.append((found, child))
                    children[code][int(action)] = found
            layer = nxt
            ply += 1
        self._keys = keys
        self._movers = movers
        self._results = results
        self._cells = _cells(tensors, shape, movers)
        self._children = children
        self._parent = parent

    def _plane_shape(self) -> tuple[int, ...] | None:
        """The observation tensor's shape when it has one (cells are read from it)."""
        if not self.spiel.get_type().provides_observation_tensor:
            return None
        shape = tuple(self.spiel.observation_tensor_shape())
        return shape if len(shape) >= 2 else None

    # --- the Game protocol -----------------------------------------------------------

    def start(self) -> Position:
        return (0,)

    def to_move(self, position: Position) -> int:
        return self._movers[position[0]]

    def legal_moves(self, position: Position) -> list[int]:
        return sorted(self._children[position[0]])

    def play(self, position: Position, move: int) -> Position:
        child = self._children[position[0]].get(move)
        if child is None:
            raise ValueError(f"move {move!r}: not a legal move of {self.name} here")
        return (child,)

    def result(self, position: Position) -> int:
        return self._results[position[0]]

    def transform(self, g: int, position: Position) -> Position:
        return position

    def transform_move(self, g: int, move: int) -> int:
        return move

    def encode(self, position: Position) -> int:
        return position[0]

    def decode(self, code: int) -> Position:
        return (int(code),)

    def canonical_key(self, position: Position) -> int:
        return position[0]

    def cells(self, position: Position) -> tuple[int, ...]:
        return self._cells[position[0]]

    # --- between the two worlds ---------------------------------------------------------

    def position_of(self, state: Any) -> Position:
        """The library position of an OpenSpiel state of this game (a ValueError if the
        walk never reached it)."""
        code = self._keys.get(_key(state))
        if code is None:
            raise ValueError(f"{self.name}: this state is not a position of the game")
        return (code,)

    def history(self, position: Position) -> list[int]:
        """Actions from the start that reach ``position`` (the first path the walk found)."""
        actions: list[int] = []
        code = position[0]
        while code > 0:
            code, action = self._parent[code]
            actions.append(action)
        return actions[::-1]

    def state_of(self, position: Position) -> Any:
        """A fresh OpenSpiel state at ``position`` (replayed from the start)."""
        state = self.spiel.new_initial_state()
        for action in self.history(position):
            state.apply_action(action)
        return state

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.name!r}, positions={self.n_codes})"


def _key(state: Any) -> tuple:
    # Printed alike with the same player to move: one position (transpositions merge).
    return (state.current_player(), str(state))


def _mover(state: Any, default: int) -> int:
    """The library's side to move (1 or 2); a finished game's would-be mover."""
    p = state.current_player()
    return p + 1 if p in (0, 1) else default


def _result(state: Any) -> int:
    if not state.is_terminal():
        return ONGOING
    first, second = state.returns()
    return FIRST_WIN if first > second else SECOND_WIN if second > first else DRAW


def _cells(
    tensors: list[list[float]], shape: tuple[int, ...] | None, movers: list[int]
) -> list[tuple[int, ...]]:
    """Per position, the plane set at each cell of its one-hot observation tensor (player
    0's view), then the side to move (a board can recur with the other side to move);
    ``()`` for every position when the tensors are not one-hot over their first axis."""
    if shape is None:
        return [()] * len(movers)
    t = np.asarray(tensors, dtype=np.float32).reshape(len(movers), shape[0], -1)
    if not (np.isin(t, (0.0, 1.0)).all() and (t.sum(axis=1) == 1).all()):
        return [()] * len(movers)
    planes = np.concatenate([t.argmax(axis=1), np.asarray(movers)[:, None]], axis=1)
    return [tuple(row) for row in planes.tolist()]


def spiel_game(
    game: Any, params: dict | None = None, *, max_positions: int = DEFAULT_MAX_POSITIONS
) -> OpenSpielGame:
    """An OpenSpiel game as a registered library game (walked once per name).

    Parameters
    ----------
    game
        An OpenSpiel game name (``"tic_tac_toe"``, ``"connect_four"``,
        ``"python_hexapawn"``), a full game string (``"connect_four(rows=4,columns=4)"``)
        or a ``pyspiel.Game``.
    params
        The game's parameters, with a name (``{"rows": 4, "columns": 4}``).
    max_positions
        Refuse a game with more positions than this (see :data:`DEFAULT_MAX_POSITIONS`).

    Returns
    -------
    OpenSpielGame
        Registered under its ``name``, so ``ml.game_tables(g.name)``,
        ``ml.make_opponent("perfect", game=g.name)`` and
        ``ml.MenaceConfig(game=g.name)`` work.

    Raises
    ------
    ValueError
        In one line, for a game the library cannot hold (:func:`check_game`) or one with
        more than ``max_positions`` positions.
    MissingExtraError
        Without OpenSpiel: ``pip install "menace_lib[openspiel]"``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> g = ml.interop.openspiel.spiel_game("tic_tac_toe")
    >>> g.name, ml.game_tables(g.name).n_positions
    ('openspiel:tic_tac_toe()', 5478)
    """
    spiel = load_spiel(game, params)
    name = f"openspiel:{spiel}"
    try:
        found = get_game(name)
    except ValueError:
        found = None
    if isinstance(found, OpenSpielGame):
        return found
    return register_game(OpenSpielGame(spiel, max_positions))


# The library's first and second player are OpenSpiel's players 0 and 1.
SPIEL_PLAYER = {FIRST: 0, SECOND: 1}
"""Library side -> OpenSpiel player id."""
