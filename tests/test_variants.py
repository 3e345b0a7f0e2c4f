"""The other matchbox machines: pooled self-play, unsymmetrised MENACE, stochastic player."""

import itertools
import json

import numpy as np
import pytest

from menace_lib import cli
from menace_lib.agents.stochastic import (
    ILLEGAL_END,
    ROUND_FIELDS,
    StochasticPlayer,
    exact_outcome_stochastic,
    non_terminal_positions,
    tournament,
)
from menace_lib.agents.unsymmetrised import (
    UnsymmetrisedConfig,
    UnsymmetrisedMenace,
    games_to_reach,
    ok_positions,
    piece_count_ok,
    symmetry_comparison,
    train_unsymmetrised_against,
)
from menace_lib.games.agent import RESIGN
from menace_lib.games.board import O, X, play
from menace_lib.games.statespace import ONGOING, tables
from menace_lib.machine.menace import DRAW_RESULT, LOSS, WIN, Menace, MenaceConfig
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import make_opponent
from menace_lib.play.selfplay import (
    SELFPLAY_CONFIG,
    play_menace_vs_menace,
    pooled_selfplay,
    selfplay_config,
)

T = tables()
_POW3 = 3 ** np.arange(9)


# --- unsymmetrised MENACE (APL article) ------------------------------------------


def test_piece_count_test_passes_6046_boards_and_every_legal_one():
    every = np.array(list(itertools.product(range(3), repeat=9)))
    ok = piece_count_ok(every)
    assert ok.sum() == 6046
    assert len(ok_positions()) == 6046
    assert piece_count_ok(T.cells).all()
    ok_codes = (ok_positions().astype(np.int64) * _POW3).sum(axis=1)
    legal = T.code_to_id.lookup(ok_codes) >= 0
    assert legal.sum() == 5478 == T.n_positions


def test_piece_count_rejects_bad_shapes():
    with pytest.raises(ValueError, match="9 squares"):
        piece_count_ok(np.zeros((2, 8)))


def test_unsymmetrised_boxes_and_initial_beads():
    agent = UnsymmetrisedMenace()
    assert agent.n_boxes == 6046
    empty = ok_positions() == 0
    assert np.array_equal(np.asarray(agent.weights), 20.0 * empty)
    assert agent.total_beads() == 20 * empty.sum()
    michie = UnsymmetrisedMenace(UnsymmetrisedConfig(player=O, schedule=(4, 3, 2, 1)))
    pid = T.id_of("XO./.X./...")  # O's second move: 3 pieces
    row = michie.weights[michie.row_of[pid]]
    assert row == [3.0 if c == 0 else 0.0 for c in T.position(pid)]


def test_unsymmetrised_updates_follow_the_article_and_clamp_at_zero():
    agent = UnsymmetrisedMenace()
    row = agent.row_of[0]
    agent.reinforce([(row, 4)], WIN)
    assert agent.weights[row][4] == 23
    agent.reinforce([(row, 4)], DRAW_RESULT)
    assert agent.weights[row][4] == 24
    for _ in range(9):
        agent.reinforce([(row, 0)], LOSS)
    assert agent.weights[row][0] == 0  # 20 - 27 clamped
    frozen = agent.frozen_copy()
    frozen.reinforce([(row, 1)], LOSS)
    assert frozen.weights[row][1] == 20


def test_unsymmetrised_never_plays_an_occupied_square_and_plays_either_side():
    for side in (X, O):
        agent = UnsymmetrisedMenace(UnsymmetrisedConfig(player=side))
        log = train_unsymmetrised_against(
            agent, make_opponent("random"), 300, np.random.default_rng(side)
        )
        for path in log.paths:
            for row, square in path:
                assert ok_positions()[row][square] == 0
        assert agent.games_trained == 300


def test_unsymmetrised_exact_evaluation_matches_sampling():
    agent = UnsymmetrisedMenace(UnsymmetrisedConfig(player=O))
    train_unsymmetrised_against(agent, make_opponent("random"), 500, np.random.default_rng(0))
    exact = exact_outcome(agent, "random")
    sampled = train_unsymmetrised_against(
        agent.frozen_copy(), make_opponent("random"), 20000, np.random.default_rng(1)
    ).rates()
    for k in exact:  # 20,000 games: 4 standard errors is under 0.015
        assert sampled[k] == pytest.approx(exact[k], abs=0.015)


def test_unsymmetrised_learns_to_draw_against_perfect():
    agent = UnsymmetrisedMenace()
    before = exact_outcome(agent)["draw"]
    train_unsymmetrised_against(agent, make_opponent("perfect"), 1500, np.random.default_rng(0))
    assert exact_outcome(agent)["draw"] > before + 0.5


def test_resigning_machine_stops_learning_where_its_box_is_empty():
    agent = UnsymmetrisedMenace(UnsymmetrisedConfig(restock="none"))
    agent.weights[agent.row_of[0]] = [0.0] * 9
    log = train_unsymmetrised_against(agent, make_opponent("random"), 5, np.random.default_rng(0))
    assert log.results == [LOSS] * 5 and all(log.resigned)
    assert exact_outcome(agent, "random")["loss"] == 1.0
    assert agent.act(0, np.random.default_rng(0)) == (RESIGN, (agent.row_of[0], -1))


def test_symmetry_comparison_and_games_to_reach():
    result = symmetry_comparison(seeds=[0], every=100, max_games=300)
    assert result["checkpoints"] == [100, 200, 300]
    assert result["curves"]["symmetric"].shape == (1, 3)
    curve = [{"games": 100, "draw": 0.5}, {"games": 200, "draw": 0.85}]
    assert games_to_reach(curve, 0.8) == 200 and games_to_reach(curve, 0.9) is None
    with pytest.raises(ValueError):
        symmetry_comparison(seeds=[0], every=0)


# --- pooled self-play (blog chapter) ----------------------------------------------


def test_play_menace_vs_menace_reinforces_both_sides_from_their_own_view():
    x = Menace(selfplay_config(X))
    o = Menace(selfplay_config(O))
    rng = np.random.default_rng(3)
    for _ in range(30):
        x_before, o_before = x.copy(), o.copy()
        game = play_menace_vs_menace(x, o, rng, epsilon_o=0.3)
        board = (0,) * 9
        for m in game.moves:
            board = play(board, m)
        assert x.result[T.id_of(board)] == game.result
        replay_x, replay_o = x_before.copy(), o_before.copy()
        replay_x.reinforce(game.x_path, game.result)
        replay_o.reinforce(game.o_path, 2 - game.result)
        assert replay_x.weights == x.weights and replay_o.weights == o.weights
    assert x.games_trained == o.games_trained == 30


def test_play_menace_vs_menace_checks_its_inputs():
    x, o = Menace(selfplay_config(X)), Menace(selfplay_config(O))
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="x_agent"):
        play_menace_vs_menace(o, o, rng)
    with pytest.raises(ValueError, match="o_agent"):
        play_menace_vs_menace(x, x, rng)
    with pytest.raises(ValueError, match="epsilon_o"):
        play_menace_vs_menace(x, o, rng, epsilon_o=1.5)


def test_frozen_agents_do_not_learn_in_self_play():
    x, o = Menace(selfplay_config(X)).frozen_copy(), Menace(selfplay_config(O))
    play_menace_vs_menace(x, o, np.random.default_rng(0))
    assert x.weights == Menace(selfplay_config(X)).weights and x.games_trained == 0


def test_pooled_self_play_is_deterministic_given_a_seed():
    a = pooled_selfplay(300, np.random.default_rng(11), checkpoints=(100,))
    b = pooled_selfplay(300, np.random.default_rng(11), checkpoints=(100,))
    assert a.results == b.results and a.learner.weights == b.learner.weights
    assert [m.weights for m in a.pool] == [m.weights for m in b.pool]
    assert a.pool_index[:6] == [0, 1, 2, 3, 0, 1]
    assert a.snapshots[100].frozen and a.snapshots[100].games_trained == 100
    assert a.learner.config.layout == "class" == SELFPLAY_CONFIG.layout


def test_pooled_self_play_improves_the_draw_rate_against_perfect():
    run = pooled_selfplay(5000, np.random.default_rng(0))
    early = exact_outcome(run.snapshots[25])
    late = exact_outcome(run.snapshots[5000])
    assert late["draw"] > early["draw"] + 0.3
    assert early["win"] == late["win"] == 0.0  # nobody beats the perfect player
    assert sum(run.rates().values()) == pytest.approx(1.0)
    ex = run.example_states(1000)
    assert T.outcome[ex["win"]] == ONGOING and ex["opening"] == 0


def test_pooled_self_play_trains_a_second_player():
    run = pooled_selfplay(200, np.random.default_rng(2), learner_side=O, checkpoints=(200,))
    assert run.learner.config.player == O and all(m.config.player == X for m in run.pool)
    assert set(run.results) <= {WIN, DRAW_RESULT, LOSS}


def test_exact_evaluation_of_an_o_menace_matches_sampling():
    run = pooled_selfplay(300, np.random.default_rng(4), learner_side=O, checkpoints=())
    agent = run.learner
    for name in ("random", "defensive"):
        exact = exact_outcome(agent, name)
        sampled = (
            agent.frozen_copy()
            .train_against(make_opponent(name), 20000, np.random.default_rng(9))
            .rates()
        )
        for k in exact:
            assert sampled[k] == pytest.approx(exact[k], abs=0.015)


# --- the stochastic player (blog post) ----------------------------------------------


def test_stochastic_player_opens_boxes_lazily_with_five_beads_per_square():
    player = StochasticPlayer()
    assert player.positions_known == 0
    game = player.play_game(np.random.default_rng(0))
    assert player.positions_known == len(game.moves)
    fresh = StochasticPlayer()
    assert fresh.box(12345) == [5.0] * 9 and fresh.positions_known == 1
    frozen = StochasticPlayer().frozen_copy()
    frozen.play_game(np.random.default_rng(0))
    assert frozen.positions_known == 0


def test_an_illegal_move_ends_the_game_and_removes_all_its_beads():
    player = StochasticPlayer()
    after_x0 = int(T.codes[T.id_of("X../.../...")])
    player.boxes[0] = [5.0] + [0.0] * 8  # X must play square 0
    player.boxes[after_x0] = [5.0] + [0.0] * 8  # O then tries square 0 too
    game = player.play_game(np.random.default_rng(0))
    assert game.outcome == ILLEGAL_END and game.illegal and game.moves == [0, 0]
    assert player.boxes[after_x0] == [0.0] * 9
    assert player.boxes[0] == [5.0] + [0.0] * 8  # nothing else is reinforced


def test_stochastic_rewards_by_side():
    player = StochasticPlayer()
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 20:
        before = player.copy()
        game = player.play_game(rng)
        if game.illegal:
            continue
        board = (0,) * 9
        for m in game.moves:
            code = int(np.dot(board, _POW3))
            side = X if board.count(X) == board.count(O) else O
            won = game.outcome == (1 if side == X else 2)
            delta = 1 if game.outcome == 3 else 3 if won else -1
            old = before.boxes.get(code, [5.0] * 9)[m]
            assert player.boxes[code][m] == max(0.0, old + delta)
            board = play(board, m)
        checked += 1


def test_stochastic_player_only_knows_legal_positions():
    player = StochasticPlayer()
    records = tournament(player, 30, 40, np.random.default_rng(1))
    assert [r["round"] for r in records] == list(range(1, 31))
    for r in records:
        assert r["x_wins"] + r["o_wins"] + r["draws"] + r["illegal"] == 40
    known = [r["positions_known"] for r in records]
    assert known == sorted(known) and known[-1] == player.positions_known
    assert player.positions_known <= non_terminal_positions() == 4520 < 5478
    ids = T.code_to_id.lookup(np.array(sorted(player.boxes)))
    assert (ids >= 0).all() and (T.outcome[ids] == ONGOING).all()
    assert len(player.known_boards()) == player.positions_known


def test_resign_rule_is_an_option():
    player = StochasticPlayer(restock="none")
    player.boxes[0] = [0.0] * 9
    game = player.play_game(np.random.default_rng(0))
    assert game.resigned == X and game.outcome == 2
    with pytest.raises(ValueError, match="restock"):
        StochasticPlayer(restock="sulk")


def test_stochastic_exact_evaluation_counts_illegal_moves_as_losses():
    fresh = StochasticPlayer()
    res = exact_outcome_stochastic(fresh, X, "random")
    assert sum(res[k] for k in ("win", "draw", "loss")) == pytest.approx(1.0)
    assert 0 < res["illegal"] < res["loss"]
    # A fresh player's first move is illegal with probability 0 and its second with 1/9 ...
    # ... so against anyone, X's illegal rate exceeds the chance of an illegal second move.
    assert res["illegal"] > 1 / 9
    player = StochasticPlayer()
    tournament(player, 40, 40, np.random.default_rng(3))
    opp = make_opponent("random")
    rng = np.random.default_rng(5)
    for side in (X, O):
        exact = exact_outcome_stochastic(player, side, opp)
        games = [player.play_against(opp, side, rng) for _ in range(8000)]
        illegal = games.count("illegal") / len(games)
        loss = (games.count("loss") + games.count("illegal")) / len(games)
        assert illegal == pytest.approx(exact["illegal"], abs=0.025)
        assert loss == pytest.approx(exact["loss"], abs=0.025)


def test_tournament_cli_contract(capsys):
    argv = ["tournament", "--player", "stochastic", "--rounds", "4", "--games", "6"]
    assert cli.main([*argv, "--seed", "2", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert isinstance(records, list) and len(records) == 4
    for i, r in enumerate(records, start=1):
        assert tuple(r) == ROUND_FIELDS and r["round"] == i
        assert r["x_wins"] + r["o_wins"] + r["draws"] + r["illegal"] == 6
    assert cli.main([*argv, "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == records
    assert cli.main([*argv, "--seed", "2"]) == 0
    assert "positions_known" in capsys.readouterr().out
    assert cli.main(["tournament", "--rounds", "-1"]) == 2
    assert "--rounds" in capsys.readouterr().err


def test_tournament_rejects_bad_counts():
    with pytest.raises(ValueError, match="rounds"):
        tournament(StochasticPlayer(), -1, 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match="beads"):
        StochasticPlayer(beads=0)


def test_menace_config_used_by_selfplay_is_the_blogs():
    cfg = SELFPLAY_CONFIG
    assert cfg == MenaceConfig(layout="class")
    assert cfg.schedule == (4, 3, 2, 1) and cfg.reinforcement == (3, 1, -1)


# --- the comparison helpers ------------------------------------------------------------


def test_machines_table_counts_come_from_the_machines():
    from menace_lib.book.variants.compare import machines_table, markdown_table

    rows = machines_table()
    assert [r["machine"] for r in rows][0] == "MENACE (thesis)"
    assert rows[0]["boxes"].startswith("287") and rows[2]["boxes"].startswith("6,046")
    assert rows[1]["opening box"].startswith("3 classes")
    table = markdown_table(rows).splitlines()
    assert len(table) == 2 + len(rows) and table[0].count("|") == len(rows[0]) + 1
    with pytest.raises(ValueError):
        markdown_table([])


def test_learning_curves_start_untrained_and_share_checkpoints():
    from menace_lib.book.variants.compare import learning_curves

    curves = learning_curves(checkpoints=(0, 20))
    assert len(curves) == 4
    for curve in curves.values():
        assert [p["games"] for p in curve] == [0, 20]
        assert all(p["win"] == 0 for p in curve)
    fresh = exact_outcome(Menace(MenaceConfig()))
    assert curves["MENACE (thesis), vs perfect"][0]["draw"] == pytest.approx(fresh["draw"])
    with pytest.raises(ValueError):
        learning_curves(checkpoints=(10, 5))


def test_unsymmetrised_menace_runs_on_the_one_matchbox_machine():
    """Its layout is a machine.BoxLayout and machine.run_games plays and teaches it."""
    from menace_lib.agents.unsymmetrised import article_layout
    from menace_lib.machine import engine as machine

    for side in (X, O):
        agent = UnsymmetrisedMenace(UnsymmetrisedConfig(player=side))
        layout = agent.box_layout
        assert isinstance(layout, machine.BoxLayout) and layout is article_layout(side)
        assert layout.n_boxes == 6046 and all(len(e) == 9 for e in layout.entries)
        twin = agent.copy()
        rng, twin_rng = np.random.default_rng(4), np.random.default_rng(4)
        log = agent.train_against(make_opponent("random"), 50, rng)
        opponent = make_opponent("random").next_ids
        out = machine.run_games(layout, twin, twin.config, opponent, 50, twin_rng)
        assert log.results == out.results and agent.weights == twin.weights
