"""Engines for sweeps: joblib on this machine or a Dask cluster, with identical numbers."""

import math

import pytest

from menace_lib.base.confidence import mean_ci, paired_ci, proportion_ci
from menace_lib.base.parallel import check_scheduler, held_scheduler, run_tasks
from menace_lib.cli import main


def test_results_come_back_in_task_order_on_every_engine():
    tasks = [(x, y) for x in range(5) for y in (1, 2)]
    want = [math.pow(x, y) for x, y in tasks]
    assert run_tasks(math.pow, tasks, backend="sequential") == want
    assert run_tasks(math.pow, tasks, jobs=2) == want
    assert run_tasks(math.pow, tasks, scheduler="local:2") == want


def test_a_held_local_cluster_serves_many_calls():
    with held_scheduler("local:1") as address:
        assert address.startswith(("tcp://", "inproc://"))
        first = run_tasks(math.pow, [(2, 3)], scheduler=address)
        again = run_tasks(math.pow, [(3, 2)], scheduler=address)
    assert (first, again) == ([8.0], [9.0])
    with held_scheduler(None) as nothing:
        assert nothing is None


@pytest.mark.parametrize(
    "bad", ["", " ", "local:", "local:0", "local:x", "local:99999", "tcp://a b", "a\nb"]
)
def test_a_bad_scheduler_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="scheduler|address"):
        check_scheduler(bad)


def test_backend_and_scheduler_are_exclusive_and_checked():
    with pytest.raises(ValueError, match="not both"):
        run_tasks(abs, [(1,)], backend="loky", scheduler="local:1")
    with pytest.raises(ValueError, match="multiprocessing"):
        run_tasks(abs, [(1,)], backend="multiprocessing")


def test_cli_refuses_a_bad_scheduler_before_running(capsys):
    assert main(["experiment", "thesis", "--scheduler", "local:0"]) == 2
    assert "local:0" in capsys.readouterr().err
    code = main(["experiment", "thesis", "--backend", "multiprocessing"])
    assert code == 2 and "multiprocessing" in capsys.readouterr().err


def test_mean_ci_matches_the_t_interval_and_counts_missing_values():
    s = mean_ci([1.0, 2.0, 3.0, None, float("nan")])
    # t(0.975, 2) = 4.302653; sd = 1; half-width = 4.302653 / sqrt(3)
    assert s["n"] == 3 and s["missing"] == 2 and s["mean"] == 2.0
    assert s["high"] - 2.0 == pytest.approx(4.302653 / math.sqrt(3), rel=1e-6)
    assert mean_ci([5.0])["low"] is None and mean_ci([])["mean"] is None


def test_mean_ci_is_scipy_stats_t_interval_to_the_bit():
    # The interval takes Student's quantile from scipy.special (lighter to import than
    # scipy.stats): the same function scipy.stats.t.ppf calls, so the same bits.
    import numpy as np
    from scipy import stats

    values = [0.3, 1.7, 2.2, 5.9, 4.4, 0.1, 3.3, 2.8]
    for n in (2, 3, 8):
        x = np.array(values[:n])
        for level in (0.5, 0.9, 0.95, 0.99):
            half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
            s = mean_ci(values[:n], level)
            want = (float(x.mean()) - half, float(x.mean()) + half)
            assert (s["low"].hex(), s["high"].hex()) == tuple(v.hex() for v in want)


def test_proportion_ci_is_scipy_stats_wilson_interval_to_the_bit():
    from scipy import stats

    for n in (1, 2, 7, 10, 30, 500, 4000):
        for successes in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for level in (0.5, 0.9, 0.95, 0.99):
                want = stats.binomtest(successes, n).proportion_ci(level, method="wilson")
                s = proportion_ci(successes, n, level)
                got = (float(s["low"]).hex(), float(s["high"]).hex())
                assert got == (float(want.low).hex(), float(want.high).hex()), (successes, n)


def test_paired_ci_uses_only_seeds_where_both_are_known():
    s = paired_ci([1.0, 2.0, 4.0, None], [0.0, 1.0, 2.0, 3.0])
    assert s["n"] == 3 and s["missing"] == 1
    assert s["mean"] == pytest.approx((1 + 1 + 2) / 3)
    with pytest.raises(ValueError, match="equal lengths"):
        paired_ci([1.0], [1.0, 2.0])


def test_proportion_ci_is_wilson():
    s = proportion_ci(2, 10)
    # Wilson 95% for 2/10: (0.0567, 0.5098)
    assert (s["low"], s["high"]) == pytest.approx((0.0567, 0.5098), abs=1e-4)
    zero = proportion_ci(0, 30)
    assert zero["low"] == 0 and 0 < zero["high"] < 0.12
    with pytest.raises(ValueError, match="exceed"):
        proportion_ci(3, 2)
