"""Exact learning curves of a small matchbox machine: the whole distribution, no seeds.

For a game as small as Hexapawn the machine's state -- every box's bead counts -- takes
few enough values that its distribution after ``n`` training games can be carried
forward exactly. One game from a state is a tree: the machine draws a colour with
probability proportional to its beads, the opponent picks uniformly among its listed
moves, and each leaf ends with an update by the bead rules' one owner
(:func:`menace_lib.machine.beads.reinforce`, with the machine's credit rule). Grouping leaves
by the state they leave gives the next distribution.

:func:`exact_curve` reports, after each game, with no sampling noise:

* the probability that the machine loses the next training game;
* the exact win/draw/loss rates of the machine, frozen, against evaluation opponents
  (averaged over the distribution of states);
* the probability that it can no longer lose against the training opponent (under
  Gardner's rule, where wins change nothing, such a state never changes again).

States are kept in a dict; :data:`MAX_STATES` stops a run whose distribution grows too
large (Michie's +3/+1/-1 rule adds beads after every win, so its states multiply).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..games.results import LOSS
from ..machine.beads import reinforce

MAX_STATES = 200_000
"""The most machine states :func:`exact_curve` carries at once."""

__all__ = ["MAX_STATES", "ExactCurve", "exact_curve", "exact_rates"]

State = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class ExactCurve:
    """Exact learning curve of a machine (see :func:`exact_curve`).

    Attributes
    ----------
    games
        0, 1, ..., n: the number of training games played.
    train_loss
        Probability of losing training game ``g + 1`` after ``g`` games (length n + 1).
    rates
        Per evaluation opponent, an (n + 1, 3) array of expected win/draw/loss rates of
        the frozen machine after ``g`` games.
    unbeatable
        Probability that, after ``g`` games, the machine cannot lose to the training
        opponent.
    states
        How many distinct machine states carry probability after ``g`` games.
    """

    games: np.ndarray
    train_loss: np.ndarray
    rates: dict[str, np.ndarray]
    unbeatable: np.ndarray
    states: np.ndarray


def _start_state(machine) -> State:
    return tuple(tuple(float(x) for x in w) for w in machine.weights)


def _box_weights(machine, state: State, b: int) -> tuple[float, ...] | None:
    """The beads a draw sees in box ``b``: refilled if restock would, ``None`` if empty."""
    w = state[b]
    if sum(w) > 0:
        return w
    if machine.config.restock != "none":
        return tuple(machine.initial[b])
    return None


def _check_rules(machine) -> None:
    cfg = machine.config
    if cfg.credit != "last":
        raise ValueError(
            "exact curves follow credit='last' (Gardner's rule), whose states stay few; "
            f"got credit={cfg.credit!r}: average seeds instead"
        )
    if cfg.restock == "none" and cfg.empty_box != "resign":
        raise ValueError("exact curves need empty_box='resign' (a stopped run has no next game)")


def exact_rates(machine, state: State, opponent_next) -> np.ndarray:
    """Exact win/draw/loss probabilities of the frozen machine in ``state``."""
    layout = machine.box_layout
    raw_box, raw_next, result_of = layout.raw_box, layout.raw_next, layout.result
    unit = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    memo: dict[int, tuple[float, float, float]] = {}

    def value(s: int) -> tuple[float, float, float]:
        if s in memo:
            return memo[s]
        r = result_of[s]
        if r >= 0:
            out = unit[r]
        else:
            if raw_box[s] >= 0:
                w = _box_weights(machine, state, raw_box[s])
                if w is None:  # resign: a loss
                    memo[s] = unit[2]
                    return unit[2]
                total = sum(w)
                pairs = [(x / total, c) for x, c in zip(w, raw_next[s], strict=True) if x > 0]
            else:
                options = raw_next[s] or opponent_next[s]
                pairs = [(1.0 / len(options), c) for c in options]
            a = b = d = 0.0
            for q, c in pairs:
                v = value(c)
                a += q * v[0]
                b += q * v[1]
                d += q * v[2]
            out = (a, b, d)
        memo[s] = out
        return out

    return np.array(value(0))


def _transitions(machine, state: State, opponent_next) -> tuple[float, dict]:
    """From ``state``, one game: the probability of a loss, and per last drawn colour
    ``(box, colour)`` (``None``: no colour drawn) the probability of losing with it.

    Under credit ``"last"`` only that colour changes, and only after a loss (wins and
    draws change it too if their reinforcement is not 0: see :func:`_next_states`).
    """
    layout = machine.box_layout
    raw_box, raw_next, result_of = layout.raw_box, layout.raw_next, layout.result
    memo: dict[int, tuple[np.ndarray, dict]] = {}

    def walk(s: int) -> tuple[np.ndarray, dict]:
        """Result probabilities by (result, last colour drawn from here on; None: none)."""
        if s in memo:
            return memo[s]
        r = result_of[s]
        if r >= 0:
            out = {(r, None): 1.0}
        elif raw_box[s] >= 0:
            b = raw_box[s]
            w = _box_weights(machine, state, b)
            out = {}
            if w is None:
                out[(LOSS, None)] = 1.0  # resign: the previous colour takes the blame
            else:
                total = sum(w)
                for j, (x, c) in enumerate(zip(w, raw_next[s], strict=True)):
                    if x <= 0:
                        continue
                    for (res, last), q in walk(c).items():
                        key = (res, last if last is not None else (b, j))
                        out[key] = out.get(key, 0.0) + x / total * q
        else:
            options = raw_next[s] or opponent_next[s]
            out = {}
            for c in options:
                for key, q in walk(c).items():
                    out[key] = out.get(key, 0.0) + q / len(options)
        memo[s] = out
        return out

    return walk(0)


def _next_states(machine, state: State, split: dict) -> dict[State, float]:
    """Where one game takes ``state``: the owner's update for each (result, last colour)."""
    cfg = machine.config
    out: dict[State, float] = {}
    for (result, last), q in split.items():
        if last is None or cfg.reinforcement[result] == 0:
            after = state
        else:
            weights = [list(w) for w in state]
            if sum(weights[last[0]]) <= 0 and cfg.restock != "none":
                weights[last[0]] = list(machine.initial[last[0]])  # refilled before the draw
            reinforce(
                weights,
                machine.initial,
                machine.move_refill,
                [last],
                cfg.reinforcement[result],
                cfg.restock,
                cfg.floor,
                cfg.credit,
            )
            after = tuple(tuple(w) for w in weights)
        out[after] = out.get(after, 0.0) + q
    return out


def exact_curve(
    machine,
    opponent,
    games: int,
    evaluate: dict[str, object] | None = None,
    every: int = 1,
) -> ExactCurve:
    """The exact learning curve of ``machine`` trained against ``opponent``.

    Parameters
    ----------
    machine
        A :class:`~menace_lib.machine.menace.Menace` with ``credit="last"`` (Gardner's rule;
        its beads are the starting state, and it is not changed).
    opponent
        The training opponent (a :class:`~menace_lib.play.opponents.TableOpponent`).
    games
        Training games to follow.
    evaluate
        Evaluation opponents by name (default: the training opponent alone).
    every
        Evaluate against them after every ``every`` games (and after the last); the
        other marks repeat ``nan``.

    Returns
    -------
    ExactCurve
        The loss probability per game, the rates against each evaluation opponent and
        the probability of being unbeatable, after 0 .. ``games`` games.

    Examples
    --------
    >>> import menace_lib as ml
    >>> her = ml.Menace(ml.her_config("gardner"))
    >>> white = ml.make_opponent("human-like", game="hexapawn")
    >>> curve = ml.exact_curve(her, white, 2)
    >>> bool(curve.train_loss[2] < curve.train_loss[0])
    True
    """
    _check_rules(machine)
    evaluate = evaluate or {"training": opponent}
    train_next = opponent.next_ids
    dist: dict[State, float] = {_start_state(machine): 1.0}
    train_loss, unbeatable, n_states = [], [], []
    rates: dict[str, list[np.ndarray]] = {name: [] for name in evaluate}
    step_of: dict[State, tuple[float, dict]] = {}
    rate_of: dict[tuple[str, State], np.ndarray] = {}
    for g in range(games + 1):
        n_states.append(len(dist))
        for name, opp in evaluate.items():
            if g % every and g != games:
                rates[name].append(np.full(3, np.nan))
                continue
            acc = np.zeros(3)
            for state, p in dist.items():
                if (name, state) not in rate_of:
                    rate_of[(name, state)] = exact_rates(machine, state, opp.next_ids)
                acc += p * rate_of[(name, state)]
            rates[name].append(acc)
        nxt: dict[State, float] = {}
        loss = safe = 0.0
        for state, p in dist.items():
            if state not in step_of:
                split = _transitions(machine, state, train_next)
                state_loss = sum(q for (r, _), q in split.items() if r == LOSS)
                step_of[state] = (state_loss, _next_states(machine, state, split))
            state_loss, after_states = step_of[state]
            loss += p * state_loss
            safe += p if state_loss == 0 else 0.0
            if g < games:
                for after, q in after_states.items():
                    nxt[after] = nxt.get(after, 0.0) + p * q
        train_loss.append(loss)
        unbeatable.append(safe)
        if g < games:
            if len(nxt) > MAX_STATES:
                raise ValueError(
                    f"after {g + 1} games the machine has {len(nxt)} states, over "
                    f"MAX_STATES = {MAX_STATES}; follow fewer games or sample seeds instead"
                )
            dist = nxt
    return ExactCurve(
        games=np.arange(games + 1),
        train_loss=np.array(train_loss),
        rates={k: np.array(v) for k, v in rates.items()},
        unbeatable=np.array(unbeatable),
        states=np.array(n_states),
    )


def expected_games_until(probabilities: Sequence[float]) -> float:
    """Expected first index at which an absorbing event has happened, from its running
    probability (``sum of 1 - P[g]`` over the games followed; a lower bound if the
    probability has not reached 1)."""
    return float(sum(1.0 - p for p in probabilities))
