"""Every Part V sweep gives the same numbers serially, on loky and on a Dask LocalCluster."""

import pytest

from menace_lib.base.reproducibility import IGNORED_KEYS
from menace_lib.book.beyond import run_sweep, sweeps

SWEEPS = sweeps()


def small(options: dict) -> dict:
    """The sweep's options cut to a few seconds' work (only the options it has)."""
    # A sweep with a board option runs on 4x4 here: its own board (5x5) needs gigabytes and
    # minutes per run, and the engines' agreement does not depend on the board.
    cuts = {"games": 40, "every": 10, "horizon": 40, "budget_scale": 0.001, "board": "4x4"}
    return {k: v for k, v in cuts.items() if k in options}


def without_timing(records: list[dict]) -> list[dict]:
    # Timings and memory peaks measure the process, not the result.
    return [{k: v for k, v in r.items() if k not in IGNORED_KEYS} for r in records]


# The scaling sweep's last conditions need Connect-4 5x4 (gigabytes per worker): its
# engine test takes a small board instead.
CHOSEN = {"scaling": ["noughts-and-crosses/4-3-2-1", "connect4:4x4/flat-1"]}


def test_there_are_four_questions():
    assert {"priors", "lambda-schedule", "opponent-model", "scaling"} <= set(SWEEPS)


@pytest.mark.parametrize("name", sorted(SWEEPS))
def test_serial_loky_and_dask_give_identical_numbers(name):
    sweep = SWEEPS[name]
    chosen = CHOSEN.get(name, [sweep.conditions[0], sweep.conditions[-1]])
    args = {"seeds": [0, 5], "options": small(sweep.options), "conditions": chosen}
    serial = run_sweep(sweep, backend="sequential", **args)
    loky = run_sweep(sweep, jobs=2, backend="loky", **args)
    dask = run_sweep(sweep, scheduler="local:2", **args)
    assert len(serial.records) == 4
    assert without_timing(serial.records) == without_timing(loky.records)
    assert without_timing(serial.records) == without_timing(dask.records)
    assert serial.summary == loky.summary == dask.summary
