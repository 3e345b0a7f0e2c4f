"""Training loops, sampled validation and exact evaluation."""

import numpy as np
import pytest

from menace_lib.agents.registry import agent_classes
from menace_lib.base.progress import counting_games
from menace_lib.base.reproducibility import same_numbers
from menace_lib.games.results import Tally, counts_only
from menace_lib.games.statespace import tables
from menace_lib.machine.engine import run_games
from menace_lib.machine.menace import DRAW_RESULT, LOSS, Menace, MenaceConfig
from menace_lib.play.evaluation import empirical_policy_kl, exact_outcome, policy_kl
from menace_lib.play.learning_curve import train_with_curve
from menace_lib.play.opponents import make_opponent
from menace_lib.play.training import train, validate

T = tables()
RANDOM = make_opponent("random")
RNG = np.random.default_rng


def test_training_is_deterministic_given_a_seed():
    a, b = Menace(), Menace()
    la = train(a, "mixed", 300, np.random.default_rng(5))
    lb = train(b, "mixed", 300, np.random.default_rng(5))
    assert la.results == lb.results and a.weights == b.weights


def test_log_records_games_paths_and_bead_totals():
    agent = Menace()
    start = agent.total_beads()
    log = train(agent, "mixed", 500, np.random.default_rng(0))
    assert len(log) == 500 and log.opponents.count("random") == 200
    assert log.bead_totals[-1] == pytest.approx(agent.total_beads())
    replay = Menace()
    for path, result in zip(log.paths, log.results, strict=True):
        replay.reinforce(path, result)
    assert replay.weights == agent.weights
    assert start != agent.total_beads()
    assert agent.games_trained == 500


def test_menace_never_beats_perfect_and_learns_to_draw():
    agent = Menace()
    before = exact_outcome(agent)
    log = train(agent, "optimal", 2000, np.random.default_rng(0))
    after = exact_outcome(agent)
    assert log.rates()["win"] == 0 and before["win"] == 0
    assert after["draw"] > before["draw"] + 0.5


def test_exact_evaluation_agrees_with_sampling():
    agent = Menace()
    train(agent, "mixed", 500, np.random.default_rng(0))
    for name in ("perfect", "random", "defensive"):
        exact = exact_outcome(agent, name)
        assert sum(exact.values()) == pytest.approx(1.0)
        sampled = validate(agent, 20000, np.random.default_rng(1), name)
        for k in exact:  # 20,000 games: 4 standard errors is under 0.015
            assert sampled[k] == pytest.approx(exact[k], abs=0.015)


def test_exact_evaluation_of_untrained_menace_against_random():
    # Uniform over canonical moves is uniform over raw moves, so with filter "all"
    # the untrained agent is a random player: X's exact win rate is 737/1260.
    agent = Menace(MenaceConfig(filter="all", layout="square", schedule=(1,)))
    assert exact_outcome(agent, "random")["win"] == pytest.approx(737 / 1260)


def test_validation_leaves_the_agent_untouched():
    agent = Menace()
    before = [list(w) for w in agent.weights]
    validate(agent, 100, np.random.default_rng(1))
    assert agent.weights == before


def test_no_restock_resigns_instead_of_crashing():
    agent = Menace(MenaceConfig(restock="none", reinforcement=(3, 1, -50)))
    log = train(agent, "optimal", 300, np.random.default_rng(0))
    assert any(log.resigned) and len(log) == 300
    assert all(r == LOSS for r, g in zip(log.results, log.resigned, strict=True) if g)
    assert exact_outcome(agent)["loss"] > 0.9


def test_stop_on_depletion_ends_the_run():
    agent = Menace(MenaceConfig(restock="none", empty_box="stop", reinforcement=(3, 1, -50)))
    log = train(agent, "optimal", 300, np.random.default_rng(0))
    assert log.stopped_early and len(log) < 300 and not any(log.resigned)


def test_policy_kl_shrinks_with_training():
    agent = Menace(MenaceConfig(restock="move"))
    start = policy_kl(agent)
    assert len(start) == 338 and start[0] == pytest.approx(0.0)  # all 9 openings optimal
    log = train(agent, "optimal", 1000, np.random.default_rng(0))
    empirical = empirical_policy_kl(log.moves[-200:], agent.states, min_visits=20)
    assert empirical and all(v >= 0 for v in empirical.values())


def test_an_exact_learning_curve_rises_with_games():
    agent = Menace()
    before = exact_outcome(agent, "perfect")["draw"]
    curve = train_with_curve(agent, [("perfect", 1000)], np.random.default_rng(0), [100, 1000])
    draws = curve.rates["perfect"]["draw"]
    assert curve.games == [100, 1000] and before < draws[0] < draws[-1]


def test_bad_arguments():
    with pytest.raises(ValueError):
        train(Menace(), "mixed", -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="empty_box"):
        Menace(MenaceConfig(empty_box="explode"))
    with pytest.raises(ValueError):
        validate(Menace(), 0, np.random.default_rng(0))
    assert DRAW_RESULT == 1


@pytest.mark.parametrize("cls", agent_classes(), ids=lambda c: c.__name__)
def test_a_progress_bar_does_not_change_the_games(cls, capsys):
    """The bar is fed by the game loop; the run is not cut into chunks (MENACE draws its
    random numbers in blocks, so chunks would play other games)."""
    quiet, shown = cls(), cls()
    a = train(quiet, "mixed", 600, np.random.default_rng(5), progress=False)
    b = train(shown, "mixed", 600, np.random.default_rng(5), progress=True)
    assert a.results == b.results
    assert same_numbers(quiet.to_dict(), shown.to_dict())
    assert "240/240" in capsys.readouterr().err.replace(" ", "")  # the last block, all shown


def test_a_counts_only_run_keeps_counts_and_reports_every_game():
    """Inside counts_only the matchbox machine folds its games into counts as it goes."""
    seen = []
    agent, twin = Menace(), Menace()
    with counts_only(), counting_games(seen.append):
        log = run_games(
            agent.box_layout, agent, agent.config, RANDOM.next_ids, 9_000, RNG(1), record=False
        )
    full = run_games(twin.box_layout, twin, twin.config, RANDOM.next_ids, 9_000, RNG(1))
    assert all(isinstance(c, Tally) for c in (log.results, log.totals, log.resigned))
    assert sum(seen) == 9_000 and len(seen) > 1
    assert log.results.counts == {r: full.results.count(r) for r in set(full.results)}
    assert log.totals.last == full.totals[-1] and log.resigned.n == 9_000
    assert agent.weights == twin.weights
