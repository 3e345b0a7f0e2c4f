"""Scroggs' web MENACE, in the library's terms, and its learning curve.

The best-known MENACE on the web (Matthew Scroggs' page) keeps one box per
canonical position with a choice (304 for X), one bead colour per move class,
8-4-2-1 beads by MENACE's move number and +3 / +1 / -1 beads for a win, draw or
loss. Nothing refills an empty box: if MENACE's *opening* box empties it stops
playing, and at any other empty box it resigns (``empty_box="web"``, see
:mod:`menace_lib.machine.beads`). Played first against a perfect opponent that breaks ties
at random, it learns to draw within a couple of hundred games.

:func:`web_curve` trains many such machines and reports the draw rate game by
game and over windows of games, with the exact draw probability at each window's
end, so the same set-up can be compared with other empty-box rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..base.files import read_json, write_json
from ..machine.menace import Menace, MenaceConfig
from ..play.evaluation import exact_outcome
from ..play.loop import DRAW_RESULT
from ..play.opponents import make_opponent

__all__ = [
    "WEB_CONFIG",
    "WINDOWS",
    "comparison",
    "read_comparison",
    "web_curve",
    "window_rows",
    "with_rule",
    "write_comparison",
]

RULES = {
    "web rule (stop at an empty opening box)": ("web", "none"),
    "resign at every empty box": ("resign", "none"),
    "box restock": ("resign", "box"),
}
"""The set-ups :func:`comparison` runs: label -> (empty_box, restock)."""

WEB_CONFIG = MenaceConfig(
    filter="decision",
    layout="class",
    schedule=(8, 4, 2, 1),
    reinforcement=(3, 1, -1),
    restock="none",
    empty_box="web",
)
"""The web MENACE: 304 move-class boxes, 8-4-2-1 beads, +3/+1/-1, the web empty-box rule."""

WINDOWS = ((0, 25), (25, 50), (50, 100), (100, 150), (150, 200))
"""Windows of games over which the curve is summarised."""


def web_curve(
    runs: int = 100,
    games: int = 200,
    seed: int = 0,
    *,
    config: MenaceConfig = WEB_CONFIG,
    tie_break: str = "uniform",
    windows: Sequence[tuple[int, int]] = WINDOWS,
) -> dict:
    """Train ``runs`` fresh machines for ``games`` games each against the perfect player.

    Each run has its own stream, ``SeedSequence(seed).spawn(runs)``. A run that stops
    (an empty opening box) plays no further games.

    Returns
    -------
    dict
        ``draw``: per game, the fraction of the runs still playing that drew it;
        ``playing``: per game, how many runs played it; ``exact``: per window end,
        the mean exact draw probability against the same opponent (a stopped run
        counts as it stood when it stopped); ``stopped``: runs that stopped;
        ``windows`` and ``runs``.
    """
    if runs < 1 or games < 1:
        raise ValueError(f"runs and games must be ≥ 1, got runs={runs}, games={games}")
    perfect = make_opponent("perfect", tie_break)
    ends = sorted({min(b, games) for _, b in windows})
    drawn = np.zeros(games)
    playing = np.zeros(games, dtype=int)
    exact = np.zeros(len(ends))
    stopped = 0
    for stream in np.random.SeedSequence(seed).spawn(runs):
        rng = np.random.default_rng(stream)
        agent = Menace(config)
        done, halted = 0, False
        for i, end in enumerate(ends):
            if not halted:
                log = agent.train_against(perfect, end - done, rng, record=False)
                results = np.asarray(log.results)
                drawn[done : done + len(results)] += results == DRAW_RESULT
                playing[done : done + len(results)] += 1
                halted = log.stopped_early
                done = end
            exact[i] += exact_outcome(agent, perfect)["draw"]
        stopped += halted
    return {
        "draw": np.divide(drawn, playing, out=np.zeros(games), where=playing > 0),
        "playing": playing,
        "exact": dict(zip(ends, (exact / runs).tolist(), strict=True)),
        "stopped": stopped,
        "windows": [tuple(w) for w in windows],
        "runs": runs,
    }


def window_rows(curves: dict[str, dict]) -> list[dict[str, str]]:
    """One row per window: each curve's draw rate over the games played in it, and exact."""
    rows = []
    first = next(iter(curves.values()))
    for a, b in first["windows"]:
        row = {"games": f"{a}–{b}"}
        for name, c in curves.items():
            played = c["playing"][a:b]
            rate = (c["draw"][a:b] * played).sum() / played.sum() if played.sum() else float("nan")
            row[f"{name}: draws"] = f"{rate:.3f}"
            row[f"{name}: exact at window end"] = f"{c['exact'].get(b, float('nan')):.3f}"
        rows.append(row)
    return rows


def with_rule(empty_box: str, restock: str = "none") -> MenaceConfig:
    """The web MENACE with another empty-box rule (or restock), for comparison."""
    return replace(WEB_CONFIG, empty_box=empty_box, restock=restock)


def comparison(runs: int = 100, games: int = 200, seed: int = 0) -> dict[str, dict]:
    """:func:`web_curve` for each set-up of :data:`RULES`, on the same seeds."""
    return {
        label: web_curve(runs, games, seed, config=with_rule(rule, restock))
        for label, (rule, restock) in RULES.items()
    }


def write_comparison(path: str, runs: int = 100, games: int = 200, seed: int = 0) -> None:
    """Run :func:`comparison` and save it as JSON (the book's cached result)."""
    curves = comparison(runs, games, seed)
    doc = {
        "settings": {"runs": runs, "games": games, "seed": seed},
        "curves": {
            label: {
                **c,
                "draw": [float(x) for x in c["draw"]],
                "playing": [int(x) for x in c["playing"]],
                "exact": {str(k): v for k, v in c["exact"].items()},
            }
            for label, c in curves.items()
        },
    }
    write_json(path, doc)


def read_comparison(path: str) -> dict[str, dict]:
    """Read what :func:`write_comparison` saved, in :func:`web_curve`'s form."""
    doc = read_json(path)
    return {
        label: {
            **c,
            "draw": np.asarray(c["draw"]),
            "playing": np.asarray(c["playing"]),
            "exact": {int(k): v for k, v in c["exact"].items()},
            "windows": [tuple(w) for w in c["windows"]],
        }
        for label, c in doc["curves"].items()
    }


if __name__ == "__main__":  # python -m menace_lib.agents.web PATH
    import sys

    write_comparison(sys.argv[1] if len(sys.argv) > 1 else "book/data/web_menace.json")
