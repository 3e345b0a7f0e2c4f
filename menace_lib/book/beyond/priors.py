"""Better initial beads (thesis §11.6.1): which bead schedule learns fastest?

MENACE's initial beads are a prior: ``schedule[k]`` beads per colour in every box
opened at MENACE's move ``k + 1`` (:class:`~menace_lib.machine.menace.MenaceConfig`). The
thesis asks whether priors that reflect the game's early branching improve sample
efficiency, and whether they can be found automatically. This sweep compares

``4-3-2-1``    Michie's schedule (the baseline);
``flat-1``     one bead per colour everywhere;
``flat-4``     four beads per colour everywhere;
``8-4-2-1``    the web MENACE's schedule;
``branching``  beads in proportion to the mean number of legal moves in the boxes
               of each move (:func:`branching_schedule`);
``subtree``    beads in proportion to the mean log number of complete games that
               can follow a box of each move (:func:`subtree_schedule`);
``tuned``      a schedule found by :func:`menace_lib.book.beyond.priors_tuning.tune_schedule`
               on seeds disjoint from the sweep's (stored in
               ``menace_lib/data/priors_tuned.json``).

The two schedules derived from the game are computed from the game tables
(:mod:`menace_lib.games.statespace`) and scaled to hold as many beads in all as Michie's
machine, so they differ from it in shape only.

Every schedule is trained through two regimens -- the thesis's mixed curriculum and
the perfect player from the first game -- with the thesis's MENACE otherwise
(Michie filter, one colour per square, box restock, +3/+1/-1). Each run is measured
by exact evaluation against the perfect player every ``every`` games
(:mod:`menace_lib.play.learning_curve`): the first game count at which the exact draw
rate reaches ``threshold``, the mean draw rate over the run (area under the curve),
the final draw rate (also against a perfect player that breaks its ties at random,
where one memorised line of play is not enough), and how many times a box ran out of
beads.

All conditions share the seeds and each run's random stream is
``default_rng(seed)`` whatever its schedule (common random numbers), so paired
differences against Michie's schedule are measured on the same games' dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...base.confidence import mean_ci, proportion_ci
from ...base.files import read_json
from ...experiments.sweep import Sweep, SweepResult, summarise
from ...games.statespace import ONGOING, tables
from ...machine.beads import is_empty, refill_empty, reinforce
from ...machine.menace import Menace, MenaceConfig
from ...play.evaluation import exact_outcome
from ...play.learning_curve import area_under, curve_marks, games_to_reach, train_with_curve
from ...play.loop import TrainingLog
from ...play.opponents import make_opponent, regimen_blocks

__all__ = [
    "BASELINE",
    "CONDITIONS",
    "FIXED_SCHEDULES",
    "METRICS",
    "OPTIONS",
    "PRIORS",
    "REGIMENS",
    "SCHEDULES",
    "SWEEP",
    "TUNED_FILE",
    "branching_schedule",
    "colours_by_move",
    "condition_key",
    "curve_band",
    "move_profile",
    "paired_by_regimen",
    "parse_condition",
    "proportional_schedule",
    "reach_counts",
    "replay_beads",
    "run_one",
    "run_schedule",
    "schedule_for",
    "schedule_rows",
    "subtree_schedule",
    "table_rows",
    "tuned_path",
    "tuned_record",
]

FIXED_SCHEDULES: dict[str, tuple[float, ...]] = {
    "4-3-2-1": (4, 3, 2, 1),
    "flat-1": (1,),
    "flat-4": (4,),
    "8-4-2-1": (8, 4, 2, 1),
}
"""The hand-made schedules: Michie's, two flat ones and the web MENACE's."""

SCHEDULES = (*FIXED_SCHEDULES, "branching", "subtree", "tuned")
"""Every schedule the sweep compares, in display order."""

BASELINE = "4-3-2-1"
"""The schedule every other is compared with (Michie's)."""

REGIMENS = {"mixed": "mixed", "perfect": "optimal"}
"""Condition prefix -> training regimen (:func:`~menace_lib.play.opponents.regimen_blocks`):
the thesis's random → defensive → perfect curriculum, or the perfect player throughout."""

METRICS = (
    "games_to_threshold",
    "reached",
    "area",
    "final_draw",
    "final_draw_uniform",
    "box_empties",
    "emptied",
)
"""Record fields summarised per condition."""

TUNED_FILE = "priors_tuned.json"
"""The tuned schedules, in ``menace_lib/data`` (written by ``python -m menace_lib tune-priors``)."""

MENACE = MenaceConfig()
"""The thesis's MENACE; only its schedule (and, by option, its restock) changes."""


def condition_key(regimen: str, schedule: str) -> str:
    """``"<regimen>/<schedule>"``, e.g. ``"mixed/4-3-2-1"``."""
    return f"{regimen}/{schedule}"


CONDITIONS = tuple(condition_key(r, s) for r in REGIMENS for s in SCHEDULES)


def parse_condition(condition: str) -> tuple[str, str]:
    """Split a condition key into (regimen prefix, schedule name).

    Raises
    ------
    ValueError
        Naming the key if it is not one of :data:`CONDITIONS`.
    """
    if condition not in CONDITIONS:
        raise ValueError(f"unknown priors condition {condition!r}; choose from {CONDITIONS}")
    regimen, schedule = condition.split("/", 1)
    return regimen, schedule


# --- schedules computed from the game tables -------------------------------------------


def _box_moves(config: MenaceConfig) -> tuple[Menace, np.ndarray]:
    """A fresh MENACE and, per box, MENACE's move number there (0 for its first move)."""
    agent = Menace(config)
    moves = tables().ply[np.asarray(agent.states)] // 2
    return agent, moves


@cache
def _games_below() -> np.ndarray:
    """Per position, the number of complete games that can follow it (1 at a game's end)."""
    T = tables()
    games = np.where(T.outcome != ONGOING, 1.0, 0.0)
    succ = np.maximum(T.succ, 0)
    for ply in range(8, -1, -1):
        ids = np.flatnonzero((T.ply == ply) & (T.outcome == ONGOING))
        games[ids] = np.where(T.succ[ids] >= 0, games[succ[ids]], 0.0).sum(axis=1)
    games.setflags(write=False)
    return games


def move_profile(config: MenaceConfig = MENACE) -> list[dict[str, float]]:
    """Per MENACE move number, what its boxes look like in the game tables.

    Returns
    -------
    list of dict
        One entry per move number that has boxes: ``move`` (1 for MENACE's first),
        ``boxes``, ``colours`` (bead colours in all those boxes), ``branching`` (mean
        legal moves per box) and ``log_games`` (mean natural log of the number of
        complete games that can follow a box).
    """
    agent, moves = _box_moves(config)
    T = tables()
    states = np.asarray(agent.states)
    legal = (T.succ[states] >= 0).sum(axis=1)
    log_games = np.log(_games_below()[states])
    colours = np.array([len(e) for e in agent.entries])
    profile = []
    for k in np.unique(moves):
        at = moves == k
        profile.append(
            {
                "move": int(k) + 1,
                "boxes": int(at.sum()),
                "colours": int(colours[at].sum()),
                "branching": float(legal[at].mean()),
                "log_games": float(log_games[at].mean()),
            }
        )
    return profile


def colours_by_move(config: MenaceConfig = MENACE) -> list[int]:
    """Bead colours in all boxes of each MENACE move number (so beads = Σ colours·schedule)."""
    return [row["colours"] for row in move_profile(config)]


def proportional_schedule(
    weights: Sequence[float],
    config: MenaceConfig = MENACE,
    reference: Sequence[float] = FIXED_SCHEDULES[BASELINE],
) -> tuple[float, ...]:
    """A schedule ∝ ``weights`` (one per move number) with the reference's total beads.

    The total is summed over every colour of every box of ``config``'s machine, so the
    result spends the same beads as ``reference`` and differs only in where.

    Raises
    ------
    ValueError
        If the weights are not one positive number per move number.
    """
    colours = np.asarray(colours_by_move(config), dtype=float)
    w = np.asarray(weights, dtype=float)
    if w.shape != colours.shape or not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise ValueError(
            f"weights must be {len(colours)} positive numbers (one per move), got {list(weights)}"
        )
    ref = np.array([reference[min(k, len(reference) - 1)] for k in range(len(colours))])
    scale = float(colours @ ref) / float(colours @ w)
    return tuple(float(x) for x in scale * w)


def branching_schedule(config: MenaceConfig = MENACE) -> tuple[float, ...]:
    """Beads ∝ the mean number of legal moves in the boxes of each move (Michie's total)."""
    return proportional_schedule([row["branching"] for row in move_profile(config)], config)


def subtree_schedule(config: MenaceConfig = MENACE) -> tuple[float, ...]:
    """Beads ∝ the mean log number of games that can follow each move's boxes (Michie's total).

    The log keeps the schedule finite in shape: the raw counts fall from 255,168 games
    below the empty board to about five below MENACE's fourth move.
    """
    return proportional_schedule([row["log_games"] for row in move_profile(config)], config)


def tuned_path() -> Path:
    """Where the library keeps its tuned schedules (``menace_lib/data/priors_tuned.json``)."""
    return Path(str(resources.files("menace_lib") / "data" / TUNED_FILE))


@cache
def tuned_record() -> dict[str, Any] | None:
    """The stored tuning result as JSON data, or None before anything was tuned."""
    path = tuned_path()
    return read_json(path, "tuned bead schedules") if path.exists() else None


def _tuned_defaults() -> dict[str, list[float]] | None:
    record = tuned_record()
    if record is None:
        return None
    return {r: list(record["regimens"][r]["schedule"]) for r in REGIMENS}


def _tuning_summary() -> dict[str, Any] | None:
    """What the tuned schedules were fitted on (stored in every sweep result's options)."""
    record = tuned_record()
    if record is None:
        return None
    keep = ("objective", "tuning_seeds", "games", "every", "method", "max_evaluations")
    out = {k: record[k] for k in keep}
    out["value"] = {r: record["regimens"][r]["value"] for r in REGIMENS}
    return out


def schedule_for(name: str, regimen: str, options: Mapping[str, Any]) -> tuple[float, ...]:
    """The bead schedule called ``name`` (the tuned one is per regimen, from ``options``)."""
    if name in FIXED_SCHEDULES:
        return tuple(float(b) for b in FIXED_SCHEDULES[name])
    config = replace(MENACE, restock=options["restock"])
    if name == "branching":
        return branching_schedule(config)
    if name == "subtree":
        return subtree_schedule(config)
    if name == "tuned":
        tuned = options["tuned"]
        if not tuned or regimen not in tuned:
            raise ValueError(
                f"no tuned schedule for regimen {regimen!r}: run "
                "`python -m menace_lib tune-priors` first, or pass options['tuned']"
            )
        return tuple(float(b) for b in tuned[regimen])
    raise ValueError(f"unknown schedule {name!r}; choose one of {SCHEDULES}")


# --- one run -----------------------------------------------------------------------


def replay_beads(agent: Menace, log: TrainingLog) -> int:
    """Replay the games of ``log`` on ``agent`` through the bead rules; count box empties.

    ``agent`` must hold the beads the logged games started from (a copy of the
    machine taken before training); its beads are updated in place, game by game,
    through :mod:`menace_lib.machine.beads` (the log's recorded draws and results fix every
    update), and each time a box is left with no beads is counted. Under box
    restock an emptied box is refilled at once, so emptying is otherwise invisible;
    under no restock it stays empty (MENACE resigns or stops there). Move restock
    refills each colour and never empties a box.
    """
    config, weights = agent.config, agent.weights
    restock = "none" if config.restock == "box" else config.restock
    empties = 0
    for path, result in zip(log.paths, log.results, strict=True):
        reinforce(
            weights,
            agent.initial,
            agent.move_refill,
            path,
            config.reinforcement[result],
            restock,
            config.floor,
        )
        for b in dict.fromkeys(b for b, _ in path):
            if is_empty(weights[b]):
                empties += 1
                refill_empty(weights[b], agent.initial[b], config.restock)
    return empties


def run_schedule(
    schedule: Sequence[float],
    regimen: str,
    seed: int,
    options: Mapping[str, Any],
    *,
    keep_agent: bool = False,
) -> dict[str, Any]:
    """Train a fresh MENACE with ``schedule`` through ``regimen`` and measure it exactly.

    Parameters
    ----------
    schedule
        Initial beads per colour by MENACE's move number.
    regimen
        A key of :data:`REGIMENS` (``"mixed"`` or ``"perfect"``).
    seed
        The run's only randomness: ``default_rng(seed)``, whatever the schedule.
    options
        ``games``, ``every``, ``threshold``, ``tie_break`` and ``restock`` (see
        :data:`OPTIONS`).

    Returns
    -------
    dict
        ``games_to_threshold`` (first mark with exact draw rate ≥ threshold, or None),
        ``reached`` (1 or 0), ``area`` (mean exact draw rate over the run, from the
        untrained machine's rate at game 0), ``final_draw``, ``box_empties``,
        ``emptied`` (1 if any box ran out), ``draw_start`` and ``curve`` (the exact
        draw rate at every mark, rounded to 6 decimals).
    """
    if regimen not in REGIMENS:
        raise ValueError(f"unknown regimen {regimen!r}; choose one of {tuple(REGIMENS)}")
    games, tie_break = int(options["games"]), options["tie_break"]
    config = replace(MENACE, schedule=tuple(schedule), restock=options["restock"])
    agent = Menace(config)
    untrained = agent.copy()  # replayed after training to count box empties
    start = exact_outcome(agent, make_opponent("perfect", tie_break))["draw"]
    marks = curve_marks(games, int(options["every"]))
    blocks = regimen_blocks(REGIMENS[regimen], games, tie_break)
    curve = train_with_curve(agent, blocks, np.random.default_rng(seed), marks, tie_break=tie_break)
    draw = curve.rates["perfect"]["draw"]
    uniform = exact_outcome(agent, make_opponent("perfect", "uniform"))["draw"]
    first = games_to_reach(curve.games, draw, float(options["threshold"]))
    empties = replay_beads(untrained, curve.log)
    return {
        "games_to_threshold": first,
        "reached": int(first is not None),
        "area": area_under(curve.games, draw, games, start=start),
        "final_draw": draw[-1],
        "final_draw_uniform": uniform,
        "box_empties": empties,
        "emptied": int(empties > 0),
        "draw_start": start,
        "curve": [round(v, 6) for v in draw],
        **({"agent": agent, "log": curve.log} if keep_agent else {}),
    }


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One (condition, seed) run of the priors sweep (see :func:`run_schedule`)."""
    regimen, name = parse_condition(condition)
    schedule = schedule_for(name, regimen, options)
    return {"schedule": list(schedule), **run_schedule(schedule, regimen, seed, options)}


# --- summaries -------------------------------------------------------------------------


def paired_by_regimen(result: SweepResult) -> dict[str, dict[str, dict]]:
    """Each condition minus Michie's schedule *in the same regimen*, on common seeds.

    Returns ``paired[condition][metric]`` as :func:`~menace_lib.base.confidence.paired_ci`.
    """
    paired: dict[str, dict[str, dict]] = {}
    metrics = result.config["metrics"]
    for regimen in REGIMENS:
        conds = [c for c in result.config["conditions"] if c.startswith(f"{regimen}/")]
        base = condition_key(regimen, BASELINE)
        if base not in conds:
            continue
        records = [r for r in result.records if r["condition"] in conds]
        paired.update(summarise(records, conds, metrics, base)[1])
    return paired


def reach_counts(result: SweepResult) -> dict[str, dict]:
    """Per condition, how many runs reached the threshold, with a Wilson 95% interval."""
    out = {}
    for cond in result.config["conditions"]:
        hits = [r["reached"] for r in result.records if r["condition"] == cond]
        out[cond] = proportion_ci(int(sum(hits)), len(hits))
    return out


def _default_options() -> dict[str, Any]:
    return {
        "games": 500,
        "every": 5,
        "threshold": 0.9,
        "tie_break": "lowest",
        "restock": "box",
        "tuned": _tuned_defaults(),
        "tuning": _tuning_summary(),
    }


OPTIONS = _default_options()
"""The sweep's defaults: 500 games, exact evaluation every 5, a 90% draw threshold,
the perfect player's lowest-square tie-break, box restock, and the tuned schedules
with the seeds and objective they were tuned on."""

PRIORS = Sweep(
    name="priors",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=METRICS,
    baseline=None,  # compared per regimen: see paired_by_regimen
    options=OPTIONS,
    question=(
        "Do initial beads that reflect the game's branching, or are tuned for it, "
        "make MENACE learn faster than Michie's 4-3-2-1? (thesis §11.6.1)"
    ),
    ranges={"threshold": (0.0, 1.0)},
)

SWEEP = PRIORS
"""The name :func:`menace_lib.book.beyond.sweeps` looks for: ``experiment priors``."""


def curve_band(result: SweepResult, condition: str) -> dict[str, list]:
    """One condition's exact draw-rate curve across seeds: mean and 95% interval per mark.

    Game 0 is the untrained machine (the same for every seed). Returns ``games``,
    ``mean``, ``low`` and ``high`` (lists of equal length).
    """
    opts = result.config["options"]
    records = [r for r in result.records if r["condition"] == condition]
    if not records:
        raise ValueError(f"no records for condition {condition!r}")
    games = [0, *curve_marks(int(opts["games"]), int(opts["every"]))]
    columns = zip(*([r["draw_start"], *r["curve"]] for r in records), strict=True)
    cis = [mean_ci(col) for col in columns]
    first = cis[0]["mean"]
    return {
        "games": games,
        "mean": [c["mean"] for c in cis],
        # One value shared by every seed has no spread: its interval is the value.
        "low": [c["low"] if c["low"] is not None else first for c in cis],
        "high": [c["high"] if c["high"] is not None else first for c in cis],
    }


def _interval(s: Mapping[str, Any], digits: int, scale: float = 1.0) -> str:
    if s.get("mean") is None:
        return "–"
    mean = f"{s['mean'] * scale:.{digits}f}"
    if s.get("low") is None:
        return mean
    return f"{mean} [{s['low'] * scale:.{digits}f}, {s['high'] * scale:.{digits}f}]"


def table_rows(result: SweepResult, regimen: str) -> list[dict[str, str]]:
    """One display row per schedule of ``regimen``: means with 95% intervals, as text.

    Columns: schedule, reached (runs reaching the threshold, with a
    Wilson interval), games to reach it (mean over the runs that did), area and final
    draw rate (percent; the final rate also against uniform tie-breaks), runs that
    emptied a box, and the paired differences from
    Michie's schedule in area (percentage points) and games to the threshold.
    """
    paired = paired_by_regimen(result)
    reach = reach_counts(result)
    threshold = float(result.config["options"]["threshold"])
    rows = []
    for cond in result.config["conditions"]:
        if not cond.startswith(f"{regimen}/"):
            continue
        s = result.summary[cond]
        n = reach[cond]["n"]
        hits = round(reach[cond]["rate"] * n)
        d = paired.get(cond)
        rows.append(
            {
                "schedule": parse_condition(cond)[1],
                f"reach {threshold:.0%}": f"{hits}/{n} "
                f"[{reach[cond]['low']:.0%}, {reach[cond]['high']:.0%}]",
                "games to reach": _interval(s["games_to_threshold"], 0),
                "area %": _interval(s["area"], 1, 100),
                "final draw %": _interval(s["final_draw"], 1, 100),
                "final, uniform ties %": _interval(s["final_draw_uniform"], 1, 100),
                "emptied a box": f"{round(s['emptied']['mean'] * s['emptied']['n'])}/{n}",
                "Δ area pp": _interval(d["area"], 1, 100) if d else "(baseline)",
                "Δ games": _interval(d["games_to_threshold"], 0) if d else "(baseline)",
            }
        )
    return rows


def schedule_rows(result: SweepResult) -> list[dict[str, Any]]:
    """The schedules a sweep used: beads per colour at MENACE's moves 1-4 and in all.

    One row per schedule; the tuned schedule gets one row per regimen.
    """
    colours = colours_by_move(replace(MENACE, restock=result.config["options"]["restock"]))
    rows = []
    for name in SCHEDULES:
        for regimen in REGIMENS if name == "tuned" else ("mixed",):
            cond = condition_key(regimen, name)
            if cond not in result.config["conditions"]:
                continue
            schedule = result.record(cond, result.config["seeds"][0])["schedule"]
            beads = [schedule[min(k, len(schedule) - 1)] for k in range(len(colours))]
            rows.append(
                {
                    "schedule": f"{name} ({regimen})" if name == "tuned" else name,
                    **{f"move {k + 1}": f"{b:.3g}" for k, b in enumerate(beads)},
                    "beads in all": round(sum(c * b for c, b in zip(colours, beads, strict=True))),
                }
            )
    return rows
