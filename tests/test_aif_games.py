"""The Active Inference agents on the one matchbox machine, and on other games.

The tree agents (Instrumental and Hybrid AIF) play any game of the registry: here
Hexapawn (HER's game, the agent playing second as HER does) and Connect-4 on 4×4.
Their training runs on :func:`menace_lib.machine.engine.run_games_with_hook` and must be
the generic loop's run (:func:`menace_lib.play.loop.play_games`) game for game; their
incremental values must equal a full recomputation; and they must learn.
"""

from __future__ import annotations

import numpy as np
import pytest

import menace_lib as ml
from menace_lib.agents import aif
from menace_lib.agents.aif.model import OPPONENT_NODE, GenerativeModel
from menace_lib.agents.aif.tree import canonical_steps, canonical_tree, game_lists
from menace_lib.play.loop import play_games

HEXAPAWN = {"game": "hexapawn", "filter": "decision", "player": 2}
CONNECT4 = {"game": "connect4:4x4", "filter": "decision", "player": 1}


def _make(kind: str, **settings):
    return aif.InstrumentalAIF(**settings) if kind == "instrumental" else aif.HybridAIF(**settings)


@pytest.mark.parametrize("kind", ["instrumental", "hybrid"])
@pytest.mark.parametrize(
    ("settings", "opponent", "games"),
    [
        (HEXAPAWN, "perfect", 80),
        (HEXAPAWN, "random", 80),
        ({**HEXAPAWN, "filter": "all", "player": 1}, "random", 60),
        (CONNECT4, "random", 12),
    ],
    ids=["hexapawn-perfect", "hexapawn-random", "hexapawn-first", "connect4-random"],
)
def test_machine_run_is_the_generic_loops_run(kind, settings, opponent, games) -> None:
    fast, plain = _make(kind, **settings), _make(kind, **settings)
    opp = ml.make_opponent(opponent, "uniform", game=settings["game"])
    log = fast.train_against(opp, games, np.random.default_rng(5))
    again = play_games(plain, opp, games, np.random.default_rng(5))
    for field in ("results", "paths", "moves", "opponents", "resigned"):
        assert getattr(log, field) == getattr(again, field), field
    assert fast.menace.weights == plain.menace.weights
    assert fast.model.alpha == plain.model.alpha
    assert fast.games_trained == plain.games_trained == games


def test_hexapawn_counts_and_values_equal_a_full_recomputation() -> None:
    agent = aif.HybridAIF(**HEXAPAWN)
    agent.train_against(ml.make_opponent("random", game="hexapawn"), 200, np.random.default_rng(1))
    fresh = GenerativeModel(agent.config)
    tree = canonical_tree("hexapawn")
    learnt = 0
    for c in tree.ids:
        if agent.model.kind[c] == OPPONENT_NODE:
            fresh.set_counts(c, agent.model.alpha[c])
            learnt += sum(agent.model.alpha[c]) - len(agent.model.alpha[c])
    fresh.recompute()
    assert learnt > 0  # the agent counted opponent moves
    assert agent.model.G == fresh.G and agent.model.R == fresh.R and agent.model.E == fresh.E


def test_hexapawn_tree_is_the_games_canonical_tree() -> None:
    T = ml.game_tables("hexapawn")
    tree = canonical_tree("hexapawn")
    assert list(tree.ids) == T.canonical_ids.tolist()
    start = 0
    assert tree.moves[start] == tuple(T.legal(start))
    assert all(tree.ply[k] == tree.ply[c] + 1 for c in tree.ids for k in tree.children[c])
    # every move of every position is a slot of the canonical tree
    steps = canonical_steps("hexapawn")
    L = game_lists("hexapawn")
    for pid in range(L.n_positions):
        for s in L.succ_lists[pid]:
            if s >= 0:
                c, i = steps[pid][s]
                assert c == L.canon_list[pid] and tree.children[c][i] == L.canon_list[s]


def test_instrumental_aif_learns_hexapawn_as_her_does() -> None:
    """Playing second, as HER does, the agent learns to beat the perfect first player
    (the second player wins Hexapawn); exact evaluation, no sampling."""
    agent = aif.InstrumentalAIF(**HEXAPAWN)
    perfect = ml.make_opponent("perfect", game="hexapawn")
    before = ml.exact_outcome(agent.frozen_copy(), perfect)["win"]
    agent.train_against(perfect, 100, np.random.default_rng(0), record=False)
    after = ml.exact_outcome(agent.frozen_copy(), perfect)["win"]
    assert before < 0.5 < 0.95 < after


def test_hybrid_aif_learns_connect4_against_the_perfect_player() -> None:
    agent = aif.HybridAIF(**CONNECT4)
    perfect = ml.make_opponent("perfect", game="connect4:4x4")
    before = ml.exact_outcome(agent.frozen_copy(), perfect)
    agent.train_against(perfect, 150, np.random.default_rng(0), record=False)
    after = ml.exact_outcome(agent.frozen_copy(), perfect)
    assert before["win"] == after["win"] == 0.0  # 4×4 is a draw: nobody beats perfect
    assert after["draw"] > before["draw"] + 0.1


def test_config_names_what_another_game_cannot_take() -> None:
    with pytest.raises(ValueError, match="filter for hexapawn 'michie'"):
        aif.InstrumentalAIF(game="hexapawn")
    with pytest.raises(ValueError, match="policy prior 'menace'"):
        aif.InstrumentalAIF(game="hexapawn", filter="all", policy_prior="menace")
    with pytest.raises(ValueError, match="unknown game"):
        aif.AIFConfig(game="chess")
    with pytest.raises(ValueError, match="game='hexapawn' does not apply to PureAIF"):
        aif.PureAIF(game="hexapawn", filter="all")
    with pytest.raises(ValueError, match="does not apply to OracleAIF"):
        aif.OracleAIF(game="hexapawn", filter="all")


def test_a_hexapawn_config_round_trips_and_noughts_files_stay_as_they_were() -> None:
    config = aif.AIFConfig(**HEXAPAWN)
    data = config.to_dict()
    assert data["game"] == "hexapawn" and aif.AIFConfig.from_dict(data) == config
    assert "game" not in aif.AIFConfig().to_dict()
    agent = aif.InstrumentalAIF(config)
    twin = aif.InstrumentalAIF.from_dict(agent.to_dict())
    assert twin.config == config and twin.menace.weights == agent.menace.weights
