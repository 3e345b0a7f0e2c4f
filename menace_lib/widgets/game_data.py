"""Any game of the game layer as the widgets' one game engine reads it.

``lab_engine.js`` plays, and a matchbox machine learns, on any game whose tables it is
given; ``lab_tables.js``'s ``tablesOf`` unpacks what :func:`game_payload` builds here
from the library's :class:`~menace_lib.games.game.Tables`
(:func:`~menace_lib.games.registry.game_tables`):

``game``, ``n``, ``n_moves``, ``n_cells``   the game's name and sizes
``cells``            one digit per cell of every position, in id order
``ply``, ``player``, ``outcome``   per position (``player`` and ``outcome`` as digits)
``succ``             per position its ``[move, child id]`` pairs (none when finished)
``canon``, ``canon_transform``   each position's canonical image and the element to it
``move_maps``, ``inverse``       every symmetry acting on moves, and its inverse element
``filters``, ``rank``            the matchbox filters (they nest), and per position ``-``
                                 or the strictest filter that gives it a box
``classes``          per ranked position, its move classes (the ``class`` layout)
``opponents``        per scripted opponent (the perfect one as ``perfect-<tie break>``),
                     per position the moves it picks from uniformly
``printed``          per machine, the printed kit's box numbers and bead colours
                     (:func:`printed_tables`)

``tests/test_lab_js.py`` checks that a machine's boxes built in JavaScript from this
payload equal :func:`~menace_lib.machine.engine.box_layout`'s, field by field.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from ..games.game import BASE_FILTERS, FIRST, SECOND, Tables
from ..games.registry import game_tables
from ..machine.engine import LAYOUTS
from ..machine.printed import printed_layout
from ..play.opponents import GAME_OPPONENTS, make_opponent

__all__ = ["game_payload", "printed_tables", "symmetry_inverse"]


def symmetry_inverse(T: Tables) -> list[int]:
    """For each symmetry ``g`` the element ``h`` with ``h(g(m)) == m`` for every move."""
    maps = T.move_maps.tolist()
    ident = list(range(len(maps[0])))
    return [
        next(h for h in range(len(maps)) if [maps[h][maps[g][m]] for m in ident] == ident)
        for g in range(len(maps))
    ]


def printed_tables(game: str, filters: Sequence[str]) -> dict[str, dict[str, list]]:
    """The printed kit's box numbers and bead colours of every machine on ``game``.

    Keyed ``"<layout>/<filter>/<player>"``: ``numbers`` (per box in the library's order,
    its printed number) and ``colours`` (per box a digit string, each bead's index into
    ``BEAD_COLOURS``), both from :func:`menace_lib.machine.printed.printed_layout`, the
    one owner; the widgets show these, never a number or colour of their own.
    """
    out = {}
    for layout in LAYOUTS:
        for f in filters:
            for player in (FIRST, SECOND):
                P = printed_layout(game, f, layout, player)
                out[f"{layout}/{f}/{player}"] = {
                    "numbers": list(P.numbers),
                    "colours": ["".join(map(str, c)) for c in P.colours],
                }
    return out


def _ranks(T: Tables) -> list[str]:
    rank = ["-"] * T.n_positions
    for level, name in enumerate(BASE_FILTERS):
        for player in (FIRST, SECOND):
            for s in T.matchbox_states(name, player).tolist():
                rank[s] = str(level)
    return rank


def _digits(values) -> str:
    return "".join(str(int(v)) for v in values)


@cache
def game_payload(name: str) -> dict[str, Any]:
    """The tables of the game called ``name`` for ``lab_tables.js`` (built once).

    Raises
    ------
    ValueError
        For a game the library does not know, or one too big to ship to a page
        (more than 10,000 positions, or a cell or result that is not one digit).
    """
    T = game_tables(name)
    if T.n_positions > 10_000:
        raise ValueError(f"{name}: {T.n_positions} positions; a page carries at most 10,000")
    if T.cells.size and (T.cells.min() < 0 or T.cells.max() > 9):
        raise ValueError(f"{name}: cells must be single digits to ship to a page")
    rank = _ranks(T)
    succ = [[[m, int(T.succ[pid, m])] for m in T.legal(pid)] for pid in range(T.n_positions)]
    opponents = {}
    for opponent in GAME_OPPONENTS:
        key = "perfect-uniform" if opponent == "perfect" else opponent
        opponents[key] = [list(c) for c in make_opponent(opponent, "uniform", game=name).choices]
    return {
        "game": name,
        "n": T.n_positions,
        "n_moves": int(T.succ.shape[1]),
        "n_cells": int(T.cells.shape[1]),
        "cells": _digits(T.cells.ravel()),
        "ply": T.ply.tolist(),
        "player": _digits(T.player),
        "outcome": _digits(T.outcome),
        "succ": succ,
        "canon": T.canon.tolist(),
        "canon_transform": T.canon_transform.tolist(),
        "move_maps": T.move_maps.tolist(),
        "inverse": symmetry_inverse(T),
        "filters": list(BASE_FILTERS),
        "rank": "".join(rank),
        "classes": [
            [list(c) for c in T.move_classes(pid)]
            for pid in range(T.n_positions)
            if rank[pid] != "-"
        ],
        "opponents": opponents,
        "printed": printed_tables(name, BASE_FILTERS),
    }
