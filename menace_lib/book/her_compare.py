"""The learners of the thesis on HER's game: one comparison table on Hexapawn, exact.

Issue 24 asks for MENACE (HER), the Instrumental and Hybrid Active Inference agents and
Q-learning in one exact table on Hexapawn. HER's rows come from :mod:`menace_lib.agents.her`
(its exact distribution, and its seeds). This module trains the Active Inference agents
the same way -- playing Black (second), HER's 19 boxes (filter ``all``), 300 seeds of
``games`` games against each White -- and evaluates each seed's frozen agent exactly
against every White (:func:`menace_lib.play.evaluation.exact_outcome`, no sampling); a row is
the mean of those exact rates over seeds. Q-learning (the thesis's settings) is trained
and evaluated the same way; as in the thesis, its frozen copies keep their final ε.

Regenerate the cache with ``python -m menace_lib.book.her_compare [games] [seeds]``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..base.files import book_data
from ..games.hexapawn import BLACK

COMPARE_FILE = book_data("her_compare.json")
SETTINGS = {"game": "hexapawn", "filter": "all", "player": BLACK}
"""HER's side and boxes, for every learner here."""


def _instrumental() -> Any:
    from ..agents.aif import InstrumentalAIF  # the agents load SciPy: only when a run is made

    return InstrumentalAIF(**SETTINGS)


def _hybrid() -> Any:
    from ..agents.aif import HybridAIF

    return HybridAIF(**SETTINGS)


def _qlearning() -> Any:
    from ..agents.rl import QLearning, RLConfig

    return QLearning(RLConfig(game=SETTINGS["game"], player=SETTINGS["player"]))


LEARNERS: dict[str, Callable[[], Any]] = {
    "Instrumental AIF": _instrumental,
    "Hybrid AIF (λ = 0.5)": _hybrid,
    "Q-learning": _qlearning,
}
"""The learners compared with HER, by the name their row carries (thesis defaults)."""

__all__ = ["COMPARE_FILE", "LEARNERS", "SETTINGS", "build_comparison", "her_comparison"]


def _curve(make: Callable[[], Any], trainer: str, games: int, seeds: int, every: int) -> dict:
    """Mean exact (win, draw, loss) against every White at each mark, over seeds."""
    from ..agents.her import opponents
    from ..play.evaluation import exact_outcome

    opps = opponents()
    marks = list(range(0, games + 1, every))
    if marks[-1] != games:
        marks.append(games)
    rates = {name: np.zeros((len(marks), 3)) for name in opps}
    for seed in range(seeds):
        agent, rng = make(), np.random.default_rng(seed)
        for k, mark in enumerate(marks):
            if k:
                agent.train_against(opps[trainer], mark - marks[k - 1], rng, record=False)
            for name, opp in opps.items():
                r = exact_outcome(agent, opp)
                rates[name][k] += (r["win"], r["draw"], r["loss"])
    return {"marks": marks, "rates": {k: (v / seeds).tolist() for k, v in rates.items()}}


def build_comparison(
    path: Path = COMPARE_FILE, games: int = 200, seeds: int = 300, every: int = 20
) -> dict:
    """Train every learner of :data:`LEARNERS` against every White and write the curves.

    Parameters
    ----------
    path
        Where the JSON goes.
    games, seeds, every
        Training games per seed, seeds per (learner, White), and games between marks.
    """
    from ..agents.her import opponents
    from ..base.files import write_json

    out: dict = {"games": games, "seeds": seeds, "settings": SETTINGS, "learners": {}}
    for name, make in LEARNERS.items():
        out["learners"][name] = {
            trainer: _curve(make, trainer, games, seeds, every) for trainer in opponents()
        }
    write_json(path, out)
    return out


def her_comparison(path: Path = COMPARE_FILE) -> dict:
    """The cached comparison (see :func:`build_comparison`).

    Returns
    -------
    dict
        ``games``, ``seeds``, ``settings`` and, per learner and training White, the
        marks and the mean exact rates against every White.

    Examples
    --------
    >>> import menace_lib as ml
    >>> sorted(ml.her_compare.her_comparison()["learners"])
    ['Hybrid AIF (λ = 0.5)', 'Instrumental AIF', 'Q-learning']
    """
    from ..base.files import read_json

    return read_json(path, "HER comparison")


if __name__ == "__main__":  # python -m menace_lib.book.her_compare [games] [seeds]
    args = [int(a) for a in sys.argv[1:3]]
    done = build_comparison(COMPARE_FILE, *args)
    json.dump({"games": done["games"], "seeds": done["seeds"]}, sys.stdout)
