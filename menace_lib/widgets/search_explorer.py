"""The live figure of the search chapter: every searcher's loss, by training and by search.

:class:`SearchExplorer` (``search_explorer.js``) receives the cached sweep's numbers once,
in a synced trait (:func:`menace_lib.book.beyond.hybrid_figures.explorer_data` builds
them from the cache; this module cannot import the book's code, so the chapter passes
them in). The reader moves one slider over the sweep's checkpoints (training games) and
one over its budgets (simulations a move) and sees, for each searcher, its loss against
the perfect player there as a bar with its 95 % interval over seeds, labelled exact or
sampled. The page only selects and draws; every number comes from the cache.
"""

from __future__ import annotations

import math
from typing import Any

import anywidget
import traitlets as t

from ._bundle import bundle, stylesheet

__all__ = ["SearchExplorer", "check_data"]

_ARM_KEYS = ("arm", "name", "colour", "scored", "searches", "once", "loss")


def _grid(values: Any, name: str) -> list[int]:
    if not isinstance(values, list) or not 1 <= len(values) <= 20:
        raise ValueError(f"{name} must list 1 to 20 whole numbers, got {values!r}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must hold whole numbers >= 0, got {v!r}")
    if sorted(set(values)) != values:
        raise ValueError(f"{name} must be strictly increasing, got {values!r}")
    return values


def _cell(cell: Any, where: str) -> None:
    if cell is None:
        return
    if not isinstance(cell, dict) or set(cell) != {"mean", "low", "high"}:
        raise ValueError(f"{where} must be None or {{mean, low, high}}, got {cell!r}")
    for key in ("mean", "low", "high"):
        v = cell[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{where}.{key} must be a finite number, got {v!r}")
    if not (cell["low"] <= cell["mean"] <= cell["high"]) or not 0 <= cell["mean"] <= 1:
        raise ValueError(f"{where} must have low <= mean <= high and 0 <= mean <= 1, got {cell!r}")


def check_data(data: Any) -> dict[str, Any]:
    """``data`` if it has the shape :class:`SearchExplorer` draws, else a one-line error."""
    if not isinstance(data, dict):
        raise ValueError(f"the explorer's data must be a dict, got {type(data).__name__}")
    missing = {"checkpoints", "budgets", "headline", "seeds", "sampled_games", "arms"} - set(data)
    if missing:
        raise ValueError(f"the explorer's data lacks {sorted(missing)}")
    points = _grid(data["checkpoints"], "checkpoints")
    budgets = _grid(data["budgets"], "budgets")
    if data["headline"] not in points:
        raise ValueError(f"headline must be a checkpoint of {points}, got {data['headline']!r}")
    arms = data["arms"]
    if not isinstance(arms, list) or not 1 <= len(arms) <= 12:
        raise ValueError(f"arms must list 1 to 12 searchers, got {arms!r:.80}")
    for a in arms:
        if not isinstance(a, dict) or set(a) != set(_ARM_KEYS):
            raise ValueError(f"each arm must have exactly the keys {_ARM_KEYS}, got {a!r:.80}")
        name = f"arm {a['arm']!r}"
        if a["scored"] not in ("exact", "sampled"):
            raise ValueError(f"{name}: scored must be exact or sampled, got {a['scored']!r}")
        loss = a["loss"]
        if not isinstance(loss, list) or len(loss) != len(points):
            raise ValueError(f"{name}: loss must have one row per checkpoint ({len(points)})")
        for i, row in enumerate(loss):
            if not isinstance(row, list) or len(row) != len(budgets):
                raise ValueError(f"{name}: loss[{i}] needs one cell per budget ({len(budgets)})")
            for j, cell in enumerate(row):
                _cell(cell, f"{name} loss[{i}][{j}]")
    return data


class SearchExplorer(anywidget.AnyWidget):
    """Each searcher's loss against the perfect player, by training games and by
    simulations a move, with its 95 % interval over seeds.

    Parameters
    ----------
    data
        :func:`menace_lib.book.beyond.hybrid_figures.explorer_data` (checked by
        :func:`check_data`).
    checkpoint, budget
        The training games and the simulations a move shown first (values of
        ``data["checkpoints"]`` and ``data["budgets"]``); None: the sweep's headline
        checkpoint and the third budget (16 simulations in the book's sweep).

    Examples
    --------
    >>> import menace_lib as ml
    >>> w = ml.widgets.SearchExplorer(ml.book.beyond.hybrid_figures.explorer_data())
    >>> w.data["checkpoints"][w.checkpoint], w.data["budgets"][w.budget]
    (3000, 16)
    """

    _esm = bundle("search_explorer.js")
    _css = stylesheet() + stylesheet("search_explorer.css")
    data = t.Dict().tag(sync=True)
    checkpoint = t.Int(0).tag(sync=True)
    """Index into ``data["checkpoints"]`` of the checkpoint shown."""
    budget = t.Int(0).tag(sync=True)
    """Index into ``data["budgets"]`` of the budget shown."""

    def __init__(self, data: Any, checkpoint: int | None = None, budget: int | None = None):
        data = check_data(data)
        points, budgets = data["checkpoints"], data["budgets"]
        games = data["headline"] if checkpoint is None else checkpoint
        sims = budgets[min(2, len(budgets) - 1)] if budget is None else budget
        if games not in points:
            raise ValueError(f"checkpoint must be one of {points}, got {games!r}")
        if sims not in budgets:
            raise ValueError(f"budget must be one of {budgets}, got {sims!r}")
        super().__init__(data=data, checkpoint=points.index(games), budget=budgets.index(sims))
