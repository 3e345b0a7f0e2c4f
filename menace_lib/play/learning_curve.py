"""Exact learning curves: train in segments and evaluate exactly at chosen game counts.

A *learning curve* is the agent's exact win/draw/loss probabilities against one or
more scripted players, taken at *marks* (game counts) during training. Exact
evaluation has no sampling noise, so a curve's wiggles are the learner's own.

:func:`train_with_curve` owns the loop: it cuts a regimen's ``(opponent, games)``
blocks at the marks (:func:`split_blocks`), trains each segment with
:func:`menace_lib.play.training.train`, and evaluates a frozen view of the agent after
it. Evaluation draws no random numbers, so a curve never changes what the agent
learns -- except that MENACE's fast loop draws its uniforms in blocks per call,
so the marks are part of a run's definition (as in the thesis protocol).

Two summaries of a curve serve the sweeps: :func:`games_to_reach` (sample
efficiency: the first mark at which a rate reaches a threshold) and
:func:`area_under` (the mean rate over the first ``horizon`` games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base.limits import MAX_GAMES, check_count
from .evaluation import exact_outcome
from .loop import RESULT_NAMES, TrainingLog, counts_only
from .opponents import make_opponent
from .training import train

__all__ = [
    "CURVE_OPPONENTS",
    "LearningCurve",
    "area_under",
    "curve_marks",
    "even_marks",
    "games_to_reach",
    "split_blocks",
    "train_with_curve",
]

CURVE_OPPONENTS = ("perfect", "random", "defensive")
"""The scripted players a learning curve can be taken against."""

Blocks = Sequence[tuple[str, int]]


def curve_marks(games: int, every: int) -> list[int]:
    """Every ``every`` games up to ``games``, always ending at ``games`` (none for 0 games)."""
    games = check_count("games", games, MAX_GAMES)
    every = check_count("every", every, MAX_GAMES, minimum=1)
    marks = list(range(every, games + 1, every))
    if games and (not marks or marks[-1] != games):
        marks.append(games)
    return marks


def even_marks(games: int, points: int) -> list[int]:
    """``points`` evenly spaced game counts ending at ``games`` (just ``games`` if 0 points)."""
    if points <= 0:
        return [games]
    marks = np.linspace(0, games, points + 1)[1:]
    return sorted({max(1, round(float(m))) for m in marks} | {games})


def split_blocks(blocks: Blocks, marks: Sequence[int]) -> list[list[tuple[str, int]]]:
    """Cut ``(opponent, games)`` blocks into the segments between consecutive marks."""
    spans, start = [], 0
    for name, n in blocks:
        spans.append((name, start, start + n))
        start += n
    segments, lo = [], 0
    for hi in marks:
        seg = [(name, min(b, hi) - max(a, lo)) for name, a, b in spans if a < hi and b > lo]
        segments.append([(name, n) for name, n in seg if n > 0])
        lo = hi
    return segments


@dataclass
class LearningCurve:
    """Exact rates at each mark, per opponent, plus the training log.

    Attributes
    ----------
    games
        The marks reached (fewer than asked if training stopped at an empty box).
    rates
        ``rates[opponent][result]``: one probability per mark; ``result`` is
        ``"win"``, ``"draw"`` or ``"loss"``.
    extra
        Per mark, what ``on_mark`` returned (empty without it).
    log
        Every training game.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> from menace_lib.play.opponents import regimen_blocks
    >>> blocks = regimen_blocks("random", 100)
    >>> rng = np.random.default_rng(0)
    >>> curve = ml.train_with_curve(ml.Menace(), blocks, rng, [50, 100], opponents=("perfect",))
    >>> sorted(curve.to_dict()["rates"]["perfect"])
    ['draw', 'loss', 'win']
    >>> len(curve.to_rows())
    2
    """

    games: list[int] = field(default_factory=list)
    rates: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    extra: list[dict[str, Any]] = field(default_factory=list)
    log: TrainingLog = field(default_factory=TrainingLog)

    @property
    def stopped(self) -> bool:
        """Whether training stopped early (an empty box under ``empty_box="stop"``)."""
        return bool(self.log.stopped_early)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: marks, rates and extras (not the per-game log)."""
        out: dict[str, Any] = {"games": list(self.games), "rates": self.rates}
        if self.extra:
            out["extra"] = self.extra
        out["stopped"] = self.stopped
        return out

    def to_rows(self) -> list[dict[str, Any]]:
        """One flat row per mark (for CSV): ``games``, ``<opponent>_<result>``, extras."""
        rows = []
        for i, g in enumerate(self.games):
            row: dict[str, Any] = {"games": g}
            for opp, by_result in self.rates.items():
                for result in RESULT_NAMES:
                    row[f"{opp}_{result}"] = by_result[result][i]
            if self.extra:
                row.update(self.extra[i])
            rows.append(row)
        return rows


def train_with_curve(
    agent,
    blocks: Blocks,
    rng: np.random.Generator,
    marks: Sequence[int],
    *,
    opponents: Sequence[str] = ("perfect",),
    tie_break: str = "lowest",
    on_mark: Callable[[Any, int], dict[str, Any] | None] | None = None,
    log: TrainingLog | None = None,
    record: bool = True,
) -> LearningCurve:
    """Train ``agent`` through ``blocks``, taking exact rates at every mark.

    Parameters
    ----------
    agent
        Any :class:`~menace_lib.games.agent.Agent`; it learns in place.
    blocks
        ``(opponent name, games)`` blocks, e.g. from
        :func:`~menace_lib.play.opponents.regimen_blocks`.
    rng
        The only source of randomness (training only; evaluation is exact).
    marks
        Ascending game counts at which to evaluate (:func:`curve_marks`).
    opponents
        Players to evaluate against, by name (usually from :data:`CURVE_OPPONENTS`;
        any name :func:`~menace_lib.play.opponents.make_opponent` knows).
    tie_break
        The perfect player's tie-break, in training and evaluation.
    on_mark
        ``on_mark(agent, games_so_far)`` may return extra JSON-ready numbers to
        record at each mark; it must not draw random numbers.
    log
        A log to extend with the training games (default: a new one), so
        ``on_mark`` can look at the games played so far.
    record
        ``False``: the log keeps counts, not games (see :func:`menace_lib.play.training.train`),
        so a curve of any length needs the same memory.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> from menace_lib.play.opponents import regimen_blocks
    >>> blocks = regimen_blocks("random", 100)
    >>> rng = np.random.default_rng(0)
    >>> curve = ml.train_with_curve(ml.Menace(), blocks, rng, [50, 100], opponents=("perfect",))
    >>> curve.games
    [50, 100]
    """
    if not opponents:
        raise ValueError(f"name at least one curve opponent from {CURVE_OPPONENTS}")
    if list(marks) != sorted(set(marks)) or (marks and marks[0] < 1):
        raise ValueError(f"marks must be ascending game counts ≥ 1, got {list(marks)[:5]}...")
    players = {name: make_opponent(name, tie_break) for name in opponents}
    if log is None:
        with counts_only() if not record else nullcontext():
            log = TrainingLog()
    curve = LearningCurve(rates={o: {r: [] for r in RESULT_NAMES} for o in opponents}, log=log)
    for mark, segment in zip(marks, split_blocks(blocks, marks), strict=True):
        part = train(agent, segment, None, rng, tie_break=tie_break, record=record)
        curve.log.extend(part)
        if part.stopped_early:
            break
        curve.games.append(mark)
        for name, player in players.items():
            exact = exact_outcome(agent, player)
            for result in RESULT_NAMES:
                curve.rates[name][result].append(exact[result])
        if on_mark is not None:
            curve.extra.append(on_mark(agent, len(curve.log)) or {})
    return curve


def games_to_reach(
    games: Sequence[int], values: Sequence[float], threshold: float = 0.9
) -> int | None:
    """The first mark at which ``values`` reaches ``threshold`` (``None`` if it never does)."""
    for g, v in zip(games, values, strict=True):
        if v >= threshold:
            return int(g)
    return None


def area_under(
    games: Sequence[int], values: Sequence[float], horizon: int, start: float | None = None
) -> float:
    """Mean of a curve over games ``[0, horizon]`` (trapezoid rule), in [0, 1] for rates.

    ``start`` is the value at game 0 (the untrained agent's rate); without it the
    curve is held at its first value back to game 0. A curve that ends before
    ``horizon`` (a run that stopped) is held at 0 beyond its last mark, so stopping
    counts against it.

    Raises
    ------
    ValueError
        If ``horizon`` < 1 or the curve is empty.
    """
    if horizon < 1:
        raise ValueError(f"horizon must be ≥ 1 game, got {horizon!r}")
    if len(games) == 0:
        raise ValueError("the curve has no marks")
    x = np.concatenate([[0.0], np.asarray(games, dtype=float)])
    y = np.concatenate([[values[0] if start is None else start], np.asarray(values, dtype=float)])
    end = min(float(x[-1]), float(horizon))
    grid = np.union1d(x[x <= end], [end])
    return float(np.trapezoid(np.interp(grid, x, y), grid) / horizon)
