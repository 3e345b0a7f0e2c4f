"""The whole game, enumerated once into integer tables.

Every legal position (5,478 of them) gets an integer id. Ids are ordered by ply
and, within a ply, by the base-3 code ``sum(board[i] * 3**i)``; the empty board
is id 0. Everything later in the library is a lookup in these tables:

``cells``            (N, 9) int8, the position itself
``codes``            (N,) int64, base-3 code (``code_to_id`` inverts it)
``ply``              (N,) int8, pieces on the board
``player``           (N,) int8, side to move (``X`` or ``O``; for terminals, who would move)
``outcome``          (N,) int8, :data:`ONGOING`, :data:`X_WIN`, :data:`O_WIN` or :data:`DRAW`
``succ``             (N, 9) int32, child id after playing a square, ``-1`` if illegal
``canon``            (N,) int32, id of the canonical image
``canon_transform``  (N,) int8, transform taking the position to its canonical image
``value``            (N,) int8, minimax value for X: +1 win, 0 draw, -1 loss
``optimal``          (N, 9) bool, moves achieving the minimax value
``paths``            (N,) int64, number of move sequences from the empty board

They are the game layer's one :class:`~menace_lib.games.game.Tables`, built here by a
vectorised pass (a few tens of milliseconds) instead of the generic enumerator, on first
use of ``game_tables("noughts-and-crosses")``, so ``import menace_lib`` stays cheap.
Noughts-and-crosses facts that no other game has (double threats, the census of games
by outcome and length) are functions of the tables here.
"""

from __future__ import annotations

import numpy as np

from . import noughts
from .board import X
from .game import Tables
from .noughts import build_tables  # noqa: F401 (the builder, re-exported where it was)

ONGOING, X_WIN, O_WIN, DRAW = 0, 1, 2, 3
OUTCOME_NAMES = {ONGOING: "ongoing", X_WIN: "X wins", O_WIN: "O wins", DRAW: "draw"}

FILTERS = ("all", "decision", "michie")
"""Matchbox filters: every canonical X-to-move state, those with a choice, and
those with a choice that are not lost double threats (Michie's 287)."""


def threat_states(T: Tables, player: int = X) -> np.ndarray:
    """Double threats against ``player`` (:func:`menace_lib.games.noughts.threat_states`)."""
    return noughts.threat_states(T, player)


def double_threats(T: Tables) -> np.ndarray:
    """X-to-move canonical states where X cannot win at once and O threatens twice (17)."""
    return noughts.threat_states(T, X)


def game_counts(T: Tables) -> dict[str, int]:
    """Complete games, by outcome."""
    t = T.terminal_ids
    by = {o: int(T.paths[t][T.outcome[t] == o].sum()) for o in (X_WIN, O_WIN, DRAW)}
    return {
        "games": int(T.paths[t].sum()),
        "x_wins": by[X_WIN],
        "o_wins": by[O_WIN],
        "draws": by[DRAW],
    }


def game_lengths(T: Tables) -> dict[str, int]:
    """Complete games keyed by their number of moves (``"5"`` .. ``"9"``)."""
    t = T.terminal_ids
    return {str(n): int(T.paths[t][T.ply[t] == n].sum()) for n in range(5, 10)}


def summary(T: Tables | None = None) -> dict:
    """The golden facts of the game, as reported by ``python -m menace_lib states``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> s = ml.games.statespace.summary()
    >>> s["positions"], s["canonical_positions"], s["matchboxes"]["michie"]
    (5478, 765, 287)
    """
    T = tables() if T is None else T
    return {
        "positions": T.n_positions,
        "canonical_positions": len(T.canonical_ids),
        **game_counts(T),
        "game_lengths": game_lengths(T),
        "canonical_trajectories": T.canonical_trajectories(),
        "matchboxes": {f: len(T.matchbox_states(f)) for f in FILTERS},
        "double_threats": [T.text(s) for s in double_threats(T)],
    }


def tables() -> Tables:
    """Noughts and crosses' shared, read-only tables: ``game_tables("noughts-and-crosses")``.

    Returns
    -------
    Tables
        The enumerated game: positions, moves, successors, symmetries and minimax values.

    Examples
    --------
    >>> import menace_lib as ml
    >>> T = ml.game_tables()
    >>> T.n_positions, len(T.canonical_ids), len(T.matchbox_states("michie"))
    (5478, 765, 287)
    """
    from .registry import game_tables

    return game_tables(noughts.NOUGHTS_AND_CROSSES.name)
