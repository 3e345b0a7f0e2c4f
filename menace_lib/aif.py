"""Active Inference agents that write their policy into MENACE's matchboxes.

Three agents of the thesis (chapter 8) share MENACE's machinery: each holds an
internal :class:`~menace_lib.menace.Menace` (box restock, ``square`` layout) and
draws its moves from those boxes exactly as MENACE does, including the uniform
fallback in positions without a box. What differs is how the beads get there:
after every training game the agent **overwrites** the box of each state it
visited with ``q(a) * bead_scale``, where

    q(a) ∝ prior(a) · exp(-G(a) / lambda_policy)

is the softmax of the expected free energy ``G`` of each legal canonical move
(:func:`menace_lib.efe.softmax_policy`). Boxes never visited keep MENACE's
initial 4-3-2-1 beads, and a box stays stale until it is visited again. The
bead scale (40 in the thesis runs) has no behavioural effect.

``OracleAIF``
    Knows the game tree and assumes a fixed opponent model with fixed beliefs:
    nothing is learnt, so its policy is computed once; by default it is only
    installed in a box once that state has been visited ("cache only").
``ActiveInferenceAgent``
    Knows the game tree and learns Dirichlet counts over the opponent's moves in
    every canonical opponent state. ``lam = 0`` is the thesis's *Instrumental*
    AIF (:func:`InstrumentalAIF`), ``lam > 0`` its *Hybrid* AIF (:func:`HybridAIF`).
``PureAIF``
    Knows no tree: one Dirichlet over (win, draw, loss) per (state, move), updated
    with the game's final outcome for every move played.

The generative model (:class:`GenerativeModel`) follows the thesis's code, which
differs from its text in two ways (reference notes §5 and §10); we implement the
code:

* **Risk is propagated linearly.** A terminal scores ``R = -ln p(o)``; opponent
  nodes average their children's ``R``, so under the uniform and adversarial
  models ``G`` carries the cross-entropy ``E_q[-ln p(o)]``, not ``KL(q || p)``.
  ``efe_table`` reports both (``risk`` is the one in ``G``, ``kl_risk`` the KL).
* **The epistemic term sums over the future.** Each uniform opponent node adds
  the one-step information gain ``MI(alpha_s)`` of its opponent Dirichlet, so
  ``E`` is the reach-weighted sum over every opponent node below a move, with the
  agent assumed to play the hard argmin of ``G`` at its own nodes.

Only the X-first game (the one every thesis run plays) is enumerated; an agent
playing O is the second mover of that game and its preferences are swapped.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from .agent import PolicyMatrix
from .board import CENTRE, CORNERS, TRANSFORMS, O, X, parse_board
from .dirichlet import PROBABILITY_FLOOR, kl_divergence
from .dirichlet import _digamma_plus_one_minus_log as _psi_gap
from .efe import DEFAULT_PREFERENCES, expected_free_energy_actions, normalise_preferences
from .efe import softmax_policy as _softmax_policy
from .games import play_games
from .menace import DRAW_RESULT, LOSS, WIN, Menace, MenaceConfig
from .statespace import DRAW, O_WIN, ONGOING, X_WIN, tables

__all__ = [
    "DEFAULT_BEAD_SCALE",
    "EFETable",
    "GenerativeModel",
    "EPISTEMIC_TERMS",
    "OPPONENT_MODELS",
    "POLICY_PRIORS",
    "RISK_FORMS",
    "ActiveInferenceAgent",
    "HybridAIF",
    "InstrumentalAIF",
    "OracleAIF",
    "PureAIF",
]

OPPONENT_MODELS = ("uniform", "adversarial", "minimax")
RISK_FORMS = ("cross_entropy", "kl")
EPISTEMIC_TERMS = ("summed", "next")
POLICY_PRIORS = ("uniform", "menace", "menace-initial")
DEFAULT_BEAD_SCALE = 40.0
"""Beads per box written by the thesis runs (the library's own default was 100)."""

_TERMINAL, _AGENT, _OPPONENT = 0, 1, 2
_ONE_HOT = {X_WIN: (1.0, 0.0, 0.0), DRAW: (0.0, 1.0, 0.0), O_WIN: (0.0, 0.0, 1.0)}
_VALUE_OUTCOME = {1: X_WIN, 0: DRAW, -1: O_WIN}  # minimax value for X -> outcome


# ------------------------------------------------------------------ parameter checks


def _check_number(name: str, value: float, *, minimum: float, strict: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    bad = value <= minimum if strict else value < minimum
    if not math.isfinite(value) or bad:
        relation = ">" if strict else "≥"
        raise ValueError(f"{name} must be finite and {relation} {minimum:g}, got {value!r}")
    return value


def _check_prefs(prefs: Sequence[float]) -> np.ndarray:
    """Agent-relative (win, draw, loss) preferences, repaired as the thesis code does."""
    p = np.asarray(prefs, dtype=float)
    if p.shape != (3,):
        raise ValueError(f"prefs must be three numbers (win, draw, loss), got {prefs!r}")
    return normalise_preferences(p, strict=False)


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"unknown {name} {value!r}; choose one of {choices}")
    return value


# ------------------------------------------------------------------------ the tree


@dataclass(frozen=True, eq=False)
class _Tree:
    """The canonical game tree as Python lists indexed by position id.

    Only canonical ids have entries; ``children[c][i]`` is the canonical child
    reached by ``moves[c][i]`` (ascending canonical squares).
    """

    ids: tuple[int, ...]
    moves: list[tuple[int, ...]]
    children: list[tuple[int, ...]]
    parents: list[tuple[int, ...]]
    mover: list[int]
    outcome: list[int]
    value: list[int]


@cache
def _tree() -> _Tree:
    T = tables()
    n = T.n_positions
    ids = tuple(int(c) for c in T.canonical_ids)
    moves: list[tuple[int, ...]] = [()] * n
    children: list[tuple[int, ...]] = [()] * n
    parents: list[set[int]] = [set() for _ in range(n)]
    for c in ids:
        if T.outcome[c] != ONGOING:
            continue
        ms = tuple(T.legal(c))
        kids = tuple(int(T.canon[T.succ[c, m]]) for m in ms)
        moves[c], children[c] = ms, kids
        for k in kids:
            parents[k].add(c)
    return _Tree(
        ids=ids,
        moves=moves,
        children=children,
        parents=[tuple(sorted(p)) for p in parents],
        mover=[int(v) for v in T.player],
        outcome=[int(v) for v in T.outcome],
        value=[int(v) for v in T.value],
    )


@cache
def _ancestors(c: int) -> frozenset[int]:
    """``c`` and every canonical position above it."""
    out = {c}
    for parent in _tree().parents[c]:
        out |= _ancestors(parent)
    return frozenset(out)


@cache
def _canonical_moves() -> list[tuple[int, ...]]:
    """``[pid][raw square]`` → the square in the canonical frame of ``pid``."""
    T = tables()
    return [TRANSFORMS[int(t)] for t in T.canon_transform]


def _canonical_state(where: int | str | Sequence[int]) -> int:
    """Canonical id of a position given as id, text or board."""
    T = tables()
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= where < T.n_positions:
            raise ValueError(f"position id must be in [0, {T.n_positions}), got {where}")
        pid = int(where)
    else:
        pid = T.id_of(parse_board(where))
    return int(T.canon[pid])


def _entropy3(d0: float, d1: float, d2: float) -> float:
    h = 0.0
    for v in (d0, d1, d2):
        if v > PROBABILITY_FLOOR:  # the thesis code skips components <= 1e-12
            h -= v * math.log(v)
    return h


# --------------------------------------------------------------- generative model


@cache
def _digamma_gap(x: float) -> float:
    """``psi(x + 1) - ln x``, memoised: opponent counts take few distinct values."""
    return float(_psi_gap(np.array([x]))[0])


def _opponent_mi(alpha: Sequence[float]) -> float:
    """:func:`~menace_lib.dirichlet.mutual_information` of one small Dirichlet, in pure
    Python (it runs once per opponent move observed)."""
    if len(alpha) < 2:
        return 0.0
    total = sum(alpha)
    value = sum(a * _digamma_gap(a) for a in alpha) / total - _digamma_gap(total)
    return max(value, 0.0)


class GenerativeModel:
    """The value recursion ``V = (R, E, A, d)`` over the canonical game tree.

    Parameters
    ----------
    player
        The agent's side (X or O); the other side's nodes are opponent nodes.
    prefs
        Preferred outcomes (win, draw, loss) from the agent's side.
    lam
        Epistemic weight λ.
    beta_amb
        Weight of the outcome ambiguity ``A = H(d)``.
    opponent_model
        ``"uniform"``: the opponent plays move ``i`` with the Dirichlet mean
        ``alpha_i / sum(alpha)`` of its belief; ``"adversarial"``: the move that
        maximises the agent's ``G``; ``"minimax"``: uniformly among minimax-optimal
        moves, as both sides do below that node.
    opponent_alpha
        Prior pseudo-count of every opponent move (uniform model only).
    risk_form
        ``"cross_entropy"`` (the thesis code, default): the propagated risk ``R``,
        which equals ``E_d[-ln p(o)]``. ``"kl"`` (the thesis text, eq. 7.3): risk
        ``KL(d || p) = R - H(d)``, i.e. ``G`` with ``beta_amb - 1`` in place of
        ``beta_amb`` (Remark 7.1), in the tree and for the moves.
    epistemic
        ``"summed"`` (the thesis code, default): ``E`` sums the information gain
        of every opponent node below a move. ``"next"`` (the thesis text,
        ``I(a_opp; theta_opp)``): only the gain at the opponent node the move
        leads to counts, and the tree itself is valued without epistemic term.

    Notes
    -----
    ``G(V) = R + beta_amb * A - lam * E`` and ``d = (P X-win, P draw, P O-win)``
    (defaults; see ``risk_form`` and ``epistemic`` for the text's readings).

    * Terminal: ``d`` one-hot, ``R = -ln p(o)``, ``E = A = 0``.
    * Agent node: the value of the first child with the smallest ``G`` (strict
      ``<`` over ascending canonical moves; a hard min, no softmax in the tree).
    * Uniform opponent node: ``R``, ``E`` and ``d`` are the belief-weighted means
      of the children's, ``E`` then gains ``MI(alpha_s)``, and ``A = H(d)``.
    * Adversarial opponent node: the value of the first child with the largest ``G``.
    * Minimax opponent node: ``d`` is one-hot at the minimax outcome (uniform
      optimal play by both sides realises it with certainty), ``R = KL(d || p)``
      ``= -ln p(o)``, ``E = A = 0``. Hence adversarial and minimax agree everywhere.

    Values live in flat lists indexed by position id (``R``, ``E``, ``A``, ``G``
    and ``D0, D1, D2`` for ``d``). They are recomputed incrementally:
    :meth:`observe` counts an opponent move and :meth:`refresh` recomputes that
    node and its ancestors only, children before parents.
    """

    def __init__(
        self,
        player: int = X,
        prefs: Sequence[float] = DEFAULT_PREFERENCES,
        lam: float = 0.0,
        beta_amb: float = 0.0,
        opponent_model: str = "uniform",
        opponent_alpha: float = 1.0,
        risk_form: str = "cross_entropy",
        epistemic: str = "summed",
    ) -> None:
        if player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
        self.player = player
        self.prefs = _check_prefs(prefs)
        self.lam = _check_number("lam (epistemic weight)", lam, minimum=0, strict=False)
        self.beta_amb = _check_number("beta_amb", beta_amb, minimum=0, strict=False)
        self.opponent_model = _check_choice("opponent model", opponent_model, OPPONENT_MODELS)
        self.opponent_alpha = _check_number(
            "opponent_alpha", opponent_alpha, minimum=0, strict=True
        )
        self.risk_form = _check_choice("risk form", risk_form, RISK_FORMS)
        self.epistemic = _check_choice("epistemic term", epistemic, EPISTEMIC_TERMS)
        # Weights inside the tree: KL risk is R - A; the "next" reading adds the
        # epistemic term only at the move itself (see action_values).
        self._beta_tree = self.beta_amb - (1.0 if self.risk_form == "kl" else 0.0)
        self._lam_tree = self.lam if self.epistemic == "summed" else 0.0
        self._lam_next = self.lam - self._lam_tree
        tree = self.tree = _tree()
        # Preferences over (X win, draw, O win), the frame the tree is valued in.
        p_x = self.prefs if player == X else self.prefs[::-1]
        self.prefs_x = np.asarray(p_x, dtype=float)
        self._cost = {X_WIN: -math.log(p_x[0]), DRAW: -math.log(p_x[1]), O_WIN: -math.log(p_x[2])}
        n = len(tree.mover)
        self.kind = [_TERMINAL] * n
        for c in tree.ids:
            if tree.outcome[c] == ONGOING:
                self.kind[c] = _AGENT if tree.mover[c] == player else _OPPONENT
        self.R = [0.0] * n
        self.E = [0.0] * n
        self.A = [0.0] * n
        self.G = [0.0] * n
        self.D0 = [0.0] * n
        self.D1 = [0.0] * n
        self.D2 = [0.0] * n
        self.alpha: list[list[float]] = [[] for _ in range(n)]
        self.mi = [0.0] * n
        for c in tree.ids:
            if self.kind[c] == _OPPONENT:
                self.alpha[c] = [self.opponent_alpha] * len(tree.moves[c])
                self.mi[c] = _opponent_mi(self.alpha[c])
        self._changed: set[int] = set()
        for c in reversed(tree.ids):  # ids grow with the ply: children come first
            self._update(c)

    # --- one node ---------------------------------------------------------------

    def _set(self, c: int, R: float, E: float, A: float, d: Sequence[float]) -> None:
        self.R[c], self.E[c], self.A[c] = R, E, A
        self.D0[c], self.D1[c], self.D2[c] = d
        self.G[c] = R + self._beta_tree * A - self._lam_tree * E

    def _copy_from(self, c: int, best: int) -> None:
        for values in (self.R, self.E, self.A, self.G, self.D0, self.D1, self.D2):
            values[c] = values[best]

    def _update(self, c: int) -> None:
        """Recompute one node from its children (any kind, any opponent model)."""
        kind = self.kind[c]
        tree = self.tree
        if kind == _TERMINAL:
            o = tree.outcome[c]
            if o != ONGOING:
                self._set(c, self._cost[o], 0.0, 0.0, _ONE_HOT[o])
            return
        kids = tree.children[c]
        G = self.G
        if kind == _AGENT:
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

    def _update_uniform(self, c: int, kids: tuple[int, ...]) -> None:
        alpha = self.alpha[c]
        total = sum(alpha)
        R, E, D0, D1, D2 = self.R, self.E, self.D0, self.D1, self.D2
        r = e = d0 = d1 = d2 = 0.0
        for a, k in zip(alpha, kids, strict=True):
            w = a / total  # the Dirichlet mean, as the reference computes it
            r += w * R[k]
            e += w * E[k]
            d0 += w * D0[k]
            d1 += w * D1[k]
            d2 += w * D2[k]
        self._set(c, r, e + self.mi[c], _entropy3(d0, d1, d2), (d0, d1, d2))

    # --- learning ---------------------------------------------------------------

    def observe(self, state: int, move: int) -> None:
        """Count one opponent move (canonical ``move``) in canonical ``state``.

        Values are stale until :meth:`refresh`.
        """
        if self.kind[state] != _OPPONENT:
            raise ValueError(f"position {tables().text(state)!r} is not a canonical opponent state")
        moves = self.tree.moves[state]
        if move not in moves:
            raise ValueError(f"square {move} is not legal in {tables().text(state)!r}")
        alpha = self.alpha[state]
        alpha[moves.index(move)] += 1.0
        self.mi[state] = _opponent_mi(alpha)
        self._changed.add(state)

    def refresh(self) -> int:
        """Recompute every node whose value depends on an observed belief.

        Returns the number of nodes recomputed.
        """
        if not self._changed or self.opponent_model != "uniform":
            self._changed.clear()
            return 0
        dirty: set[int] = set()
        for c in self._changed:
            dirty |= _ancestors(c)
        self._changed.clear()
        self._recompute(sorted(dirty, reverse=True))  # children (larger ids) first
        return len(dirty)

    def _recompute(self, order: list[int]) -> None:
        """:meth:`_update` for agent and uniform opponent nodes, inlined: this loop is
        the whole per-game cost of the learning tree agent."""
        kind, children, alphas, mi = self.kind, self.tree.children, self.alpha, self.mi
        R, E, A, G, D0, D1, D2 = self.R, self.E, self.A, self.G, self.D0, self.D1, self.D2
        lam, beta = self._lam_tree, self._beta_tree
        log, floor = math.log, PROBABILITY_FLOOR
        for c in order:
            kids = children[c]
            if kind[c] == _AGENT:
                best = kids[0]
                for k in kids:
                    if G[k] < G[best]:  # strict: the lowest canonical move wins ties
                        best = k
                R[c], E[c], A[c], G[c] = R[best], E[best], A[best], G[best]
                D0[c], D1[c], D2[c] = D0[best], D1[best], D2[best]
                continue
            alpha = alphas[c]
            total = sum(alpha)
            r = e = d0 = d1 = d2 = 0.0
            for a, k in zip(alpha, kids, strict=True):
                w = a / total
                r += w * R[k]
                e += w * E[k]
                d0 += w * D0[k]
                d1 += w * D1[k]
                d2 += w * D2[k]
            h = 0.0
            for v in (d0, d1, d2):
                if v > floor:
                    h -= v * log(v)
            e += mi[c]
            R[c], E[c], A[c], G[c] = r, e, h, r + beta * h - lam * e
            D0[c], D1[c], D2[c] = d0, d1, d2

    # --- read-out -------------------------------------------------------------------

    def _check_agent_state(self, state: int) -> None:
        if not 0 <= state < len(self.kind) or self.kind[state] != _AGENT:
            raise ValueError(
                f"position {state} is not a canonical state with {'XO'[self.player - 1]} to move"
            )

    def action_values(self, state: int) -> tuple[np.ndarray, ...]:
        """``(G, risk, epistemic, ambiguity)`` of each legal canonical move of agent
        state ``state``, ascending (no checks: the per-game path).

        ``G = risk + beta_amb * ambiguity - lam * epistemic`` for every option.
        """
        kids = self.tree.children[state]
        G = np.array([self.G[k] for k in kids])
        R = np.array([self.R[k] for k in kids])
        A = np.array([self.A[k] for k in kids])
        if self.epistemic == "summed":
            E = np.array([self.E[k] for k in kids])
        else:  # the gain at the next opponent node only (0 after a terminal move)
            E = np.array([self.mi[k] for k in kids])
            G = G - self._lam_next * E
        if self.risk_form == "kl":
            R = R - A
        return G, R, E, A

    def action_terms(self, state: int) -> dict[str, np.ndarray]:
        """Per legal canonical move of agent state ``state`` (ascending): ``moves``,
        ``G``, ``risk``, ``epistemic``, ``ambiguity`` and ``d`` (shape (n, 3):
        win, draw, loss from the agent's side)."""
        self._check_agent_state(state)
        if self._changed:
            self.refresh()
        kids = list(self.tree.children[state])
        d = np.array([self.D0, self.D1, self.D2])[:, kids].T
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

    def copy(self) -> GenerativeModel:
        twin = copy.copy(self)
        for name in ("R", "E", "A", "G", "D0", "D1", "D2", "mi"):
            setattr(twin, name, list(getattr(self, name)))
        twin.alpha = [list(a) for a in self.alpha]
        twin._changed = set(self._changed)
        return twin


# --------------------------------------------------------------------- EFE table


@dataclass(frozen=True, eq=False)
class EFETable:
    """The expected free energy of every legal move in one state.

    Attributes
    ----------
    state
        Canonical position id.
    moves
        Legal canonical squares, ascending (the box's bead colours).
    G, risk, epistemic, ambiguity
        ``G = risk + beta_amb * ambiguity - lam * epistemic``; ``risk`` is the
        quantity that enters ``G`` (propagated ``-ln p`` for the tree agents).
    outcome
        Shape (n, 3): predicted (win, draw, loss) from the agent's side.
    kl_risk
        ``KL(outcome || p)``: the thesis code's *reported* risk.
    q
        The policy written into the box.
    lam, beta_amb
        The weights used.
    """

    state: int
    moves: np.ndarray
    G: np.ndarray
    risk: np.ndarray
    epistemic: np.ndarray
    ambiguity: np.ndarray
    outcome: np.ndarray
    kl_risk: np.ndarray
    q: np.ndarray
    lam: float
    beta_amb: float

    def rows(self) -> list[dict]:
        """One JSON-ready dict per move (for tables and data frames)."""
        return [
            {
                "state": tables().text(self.state),
                "move": int(m),
                "G": float(self.G[i]),
                "risk": float(self.risk[i]),
                "kl_risk": float(self.kl_risk[i]),
                "epistemic": float(self.epistemic[i]),
                "epistemic_contribution": float(self.lam * self.epistemic[i]),
                "ambiguity": float(self.ambiguity[i]),
                "p_win": float(self.outcome[i, 0]),
                "p_draw": float(self.outcome[i, 1]),
                "p_loss": float(self.outcome[i, 2]),
                "q": float(self.q[i]),
            }
            for i, m in enumerate(self.moves)
        ]


def _prior(kind: str, moves: Sequence[int], beads: float) -> np.ndarray | None:
    """Policy prior over canonical moves (``None`` is uniform)."""
    if kind == "uniform":
        return None
    if kind == "menace":  # centre 8, corners 4, edges 2
        return np.array([8.0 if m == CENTRE else 4.0 if m in CORNERS else 2.0 for m in moves])
    return np.full(len(moves), float(beads))  # menace-initial: one schedule weight per state


# ------------------------------------------------------------------- shared agent


class _MatchboxAIF:
    """MENACE's boxes, with beads overwritten by an EFE policy after each game.

    Subclasses provide ``_learn`` (update beliefs from a game), ``_terms`` (``G``,
    risk, epistemic and ambiguity per legal canonical move) and ``_table``.
    """

    policy_prior = "uniform"
    _risk_includes_entropy = False  # True where risk = KL(d || p) + H(d), A = H(d)

    def __init__(
        self,
        *,
        lam: float,
        lambda_policy: float,
        prefs: Sequence[float],
        beta_amb: float,
        filter: str,
        player: int,
        bead_scale: float,
        trace: bool,
    ) -> None:
        self.lam = _check_number("lam (epistemic weight)", lam, minimum=0, strict=False)
        self.lambda_policy = _check_number(
            "lambda_policy (softmax temperature)", lambda_policy, minimum=0, strict=True
        )
        self.prefs = _check_prefs(prefs)
        self.beta_amb = _check_number("beta_amb", beta_amb, minimum=0, strict=False)
        self.bead_scale = _check_number("bead_scale", bead_scale, minimum=0, strict=True)
        self.menace = Menace(MenaceConfig(filter=filter, restock="box", player=player))
        self.filter = filter
        self.player = player
        self.frozen = False
        self.games_trained = 0
        self.trace: list[dict] | None = [] if trace else None
        self._final: int | None = None
        self._priors: dict[int, np.ndarray | None] = {}

    # --- the Learner protocol ------------------------------------------------------

    @property
    def result(self) -> list[int]:
        """Per position: 0/1/2 (win/draw/loss for the agent) at terminals, else -1."""
        return self.menace.result

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int, int]]:
        """Draw a move from the boxes, as MENACE does. Record: (pid, square, box)."""
        square, box, _ = self.menace.choose(pid, rng)
        return square, (pid, square, box)

    def observe_end(self, pid: int) -> None:
        """Optional: the final position of the game about to reach :meth:`end_game`.

        A play loop that knows it may call this; otherwise the opponent's last
        move, when it ended the game, is inferred (see :class:`ActiveInferenceAgent`).
        """
        self._final = int(pid)

    def end_game(self, trajectory: list, result: int, final: int | None = None) -> None:
        """Learn from one game, then overwrite the beads of every visited box."""
        final, self._final = (self._final if final is None else final), None
        if self.frozen:
            return
        if result not in (WIN, DRAW_RESULT, LOSS):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        self._learn(trajectory, result, final)
        box_state = self.menace.states
        states = list(dict.fromkeys(box_state[r[2]] for r in trajectory if r[2] >= 0))
        sums = np.zeros(4)  # q-weighted G, risk, epistemic, ambiguity
        for c in states:
            q, terms = self._policy_terms(c)
            self._install(c, q)
            if self.trace is not None:
                sums += [float(q @ t) for t in terms]
        if self.trace is not None:
            self.trace.append(self._trace_entry(sums, len(states), result))
        self.games_trained += 1

    def frozen_copy(self):
        """A copy that plays with the current beads and never learns."""
        twin = self._copy()
        twin.frozen = True
        return twin

    def policy_matrix(self) -> PolicyMatrix:
        """Exact move probabilities in every raw position (read from the boxes)."""
        return self.menace.policy_matrix()

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities over canonical squares in canonical ``state``."""
        return self.policy_matrix().probabilities[int(state)]

    def train_against(self, opponent, games: int, rng: np.random.Generator, *, record=True):
        """Play and learn against a scripted opponent (:func:`menace_lib.games.play_games`)."""
        return play_games(self, opponent, games, rng, record=record)

    # --- read-out -------------------------------------------------------------------

    def efe_table(self, where: int | str | Sequence[int]) -> EFETable:
        """The EFE decomposition and policy of every legal move in a position.

        ``where`` is a position id, a board or its text; it is canonicalised, and
        moves are canonical squares. The agent must be the side to move. ``q`` is
        the policy the agent would write into that box now.
        """
        return self._table(self._agent_state(where))

    def _agent_state(self, where) -> int:
        c = _canonical_state(where)
        T = tables()
        if T.outcome[c] != ONGOING or T.player[c] != self.player:
            raise ValueError(f"it is not {'XO'[self.player - 1]}'s move in {T.text(c)!r}")
        return c

    # --- helpers --------------------------------------------------------------------

    def _install(self, c: int, q: np.ndarray) -> None:
        b = self.menace.box_of.get(c, -1)
        if b >= 0:  # only matchbox states are learnable
            self.menace.weights[b][:] = (q * self.bead_scale).tolist()

    def _prior_of(self, c: int) -> np.ndarray | None:
        if c not in self._priors:
            beads = self.menace.schedule_beads(int(tables().ply[c]))
            self._priors[c] = _prior(self.policy_prior, _tree().moves[c], beads)
        return self._priors[c]

    def _policy_terms(self, c: int) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """The policy of state ``c`` and its (G, risk, epistemic, ambiguity) arrays."""
        terms = self._terms(c)
        return _softmax_policy(terms[0], self.lambda_policy, self._prior_of(c)), terms

    def _trace_entry(self, sums: np.ndarray, n: int, result: int) -> dict:
        G, R, E, A = (sums / n).tolist() if n else [float("nan")] * 4
        return {
            "game": self.games_trained + 1,
            "result": result,
            "states": n,
            "G": G,
            "risk": R,
            "kl_risk": R - A if self._risk_includes_entropy else R,
            "epistemic": E,
            "epistemic_contribution": self.lam * E,
            "ambiguity": A,
        }

    def _make_table(self, c: int, terms, outcome: np.ndarray, kl_risk: np.ndarray) -> EFETable:
        q, (G, R, E, A) = self._policy_terms(c) if terms is None else terms
        return EFETable(
            state=c,
            moves=np.array(_tree().moves[c]),
            G=G,
            risk=R,
            epistemic=E,
            ambiguity=A,
            outcome=outcome,
            kl_risk=kl_risk,
            q=q,
            lam=self.lam,
            beta_amb=self.beta_amb,
        )

    def _base_config(self) -> dict:
        return {
            "lam": self.lam,
            "lambda_policy": self.lambda_policy,
            "prefs": [float(v) for v in self.prefs],
            "beta_amb": self.beta_amb,
            "filter": self.filter,
            "player": "XO"[self.player - 1],
            "bead_scale": self.bead_scale,
        }

    def _copy(self):
        twin = copy.copy(self)
        twin.menace = self.menace.copy()
        twin.trace = None if self.trace is None else list(self.trace)
        return twin

    # --- provided by subclasses -------------------------------------------------------

    def _learn(self, trajectory: list, result: int, final: int | None) -> None:
        raise NotImplementedError

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        raise NotImplementedError

    def _table(self, c: int) -> EFETable:
        raise NotImplementedError


class _TreeAgent(_MatchboxAIF):
    """An agent whose EFE comes from a :class:`GenerativeModel`."""

    model: GenerativeModel

    @property
    def _risk_includes_entropy(self) -> bool:
        return self.model.risk_form == "cross_entropy"

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        return self.model.action_values(c)

    def _table(self, c: int) -> EFETable:
        d = self.model.action_terms(c)["d"]
        kl = np.asarray(kl_divergence(d, self.prefs), dtype=float)
        return self._make_table(c, None, d, kl)


# ------------------------------------------------------------------------ Oracle


class OracleAIF(_TreeAgent):
    """Active Inference with the true game tree and a fixed opponent model.

    Parameters
    ----------
    opponent_model
        ``"uniform"``, ``"adversarial"`` or ``"minimax"`` (see :class:`GenerativeModel`).
        Beliefs are fixed at the symmetric ``Dir(1)`` (the thesis code ignores
        ``--opponent-dirichlet-alpha`` here).
    lam
        Epistemic weight λ (only the uniform model has an epistemic term).
    lambda_policy
        Softmax temperature, > 0.
    prefs
        Preferred (win, draw, loss) for the agent; repaired like the thesis code
        (divided by the sum unless it is 1, zeros raised to 1e-12).
    beta_amb
        Outcome-ambiguity weight, ≥ 0.
    filter
        Which states get a matchbox (MENACE's filters).
    policy_prior
        ``"uniform"``, ``"menace"`` (centre 8, corners 4, edges 2) or
        ``"menace-initial"`` (the state's initial bead count: the same for every
        move, so in effect uniform).
    lazy
        True (the thesis code, "cache only"): a box receives the Oracle policy only
        after its state has been visited in a training game, so unvisited boxes
        keep MENACE's initial beads. False: every box gets it at construction.
    player, bead_scale, trace
        The agent's side; beads per box (inert); keep per-game EFE summaries in
        :attr:`trace`.
    risk_form, epistemic
        The thesis code's readings by default; ``"kl"`` and ``"next"`` give the
        text's (see :class:`GenerativeModel`).

    Notes
    -----
    Nothing is learnt, so the policy of every state is computed once per
    parameter set and shared between instances.
    """

    def __init__(
        self,
        opponent_model: str = "uniform",
        lam: float = 0.5,
        lambda_policy: float = 0.25,
        prefs: Sequence[float] = DEFAULT_PREFERENCES,
        beta_amb: float = 0.0,
        filter: str = "michie",
        policy_prior: str = "uniform",
        lazy: bool = True,
        *,
        player: int = X,
        bead_scale: float = DEFAULT_BEAD_SCALE,
        trace: bool = False,
        risk_form: str = "cross_entropy",
        epistemic: str = "summed",
    ) -> None:
        super().__init__(
            lam=lam,
            lambda_policy=lambda_policy,
            prefs=prefs,
            beta_amb=beta_amb,
            filter=filter,
            player=player,
            bead_scale=bead_scale,
            trace=trace,
        )
        self.opponent_model = _check_choice("opponent model", opponent_model, OPPONENT_MODELS)
        self.policy_prior = _check_choice("policy prior", policy_prior, POLICY_PRIORS)
        self.lazy = bool(lazy)
        self.model = _oracle_model(
            player,
            tuple(self.prefs.tolist()),
            self.lam,
            self.beta_amb,
            self.opponent_model,
            risk_form,
            epistemic,
        )
        self._cache = _oracle_policies(self.model, self.lambda_policy, self.policy_prior)
        if not self.lazy:
            for c in self.menace.states:
                self._install(c, self._cache[c][0])

    @property
    def name(self) -> str:
        return f"Oracle AIF ({self.opponent_model}, λ={self.lam:g})"

    def config(self) -> dict:
        return {
            "agent": "oracle-aif",
            "opponent_model": self.opponent_model,
            **self._base_config(),
            "policy_prior": self.policy_prior,
            "lazy": self.lazy,
            "risk_form": self.model.risk_form,
            "epistemic": self.model.epistemic,
        }

    def _learn(self, trajectory, result, final) -> None:
        return None  # nothing to learn: visited boxes just receive the fixed policy

    def _policy_terms(self, c: int) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        return self._cache[c]


@cache
def _oracle_model(
    player: int,
    prefs: tuple[float, ...],
    lam: float,
    beta_amb: float,
    opponent_model: str,
    risk_form: str,
    epistemic: str,
) -> GenerativeModel:
    """The Oracle's fixed model (symmetric Dir(1) beliefs), shared by every instance."""
    return GenerativeModel(player, prefs, lam, beta_amb, opponent_model, 1.0, risk_form, epistemic)


@cache
def _oracle_policies(
    model: GenerativeModel, lambda_policy: float, policy_prior: str
) -> dict[int, tuple[np.ndarray, tuple[np.ndarray, ...]]]:
    """Policy and terms of every canonical agent state under a fixed model."""
    probe = _TreeAgent.__new__(_TreeAgent)
    probe.model, probe.lambda_policy, probe.policy_prior = model, lambda_policy, policy_prior
    probe.menace = Menace(MenaceConfig(player=model.player))
    probe._priors = {}
    return {c: probe._policy_terms(c) for c in model.tree.ids if model.kind[c] == _AGENT}


# ----------------------------------------------------------- Hybrid / Instrumental


class ActiveInferenceAgent(_TreeAgent):
    """Active Inference with the true game tree and learnt opponent beliefs.

    After each game every opponent move adds 1 to the Dirichlet count of that
    move in its canonical pre-move state (no decay); the tree values are then
    refreshed and every visited box is overwritten with the new policy.
    ``lam = 0`` is the thesis's *Instrumental* AIF, ``lam > 0`` its *Hybrid* AIF.

    Parameters
    ----------
    lam
        Epistemic weight λ: weight of the summed opponent information gain.
    opponent_alpha
        Prior count of every opponent move (> 0).
    lambda_policy, prefs, beta_amb, filter, policy_prior, player, bead_scale, trace
        As for :class:`OracleAIF`.
    risk_form, epistemic
        As for :class:`OracleAIF`.

    Notes
    -----
    The ``Learner`` protocol does not show the agent the opponent's final move
    when that move ends the game. If the play loop reported the final position
    through :meth:`observe_end` it is used; otherwise the move is inferred as the
    lowest square that produces the game's result. That is exact whenever the
    move is unique, and always against the perfect opponent with lowest-square
    tie-breaking (the thesis's training opponent: its lowest optimal square is a
    win, hence the lowest winning square); against other opponents it may pick
    the wrong one of several winning squares.
    """

    def __init__(
        self,
        lam: float = 0.0,
        opponent_alpha: float = 1.0,
        lambda_policy: float = 0.25,
        prefs: Sequence[float] = DEFAULT_PREFERENCES,
        beta_amb: float = 0.0,
        filter: str = "michie",
        policy_prior: str = "uniform",
        *,
        player: int = X,
        bead_scale: float = DEFAULT_BEAD_SCALE,
        trace: bool = False,
        risk_form: str = "cross_entropy",
        epistemic: str = "summed",
    ) -> None:
        super().__init__(
            lam=lam,
            lambda_policy=lambda_policy,
            prefs=prefs,
            beta_amb=beta_amb,
            filter=filter,
            player=player,
            bead_scale=bead_scale,
            trace=trace,
        )
        self.policy_prior = _check_choice("policy prior", policy_prior, POLICY_PRIORS)
        self.opponent_alpha = _check_number(
            "opponent_alpha", opponent_alpha, minimum=0, strict=True
        )
        self.model = GenerativeModel(
            player,
            self.prefs,
            self.lam,
            self.beta_amb,
            "uniform",
            self.opponent_alpha,
            risk_form,
            epistemic,
        )

    @property
    def name(self) -> str:
        kind = "Instrumental" if self.lam == 0 else "Hybrid"
        return f"{kind} AIF (λ={self.lam:g})"

    def config(self) -> dict:
        return {
            "agent": "instrumental-aif" if self.lam == 0 else "hybrid-aif",
            **self._base_config(),
            "opponent_alpha": self.opponent_alpha,
            "policy_prior": self.policy_prior,
            "risk_form": self.model.risk_form,
            "epistemic": self.model.epistemic,
        }

    def opponent_moves(
        self, trajectory: list, result: int, final: int | None = None
    ) -> list[tuple[int, int]]:
        """The opponent's (pre-move position id, raw square) pairs in one game."""
        succ, results = _successors(), self.menace.result
        out = []
        for t, (pid, square, _) in enumerate(trajectory):
            before = succ[pid][square]
            if results[before] >= 0:
                break  # the agent's move ended the game
            if t + 1 < len(trajectory):
                after = trajectory[t + 1][0]
            elif final is not None:
                after = final
            else:  # the opponent ended the game: the lowest square giving this result
                after = next((s for s in succ[before] if s >= 0 and results[s] == result), -1)
            if after < 0 or after not in succ[before]:
                raise ValueError(f"cannot find the opponent's move after {tables().text(before)!r}")
            out.append((before, succ[before].index(after)))
        return out

    def _learn(self, trajectory, result, final) -> None:
        canon = _canonical_ids()
        canon_move = _canonical_moves()
        for before, move in self.opponent_moves(trajectory, result, final):
            self.model.observe(canon[before], canon_move[before][move])
        self.model.refresh()

    def _copy(self):
        twin = super()._copy()
        twin.model = self.model.copy()
        return twin


def InstrumentalAIF(**kwargs) -> ActiveInferenceAgent:
    """:class:`ActiveInferenceAgent` with ``lam = 0`` (the thesis's Instrumental AIF)."""
    if "lam" in kwargs:
        raise ValueError("InstrumentalAIF fixes lam = 0; use ActiveInferenceAgent for other values")
    return ActiveInferenceAgent(lam=0.0, **kwargs)


def HybridAIF(lam: float = 0.5, **kwargs) -> ActiveInferenceAgent:
    """:class:`ActiveInferenceAgent` with ``lam = 0.5`` by default (the thesis's Hybrid AIF)."""
    return ActiveInferenceAgent(lam=lam, **kwargs)


@cache
def _successors() -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in row) for row in tables().succ]


@cache
def _move_arrays() -> list[np.ndarray]:
    """Legal canonical moves of each canonical position, as index arrays."""
    return [np.array(m, dtype=np.intp) for m in _tree().moves]


@cache
def _canonical_ids() -> list[int]:
    return [int(c) for c in tables().canon]


# -------------------------------------------------------------------------- Pure


class PureAIF(_MatchboxAIF):
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
    lam, lambda_policy, prefs, beta_amb, filter, player, bead_scale, trace
        As for :class:`OracleAIF`.

    Attributes
    ----------
    alpha
        Shape (positions, 9, 3): counts per canonical position id and canonical
        square (only legal moves of canonical agent states are used).
    """

    def __init__(
        self,
        lam: float = 0.0,
        lambda_policy: float = 0.25,
        prefs: Sequence[float] = DEFAULT_PREFERENCES,
        beta_amb: float = 0.0,
        filter: str = "michie",
        *,
        player: int = X,
        bead_scale: float = DEFAULT_BEAD_SCALE,
        trace: bool = False,
    ) -> None:
        super().__init__(
            lam=lam,
            lambda_policy=lambda_policy,
            prefs=prefs,
            beta_amb=beta_amb,
            filter=filter,
            player=player,
            bead_scale=bead_scale,
            trace=trace,
        )
        n = tables().n_positions
        self.alpha = np.ones((n, 9, 3))
        # G, risk, epistemic and ambiguity per (position, square), kept in step with
        # alpha: a game changes at most five pairs, so only those are recomputed.
        self._values = tuple(np.full((n, 9), v[0]) for v in self._efe(np.ones((1, 3))))

    @property
    def name(self) -> str:
        return f"Pure AIF (λ={self.lam:g})"

    def config(self) -> dict:
        return {"agent": "pure-aif", **self._base_config()}

    def set_counts(self, where: int | str | Sequence[int], move: int, counts: Sequence[float]):
        """Set the (win, draw, loss) counts of one canonical move (for examples and tests)."""
        c = self._agent_state(where)
        if move not in _tree().moves[c]:
            raise ValueError(f"square {move} is not a legal canonical move of {tables().text(c)!r}")
        alpha = np.asarray(counts, dtype=float)
        if alpha.shape != (3,) or not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
            raise ValueError(f"counts must be three finite numbers > 0, got {counts!r}")
        self.alpha[c, move] = alpha
        for values, v in zip(self._values, self._efe(alpha[None, :]), strict=True):
            values[c, move] = v[0]

    def _efe(self, alphas: np.ndarray) -> tuple[np.ndarray, ...]:
        t = expected_free_energy_actions(alphas, self.prefs, self.lam, self.beta_amb, strict=False)
        return t.G, t.risk, t.epistemic, t.ambiguity

    def _learn(self, trajectory, result, final) -> None:
        canon = _canonical_ids()
        canon_move = _canonical_moves()
        states = [canon[pid] for pid, _, _ in trajectory]
        moves = [canon_move[pid][square] for pid, square, _ in trajectory]
        self.alpha[states, moves, result] += 1.0  # each state occurs once per game
        for values, v in zip(self._values, self._efe(self.alpha[states, moves]), strict=True):
            values[states, moves] = v

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        moves = _move_arrays()[c]
        return tuple(values[c, moves] for values in self._values)

    def _table(self, c: int) -> EFETable:
        alphas = self.alpha[c, _move_arrays()[c]]
        q, terms = self._policy_terms(c)
        return self._make_table(c, (q, terms), alphas / alphas.sum(axis=1, keepdims=True), terms[1])

    def _copy(self):
        twin = super()._copy()
        twin.alpha = self.alpha.copy()
        twin._values = tuple(v.copy() for v in self._values)
        return twin
