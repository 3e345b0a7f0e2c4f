"""Benchmarks for the speed targets (``python -m menace_lib bench``).

Timings are wall-clock medians of a few repeats on one core; they are measured
here and never asserted in unit tests.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np


def _best_of(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def run_benchmarks(games: int = 200_000) -> dict[str, float]:
    """Measure import time, table build, MENACE and Hybrid AIF training speed and exact
    evaluation."""
    from .evaluation import exact_outcome
    from .menace import Menace
    from .opponents import make_opponent
    from .statespace import build_tables, tables
    from .training import train

    probe = (
        "import time; t = time.perf_counter(); import menace_lib; print(time.perf_counter() - t)"
    )
    import_s = float(
        subprocess.run(
            [sys.executable, "-c", probe], check=True, capture_output=True, text=True
        ).stdout
    )
    cold_probe = (
        "import time; t = time.perf_counter(); import menace_lib.statespace as s; "
        "s.tables(); print(time.perf_counter() - t)"
    )
    cold_s = float(
        subprocess.run(
            [sys.executable, "-c", cold_probe], check=True, capture_output=True, text=True
        ).stdout
    )

    build_s = _best_of(build_tables, 3)
    tables()
    perfect = make_opponent("perfect")

    def train_perfect() -> None:
        Menace().train_against(perfect, games, np.random.default_rng(0), record=False)

    def plain_perfect() -> None:
        plain_loop(Menace(), perfect, games, np.random.default_rng(0))

    train_s = _best_of(train_perfect, 3)
    plain_s = _best_of(plain_perfect, 3)
    agent = Menace()
    train(agent, "mixed", 500, np.random.default_rng(0))
    exact_s = _best_of(lambda: exact_outcome(agent, perfect), 20)

    def thesis_run() -> None:
        train(Menace(), "mixed", 500, np.random.default_rng(0))

    thesis_s = _best_of(thesis_run, 5)
    aif_games = 5_000
    aif_s = _best_of(lambda: aif_training_run(aif_games), 3)
    return {
        "import_s": import_s,
        "cold_tables_s": cold_s,
        "build_tables_s": build_s,
        "menace_games_per_s": games / train_s,
        "plain_loop_games_per_s": games / plain_s,
        "menace_to_plain_ratio": plain_s / train_s,
        "exact_eval_ms": exact_s * 1000,
        "menace_500_mixed_s": thesis_s,
        "aif_games_per_s": aif_games / aif_s,
    }


def aif_training_run(games: int) -> None:
    """A fresh Hybrid AIF (the thesis's settings) trains against the perfect player."""
    from .aif import HybridAIF
    from .opponents import make_opponent

    agent = HybridAIF(lam=0.5, lambda_policy=0.25)
    agent.train_against(make_opponent("perfect"), games, np.random.default_rng(0), record=False)


def plain_loop(agent, opponent, games: int, rng: np.random.Generator) -> list[int]:
    """The yardstick for MENACE's fast path: a plain table-driven loop, no records.

    What a careful programmer writes first: per game, walk the position tables,
    draw a bead by scanning the box, then add the reinforcement to every drawn
    bead, clamp at 0 and refill a box that empties. It keeps only the results.
    """
    from .menace_loop import BLOCK

    box, result, nxt_agent = agent.raw_box, agent.result, agent.raw_next
    nxt_opp = opponent.next_ids
    weights, initial = agent.weights, agent.initial
    delta = agent.config.reinforcement
    results = []
    u = rng.random(BLOCK).tolist()
    k = 0
    for _ in range(games):
        if k > BLOCK - 16:
            u, k = rng.random(BLOCK).tolist(), 0
        s, path = 0, []
        while result[s] < 0:
            b = box[s]
            if b >= 0:
                w = weights[b]
                t = u[k] * sum(w)
                k += 1
                j = 0
                while t >= w[j]:
                    t -= w[j]
                    j += 1
                path.append((b, j))
                s = nxt_agent[s][j]
            else:
                options = nxt_agent[s] or nxt_opp[s]
                if len(options) > 1:
                    s = options[int(u[k] * len(options))]
                    k += 1
                else:
                    s = options[0]
        d = delta[result[s]]
        for b, j in path:
            w = weights[b]
            w[j] = max(w[j] + d, 0.0)
            if d < 0 and max(w) <= 0:
                w[:] = initial[b]
        results.append(result[s])
    return results
