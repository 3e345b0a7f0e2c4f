"""Search with bead priors (thesis §11.6.3): the searchers, their exact scoring checked
against sampled games, the admission of bad budgets and games, and the book's cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sweep_cache

import menace_lib as ml
from menace_lib.agents import search as hs
from menace_lib.base.confidence import proportion_ci
from menace_lib.book.beyond import hybrid
from menace_lib.experiments.sweep import SweepResult
from menace_lib.play.evaluation import exact_table_outcome

GAME = "connect4:4x4"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def perfect():
    return ml.make_opponent("perfect", "uniform", game=GAME)


@pytest.fixture(scope="module")
def trained(perfect):
    """A machine after 1,000 games against the perfect player, with its outcome counts."""
    agent = hybrid.machine(GAME)
    counts = hs.OutcomeCounts(GAME)
    hs.train_counting(agent, perfect, 1000, np.random.default_rng(0), counts)
    return agent, counts


def test_counts_tally_every_game_at_the_start_and_stay_one_row_per_position(trained):
    agent, counts = trained
    T = ml.game_tables(GAME)
    assert counts.counts.shape == (T.n_positions, 3)
    assert int(counts.counts[0].sum()) == 1000
    assert counts.counts[0, 0] == 0  # the perfect player never loses 4x4, a draw
    v = counts.values()
    assert v[0] == pytest.approx(-counts.counts[0, 2] / 1003)


@pytest.mark.parametrize(("arm", "budget"), [("puct", 16), ("flat", 4), ("puct", 0)])
def test_exact_score_agrees_with_sampled_games(trained, perfect, arm, budget):
    """The exact loss of a deterministic searcher lies in the 99.9 % Wilson interval of
    4,000 games of the same searcher against the same perfect player."""
    agent, counts = trained
    exact = hs.search_outcome(arm, agent, counts, perfect, budget)
    sampled = hs.sampled_search_outcome(arm, agent, counts, perfect, budget, 4000, seed=7)
    for outcome in ("draw", "loss"):
        n = round(sampled[outcome]["rate"] * 4000)
        ci = proportion_ci(n, 4000, level=0.999)
        assert ci["low"] <= exact[outcome] <= ci["high"], (outcome, exact, sampled)


def test_no_search_puct_is_greedy_beads(trained, perfect):
    agent, counts = trained
    assert hs.search_outcome("puct", agent, counts, perfect, 0) == hs.search_outcome(
        "greedy", agent, counts, perfect, 0
    )


def test_the_compiled_search_plays_the_python_moves(trained, perfect):
    agent, counts = trained
    st = hs.setting(agent, counts)
    compiled, choose, _, _ = hs._kernels()
    n, m = st.succ.shape
    moves, searched = hs.search_table("puct", st, perfect, 16)
    assert searched > 100
    for pid in np.flatnonzero(moves >= 0)[:40]:
        visits = hs._search(
            int(pid),
            16,
            0,
            hs.PUCT_C,
            st.succ,
            st.terminal,
            st.learner,
            st.prior,
            st.value,
            st.counts,
            *hs._scratch(n, m, 16, False),
        )
        assert hs._choose(visits, st.prior[pid], st.succ[pid] >= 0) == moves[pid]


def test_policy_table_scoring_is_the_exact_evaluator(trained, perfect):
    agent, _ = trained
    P = np.asarray(agent.policy_matrix()[0], dtype=float)
    assert exact_table_outcome(P, 1, perfect) == pytest.approx(ml.exact_outcome(agent, perfect))
    T = ml.game_tables(GAME)
    bad = P.copy()
    bad[0] = 0.0
    with pytest.raises(ValueError, match="not a distribution"):
        exact_table_outcome(bad, 1, perfect)
    assert T.n_positions == hybrid.POSITIONS[GAME]


@pytest.mark.parametrize(
    ("budgets", "message"),
    [([-1], "-1"), ([10**9], "100,000|100000"), ([4, 0], "rising"), ([True], "True")],
)
def test_bad_budgets_are_refused_in_one_line(budgets, message):
    options = {**hybrid.SWEEP.options, "budgets": budgets}
    with pytest.raises(ValueError, match=message):
        hybrid.estimate(options, f"{GAME}/puct")


@pytest.mark.parametrize(
    ("points", "message"),
    [([0, 1500], "multiples of 1,000"), ([1000, 0], "rising"), ([-1000], "-1,000")],
)
def test_bad_checkpoints_are_refused_in_one_line(points, message):
    options = {**hybrid.SWEEP.options, "checkpoints": points, "sampled_checkpoints": []}
    with pytest.raises(ValueError, match=message):
        hybrid.estimate(options, f"{GAME}/puct")


def test_a_game_without_a_perfect_player_is_refused():
    with pytest.raises(ValueError, match="at most 20 cells"):
        hybrid.check_game("connect4:7x6")


def test_command_line_refuses_a_negative_budget_in_one_line():
    out = subprocess.run(
        [sys.executable, "-m", "menace_lib", "experiment", "hybrid", "--set", "budgets=[-3]"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "-3" in lines[0], out.stderr


# --- the book's cache --------------------------------------------------------------------


@pytest.fixture(scope="module")
def cache() -> SweepResult:
    return sweep_cache.load("hybrid_search.json")


def test_cache_is_the_published_sweep(cache):
    sweep_cache.assert_published(cache, hybrid.SWEEP, hybrid.CONDITIONS, every_record=False)
    assert len(cache.config["seeds"]) >= 8
    for r in cache.records:
        assert r["scored"] == hybrid.SCORING[r["condition"].split("/")[1]]


@pytest.mark.golden
def test_a_slice_reruns_record_for_record(cache):
    sweep_cache.assert_slice_reruns(cache, hybrid.SWEEP, [f"{GAME}/greedy", f"{GAME}/puct"])


def test_the_trained_machine_does_not_depend_on_the_checkpoints_on_the_way():
    hybrid._TRAINED.clear()
    hybrid.trained_machine(GAME, 3, 1000)
    via, via_counts = hybrid.trained_machine(GAME, 3, 2000)
    hybrid._TRAINED.clear()
    direct, direct_counts = hybrid.trained_machine(GAME, 3, 2000)
    assert via.weights == direct.weights
    assert np.array_equal(via_counts.counts, direct_counts.counts)


# --- a cross-check with OpenSpiel's MCTS ----------------------------------------------------


def test_openspiel_puct_with_bead_priors_also_beats_greedy_beads(trained, perfect):
    """OpenSpiel's MCTS (its own PUCT, c = 1.25, random tie-breaks, no rollouts) with an
    evaluator that returns the bead proportions as priors and the learned outcome values
    at the leaves: seeded afresh at each position it is a deterministic policy, scored
    exactly. Like the library's search it loses less than greedy beads after 1,000
    training games at 64 simulations a move, and within a few points of it."""
    pytest.importorskip("open_spiel")
    from open_spiel.python.algorithms import mcts

    from menace_lib.interop.mcts import _twin

    agent, counts = trained
    spiel, bridge = _twin(GAME)
    T = ml.game_tables(GAME)
    st = hs.setting(agent, counts)

    def pid_of(state) -> int:
        pid = 0
        for action in state.history():
            pid = int(T.succ[pid, bridge.move(action)])
        return pid

    class BeadEvaluator(mcts.Evaluator):
        def evaluate(self, state):
            v = float(st.value[pid_of(state)])  # the first player's (MENACE's) side
            return np.array([v, -v])

        def prior(self, state):
            pid = pid_of(state)
            return [(a, float(st.prior[pid, bridge.move(a)])) for a in state.legal_actions()]

    moves = np.full(T.n_positions, -1)
    support = perfect.distribution() > 0
    stack, seen = [(0, spiel.new_initial_state())], {0}
    while stack:
        pid, state = stack.pop()
        if T.outcome[pid] != 0:  # ONGOING is 0
            continue
        if st.learner[pid]:
            rs = np.random.RandomState(np.random.SeedSequence([0, pid]).generate_state(1))
            bot = mcts.MCTSBot(
                spiel,
                hs.PUCT_C,
                64,
                BeadEvaluator(),
                random_state=rs,
                child_selection_fn=mcts.SearchNode.puct_value,
            )
            moves[pid] = bridge.move(bot.step(state.clone()))
            children = [moves[pid]]
        else:
            children = np.flatnonzero(support[pid]).tolist()
        for m in children:
            child = int(T.succ[pid, m])
            if child not in seen:
                seen.add(child)
                stack.append((child, state.child(bridge.action(m))))
    theirs = exact_table_outcome(hs._one_hot(moves, T.succ.shape[1]), 1, perfect)["loss"]
    ours = hs.search_outcome("puct", agent, counts, perfect, 64)["loss"]
    greedy = hs.search_outcome("greedy", agent, counts, perfect, 0)["loss"]
    assert theirs < greedy and ours < greedy
    assert abs(theirs - ours) < 0.05, (theirs, ours, greedy)
