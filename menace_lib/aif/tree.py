"""The canonical game tree, as plain Python lists indexed by position id.

The tree agents value every canonical position once per belief change, so their
inner loops read these lists rather than the NumPy tables. Only canonical ids
have entries: ``children[c][i]`` is the canonical child reached by the canonical
square ``moves[c][i]`` (ascending), and a child can appear more than once when
two moves of a symmetric position lead to the same canonical image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..board import parse_board
from ..statespace import ONGOING, tables

__all__ = ["CanonicalTree", "canonical_state", "canonical_tree"]


@dataclass(frozen=True, eq=False)
class CanonicalTree:
    """The canonical game tree (see the module docstring).

    Attributes
    ----------
    ids
        Canonical position ids, ascending (hence by ply: children come later).
    moves, children
        Per canonical non-terminal id: legal canonical squares and the canonical
        child of each; empty elsewhere.
    parents
        Per canonical id: the distinct canonical positions with a move into it.
    mover, outcome, value, ply
        The game tables' ``player``, ``outcome``, ``value`` and ``ply`` as tuples.
    """

    ids: tuple[int, ...]
    moves: tuple[tuple[int, ...], ...]
    children: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int, ...], ...]
    mover: tuple[int, ...]
    outcome: tuple[int, ...]
    value: tuple[int, ...]
    ply: tuple[int, ...]


@cache
def canonical_tree() -> CanonicalTree:
    """The shared canonical tree (built on first use from :func:`~menace_lib.statespace.tables`)."""
    T = tables()
    n = T.n_positions
    succ, canon, legal = T.succ_lists, T.canon_list, T.legal_lists
    ids = tuple(int(c) for c in T.canonical_ids)
    moves: list[tuple[int, ...]] = [()] * n
    children: list[tuple[int, ...]] = [()] * n
    parents: list[set[int]] = [set() for _ in range(n)]
    for c in ids:
        if T.outcome_list[c] != ONGOING:
            continue
        moves[c] = legal[c]
        children[c] = tuple(canon[succ[c][m]] for m in legal[c])
        for k in children[c]:
            parents[k].add(c)
    return CanonicalTree(
        ids=ids,
        moves=tuple(moves),
        children=tuple(children),
        parents=tuple(tuple(sorted(p)) for p in parents),
        mover=T.player_list,
        outcome=T.outcome_list,
        value=T.value_list,
        ply=T.ply_list,
    )


def canonical_state(where: int | str | Sequence[int]) -> int:
    """Canonical id of a position given as an id, a board or its text."""
    T = tables()
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= where < T.n_positions:
            raise ValueError(f"position id must be in [0, {T.n_positions}), got {where}")
        pid = int(where)
    else:
        pid = T.id_of(parse_board(where))
    return T.canon_list[pid]
