"""Cumulative regret of one matchbox played as a bandit, over a long horizon (thesis §5.3).

The thesis cites Thompson sampling's ``O(√T log T)`` regret and notes that no such
bound is known for MENACE's probability matching (Observation 5.8). The claim is
cited, not measured there; :func:`regret_curves` measures it on the three-move
matchbox of the book's bandit example (``BANDIT_EXAMPLE``): MENACE's bead draw
(``"matching"``), Thompson sampling on the bead counts (``"thompson"``) and canonical
Thompson sampling on beliefs about outcomes (``"value-thompson"``), all through
:func:`menace_lib.book.correspondence.simulate_box_bandit`.

Runs are split into ``chunks`` with independent seeds (``SeedSequence(seed).spawn``)
and each chunk's mean cumulative regret is stored at log-spaced horizons, so any
chunk can be re-run alone and compared with the stored file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..correspondence import simulate_box_bandit

__all__ = [
    "BANDIT_EXAMPLE",
    "REGRET_RULES",
    "chunk_stream",
    "horizons",
    "regret_chunk",
    "regret_curves",
]

BANDIT_EXAMPLE = (
    (0.10, 0.85, 0.05),  # solid: usually draws
    (0.45, 0.05, 0.50),  # gamble: wins or loses
    (0.05, 0.25, 0.70),  # blunder
)
"""P(win, draw, loss) of each move: the matchbox of *MENACE as a Dirichlet–categorical model*."""

REGRET_RULES = ("matching", "thompson", "value-thompson")


def horizons(steps: int, points: int = 60) -> np.ndarray:
    """Log-spaced step counts from 1 to ``steps`` (distinct integers)."""
    return np.unique(np.round(np.logspace(0, np.log10(steps), points)).astype(int))


def regret_chunk(
    rule: str, steps: int, runs: int, seed: np.random.SeedSequence, points: int = 60
) -> list[float]:
    """Mean cumulative regret of ``runs`` runs of ``rule`` at :func:`horizons`."""
    run = simulate_box_bandit(
        np.array(BANDIT_EXAMPLE), rule, steps=steps, runs=runs, rng=np.random.default_rng(seed)
    )
    curve = run.mean_cumulative_regret()
    return [float(curve[t - 1]) for t in horizons(steps, points)]


def regret_curves(
    steps: int = 20_000, runs: int = 400, chunks: int = 8, seed: int = 2026, points: int = 60
) -> dict[str, Any]:
    """Chunked mean cumulative regret of every rule in :data:`REGRET_RULES`; JSON-ready."""
    if runs % chunks:
        raise ValueError(f"runs ({runs}) must be a multiple of chunks ({chunks})")
    streams = np.random.SeedSequence(seed).spawn(len(REGRET_RULES) * chunks)
    curves = {
        rule: [
            regret_chunk(rule, steps, runs // chunks, streams[i * chunks + c], points)
            for c in range(chunks)
        ]
        for i, rule in enumerate(REGRET_RULES)
    }
    return {
        "format": "menace_lib.claims.regret",
        "version": 1,
        "bandit": [list(p) for p in BANDIT_EXAMPLE],
        "steps": steps,
        "runs": runs,
        "chunks": chunks,
        "seed": seed,
        "points": points,
        "horizons": horizons(steps, points).tolist(),
        "curves": curves,
    }


def chunk_stream(doc: dict[str, Any], rule: str, chunk: int) -> np.random.SeedSequence:
    """The seed of one stored chunk, to re-run it."""
    i = REGRET_RULES.index(rule)
    return np.random.SeedSequence(doc["seed"]).spawn(len(REGRET_RULES) * doc["chunks"])[
        i * doc["chunks"] + chunk
    ]
