"""The compiled AIF training (menace_lib.agents.aif._kernel) trains as the owners do.

Over the option grid of what it covers -- three games, both sides, λ = 0 (Instrumental)
and λ > 0 (Hybrid), both risk forms, with and without the ambiguity weight, three
opponent priors (one whose counts leave the owners' digamma table), three opponents,
both filters, a frozen agent, and a second run on a trained agent -- it must play the
same games and count the same opponent moves (integers to the bit), leave the model's
values the owners leave (the same operations: to the bit) and the boxes' beads within
the reproducibility contract (``exp`` is the C library's in the kernel, NumPy's in the
owners).
"""

from __future__ import annotations

import contextlib
import itertools

import numpy as np
import pytest

from menace_lib.agents import aif
from menace_lib.agents.aif import _kernel as kernel
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.games.results import Tally, counts_only
from menace_lib.machine import _kernel as machine_kernel
from menace_lib.play.opponents import make_opponent

pytestmark = pytest.mark.skipif(not machine_kernel.available(), reason="numba is not installed")

GAMES = {
    "noughts-and-crosses": ("michie", "decision"),
    "hexapawn": ("decision", "all"),
    "connect4:4x3/3": ("decision", "all"),
}
GRID = [
    {
        "game": game,
        "filter": GAMES[game][i % 2],
        "player": player,
        "lam": lam,
        "risk_form": risk,
        "beta_amb": beta,
        "opponent_alpha": alpha,
    }
    for i, (game, player, lam, risk, beta, alpha) in enumerate(
        itertools.product(
            GAMES, (1, 2), (0.0, 0.5, 2.0), ("cross_entropy", "kl"), (0.0, 0.3), (1.0, 0.5, 0.3)
        )
    )
    if i % 5 == 0
]
OPPONENTS = ("perfect", "random", "defensive")


def _agent(settings: dict):
    return aif.InstrumentalAIF(**settings) if settings["lam"] == 0 else aif.HybridAIF(**settings)


def _train(settings, opponent, games, seed, compiled, monkeypatch, agent=None):
    monkeypatch.setenv("MENACE_LIB_COMPILED", "1" if compiled else "0")
    agent = agent or _agent(settings)
    assert kernel.wanted(agent, games, record=False) == compiled
    rng = np.random.default_rng(seed)
    log = agent.train_against(opponent, games, rng, record=False)
    return agent, log, rng


def _assert_same_agent(fast, slow) -> None:
    assert fast.games_trained == slow.games_trained
    assert fast.model.alpha == slow.model.alpha  # counts: integers added to the prior
    assert fast.model.best == slow.model.best
    for name in ("R", "E", "G", "A", "D0", "D1", "D2", "mi"):  # the owners' operations
        assert getattr(fast.model, name) == getattr(slow.model, name), name
    assert_same_numbers(fast.menace.weights, slow.menace.weights, "beads")  # exp: see kernel


@pytest.mark.parametrize("settings", GRID, ids=[str(i) for i in range(len(GRID))])
def test_compiled_training_is_the_owners_training(settings: dict, monkeypatch) -> None:
    opp_name = OPPONENTS[GRID.index(settings) % len(OPPONENTS)]
    game = settings["game"]
    if opp_name == "defensive" and game != "noughts-and-crosses":
        opp_name = "random"
    opponent = make_opponent(opp_name, "uniform" if opp_name == "perfect" else "lowest", game)
    games = 150 if game.startswith("connect4") else 300
    fast, fast_log, fast_rng = _train(settings, opponent, games, 7, True, monkeypatch)
    slow, slow_log, slow_rng = _train(settings, opponent, games, 7, False, monkeypatch)
    assert fast_log.results == slow_log.results
    assert fast_rng.random() == slow_rng.random()  # the generator left in the same state
    _assert_same_agent(fast, slow)
    # a second run goes on from the owners' state and the compiled state alike
    _, again_fast, _ = _train(settings, opponent, 100, 8, True, monkeypatch, agent=fast)
    _, again_slow, _ = _train(settings, opponent, 100, 8, False, monkeypatch, agent=slow)
    assert again_fast.results == again_slow.results
    _assert_same_agent(fast, slow)


def test_a_frozen_agent_only_plays(monkeypatch) -> None:
    trained = aif.HybridAIF()
    trained.train_against(make_opponent("random"), 200, np.random.default_rng(0))
    frozen = trained.frozen_copy()
    before = [list(w) for w in frozen.menace.weights]
    games = frozen.games_trained
    _, fast_log, _ = _train({}, make_opponent("random"), 500, 3, True, monkeypatch, frozen)
    _, slow_log, _ = _train({}, make_opponent("random"), 500, 3, False, monkeypatch, frozen)
    assert fast_log.results == slow_log.results
    assert frozen.menace.weights == before and frozen.games_trained == games == 200


def test_what_the_kernel_does_not_cover_trains_in_python(monkeypatch) -> None:
    monkeypatch.setenv("MENACE_LIB_COMPILED", "1")
    for agent in (
        aif.HybridAIF(policy_prior="menace"),
        aif.HybridAIF(epistemic="next"),
        aif.HybridAIF(lambda_schedule="decay"),
        aif.ForgetfulAIF(),
        aif.PureAIF(),
        aif.OracleAIF(),
    ):
        assert not kernel.wanted(agent, 5000, record=False), agent.name
    assert not kernel.wanted(aif.HybridAIF(), 5000, record=True)
    assert not kernel.wanted(aif.HybridAIF(trace=True), 5000, record=False)
    monkeypatch.setenv("MENACE_LIB_COMPILED", "")
    assert not kernel.wanted(aif.HybridAIF(), 500, record=False)  # never pays its compile
    assert kernel.wanted(aif.HybridAIF(), 10**6, record=False)
    monkeypatch.setenv("MENACE_LIB_COMPILED", "0")
    assert not kernel.wanted(aif.HybridAIF(), 10**6, record=False)


@pytest.mark.parametrize("settings", GRID[::4], ids=[str(i) for i in range(len(GRID[::4]))])
def test_a_counts_only_compiled_run_counts_the_owners_games(settings: dict, monkeypatch) -> None:
    """Inside counts_only the kernel keeps counts (no list per game): the same counts,
    last game and agent as the Python path's counts and the compiled path's lists."""
    opponent = make_opponent("random", "lowest", settings["game"])
    runs = {}
    for compiled, counting in ((True, True), (False, True), (True, False)):
        with counts_only() if counting else contextlib.nullcontext():
            runs[compiled, counting] = _train(settings, opponent, 200, 11, compiled, monkeypatch)
    (fast, tally, fast_rng), (slow, slow_tally, slow_rng), (_, listed, _) = runs.values()
    assert isinstance(tally.results, Tally) and isinstance(slow_tally.results, Tally)
    assert (tally.results.n, tally.results.counts, tally.results.last) == (
        slow_tally.results.n,
        slow_tally.results.counts,
        slow_tally.results.last,
    )
    assert tally.counts() == slow_tally.counts() == listed.counts()
    assert tally.results.last == listed.results[-1]
    assert fast_rng.random() == slow_rng.random()
    _assert_same_agent(fast, slow)
