"""MENACE: boxes, beads, sampling, reinforcement, restocking and its JSON files."""

import json

import numpy as np
import pytest

from menace_lib.games import statespace
from menace_lib.games.board import O, X
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import DRAW_RESULT, LOSS, WIN, AgentFileError, Menace, MenaceConfig
from menace_lib.play.training import train

T = tables()


@pytest.mark.parametrize(("filter", "boxes"), [("all", 338), ("decision", 304), ("michie", 287)])
def test_box_counts(filter, boxes):
    assert Menace(MenaceConfig(filter=filter)).n_boxes == boxes


def test_initial_beads_follow_the_schedule():
    agent = Menace()
    by_ply = {}
    for s, w in zip(agent.states, agent.weights, strict=True):
        by_ply.setdefault(int(T.ply[s]), set()).update(w)
    assert by_ply == {0: {4.0}, 2: {3.0}, 4: {2.0}, 6: {1.0}}
    root = agent.box_of[0]
    assert agent.weights[root] == [4.0] * 9  # symmetric moves are not merged


def test_o_player_boxes_start_at_four():
    agent = Menace(MenaceConfig(player=O, filter="all"))
    first = [w for s, w in zip(agent.states, agent.weights, strict=True) if T.ply[s] == 1]
    assert len(first) == 3 and all(set(w) == {4.0} for w in first)


def test_class_layout_opening_box_holds_corner_edge_centre():
    agent = Menace(MenaceConfig(layout="class"))
    root = agent.box_of[0]
    assert agent.members[root] == ((0, 2, 6, 8), (1, 3, 5, 7), (4,))
    assert agent.probabilities(root) == pytest.approx([1 / 3] * 3)


def test_custom_schedules():
    apl = Menace(MenaceConfig(schedule=(20,)))
    assert {x for w in apl.weights for x in w} == {20.0}
    web = Menace(MenaceConfig(schedule=(8, 4, 2, 1)))
    assert web.weights[web.box_of[0]][0] == 8.0


def test_move_distribution_maps_back_to_raw_squares():
    agent = Menace()
    rng = np.random.default_rng(0)
    for w in agent.weights:
        w[:] = rng.integers(1, 9, size=len(w)).astype(float).tolist()
    for pid in range(T.n_positions):
        if agent.raw_squares[pid] and agent.raw_box[pid] >= 0:
            dist = agent.move_distribution(pid)
            c, t = int(T.canon[pid]), int(T.canon_transform[pid])
            b = agent.box_of[c]
            for j, cm in enumerate(agent.entries[b]):
                from menace_lib.games.board import INVERSE, TRANSFORMS

                raw = TRANSFORMS[INVERSE[t]][cm]
                assert dist[raw] == pytest.approx(agent.weights[b][j] / sum(agent.weights[b]))


def test_positions_without_a_box_use_the_reference_fallback():
    agent = Menace()
    threat = int(statespace.double_threats(T)[0])
    assert agent.raw_box[threat] == -1
    dist = agent.move_distribution(threat)
    assert set(dist) == set(T.legal(threat)) and len(set(dist.values())) == 1
    forced = next(int(s) for s in T.player_states(1) if len(T.legal(s)) == 1)
    square, box, _ = agent.choose(forced, np.random.default_rng(0))
    assert square == T.legal(forced)[0] and box == -1


def test_reinforcement_and_clamping():
    agent = Menace()
    root = agent.box_of[0]
    agent.reinforce([(root, 0)], WIN)
    assert agent.weights[root][0] == 7.0
    agent.reinforce([(root, 1)], DRAW_RESULT)
    assert agent.weights[root][1] == 5.0
    for _ in range(10):
        agent.reinforce([(root, 2)], LOSS)
    assert agent.weights[root][2] == 0.0  # never negative


@pytest.mark.parametrize(("restock", "expected"), [("none", 0.0), ("move", 4.0)])
def test_restock_single_move(restock, expected):
    agent = Menace(MenaceConfig(restock=restock, reinforcement=(3, 1, -10)))
    root = agent.box_of[0]
    agent.reinforce([(root, 0)], LOSS)
    assert agent.weights[root][0] == expected


def test_box_restock_refills_an_emptied_box():
    agent = Menace(MenaceConfig(restock="box", reinforcement=(3, 1, -10)))
    root = agent.box_of[0]
    agent.reinforce([(root, j) for j in range(9)], LOSS)
    assert agent.weights[root] == [4.0] * 9


def test_empty_box_without_restock_resigns():
    agent = Menace(MenaceConfig(restock="none"))
    root = agent.box_of[0]
    agent.weights[root] = [0.0] * 9
    square, box, colour = agent.choose(0, np.random.default_rng(0))
    assert (square, box, colour) == (-1, root, -1)


def test_frozen_menace_does_not_learn():
    agent = Menace(frozen=True)
    before = agent.total_beads()
    assert agent.reinforce([(0, 0)], WIN) == 0.0
    assert agent.total_beads() == before


def test_sampling_matches_bead_proportions():
    agent = Menace()
    root = agent.box_of[0]
    agent.weights[root] = [10.0, 0, 0, 0, 30.0, 0, 0, 0, 0]
    rng = np.random.default_rng(1)
    picks = [agent.choose(0, rng)[0] for _ in range(4000)]
    square_of = {agent.raw_squares[0][j] for j in (0, 4)}
    assert set(picks) <= square_of
    share = picks.count(agent.raw_squares[0][4]) / len(picks)
    assert share == pytest.approx(0.75, abs=0.03)


@pytest.mark.parametrize(
    "config",
    [
        {"filter": "everything"},
        {"restock": "sometimes"},
        {"layout": "hex"},
        {"player": 3},
        {"schedule": (4, -1)},
        {"schedule": (float("nan"),)},
        {"reinforcement": (3, 1)},
        {"reinforcement": (3, float("inf"), -1)},
    ],
)
def test_bad_parameters_are_rejected(config):
    with pytest.raises(ValueError):
        MenaceConfig(**config)


def test_reinforce_rejects_bad_paths_without_changing_beads():
    agent = Menace()
    before = [list(w) for w in agent.weights]
    with pytest.raises(ValueError, match="names no bead colour"):
        agent.reinforce([(0, 0), (10_000, 0)], WIN)
    with pytest.raises(ValueError, match="result"):
        agent.reinforce([(0, 0)], 7)
    assert agent.weights == before


def test_json_round_trip(tmp_path):
    agent = Menace(MenaceConfig(layout="class", player=O))
    agent.weights[3][0] = 11.5
    path = tmp_path / "agent.json"
    agent.save(path)
    again = Menace.load(path)
    assert again.config == agent.config
    assert again.weights == agent.weights


def _corrupt(tmp_path, mutate):
    data = Menace().to_dict()
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d.update(format="pickle"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["config"].update(filter="x"), "config"),
        (lambda d: d["config"].update(evil="rm -rf"), "config"),
        (lambda d: d["boxes"].pop(), "boxes"),
        (lambda d: d["boxes"][5].update(board="XXXXXXXXX"), r"boxes\[5\].board"),
        (lambda d: d["boxes"][7]["beads"].__setitem__(0, -3), r"boxes\[7\].beads\[0\]"),
        (lambda d: d["boxes"][7]["beads"].__setitem__(1, "lots"), r"boxes\[7\].beads\[1\]"),
        (lambda d: d["boxes"][2].update(moves=[0]), r"boxes\[2\].moves"),
        (lambda d: d.update(games_trained=-1), "games_trained"),
    ],
)
def test_corrupt_files_name_the_bad_field(tmp_path, mutate, field):
    with pytest.raises(AgentFileError, match=field):
        Menace.load(_corrupt(tmp_path, mutate))


def test_non_json_and_non_finite_files_are_rejected(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"\x80\x04\x95 pickle bytes")
    with pytest.raises(AgentFileError, match="not valid JSON"):
        Menace.load(path)
    path.write_text('{"format": "menace_lib.menace", "version": 1, "x": NaN}')
    with pytest.raises(AgentFileError):
        Menace.load(path)
    with pytest.raises(AgentFileError, match="cannot read"):
        Menace.load(tmp_path / "missing.json")


def test_x_is_default_player():
    assert Menace().config.player == X


def test_text_readings_single_bead_move_restock_and_positive_floor():
    single = Menace(MenaceConfig(restock="move", move_restock_beads=1, reinforcement=(3, 1, -10)))
    root = single.box_of[0]
    single.reinforce([(root, 0)], LOSS)
    assert single.weights[root][0] == 1.0  # the thesis's ch. 9: "adding a single bead"
    eps = Menace(MenaceConfig(restock="none", floor=0.01, reinforcement=(3, 1, -10)))
    eps.reinforce([(root, j) for j in range(9)], LOSS)
    assert eps.weights[root] == [0.01] * 9  # the MDA's clamp: every move stays playable
    assert eps.choose(0, np.random.default_rng(0))[0] >= 0
    with pytest.raises(ValueError, match="floor"):
        MenaceConfig(floor=-1)
    with pytest.raises(ValueError, match="exceed floor"):
        MenaceConfig(floor=2, move_restock_beads=1)


def test_training_loop_and_reinforce_agree_under_text_options():
    config = MenaceConfig(restock="move", move_restock_beads=1, floor=0.5)
    agent = Menace(config)
    log = train(agent, "mixed", 400, np.random.default_rng(3))
    replay = Menace(config)
    for path, result in zip(log.paths, log.results, strict=True):
        replay.reinforce(path, result)
    assert replay.weights == agent.weights
