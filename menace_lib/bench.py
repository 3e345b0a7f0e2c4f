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
    """Measure import time, table build, MENACE training speed and exact evaluation."""
    from .evaluation import exact_outcome
    from .menace import Menace
    from .opponents import make_opponent
    from .statespace import build_tables, tables
    from .training import train, train_menace_against

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
        train_menace_against(Menace(), perfect, games, np.random.default_rng(0))

    train_s = _best_of(train_perfect, 3)
    agent = Menace()
    train(agent, "mixed", 500, np.random.default_rng(0))
    exact_s = _best_of(lambda: exact_outcome(agent, perfect), 20)

    def thesis_run() -> None:
        train(Menace(), "mixed", 500, np.random.default_rng(0))

    thesis_s = _best_of(thesis_run, 5)
    return {
        "import_s": import_s,
        "cold_tables_s": cold_s,
        "build_tables_s": build_s,
        "menace_games_per_s": games / train_s,
        "exact_eval_ms": exact_s * 1000,
        "menace_500_mixed_s": thesis_s,
    }
