"""MENACE read as a Dirichlet-categorical learner: where the reading is exact, where it breaks.

Part II of the book (thesis chapters 5-7) makes a handful of claims about the bead
mechanism. Each claim has a function here that computes the evidence for it; the
notebooks only call them and show the results.

Acting (thesis Theorem 5.3)
    Drawing a bead plays colour ``i`` with probability ``alpha_i / alpha_0``, the
    posterior predictive of ``Dir(alpha)`` (probability matching). Thompson sampling
    draws ``theta ~ Dir(alpha)`` first and plays its largest component.
    :func:`thompson_choice_probabilities` estimates the latter's choice probabilities;
    :func:`simulate_box_bandit` plays one matchbox many times under either rule.
Learning (Remarks 5.4-5.7, Definition 5.6)
    :func:`mda_update` is step 4 of the MENACE Decomposition Algorithm, with the
    code's clamp at 0 or the text's clamp at ``epsilon > 0``; :func:`replay_counts`
    and :func:`order_dependence` show that a clamped decrement makes the result depend
    on the order of the games, which no conjugate (count-adding) update can do;
    :func:`box_order_dependence` does the same for a whole box with restocking;
    :func:`update_audit` counts the decrements, clamps and restocks of a training run;
    :func:`schedule_comparison` trains with different reinforcement schedules.
Policy shaping (chapter 6)
    :func:`expected_drift` is the exact expected one-game change of a box's bead
    proportions; for large boxes it approaches :func:`replicator_drift`, a step towards
    moves of higher expected utility, and :func:`mean_field_path` follows it.
    :func:`boltzmann_preferences` turns utilities into preferences whose cross-entropy
    risk is an affine function of expected utility (:func:`utility_risk_identity`).
Epistemic vs instrumental (chapter 7)
    :func:`scaled_efe` (the expected free energy as counts grow at fixed proportions),
    :func:`policy_over_lambda` and :func:`crossover_lambda`.
Entropy identity (Appendix D)
    :func:`expected_log_theta`, :func:`expected_theta_log_theta` and their Monte-Carlo
    check :func:`log_moments_mc`.

Result codes follow :mod:`menace_lib.menace`: outcome 0 win, 1 draw, 2 loss, from the
learner's side.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import digamma, logsumexp, xlogy

from .dirichlet import (
    SUM_TOLERANCE,
    _as_alpha,
    _check_rng,
    cross_entropy,
    dirichlet_mean,
    entropy,
    kl_divergence,
)
from .efe import (
    EFETerms,
    RiskForm,
    expected_free_energy_actions,
    softmax_policy,
)
from .evaluation import exact_outcome
from .menace import RESULT_NAMES, Menace, MenaceConfig
from .training import TrainingLog, train

__all__ = [
    "RULES",
    "BanditRun",
    "UpdateAudit",
    "boltzmann_preferences",
    "crossover_lambda",
    "expected_drift",
    "expected_log_theta",
    "expected_theta_log_theta",
    "log_moments_mc",
    "mda_update",
    "mean_field_path",
    "box_order_dependence",
    "order_dependence",
    "policy_over_lambda",
    "replay_counts",
    "replicator_drift",
    "scaled_efe",
    "schedule_comparison",
    "simulate_box_bandit",
    "thompson_choice_probabilities",
    "update_audit",
    "utility_risk_identity",
]

RULES = ("matching", "thompson", "greedy", "value-thompson")
"""Action-selection rules of :func:`simulate_box_bandit`."""

_BANDIT_RESTOCKS = ("box", "move")
_BEAD_RULES = ("matching", "thompson", "greedy")


# ------------------------------------------------------------------------------ checks


def _check_count(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def _positive_alpha(alpha: ArrayLike) -> NDArray[np.float64]:
    return _as_alpha(alpha, ndims=(1,))


def _beads(alpha: ArrayLike, name: str = "alpha") -> NDArray[np.float64]:
    """Bead counts: finite, >= 0, at least one > 0 (a clamped colour may hold 0)."""
    a = np.asarray(alpha, dtype=float)
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-D array; got shape {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name} must be finite and >= 0; got {a.tolist()}")
    if a.sum() <= 0:
        raise ValueError(f"{name} must hold at least one bead; got {a.tolist()}")
    return a


def _outcome_table(outcome_probs: ArrayLike, k: int | None = None) -> NDArray[np.float64]:
    p = np.asarray(outcome_probs, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3 or p.shape[0] < 1:
        raise ValueError(
            f"outcome_probs must have shape (moves, 3) over (win, draw, loss); got {p.shape}"
        )
    if k is not None and p.shape[0] != k:
        raise ValueError(f"outcome_probs has {p.shape[0]} rows for {k} bead colours")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError(f"outcome_probs must be finite and >= 0; got {p.tolist()}")
    if np.any(np.abs(p.sum(axis=1) - 1.0) > SUM_TOLERANCE):
        raise ValueError(f"each row of outcome_probs must sum to 1; got {p.sum(axis=1)}")
    return p


def _triple(values: ArrayLike, name: str) -> NDArray[np.float64]:
    v = np.asarray(values, dtype=float)
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be 3 finite numbers (win, draw, loss); got {values!r}")
    return v


# ---------------------------------------------------------------------------- acting


def thompson_choice_probabilities(
    alpha: ArrayLike, n: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Monte-Carlo estimate of how often Thompson sampling picks each component.

    Thompson sampling draws ``theta ~ Dir(alpha)`` and plays ``argmax_i theta_i``; the
    probability of playing ``i`` is ``P(theta_i is the largest)``, which unlike the
    probability-matching ``alpha_i / alpha_0`` depends on the scale of ``alpha``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, finite and > 0.
    n : int
        Number of parameter draws, >= 1.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of shape (k,)
        Fractions of the ``n`` draws won by each component (sum to 1).
    """
    a = _positive_alpha(alpha)
    n = _check_count(n, "n")
    theta = _check_rng(rng).dirichlet(a, size=n)
    return np.bincount(theta.argmax(axis=1), minlength=a.size) / n


@dataclass(frozen=True)
class BanditRun:
    """Many independent plays of one matchbox (see :func:`simulate_box_bandit`).

    Attributes
    ----------
    rule : str
        The action-selection rule.
    choices : ndarray of shape (runs, steps)
        Colour drawn at each step of each run.
    outcomes : ndarray of shape (runs, steps)
        Outcome code (0 win, 1 draw, 2 loss) at each step.
    regret : ndarray of shape (runs, steps)
        Expected utility of the best colour minus that of the colour drawn.
    final_alpha : ndarray of shape (runs, k)
        Bead counts after the last step (for ``"value-thompson"``: each colour's total
        outcome pseudo-count, i.e. 3 plus its number of draws).
    alpha_history : ndarray of shape (runs, steps + 1, k) or None
        Bead counts before every step and after the last (if recorded; bead rules only).
    outcome_counts : ndarray of shape (runs, k, 3) or None
        The outcome pseudo-counts of ``"value-thompson"`` after the last step.
    """

    rule: str
    choices: NDArray[np.int64]
    outcomes: NDArray[np.int64]
    regret: NDArray[np.float64]
    final_alpha: NDArray[np.float64]
    alpha_history: NDArray[np.float64] | None
    outcome_counts: NDArray[np.float64] | None = None

    @property
    def runs(self) -> int:
        return int(self.choices.shape[0])

    @property
    def steps(self) -> int:
        return int(self.choices.shape[1])

    def choice_frequencies(self) -> NDArray[np.float64]:
        """Fraction of runs drawing each colour at each step, shape (steps, k)."""
        k = self.final_alpha.shape[1]
        counts = np.stack([(self.choices == i).sum(axis=0) for i in range(k)], axis=1)
        return counts / self.runs

    def mean_cumulative_regret(self) -> NDArray[np.float64]:
        """Cumulative regret after each step, averaged over runs, shape (steps,)."""
        return np.cumsum(self.regret, axis=1).mean(axis=0)

    def outcome_rates(self) -> dict[str, float]:
        """Win, draw and loss rates over every step of every run."""
        counts = np.bincount(self.outcomes.ravel(), minlength=3) / self.outcomes.size
        return {name: float(counts[i]) for i, name in enumerate(RESULT_NAMES)}


def _choose(rule: str, alpha: NDArray[np.float64], rng: np.random.Generator) -> NDArray[np.int64]:
    """One colour per row of ``alpha`` (rows hold at least one bead)."""
    k = alpha.shape[1]
    if rule == "matching":
        # The reference sampler, row-wise: first colour whose cumulative count exceeds
        # u * total. Zero-bead colours have zero width and are never drawn.
        cum = np.cumsum(alpha, axis=1)
        t = rng.random(alpha.shape[0]) * cum[:, -1]
        j = (cum <= t[:, None]).sum(axis=1)
        last_live = k - 1 - np.argmax(alpha[:, ::-1] > 0, axis=1)
        return np.minimum(j, last_live)
    if rule == "thompson":
        # argmax of a Dirichlet draw = argmax of independent Gamma(alpha_i) draws; a
        # zero-bead colour draws Gamma(0) = 0 and never wins against a live one.
        return np.argmax(rng.standard_gamma(alpha), axis=1)
    # Greedy on the posterior mean, ties broken uniformly at random.
    top = alpha == alpha.max(axis=1, keepdims=True)
    return np.argmax(np.where(top, rng.random(alpha.shape), -1.0), axis=1)


def simulate_box_bandit(
    outcome_probs: ArrayLike,
    rule: str,
    steps: int,
    runs: int,
    rng: np.random.Generator,
    *,
    initial: float | ArrayLike = 4.0,
    reinforcement: ArrayLike = (3.0, 1.0, -1.0),
    restock: str = "box",
    utility: ArrayLike | None = None,
    record_alpha: bool = False,
) -> BanditRun:
    """Play one matchbox as a bandit: draw a colour, see an outcome, reinforce, repeat.

    Each colour (move) ``a`` leads to win, draw or loss with fixed probabilities
    ``outcome_probs[a]``. The box starts with ``initial`` beads per colour and learns
    exactly as a MENACE box does (``+3 / +1 / -1``, clamped at 0, restocked); only the
    rule that picks the colour changes:

    ``"matching"``
        draw a bead: colour ``a`` with probability ``alpha_a / alpha_0`` (MENACE);
    ``"thompson"``
        draw ``theta ~ Dir(alpha)``, play ``argmax theta`` (thesis section 5.1);
    ``"greedy"``
        play the colour with the most beads (ties at random): no exploration;
    ``"value-thompson"``
        canonical Thompson sampling on beliefs about *outcomes*, not beads: each colour
        keeps ``Dir(1, 1, 1)`` over (win, draw, loss), updated conjugately (+1 to the
        observed outcome); draw one outcome distribution per colour and play the colour
        of highest expected ``utility``. The bead arguments are then unused.

    All runs advance together, so the cost is ``steps`` vectorised numpy steps.

    Parameters
    ----------
    outcome_probs : array_like, shape (k, 3)
        Rows over (win, draw, loss), each summing to 1.
    rule : {"matching", "thompson", "greedy", "value-thompson"}
    steps, runs : int
        Draws per run and independent runs, each >= 1.
    rng : numpy.random.Generator
        The only source of randomness.
    initial : float or array_like of shape (k,), default 4.0
        Starting beads per colour (>= 0, at least one bead); also what a restock puts
        back. A colour with 0 beads is never drawn by the bead rules.
    reinforcement : array_like of shape (3,), default (3, 1, -1)
        Beads added to the drawn colour after a win, draw, loss.
    restock : {"box", "move"}, default "box"
        ``"box"``: a box whose colours are all at 0 is refilled with ``initial``.
        ``"move"``: a colour that falls to 0 is reset to its initial count.
    utility : array_like of shape (3,), optional
        Utility of win, draw, loss used to score regret; defaults to ``reinforcement``
        (the thesis's ``U(o)``, eq. 5.5).
    record_alpha : bool, default False
        Keep the bead counts of every step (memory ``runs * steps * k``).

    Returns
    -------
    BanditRun
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; choose one of {RULES}")
    if restock not in _BANDIT_RESTOCKS:
        raise ValueError(f"restock must be one of {_BANDIT_RESTOCKS}; got {restock!r}")
    probs = _outcome_table(outcome_probs)
    k = probs.shape[0]
    steps = _check_count(steps, "steps")
    runs = _check_count(runs, "runs")
    _check_rng(rng)
    start = _beads(np.broadcast_to(np.asarray(initial, dtype=float), (k,)).copy(), "initial")
    delta = _triple(reinforcement, "reinforcement")
    u = delta if utility is None else _triple(utility, "utility")
    mean_utility = probs @ u
    regret_of = mean_utility.max() - mean_utility

    alpha = np.tile(start, (runs, 1))
    rows = np.arange(runs)
    cum_probs = np.cumsum(probs, axis=1)
    choices = np.empty((runs, steps), dtype=np.int64)
    outcomes = np.empty((runs, steps), dtype=np.int64)
    history = np.empty((runs, steps + 1, k)) if record_alpha and rule in _BEAD_RULES else None
    beliefs = np.ones((runs, k, 3)) if rule == "value-thompson" else None
    for t in range(steps):
        if history is not None:
            history[:, t] = alpha
        if beliefs is not None:
            theta = rng.standard_gamma(beliefs)
            theta /= theta.sum(axis=2, keepdims=True)
            a = np.argmax(theta @ u, axis=1)
        else:
            a = _choose(rule, alpha, rng)
        o = np.minimum((cum_probs[a] <= rng.random(runs)[:, None]).sum(axis=1), 2)
        choices[:, t] = a
        outcomes[:, t] = o
        if beliefs is not None:
            beliefs[rows, a, o] += 1.0
            continue
        new = alpha[rows, a] + delta[o]
        dead = new <= 0
        new[dead] = start[a[dead]] if restock == "move" else 0.0
        alpha[rows, a] = new
        if restock == "box":
            empty = alpha.max(axis=1) <= 0
            alpha[empty] = start
    if history is not None:
        history[:, steps] = alpha
    return BanditRun(
        rule=rule,
        choices=choices,
        outcomes=outcomes,
        regret=regret_of[choices],
        final_alpha=alpha if beliefs is None else beliefs.sum(axis=2),
        alpha_history=history,
        outcome_counts=beliefs,
    )


# -------------------------------------------------------------------------- learning


def mda_update(
    boxes: Mapping[Hashable, ArrayLike],
    trajectory: Iterable[tuple[Hashable, int]],
    utility: float,
    *,
    initial: Mapping[Hashable, ArrayLike],
    floor: float = 0.0,
    restock: str = "box",
) -> dict[Hashable, NDArray[np.float64]]:
    """Step 4 of the MENACE Decomposition Algorithm (thesis Definition 5.6).

    For every ``(s, a)`` of the trajectory, ``alpha[s][a] += U(o)``; a count that falls
    to ``floor`` or below is set to ``floor`` (or, with ``restock="move"``, back to its
    initial value); after a negative update, a box all of whose counts are at or below
    ``floor`` is refilled with its initial counts (``restock="box"``).

    ``floor=0`` is the thesis code's clamp, which MENACE uses: a colour at 0 cannot be
    drawn until its box is restocked. ``floor > 0`` is the text's ``alpha >= epsilon``,
    which keeps every ``Dir(alpha)`` proper and every move playable.

    Parameters
    ----------
    boxes : mapping state -> array_like of shape (k_s,)
        Current pseudo-counts; left untouched.
    trajectory : iterable of (state, colour)
        The pairs drawn in one episode. States not in ``boxes`` are skipped (positions
        without a matchbox learn nothing).
    utility : float
        ``U(o)`` of the episode's outcome, e.g. ``+3 / +1 / -1``.
    initial : mapping state -> array_like of shape (k_s,)
        Initial counts, put back by a restock.
    floor : float, default 0.0
        The clamp level ``epsilon`` (finite, >= 0).
    restock : {"box", "move", "none"}, default "box"

    Returns
    -------
    dict state -> ndarray
        The updated pseudo-counts (copies; every state of ``boxes`` is present).
    """
    if restock not in ("box", "move", "none"):
        raise ValueError(f"restock must be 'box', 'move' or 'none'; got {restock!r}")
    if not np.isfinite(floor) or floor < 0:
        raise ValueError(f"floor must be finite and >= 0; got {floor!r}")
    if not np.isfinite(utility):
        raise ValueError(f"utility must be finite; got {utility!r}")
    new = {s: np.array(a, dtype=float) for s, a in boxes.items()}
    touched = []
    for s, a in trajectory:
        if s not in new:
            continue
        w = new[s]
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= a < w.size:
            raise ValueError(f"colour {a!r} does not exist in box {s!r} ({w.size} colours)")
        value = w[a] + utility
        if value <= floor:
            value = float(np.asarray(initial[s], dtype=float)[a]) if restock == "move" else floor
        w[a] = value
        touched.append(s)
    if restock == "box" and utility < 0:
        for s in touched:
            if new[s].max() <= floor:
                new[s] = np.array(initial[s], dtype=float)
    return new


def replay_counts(start: float, deltas: Sequence[float], floor: float = 0.0) -> float:
    """One bead count after a sequence of updates, each clamped at ``floor``.

    Parameters
    ----------
    start : float
        The count before the first update (>= ``floor``).
    deltas : sequence of float
        The reinforcements in the order the games were played.
    floor : float, default 0.0

    Returns
    -------
    float
    """
    if not np.isfinite(start) or start < floor:
        raise ValueError(f"start must be finite and >= floor ({floor}); got {start!r}")
    value = float(start)
    for d in deltas:
        value = max(value + float(d), floor)
    return value


def order_dependence(start: float, deltas: Sequence[float], floor: float = 0.0) -> dict[float, int]:
    """Final count for every distinct ordering of the same games.

    A conjugate update adds counts, so it ends at ``start + sum(deltas)`` in any order.
    A decrement clamped at ``floor`` does not commute: losses met while the count is
    low are partly absorbed by the clamp.

    Parameters
    ----------
    start : float
        Initial count.
    deltas : sequence of float
        The reinforcements of the games (at most 10, since every ordering is tried).
    floor : float, default 0.0

    Returns
    -------
    dict final count -> number of distinct orderings reaching it
    """
    if len(deltas) > 10:
        raise ValueError(f"at most 10 updates (every ordering is tried); got {len(deltas)}")
    orders = set(itertools.permutations([float(d) for d in deltas]))
    finals = Counter(replay_counts(start, order, floor) for order in orders)
    return dict(sorted(finals.items()))


def box_order_dependence(
    initial: ArrayLike,
    games: Sequence[tuple[int, float]],
    *,
    restock: str = "box",
    floor: float = 0.0,
    feasible_only: bool = True,
) -> dict[tuple[float, ...], int]:
    """Final bead counts of one box for every distinct ordering of the same games.

    Each game draws one colour of the box and ends with a reinforcement; the box is
    updated by :func:`mda_update`, starting from (and restocked to) ``initial``. A
    conjugate update would end in the same box whatever the order.

    Parameters
    ----------
    initial : array_like, shape (k,)
        The box's initial bead counts.
    games : sequence of (colour, reinforcement)
        At most 8 games (every ordering is tried).
    restock : {"box", "move", "none"}, default "box"
    floor : float, default 0.0
    feasible_only : bool, default True
        Skip orderings that draw a colour holding ``floor`` beads or fewer: a bead that
        is not in the box cannot be drawn.

    Returns
    -------
    dict final counts (tuple) -> number of distinct orderings ending there
    """
    start = _beads(initial, "initial")
    if len(games) > 8:
        raise ValueError(f"at most 8 games (every ordering is tried); got {len(games)}")
    for colour, delta in games:
        if isinstance(colour, bool) or not isinstance(colour, (int, np.integer)):
            raise ValueError(f"game colours must be integers; got {colour!r}")
        if not 0 <= colour < start.size:
            raise ValueError(f"colour {colour} does not exist ({start.size} colours)")
        if not np.isfinite(delta):
            raise ValueError(f"reinforcements must be finite; got {delta!r}")
    finals: Counter = Counter()
    for order in set(itertools.permutations([(int(c), float(d)) for c, d in games])):
        box = {0: start}
        feasible = True
        for colour, delta in order:
            if box[0][colour] <= floor:
                feasible = False
                if feasible_only:
                    break
            box = mda_update(
                box, [(0, colour)], delta, initial={0: start}, floor=floor, restock=restock
            )
        if feasible or not feasible_only:
            finals[tuple(float(x) for x in box[0])] += 1
    return dict(sorted(finals.items()))


@dataclass(frozen=True)
class UpdateAudit:
    """What MENACE's end-of-game updates did over a training run.

    Every count refers to single ``(box, colour)`` updates. The bead ledger balances:
    ``final_beads = initial_beads + signed_beads + beads_clamped + beads_restocked``.

    Attributes
    ----------
    updates, increments, decrements : int
        All updates, those with a positive and those with a negative reinforcement.
    clamped : int
        Decrements that would have taken a count below 0.
    emptied : int
        Updates that took a colour to 0 beads: unplayable, and ``Dir(alpha)`` improper,
        until a restock (a box restock may follow at once).
    box_restocks, move_restocks : int
        Restocks triggered by the updates.
    initial_beads, final_beads : float
        Beads in all boxes before the first and after the last game.
    signed_beads : float
        The sum of every reinforcement applied (what an unclamped count would gain).
    beads_clamped : float
        Beads the clamp refused to remove (>= 0).
    beads_restocked : float
        Beads put back by restocks (>= 0).
    below_initial : float
        Fraction of all bead colours that end below their initial count: a state no
        conjugate (count-adding) update can reach.
    """

    updates: int
    increments: int
    decrements: int
    clamped: int
    emptied: int
    box_restocks: int
    move_restocks: int
    initial_beads: float
    final_beads: float
    signed_beads: float
    beads_clamped: float
    beads_restocked: float
    below_initial: float


def update_audit(config: MenaceConfig, log: TrainingLog) -> UpdateAudit:
    """Replay a MENACE training log and count what the update rule did.

    The log's drawn beads and results determine every update, so a fresh MENACE built
    with ``config`` is replayed through them with :meth:`Menace.reinforce`; the counts
    are read off before and after each game.

    Parameters
    ----------
    config : MenaceConfig
        The configuration the logged agent was built with (from its initial beads).
    log : TrainingLog
        Recorded with its paths (the default of :func:`menace_lib.training.train`).

    Returns
    -------
    UpdateAudit
    """
    if len(log.paths) != len(log.results):
        raise ValueError("the log has no paths: train with record_paths=True")
    agent = Menace(config)
    initial_beads = agent.total_beads()
    tally = Counter()
    signed = clamped_beads = restocked_beads = 0.0
    for path, result in zip(log.paths, log.results, strict=True):
        if not path:
            continue
        d = config.reinforcement[result]
        mid: dict[int, list[float]] = {}
        for b, j in path:
            w = mid.setdefault(b, list(agent.weights[b]))
            raw = w[j] + d
            tally["updates"] += 1
            tally["increments" if d > 0 else "decrements" if d < 0 else "zero"] += 1
            signed += d
            if raw < 0:
                tally["clamped"] += 1
                clamped_beads += -raw
            if raw <= 0 and config.restock == "move":
                tally["move_restocks"] += 1
                restocked_beads += agent.initial[b][j]
            elif raw <= 0:
                tally["emptied"] += 1
            w[j] = max(raw, 0.0)
        agent.reinforce(path, result)
        for b, w in mid.items():
            if config.restock == "box" and d < 0 and max(w) <= 0:
                tally["box_restocks"] += 1
                restocked_beads += sum(agent.weights[b])
    flat_w = np.fromiter((x for w in agent.weights for x in w), dtype=float)
    flat_0 = np.fromiter((x for w in agent.initial for x in w), dtype=float)
    return UpdateAudit(
        updates=tally["updates"],
        increments=tally["increments"],
        decrements=tally["decrements"],
        clamped=tally["clamped"],
        emptied=tally["emptied"],
        box_restocks=tally["box_restocks"],
        move_restocks=tally["move_restocks"],
        initial_beads=initial_beads,
        final_beads=agent.total_beads(),
        signed_beads=signed,
        beads_clamped=clamped_beads,
        beads_restocked=restocked_beads,
        below_initial=float(np.mean(flat_w < flat_0)),
    )


def schedule_comparison(
    reinforcements: Mapping[str, Sequence[float]],
    seeds: Iterable[int],
    *,
    regimen: str = "mixed",
    games: int = 500,
    opponent: str = "perfect",
    **config: object,
) -> dict[str, NDArray[np.float64]]:
    """Train one MENACE per schedule and seed; return exact results against ``opponent``.

    Every schedule sees the same seeds, so differences are paired.

    Parameters
    ----------
    reinforcements : mapping name -> (win, draw, loss)
        E.g. ``{"Michie (3, 1, -1)": (3, 1, -1), "no decrement (3, 1, 0)": (3, 1, 0)}``.
    seeds : iterable of int
        One training run per seed (``np.random.default_rng(seed)``).
    regimen : str, default "mixed"
        Passed to :func:`menace_lib.training.train`.
    games : int, default 500
    opponent : str, default "perfect"
        Opponent of the exact post-training evaluation.
    **config
        Further :class:`MenaceConfig` fields (filter, restock, ...).

    Returns
    -------
    dict name -> ndarray of shape (seeds, 3)
        Exact (win, draw, loss) probabilities of each frozen, trained agent.
    """
    seeds = list(seeds)
    if not seeds:
        raise ValueError("seeds must list at least one seed")
    games = _check_count(games, "games", minimum=0)
    out = {}
    for name, r in reinforcements.items():
        rows = []
        for seed in seeds:
            agent = Menace(MenaceConfig(reinforcement=tuple(r), **config))
            train(agent, regimen, games, np.random.default_rng(seed))
            v = exact_outcome(agent, opponent)
            rows.append([v[k] for k in RESULT_NAMES])
        out[name] = np.array(rows)
    return out


# ------------------------------------------------------------------- policy shaping


def expected_drift(
    alpha: ArrayLike,
    outcome_probs: ArrayLike,
    reinforcement: ArrayLike = (3.0, 1.0, -1.0),
    *,
    restock: str = "box",
    initial: ArrayLike | None = None,
) -> NDArray[np.float64]:
    """Exact expected change of a box's bead proportions over one game.

    A colour ``a`` is drawn with probability ``alpha_a / alpha_0``, the game ends in
    ``o`` with probability ``outcome_probs[a, o]``, and ``alpha_a`` changes by
    ``reinforcement[o]`` (clamped at 0, then restocked as in MENACE). Every (colour,
    outcome) branch is enumerated, so the result is exact.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Bead counts (>= 0, at least one bead).
    outcome_probs : array_like, shape (k, 3)
        Win, draw, loss probabilities after each colour.
    reinforcement : array_like, shape (3,), default (3, 1, -1)
    restock : {"box", "move", "none"}, default "box"
        Applied when a count reaches 0; needs ``initial`` unless ``"none"``.
    initial : array_like, shape (k,), optional
        Counts a restock puts back (default: ``alpha``).

    Returns
    -------
    ndarray of shape (k,)
        ``E[alpha' / alpha'_0] - alpha / alpha_0``; sums to 0.
    """
    a = _beads(alpha)
    probs = _outcome_table(outcome_probs, a.size)
    delta = _triple(reinforcement, "reinforcement")
    if restock not in ("box", "move", "none"):
        raise ValueError(f"restock must be 'box', 'move' or 'none'; got {restock!r}")
    start = a if initial is None else _beads(initial, "initial")
    if start.shape != a.shape:
        raise ValueError(f"initial has shape {start.shape}, alpha {a.shape}")
    pi = a / a.sum()
    expected = np.zeros_like(pi)
    for j in np.flatnonzero(pi > 0):
        for o in range(3):
            weight = pi[j] * probs[j, o]
            if weight == 0:
                continue
            new = mda_update(
                {0: a}, [(0, int(j))], float(delta[o]), initial={0: start}, restock=restock
            )[0]
            total = new.sum()
            # With restock "none" an emptied box stays empty; its policy is undefined,
            # and MENACE would resign: count the old proportions (no policy change).
            expected += weight * (new / total if total > 0 else pi)
    return expected - pi


def replicator_drift(
    alpha: ArrayLike, outcome_probs: ArrayLike, reinforcement: ArrayLike = (3.0, 1.0, -1.0)
) -> NDArray[np.float64]:
    """Large-box approximation of :func:`expected_drift`: the replicator dynamics.

    ``pi_a (u_a - sum_b pi_b u_b) / alpha_0`` with ``u_a = E[U(o) | a]``: a colour gains
    share in proportion to how much better than the box's average it does. The error
    is of order ``1 / alpha_0^2``.

    Parameters
    ----------
    alpha, outcome_probs, reinforcement
        As in :func:`expected_drift`.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = _beads(alpha)
    probs = _outcome_table(outcome_probs, a.size)
    u = probs @ _triple(reinforcement, "reinforcement")
    pi = a / a.sum()
    return pi * (u - pi @ u) / a.sum()


def mean_field_path(
    alpha: ArrayLike,
    outcome_probs: ArrayLike,
    steps: int,
    reinforcement: ArrayLike = (3.0, 1.0, -1.0),
) -> NDArray[np.float64]:
    """Bead proportions of a box that receives its *expected* update every game.

    ``alpha_a <- alpha_a + pi_a u_a`` with ``pi = alpha / alpha_0`` and
    ``u_a = E[U(o) | a]``: the deterministic path that sampled MENACE boxes scatter
    around while no count is near 0 (counts are kept at >= 1e-12).

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Starting bead counts (> 0).
    outcome_probs : array_like, shape (k, 3)
    steps : int
        Number of games, >= 1.
    reinforcement : array_like, shape (3,), default (3, 1, -1)

    Returns
    -------
    ndarray of shape (steps + 1, k)
        The proportions before the first game and after each game.
    """
    a = _positive_alpha(alpha).copy()
    probs = _outcome_table(outcome_probs, a.size)
    u = probs @ _triple(reinforcement, "reinforcement")
    steps = _check_count(steps, "steps")
    path = np.empty((steps + 1, a.size))
    path[0] = a / a.sum()
    for t in range(1, steps + 1):
        a = np.maximum(a + (a / a.sum()) * u, 1e-12)
        path[t] = a / a.sum()
    return path


def utility_risk_identity(
    q: ArrayLike, utility: ArrayLike, temperature: float
) -> dict[str, NDArray[np.float64]]:
    """Risk of outcome distributions ``q`` under Boltzmann preferences, two ways.

    With ``p = boltzmann_preferences(utility, temperature)``, the cross-entropy risk
    ``-E_q[ln p]`` equals ``-E_q[U] / temperature + logsumexp(U / temperature)``; the KL
    risk differs from it by the entropy ``H(q)``.

    Parameters
    ----------
    q : array_like, shape (n, k)
        Outcome distributions (rows sum to 1).
    utility : array_like, shape (k,)
    temperature : float

    Returns
    -------
    dict of ndarrays of shape (n,)
        ``expected_utility``, ``cross_entropy``, ``affine`` (the right-hand side above),
        ``kl`` and ``entropy``.
    """
    p = boltzmann_preferences(utility, temperature)
    rows = np.atleast_2d(np.asarray(q, dtype=float))
    u = np.asarray(utility, dtype=float)
    if rows.shape[1] != u.size:
        raise ValueError(f"q has {rows.shape[1]} outcomes but utility has {u.size}")
    ce = np.asarray(cross_entropy(rows, p), dtype=float)
    return {
        "expected_utility": rows @ u,
        "cross_entropy": ce,
        "affine": -(rows @ u) / temperature + logsumexp(u / temperature),
        "kl": np.asarray(kl_divergence(rows, p), dtype=float),
        "entropy": np.asarray(entropy(rows), dtype=float),
    }


def boltzmann_preferences(utility: ArrayLike, temperature: float) -> NDArray[np.float64]:
    """Preferences ``p(o | C) ∝ exp(U(o) / temperature)``: log-preferences are utilities.

    With these preferences the cross-entropy risk is affine in expected utility,
    ``-E_q[ln p] = -E_q[U] / temperature + logsumexp(U / temperature)``, so minimising
    it is maximising expected utility.

    Parameters
    ----------
    utility : array_like, shape (k,)
        Finite utilities, e.g. MENACE's ``(3, 1, -1)``.
    temperature : float
        Finite and > 0.

    Returns
    -------
    ndarray of shape (k,)
        A probability vector with no zero entry.
    """
    u = np.asarray(utility, dtype=float)
    if u.ndim != 1 or u.size < 1 or not np.all(np.isfinite(u)):
        raise ValueError(f"utility must be a non-empty 1-D array of finite numbers; got {utility}")
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be finite and > 0; got {temperature!r}")
    z = u / temperature
    return np.exp(z - logsumexp(z))


# ---------------------------------------------------------- epistemic vs instrumental


def scaled_efe(
    alpha: ArrayLike,
    prefs: ArrayLike,
    lam: float,
    scales: ArrayLike,
    *,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
) -> EFETerms:
    """Expected free energy of ``Dir(c * alpha)`` for each scale ``c``.

    Scaling keeps the predicted outcomes ``q = alpha / alpha_0`` and so the risk; only
    the epistemic value ``I(o; theta)`` falls as the counts grow. At ``lam = 0`` the
    expected free energy is therefore the same at every scale.

    Parameters
    ----------
    alpha : array_like, shape (3,)
        Outcome pseudo-counts, > 0.
    prefs : array_like, shape (3,)
        Preferred outcomes.
    lam : float
        Epistemic weight, >= 0.
    scales : array_like, shape (n,)
        Positive multipliers.
    beta_amb, risk_form
        As in :func:`menace_lib.efe.expected_free_energy_actions`.

    Returns
    -------
    EFETerms
        Arrays of shape (n,), one entry per scale.
    """
    a = _positive_alpha(alpha)
    c = np.asarray(scales, dtype=float)
    if c.ndim != 1 or c.size < 1 or not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise ValueError(f"scales must be a non-empty 1-D array of numbers > 0; got {scales}")
    return expected_free_energy_actions(np.outer(c, a), prefs, lam, beta_amb, risk_form)


def policy_over_lambda(
    alphas: ArrayLike,
    prefs: ArrayLike,
    lams: ArrayLike,
    lambda_policy: float = 0.25,
    *,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
) -> NDArray[np.float64]:
    """The softmax policy ``q(a) ∝ exp(-G_lambda(a) / lambda_policy)`` for each epistemic weight.

    Parameters
    ----------
    alphas : array_like, shape (n_actions, 3)
        Outcome pseudo-counts per action.
    prefs : array_like, shape (3,)
    lams : array_like, shape (m,)
        Epistemic weights, each >= 0.
    lambda_policy : float, default 0.25
        Softmax temperature (the thesis's default).
    beta_amb, risk_form
        As in :func:`menace_lib.efe.expected_free_energy_actions`.

    Returns
    -------
    ndarray of shape (m, n_actions)
        Row ``i`` is the policy at ``lams[i]``.
    """
    grid = np.asarray(lams, dtype=float)
    if grid.ndim != 1 or grid.size < 1:
        raise ValueError(f"lams must be a non-empty 1-D array; got shape {grid.shape}")
    base = expected_free_energy_actions(alphas, prefs, 0.0, beta_amb, risk_form)
    rows = []
    for lam in grid:
        if not np.isfinite(lam) or lam < 0:
            raise ValueError(f"every epistemic weight must be finite and >= 0; got {lam!r}")
        rows.append(softmax_policy(base.G - lam * base.epistemic, lambda_policy))
    return np.array(rows)


def crossover_lambda(
    alpha_a: ArrayLike, alpha_b: ArrayLike, prefs: ArrayLike, *, risk_form: RiskForm = "kl"
) -> float:
    """Smallest epistemic weight at which action ``b`` is at least as good as ``a``.

    ``G_lambda(b) <= G_lambda(a)`` once ``lambda >= (risk_b - risk_a) / (I_b - I_a)``.

    Parameters
    ----------
    alpha_a, alpha_b : array_like, shape (3,)
        Outcome pseudo-counts of the two actions.
    prefs : array_like, shape (3,)
    risk_form : {"kl", "cross_entropy"}, default "kl"

    Returns
    -------
    float
        ``0.0`` if ``b`` is already no worse at ``lambda = 0``; ``inf`` if no weight
        ``lambda >= 0`` makes it so.
    """
    a = _positive_alpha(alpha_a)
    b = _positive_alpha(alpha_b)
    if a.shape != b.shape:
        raise ValueError(f"alpha_a and alpha_b differ in shape: {a.shape} vs {b.shape}")
    terms = expected_free_energy_actions(np.stack([a, b]), prefs, 0.0, risk_form=risk_form)
    gap = float(terms.risk[1] - terms.risk[0])
    gain = float(terms.epistemic[1] - terms.epistemic[0])
    if gap <= 0:
        return 0.0
    if gain <= 0:
        return float("inf")
    return gap / gain


# ------------------------------------------------------------------- entropy identity


def expected_log_theta(alpha: ArrayLike) -> NDArray[np.float64]:
    """``E[ln theta_i] = psi(alpha_i) - psi(alpha_0)`` under ``Dir(alpha)``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = _positive_alpha(alpha)
    return digamma(a) - digamma(a.sum())


def expected_theta_log_theta(alpha: ArrayLike) -> NDArray[np.float64]:
    """``E[theta_i ln theta_i] = (alpha_i / alpha_0)(psi(alpha_i + 1) - psi(alpha_0 + 1))``.

    Thesis eq. D.1. Minus the sum over ``i`` is the expected entropy ``H_ale`` (eq. D.2).

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = _positive_alpha(alpha)
    return dirichlet_mean(a) * (digamma(a + 1.0) - digamma(a.sum() + 1.0))


def log_moments_mc(
    alpha: ArrayLike, n: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Monte-Carlo estimates of ``E[ln theta_i]`` and ``E[theta_i ln theta_i]``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.
    n : int
        Number of draws ``theta ~ Dir(alpha)``, >= 2.
    rng : numpy.random.Generator

    Returns
    -------
    (mean_log, se_log, mean_tlogt, se_tlogt)
        Sample means and their standard errors, each of shape (k,).
    """
    a = _positive_alpha(alpha)
    n = _check_count(n, "n", minimum=2)
    theta = _check_rng(rng).dirichlet(a, size=n)
    # Tiny alpha can give theta_i = 0 in floating point; ln 0 would poison the mean.
    log_theta = np.log(np.maximum(theta, np.finfo(float).tiny))
    tlogt = xlogy(theta, theta)
    root_n = np.sqrt(n)
    return (
        log_theta.mean(axis=0),
        log_theta.std(axis=0, ddof=1) / root_n,
        tlogt.mean(axis=0),
        tlogt.std(axis=0, ddof=1) / root_n,
    )
