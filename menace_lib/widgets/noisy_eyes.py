"""Noisy eyes: slide the misreading rate and watch the box each observer opens.

The page shows a true board, a reading of it (each cell misread with probability eps,
drawn in the browser with the library's counter-based generator; the reader can also
click a cell of the reading to change what is seen), and for each observer -- naive,
Bayes with a uniform prior, Bayes with the reach prior -- its belief over the positions
of the ply and the box it opens, with that box's move probabilities. Everything is
computed in ``noisy_eyes.js`` from the synced traits: the positions where the machine
moves, its policy there, the reach prior and the exact losses of the chapter's cache.
:func:`observer_view` is the Python reference for what the page shows.

Examples
--------
>>> from menace_lib.widgets.noisy_eyes import NoisyEyesWidget
>>> w = NoisyEyesWidget.from_policy_data(
...     positions=["........."], policy=[[111] * 9], reach=[1.0], examples=[0])
>>> w.eps
0.1
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..agents import noisy
from ..games.registry import game_tables
from ._bundle import bundle, stylesheet

__all__ = ["WIDGETS_DIR", "NoisyEyesWidget", "observer_view", "widget_data"]

EPS_MAX = 0.3
WIDGETS_DIR = Path(__file__).parent
"""The top of the page's eps slider."""


def widget_data(policy: noisy.PolicySource, opponent=None, examples: int = 6) -> dict[str, Any]:
    """The traits of a widget for ``policy``: every position where it moves (text), its
    move probabilities there in thousandths, the reach prior within each ply, and the
    indices of ``examples`` true boards to start from (the most likely of plies 0-6)."""
    T = game_tables()
    positions, policy_rows, reach_rows, example_ids = [], [], [], []
    for ply, ids in noisy.ply_support(policy.player):
        prior = noisy.reach_prior(policy, ply, opponent)
        start = len(positions)
        for pid, r in zip(ids.tolist(), prior.tolist(), strict=True):
            positions.append(T.text(pid))
            policy_rows.append([round(1000 * p) for p in policy.probabilities[pid].tolist()])
            reach_rows.append(round(r, 9))
        if ply <= 6:
            order = np.argsort(-prior, kind="stable")[: max(1, examples // 4)]
            example_ids.extend(start + int(i) for i in order if prior[i] > 0)
    return {
        "positions": positions,
        "policy": policy_rows,
        "reach": reach_rows,
        "examples": example_ids[:examples],
    }


def observer_view(
    reading: str, eps: float, ply: int, positions: list[str], reach: list[float]
) -> dict[str, Any]:
    """What the page shows for one reading: per observer, the positions it believes in
    (index, probability; the top five) and the positions whose box it opens.

    The naive observer opens the box of the board as read, if the machine moves there;
    the Bayes observers follow :func:`menace_lib.agents.noisy.belief` and open the box
    of the most probable position (ties share).
    """
    eps = noisy.check_eps(eps)
    same_ply = [i for i, p in enumerate(positions) if sum(c != "." for c in p) == ply]
    out: dict[str, Any] = {
        "naive": {"opens": [positions.index(reading)] if reading in positions else []}
    }
    f = noisy.reading_likelihood(eps)
    d = np.array(
        [sum(a != b for a, b in zip(positions[i], reading, strict=True)) for i in same_ply]
    )
    like = f[d]
    for name, prior in (
        ("uniform", np.full(len(same_ply), 1.0 / len(same_ply))),
        ("reach", np.array([reach[i] for i in same_ply])),
    ):
        w = like * prior
        if w.sum() <= 0:  # no support under this prior: the uniform prior's nearest
            w = np.where(d == d.min(), 1.0, 0.0)
        post = w / w.sum()
        if name == "uniform" and eps > 0 and (eps / 2) / (1 - eps) < 1:
            best = np.flatnonzero(d == d.min())
        else:
            best = noisy.map_positions(post)
        top = np.argsort(-post, kind="stable")[:5]
        out[name] = {
            "belief": [[same_ply[i], float(post[i])] for i in top],
            "opens": sorted(same_ply[i] for i in best),
        }
    return out


class NoisyEyesWidget(anywidget.AnyWidget):
    """The noisy-board explorer (see the module docstring).

    Build it with :meth:`from_policy` (a trained machine's policy) or
    :meth:`from_policy_data`.
    """

    _esm = bundle("noisy_eyes.js")
    _css = stylesheet()

    eps = t.Float(0.1).tag(sync=True)
    example = t.Int(0).tag(sync=True)
    draw = t.Int(0).tag(sync=True)
    positions = t.List(t.Unicode()).tag(sync=True)
    policy = t.List(t.List(t.Int())).tag(sync=True)
    reach = t.List(t.Float()).tag(sync=True)
    examples = t.List(t.Int()).tag(sync=True)
    losses = t.Dict().tag(sync=True)
    """Exact losses to quote: ``{"eps": [...], "naive": [...], "uniform": [...],
    "reach": [...]}``, one value per eps."""

    @classmethod
    def from_policy_data(cls, **data: Any) -> NoisyEyesWidget:
        return cls(**data)

    @classmethod
    def from_policy(
        cls, policy: noisy.PolicySource, losses: dict | None = None, **kwargs: Any
    ) -> NoisyEyesWidget:
        return cls(**widget_data(policy), losses=losses or {}, **kwargs)

    @t.validate("eps")
    def _valid_eps(self, proposal: t.Bunch) -> float:
        value = noisy.check_eps(proposal.value)
        if value > EPS_MAX:
            raise ValueError(f"eps = {value!r} is above the slider's {EPS_MAX}")
        return value

    def __repr__(self) -> str:
        return (
            f"NoisyEyesWidget: eps = {self.eps:g}, {len(self.positions)} positions, "
            f"{len(self.examples)} example boards. Interactive in a browser: run the "
            "notebook, or read the built book."
        )
