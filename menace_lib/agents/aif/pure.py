"""The Pure Active Inference agent: no game tree, learnt outcome beliefs per move."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

import numpy as np

from ...base.limits import MAX_BEADS
from ...games.board import parse_board
from ...games.statespace import tables
from ...machine.menace import AgentFileError
from ...maths.efe import expected_free_energy_actions
from .config import AIFConfig
from .matchbox import COMMON_FIELDS, MatchboxAIF
from .table import EFETable
from .tree import canonical_tree

__all__ = ["PureAIF"]


class PureAIF(MatchboxAIF):
    """Active Inference without a game tree: learnt outcome beliefs per move.

    Every (canonical state, canonical move) pair holds ``Dir(alpha)`` over the
    agent's (win, draw, loss), prior ``(1, 1, 1)``. After a game each move the
    agent played gets the game's outcome (+1 to that count), and every visited
    box is overwritten with the softmax of

        G(s, a) = KL(abar || p) + beta_amb * H(abar) - lam * MI(alpha_{s,a}),

    ``abar = alpha / sum(alpha)``, with a uniform policy prior (the thesis code
    ignores ``--policy-prior`` here; its opponent beliefs are never used, so
    none are kept).

    Parameters
    ----------
    config
        An :class:`~menace_lib.agents.aif.AIFConfig`, or its fields as keywords. Reads
        only the common fields.
    trace
        Keep per-game EFE summaries in :attr:`trace`.

    Attributes
    ----------
    alpha
        Shape (positions, 9, 3): counts per canonical position id and canonical
        square (only legal moves of canonical agent states are used).

    Examples
    --------
    >>> import menace_lib as ml
    >>> agent = ml.PureAIF()
    >>> isinstance(agent, ml.Agent)
    True
    """

    FORMAT: ClassVar[str] = "menace_lib.aif.pure"
    USES: ClassVar[frozenset[str]] = COMMON_FIELDS | {
        "lambda_schedule",
        "lambda_tau",
        "lambda_kappa",
    }
    _STATE_KEYS: ClassVar[tuple[str, ...]] = ("outcome_counts",)

    def __init__(
        self, config: AIFConfig | None = None, *, trace: bool = False, **fields: Any
    ) -> None:
        super().__init__(config, trace=trace, **fields)
        n = tables().n_positions
        self.alpha = np.ones((n, 9, 3))
        # G, risk, epistemic and ambiguity per (position, square), kept in step with
        # alpha: a game changes at most five pairs, so only those are recomputed.
        self._values = tuple(np.full((n, 9), v[0]) for v in self._efe(np.ones((1, 3))))

    @property
    def name(self) -> str:
        return f"Pure AIF (λ={self.lam:g})"

    def set_counts(self, where: int | str | Sequence[int], move: int, counts: Sequence[float]):
        """Set the (win, draw, loss) counts of one canonical move (for examples and tests)."""
        c = self._agent_state(where)
        if move not in canonical_tree().moves[c]:
            raise ValueError(f"square {move} is not a legal canonical move of {tables().text(c)!r}")
        alpha = np.asarray(counts, dtype=float)
        if alpha.shape != (3,) or not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
            raise ValueError(f"counts must be three finite numbers > 0, got {counts!r}")
        self.alpha[c, move] = alpha
        for values, v in zip(self._values, self._efe(alpha[None, :]), strict=True):
            values[c, move] = v[0]

    def _efe(self, alphas: np.ndarray) -> tuple[np.ndarray, ...]:
        cfg = self.config
        t = expected_free_energy_actions(alphas, self.prefs, cfg.lam, cfg.beta_amb, strict=False)
        return t.G, t.risk, t.epistemic, t.ambiguity

    def _learn(self, trajectory, result, final) -> None:
        T = tables()
        canon, canon_square = T.canon_list, T.canon_square_lists
        states = [canon[pid] for pid, _, _ in trajectory]
        moves = [canon_square[pid][square] for pid, square, _ in trajectory]
        # each state occurs once per game; a count stops at the limit, as beads do
        counts = self.alpha[states, moves, result] + 1.0
        self.alpha[states, moves, result] = np.minimum(counts, MAX_BEADS)
        terms = self._efe_of(self.alpha[states, moves].tolist())
        for i, values in enumerate(self._values):
            values[states, moves] = [t[i] for t in terms]

    def _efe_of(self, counts: list[list[float]]) -> list[tuple[float, float, float, float]]:
        """``(G, risk, epistemic, ambiguity)`` of each (win, draw, loss) count triple.

        A move's terms depend only on its three counts (and the settings), and counts
        move in whole games, so triples recur: they are computed once per process and
        settings (:func:`_efe_memo`; NumPy computes each row alone, so a triple's terms
        do not depend on the rows computed with it).
        """
        cfg = self.config
        memo = _efe_memo(tuple(self.prefs), cfg.lam, cfg.beta_amb)
        keys = [tuple(c) for c in counts]
        new = list(dict.fromkeys(k for k in keys if k not in memo))
        if new:
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            fresh = zip(*(v.tolist() for v in self._efe(np.array(new))), strict=True)
            memo.update(zip(new, fresh, strict=True))
        return [memo[k] for k in keys]

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        moves = _move_index(c)
        G, R, E, A = (values[c].take(moves) for values in self._values)
        if self.config.scheduled:  # the stored G has λ₀; the box's weight is its own
            G = R + self.config.beta_amb * A - self._epistemic_weight(c) * E
        return G, R, E, A

    def _move_G(self, c: int) -> list[float]:
        if self.config.scheduled:
            return self._terms(c)[0].tolist()
        row = self._values[0][c]
        return [float(row[m]) for m in canonical_tree().moves[c]]

    def _epistemic_weight(self, c: int) -> float:
        """λ₀, or the schedule's weight: the box's beliefs are its moves' outcome
        Dirichlets, prior (1, 1, 1) each."""
        if not self.config.scheduled:
            return self.lam
        moves = list(canonical_tree().moves[c])
        prior = 3.0 * len(moves)
        evidence = float(self.alpha[c, moves].sum()) - prior
        return self.config.epistemic_weight(self.games_trained, prior, evidence)

    def _table(self, c: int) -> EFETable:
        alphas = self.alpha[c, list(canonical_tree().moves[c])]
        q, terms = self._policy_terms(c)
        return self._make_table(c, (q, terms), alphas / alphas.sum(axis=1, keepdims=True), terms[1])

    def _copy(self):
        twin = super()._copy()
        twin.alpha = self.alpha.copy()
        twin._values = tuple(v.copy() for v in self._values)
        return twin

    # --- files -------------------------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        """The outcome counts that differ from the prior, per canonical (state, move)."""
        T = tables()
        changed = np.argwhere((self.alpha != 1.0).any(axis=2))
        return {
            "outcome_counts": [
                {"board": T.text(int(c)), "move": int(m), "counts": self.alpha[c, m].tolist()}
                for c, m in changed
            ]
        }

    def _state_from_dict(self, data: dict[str, Any]) -> None:
        entries = data.get("outcome_counts", [])
        if not isinstance(entries, list):
            raise AgentFileError("outcome_counts: must be a list")
        T, moves, pairs = tables(), canonical_tree().moves, []
        for i, entry in enumerate(entries):
            where = f"outcome_counts[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"board", "move", "counts"}:
                raise AgentFileError(f"{where}: must be an object with board, move and counts")
            try:
                c = T.id_of(parse_board(entry["board"]))
                if T.canon_list[c] != c:
                    raise ValueError(f"{entry['board']!r} is not canonical")
                self._agent_state(c)
            except (TypeError, ValueError) as err:
                raise AgentFileError(f"{where}.board: {err}") from None
            m = entry["move"]
            if isinstance(m, bool) or m not in moves[c] or (c, m) in pairs:
                raise AgentFileError(f"{where}.move: {m!r} is not a new legal canonical move")
            counts = entry["counts"]
            ok = isinstance(counts, list) and len(counts) == 3
            if not ok or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 or v == np.inf
                for v in counts
            ):
                raise AgentFileError(f"{where}.counts: must be three finite numbers > 0")
            pairs.append((c, m))
            self.alpha[c, m] = counts
        if pairs:
            states, squares = [c for c, _ in pairs], [m for _, m in pairs]
            for values, v in zip(self._values, self._efe(self.alpha[states, squares]), strict=True):
                values[states, squares] = v


_MEMO_LIMIT = 200_000
"""Triples kept per setting before the memo starts again (a few tens of MB at most)."""


@cache
def _efe_memo(prefs: tuple[float, ...], lam: float, beta_amb: float) -> dict:
    """The memo of :meth:`PureAIF._efe_of` for one setting."""
    return {}


@cache
def _move_index(c: int) -> np.ndarray:
    """The legal canonical moves of state ``c`` as an index array (built once)."""
    return np.array(canonical_tree().moves[c], dtype=np.intp)
