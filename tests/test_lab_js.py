"""The MENACE lab's JavaScript agrees with the library (run in node).

* ``prng.js`` is Philox4x32-10: Random123's known answers, and the same stream as
  :class:`menace_lib.base.prng.CounterRng` for any seed and position.
* ``lab_tables.js`` unpacks the game and builds MENACE's boxes exactly as
  :class:`menace_lib.machine.menace.Menace` does, for every layout, filter, side and schedule.
* The opponents it plays are the library's, move distribution for move distribution.
* ``lab_exact.js`` equals :func:`menace_lib.play.evaluation.exact_outcome` to 1e-9 on trained
  agents (including empty boxes with and without restock).
* A seeded replay: the browser's games (``lab_engine.js``) and
:class:`menace_lib.widgets.lab_games.LabSession`
  (the library's rules) end with the same bead counts, draw position and tally, over a
  grid of opponents, sides, layouts, restock modes, empty-box rules and incentives.
* Its agent files load with :meth:`Menace.from_dict`, and it reads the library's.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from node_runner import NODE, node_json

from menace_lib.base.prng import CounterRng, philox4x32
from menace_lib.games.board import O, X
from menace_lib.games.statespace import FILTERS, tables
from menace_lib.machine.menace import LAYOUTS, Menace, MenaceConfig
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import TIE_BREAKS, make_opponent
from menace_lib.play.training import train
from menace_lib.widgets.lab_data import LAB_OPPONENTS, lab_data, opponent_key, pack, unpack
from menace_lib.widgets.lab_games import SERIES_HEAD, SERIES_POINTS, LabSession, LabSettings, Series

DRIVER = Path(__file__).parent / "js" / "lab_driver.mjs"
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
T = tables()
MASK = 0xFFFFFFFF

# Random123's tests/kat_vectors, "philox4x32 10" lines: counter, key -> output.
PHILOX_KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((MASK, MASK, MASK, MASK), (MASK, MASK), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


def run_node(job: dict) -> dict:
    return node_json([str(DRIVER)], job)


def with_data(**job) -> dict:
    return run_node({"data": lab_data(), **job})


# ---------------------------------------------------------------------------------- PRNG


def test_philox_known_answers_in_python_and_javascript():
    for counter, key, expected in PHILOX_KAT:
        assert philox4x32(counter, key) == expected
    js = run_node({"philox": [[list(c), list(k)] for c, k, _ in PHILOX_KAT]})["philox"]
    assert [tuple(x) for x in js] == [e for _, _, e in PHILOX_KAT]


def test_streams_agree_for_any_seed_and_position():
    rng = np.random.default_rng(5)
    streams = []
    for seed, position in [(0, 0), (1, 0), (2**32 - 1, 3), (2**32 + 7, 0), (12345, 4 * 2**32 + 2)]:
        calls = [int(n) for n in rng.choice([0, 1, 2, 3, 5, 8, 9, 2**21], size=200)]
        streams.append({"seed": seed, "position": position, "calls": calls})
    js = run_node({"streams": streams})["streams"]
    for stream, values in zip(streams, js, strict=True):
        py = CounterRng(stream["seed"], stream["position"])
        expected = [py.random() if n == 0 else py.integers(n) for n in stream["calls"]]
        assert values == expected  # exact: multiples of 2**-32 and small integers


def test_counter_rng_resumes_and_rejects_bad_input():
    a = CounterRng(9)
    first = [a.random() for _ in range(10)]
    b = CounterRng(9, position=6)
    assert [b.random() for _ in range(4)] == first[6:]
    assert a.position == 10
    for bad in (-1, 2**64, 1.5, True, "3"):
        with pytest.raises(ValueError, match="seed"):
            CounterRng(bad)
    with pytest.raises(ValueError, match="position"):
        CounterRng(1, position=-2)
    with pytest.raises(ValueError, match="range"):
        a.integers(0)
    with pytest.raises(ValueError, match="range"):
        a.integers(2**21 + 1)
    assert all(3 <= a.integers(3, 7) < 7 for _ in range(50))


def test_counter_rng_is_uniform_enough():
    rng = CounterRng(2024)
    u = np.array([rng.random() for _ in range(20000)])
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    counts = np.bincount([rng.integers(9) for _ in range(18000)], minlength=9)
    assert counts.min() > 1800 and counts.max() < 2200


def test_series_thin_the_same_way():
    counts = [10, 400, 1201, 5000, 33333]
    js = run_node({"series": counts})["series"]
    for n, got in zip(counts, js, strict=True):
        series = Series()
        for i in range(1, n + 1):
            series.push(i, [i % 7, 0.5 * i])
        assert got == series.to_dict(), n
        assert len(series.x) <= SERIES_HEAD + SERIES_POINTS
        assert series.x[: min(n, SERIES_HEAD)] == list(range(1, min(n, SERIES_HEAD) + 1))
        assert series.x[-1] > n - 2 * series.stride  # the sketch reaches the end


# ------------------------------------------------------------------------------- payload


def test_pack_round_trips_and_rejects_overflow():
    values = [0, 1, 35, 36, 1295, 19560]
    assert unpack(pack(values, 3), 3) == values
    with pytest.raises(ValueError, match="cannot pack"):
        pack([36**2], 2)
    with pytest.raises(ValueError, match="multiple"):
        unpack("abc", 2)


def test_tables_unpack_to_the_library_tables():
    js = with_data(tables=True)["tables"]
    np.testing.assert_array_equal(np.array(js["succ"]).reshape(-1, 9), T.succ)
    np.testing.assert_array_equal(js["canon"], T.canon)
    np.testing.assert_array_equal(js["player"], T.player)
    np.testing.assert_array_equal(js["ply"], T.ply)


def test_boxes_match_menace_for_every_layout_filter_side_and_schedule():
    configs = [
        {"layout": layout, "filter": f, "player": player, "schedule": schedule}
        for layout, f, player, schedule in itertools.product(
            LAYOUTS, FILTERS, (X, O), ([4, 3, 2, 1], [8, 4, 2, 1], [2.5])
        )
    ]
    js = with_data(structures=configs)["structures"]
    for config, got in zip(configs, js, strict=True):
        agent = Menace(MenaceConfig(**{**config, "schedule": tuple(config["schedule"])}))
        where = str(config)
        assert got["states"] == list(agent.states), where
        assert [tuple(e) for e in got["entries"]] == list(agent.entries), where
        assert [tuple(tuple(c) for c in box) for box in got["members"]] == list(agent.members), (
            where
        )
        assert got["initial"] == agent.initial, where
        assert got["rawBox"] == list(agent.raw_box), where
        squares = [tuple(s) if s is not None else () for s in got["rawSquares"]]
        assert squares == list(agent.raw_squares), where


def test_layout_box_counts():
    js = with_data(
        structures=[
            {"layout": "class", "filter": f, "player": X, "schedule": [4, 3, 2, 1]} for f in FILTERS
        ]
    )["structures"]
    assert [len(s["states"]) for s in js] == [338, 304, 287]  # the thesis's counts


def test_opponents_move_as_the_library_says():
    js = with_data(opponents=True)["opponents"]
    names = [
        (n, tb) for n in LAB_OPPONENTS for tb in (TIE_BREAKS if n == "perfect" else ["lowest"])
    ]
    assert sorted(js) == sorted(opponent_key(n, tb) for n, tb in names)
    for name, tie_break in names:
        expected = make_opponent(name, tie_break).distribution()
        got = np.zeros_like(expected)
        for pid, nexts in enumerate(js[opponent_key(name, tie_break)]):
            for child in nexts:
                square = int(np.flatnonzero(T.succ[pid] == child)[0])
                got[pid, square] += 1 / len(nexts)
        np.testing.assert_allclose(got, expected, atol=1e-15, err_msg=f"{name} {tie_break}")


# -------------------------------------------------------------------------------- exact


def _trained_agents() -> list[Menace]:
    agents = []
    for layout, player, restock, games, seed in [
        ("class", X, "box", 300, 1),
        ("square", X, "box", 1000, 2),
        ("class", O, "box", 500, 3),
        ("square", O, "none", 400, 4),
        ("class", X, "none", 60, 5),  # harsh start: some boxes empty, MENACE resigns there
        ("class", X, "move", 200, 6),
    ]:
        config = MenaceConfig(layout=layout, player=player, restock=restock, filter="decision")
        agent = Menace(config)
        regimen = "optimal" if restock == "none" else "mixed"
        train(agent, regimen, games, np.random.default_rng(seed), tie_break="uniform")
        agents.append(agent)
    return agents


def test_exact_evaluation_matches_the_library_to_1e_9():
    agents = _trained_agents()
    assert any(sum(w) <= 0 for a in agents for w in a.weights), "want an empty box in the set"
    keys = ["random", "defensive"] + [f"perfect-{tb}" for tb in TIE_BREAKS]
    jobs = [
        {
            "config": {
                "layout": a.config.layout,
                "filter": a.config.filter,
                "player": a.config.player,
                "schedule": list(a.config.schedule),
            },
            "restock": a.config.restock,
            "beads": a.weights,
            "opponents": keys,
        }
        for a in agents
    ]
    js = with_data(exact=jobs)["exact"]
    for agent, results in zip(agents, js, strict=True):
        for key, got in zip(keys, results, strict=True):
            name, _, tie_break = key.partition("-")
            expected = exact_outcome(agent, make_opponent(name, tie_break or "lowest"))
            for outcome in ("win", "draw", "loss"):
                assert got[outcome] == pytest.approx(expected[outcome], abs=1e-9), (key, outcome)


# ------------------------------------------------------------------------- seeded replay

REPLAYS = [
    dict(opponent="perfect", tie_break="uniform"),
    dict(opponent="perfect", tie_break="lowest", layout="square", filter="michie"),
    dict(opponent="perfect", tie_break="priority", side="O", seed=11),
    dict(opponent="random", side="O", layout="square", filter="all"),
    dict(opponent="defensive", schedule=(8, 4, 2, 1)),
    dict(opponent="menace", seed=3),
    dict(opponent="menace", side="O", layout="square", reinforcement=(2.5, 0.5, -1.5)),
    dict(opponent="random", restock="move", reinforcement=(1, 0, -2)),
    dict(opponent="random", restock="move", move_restock_beads=1, floor=0.5),
    dict(opponent="perfect", restock="none", empty_box="resign", reinforcement=(3, 1, -2)),
    dict(opponent="perfect", restock="none", empty_box="stop", reinforcement=(3, 1, -2)),
    dict(opponent="perfect", restock="none", empty_box="stop", reinforcement=(1, 0, -3)),
    # web rule: two later boxes empty (MENACE resigns there), the opening box never does
    dict(
        opponent="defensive",
        restock="none",
        empty_box="web",
        reinforcement=(3, 1, -3),
        schedule=(2, 2, 1),
    ),
    dict(opponent="perfect", restock="none", empty_box="web", schedule=(8, 4, 2, 1)),
    dict(opponent="menace", restock="none", empty_box="resign", schedule=(2, 1)),
    dict(opponent="random", filter="all", restock="box", floor=0.25, seed=2**32 - 1),
]


@pytest.fixture(scope="module")
def replays():
    games = 400
    settings = [LabSettings(**kw) for kw in REPLAYS]
    js = with_data(replays=[{"settings": s.to_dict(), "games": games} for s in settings])
    return games, settings, js["replays"]


def test_replay_gives_the_same_beads_as_the_library(replays):
    games, settings, js = replays
    stopped = 0
    for s, got in zip(settings, js, strict=True):
        session = LabSession(s)
        played = session.play(games)
        state = session.state()
        where = str(s)
        assert got["played"] == played, where
        for key in ("games", "position", "tally", "beads", "stopped"):
            assert got["state"][key] == state[key], (where, key)
        if s.opponent == "menace":
            assert got["state"]["beads2"] == state["beads2"], where
        assert got["state"]["history"]["beads"] == state["history"]["beads"], where
        assert got["state"]["history"]["tally"] == state["history"]["tally"], where
        exact = session.exact()
        for key in ("draw", "loss", "win", "win_random"):
            assert got["exact"][key] == pytest.approx(exact[key], abs=1e-9), (where, key)
        stopped += bool(state["stopped"])
    assert stopped >= 1, "the grid should exercise the stop rule"


def test_replay_resumes_mid_run(replays):
    """A session saved after 150 games and resumed plays the same games as one that ran on."""
    s = LabSettings(opponent="menace", seed=5)
    first = LabSession(s)
    first.play(150)
    saved = json.loads(json.dumps(first.state()))
    js = with_data(replays=[{"settings": s.to_dict(), "games": 250, "state": saved}])["replays"][0]
    straight = LabSession(s)
    straight.play(400)
    assert js["state"]["beads"] == straight.state()["beads"]
    assert js["state"]["position"] == straight.rng.position


def test_exported_agent_loads_in_python(replays):
    games, settings, js = replays
    for s, got in zip(settings, js, strict=True):
        agent = Menace.from_dict(got["agent"])
        session = LabSession(s)
        session.play(games)
        assert agent.weights == session.menace.weights
        assert agent.config == s.config(s.side)
        assert agent.games_trained == got["played"]


def test_lab_reads_library_agent_files():
    agent = _trained_agents()[2]
    bad = agent.to_dict()
    bad["boxes"][3]["beads"][0] = -1
    wrong_board = agent.to_dict()
    wrong_board["boxes"][0]["board"] = "X........"
    got = with_data(agentFiles=[agent.to_dict(), bad, wrong_board, {"format": "other"}])
    good, negative, board, other = got["agentFiles"]
    assert good["beads"] == agent.weights
    assert good["settings"]["side"] == "O" and good["settings"]["layout"] == "class"
    assert good["games"] == agent.games_trained
    assert "boxes[3].beads[0]" in negative["error"]
    assert "boxes[0].board" in board["error"]
    assert "format" in other["error"]
