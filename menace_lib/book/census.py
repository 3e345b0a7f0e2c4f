"""The game counted by ply, by game length and by matchbox filter (the book's appendices).

:mod:`menace_lib.games.statespace` enumerates the game once; this module only tabulates it.
Every function returns plain rows (lists of dicts of ints and strings), ready to print
or to turn into a table:

:func:`ply_census`
    Positions, canonical positions, terminal positions by outcome and move sequences,
    per number of pieces on the board.
:func:`games_by_length`
    Complete games (move sequences from the empty board to an end) by length and outcome.
:func:`filter_census`
    Canonical positions of one side by ply, under each matchbox filter, with the forced
    positions and double threats that separate the filters.
:func:`double_threat_catalogue`
    The double threats against X: where O wins next, and how many raw positions each
    canonical representative stands for.
"""

from __future__ import annotations

import numpy as np

from ..games import statespace
from ..games.board import O, X, stabiliser, winning_squares
from ..games.statespace import DRAW, FILTERS, O_WIN, ONGOING, X_WIN, tables

__all__ = ["double_threat_catalogue", "filter_census", "games_by_length", "ply_census"]

_OUTCOMES = (("x_wins", X_WIN), ("o_wins", O_WIN), ("draws", DRAW))


def ply_census() -> list[dict[str, int]]:
    """One row per ply 0..9 (pieces on the board) and a final ``"total"`` row.

    Columns: ``positions`` (legal positions), ``canonical`` (up to the 8 symmetries),
    ``ongoing``, terminal positions by outcome (``x_wins``, ``o_wins``, ``draws``), the
    same for canonical positions (``canonical_x_wins`` ...), ``sequences`` (move
    sequences from the empty board reaching the ply) and ``games_ending`` (those that
    end there).

    Returns
    -------
    list of dict
        ``ply`` is an int, or ``"total"`` in the last row.
    """
    T = tables()
    canonical = T.canon == np.arange(T.n_positions)
    rows = []
    for p in range(10):
        at = T.ply == p
        row: dict = {
            "ply": p,
            "positions": int(at.sum()),
            "canonical": int((at & canonical).sum()),
            "ongoing": int((at & (T.outcome == ONGOING)).sum()),
        }
        for name, code in _OUTCOMES:
            row[name] = int((at & (T.outcome == code)).sum())
        for name, code in _OUTCOMES:
            row[f"canonical_{name}"] = int((at & canonical & (T.outcome == code)).sum())
        row["sequences"] = int(T.paths[at].sum())
        row["games_ending"] = int(T.paths[at & (T.outcome != ONGOING)].sum())
        rows.append(row)
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k not in ("ply", "sequences")}
    rows.append({"ply": "total", **total, "sequences": sum(r["sequences"] for r in rows)})
    return rows


def games_by_length() -> list[dict[str, int]]:
    """Complete games by number of moves (5..9) and outcome, plus a ``"total"`` row.

    Returns
    -------
    list of dict
        Columns ``moves``, ``games``, ``x_wins``, ``o_wins``, ``draws``.
    """
    T = tables()
    terminal = T.outcome != ONGOING
    rows = []
    for n in range(5, 10):
        at = terminal & (T.ply == n)
        row: dict = {"moves": n, "games": int(T.paths[at].sum())}
        for name, code in _OUTCOMES:
            row[name] = int(T.paths[at & (T.outcome == code)].sum())
        rows.append(row)
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k != "moves"}
    rows.append({"moves": "total", **total})
    return rows


def filter_census(player: int = X) -> list[dict[str, int]]:
    """Canonical positions of ``player`` by ply under each filter, plus a ``"total"`` row.

    Columns: ``ply``, ``move`` (the player's move number), one column per filter of
    :data:`menace_lib.games.statespace.FILTERS` (``all``, ``decision``, ``michie``), ``forced``
    (one legal move: ``all - decision``) and ``double_threats`` (lost whatever is
    played: ``decision - michie``).

    Parameters
    ----------
    player : int, default X

    Returns
    -------
    list of dict
    """
    if player not in (X, O):
        raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
    T = tables()
    per_filter = {f: T.ply[T.matchbox_states(f, player)] for f in FILTERS}
    threats = T.ply[statespace.threat_states(T, player)]
    first = 0 if player == X else 1
    rows = []
    for p in range(first, 9, 2):
        row: dict = {"ply": p, "move": (p - first) // 2 + 1}
        for f in FILTERS:
            row[f] = int((per_filter[f] == p).sum())
        row["forced"] = row["all"] - row["decision"]
        row["double_threats"] = int((threats == p).sum())
        rows.append(row)
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k not in ("ply", "move")}
    rows.append({"ply": "total", "move": "", **total})
    return rows


def double_threat_catalogue(player: int = X) -> list[dict]:
    """The canonical double threats against ``player``, in id order.

    Parameters
    ----------
    player : int, default X
        The side facing the threats (MENACE's side).

    Returns
    -------
    list of dict
        Per position: ``pid``, ``board`` (text), ``winning_squares`` (where the other
        side completes a line next move), ``threats`` (how many), and ``raw_positions``
        (how many boards the symmetries map onto this one: 8 / |stabiliser|).
    """
    if player not in (X, O):
        raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
    T = tables()
    other = O if player == X else X
    rows = []
    for pid in statespace.threat_states(T, player):
        board = T.position(int(pid))
        squares = winning_squares(board, other)
        rows.append(
            {
                "pid": int(pid),
                "board": T.text(int(pid)),
                "winning_squares": squares,
                "threats": len(squares),
                "raw_positions": 8 // len(stabiliser(board)),
            }
        )
    return rows
