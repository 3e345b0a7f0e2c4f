"""One training run of one condition: the thesis's per-seed protocol.

For a condition and a seed ``s`` (:func:`run_seed`):

1. **Seeds.** With ``seeding="reference"`` (default) training uses
   ``default_rng(s)`` and sampled validation ``default_rng(s + 1)``, the stream
   layout of the thesis's pipeline (agent ``s``, validation ``s + 1``). The same
   ``s`` is used for every condition, so conditions are paired by seed as in the
   thesis. Our training Generator drives the agent *and* the scripted
   opponents (the reference seeds opponent block ``k`` with ``s + k``; its
   ChaCha streams cannot be reproduced bit for bit anyway). ``seeding="spawn"``
   instead derives two independent streams with ``SeedSequence(s).spawn(2)``.
2. **Training** through the regimen's blocks (mixed = random → defensive →
   perfect). Training pauses at ``curve_points`` evenly spaced checkpoints to
   take an *exact* draw/loss probability against the perfect player (the
   learning curve); the checkpoints are part of the protocol because MENACE's
   fast loop draws its uniforms in blocks per call.
3. **Sampled validation**: ``validation_games`` games of a frozen copy against
   the perfect player (lowest-square tie-break), as in the thesis.
4. **Exact validation**: the same match's exact outcome probabilities, with no
   sampling noise; and (beyond the thesis) exactly against a perfect player that
   breaks ties uniformly at random (``robust_draw``), which a learner cannot
   beat by memorising the lines of one deterministic opponent.
5. **Policy diagnostics**: the per-state KL from the uniform-minimax reference
   (thesis eq. 7.4) from the final policy, and from the empirical move
   frequencies of the last ``kl_window`` training games on states visited at
   least ``kl_min_visits`` times there (states where an optimal move was never
   played are omitted, as in the thesis).

For MENACE without restock, ``resigned_games`` counts training games lost at an
empty box, ``stopped`` says whether the run stopped there (``empty_box="stop"``)
and ``first_depletion`` is the index of the first game that met an empty box.

A record is a flat JSON-ready dict. Rates are probabilities in [0, 1]; the
per-game training results are a string of digits (0 win, 1 draw, 2 loss).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..agents.registry import get_kind
from ..base.limits import MAX_CURVE_POINTS, MAX_GAMES, check_count
from ..games.board import TRANSFORMS
from ..games.statespace import tables
from ..play.evaluation import empirical_policy_kl, exact_outcome, policy_kl
from ..play.learning_curve import even_marks, train_with_curve
from ..play.loop import RESULT_NAMES, TrainingLog
from ..play.opponents import make_opponent
from ..play.training import validate
from .suite import Condition, make_agent

SEEDINGS = ("reference", "spawn")
NON_DETERMINISTIC = ("seconds",)
"""Record fields that may differ between otherwise identical runs."""


@dataclass(frozen=True)
class Protocol:
    """Settings shared by every run of a suite (stored with each record).

    Attributes
    ----------
    validation_games
        Sampled validation games per seed (thesis: 100).
    validation_opponent, tie_break
        The validation opponent and its tie-break (thesis: perfect, lowest square);
        the tie-break also applies to the perfect player met in training.
    curve_points
        Exact-evaluation checkpoints during training (0: none, final only).
    kl_window, kl_min_visits
        Empirical policy KL: the last ``kl_window`` training games, states visited
        at least ``kl_min_visits`` times in them.
    seeding
        ``"reference"`` or ``"spawn"`` (see the module docstring).
    trace_block
        Active Inference agents keep a per-game trace of their EFE terms; records
        store its means over blocks of this many games (0: no trace).
    robust_tie_break
        Beyond the thesis: also evaluate exactly against a perfect player with
        this tie-break (default ``"uniform"``: random among equally good moves),
        which cannot be beaten by memorising one deterministic opponent's lines.
        ``None`` skips it.
    """

    validation_games: int = 100
    validation_opponent: str = "perfect"
    tie_break: str = "lowest"
    curve_points: int = 20
    kl_window: int = 100
    kl_min_visits: int = 10
    seeding: str = "reference"
    trace_block: int = 10
    robust_tie_break: str | None = "uniform"

    def __post_init__(self) -> None:
        names = ("validation_games", "curve_points", "kl_window", "kl_min_visits", "trace_block")
        for name in names:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer ≥ 0, got {value!r}")
        check_count("validation_games", self.validation_games, MAX_GAMES, minimum=1)
        check_count("curve_points", self.curve_points, MAX_CURVE_POINTS)
        if self.seeding not in SEEDINGS:
            raise ValueError(f"seeding must be one of {SEEDINGS}, got {self.seeding!r}")
        make_opponent(self.validation_opponent, self.tie_break)  # validates both names
        if self.robust_tie_break is not None:
            make_opponent("perfect", self.robust_tie_break)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def seed_streams(seed: int, seeding: str = "reference") -> tuple[np.random.Generator, ...]:
    """The (training, validation) Generators of seed ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an integer ≥ 0, got {seed!r}")
    seed = int(seed)
    if seeding == "reference":
        return np.random.default_rng(seed), np.random.default_rng(seed + 1)
    if seeding == "spawn":
        train_ss, val_ss = np.random.SeedSequence(seed).spawn(2)
        return np.random.default_rng(train_ss), np.random.default_rng(val_ss)
    raise ValueError(f"seeding must be one of {SEEDINGS}, got {seeding!r}")


def _kl_summary(per_state: dict[int, float]) -> dict[str, Any]:
    values = np.array(list(per_state.values()), dtype=float)
    finite = values[np.isfinite(values)]
    return {
        "mean": float(finite.mean()) if finite.size else None,
        "sum": float(finite.sum()),
        "finite_states": int(finite.size),
        "infinite_states": int(values.size - finite.size),
    }


def _matchbox_filter(condition: Condition) -> str:
    return str(condition.kwargs.get("filter", "michie"))


TRACE_FIELDS = ("G", "risk", "epistemic", "epistemic_contribution")


def _trace_summary(agent, block: int) -> dict[str, list] | None:
    """Block means of an agent's per-game trace (Active Inference agents keep one).

    Returns ``{"games": [last game of each block], field: [block mean, ...]}``
    for the numeric fields of :data:`TRACE_FIELDS` the trace has, or ``None``.
    Games whose value is missing or NaN (no box visited) are skipped in a mean.
    Means are rounded to 6 significant digits: they are only drawn, and the
    result files stay small.
    """
    trace = getattr(agent, "trace", None)
    if not trace or block <= 0:
        return None
    fields = [f for f in TRACE_FIELDS if any(_is_number(g.get(f)) for g in trace)]
    ends = list(range(block, len(trace), block)) + [len(trace)]
    out: dict[str, list] = {"games": ends}
    for f in fields:
        values = np.array(
            [float(g[f]) if _is_number(g.get(f)) else np.nan for g in trace], dtype=float
        )
        means = []
        for start, end in zip([0, *ends[:-1]], ends, strict=True):
            chunk = values[start:end]
            chunk = chunk[np.isfinite(chunk)]
            means.append(float(f"{chunk.mean():.6g}") if chunk.size else None)
        out[f] = means
    return out


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)


def _sampled_validation(agent, protocol: Protocol, rng) -> tuple[dict, int]:
    """Validation games of a frozen copy; rates over the games played.

    An agent that stops at an empty box (the thesis pipeline) stops validation
    too: its rates are over the games played (all 0 when none were).
    """
    opp = make_opponent(protocol.validation_opponent, protocol.tie_break)
    log = agent.frozen_copy().train_against(opp, protocol.validation_games, rng, record=False)
    return log.rates(), len(log)


def validation_spread(
    agent,
    repeats: int = 200,
    games: int = 100,
    seed: int = 0,
    opponent: str = "perfect",
    tie_break: str = "lowest",
) -> np.ndarray:
    """Draw rates of ``repeats`` independent ``games``-game validations of one agent.

    Shows the sampling noise the thesis's 100-game validation carries: the rates
    scatter around the exact draw probability ``p`` with SD ``sqrt(p(1-p)/games)``.
    Streams come from ``SeedSequence(seed).spawn(repeats)``.
    """
    if repeats < 1 or games < 1:
        raise ValueError(f"repeats and games must be ≥ 1, got {repeats} and {games}")
    opp = make_opponent(opponent, tie_break)
    streams = np.random.SeedSequence(seed).spawn(repeats)
    return np.array(
        [validate(agent, games, np.random.default_rng(s), opp)["draw"] for s in streams]
    )


Observer = Callable[[Any, int, list[list[tuple[int, int]]]], dict[str, Any]]
"""``observe(agent, games, moves)``: see :func:`run_seed`."""


def _canonical_moves(moves: list) -> list[list[tuple[int, int]]]:
    """Per game, the learner's ``(position, square)`` moves as (canonical state, square)."""
    T = tables()
    return [
        [
            (int(T.canon[pid]), TRANSFORMS[int(T.canon_transform[pid])][square])
            for pid, square in game
        ]
        for game in moves
    ]


def run_seed(
    condition: Condition,
    seed: int,
    protocol: Protocol | None = None,
    observe: Observer | None = None,
) -> dict[str, Any]:
    """Train, validate and diagnose one agent of ``condition`` with seed ``seed``.

    Returns a flat, JSON-ready record (see the module docstring); its ``config``
    entry holds everything :func:`menace_lib.experiments.results.rerun` needs.

    ``observe``, if given, is called at every learning-curve checkpoint as
    ``observe(agent, games, moves)``: the agent, the games played so far and, per
    game since the previous checkpoint, the learner's moves as (canonical state,
    canonical square) pairs. Its JSON-ready results are stored, in order, in the
    record's ``observations``. An observer must not draw random numbers, so the
    rest of the record is the same with or without it (beyond the thesis: see
    :mod:`menace_lib.book.claims.dynamics`).
    """
    protocol = protocol or Protocol()
    t0 = time.perf_counter()
    train_rng, val_rng = seed_streams(seed, protocol.seeding)
    params = condition.kwargs
    if "trace" in get_kind(condition.agent).extras and protocol.trace_block > 0:
        params["trace"] = True
    agent = make_agent(condition.agent, **params)
    perfect = make_opponent(protocol.validation_opponent, protocol.tie_break)
    log = TrainingLog()
    observations: list[dict[str, Any]] = []
    seen = 0

    def watch(agent, games: int) -> None:
        nonlocal seen
        if observe is not None:
            observations.append(observe(agent, games, _canonical_moves(log.moves[seen:games])))
        seen = games

    marks = even_marks(condition.games, protocol.curve_points)
    learnt = train_with_curve(
        agent,
        condition.blocks(),
        train_rng,
        marks,
        opponents=(protocol.validation_opponent,),
        tie_break=protocol.tie_break,
        on_mark=watch,
        log=log,
    )
    rates = learnt.rates[protocol.validation_opponent]
    curve = {"games": learnt.games, "draw": rates["draw"], "loss": rates["loss"]}

    sampled, val_games = _sampled_validation(agent, protocol, val_rng)
    exact = exact_outcome(agent, perfect)
    robust = (
        exact_outcome(agent, make_opponent("perfect", protocol.robust_tie_break))
        if protocol.robust_tie_break is not None
        else {"draw": None, "loss": None}
    )
    window = protocol.kl_window
    states = tables().matchbox_states(_matchbox_filter(condition), agent.player)
    emp = empirical_policy_kl(log.moves[-window:] if window else [], states, protocol.kl_min_visits)
    T = tables()
    resigned = [i for i, r in enumerate(log.resigned) if r]
    rates = log.rates()
    extra = {"observations": observations} if observe is not None else {}
    return {
        "key": condition.key,
        "table": condition.table,
        "agent": condition.label,
        "kind": condition.agent,
        "regimen": condition.regimen,
        "condition": condition.condition,
        "seed": int(seed),
        "games": condition.games,
        "games_played": len(log),
        "stopped": bool(log.stopped_early),
        "resigned_games": len(resigned),
        "first_depletion": resigned[0] if resigned else (len(log) if log.stopped_early else None),
        **{f"train_{name}": float(rates[name]) for name in RESULT_NAMES},
        "train_results": "".join(str(r) for r in log.results),
        "val_games": val_games,
        **{f"val_{name}": float(sampled[name]) for name in RESULT_NAMES},
        **{f"exact_{name}": float(exact[name]) for name in RESULT_NAMES},
        "robust_draw": robust["draw"],
        "robust_loss": robust["loss"],
        "curve": curve,
        "policy_kl": _kl_summary(policy_kl(agent)),
        "empirical_kl": {T.text(s): float(v) for s, v in sorted(emp.items())},
        "trace": _trace_summary(agent, protocol.trace_block),
        **extra,
        "config": {
            "condition": condition.to_dict(),
            "seed": int(seed),
            "protocol": protocol.to_dict(),
        },
        "seconds": time.perf_counter() - t0,
    }
