"""The tree agents' generative model: values ``V = (R, E, A, d)`` over the canonical tree.

The model follows the thesis's code, which differs from its text in two ways
(reference notes §5 and §10); the code's readings are the defaults and the
text's are options (``risk_form="kl"``, ``epistemic="next"``):

* **Risk is propagated linearly.** A terminal scores ``R = -ln p(o)``; opponent
  nodes average their children's ``R``, so under the uniform and adversarial
  models ``G`` carries the cross-entropy ``E_q[-ln p(o)]``, not ``KL(q || p)``.
* **The epistemic term sums over the future.** Each uniform opponent node adds
  the one-step information gain ``MI(alpha_s)`` of its opponent Dirichlet, so
  ``E`` is the reach-weighted sum over every opponent node below a move, with the
  agent assumed to play the hard argmin of ``G`` at its own nodes.

Only the X-first game is enumerated; an agent playing O is the second mover of
that game and its preferences are swapped. Any game of
:mod:`menace_lib.games.registry` is valued the same way (``config.game``): X is
its first player and O its second.
"""

from __future__ import annotations

import copy
import gc
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ...base.limits import MAX_BEADS
from ...games.board import O, X
from ...games.game import DRAW, ONGOING
from ...games.game import FIRST_WIN as X_WIN
from ...games.game import SECOND_WIN as O_WIN
from ...games.registry import DEFAULT_GAME
from ...maths.dirichlet import PROBABILITY_FLOOR, digamma_gap
from .config import AIFConfig
from .tree import canonical_tree, game_lists

__all__ = [
    "AGENT_NODE",
    "MODEL_FIELDS",
    "OPPONENT_NODE",
    "TERMINAL_NODE",
    "GenerativeModel",
    "digamma_gap_memo",
    "opponent_mi",
    "shared_model",
]

TERMINAL_NODE, AGENT_NODE, OPPONENT_NODE = 0, 1, 2
_ONE_HOT = {X_WIN: (1.0, 0.0, 0.0), DRAW: (0.0, 1.0, 0.0), O_WIN: (0.0, 0.0, 1.0)}
_VALUE_OUTCOME = {1: X_WIN, 0: DRAW, -1: O_WIN}  # minimax value for X -> outcome
_RESCAN = -1  # an agent node whose chosen child changed
MODEL_FIELDS = (
    "player",
    "prefs",
    "lam",
    "beta_amb",
    "opponent_model",
    "opponent_alpha",
    "risk_form",
    "epistemic",
    "game",
)
"""The :class:`~menace_lib.agents.aif.AIFConfig` fields a :class:`GenerativeModel` reads."""


_GAPS: dict[float, float] = {}  # digamma_gap memo: opponent counts take few distinct values


def _digamma_gap(x: float) -> float:
    value = _GAPS.get(x)
    if value is None:
        value = _GAPS[x] = digamma_gap(x)
    return value


def digamma_gap_memo(x: float) -> float:
    """:func:`~menace_lib.maths.dirichlet.digamma_gap`, remembered (the value every count
    update of the tree agents uses)."""
    return _digamma_gap(x)


def _entropy(d0: float, d1: float, d2: float) -> float:
    h = 0.0
    for v in (d0, d1, d2):
        if v > PROBABILITY_FLOOR:  # the thesis code skips components <= 1e-12
            h -= v * math.log(v)
    return h


def opponent_mi(alpha: Sequence[float]) -> float:
    """:func:`~menace_lib.maths.dirichlet.mutual_information` of one small Dirichlet, in
    pure Python (it runs once per opponent move observed)."""
    return _mutual_information(alpha, sum(alpha))


def _mutual_information(alpha: Sequence[float], total: float) -> float:
    if len(alpha) < 2:
        return 0.0
    gap = _digamma_gap
    weighted = 0.0
    for a in alpha:
        weighted += a * gap(a)
    return max(weighted / total - gap(total), 0.0)


class GenerativeModel:
    """The value recursion ``V = (R, E, A, d)`` over the canonical game tree.

    Parameters
    ----------
    config
        An :class:`~menace_lib.agents.aif.AIFConfig`; or give its fields as keywords.
        The model reads ``player``, ``prefs``, ``lam``, ``beta_amb``,
        ``opponent_model`` (``"uniform"``: the opponent plays move ``i`` with the
        Dirichlet mean ``alpha_i / sum(alpha)`` of its belief; ``"adversarial"``:
        the move that maximises the agent's ``G``; ``"minimax"``: uniformly among
        minimax-optimal moves, as both sides do below that node),
        ``opponent_alpha`` (prior count of every opponent move, uniform model),
        ``risk_form`` and ``epistemic`` (see below).

    Notes
    -----
    ``G(V) = R + beta_amb * A - lam * E`` and ``d = (P X-win, P draw, P O-win)``.

    * Terminal: ``d`` one-hot, ``R = -ln p(o)``, ``E = A = 0``.
    * Agent node: the value of the first child with the smallest ``G`` (strict
      ``<`` over ascending canonical moves; a hard min, no softmax in the tree).
    * Uniform opponent node: ``R``, ``E`` and ``d`` are the belief-weighted means
      of the children's, ``E`` then gains ``MI(alpha_s)``, and ``A = H(d)``.
    * Adversarial opponent node: the value of the first child with the largest ``G``.
    * Minimax opponent node: ``d`` is one-hot at the minimax outcome (uniform
      optimal play by both sides realises it with certainty), ``R = KL(d || p)``
      ``= -ln p(o)``, ``E = A = 0``. Hence adversarial and minimax agree everywhere.

    ``risk_form="kl"`` (the text, eq. 7.3) scores risk as ``KL(d || p) = R - H(d)``,
    i.e. ``G`` with ``beta_amb - 1`` in place of ``beta_amb`` (Remark 7.1).
    ``epistemic="next"`` (the text's ``I(a_opp; theta_opp)``) counts only the gain
    at the opponent node a move leads to; the tree is then valued without it.

    Values live in flat lists indexed by position id (``R``, ``E``, ``A``, ``G``
    and ``D0, D1, D2`` for ``d``; ``best`` is the child an agent node copies).
    :meth:`observe` counts an opponent move; :meth:`refresh` then recomputes that
    node and, ply by ply upwards, only the ancestors whose value can change: an
    agent node is revisited only when its chosen child changed or a changed
    child now beats it. Each node is a pure function of its children and its own
    counts, so this gives, bit for bit, what :meth:`recompute` gives.
    """

    def __init__(self, config: AIFConfig | None = None, **fields: Any) -> None:
        if config is None:
            config = AIFConfig(**fields)
        elif fields:
            raise TypeError("give either a config or keyword fields, not both")
        self.player = config.player
        self.prefs = config.preferences
        self.lam = config.lam
        self.beta_amb = config.beta_amb
        self.opponent_model = config.opponent_model
        self.opponent_alpha = config.opponent_alpha
        self.risk_form = config.risk_form
        self.epistemic = config.epistemic
        # Weights inside the tree: KL risk is R - A; the "next" reading adds the
        # epistemic term only at the move itself (see action_values).
        self.beta_tree = self.beta_amb - (1.0 if self.risk_form == "kl" else 0.0)
        self.lam_tree = self.lam if self.epistemic == "summed" else 0.0
        self.lam_next = self.lam - self.lam_tree
        self.game = config.game
        tree = self.tree = canonical_tree(config.game)
        # Preferences over (X win, draw, O win), the frame the tree is valued in.
        p_x = self.prefs if self.player == X else self.prefs[::-1]
        self.prefs_x = np.asarray(p_x, dtype=float)
        self._cost = {X_WIN: -math.log(p_x[0]), DRAW: -math.log(p_x[1]), O_WIN: -math.log(p_x[2])}
        n = len(tree.mover)
        self.kind = [TERMINAL_NODE] * n
        for c in tree.ids:
            if tree.outcome[c] == ONGOING:
                self.kind[c] = AGENT_NODE if tree.mover[c] == self.player else OPPONENT_NODE
        self.R = [0.0] * n
        self.E = [0.0] * n
        self.G = [0.0] * n
        self._A = [0.0] * n
        self._D0 = [0.0] * n
        self._D1 = [0.0] * n
        self._D2 = [0.0] * n
        self.best = [-1] * n
        self.alpha: list[list[float]] = [[] for _ in range(n)]
        self.mi = [0.0] * n
        self._weights: list[list[float]] = [[] for _ in range(n)]  # alpha / sum(alpha)
        self._gapped: list[list[float]] = [[] for _ in range(n)]  # a * digamma_gap(a)
        self._changed: set[int] = set()
        self._top = max(tree.ply) if tree.ply else 0  # the deepest ply
        self._levels: list[dict[int, int]] = [{} for _ in range(self._top + 1)]  # refresh's
        # Per agent node, its own epistemic weight (a λ schedule), or None: lam everywhere.
        self.agent_lam: list[float] | None = None
        self._agent_parity = 0 if self.player == X else 1  # X moves at even plies
        self._stale: set[int] = set()  # nodes whose d and A await ensure_outcomes
        for c in tree.ids:
            if self.kind[c] == OPPONENT_NODE:
                self._set_counts(c, [self.opponent_alpha] * len(tree.moves[c]))
        self.recompute()

    # d = (D0, D1, D2) and A are not needed for G when beta_amb's weight in the tree
    # is 0, so refresh() then leaves them stale; reading them brings them up to date.

    @property
    def A(self) -> list[float]:
        """Outcome ambiguity ``H(d)`` per position id."""
        self.ensure_outcomes()
        return self._A

    @property
    def D0(self) -> list[float]:
        """Predicted probability that X wins, per position id."""
        self.ensure_outcomes()
        return self._D0

    @property
    def D1(self) -> list[float]:
        """Predicted probability of a draw, per position id."""
        self.ensure_outcomes()
        return self._D1

    @property
    def D2(self) -> list[float]:
        """Predicted probability that O wins, per position id."""
        self.ensure_outcomes()
        return self._D2

    # --- one node ---------------------------------------------------------------

    def _set(self, c: int, R: float, E: float, A: float, d: Sequence[float]) -> None:
        self.R[c], self.E[c], self._A[c] = R, E, A
        self._D0[c], self._D1[c], self._D2[c] = d
        self.G[c] = R + self.beta_tree * A - self.lam_tree * E

    def _copy_from(self, c: int, best: int) -> None:
        for values in (self.R, self.E, self._A, self.G, self._D0, self._D1, self._D2):
            values[c] = values[best]
        self.best[c] = best

    def _update(self, c: int) -> None:
        """Recompute one node from its children (any kind, any opponent model).

        This is the rule; :meth:`refresh` and :meth:`ensure_outcomes` hold fast
        copies of it for the uniform model.
        """
        kind = self.kind[c]
        tree = self.tree
        if kind == TERMINAL_NODE:
            o = tree.outcome[c]
            if o != ONGOING:
                self._set(c, self._cost[o], 0.0, 0.0, _ONE_HOT[o])
            return
        kids = tree.children[c]
        G = self.G
        if kind == AGENT_NODE and self.agent_lam is not None:
            self._choose_scheduled(c, kids)
        elif kind == AGENT_NODE:
            best = kids[0]
            for k in kids[1:]:
                if G[k] < G[best]:  # strict: the lowest canonical move wins ties
                    best = k
            self._copy_from(c, best)
        elif self.opponent_model == "uniform":
            self._update_uniform(c, kids)
        elif self.opponent_model == "adversarial":
            best = kids[0]
            for k in kids[1:]:
                if G[k] > G[best]:
                    best = k
            self._copy_from(c, best)
        else:  # minimax: the minimax outcome, certain under optimal play
            o = _VALUE_OUTCOME[tree.value[c]]
            self._set(c, self._cost[o], 0.0, 0.0, _ONE_HOT[o])

    def _option_G(self, c: int, k: int) -> float:
        """``G`` of the move of agent node ``c`` to child ``k`` in the tree, with
        ``c``'s own weight when :attr:`agent_lam` is set."""
        if self.agent_lam is None:
            return self.G[k]
        lam = self.agent_lam[c] if self.epistemic == "summed" else 0.0
        return self.R[k] + self.beta_tree * self._A[k] - lam * self.E[k]

    def _choose_scheduled(self, c: int, kids: tuple[int, ...]) -> None:
        """An agent node with its own weight: the first child of least ``G``, as
        that node weighs it (its ``G`` is then that value)."""
        best, low = kids[0], self._option_G(c, kids[0])
        for k in kids[1:]:
            g = self._option_G(c, k)
            if g < low:  # strict: the lowest canonical move wins ties
                best, low = k, g
        self._copy_from(c, best)
        self.G[c] = low

    def _update_uniform(self, c: int, kids: tuple[int, ...]) -> None:
        alpha = self.alpha[c]
        total = sum(alpha)
        R, E, D0, D1, D2 = self.R, self.E, self._D0, self._D1, self._D2
        r = e = d0 = d1 = d2 = 0.0
        for a, k in zip(alpha, kids, strict=True):
            w = a / total  # the Dirichlet mean, as the reference computes it
            r += w * R[k]
            e += w * E[k]
            d0 += w * D0[k]
            d1 += w * D1[k]
            d2 += w * D2[k]
        self._set(c, r, e + self.mi[c], _entropy(d0, d1, d2), (d0, d1, d2))

    def recompute(self) -> None:
        """Recompute every node from the current beliefs (children before parents)."""
        self._changed.clear()
        self._stale.clear()
        for c in reversed(self.tree.ids):  # ids grow with the ply: children come first
            self._update(c)

    # --- learning ---------------------------------------------------------------

    def _set_counts(self, state: int, alpha: list[float]) -> None:
        """New counts for ``state``, with their weights and information gain
        (:meth:`count_moves` holds a fast copy of this for one added move)."""
        self.alpha[state] = alpha
        total = sum(alpha)
        self._weights[state] = [a / total for a in alpha]
        self._gapped[state] = [a * _digamma_gap(a) for a in alpha]
        self.mi[state] = _mutual_information(alpha, total)
        self._changed.add(state)

    def observe(self, state: int, move: int) -> None:
        """Count one opponent move (canonical ``move``) in canonical ``state``.

        Values are stale until :meth:`refresh`.
        """
        self.observe_moves([(state, move)])

    def observe_moves(self, moves: Sequence[tuple[int, int]]) -> None:
        """:meth:`observe` each ``(canonical state, canonical move)`` pair."""
        kind, legal = self.kind, self.tree.moves
        slots = []
        for state, move in moves:
            if kind[state] != OPPONENT_NODE:
                where = game_lists(self.game).text(state)
                raise ValueError(f"position {where!r} is not a canonical opponent state")
            try:
                slots.append((state, legal[state].index(move)))
            except ValueError:
                where = game_lists(self.game).text(state)
                raise ValueError(f"square {move} is not legal in {where!r}") from None
        self.count_moves(slots)

    def count_moves(self, slots: Sequence[tuple[int, int]]) -> None:
        """Add 1 to the count of move ``i`` of opponent state ``c`` for each ``(c, i)``.

        A count stops at :data:`~menace_lib.base.limits.MAX_BEADS`, as MENACE's beads do,
        so a trained agent always saves and loads.

        Unchecked (the agents' per-game path: their slots come from
        :func:`~menace_lib.agents.aif.tree.canonical_steps`); :meth:`observe_moves`
        checks its input and comes here. The weights and the information gain
        are updated at once, as :meth:`_set_counts` does (the same operations in
        the same order, so the same numbers), reusing the ``a * gap(a)`` terms of
        the counts that did not change. Values are stale until :meth:`refresh`.
        """
        alphas, gapped, weights, mi, changed = (
            self.alpha,
            self._gapped,
            self._weights,
            self.mi,
            self._changed,
        )
        gaps = _GAPS
        for c, i in slots:
            # New lists: copies of the model share the old ones.
            alpha = list(alphas[c])
            a = min(alpha[i] + 1.0, MAX_BEADS)  # a count stops at the limit, as beads do
            alpha[i] = a
            alphas[c] = alpha
            total = sum(alpha)
            weights[c] = [v / total for v in alpha]
            terms = list(gapped[c])
            gap = gaps.get(a)
            if gap is None:
                gap = _digamma_gap(a)
            terms[i] = a * gap
            gapped[c] = terms
            if len(alpha) < 2:
                mi[c] = 0.0
            else:  # _mutual_information, inlined
                weighted = 0.0
                for v in terms:
                    weighted += v
                gap = gaps.get(total)
                if gap is None:
                    gap = _digamma_gap(total)
                mi[c] = max(weighted / total - gap, 0.0)
            changed.add(c)

    def set_counts(self, state: int, counts: Sequence[float]) -> None:
        """Replace the opponent counts of canonical ``state`` (for loading a saved agent).

        Values are stale until :meth:`refresh`.
        """
        if self.kind[state] != OPPONENT_NODE:
            where = game_lists(self.game).text(state)
            raise ValueError(f"position {where!r} is not a canonical opponent state")
        n = len(self.tree.moves[state])
        values = [float(v) for v in counts]
        if len(values) != n or not all(math.isfinite(v) and v > 0 for v in values):
            raise ValueError(f"counts must be {n} finite numbers > 0, got {list(counts)!r}")
        self._set_counts(state, values)

    def refresh(self) -> int:
        """Bring ``R``, ``E`` and ``G`` up to date after :meth:`observe`.

        Returns the number of nodes recomputed. Fixed (adversarial, minimax)
        models have no beliefs in their values, so nothing changes there. The
        node rules are :meth:`_update`'s, inlined: this loop is most of a
        learning agent's cost.
        """
        changed = self._changed
        if not changed:
            return 0
        if self.opponent_model != "uniform":
            changed.clear()
            return 0
        if self.agent_lam is not None:  # every node may weigh differently now: all again
            self.recompute()
            return len(self.tree.ids)
        tree = self.tree
        ply, children, parents = tree.ply, tree.children, tree.parents
        R, E, G, best, mi, weights = self.R, self.E, self.G, self.best, self.mi, self._weights
        A, D0, D1, D2 = self._A, self._D0, self._D1, self._D2
        beta, lam = self.beta_tree, self.lam_tree
        lean = beta == 0.0  # then d and A do not enter G: ensure_outcomes does them
        bh = beta * 0.0  # lean: beta * h is this same zero for any finite h >= 0
        stale = self._stale
        # levels[p]: the nodes of ply p to recompute. An opponent node maps to None
        # (it averages over every child); an agent node to the child it now
        # copies, or to _RESCAN when the child it copied has changed. The dicts
        # are the model's own, emptied as each ply is done.
        levels = self._levels
        for c in changed:
            levels[ply[c]][c] = None
        changed.clear()
        count = 0
        agent_parity = self._agent_parity
        for p in range(self._top, -1, -1):  # children (ply p + 1) before parents
            level = levels[p]
            if not level:
                continue
            count += len(level)
            if lean:
                stale.update(level)
            above = levels[p - 1] if p else None
            if p % 2 == agent_parity:  # agent nodes: copy the best child
                for c, choice in level.items():
                    if choice == _RESCAN:
                        kids = children[c]
                        choice = kids[0]
                        low = G[choice]
                        for k in kids:
                            if G[k] < low:  # strict: the lowest move wins ties
                                choice = k
                                low = G[k]
                    best[c] = choice
                    R[c], E[c], G[c] = R[choice], E[choice], G[choice]
                    if not lean:
                        A[c], D0[c], D1[c], D2[c] = A[choice], D0[choice], D1[choice], D2[choice]
                    if above is not None:
                        for q in parents[c]:
                            above[q] = None
                level.clear()
                continue
            for c in level:
                r = e = 0.0
                if lean:
                    # zip without strict: a node's weights and children have one
                    # length by construction, and this is the hottest loop.
                    for w, k in zip(weights[c], children[c]):  # noqa: B905
                        r += w * R[k]
                        e += w * E[k]
                    e += mi[c]
                    g = r + bh - lam * e
                else:
                    d0 = d1 = d2 = 0.0
                    for w, k in zip(weights[c], children[c]):  # noqa: B905
                        r += w * R[k]
                        e += w * E[k]
                        d0 += w * D0[k]
                        d1 += w * D1[k]
                        d2 += w * D2[k]
                    h = _entropy(d0, d1, d2)
                    A[c], D0[c], D1[c], D2[c] = h, d0, d1, d2
                    e += mi[c]
                    g = r + beta * h - lam * e
                R[c] = r
                E[c] = e
                G[c] = g
                if above is None:
                    continue
                for q in parents[c]:  # agent nodes: may they now copy another child?
                    b = best[q]
                    if c != b and g > G[b]:
                        # Worse than the child q copies (as it was, or as it is if
                        # that one changed too and q looks again anyway), hence
                        # worse than any child that already replaced it.
                        continue
                    choice = above.get(q)
                    if choice == _RESCAN:
                        continue
                    if c == b:  # the child it copies changed: look at them all
                        above[q] = _RESCAN
                        continue
                    if choice is None:
                        choice = b
                    # Unchanged children still lose to the current choice, so only
                    # a changed child can replace it (a tie goes to the lower move).
                    if g < G[choice] or (
                        g == G[choice] and children[q].index(c) < children[q].index(choice)
                    ):
                        above[q] = c
            level.clear()
        return count

    def ensure_outcomes(self) -> None:
        """Bring ``d`` and ``A`` up to date where :meth:`refresh` left them stale."""
        if self._changed:
            self.refresh()
        stale = self._stale
        if not stale:
            return
        A, D0, D1, D2, best = self._A, self._D0, self._D1, self._D2, self.best
        children, weights, kind = self.tree.children, self._weights, self.kind
        for c in sorted(stale, reverse=True):  # ids grow with the ply: children first
            if kind[c] == AGENT_NODE:
                b = best[c]
                A[c], D0[c], D1[c], D2[c] = A[b], D0[b], D1[b], D2[b]
                continue
            d0 = d1 = d2 = 0.0
            for w, k in zip(weights[c], children[c], strict=True):
                d0 += w * D0[k]
                d1 += w * D1[k]
                d2 += w * D2[k]
            A[c], D0[c], D1[c], D2[c] = _entropy(d0, d1, d2), d0, d1, d2
        stale.clear()

    def box_concentration(self, state: int) -> tuple[float, float]:
        """The prior concentration of the opponent beliefs that agent ``state``'s
        moves lead to, and the evidence counted into them since (for a λ schedule)."""
        prior = total = 0.0
        alpha = self.alpha
        for k in _opponent_children(self.player, self.game)[state]:
            prior += self.opponent_alpha * len(alpha[k])
            total += sum(alpha[k])
        return prior, total - prior

    # --- read-out -------------------------------------------------------------------

    def _check_agent_state(self, state: int) -> None:
        if not 0 <= state < len(self.kind) or self.kind[state] != AGENT_NODE:
            raise ValueError(
                f"position {state} is not a canonical state with {'XO'[self.player - 1]} to move"
            )

    def move_G(self, state: int) -> list[float]:
        """``G`` of each legal canonical move of agent state ``state``, as floats
        (no checks: the per-game path; the same numbers as :meth:`action_values`)."""
        G, kids = self.G, self.tree.children[state]
        if self.agent_lam is not None:
            self.ensure_outcomes()
            option = self._option_G
            if self.epistemic == "summed":
                return [option(state, k) for k in kids]
            lam, mi = self.agent_lam[state], self.mi
            return [option(state, k) - lam * mi[k] for k in kids]
        if self.epistemic == "summed":
            return [G[k] for k in kids]
        lam, mi = self.lam_next, self.mi
        return [G[k] - lam * mi[k] for k in kids]

    def action_values(self, state: int) -> tuple[np.ndarray, ...]:
        """``(G, risk, epistemic, ambiguity)`` of each legal canonical move of agent
        state ``state``, ascending (no checks: the per-game path).

        ``G = risk + beta_amb * ambiguity - lam * epistemic`` for every option.
        """
        self.ensure_outcomes()
        kids = self.tree.children[state]
        if self.agent_lam is None:
            g = self.G
            options = [g[k] for k in kids]
        else:
            options = [self._option_G(state, k) for k in kids]
        R, A, E = self.R, self._A, self.E if self.epistemic == "summed" else self.mi
        # One array for the four rows (one conversion, not four); the rows are its views.
        G, R, A, E = np.array(
            [options, [R[k] for k in kids], [A[k] for k in kids], [E[k] for k in kids]]
        )
        if self.epistemic != "summed":  # the gain at the next opponent node only
            lam = self.lam_next if self.agent_lam is None else self.agent_lam[state]
            G = G - lam * E
        if self.risk_form == "kl":
            R = R - A
        return G, R, E, A

    def action_terms(self, state: int) -> dict[str, np.ndarray]:
        """Per legal canonical move of agent state ``state`` (ascending): ``moves``,
        ``G``, ``risk``, ``epistemic``, ``ambiguity`` and ``d`` (shape (n, 3):
        win, draw, loss from the agent's side)."""
        self._check_agent_state(state)
        self.ensure_outcomes()
        kids = list(self.tree.children[state])
        d = np.array([self._D0, self._D1, self._D2])[:, kids].T
        if self.player == O:
            d = d[:, ::-1]
        G, R, E, A = self.action_values(state)
        return {
            "moves": np.array(self.tree.moves[state]),
            "G": G,
            "risk": R,
            "epistemic": E,
            "ambiguity": A,
            "d": np.ascontiguousarray(d),
        }

    def snapshot(self) -> dict[str, list]:
        """Every value and count, up to date, as the model's own lists (not copies):
        ``R E G A D0 D1 D2 best mi`` per position, and per opponent node ``alpha``,
        ``weights`` (``alpha / sum(alpha)``) and ``gapped`` (``a * digamma_gap(a)``).
        For a compiled copy of the learning rules (:mod:`menace_lib.agents.aif._kernel`)."""
        self.ensure_outcomes()
        return {
            "R": self.R, "E": self.E, "G": self.G, "A": self._A, "D0": self._D0,
            "D1": self._D1, "D2": self._D2, "best": self.best, "mi": self.mi,
            "alpha": self.alpha, "weights": self._weights, "gapped": self._gapped,
        }  # fmt: skip

    def restore(self, values: dict) -> None:
        """Take up values a compiled copy has brought forward from a :meth:`snapshot`:
        the per-position lists whole, and ``alpha``, ``weights`` and ``gapped`` as
        ``{node: row}`` for the opponent nodes whose counts changed (new lists, so
        copies that share the old ones keep them). Nothing is left stale."""
        self.R, self.E, self.G = values["R"], values["E"], values["G"]
        self._A, self._D0, self._D1, self._D2 = (values[k] for k in ("A", "D0", "D1", "D2"))
        self.best, self.mi = values["best"], values["mi"]
        for c, new in values["alpha"].items():
            self.alpha[c] = new
            self._weights[c] = values["weights"][c]
            self._gapped[c] = values["gapped"][c]
        self._stale.clear()
        self._changed.clear()

    def copy(self) -> GenerativeModel:
        """An independent copy (the tree is shared, values and beliefs are not)."""
        twin = copy.copy(self)
        for name in ("R", "E", "G", "_A", "_D0", "_D1", "_D2", "best", "mi"):
            setattr(twin, name, list(getattr(self, name)))
        # A node's counts and weights are replaced, never changed in place, so the
        # copies may share them.
        twin.alpha = list(self.alpha)
        twin._weights = list(self._weights)
        twin._gapped = list(self._gapped)
        twin._changed = set(self._changed)
        twin._levels = [{} for _ in range(self._top + 1)]
        twin._stale = set(self._stale)
        return twin


@cache
def _opponent_children(player: int, game: str) -> tuple[tuple[int, ...], ...]:
    """Per canonical position: its distinct children where ``player``'s opponent moves."""
    tree = canonical_tree(game)
    return tuple(
        tuple(
            k
            for k in sorted(set(tree.children[c]))
            if tree.outcome[k] == ONGOING and tree.mover[k] != player
        )
        for c in range(len(tree.mover))
    )


def shared_model(config: AIFConfig) -> GenerativeModel:
    """The model of ``config``'s :data:`MODEL_FIELDS`, built once per process.

    It is shared: a fixed model (the Oracle's) may use it as it is; a learning
    agent takes a :meth:`~GenerativeModel.copy`, which is much cheaper than
    valuing the whole tree again.
    """
    settings = {name: getattr(config, name) for name in MODEL_FIELDS}
    if config.game != DEFAULT_GAME:  # the model reads no filter; this one fits any game
        settings["filter"] = "all"
    return _shared_model(AIFConfig(**settings))


@cache
def _shared_model(settings: AIFConfig) -> GenerativeModel:
    gc_was_on = gc.isenabled()
    gc.disable()  # a big game's model is many small lists: no cyclic-GC passes while built
    try:
        return GenerativeModel(settings)
    finally:
        if gc_was_on:
            gc.enable()
