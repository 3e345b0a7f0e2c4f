"""Opponent models learned online (thesis §11.6, third bullet): the ``opponent-model`` sweep.

The question: can an agent that learns its opponent's move distribution online
match the Oracle that is given the right fixed opponent model, and does it adapt
when the opponent changes?

Learners (both λ = 0, so the policy is planned with the posterior mean of the
opponent counts and nothing else):

``learned``
    :class:`~menace_lib.agents.aif.InstrumentalAIF` -- the thesis's Instrumental agent
    already *is* the learned-opponent agent: Dirichlet counts of the opponent's
    replies per canonical position, planned with through their posterior mean.
``forgetful``
    :class:`~menace_lib.agents.aif.ForgetfulAIF` -- the same agent with counts that decay
    towards the prior (option ``decay``), a model of an opponent that may change.

Fixed models: the Oracle (:class:`~menace_lib.agents.aif.OracleAIF`, λ = 0, the thesis's
lazy installation) under the ``uniform``, ``adversarial`` and ``minimax`` models.
At λ = 0 the uniform Oracle is the learner before its first game, frozen.

Opponents: ``perfect`` (minimax, lowest-square tie-break), ``random``,
``defensive``, and ``switching`` -- random for the first half of training and
perfect for the second (:func:`~menace_lib.play.opponents.switching_blocks`).

Every run trains for ``games`` games with the same seed for every condition
(common random numbers) and evaluates the agent exactly every ``every`` games,
against perfect play and against the opponent it is facing
(:func:`~menace_lib.play.learning_curve.train_with_curve`). A record holds the final
rates, the curves, and

* ``games_to_90``: the first mark at which the exact draw rate against perfect
  play reaches ``threshold`` (90%; ``None`` if never);
* ``recovery_games`` (switching only): games after the switch until that draw
  rate first reaches ``threshold`` again, measured at the marks (``0`` if it
  already did at the switch, ``None`` if never by the end);
* ``mean_score``: the average exact score (win 1, draw ½, loss 0) against the
  current opponent over training, the area under that curve.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...agents.registry import get_kind
from ...base.confidence import mean_ci, paired_ci
from ...base.limits import MAX_GAMES, check_count
from ...experiments.suite import make_agent
from ...experiments.sweep import Sweep, SweepResult
from ...play.learning_curve import area_under, curve_marks, games_to_reach, train_with_curve
from ...play.opponents import TIE_BREAKS, regimen_blocks, switching_blocks

__all__ = [
    "AGENTS",
    "AGENT_LABELS",
    "LEARNERS",
    "METRICS",
    "OPPONENTS",
    "ORACLES",
    "SWEEP",
    "condition",
    "curve_band",
    "paired_differences",
    "run_agent",
    "run_one",
    "split_condition",
    "summary_rows",
    "key_numbers",
    "interval_text",
    "best_oracle",
]

# Agent key -> (make_agent kind, parameters). λ = 0 throughout: only the opponent
# model differs between a learner and an Oracle.
AGENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "learned": ("instrumental", {}),
    "forgetful": ("forgetful", {"lam": 0.0}),
    "oracle-uniform": ("oracle", {"lam": 0.0, "opponent_model": "uniform"}),
    "oracle-adversarial": ("oracle", {"lam": 0.0, "opponent_model": "adversarial"}),
    "oracle-minimax": ("oracle", {"lam": 0.0, "opponent_model": "minimax"}),
}
AGENT_LABELS = {
    "learned": "Learned (Instrumental AIF)",
    "forgetful": "Learned, forgetful",
    "oracle-uniform": "Oracle, uniform",
    "oracle-adversarial": "Oracle, adversarial",
    "oracle-minimax": "Oracle, minimax",
}
LEARNERS = ("learned", "forgetful")
ORACLES = ("oracle-uniform", "oracle-adversarial", "oracle-minimax")
OPPONENTS = ("perfect", "random", "defensive", "switching")
METRICS = (
    "final_score",
    "final_win",
    "final_draw",
    "final_loss",
    "final_draw_perfect",
    "mean_score",
    "games_to_90",
    "recovery_games",
    "switch_draw_perfect",
)
_REGIMEN = {"perfect": "optimal", "random": "random", "defensive": "defensive"}
_DIGITS = 6  # curves are stored rounded (the metrics are computed before rounding)


def condition(agent: str, opponent: str) -> str:
    """The condition key of an agent against an opponent, e.g. ``"learned/switching"``."""
    return f"{agent}/{opponent}"


def split_condition(key: str) -> tuple[str, str]:
    """``(agent, opponent)`` of a condition key; ``ValueError`` for an unknown one."""
    agent, _, opponent = key.partition("/")
    if agent not in AGENTS or opponent not in OPPONENTS:
        raise ValueError(
            f"unknown condition {key!r}; an agent of {tuple(AGENTS)} / an opponent of {OPPONENTS}"
        )
    return agent, opponent


def training_blocks(opponent: str, games: int) -> list[tuple[str, int]]:
    """The ``(opponent, games)`` blocks of a run against ``opponent``."""
    if opponent == "switching":
        return switching_blocks(games)
    return regimen_blocks(_REGIMEN[opponent], games)


def _current(blocks: Sequence[tuple[str, int]], marks: Sequence[int]) -> list[str]:
    """The opponent faced in the games just before each mark."""
    out, ends, start = [], [], 0
    for name, n in blocks:
        start += n
        ends.append((start, name))
    for m in marks:
        out.append(next(name for end, name in ends if m <= end))
    return out


def _checked(options: Mapping[str, Any]) -> tuple[int, int, float, str]:
    """``games``, ``every``, ``threshold`` and ``tie_break``, checked (``ValueError``
    names a bad value)."""
    games = check_count("games", options["games"], MAX_GAMES, minimum=1)
    every = check_count("every", options["every"], MAX_GAMES, minimum=1)
    threshold = options["threshold"]
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
    if options["tie_break"] not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {options['tie_break']!r}; choose one of {TIE_BREAKS}")
    return games, every, float(threshold), options["tie_break"]


def run_one(key: str, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Train one agent against one opponent on one seed; its record (see the module doc)."""
    agent_key, opponent = split_condition(key)
    kind, params = AGENTS[agent_key]
    return run_agent(kind, params, opponent, seed, options)


def run_agent(
    kind: str,
    params: Mapping[str, Any],
    opponent: str,
    seed: int,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """:func:`run_one` for any agent: ``kind`` and ``params`` as :data:`AGENTS` gives them."""
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}; choose one of {OPPONENTS}")
    games, every, threshold, tie_break = _checked(options)
    params = dict(params)
    if "decay" in get_kind(kind).settings():  # the forgetful agent; it checks the value
        params = {**params, "decay": options["decay"]}
    agent = make_agent(kind, **params)
    blocks = training_blocks(opponent, games)
    marks = curve_marks(games, every)
    switch = blocks[0][1] if opponent == "switching" else None
    if switch is not None and switch not in marks:
        raise ValueError(
            f"the switch at game {switch} must be a mark: make games/2 a multiple of every"
        )
    faced = _current(blocks, marks)
    against = tuple(dict.fromkeys(["perfect", *faced]))
    curve = train_with_curve(
        agent,
        blocks,
        np.random.default_rng(seed),  # common random numbers: the seed alone
        marks,
        opponents=against,
        tie_break=tie_break,
    )
    rates = curve.rates
    own = {r: [rates[o][r][i] for i, o in enumerate(faced)] for r in ("win", "draw", "loss")}
    score = [w + d / 2 for w, d in zip(own["win"], own["draw"], strict=True)]
    draw_perfect = rates["perfect"]["draw"]
    record: dict[str, Any] = {
        "final_score": score[-1],
        "final_win": own["win"][-1],
        "final_draw": own["draw"][-1],
        "final_loss": own["loss"][-1],
        "final_draw_perfect": draw_perfect[-1],
        "mean_score": area_under(curve.games, score, games),
        "games_to_90": games_to_reach(curve.games, draw_perfect, threshold),
        "recovery_games": None,
        "switch_draw_perfect": None,
    }
    if switch is not None:
        i = curve.games.index(switch)
        after = games_to_reach(curve.games[i:], draw_perfect[i:], threshold)
        record["recovery_games"] = None if after is None else after - switch
        record["switch_draw_perfect"] = draw_perfect[i]
    record["curve_draw_perfect"] = [round(v, _DIGITS) for v in draw_perfect]
    record["curve_score"] = [round(v, _DIGITS) for v in score]
    return record


SWEEP = Sweep(
    name="opponent-model",
    conditions=tuple(condition(a, o) for o in OPPONENTS for a in AGENTS),
    run_one=run_one,
    metrics=METRICS,
    baseline=None,  # comparisons are within an opponent: see paired_differences
    options={"games": 4000, "every": 50, "decay": 0.9, "threshold": 0.9, "tie_break": "lowest"},
    question=(
        "Can an agent that learns the opponent's move distribution online match the Oracle "
        "with the right fixed model, and does it adapt when the opponent changes?"
    ),
    ranges={"decay": (0.0, 1.0), "threshold": (0.0, 1.0)},
)


# --- read-outs of a result -------------------------------------------------------------


def curve_marks_of(result: SweepResult) -> list[int]:
    """The marks of the result's curves (from its options)."""
    options = result.config["options"]
    return curve_marks(int(options["games"]), int(options["every"]))


def curve_band(
    result: SweepResult, key: str, field: str = "curve_draw_perfect"
) -> dict[str, np.ndarray]:
    """Per mark: the mean of a stored curve over seeds and its 95% interval.

    Returns arrays ``games``, ``mean``, ``low`` and ``high``.
    """
    rows = np.array(result.values(key, field), dtype=float)  # seeds x marks
    cis = [mean_ci(list(rows[:, j])) for j in range(rows.shape[1])]
    return {
        "games": np.array(curve_marks_of(result)),
        **{k: np.array([ci[k] for ci in cis], dtype=float) for k in ("mean", "low", "high")},
    }


def paired_differences(
    result: SweepResult, metric: str, learner: str = "learned"
) -> dict[str, dict[str, dict]]:
    """``out[opponent][oracle]``: ``learner`` minus the Oracle on common seeds (paired 95% CI)."""
    out: dict[str, dict[str, dict]] = {}
    conditions = set(result.config["conditions"])
    for opponent in OPPONENTS:
        mine = condition(learner, opponent)
        if mine not in conditions:
            continue
        a = {r["seed"]: r[metric] for r in result.records if r["condition"] == mine}
        for oracle in ORACLES:
            theirs = condition(oracle, opponent)
            if theirs not in conditions:
                continue
            b = {r["seed"]: r[metric] for r in result.records if r["condition"] == theirs}
            seeds = sorted(set(a) & set(b))
            out.setdefault(opponent, {})[oracle] = paired_ci(
                [a[s] for s in seeds], [b[s] for s in seeds]
            )
    return out


def interval_text(ci: Mapping[str, Any], digits: int = 3, seeds: int | None = None) -> str:
    """``"mean [low, high]"`` of a :func:`~menace_lib.base.confidence.mean_ci`; with ``seeds``,
    runs without a value (e.g. never recovered) are counted after it."""
    if ci["mean"] is None:
        return "never"
    if ci["low"] is None:
        text = f"{ci['mean']:.{digits}f}"
    else:
        text = f"{ci['mean']:.{digits}f} [{ci['low']:.{digits}f}, {ci['high']:.{digits}f}]"
    if seeds is not None and ci["n"] < seeds:
        text += f" ({seeds - ci['n']} of {seeds} never)"
    return text


METRIC_LABELS = {
    "final_score": "final score",
    "final_win": "final win",
    "final_draw": "final draw",
    "final_loss": "final loss",
    "final_draw_perfect": "final draw vs perfect",
    "mean_score": "mean score in training",
    "games_to_90": "games to 90% vs perfect",
    "recovery_games": "games to recover",
    "switch_draw_perfect": "draw vs perfect at the switch",
}
_COUNTS = {"games_to_90", "recovery_games"}  # whole games: no decimals, missing runs counted
_SWITCH_ONLY = {"recovery_games", "switch_draw_perfect"}


def summary_rows(
    result: SweepResult, metrics: Sequence[str], opponents: Sequence[str] = OPPONENTS
) -> list[dict[str, str]]:
    """Display rows (opponent, agent, then each metric as ``mean [95% CI]``)."""
    rows = []
    seeds = len(result.config["seeds"])
    for key in result.config["conditions"]:
        agent, opponent = split_condition(key)
        if opponent not in opponents:
            continue
        row = {"opponent": opponent, "agent": AGENT_LABELS[agent]}
        for m in metrics:
            if m in _SWITCH_ONLY and opponent != "switching":
                row[METRIC_LABELS[m]] = "—"
                continue
            counted = m in _COUNTS
            row[METRIC_LABELS[m]] = interval_text(
                result.summary[key][m], 0 if counted else 3, seeds if counted else None
            )
        rows.append(row)
    return rows


def best_oracle(result: SweepResult, opponent: str, metric: str = "final_score") -> str:
    """The Oracle with the highest mean ``metric`` against ``opponent``."""
    return max(ORACLES, key=lambda o: result.summary[condition(o, opponent)][metric]["mean"])


def key_numbers(result: SweepResult) -> dict[str, Any]:
    """The figures the chapter's answer quotes, all computed from ``result``."""
    out: dict[str, Any] = {"seeds": len(result.config["seeds"]), **result.config["options"]}
    for learner in LEARNERS:
        gaps = paired_differences(result, "final_score", learner)
        for opponent in OPPONENTS:
            oracle = best_oracle(result, opponent)
            out[f"{learner}/{opponent}/best_oracle"] = oracle
            out[f"{learner}/{opponent}/gap"] = gaps[opponent][oracle]
    for key in result.config["conditions"]:
        out[key] = result.summary[key]
    return out


def gap_rows(result: SweepResult, metric: str = "final_score") -> list[dict[str, str]]:
    """Per opponent and learner: ``metric`` minus the best Oracle's and minus the uniform
    Oracle's, each a paired 95% interval over common seeds."""
    rows = []
    for learner in LEARNERS:
        diffs = paired_differences(result, metric, learner)
        for opponent in OPPONENTS:
            best = best_oracle(result, opponent, metric)
            top = result.summary[condition(best, opponent)][metric]["mean"]
            tied = [
                AGENT_LABELS[o].removeprefix("Oracle, ")
                for o in ORACLES
                if result.summary[condition(o, opponent)][metric]["mean"] == top
            ]
            rows.append(
                {
                    "opponent": opponent,
                    "learner": AGENT_LABELS[learner],
                    "best Oracle": " = ".join(tied),
                    "learner − best Oracle": interval_text(diffs[opponent][best]),
                    "learner − uniform Oracle": interval_text(diffs[opponent]["oracle-uniform"]),
                }
            )
    return rows


def temperature_rows(temperatures: Sequence[float] = (0.25, 0.03)) -> list[dict[str, Any]]:
    """Exact scores of the fully installed (``lazy=False``) λ = 0 Oracles at other
    softmax temperatures ``lambda_policy``: no training, no randomness."""
    from ...play.evaluation import exact_outcome

    rows = []
    for temperature in temperatures:
        for model in ("uniform", "minimax"):
            agent = make_agent(
                "oracle", lam=0.0, opponent_model=model, lazy=False, lambda_policy=temperature
            )
            row: dict[str, Any] = {"temperature": temperature, "Oracle model": model}
            for opponent in ("random", "defensive", "perfect"):
                exact = exact_outcome(agent, opponent)
                row[f"score vs {opponent}"] = exact["win"] + exact["draw"] / 2
            rows.append(row)
    return rows


def answer_markdown(result: SweepResult) -> str:
    """The chapter's answer, one bullet per finding, every number read from ``result``."""
    s = result.summary
    seeds = len(result.config["seeds"])

    def mean(key: str, metric: str) -> float:
        return s[key][metric]["mean"]

    gaps = {learner: paired_differences(result, "final_score", learner) for learner in LEARNERS}
    gap_perfect = gaps["learned"]["perfect"]["oracle-minimax"]
    gap_random = gaps["learned"]["random"]["oracle-uniform"]
    gap_random_best = gaps["learned"]["random"]["oracle-minimax"]
    return "\n".join(
        [
            f"* **Against perfect play** the learner ends ({result.config['options']['games']:,} "
            f"games) drawing {mean('learned/perfect', 'final_draw'):.1%} of games, the "
            f"minimax Oracle {mean('oracle-minimax/perfect', 'final_draw'):.1%}: a score gap of "
            f"{interval_text(gap_perfect)} (paired 95% interval, {seeds} seeds). It needs "
            f"{mean('learned/perfect', 'games_to_90'):.0f} games to draw 90%, the Oracle "
            f"{mean('oracle-minimax/perfect', 'games_to_90'):.0f}.",
            f"* **Against the random player** it comes close to the Oracle whose model is the "
            f"truth (uniform) but stays just below it: score gap {interval_text(gap_random)}. "
            f"The minimax Oracle, whose model is wrong here, scores more than both: gap "
            f"{interval_text(gap_random_best)}.",
            f"* **Against the defensive player** (no Oracle model is right) the learner, "
            f"{mean('learned/defensive', 'final_score'):.3f}, beats the uniform Oracle, "
            f"{mean('oracle-uniform/defensive', 'final_score'):.3f}, and trails the minimax "
            f"Oracle, {mean('oracle-minimax/defensive', 'final_score'):.3f}.",
            f"* **After the switch** from random to perfect play the learner takes "
            f"{interval_text(s['learned/switching']['recovery_games'], 0)} games to draw 90% "
            f"again against perfect play, against "
            f"{interval_text(s['learned/perfect']['games_to_90'], 0)} from scratch. "
            f"Forgetting (decay {result.config['options']['decay']:g}) cuts the recovery to "
            f"{interval_text(s['forgetful/switching']['recovery_games'], 0)} games; the minimax "
            f"Oracle needs none (it draws "
            f"{mean('oracle-minimax/switching', 'switch_draw_perfect'):.1%} at the switch).",
        ]
    )
