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

from ...base.limits import MAX_TREE_CELLS
from ...games.board import parse_board
from ...games.game import ONGOING, row_tuples
from ...games.registry import DEFAULT_GAME, game_name, game_tables
from ...games.statespace import tables

__all__ = [
    "CanonicalTree",
    "GameLists",
    "canonical_state",
    "canonical_steps",
    "canonical_tree",
    "game_lists",
]


@dataclass(frozen=True, eq=False)
class GameLists:
    """A game's tables as plain Python lists (what the tree agents' loops read).

    Noughts and crosses gets :func:`~menace_lib.games.statespace.tables` itself, which
    carries the same lists; every other game gets one of these, built once from
    :func:`~menace_lib.games.registry.game_tables`.
    """

    game: str
    n_positions: int
    canonical_ids: np.ndarray
    succ_lists: tuple[tuple[int, ...], ...]
    legal_lists: tuple[tuple[int, ...], ...]
    canon_list: tuple[int, ...]
    canon_square_lists: tuple[tuple[int, ...], ...]
    outcome_list: tuple[int, ...]
    player_list: tuple[int, ...]
    ply_list: tuple[int, ...]
    value_list: tuple[int, ...]

    def text(self, pid: int) -> str:
        """A position named for messages, as files name it (:meth:`Tables.text`)."""
        return game_tables(self.game).text(pid)


def game_lists(game: str = DEFAULT_GAME):
    """The list view of ``game``'s tables (built once per game and shared)."""
    if game == DEFAULT_GAME:
        return tables()
    return _game_lists(game)


@cache
def _game_lists(game: str) -> GameLists:
    # The tree's Python lists and sets take far more than the tables: admit the board
    # against the tree's own cap before building anything.
    game_name(game, max_cells=MAX_TREE_CELLS, who="an Active Inference agent with a game tree")
    T = game_tables(game)
    canon_moves = T.move_maps[T.canon_transform]  # (N, n_moves): each move, canonically
    return GameLists(
        game=game,
        n_positions=T.n_positions,
        canonical_ids=T.canonical_ids,
        succ_lists=tuple(map(tuple, T.succ.tolist())),
        legal_lists=row_tuples(T.succ >= 0),
        canon_list=tuple(T.canon.tolist()),
        canon_square_lists=tuple(map(tuple, canon_moves.tolist())),
        outcome_list=tuple(T.outcome.tolist()),
        player_list=tuple(T.player.tolist()),
        ply_list=tuple(T.ply.tolist()),
        value_list=tuple(T.value.tolist()),
    )


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


def canonical_tree(game: str = DEFAULT_GAME) -> CanonicalTree:
    """The shared canonical tree of ``game`` (built on first use from its tables)."""
    return _canonical_tree(game)


@cache
def _canonical_tree(game: str) -> CanonicalTree:
    T = game_lists(game)
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


def canonical_steps(game: str = DEFAULT_GAME) -> tuple[dict[int, tuple[int, int]], ...]:
    """Every move as a move of the canonical tree, for reading games quickly.

    ``canonical_steps()[before][after]`` is ``(c, i)`` when a move leads from
    position id ``before`` to position id ``after``: ``c`` is the canonical id
    of ``before`` and ``i`` the index of the move's canonical square in
    ``canonical_tree().moves[c]`` (the slot of its Dirichlet count). Positions
    that are not children of ``before`` are absent.
    """
    return _canonical_steps(game)


@cache
def _canonical_steps(game: str) -> tuple[dict[int, tuple[int, int]], ...]:
    T = game_lists(game)
    tree = canonical_tree(game)
    succ, canon, canon_square = T.succ_lists, T.canon_list, T.canon_square_lists
    steps: list[dict[int, tuple[int, int]]] = []
    for pid in range(T.n_positions):
        c = canon[pid]
        moves = tree.moves[c]
        steps.append(
            {s: (c, moves.index(canon_square[pid][m])) for m, s in enumerate(succ[pid]) if s >= 0}
        )
    return tuple(steps)


def canonical_state(where: int | str | Sequence[int], game: str = DEFAULT_GAME) -> int:
    """Canonical id of a position given as an id, or (noughts and crosses) a board or its text."""
    T = game_lists(game)
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= where < T.n_positions:
            raise ValueError(f"position id must be in [0, {T.n_positions}), got {where}")
        pid = int(where)
    elif game != DEFAULT_GAME:
        raise ValueError(f"a {game} position is given by its id, got {where!r}")
    else:
        pid = T.id_of(parse_board(where))
    return T.canon_list[pid]
