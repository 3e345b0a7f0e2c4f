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

__all__ = ["CanonicalTree", "canonical_state", "canonical_steps", "canonical_tree"]


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


@cache
def canonical_steps() -> tuple[dict[int, tuple[int, int]], ...]:
    """Every move as a move of the canonical tree, for reading games quickly.

    ``canonical_steps()[before][after]`` is ``(c, i)`` when a move leads from
    position id ``before`` to position id ``after``: ``c`` is the canonical id
    of ``before`` and ``i`` the index of the move's canonical square in
    ``canonical_tree().moves[c]`` (the slot of its Dirichlet count). Positions
    that are not children of ``before`` are absent.
    """
    T = tables()
    tree = canonical_tree()
    succ, canon, canon_square = T.succ_lists, T.canon_list, T.canon_square_lists
    steps: list[dict[int, tuple[int, int]]] = []
    for pid in range(T.n_positions):
        c = canon[pid]
        moves = tree.moves[c]
        steps.append(
            {s: (c, moves.index(canon_square[pid][m])) for m, s in enumerate(succ[pid]) if s >= 0}
        )
    return tuple(steps)


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
