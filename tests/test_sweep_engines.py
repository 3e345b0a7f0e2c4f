"""Every Part V sweep gives the same numbers serially, on loky and on a Dask cluster.

Every sweep runs on all three engines in the default run, each on the smallest slice that
still takes every path of its runs (:func:`small`): two conditions (the first and the last,
or :data:`CHOSEN`), two seeds, and options cut to a few games, checkpoints and rates. What
the engines could change is the numbers a run gives in another process (a seed, a cache of
the process, the order of the tasks), not how many games it plays. Each engine runs every
sweep in one stretch (:func:`runs`, once for the module): one ``LocalCluster`` of two
worker processes (``held_scheduler``: started as ``local:2`` is, then reached by its
address) is up only while the sweeps run on it, not while the others do, and joblib's two
reusable loky workers serve every sweep; each worker process pays its imports
and caches once, not once per sweep.
"""

import pytest

from menace_lib.base.parallel import held_scheduler
from menace_lib.base.reproducibility import IGNORED_KEYS
from menace_lib.book.beyond import run_sweep, sweeps

SWEEPS = sweeps()

CUTS = {
    "games": 40,
    "every": 10,
    "horizon": 40,
    "budget_scale": 0.001,
    # A sweep with a board option runs on 4x4 here: its own board (5x5) needs gigabytes and
    # minutes per run, and the engines' agreement does not depend on the board.
    "board": "4x4",
    # Connect-4 trainers: checkpoints at 0, 1, 10 and 100 games (the curriculum's three
    # blocks are crossed between the last two), not eight.
    "per_decade": 1,
    # Noisy observation: two rates on the curve instead of eleven (the curve's code is the
    # same for every rate).
    "curve_eps": [0.0, 0.1],
    # Search with bead priors: checkpoints 0, 1,000 and 3,000 (the headline: the summary's
    # metrics at budgets 0 and 4 are numbers; a machine trained through a checkpoint and one
    # trained straight to it must agree), a search of 4 simulations beside none, and 20
    # sampled games for the sampled arms (instead of 30,000 training games, budgets to 256
    # and 400 games).
    "checkpoints": [0, 1000, 3000],
    "budgets": [0, 4],
    "sampled_games": 20,
    "sampled_checkpoints": [3000],
}


def small(options: dict) -> dict:
    """The sweep's options cut to a second's work or so (only the options it has)."""
    return {k: v for k, v in CUTS.items() if k in options}


def without_timing(records: list[dict]) -> list[dict]:
    # Timings and memory peaks measure the process, not the result.
    return [{k: v for k, v in r.items() if k not in IGNORED_KEYS} for r in records]


# The scaling sweep's last conditions need Connect-4 5x4 (gigabytes per worker): its
# engine test takes hexapawn instead (Connect-4 4x4 runs in other processes in the sweeps
# that train on it: scaling-5x5's board cut, scaling-trainers and hybrid).
CHOSEN = {"scaling": ["noughts-and-crosses/4-3-2-1", "hexapawn/flat-1"]}

ENGINES = ("sequential", "loky", "dask")


def _arguments(name: str) -> dict:
    sweep = SWEEPS[name]
    chosen = CHOSEN.get(name, [sweep.conditions[0], sweep.conditions[-1]])
    return {"seeds": [0, 5], "options": small(sweep.options), "conditions": chosen}


def _each(**engine) -> dict:
    """Every sweep run with the ``engine`` options of :func:`run_sweep`: its result, or the
    error it raised (each sweep's own test reports it)."""
    out = {}
    for name in sorted(SWEEPS):
        try:
            out[name] = run_sweep(SWEEPS[name], **engine, **_arguments(name))
        except Exception as err:  # noqa: BLE001 - re-raised by the sweep's test
            out[name] = err
    return out


@pytest.fixture(scope="module")
def runs() -> dict:
    """Every sweep's result on each engine, engine by engine: ``runs[engine][name]``."""
    out = {}
    # Serial first: it builds the tables the workers then read from the run's disk cache.
    out["sequential"] = _each(backend="sequential")
    out["loky"] = _each(jobs=2, backend="loky")
    with held_scheduler("local:2") as address:
        out["dask"] = _each(scheduler=address)
    return out


def test_there_are_four_questions():
    assert {"priors", "lambda-schedule", "opponent-model", "scaling"} <= set(SWEEPS)


def test_the_cuts_are_options_of_the_sweeps():
    """Every cut names an option some sweep has (a renamed option would be left uncut)."""
    assert set(CUTS) <= {k for sweep in SWEEPS.values() for k in sweep.options}


@pytest.mark.parametrize("name", sorted(SWEEPS))
def test_serial_loky_and_dask_give_identical_numbers(name, runs):
    for engine in ENGINES:
        if isinstance(runs[engine][name], Exception):
            raise runs[engine][name]
    serial, loky, dask = (runs[engine][name] for engine in ENGINES)
    assert len(serial.records) == 4
    assert without_timing(serial.records) == without_timing(loky.records)
    assert without_timing(serial.records) == without_timing(dask.records)
    assert serial.summary == loky.summary == dask.summary
