"""One game layer: the :class:`Game` interface and the one enumerator that tabulates it.

A two-player, finite, perfect-information game that a matchbox machine can learn is
described by a :class:`Game`. :func:`enumerate_game` turns any such game into integer
tables (:class:`Tables`): every position reachable from the start gets an id, and
positions, players, results, transitions, canonical ids under the game's symmetry
group and minimax values with their tie-break sets become NumPy arrays. Everything
downstream (matchbox layouts, the matchbox machine, exact evaluation, the kits) reads
the tables, never the game's rules.

The interface
-------------
Positions are tuples of small ints, opaque to the enumerator; moves are ints
``0 .. n_moves - 1`` (a game chooses its own move numbering: a square for noughts and
crosses, a pawn and a direction for Hexapawn). Players are ``1`` (moves first) and
``2``. A game provides

* ``start()``, ``to_move(p)``, ``legal_moves(p)``, ``play(p, m)`` and ``result(p)``
  (:data:`ONGOING`, :data:`FIRST_WIN`, :data:`SECOND_WIN` or :data:`DRAW`);
* its symmetry group: ``n_symmetries`` elements, element 0 the identity, acting on
  positions by ``transform(g, p)`` and on moves by ``transform_move(g, m)``, such that
  ``play(transform(g, p), transform_move(g, m)) == transform(g, play(p, m))``;
* an integer encoding ``encode(p)`` (injective, ``0 <= code < n_codes``) and its
  inverse ``decode(code)``;
* ``canonical_key(p)``: the canonical image of a position is the image with the
  smallest key, ties going to the first group element (so a game can keep a
  historical choice of representative; by default the key is the code);
* ``cells(p)``: the position as a flat tuple of ints, for tables and pictures, and
  ``symbols``: one character per cell value (``".XO"``), which spell a position in
  files (:meth:`Tables.text`).

The tables
----------
Ids are ordered by ply (the fewest moves that reach a position) and, within a ply,
by code; the start is id 0. ``succ[i, m]`` is the child after move ``m`` (``-1`` if
illegal), ``canon[i]`` the id of the canonical image and ``canon_transform[i]`` the
element that maps the position to it. ``value`` is the minimax value for the first
player (+1, 0, -1) and ``optimal[i, m]`` the tie-break set: every move that achieves
it. Games whose positions can recur (cycles) are refused.

Adding a game
-------------
Write a class with the methods above (see :mod:`menace_lib.games.hexapawn` for a 30-line
example) and call :func:`enumerate_game`. The enumerator is plain Python, about
10 µs per position and move; a game with millions of positions should supply the
same tables from a vectorised builder of its own and can reuse :class:`Tables`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any, Protocol, runtime_checkable

import numpy as np

ONGOING, FIRST_WIN, SECOND_WIN, DRAW = 0, 1, 2, 3
"""Results; equal to :mod:`menace_lib.games.statespace`'s ``ONGOING, X_WIN, O_WIN, DRAW``."""
FIRST, SECOND = 1, 2
BASE_FILTERS = ("all", "decision")
"""Matchbox filters every game has: every canonical state of a side, and those with a
choice of more than one legal move."""

Position = tuple[int, ...]


class CodeIndex(Mapping):
    """Position code -> id, the one index of every game's tables.

    Small code spaces (noughts and crosses' 3^9) get a dense array, one lookup per code;
    large ones (Connect-4) a binary search over the sorted codes, with no dict of
    millions of entries. Both answer alike: ``index[code]`` (a KeyError for a code no
    position has), ``code in index``, ``index.get(code)``, and :meth:`ids` /
    :meth:`lookup` for many codes at once.
    """

    DENSE_LIMIT = 1 << 20
    """Codes below this get a dense table (4 bytes a code: 4 MB at most)."""

    def __init__(self, codes: np.ndarray) -> None:
        codes = np.asarray(codes, dtype=np.int64)
        self._order = np.argsort(codes, kind="stable")
        self._sorted = codes[self._order]
        self._dense: np.ndarray | None = None
        if len(codes) and int(self._sorted[0]) >= 0 and int(self._sorted[-1]) < self.DENSE_LIMIT:
            dense = np.full(int(self._sorted[-1]) + 1, -1, dtype=np.int32)
            dense[codes] = np.arange(len(codes), dtype=np.int32)
            dense.setflags(write=False)
            self._dense = dense

    def __getitem__(self, code: int) -> int:
        if self._dense is not None:
            if isinstance(code, (int, np.integer)) and 0 <= code < len(self._dense):
                pid = int(self._dense[code])
                if pid >= 0:
                    return pid
            raise KeyError(code)
        i = int(np.searchsorted(self._sorted, code))
        if i == len(self._sorted) or self._sorted[i] != code:
            raise KeyError(code)
        return int(self._order[i])

    def __contains__(self, code: object) -> bool:
        try:
            self[code]  # type: ignore[index]
        except (KeyError, TypeError, OverflowError):
            return False
        return True

    def __iter__(self) -> Iterator[int]:
        return iter(self._sorted.tolist())

    def __len__(self) -> int:
        return len(self._sorted)

    def ids(self, codes: np.ndarray) -> np.ndarray:
        """Ids of many codes that are known to be present."""
        codes = np.asarray(codes, dtype=np.int64)
        if self._dense is not None:
            return self._dense[codes].astype(np.int64)
        return self._order[np.searchsorted(self._sorted, codes)]

    def lookup(self, codes: np.ndarray) -> np.ndarray:
        """Ids of many codes, ``-1`` where no position has the code."""
        codes = np.asarray(codes, dtype=np.int64)
        if self._dense is not None:
            inside = (codes >= 0) & (codes < len(self._dense))
            return np.where(inside, self._dense[np.where(inside, codes, 0)], -1).astype(np.int64)
        if len(self._sorted) == 0:
            return np.full(codes.shape, -1, dtype=np.int64)
        i = np.minimum(np.searchsorted(self._sorted, codes), len(self._sorted) - 1)
        return np.where(self._sorted[i] == codes, self._order[i], -1).astype(np.int64)


@runtime_checkable
class Game(Protocol):
    """What the enumerator needs to know about a game (see the module docstring)."""

    name: str
    n_moves: int
    n_symmetries: int
    n_codes: int
    symbols: str

    def start(self) -> Position: ...

    def to_move(self, position: Position) -> int: ...

    def legal_moves(self, position: Position) -> Sequence[int]: ...

    def play(self, position: Position, move: int) -> Position: ...

    def result(self, position: Position) -> int: ...

    def transform(self, g: int, position: Position) -> Position: ...

    def transform_move(self, g: int, move: int) -> int: ...

    def encode(self, position: Position) -> int: ...

    def decode(self, code: int) -> Position: ...

    def canonical_key(self, position: Position) -> Any: ...

    def cells(self, position: Position) -> tuple[int, ...]: ...


@dataclass(frozen=True, eq=False)
class Tables:
    """Integer tables of a whole game (built by :func:`enumerate_game`).

    Attributes
    ----------
    game
        The game the tables describe.
    cells
        (N, C) int8, each position's cells (:meth:`Game.cells`).
    codes
        (N,) int64, each position's code; ``code_to_id`` inverts it.
    ply, player, outcome
        (N,) int8: the fewest moves that reach the position, the side to move (for a
        finished game, the side that would move) and the result.
    succ
        (N, n_moves) int32, child ids, ``-1`` for an illegal move.
    canon, canon_transform
        (N,) int32 / int8: canonical image id and the element that maps to it.
    value, optimal
        (N,) int8 minimax value for the first player; (N, n_moves) bool tie-break set.
    paths
        (N,) int64: move sequences from the start that reach the position.
    code_to_id
        The :class:`CodeIndex` from a position's code to its id.

    A game may add matchbox filters of its own (noughts and crosses adds Michie's) as a
    ``filters`` mapping of name -> function ``(tables, choice states, player) -> ids``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> T = ml.game_tables()  # noughts and crosses
    >>> T.n_positions, len(T.canonical_ids), len(T.matchbox_states("michie"))
    (5478, 765, 287)
    >>> T.text(T.id_of("X........")), T.legal(T.id_of("X........"))
    ('X........', [1, 2, 3, 4, 5, 6, 7, 8])
    >>> ml.game_tables("hexapawn").n_positions
    135
    """

    game: Any
    cells: np.ndarray
    codes: np.ndarray
    ply: np.ndarray
    player: np.ndarray
    outcome: np.ndarray
    succ: np.ndarray
    canon: np.ndarray
    canon_transform: np.ndarray
    value: np.ndarray
    optimal: np.ndarray
    paths: np.ndarray
    code_to_id: CodeIndex

    @property
    def n_positions(self) -> int:
        return len(self.codes)

    def check_id(self, pid: Any) -> int:
        """``pid`` as an int if it is a position id, else a ValueError naming it."""
        if isinstance(pid, bool) or not isinstance(pid, (int, np.integer)):
            raise ValueError(f"position id {pid!r}: expected an integer")
        if not 0 <= pid < self.n_positions:
            raise ValueError(f"position id {pid!r}: ids run from 0 to {self.n_positions - 1}")
        return int(pid)

    def id_of(self, position: Position | str) -> int:
        """The id of a reachable position (a tuple, or its text where the game reads text),
        or a ValueError naming it."""
        if hasattr(self.game, "check_position"):
            position = self.game.check_position(position)  # the game's own check and text
        elif isinstance(position, str):
            raise ValueError(f"position {position[:40]!r}: {self.game.name} has no text form")
        code = self.game.encode(tuple(position))
        pid = self.code_to_id.get(code, -1)
        if pid < 0:
            shown = "".join(self.game.symbols[c] for c in self.game.cells(tuple(position)))
            raise ValueError(f"position {shown!r} cannot arise in {self.game.name}")
        return pid

    def position(self, pid: int) -> Position:
        """The game's own position for an id."""
        return self.game.decode(int(self.codes[self.check_id(pid)]))

    def legal(self, pid: int) -> list[int]:
        """Legal moves, ascending (none in a finished game)."""
        return [int(m) for m in np.flatnonzero(self.succ[self.check_id(pid)] >= 0)]

    def optimal_moves(self, pid: int) -> list[int]:
        """The tie-break set: every move achieving the minimax value, ascending."""
        return [int(m) for m in np.flatnonzero(self.optimal[self.check_id(pid)])]

    def is_terminal(self, pid: int) -> bool:
        return bool(self.outcome[self.check_id(pid)] != ONGOING)

    # --- list views --------------------------------------------------------------
    # Plain-Python copies of the arrays, for per-move loops: indexing a tuple is
    # several times faster than indexing a NumPy array with a Python int.

    @cached_property
    def succ_lists(self) -> tuple[tuple[int, ...], ...]:
        """``succ`` as tuples: per position, each move's child id (``-1`` if illegal)."""
        return tuple(tuple(row) for row in self.succ.tolist())

    @cached_property
    def legal_lists(self) -> tuple[tuple[int, ...], ...]:
        """Per position, its legal moves, ascending (empty at terminals)."""
        return tuple(tuple(m for m, s in enumerate(row) if s >= 0) for row in self.succ_lists)

    @cached_property
    def canon_list(self) -> tuple[int, ...]:
        """``canon`` as a tuple: the canonical id of each position."""
        return tuple(self.canon.tolist())

    @cached_property
    def canon_square_lists(self) -> tuple[tuple[int, ...], ...]:
        """Per position, ``[move] -> the same move on the canonical image``."""
        maps = tuple(tuple(row) for row in self.move_maps.tolist())
        return tuple(maps[t] for t in self.canon_transform.tolist())

    @cached_property
    def outcome_list(self) -> tuple[int, ...]:
        """``outcome`` as a tuple."""
        return tuple(self.outcome.tolist())

    @cached_property
    def player_list(self) -> tuple[int, ...]:
        """``player`` as a tuple."""
        return tuple(self.player.tolist())

    @cached_property
    def ply_list(self) -> tuple[int, ...]:
        """``ply`` as a tuple."""
        return tuple(self.ply.tolist())

    @cached_property
    def value_list(self) -> tuple[int, ...]:
        """``value`` as a tuple."""
        return tuple(self.value.tolist())

    @cached_property
    def terminal_ids(self) -> np.ndarray:
        """Ids of finished positions, ascending."""
        return np.flatnonzero(self.outcome != ONGOING)

    def canonical_trajectories(self) -> int:
        """Distinct sequences of canonical positions from the start to an end."""
        count = np.zeros(self.n_positions, dtype=np.int64)
        for pid in self.canonical_ids[::-1]:  # children have larger ids
            if self.outcome[pid] != ONGOING:
                count[pid] = 1
            else:
                kids = np.unique(self.canon[self.succ[pid][self.succ[pid] >= 0]])
                count[pid] = count[kids].sum()
        return int(count[0])

    # --- positions as text (what files name) -----------------------------------

    def text(self, pid: int) -> str:
        """The position's cells spelt in the game's symbols (``'X.O......'``,
        ``'BBB.W.W.W'``): how agent files name a position."""
        cells = self.cells[self.check_id(pid)]
        table = self._text_table
        if table is None:
            symbols = self.game.symbols
            return "".join(symbols[c] for c in cells.tolist())
        return cells.tobytes().translate(table).decode("ascii")

    @cached_property
    def _text_table(self) -> bytes | None:
        """Cell codes to symbols as a ``bytes.translate`` table, when every symbol is one
        ASCII character and the cells are bytes: a box's text in one C call (an agent file
        of Connect-4 4x4 names 27,761 boxes, read and written on every save); else None."""
        symbols = self.game.symbols
        if self.cells.dtype.itemsize != 1 or not symbols.isascii() or len(symbols) > 127:
            return None
        table = bytearray(range(256))
        table[: len(symbols)] = symbols.encode("ascii")
        return bytes(table)

    def canonical_id_of_text(self, text: Any) -> int:
        """The canonical position that :meth:`text` spells as ``text``, or a ValueError
        naming it (a file may name only canonical positions)."""
        pid = self._canonical_of_text.get(text, -1) if isinstance(text, str) else -1
        if pid < 0:
            raise ValueError(f"{str(text)[:40]!r} is not a canonical position of {self.game.name}")
        return pid

    @cached_property
    def _canonical_of_text(self) -> dict[str, int]:
        # Built on the first file read; a game whose canonical positions share a text
        # could not be named by it, so that is refused rather than guessed.
        names = {self.text(c): c for c in self.canonical_ids.tolist()}
        if len(names) != len(self.canonical_ids):
            raise ValueError(f"{self.game.name}: two canonical positions have one text")
        return names

    # --- symmetry ----------------------------------------------------------

    @cached_property
    def canonical_ids(self) -> np.ndarray:
        """Ids of canonical positions, ascending."""
        return np.flatnonzero(self.canon == np.arange(self.n_positions))

    @cached_property
    def move_maps(self) -> np.ndarray:
        """(n_symmetries, n_moves) int: ``move_maps[g, m]`` is move ``m`` under ``g``."""
        g = self.game
        return np.array(
            [[g.transform_move(k, m) for m in range(g.n_moves)] for k in range(g.n_symmetries)],
            dtype=np.int32,
        )

    def canonical_move(self, pid: int, move: int) -> int:
        """Move ``move`` of position ``pid`` seen on the canonical image."""
        return int(self.move_maps[self.canon_transform[self.check_id(pid)], move])

    def stabiliser(self, pid: int) -> list[int]:
        """Group elements that leave the position unchanged."""
        g, p = self.game, self.position(pid)
        return [k for k in range(g.n_symmetries) if g.transform(k, p) == p]

    def move_classes(self, pid: int) -> list[tuple[int, ...]]:
        """Orbits of the legal moves under the position's own stabiliser, in move order."""
        legal, stab = self.legal(pid), self.stabiliser(pid)
        seen: set[int] = set()
        classes = []
        for m in legal:
            if m in seen:
                continue
            orbit = tuple(sorted({int(self.move_maps[k, m]) for k in stab}))
            seen.update(orbit)
            classes.append(orbit)
        return classes

    # --- matchboxes ------------------------------------------------------------

    def player_states(self, player: int = FIRST) -> np.ndarray:
        """Canonical, unfinished positions with ``player`` to move (filter ``all``)."""
        if player not in (FIRST, SECOND):
            raise ValueError(f"player {player!r}: expected {FIRST} or {SECOND}")
        c = self.canonical_ids
        return c[(self.outcome[c] == ONGOING) & (self.player[c] == player)]

    @property
    def filters(self) -> tuple[str, ...]:
        """The matchbox filters of this game: :data:`BASE_FILTERS` and the game's own."""
        return (*BASE_FILTERS, *getattr(self.game, "filters", {}))

    def matchbox_states(self, filter: str = "all", player: int = FIRST) -> np.ndarray:
        """Canonical states of ``player`` that get a box under ``filter``.

        ``all`` keeps every unfinished canonical state with ``player`` to move,
        ``decision`` those with more than one legal move; a game's own filter (Michie's
        for noughts and crosses) narrows ``decision`` further.
        """
        states = self.player_states(player)
        if filter == "all":
            return states
        if filter not in self.filters:
            raise ValueError(
                f"unknown filter {filter!r} for {self.game.name}; choose one of {self.filters}"
            )
        choice = states[(self.succ[states] >= 0).sum(axis=1) > 1]
        if filter == "decision":
            return choice
        return self.game.filters[filter](self, choice, player)

    def counts_by_ply(self, ids: np.ndarray) -> dict[int, int]:
        """How many of ``ids`` lie at each ply."""
        plies, counts = np.unique(self.ply[ids], return_counts=True)
        return {int(p): int(c) for p, c in zip(plies, counts, strict=True)}


def _canonical(game: Game, position: Position) -> tuple[int, Position]:
    best_g, best, best_key = 0, position, game.canonical_key(position)
    for g in range(1, game.n_symmetries):
        image = game.transform(g, position)
        key = game.canonical_key(image)
        if key < best_key:
            best_g, best, best_key = g, image, key
    return best_g, best


def _layers(game: Game) -> list[list[Position]]:
    """Positions by ply (fewest moves from the start), each layer sorted by code."""
    start = game.start()
    seen = {game.encode(start)}
    layers = [[start]]
    while True:
        children: dict[int, Position] = {}
        for p in layers[-1]:
            if game.result(p) != ONGOING:
                continue
            for m in game.legal_moves(p):
                child = game.play(p, m)
                code = game.encode(child)
                if code not in seen:
                    children[code] = child
        if not children:
            return layers
        seen.update(children)
        layers.append([children[c] for c in sorted(children)])


def _post_order(rows: list[list[int]]) -> list[int]:
    """Every id after all of its children (depth first); a cycle is refused."""
    n = len(rows)
    order, state = [], [0] * n  # 0 new, 1 open, 2 closed
    for root in range(n):
        if state[root]:
            continue
        stack = [root]
        while stack:
            i = stack[-1]
            if state[i] == 0:
                state[i] = 1
                for c in rows[i]:
                    if c >= 0 and state[c] == 1:
                        raise ValueError("the game graph has a cycle; it cannot be tabulated")
                    if c >= 0 and state[c] == 0:
                        stack.append(c)
            else:
                stack.pop()
                if state[i] == 1:
                    state[i] = 2
                    order.append(i)
    return order


def _minimax(rows: list[list[int]], order: list[int], outcome: np.ndarray, player: np.ndarray):
    """Values for the first player and tie-break sets, children before parents."""
    value = np.zeros(len(rows), dtype=np.int8)
    value[outcome == FIRST_WIN] = 1
    value[outcome == SECOND_WIN] = -1
    optimal = np.zeros((len(rows), len(rows[0])), dtype=bool)
    done = outcome != ONGOING
    for i in order:
        if done[i]:
            continue
        kids = [(m, c) for m, c in enumerate(rows[i]) if c >= 0]
        vals = [int(value[c]) for _, c in kids]
        best = max(vals) if player[i] == FIRST else min(vals)
        value[i] = best
        for (m, _), v in zip(kids, vals, strict=True):
            optimal[i, m] = v == best
    return value, optimal


def enumerate_game(game: Game) -> Tables:
    """Every position reachable from the start, as integer :class:`Tables`.

    Parameters
    ----------
    game
        Any :class:`Game`.

    Returns
    -------
    Tables
        Positions by ply, transitions, canonical ids, results and minimax values.

    Examples
    --------
    >>> import menace_lib as ml
    >>> T = ml.enumerate_game(ml.get_game("hexapawn"))
    >>> len(T.matchbox_states("all", 2))  # HER's boxes
    19
    """
    if not all(callable(getattr(game, m, None)) for m in ("start", "play", "legal_moves")):
        raise TypeError(f"game must be a Game (see get_game), got {type(game).__name__}")
    layers = _layers(game)
    positions = [p for layer in layers for p in layer]
    n = len(positions)
    codes = np.array([game.encode(p) for p in positions], dtype=np.int64)
    code_to_id = {int(c): i for i, c in enumerate(codes.tolist())}
    ply = np.concatenate([np.full(len(L), d, dtype=np.int8) for d, L in enumerate(layers)])
    player = np.array([game.to_move(p) for p in positions], dtype=np.int8)
    outcome = np.array([game.result(p) for p in positions], dtype=np.int8)
    succ = np.full((n, game.n_moves), -1, dtype=np.int32)
    for i, p in enumerate(positions):
        if outcome[i] == ONGOING:
            for m in game.legal_moves(p):
                succ[i, m] = code_to_id[game.encode(game.play(p, m))]
    canon = np.empty(n, dtype=np.int32)
    canon_transform = np.empty(n, dtype=np.int8)
    for i, p in enumerate(positions):
        g, image = _canonical(game, p)
        code = game.encode(image)
        if code not in code_to_id:
            raise ValueError(f"{game.name}: symmetry {g} maps a position outside the game")
        canon[i], canon_transform[i] = code_to_id[code], g
    rows = succ.tolist()
    order = _post_order(rows)
    value, optimal = _minimax(rows, order, outcome, player)
    paths = np.zeros(n, dtype=np.int64)
    paths[0] = 1
    for i in reversed(order):  # every parent before its children
        for c in rows[i]:
            if c >= 0:
                paths[c] += paths[i]
    cells = np.array([game.cells(p) for p in positions], dtype=np.int8)
    arrays = (cells, codes, ply, player, outcome, succ, canon, canon_transform, value, optimal)
    for arr in (*arrays, paths):
        arr.setflags(write=False)
    return Tables(game, *arrays, paths=paths, code_to_id=CodeIndex(codes))


class Rows(Sequence):
    """A tuple of ints per row, kept as two flat arrays (compressed rows).

    ``flat[start[i]:start[i + 1]]`` is row ``i``. The arrays are what a compiled loop and
    a vectorised pass read (a few bytes a row); indexing, ``len`` and iteration give the
    rows as tuples, as the Python hot loops want them, built on first use from the arrays
    (the one owner) and kept. A game of tens of millions of positions never builds them
    unless a Python loop asks.

    Examples
    --------
    >>> import numpy as np
    >>> rows = Rows.from_mask(np.array([[True, False, True], [False, False, False]]))
    >>> rows[0], rows[1], len(rows), rows.lengths().tolist()
    ((0, 2), (), 2, [2, 0])
    """

    def __init__(self, start: np.ndarray, flat: np.ndarray) -> None:
        start, flat = np.asarray(start, dtype=np.int64), np.asarray(flat)
        if start.ndim != 1 or len(start) < 1 or start[0] != 0 or start[-1] != len(flat):
            raise ValueError(f"rows: start must run from 0 to {len(flat)}")
        for a in (start, flat):
            a.setflags(write=False)
        self.start, self.flat = start, flat
        self._tuples: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def from_mask(cls, mask: np.ndarray, values: np.ndarray | None = None, dtype=None) -> Rows:
        """Per row of a boolean ``mask``, its set columns (or ``values`` there, given
        row-major as ``values[mask]`` or in full as an array of the mask's shape)."""
        rows, cols = np.nonzero(mask)
        if values is None:
            flat = cols
        else:
            values = np.asarray(values)
            flat = values[mask] if values.shape == mask.shape else values
        start = np.zeros(mask.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=mask.shape[0]), out=start[1:])
        return cls(start, flat.astype(dtype or _small_int(flat), copy=False))

    @classmethod
    def from_tuples(cls, rows: Sequence[Sequence[int]], dtype=np.int64) -> Rows:
        """Rows given as tuples (kept as given: order and repeats)."""
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        start = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=start[1:])
        flat = np.fromiter(chain.from_iterable(rows), dtype=dtype, count=int(start[-1]))
        out = cls(start, flat)
        out._tuples = tuple(tuple(int(x) for x in r) for r in rows)
        return out

    def __deepcopy__(self, memo: dict) -> Rows:
        return self  # read-only: shared, as a tuple of tuples would be

    def lengths(self) -> np.ndarray:
        """Each row's length."""
        return np.diff(self.start)

    def row_ids(self) -> np.ndarray:
        """The row of each flat entry."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.lengths())

    @property
    def nbytes(self) -> int:
        """Bytes the two arrays hold (not the tuples, when built)."""
        return self.start.nbytes + self.flat.nbytes

    @property
    def tuples(self) -> tuple[tuple[int, ...], ...]:
        """Every row as a tuple (built once)."""
        if self._tuples is None:
            flat, ends = self.flat.tolist(), self.start[1:].tolist()
            out, begin = [], 0
            for end in ends:
                out.append(tuple(flat[begin:end]))
                begin = end
            self._tuples = tuple(out)
        return self._tuples

    def __len__(self) -> int:
        return len(self.start) - 1

    def __getitem__(self, i):  # type: ignore[override]
        return self.tuples[i]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter(self.tuples)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            return np.array_equal(self.start, other.start) and np.array_equal(self.flat, other.flat)
        return isinstance(other, tuple) and self.tuples == other

    __hash__ = object.__hash__  # by identity: a cache keyed by rows keys by the object


def _small_int(values: np.ndarray):
    """The smallest of int8, int32, int64 that holds ``values`` (what flat rows are
    stored as: moves in one byte, position ids in four)."""
    if values.size == 0:
        return np.int8
    lo, hi = int(values.min()), int(values.max())
    for dtype in (np.int8, np.int32):
        if np.iinfo(dtype).min <= lo and hi <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def row_tuples(mask: np.ndarray, values: np.ndarray | None = None) -> tuple[tuple[int, ...], ...]:
    """Per row of a boolean ``mask``, the set column numbers (or ``values`` there), as tuples.

    The tables' rows in the per-position tuple form the hot loops read (an opponent's
    choices and successors, a machine's colours), built from arrays in one pass.
    """
    rows, cols = np.nonzero(mask)
    flat = (cols if values is None else values).tolist()
    ends = np.cumsum(np.bincount(rows, minlength=mask.shape[0])).tolist()
    out, start = [], 0
    for end in ends:
        out.append(tuple(flat[start:end]))
        start = end
    return tuple(out)
