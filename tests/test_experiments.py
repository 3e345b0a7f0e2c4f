"""The thesis's experiment suite: definitions, protocol, aggregation, files, CLI, Dask."""

import json
import statistics
from pathlib import Path

import joblib
import numpy as np
import pytest

from menace_lib import __version__
from menace_lib.cli import main
from menace_lib.experiments import (
    THESIS_SUITE,
    Condition,
    Protocol,
    SuiteResult,
    aggregate,
    agreement,
    make_agent,
    mean_sd,
    read_csv,
    rerun,
    run_seed,
    run_suite,
    same_numbers,
    seed_streams,
    select,
)
from menace_lib.experiments.protocol import _trace_summary
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import Menace
from menace_lib.play.evaluation import empirical_policy_kl, policy_kl
from menace_lib.play.learning_curve import even_marks, split_blocks
from menace_lib.play.opponents import regimen_blocks

T = tables()
FAST = Protocol(validation_games=20, curve_points=2, kl_window=20, kl_min_visits=2)
REQUIRED_ROW_KEYS = {
    "table",
    "agent",
    "regimen",
    "condition",
    "draw_mean",
    "draw_sd",
    "loss_mean",
    "loss_sd",
    "exact_draw_mean",
    "exact_draw_sd",
    "thesis_draw",
    "thesis_draw_sd",
    "agrees",
    "gap_z",
}


def tiny(tables_="9.4", games=30, n=2):
    return [c.with_games(games) for c in select(THESIS_SUITE, tables_)][:n]


# --- suite definitions ---------------------------------------------------------------


def test_suite_has_every_row_of_tables_9_1_to_9_4():
    by_table = {t: [c for c in THESIS_SUITE if c.table == t] for t in ("9.1", "9.2", "9.3", "9.4")}
    assert len(by_table["9.1"]) == 11
    assert [c.condition for c in by_table["9.2"]] == ["uniform", "adversarial", "minimax"]
    assert {c.kwargs["filter"] for c in by_table["9.3"]} == {"michie", "decision"}
    assert {c.kwargs["restock"] for c in by_table["9.4"]} == {"box", "move", "none"}
    kinds_91 = [c.agent for c in by_table["9.1"]]
    assert kinds_91.count("pure") == 3 and kinds_91.count("qlearning") == 2
    assert len({c.key for c in THESIS_SUITE}) == len(THESIS_SUITE)


def test_thesis_numbers_are_stored_with_their_rows():
    for c in THESIS_SUITE:
        assert c.thesis_draw is not None and c.thesis_draw_sd is not None
        # The thesis prints loss = 100 − draw for every row (no wins against perfect play).
        assert c.thesis_loss == pytest.approx(100 - c.thesis_draw)
    golden = {  # thesis Tables 9.1-9.4 (percent)
        "9.1/MENACE/restock box": (84.5, 8.1),
        "9.1/Instrumental AIF/λ=0": (88.1, 3.9),
        "9.1/Hybrid AIF/λ=0.5": (85.2, 4.2),
        "9.1/Pure AIF/λ=0.25": (79.1, 4.8),
        "9.1/Oracle AIF/λ=0.5, uniform model": (72.6, 3.1),
        "9.1/SARSA/defensive": (20.5, 40.3),
        "9.2/Oracle AIF/uniform": (19.0, 1.8),
        "9.3/MENACE/decision-only filter": (82.4, 6.0),
        "9.4/MENACE/move restock": (67.1, 5.9),
        "9.4/MENACE/no restock (stop)": (88.5, 6.0),
    }
    suite = {c.key: c for c in THESIS_SUITE}
    for key, (draw, sd) in golden.items():
        assert (suite[key].thesis_draw, suite[key].thesis_draw_sd) == (draw, sd)
    assert suite["9.4/MENACE/no restock (stop)"].thesis_seeds == 6
    assert all(c.thesis_metric == "training" for c in THESIS_SUITE if c.table == "9.2")
    assert {c.games for c in THESIS_SUITE if c.agent in ("qlearning", "sarsa")} == {5000}


def test_condition_validates_and_round_trips():
    c = THESIS_SUITE[0]
    assert Condition.from_dict(json.loads(json.dumps(c.to_dict()))) == c
    assert hash(c) == hash(Condition.from_dict(c.to_dict()))
    with pytest.raises(ValueError, match="agent kind"):
        Condition("9.1", "alphazero", "mixed", "x")
    with pytest.raises(ValueError, match="regimen"):
        Condition("9.1", "menace", "tournament", "x")
    with pytest.raises(ValueError, match="games"):
        Condition("9.1", "menace", "mixed", "x", games=0)
    with pytest.raises(ValueError, match="unknown field"):
        Condition.from_dict({**c.to_dict(), "colour": "red"})


def test_select_subsets_tables_and_rejects_unknown_ones():
    assert {c.table for c in select(THESIS_SUITE, "9.1,9.4")} == {"9.1", "9.4"}
    assert len(select(THESIS_SUITE, None)) == len(THESIS_SUITE)
    with pytest.raises(ValueError, match="9.9"):
        select(THESIS_SUITE, "9.9")


@pytest.mark.parametrize("condition", THESIS_SUITE, ids=lambda c: c.key)
def test_make_agent_builds_every_row(condition):
    pytest.importorskip(
        "menace_lib.rl" if condition.agent in ("qlearning", "sarsa") else "menace_lib.aif"
    )
    agent = make_agent(condition.agent, **condition.kwargs)
    side = agent.config.player if isinstance(agent, Menace) else agent.player
    assert side == 1
    if condition.agent == "menace":
        assert agent.config.filter == condition.kwargs["filter"]
    elif "lam" in condition.kwargs:
        assert agent.lam == condition.kwargs["lam"]


def test_make_agent_rejects_bad_input_and_copies_menace():
    with pytest.raises(ValueError, match="agent kind"):
        make_agent("deep-blue")
    with pytest.raises(ValueError, match="menace"):
        make_agent("menace", colour="red")
    a, b = make_agent("menace"), make_agent("menace")
    a.weights[0][0] = 99.0
    assert b.weights[0][0] != 99.0
    pytest.importorskip("menace_lib.aif")
    with pytest.raises(ValueError, match="lam"):
        make_agent("instrumental", lam=0.5)
    assert make_agent("hybrid").lam == 0.5


# --- protocol pieces -----------------------------------------------------------------


def test_checkpoints_and_segments_cover_the_regimen_exactly():
    marks = even_marks(500, 20)
    assert marks[0] == 25 and marks[-1] == 500 and len(marks) == 20
    assert even_marks(7, 0) == [7] and even_marks(3, 10) == [1, 2, 3]
    blocks = regimen_blocks("mixed", 500)
    segments = split_blocks(blocks, marks)
    assert len(segments) == len(marks)
    for seg, lo, hi in zip(segments, [0, *marks[:-1]], marks, strict=True):
        assert sum(n for _, n in seg) == hi - lo
    flat = {}
    for seg in segments:
        for name, n in seg:
            flat[name] = flat.get(name, 0) + n
    assert flat == dict(blocks)


def test_seed_streams_follow_the_reference_layout():
    train_rng, val_rng = seed_streams(3)
    assert train_rng.random() == np.random.default_rng(3).random()
    assert val_rng.random() == np.random.default_rng(4).random()
    a, b = seed_streams(3, "spawn")
    assert a.random() != b.random()
    with pytest.raises(ValueError, match="seed"):
        seed_streams(-1)
    with pytest.raises(ValueError, match="seeding"):
        seed_streams(1, "lucky")


def test_protocol_rejects_bad_settings():
    with pytest.raises(ValueError, match="validation_games"):
        Protocol(validation_games=0)
    with pytest.raises(ValueError, match="kl_window"):
        Protocol(kl_window=-1)
    with pytest.raises(ValueError, match="opponent"):
        Protocol(validation_opponent="grandmaster")


def test_empirical_kl_is_zero_for_uniform_play_over_optimal_moves():
    empty = 0  # every square is optimal on the empty board
    uniform = [[(empty, m)] for m in range(9)]
    assert empirical_policy_kl(uniform, [empty], min_visits=9) == {empty: pytest.approx(0.0)}
    assert empirical_policy_kl(uniform, [empty], min_visits=10) == {}
    # Never playing an optimal move makes the KL infinite: the state is omitted.
    assert empirical_policy_kl([[(empty, 0)]] * 20, [empty], min_visits=1) == {}
    skewed = empirical_policy_kl([[(empty, m)] for m in [0, 0, *range(9)]], [empty], 1)
    pi = np.array([3, 1, 1, 1, 1, 1, 1, 1, 1]) / 11
    assert skewed[empty] == pytest.approx(np.sum(np.log((1 / 9) / pi)) / 9)


def test_policy_kl_of_an_untrained_menace_is_zero_at_the_root():
    kl = policy_kl(Menace())
    assert kl[0] == pytest.approx(0.0)  # 9 equal colours, all optimal
    assert len(kl) == 338


def test_trace_summary_takes_block_means():
    class Traced:
        trace = [{"epistemic": float(g), "G": 1.0, "result": 1} for g in range(1, 26)]

    out = _trace_summary(Traced(), 10)
    assert out["games"] == [10, 20, 25]
    assert out["epistemic"] == [5.5, 15.5, 23.0]
    assert "result" not in out
    assert _trace_summary(object(), 10) is None


# --- aggregation -----------------------------------------------------------------------


def test_mean_sd_uses_the_sample_standard_deviation():
    values = [0.8, 0.9, 0.75, 0.88]
    m, s = mean_sd(values)
    assert m == pytest.approx(statistics.mean(values))
    assert s == pytest.approx(statistics.stdev(values))
    assert mean_sd([0.5]) == (0.5, None)
    assert mean_sd([]) == (None, None)


def test_agreement_is_judged_against_the_thesis_spread():
    agrees, gap, z = agreement(80.0, 5.0, 10, 84.5, 8.1, 10)
    assert agrees and gap == pytest.approx(-4.5)
    assert z == pytest.approx(-4.5 / (8.1 * np.sqrt(1 / 10 + 1 / 10)))
    assert agreement(70.0, 5.0, 10, 84.5, 8.1, 10)[0] is False
    # SARSA-random: our one collapsed seed (SD 31.1) must not make 88.5 agree with 97.9 ± 1.9
    assert agreement(88.5, 31.1, 10, 97.9, 1.9, 10)[0] is False
    # without a thesis SD, our own spread is used
    assert agreement(80.0, 5.0, 10, 84.5, None, 10)[0] is True
    assert agreement(None, None, 0, 84.5, 8.1, 10) == (None, None, None)


def _fake_record(key, seed, draw, stopped=False):
    return {
        "key": key,
        "seed": seed,
        "stopped": stopped,
        "resigned_games": int(stopped),
        "val_draw": draw,
        "val_loss": 1 - draw,
        "val_win": 0.0,
        "exact_draw": draw,
        "exact_loss": 1 - draw,
        "robust_draw": draw / 4,
        "train_draw": draw / 2,
        "policy_kl": {"mean": 0.1},
        "empirical_kl": {"a": 0.2, "b": 0.4},
    }


def test_aggregate_in_percent_and_drops_stopped_seeds_only_when_stopping():
    resign, stop = select(THESIS_SUITE, "9.4")[2:4]
    draws = [0.9, 0.8, 0.6]
    records = [_fake_record(resign.key, s, d, stopped=s == 2) for s, d in enumerate(draws)]
    records += [_fake_record(stop.key, s, d, stopped=s == 2) for s, d in enumerate(draws)]
    rows = aggregate(records, [resign, stop])
    assert rows[0]["draw_mean"] == pytest.approx(100 * statistics.mean(draws))
    assert rows[0]["draw_sd"] == pytest.approx(100 * statistics.stdev(draws))
    assert rows[0]["seeds"] == 3 and rows[0]["seeds_depleted"] == 1
    assert rows[1]["draw_mean"] == pytest.approx(85.0) and rows[1]["seeds"] == 2
    assert rows[1]["seeds_stopped"] == 1 and rows[1]["seeds_run"] == 3
    assert rows[0]["empirical_kl_mean"] == pytest.approx(0.3)
    assert rows[0]["robust_draw_mean"] == pytest.approx(25 * statistics.mean(draws))
    assert set(rows[0]) >= REQUIRED_ROW_KEYS


def test_training_metric_rows_compare_the_training_rate():
    oracle = select(THESIS_SUITE, "9.2")[0]
    rows = aggregate([_fake_record(oracle.key, s, 0.8) for s in range(3)], [oracle])
    assert rows[0]["compared_mean"] == pytest.approx(40.0)  # train_draw = draw / 2
    assert rows[0]["agrees"] is False  # 40 % is far outside the thesis's 19.0 ± 1.8
    rows = aggregate([_fake_record(oracle.key, s, 0.4) for s in range(3)], [oracle])
    assert rows[0]["agrees"] is True  # 20 % lies within one thesis SD of 19.0


# --- runs: determinism, parallelism, files ---------------------------------------------


def test_run_seed_is_deterministic_and_seed_dependent():
    c = tiny()[0]
    a, b = run_seed(c, 0, FAST), run_seed(c, 0, FAST)
    assert same_numbers(a, b)
    assert run_seed(c, 1, FAST)["train_results"] != a["train_results"]
    assert len(a["train_results"]) == a["games_played"] == 30
    assert a["curve"]["games"] == [15, 30]
    assert 0 <= a["exact_draw"] <= 1 and a["val_games"] == 20


def test_run_seed_exact_curve_ends_at_the_final_exact_value():
    rec = run_seed(tiny()[0], 3, FAST)
    assert rec["curve"]["draw"][-1] == rec["exact_draw"]


def test_robust_evaluation_uses_a_perfect_player_with_random_tie_breaks():
    agent = Condition("x", "menace", "optimal", "perfect only", games=200)
    rec = run_seed(agent, 0, FAST)
    # Trained against the deterministic perfect player, MENACE does better against it
    # than against one that varies its equally good moves.
    assert 0 <= rec["robust_draw"] < rec["exact_draw"] <= 1
    off = run_seed(agent, 0, Protocol(**{**FAST.to_dict(), "robust_tie_break": None}))
    assert off["robust_draw"] is None and off["exact_draw"] == rec["exact_draw"]


def test_parallel_equals_serial_and_shared_runs_are_reused():
    conds = tiny(n=3)
    serial = run_suite(conds, seeds=2, protocol=FAST, n_jobs=1, cache=False)
    parallel = run_suite(conds, seeds=2, protocol=FAST, n_jobs=2, cache=False)
    assert serial.rows == parallel.rows
    assert all(same_numbers(a, b) for a, b in zip(serial.records, parallel.records, strict=True))
    # Table 9.3's Michie row and Table 9.4's box row are the same training run.
    both = run_suite(
        [select(THESIS_SUITE, "9.3")[0].with_games(30), conds[0]],
        seeds=1,
        protocol=FAST,
        n_jobs=1,
        cache=False,
    )
    a, b = both.records
    assert a["train_results"] == b["train_results"] and a["key"] != b["key"]


def test_results_are_cached_within_a_process():
    conds = tiny(n=1)
    first = run_suite(conds, seeds=1, protocol=FAST, n_jobs=1)
    again = run_suite(conds, seeds=1, protocol=FAST, n_jobs=1)
    assert again.records[0]["seconds"] == first.records[0]["seconds"]  # not re-run
    again.rows[0]["draw_mean"] = -1.0  # callers get copies
    assert run_suite(conds, seeds=1, protocol=FAST, n_jobs=1).rows[0]["draw_mean"] != -1.0


def test_dask_cluster_gives_identical_numbers():
    conds = tiny(n=2)
    local = run_suite(conds, seeds=2, protocol=FAST, n_jobs=1, cache=False)
    remote = run_suite(conds, seeds=2, protocol=FAST, scheduler="local:2", cache=False)
    assert local.rows == remote.rows
    assert all(same_numbers(a, b) for a, b in zip(local.records, remote.records, strict=True))


def test_an_enclosing_joblib_backend_is_still_honoured():
    distributed = pytest.importorskip("dask.distributed")
    conds = tiny(n=1)
    local = run_suite(conds, seeds=1, protocol=FAST, n_jobs=1, cache=False)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        remote = run_suite(conds, seeds=1, protocol=FAST, cache=False)
    assert all(same_numbers(a, b) for a, b in zip(local.records, remote.records, strict=True))


def test_json_and_csv_round_trip_and_records_rerun(tmp_path):
    result = run_suite(tiny(n=2), seeds=2, protocol=FAST, n_jobs=1, cache=False)
    result.save_json(tmp_path / "r.json")
    back = SuiteResult.load_json(tmp_path / "r.json")
    assert back.rows == json.loads(json.dumps(result.rows))
    assert back.config["version"] == __version__
    assert back.config["protocol"] == FAST.to_dict()
    assert [c.key for c in back.conditions()] == [r["key"] for r in result.rows]
    result.save_csv(tmp_path / "r.csv")
    for row, original in zip(read_csv(tmp_path / "r.csv"), result.rows, strict=True):
        for k, v in row.items():
            assert v == (pytest.approx(original[k]) if isinstance(v, float) else original[k])
    record = back.records[1]
    assert same_numbers(rerun(record), record)


def test_load_json_rejects_other_files(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"rows": []}')
    with pytest.raises(ValueError, match="not a menace_lib experiment"):
        SuiteResult.load_json(path)


def test_run_suite_rejects_bad_seeds_and_empty_suites():
    with pytest.raises(ValueError, match="seeds"):
        run_suite(tiny(n=1), seeds=0)
    with pytest.raises(ValueError, match="distinct"):
        run_suite(tiny(n=1), seeds=[1, 1])
    with pytest.raises(ValueError, match="no conditions"):
        run_suite([], seeds=1)


# --- the command line --------------------------------------------------------------------


def test_cli_writes_rows_with_the_required_keys(tmp_path, capsys):
    out = tmp_path / "r.json"
    csv_out = tmp_path / "r.csv"
    args = [
        "experiment",
        "thesis",
        "--tables",
        "9.4",
        "--seeds",
        "2",
        "--games",
        "30",
        "--validation-games",
        "10",
        "--curve-points",
        "1",
        "--jobs",
        "1",
        "--json",
        str(out),
        "--csv",
        str(csv_out),
        "--no-progress",
    ]
    assert main(args) == 0
    data = json.loads(out.read_text())
    assert [r["condition"] for r in data["rows"]] == [
        c.condition for c in select(THESIS_SUITE, "9.4")
    ]
    for row in data["rows"]:
        assert set(row) >= REQUIRED_ROW_KEYS
        assert row["table"] == "9.4" and row["seeds_run"] == 2
    assert data["config"]["version"] == __version__
    assert len(data["records"]) == 2 * len(data["rows"])
    assert "thesis" in capsys.readouterr().out  # the side-by-side table
    assert len(read_csv(csv_out)) == len(data["rows"])


def test_cli_rejects_unknown_tables(capsys):
    assert main(["experiment", "thesis", "--tables", "9.7", "--no-progress"]) == 2
    assert "9.7" in capsys.readouterr().err


# --- the headline number ----------------------------------------------------------------


def test_menace_headline_matches_the_thesis_within_its_seed_spread():
    """Michie filter, box restock, mixed curriculum, 500 games, seeds 0-9 (thesis 84.5 ± 8.1)."""
    (menace,) = [c for c in THESIS_SUITE if c.key == "9.1/MENACE/restock box"]
    protocol = Protocol(curve_points=0)
    result = run_suite([menace], seeds=10, protocol=protocol, n_jobs=1, cache=False)
    row = result.rows[0]
    assert abs(row["exact_draw_mean"] - menace.thesis_draw) < menace.thesis_draw_sd
    assert abs(row["draw_mean"] - menace.thesis_draw) < menace.thesis_draw_sd
    assert row["agrees"] is True and abs(row["gap_z"]) < 3


def test_empty_boxes_resign_or_stop_the_run():
    harsh = {"restock": "none", "reinforcement": (1, 1, -5)}  # boxes empty within a few losses
    resign = Condition("x", "menace", "optimal", "resign", harsh, games=60)
    stop = Condition("x", "menace", "optimal", "stop", {**harsh, "empty_box": "stop"}, games=60)
    a, b = run_seed(resign, 0, FAST), run_seed(stop, 0, FAST)
    assert a["resigned_games"] > 0 and not a["stopped"] and a["games_played"] == 60
    assert b["stopped"] and b["games_played"] == a["first_depletion"] == b["first_depletion"]
    # Up to the first empty box both runs saw the same games.
    assert a["train_results"].startswith(b["train_results"])
    rows = aggregate([a, {**b, "key": stop.key}], [resign, stop])
    assert rows[0]["seeds_depleted"] == 1 and rows[1]["seeds"] == 0


def test_learning_curves_legend_sits_below_the_curves():
    """Michie's question: the legend must not cover MENACE's late rise (issue 17, item 10)."""
    import matplotlib.pyplot as plt

    from menace_lib.book.suite_figures import CURVE_KEYS, learning_curves
    from menace_lib.experiments import SuiteResult

    path = Path(__file__).resolve().parents[1] / "book" / "data" / "thesis_results.json"
    fig = learning_curves(SuiteResult.load_json(path))
    try:
        fig.canvas.draw()
        (ax,) = fig.axes
        (legend,) = fig.legends
        assert ax.get_legend() is None
        assert len(legend.get_texts()) == len(CURVE_KEYS)
        box, axes_box = legend.get_window_extent(), ax.get_tightbbox()
        assert box.y1 <= axes_box.y0 + 1, "the legend overlaps the axes"
    finally:
        plt.close(fig)
