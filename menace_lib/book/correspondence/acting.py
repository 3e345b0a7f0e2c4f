"""Acting (thesis Theorem 5.3): drawing a bead is probability matching.

Drawing a bead plays colour ``i`` with probability ``alpha_i / alpha_0``, the posterior
predictive of ``Dir(alpha)``. Thompson sampling draws ``theta ~ Dir(alpha)`` first and
plays its largest component. :func:`thompson_choice_probabilities` estimates the
latter's choice probabilities; :func:`simulate_box_bandit` plays one matchbox many
times under either rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...maths.dirichlet import check_rng
from ...play.loop import RESULT_NAMES
from .checks import bead_counts, check_count, outcome_table, positive_alpha, result_triple

RULES = ("matching", "thompson", "greedy", "value-thompson")
"""Action-selection rules of :func:`simulate_box_bandit`."""

_BANDIT_RESTOCKS = ("box", "move")
_BEAD_RULES = ("matching", "thompson", "greedy")


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
    a = positive_alpha(alpha)
    n = check_count(n, "n")
    theta = check_rng(rng).dirichlet(a, size=n)
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
    probs = outcome_table(outcome_probs)
    k = probs.shape[0]
    steps = check_count(steps, "steps")
    runs = check_count(runs, "runs")
    check_rng(rng)
    start = bead_counts(np.broadcast_to(np.asarray(initial, dtype=float), (k,)).copy(), "initial")
    delta = result_triple(reinforcement, "reinforcement")
    u = delta if utility is None else result_triple(utility, "utility")
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
