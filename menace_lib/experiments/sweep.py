"""A sweep: every condition run on every seed, summarised with 95% confidence intervals.

A :class:`Sweep` names its conditions, a module-level ``run_one(condition, seed,
options) -> record`` and the record fields to summarise. :func:`run_sweep` runs
every (condition, seed) pair through :func:`menace_lib.base.parallel.run_tasks` --
serially, on local processes or on a Dask cluster, with identical numbers -- and
summarises each metric per condition (:func:`~menace_lib.base.confidence.mean_ci`) and,
against the baseline condition, per seed pair
(:func:`~menace_lib.base.confidence.paired_ci`): all conditions share the seeds, so a
difference is measured on common random numbers.

A :class:`SweepResult` saves to JSON (the book's caches in ``book/data/``) and CSV,
and :meth:`SweepResult.matches` compares two results record for record, so a test
can rerun a slice of a sweep and prove its cache is current.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..base.confidence import mean_ci, paired_ci
from ..base.files import read_json, shorten, write_csv, write_json
from ..base.limits import (
    MAX_BEADS,
    MAX_GAMES,
    MAX_SEED,
    MAX_SEEDS,
    check_count,
    check_number,
    check_work,
)
from ..base.parallel import run_tasks
from ..base.reproducibility import same_numbers

__all__ = ["FORMAT", "Sweep", "SweepResult", "run_sweep", "seed_list"]

FORMAT = "menace_lib.sweep"
RunOne = Callable[[str, int, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Sweep:
    """What a sweep runs and what it reports.

    Attributes
    ----------
    name
        The command-line name, e.g. ``"priors"``.
    conditions
        Condition keys, in display order.
    run_one
        ``run_one(condition, seed, options) -> record``: a module-level function
        (it travels to worker processes by reference) that seeds itself from
        ``seed`` alone and returns JSON-ready numbers, ``None`` or lists.
    metrics
        Record fields summarised per condition.
    baseline
        The condition every other is compared with on common seeds (or ``None``).
    options
        Default options (games, regimen, ...); callers may override any of them
        but add none.
    question
        One line: what the sweep asks.
    ranges
        Bounds ``(low, high)`` of real-number options, where they are not 0 to
        :data:`~menace_lib.base.limits.MAX_BEADS` (a threshold is a rate in ``[0, 1]``).
    estimate
        ``estimate(options, condition) -> (games, exact evaluations)`` of one run, for a
        sweep whose work is not ``games`` plus an evaluation every ``every`` games (the
        scaling sweeps: a budget per game, scaled by ``budget_scale``). An evaluation
        of a game larger than noughts and crosses counts as
        :func:`~menace_lib.base.limits.evaluation_work` of its positions.
    admit
        ``admit(options)``: the sweep's own checks of its resolved options that their
        types cannot express (a list of rates each in [0, 1)), raising a one-line
        ValueError before any cost is announced.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.book.beyond import get_sweep
    >>> sweep = get_sweep("priors")
    >>> isinstance(sweep, ml.Sweep), "mixed/4-3-2-1" in sweep.conditions
    (True, True)
    """

    name: str
    conditions: tuple[str, ...]
    run_one: RunOne
    metrics: tuple[str, ...]
    baseline: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    question: str = ""
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    estimate: Callable[[Mapping[str, Any], str], tuple[int, int]] | None = None
    admit: Callable[[Mapping[str, Any]], None] | None = None

    def __post_init__(self) -> None:
        if len(set(self.conditions)) != len(self.conditions) or not self.conditions:
            raise ValueError(f"{self.name}: conditions must be distinct and non-empty")
        if self.baseline is not None and self.baseline not in self.conditions:
            raise ValueError(f"{self.name}: baseline {self.baseline!r} is not a condition")

    def resolve(
        self, options: Mapping[str, Any] | None, conditions: Sequence[str] | None = None
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The defaults overridden by ``options``, and the chosen conditions.

        Raises
        ------
        ValueError
            Naming an option or condition the sweep does not have.
        """
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise ValueError(
                f"{self.name}: unknown option(s) {unknown}; it has {sorted(self.options)}"
            )
        chosen = tuple(conditions) if conditions is not None else self.conditions
        bad = [c for c in chosen if c not in self.conditions]
        if bad or not chosen:
            raise ValueError(
                f"{self.name}: unknown condition(s) {bad}; choose from {self.conditions}"
            )
        for name, value in options.items():
            options[name] = self.check_option(name, value)
        resolved = {**self.options, **options}
        if self.admit is not None:
            self.admit(resolved)
        return resolved, chosen

    def work(
        self, options: Mapping[str, Any], runs: int, conditions: Sequence[str] | None = None
    ) -> tuple[int, int]:
        """Estimated (games, exact evaluations) with resolved ``options``.

        The one estimate of a sweep's work, whatever its options are called. Without
        ``conditions``, ``runs`` counts every run (the conditions' share of it is
        ``runs / len(self.conditions)`` each); with them, ``runs`` is the seeds each
        chosen condition runs. A sweep with :attr:`estimate` sums its conditions' own
        runs; otherwise each run trains ``games`` games and evaluates exactly at the
        start and every ``every`` games.
        """
        chosen = tuple(conditions) if conditions is not None else self.conditions
        total = runs * len(chosen) if conditions is not None else runs
        if self.estimate is not None:
            per = [self.estimate(options, c) for c in chosen]
            share = total / len(chosen)
            return (
                round(share * sum(g for g, _ in per)),
                round(share * sum(e for _, e in per)),
            )
        games = int(options.get("games", 0))
        every = int(options.get("every", 0)) or max(games, 1)
        return total * games, total * (games // every + 2)

    def check_option(self, name: str, value: Any) -> Any:
        """``value`` for option ``name`` if it has the type of the default, else a ValueError.

        A whole-number default (games, marks) takes a whole number from 1 to
        :data:`~menace_lib.base.limits.MAX_GAMES`, never ``true``, ``5.5`` or ``[5]``; a
        real-number default takes a finite number within ``ranges[name]`` (default 0
        to :data:`~menace_lib.base.limits.MAX_BEADS`); text takes text; lists and objects
        take the same kind. The checks of :mod:`menace_lib.base.limits` say what is wrong.
        """
        default, what = self.options[name], f"{self.name} option {name}"
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{what}: must be true or false, got {_show(value)}")
            return value
        if isinstance(default, int):
            return check_count(what, value, MAX_GAMES, minimum=1)
        if isinstance(default, float):
            low, high = self.ranges.get(name, (0.0, MAX_BEADS))
            return check_number(what, value, minimum=low, maximum=high)
        for kind, label in ((str, "text"), (list, "a list"), (dict, "an object")):
            if isinstance(default, kind) and not isinstance(value, kind):
                raise ValueError(f"{what}: must be {label}, got {_show(value)}")
        return value


def _show(value: Any) -> str:
    return shorten(repr(value), 40)


def seed_list(seeds: int | Sequence[int]) -> list[int]:
    """Seeds ``0 .. n-1`` for a count, or the given distinct seeds."""
    if isinstance(seeds, bool):
        raise ValueError("seeds must be a count or a list of integers")
    if isinstance(seeds, int):
        return list(range(check_count("seeds", seeds, MAX_SEEDS, minimum=1)))
    out = [check_count("seed", s, MAX_SEED) for s in seeds]
    if not 1 <= len(out) <= MAX_SEEDS or len(set(out)) != len(out):
        raise ValueError(f"seeds must be 1 to {MAX_SEEDS:,} distinct integers ≥ 0, got {seeds!r}")
    return out


@dataclass
class SweepResult:
    """Every record of a sweep and its summaries.

    Attributes
    ----------
    name
        The sweep's name.
    records
        One dict per (condition, seed), in condition-then-seed order; each has
        ``condition`` and ``seed`` keys besides what ``run_one`` returned.
    summary
        ``summary[condition][metric]``: :func:`~menace_lib.base.confidence.mean_ci`.
    paired
        ``paired[condition][metric]``: the condition minus the baseline,
        :func:`~menace_lib.base.confidence.paired_ci` (empty without a baseline).
    config
        Conditions, seeds, options, library version and the command.
    seconds
        Wall-clock time of the run (not compared by :meth:`matches`).

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.book.beyond import get_sweep
    >>> result = ml.run_sweep(get_sweep("priors"), seeds=2, options={"games": 20},
    ...                       conditions=["mixed/4-3-2-1"], backend="sequential")
    >>> isinstance(result, ml.SweepResult), list(result.summary)
    (True, ['mixed/4-3-2-1'])
    """

    name: str
    records: list[dict[str, Any]]
    summary: dict[str, dict[str, dict]]
    paired: dict[str, dict[str, dict]]
    config: dict[str, Any]
    seconds: float = 0.0

    def values(self, condition: str, metric: str) -> list[Any]:
        """One condition's ``metric`` per seed, in seed order."""
        return [r[metric] for r in self.records if r["condition"] == condition]

    def record(self, condition: str, seed: int) -> dict[str, Any]:
        """The record of one (condition, seed) run."""
        for r in self.records:
            if r["condition"] == condition and r["seed"] == seed:
                return r
        raise KeyError(f"no record for condition {condition!r}, seed {seed}")

    def matches(self, other: SweepResult) -> bool:
        """Whether ``other`` has the same numbers for every record it has in common.

        "The same" is the reproducibility contract's
        (:func:`menace_lib.base.reproducibility.same_numbers`): integers to the bit, floats
        within its one tolerance, timings ignored.
        """
        if self.name != other.name:
            return False
        mine = {(r["condition"], r["seed"]): r for r in self.records}
        common = [(k, r) for r in other.records if (k := (r["condition"], r["seed"])) in mine]
        return bool(common) and all(same_numbers(mine[k], r) for k, r in common)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "name": self.name,
            "config": self.config,
            "summary": self.summary,
            "paired": self.paired,
            "records": self.records,
            "seconds": self.seconds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepResult:
        """Rebuild a result from :meth:`to_dict`'s output.

        Raises
        ------
        ValueError
            If ``data`` is not a sweep result.
        """
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ValueError(f"not a sweep result (format must be {FORMAT!r})")
        try:
            return cls(
                name=str(data["name"]),
                records=list(data["records"]),
                summary=dict(data["summary"]),
                paired=dict(data["paired"]),
                config=dict(data["config"]),
                seconds=float(data.get("seconds", 0.0)),
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"sweep result: missing or bad field {err}") from None

    def save_json(self, path: str | Path, *, option: str | None = None) -> None:
        write_json(path, self.to_dict(), option=option)

    @classmethod
    def load_json(cls, path: str | Path) -> SweepResult:
        return cls.from_dict(read_json(path, "sweep result"))

    def summary_rows(self) -> list[dict[str, Any]]:
        """One flat row per condition: each metric's mean and 95% interval."""
        rows = []
        for cond, by_metric in self.summary.items():
            row: dict[str, Any] = {"condition": cond}
            for metric, s in by_metric.items():
                row[metric] = s["mean"]
                row[f"{metric}_low"], row[f"{metric}_high"] = s["low"], s["high"]
                row[f"{metric}_n"] = s["n"]
            rows.append(row)
        return rows

    def save_csv(self, path: str | Path, *, option: str | None = None) -> None:
        """The per-condition summary as CSV (one row per condition)."""
        write_csv(path, self.summary_rows(), option=option)


def summarise(
    records: Sequence[dict[str, Any]],
    conditions: Sequence[str],
    metrics: Sequence[str],
    baseline: str | None,
) -> tuple[dict[str, dict[str, dict]], dict[str, dict[str, dict]]]:
    """Per-condition :func:`mean_ci` of each metric, and paired differences from the baseline."""
    by_cond = {c: [r for r in records if r["condition"] == c] for c in conditions}
    summary = {c: {m: mean_ci([r[m] for r in rs]) for m in metrics} for c, rs in by_cond.items()}
    paired: dict[str, dict[str, dict]] = {}
    if baseline is not None and baseline in by_cond:
        base = {r["seed"]: r for r in by_cond[baseline]}
        for c, rs in by_cond.items():
            if c == baseline:
                continue
            both = [(r, base[r["seed"]]) for r in rs if r["seed"] in base]
            paired[c] = {
                m: paired_ci([r[m] for r, _ in both], [b[m] for _, b in both]) for m in metrics
            }
    return summary, paired


def run_sweep(
    sweep: Sweep,
    seeds: int | Sequence[int] = 30,
    options: Mapping[str, Any] | None = None,
    *,
    conditions: Sequence[str] | None = None,
    scheduler: str | None = None,
    jobs: int = -1,
    backend: str | None = None,
    progress: bool | None = None,
    command: str | None = None,
    allow_huge: bool = False,
) -> SweepResult:
    """Run every chosen condition on every seed and summarise.

    Parameters
    ----------
    sweep
        What to run.
    seeds
        A count ``n`` (seeds ``0 .. n-1``) or explicit seeds; shared by all conditions.
    options
        Overrides of ``sweep.options``.
    conditions
        A subset of ``sweep.conditions`` (default: all).
    scheduler, jobs, backend, progress
        Where the runs go: see :func:`menace_lib.base.parallel.run_tasks`. They cannot
        change the numbers.
    command
        The command line to store in the result's config.
    allow_huge
        Run even if the estimated work (:meth:`Sweep.work`) is over
        :data:`~menace_lib.base.limits.MAX_WORK`; otherwise a
        :class:`~menace_lib.base.limits.WorkBudgetError` is raised before anything runs.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.book.beyond import get_sweep
    >>> result = ml.run_sweep(get_sweep("priors"), seeds=2, options={"games": 20},
    ...                       conditions=["mixed/4-3-2-1"], backend="sequential")
    >>> len(result.records)
    2
    """
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a Sweep (see book.beyond.get_sweep), got {_show(sweep)}")
    opts, chosen = sweep.resolve(options, conditions)
    seed_values = seed_list(seeds)
    games, evaluations = sweep.work(opts, len(seed_values), chosen)
    check_work(f"sweep {sweep.name}", games, evaluations, allow_huge=allow_huge)
    t0 = time.perf_counter()
    tasks = [(c, s, opts) for c in chosen for s in seed_values]
    outputs = run_tasks(
        sweep.run_one,
        tasks,
        scheduler=scheduler,
        jobs=jobs,
        backend=backend,
        progress=progress,
        desc=sweep.name,
    )
    records = [
        {"condition": c, "seed": s, **out} for (c, s, _), out in zip(tasks, outputs, strict=True)
    ]
    summary, paired = summarise(records, chosen, sweep.metrics, sweep.baseline)
    config = {
        "library": "menace_lib",
        "version": __version__,
        "sweep": sweep.name,
        "question": sweep.question,
        "conditions": list(chosen),
        "baseline": sweep.baseline,
        "metrics": list(sweep.metrics),
        "seeds": seed_values,
        "options": opts,
    }
    if command is not None:
        config["command"] = command
    return SweepResult(sweep.name, records, summary, paired, config, time.perf_counter() - t0)
