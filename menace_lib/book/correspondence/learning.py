"""Learning (thesis Remarks 5.4-5.7, Definition 5.6): the MDA update is not conjugate.

:func:`mda_update` is step 4 of the MENACE Decomposition Algorithm, on the one owner of
the bead update (:func:`menace_lib.machine.beads.reinforce`); :func:`replay_counts` and
:func:`order_dependence` show that a clamped decrement makes the result depend on the
order of the games, which no conjugate (count-adding) update can do;
:func:`box_order_dependence` does the same for a whole box with restocking;
:func:`schedule_comparison` trains with different reinforcement schedules.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...machine.beads import RESTOCKS, reinforce
from ...machine.menace import Menace, MenaceConfig
from ...play.evaluation import exact_outcome
from ...play.loop import RESULT_NAMES
from ...play.training import train
from .checks import bead_counts, check_count


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
    initial value); after a negative update, an empty box is refilled with its initial
    counts (``restock="box"``). This is MENACE's own update,
    :func:`menace_lib.machine.beads.reinforce`, on boxes named by any key.

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
    if restock not in RESTOCKS:
        raise ValueError(f"restock must be one of {RESTOCKS}; got {restock!r}")
    if not np.isfinite(floor) or floor < 0:
        raise ValueError(f"floor must be finite and >= 0; got {floor!r}")
    if not np.isfinite(utility):
        raise ValueError(f"utility must be finite; got {utility!r}")
    keys = list(boxes)
    # tolist() gives the same Python floats as float() of each entry, in one C call.
    weights = [np.asarray(boxes[s], dtype=float).tolist() for s in keys]
    start = [np.asarray(initial[s], dtype=float).tolist() for s in keys]
    index = {s: i for i, s in enumerate(keys)}
    path = []
    for s, a in trajectory:
        if s not in index:
            continue
        size = len(weights[index[s]])
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= a < size:
            raise ValueError(f"colour {a!r} does not exist in box {s!r} ({size} colours)")
        path.append((index[s], int(a)))
    reinforce(weights, start, start, path, float(utility), restock, float(floor))
    return {s: np.array(w) for s, w in zip(keys, weights, strict=True)}


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
    start = bead_counts(initial, "initial")
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
        Passed to :func:`menace_lib.play.training.train`.
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
    games = check_count(games, "games", minimum=0)
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
