"""MENACE through noisy eyes: the observation model, the three observers' exact policies,
sampled games that agree with them, and the cached sweep. The belief against pymdp's is in
tests/test_pymdp_crosscheck.py, beside the other pymdp checks: JAX starts once for both."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import menace_lib as ml
from menace_lib.agents import noisy

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "book" / "data" / "noisy_eyes.json"


@pytest.fixture(scope="module")
def trained() -> noisy.PolicySource:
    agent = ml.Menace()
    agent.train_against(ml.make_opponent("perfect"), 300, np.random.default_rng(3))
    return noisy.menace_policy(agent)


@pytest.mark.parametrize("bad", [-0.1, 1.0, 1.5, float("nan"), True, "0.1", None])
def test_eps_outside_the_unit_interval_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"eps = .* \[0, 1\)") as err:
        noisy.check_eps(bad)
    assert "\n" not in str(err.value)


def test_likelihood_depends_on_the_differing_cells_and_sums_to_one():
    f = noisy.reading_likelihood(0.1)
    counts = np.array([math.comb(9, d) * 2**d for d in range(10)])  # readings d cells away
    assert abs(float(counts @ f) - 1.0) < 1e-14
    assert f[0] == pytest.approx(0.9**9, abs=0) and f[2] == pytest.approx(0.9**7 * 0.05**2)


def test_the_channel_equals_the_sum_over_every_reading():
    """Nine per-cell contractions = the explicit sum of P(o|s) Q[o] over 19,683 readings."""
    rng = np.random.default_rng(0)
    Q = rng.random((noisy.N_READINGS, 3))
    T = ml.game_tables()
    ids = dict(noisy.ply_support(1))[4][::50]
    R = noisy._reading_cells()
    for eps in (0.0, 0.07, 0.3):
        f = noisy.reading_likelihood(eps)
        d = (R[:, None, :] != T.cells[ids][None, :, :]).sum(axis=2)
        brute = f[d].T @ Q
        assert np.abs(noisy.channel(Q, eps)[T.codes[ids]] - brute).max() < 1e-12


@pytest.mark.parametrize("observer", noisy.OBSERVERS)
def test_without_noise_every_observer_plays_the_clean_policy(trained, observer):
    seen = noisy.observer_policy(trained, 0.0, observer)
    rows = trained.rows
    assert np.abs(seen.probabilities[rows] - trained.probabilities[rows]).max() < 1e-12
    clean = ml.exact_outcome(trained, ml.make_opponent("perfect"))["loss"]
    assert noisy.noisy_outcome(trained, 0.0, observer)["loss"] == pytest.approx(clean, abs=1e-12)


@pytest.mark.parametrize("observer", noisy.OBSERVERS)
def test_noisy_policies_are_distributions_over_the_truly_empty_squares(trained, observer):
    T = ml.game_tables()
    seen = noisy.observer_policy(trained, 0.15, observer)
    P = seen.probabilities[seen.rows]
    assert np.abs(P.sum(axis=1) - 1).max() < 1e-12
    assert (P >= 0).all() and (P[T.succ[seen.rows] < 0] == 0).all()


def test_the_uniform_observer_opens_the_box_of_the_nearest_position():
    """A reading one cell from a single position of the ply: the uniform prior picks it."""
    T = ml.game_tables()
    true = T.id_of("XO.......")
    reading = list(T.cells[true])
    reading[8] = 2  # a phantom O in square 9: three stones, an impossible count at ply 2
    ids, post = noisy.belief(reading, 0.1, 2)
    best = ids[noisy.map_positions(post)]
    assert true in best.tolist() and all(
        sum(a != b for a, b in zip(T.cells[i], reading, strict=True)) == 1 for i in best
    )


def _sampled_losses(policy, eps, observer, games, rng):
    """Games played by sampling a reading at each move, then the observer's intended move,
    then the rule for a move the true board refuses: a check of the exact formula."""
    T = ml.game_tables()
    opp = ml.make_opponent("perfect")
    rows = {
        ply: noisy.intended_rows(policy, eps, observer, ply, opp) for ply, _ in noisy.ply_support(1)
    }
    losses = 0
    for _ in range(games):
        pid = 0
        while T.outcome[pid] == 0:
            if T.player[pid] != 1:
                pid = int(T.succ[pid, opp.move(pid, rng)])
                continue
            code = int(noisy.sample_reading(T.cells[pid], eps, rng) @ noisy._POW3)
            q = rows[int(T.ply[pid])][code]
            legal = T.legal(pid)
            u = rng.random()
            square = int(np.searchsorted(np.cumsum(q), u, side="right")) if u < q.sum() else -1
            if square not in legal:
                square = legal[int(rng.integers(len(legal)))]
            pid = int(T.succ[pid, square])
        losses += int(T.outcome[pid] == 2)
    return losses / games


@pytest.mark.parametrize("observer", ["naive", "reach"])
def test_sampled_games_agree_with_the_exact_loss(trained, observer):
    eps, games = 0.12, 2000
    exact = noisy.noisy_outcome(trained, eps, observer)["loss"]
    sampled = _sampled_losses(trained, eps, observer, games, np.random.default_rng(11))
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(sampled - exact) < 4.5 * se, (sampled, exact)


def test_learning_through_noise_with_a_frozen_machine_plays_the_naive_policy(trained):
    """The training loop's own play, frozen, against the exact naive loss."""
    agent = ml.Menace()
    agent.train_against(ml.make_opponent("perfect"), 300, np.random.default_rng(3))
    frozen = agent.frozen_copy()
    eps, games = 0.1, 2000
    log = noisy.train_noisy(
        frozen, ml.make_opponent("perfect"), games, eps, np.random.default_rng(5)
    )
    sampled = sum(r == 2 for r in log.results) / games
    exact = noisy.noisy_outcome(noisy.menace_policy(agent), eps, "naive")["loss"]
    assert abs(sampled - exact) < 4.5 * math.sqrt(exact * (1 - exact) / games)
    assert frozen.weights == agent.weights


def test_the_sweep_refuses_a_rate_outside_the_unit_interval():
    from menace_lib.book.beyond import get_sweep

    with pytest.raises(ValueError, match=r"eps = 1\.2 is outside \[0, 1\)"):
        get_sweep("noisy").resolve({"curve_eps": [0.1, 1.2]})


def test_the_cache_reruns_a_slice():
    """Golden: one noisy-trained run of the cached sweep, recomputed."""
    from menace_lib.base.reproducibility import same_numbers
    from menace_lib.book.beyond import get_sweep, run_sweep

    data = json.loads(CACHE.read_text())
    options = data["config"]["options"]
    assert len(data["config"]["seeds"]) >= 6
    result = run_sweep(
        get_sweep("noisy"),
        seeds=[0],
        options=options,
        conditions=["train-0.1"],
        backend="sequential",
        progress=False,
    )
    cached = next(r for r in data["records"] if r["condition"] == "train-0.1" and r["seed"] == 0)
    for key, value in result.records[0].items():
        assert same_numbers(value, cached[key]), key


def test_the_filtering_observer_needs_no_eyes_against_a_known_deterministic_opponent(trained):
    """It sees its own stones go down and knows the opponent's replies: the board is known."""
    clean = ml.exact_outcome(trained, ml.make_opponent("perfect"))["loss"]
    r = noisy.play_filtering(trained, 0.15, 300, np.random.default_rng(4), model="known")
    assert r["games"] == 300 and abs(r["win"] + r["draw"] + r["loss"] - 1) < 1e-12
    assert r["loss"] <= clean + 4.5 * math.sqrt(max(clean, 1e-3) / 300)
    uniform = noisy.play_filtering(trained, 0.15, 300, np.random.default_rng(4))
    assert uniform["loss"] < noisy.noisy_outcome(trained, 0.15, "naive")["loss"]


def test_the_filtering_observer_refuses_a_bad_model_or_rate(trained):
    with pytest.raises(ValueError, match="opponent model 'psychic'"):
        noisy.play_filtering(trained, 0.1, 10, np.random.default_rng(0), model="psychic")
    with pytest.raises(ValueError, match=r"eps = 1\.5 is outside \[0, 1\)"):
        noisy.play_filtering(trained, 1.5, 10, np.random.default_rng(0))


def test_the_figure_draws_each_observer_for_both_players():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from menace_lib.book.beyond import noisy as sweep
    from menace_lib.book.beyond.noisy_figures import OBSERVER_LABELS, draw_loss_curves

    result = ml.SweepResult.load_json(CACHE)
    fig = draw_loss_curves(result)
    try:
        (ax,) = fig.axes
        lines = {line.get_label(): line for line in ax.get_lines()}
        assert len(lines) == 2 * len(sweep.OBSERVERS)
        for observer in sweep.OBSERVERS:
            label = OBSERVER_LABELS[observer]
            mine, perfect = lines[f"MENACE, {label}"], lines[f"perfect player, {label}"]
            assert mine.get_linestyle() == "-" and perfect.get_linestyle() == "--"
            assert perfect.get_markerfacecolor() == "none"
            assert mine.get_color() == perfect.get_color()
            expected = sweep.curve(result, "perfect", observer)["mean"]
            assert list(perfect.get_ydata()) == list(expected)
        assert len(ax.collections) == len(sweep.OBSERVERS)  # one band per MENACE line
    finally:
        plt.close(fig)
