"""Learning dynamics over training: the metrics the thesis lists in §8.5.3 but never shows.

The thesis says its runs log, game by game, the policy divergence from minimax,
value-function convergence (RL), bead-count evolution (MENACE) and coverage
(§8.5.3), and it reads Figure 9.1's policy KL as "convergence-like behaviour"
(§9.10). None of these is plotted or tabulated there. :func:`run_dynamics` re-runs
the rows of Table 9.1 (and MENACE trained on the perfect player only) with
:func:`~menace_lib.experiments.protocol.run_seed` and a :class:`DynamicsObserver`
attached, so the runs are *the same runs* as the stored suite: the observer draws no
random numbers, and every exact learning-curve point must equal the suite's.

At each learning-curve checkpoint the observer records, over the last ``window``
training games:

``kl_forward``
    mean over frequently visited states (≥ ``min_visits`` visits in the window) of
    ``KL(π_mm,U ‖ π)``, the thesis's direction (eq. 7.4, §9.3), with ``π`` the
    agent's current policy; states where ``π`` gives an optimal move zero
    probability are omitted, as in the thesis (``kl_omitted`` counts them);
``reverse_finite``
    share of those states where the other direction, ``KL(π ‖ π_mm,U)`` as §8.5.3
    writes it, is finite at all: it is infinite whenever ``π`` gives any
    probability to a move that is not minimax-optimal;
``agreement``
    visit-weighted probability that the policy plays a minimax-optimal move,
    ``Σ_s n_s Σ_{m optimal} π(m | s) / Σ_s n_s`` over the window's visits (§9.5);
``entropy``
    visit-weighted entropy of the policy in nats (action-selection entropy, §8.5.3);
``coverage``
    share of the filter's matchbox states visited at least once so far;

and, by agent family, ``beads`` (MENACE: total beads, beads in the opening box,
share of colours at zero in boxes visited so far) or ``q_change`` (Q-learning and
SARSA: largest and root-mean-square change of a Q value of a legal move since the
previous checkpoint: value convergence). Each run's learning curve also gets a
point at game 0, the untrained agent's exact outcome.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...agents.registry import get_kind
from ...experiments import THESIS_SUITE, Condition, Protocol, make_agent, run_seed, select
from ...games.statespace import tables
from ...play.evaluation import exact_outcome, kl_to_reference, policy_matrix

__all__ = [
    "DYNAMICS_CONDITIONS",
    "DynamicsObserver",
    "PERFECT_ONLY",
    "observe_run",
    "run_dynamics",
]

PERFECT_ONLY = Condition(
    "extra",
    "menace",
    "optimal",
    "perfect only",
    {"filter": "michie", "restock": "box"},
    note="MENACE trained on the perfect player from the first game (no curriculum)",
)
"""MENACE without the curriculum: shows what the mixed curriculum does to its curve."""

DYNAMICS_CONDITIONS: tuple[Condition, ...] = (*select(THESIS_SUITE, "9.1"), PERFECT_ONLY)
"""Every row of Table 9.1, and :data:`PERFECT_ONLY`."""


def _legal_mask(states: np.ndarray) -> np.ndarray:
    T = tables()
    mask = np.zeros((T.n_positions, 9), dtype=bool)
    for s in states:
        mask[s, T.legal(int(s))] = True
    return mask


@dataclass
class DynamicsObserver:
    """Per-checkpoint diagnostics of one run (see the module docstring).

    Parameters
    ----------
    kind
        The condition's agent kind: ``"menace"`` adds bead counts, ``"qlearning"`` and
        ``"sarsa"`` add Q-value changes.
    filter
        The state filter whose matchbox states coverage and the window count.
    window, min_visits
        The last ``window`` games; "frequently visited" means ≥ ``min_visits`` visits.
    """

    kind: str
    filter: str = "michie"
    window: int = 100
    min_visits: int = 10
    _recent: deque = field(init=False, repr=False)
    _seen: set = field(init=False, repr=False, default_factory=set)
    _q: np.ndarray | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        if self.window < 1 or self.min_visits < 1:
            raise ValueError(
                f"window and min_visits must be ≥ 1, got {self.window}, {self.min_visits}"
            )
        self._recent = deque(maxlen=self.window)
        self._states = {int(s) for s in tables().matchbox_states(self.filter)}

    def __call__(self, agent, games: int, moves: list[list[tuple[int, int]]]) -> dict[str, Any]:
        for game in moves:
            visited = [s for s, _ in game if s in self._states]
            self._recent.append(visited)
            self._seen.update(visited)
        counts = Counter(s for game in self._recent for s in game)
        out = {"games": games, **self._policy_metrics(agent, counts)}
        out["coverage"] = len(self._seen) / len(self._states)
        if get_kind(self.kind).family == "matchbox":
            out["beads"] = self._beads(agent)
        elif get_kind(self.kind).family == "td":
            out["q_change"] = self._q_change(agent)
        return out

    def _policy_metrics(self, agent, counts: Counter) -> dict[str, Any]:
        T = tables()
        # One policy matrix per checkpoint; its row at a canonical position is the policy
        # there (for MENACE's square layout, exactly its bead proportions).
        P = policy_matrix(agent).probabilities
        frequent = sorted(s for s, n in counts.items() if n >= self.min_visits)
        forward = [kl_to_reference(s, P[s]) for s in frequent]
        kl = [v for v in forward if np.isfinite(v)]
        reverse_finite = []
        for s in frequent:
            bad = np.setdiff1d(T.legal(s), T.optimal_moves(s))
            reverse_finite.append(bool(np.all(P[s, bad] <= 0)))
        total = sum(counts.values())
        agree = entropy = 0.0
        for s, n in counts.items():
            p = P[s]
            agree += n * float(p[T.optimal_moves(s)].sum())
            q = p[p > 0]
            entropy += n * float(-(q * np.log(q)).sum())
        return {
            "frequent_states": len(frequent),
            "kl_forward": float(np.mean(kl)) if kl else None,
            "kl_omitted": len(frequent) - len(kl),
            "reverse_finite": float(np.mean(reverse_finite)) if frequent else None,
            "agreement": agree / total if total else None,
            "entropy": entropy / total if total else None,
        }

    def _beads(self, agent) -> dict[str, float]:
        seen_boxes = [agent.box_of[s] for s in self._seen if s in agent.box_of]
        colours = [w for b in seen_boxes for w in agent.weights[b]]
        return {
            "total": agent.total_beads(),
            "opening": float(sum(agent.weights[agent.box_of[0]])),
            "zero_share": float(np.mean(np.asarray(colours) <= 0)) if colours else 0.0,
        }

    def _q_change(self, agent) -> dict[str, float] | None:
        mask = _legal_mask(tables().player_states(agent.player))
        q = np.asarray(agent.q, dtype=float)[mask]
        previous, self._q = self._q, q
        if previous is None:
            return None
        delta = q - previous
        return {"max": float(np.abs(delta).max()), "rms": float(np.sqrt(np.mean(delta**2)))}


def observe_run(condition: Condition, seed: int, protocol: Protocol) -> dict[str, Any]:
    """One run of ``condition`` with ``seed`` under ``protocol``, observed (a cache entry)."""
    observer = DynamicsObserver(condition.agent, str(condition.kwargs.get("filter", "michie")))
    record = run_seed(condition, seed, protocol, observe=observer)
    start = exact_outcome(make_agent(condition.agent, **condition.kwargs))
    return {
        "key": condition.key,
        "seed": int(seed),
        "games": [0, *record["curve"]["games"]],
        "exact_draw": [start["draw"], *record["curve"]["draw"]],
        "exact_loss": [start["loss"], *record["curve"]["loss"]],
        "observations": _rounded(record["observations"]),
    }


def _rounded(obj: Any) -> Any:
    """Floats to 6 significant digits: the file stays small and the values are only shown."""
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v) for v in obj]
    if isinstance(obj, float):
        return float(f"{obj:.6g}")
    return obj


def run_dynamics(
    conditions: tuple[Condition, ...] = DYNAMICS_CONDITIONS,
    seeds: int = 10,
    protocol: Protocol | None = None,
    n_jobs: int = -1,
) -> dict[str, Any]:
    """Run every condition × seed with a :class:`DynamicsObserver`; a JSON-ready document.

    Seeds are ``0 .. seeds-1`` under ``protocol`` (default: the suite's), so the
    runs are those of ``book/data/thesis_results.json``.
    """
    from joblib import Parallel, delayed

    if seeds < 1:
        raise ValueError(f"seeds must be ≥ 1, got {seeds}")
    protocol = protocol or Protocol()
    tasks = [(c, s) for c in conditions for s in range(seeds)]
    runs = Parallel(n_jobs=n_jobs)(delayed(observe_run)(c, s, protocol) for c, s in tasks)
    return {
        "format": "menace_lib.claims.dynamics",
        "version": 1,
        "seeds": list(range(seeds)),
        "protocol": protocol.to_dict(),
        "conditions": [c.to_dict() for c in conditions],
        "runs": runs,
    }
