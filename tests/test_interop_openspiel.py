"""OpenSpiel both ways: its games as library games, checked against the library's own.

Counts, perfect-player values and exact outcomes must agree position by position between
an OpenSpiel game walked by the adapter (menace_lib.interop.openspiel) and the library's
twin, matched through the one bridge (menace_lib.interop.bridges).
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import menace_lib as ml  # noqa: E402
from menace_lib.base.extras import MissingExtraError, require  # noqa: E402
from menace_lib.base.reproducibility import same_numbers  # noqa: E402
from menace_lib.games.agent import PolicyMatrix  # noqa: E402
from menace_lib.games.game import ONGOING  # noqa: E402
from menace_lib.interop.bridges import spiel_bridge  # noqa: E402
from menace_lib.interop.openspiel import OpenSpielGame, load_spiel, spiel_game  # noqa: E402

C4 = {"rows": 4, "columns": 4, "x_in_row": 4}


def _twins(game: OpenSpielGame):
    """Library ids of every adapter position, via the bridge (one replay each)."""
    bridge = spiel_bridge(game.spiel)
    assert bridge is not None and bridge.library != game.name
    L = ml.game_tables(bridge.library)
    S = ml.game_tables(game.name)
    ids = np.array(
        [L.id_of(bridge.position(game.state_of(S.position(i)), 0)) for i in range(S.n_positions)]
    )
    return S, L, ids, bridge


def _check_position_by_position(S, L, ids, bridge) -> None:
    assert S.n_positions == L.n_positions
    assert len(set(ids.tolist())) == S.n_positions  # one to one
    assert np.array_equal(S.value, L.value[ids])
    assert np.array_equal(S.outcome, L.outcome[ids])
    assert np.array_equal(S.ply, L.ply[ids])
    live = S.outcome == ONGOING
    assert np.array_equal(S.player[live], L.player[ids][live])
    moves = np.array([bridge.move(a) for a in range(S.succ.shape[1])])
    # Successors and tie-break sets agree move for move (moves mapped through the bridge).
    mapped = np.where(S.succ >= 0, ids[np.maximum(S.succ, 0)], -1)
    assert np.array_equal(mapped, L.succ[ids][:, moves])
    assert np.array_equal(S.optimal, L.optimal[ids][:, moves])


def test_tic_tac_toe_is_noughts_and_crosses_position_by_position():
    game = spiel_game("tic_tac_toe")
    S, L, ids, bridge = _twins(game)
    assert S.n_positions == 5478
    _check_position_by_position(S, L, ids, bridge)
    assert int(S.value[0]) == 0  # a draw under perfect play
    # Without symmetry, MENACE's first-player boxes are every X-to-move position.
    assert len(S.matchbox_states("all", 1)) == int(((L.player == 1) & (L.outcome == 0)).sum())


@pytest.mark.thorough
@pytest.mark.slow  # 161,029 positions walked in OpenSpiel and replayed: about ten seconds
def test_connect_four_4x4_is_the_librarys_connect4_4x4():
    """The same check as on the small boards below, on the book's 4x4 board: the long run's
    (``--thorough``). The default run's boards take every rule it has: four in a row down a
    column and along a row with the library's default name (``connect4:3x4``,
    ``connect4:4x3``), diagonals and other lengths on the 3-in-a-row boards."""
    game = spiel_game("connect_four", C4)
    S, L, ids, bridge = _twins(game)
    assert S.n_positions == 161_029
    _check_position_by_position(S, L, ids, bridge)


@pytest.mark.parametrize(
    ("params", "library"),
    [
        ({"rows": 3, "columns": 3, "x_in_row": 3}, "connect4:3x3/3"),
        ({"rows": 3, "columns": 4, "x_in_row": 3}, "connect4:4x3/3"),
        ({"rows": 4, "columns": 3, "x_in_row": 3}, "connect4:3x4/3"),
        ({"rows": 3, "columns": 3, "x_in_row": 2}, "connect4:3x3/2"),
        # Four in a row, the library's default (no "/4" in its name), down and across.
        ({"rows": 4, "columns": 3, "x_in_row": 4}, "connect4:3x4"),
        ({"rows": 3, "columns": 4, "x_in_row": 4}, "connect4:4x3"),
    ],
)
def test_connect_four_on_small_boards_is_the_librarys(params, library):
    game = spiel_game("connect_four", params)
    S, L, ids, bridge = _twins(game)
    assert bridge.library == library
    _check_position_by_position(S, L, ids, bridge)


@pytest.mark.parametrize(
    ("name", "params"), [("python_tic_tac_toe", None), ("mnk", {"m": 3, "n": 3, "k": 3})]
)
def test_openspiels_other_tic_tac_toes_are_noughts_and_crosses_too(name, params):
    game = spiel_game(name, params)
    S, L, ids, bridge = _twins(game)
    _check_position_by_position(S, L, ids, bridge)
    assert spiel_bridge(load_spiel("mnk", {"m": 4, "n": 3, "k": 3})) is None


def test_python_hexapawn_loads_and_counts_as_hers_boxes():
    spiel = (
        pyspiel.load_game("python_hexapawn")
        if "python_hexapawn" in (pyspiel.registered_names())
        else load_spiel("python_hexapawn")
    )
    gt = spiel.get_type()
    assert (gt.short_name, spiel.num_players(), spiel.num_distinct_actions()) == (
        "python_hexapawn",
        2,
        27,
    )
    assert gt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    game = spiel_game("python_hexapawn")
    S, L, ids, bridge = _twins(game)
    assert S.n_positions == 135
    _check_position_by_position(S, L, ids, bridge)
    assert int(S.value[0]) == -1  # the second player (Black, HER) wins
    black = S.matchbox_states("all", 2)
    assert len(black) == 37  # every Black-to-move position: no symmetry in OpenSpiel
    # Up to the library's mirror: HER's 19 boxes, 17 of them with a choice.
    canon = {int(L.canon[ids[i]]) for i in black.tolist()}
    assert len(canon) == 19
    assert sum(len(L.legal(c)) > 1 for c in canon) == 17
    assert spiel.max_game_length() == int(L.ply.max())


def test_openspiel_runs_its_own_algorithms_on_python_hexapawn():
    from open_spiel.python.algorithms import minimax

    spiel = load_spiel("python_hexapawn")
    value = minimax.alpha_beta_search(spiel, maximizing_player_id=0)[0]
    assert value == float(ml.game_tables("hexapawn").value[0]) == -1.0


def test_breakthrough_3x3_is_not_hexapawn():
    spiel = load_spiel("breakthrough", {"rows": 3, "columns": 3})
    assert spiel_bridge(spiel) is None  # no bridge: a different game
    state = spiel.new_initial_state()
    # OpenSpiel's pawns may step diagonally onto an empty cell; Hexapawn's may not.
    assert len(state.legal_actions()) > len(ml.game_tables("hexapawn").legal(0))


def _transported(agent, game: OpenSpielGame):
    """The library agent's policy on the OpenSpiel twin's positions (same numbers)."""
    S, L, ids, bridge = _twins(game)
    P, rows, resign = agent.policy_matrix()
    moves = np.array([bridge.move(a) for a in range(S.succ.shape[1])])

    class Transported:
        player = agent.player

        def policy_matrix(self):
            return PolicyMatrix(P[ids][:, moves], rows[ids], resign[ids])

    Transported.game = game.name
    return Transported()


@pytest.mark.parametrize("opponent", ["perfect", "random"])
def test_the_same_agent_has_the_same_exact_outcome_on_both(opponent):
    agent = ml.Menace()
    ml.train(agent, "mixed", 300, np.random.default_rng(3))
    game = spiel_game("tic_tac_toe")
    theirs = _transported(agent, game)
    for tie_break in ("lowest", "uniform"):
        mine = ml.exact_outcome(agent, ml.make_opponent(opponent, tie_break))
        other = ml.exact_outcome(theirs, ml.make_opponent(opponent, tie_break, game=game.name))
        assert same_numbers(mine, other), (mine, other)
    assert 0 < ml.exact_outcome(agent, "random")["win"] < 1


def test_menace_learns_an_openspiel_game():
    name = spiel_game("tic_tac_toe").name
    agent = ml.Menace(ml.MenaceConfig(game=name, filter="decision"))
    perfect = ml.make_opponent("perfect", "uniform", game=name)
    before = ml.exact_outcome(agent, perfect)
    agent.train_against(perfect, 2000, np.random.default_rng(0), record=False)
    after = ml.exact_outcome(agent, perfect)
    assert before["win"] == after["win"] == 0.0
    assert after["draw"] > before["draw"] + 0.3
    assert agent.n_boxes > 304  # no symmetry: more boxes than the library's MENACE


def test_an_openspiel_agent_saves_and_loads(tmp_path):
    name = spiel_game("python_hexapawn").name
    her = ml.Menace(ml.MenaceConfig(game=name, player=2, filter="decision"))
    her.train_against(ml.make_opponent("random", game=name), 50, np.random.default_rng(1))
    path = ml.save_agent(her, tmp_path / "her.json")
    back = ml.load_agent(path)
    assert back.game == name
    assert np.array_equal(back.policy_matrix().probabilities, her.policy_matrix().probabilities)


@pytest.mark.parametrize(
    ("game", "params", "words"),
    [
        ("kuhn_poker", None, "has chance nodes"),
        ("goofspiel", {"num_cards": 3}, "moves are simultaneous"),
        ("phantom_ttt", None, "imperfect_information"),
        ("connect_four", None, "more than 1,000 positions"),
        ("nim", None, "reached both 3 moves and fewer"),
    ],
)
def test_a_game_the_library_cannot_hold_is_refused_in_one_line(game, params, words):
    with pytest.raises(ValueError, match=words) as err:
        spiel_game(game, params, max_positions=1000)
    assert "\n" not in str(err.value)
    assert f"openspiel:{load_spiel(game, params)}" not in ml.games.registry._REGISTERED


def test_bad_names_and_limits_are_refused():
    with pytest.raises(ValueError, match="OpenSpiel cannot load 'no_such_game'"):
        spiel_game("no_such_game")
    with pytest.raises(ValueError, match="max_positions 0: expected an integer from 1"):
        OpenSpielGame(load_spiel("tic_tac_toe"), 0)
    with pytest.raises(ValueError, match=r"load it first with .*spiel_game"):
        ml.get_game("openspiel:never_loaded()")


def test_a_missing_extra_is_named_in_one_line(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "pyspiel" else real(n, *a)
    )
    with pytest.raises(MissingExtraError) as err:
        require("openspiel", "an OpenSpiel game")
    assert str(err.value) == (
        "an OpenSpiel game needs pyspiel, which is not installed: "
        'pip install "menace_lib[openspiel]"'
    )
