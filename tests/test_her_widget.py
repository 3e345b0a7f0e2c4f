"""Play HER in the browser: the HER widget, its JavaScript and its Python twin agree.

* ``her_play.js`` (through the one engine, ``lab_engine.js``) replays a session of White's
  moves to the same beads, draws, tally and record as :class:`HerWidget` in Python, under
  both rules and several seeds: a browser game replays exactly in Python from its seed.
* The engine's boxes on Hexapawn's tables (``lab_tables.tablesOf`` + ``menaceStructure``)
  equal :func:`menace_lib.machine.engine.box_layout`'s, field by field.
* Gardner's rule confiscates only the last move's bead; the widget refuses bad input.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from node_runner import NODE, node_json

import menace_lib as ml
from menace_lib.games.hexapawn import BLACK, HEXAPAWN, WHITE
from menace_lib.machine.engine import box_layout
from menace_lib.widgets.her_play import HerWidget, her_data, record_text

DRIVER = Path(__file__).parent / "js" / "her_driver.mjs"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
T = ml.game_tables("hexapawn")
PAYLOAD_LIMIT = 20_000  # bytes of JSON in the `data` trait: the page must stay light


def run_node(**job) -> dict:
    return node_json([str(DRIVER)], {"data": her_data(), **job})


def play_session(widget: HerWidget, games: int, seed: int) -> None:
    """White plays ``games`` games of uniformly random legal moves."""
    pick = random.Random(seed)
    for _ in range(games):
        widget.new_game()
        while widget.turn == "human":
            widget.play(pick.choice(T.legal(widget.position)))


@needs_node
@pytest.mark.parametrize("rule", ["gardner", "michie"])
def test_browser_games_replay_exactly_in_python(rule: str) -> None:
    sessions = []
    for seed in (0, 3, 2**32 - 1):
        w = HerWidget(rule=rule, seed=seed)
        play_session(w, 25, seed)
        sessions.append(w)
    js = run_node(replays=[{"rule": rule, "seed": w.seed, "games": w.record} for w in sessions])
    for w, got in zip(sessions, js["replays"], strict=True):
        assert "error" not in got, got
        assert got["beads"] == w.beads
        assert got["draws"] == w.draws > 0
        assert got["tally"] == w.tally
        assert got["record"] == w.record
        assert got["moves"] == w.moves and got["path"] == w.path
        assert got["last_draw"] == w.last_draw


@needs_node
def test_engine_builds_the_library_boxes_on_hexapawn() -> None:
    configs = [
        {"layout": layout, "filter": f, "player": player, "schedule": [4, 3, 2]}
        for layout in ("square", "class")
        for f in ("all", "decision")
        for player in (WHITE, BLACK)
    ]
    js = run_node(structures=configs)["structures"]
    for config, got in zip(configs, js, strict=True):
        lay = box_layout("hexapawn", config["filter"], config["layout"], config["player"])
        agent = ml.Menace(
            ml.MenaceConfig(
                game="hexapawn",
                filter=config["filter"],
                layout=config["layout"],
                player=config["player"],
                schedule=(4, 3, 2),
            )
        )
        assert got["states"] == list(lay.states)
        assert got["entries"] == [list(e) for e in lay.entries]
        assert got["members"] == [[list(c) for c in box] for box in lay.members]
        assert got["initial"] == agent.initial
        assert got["raw_box"] == list(lay.raw_box)
        assert got["raw_moves"] == [list(r) for r in lay.raw_moves]
        assert got["raw_next"] == [list(r) for r in lay.raw_next]
        assert got["opening"] == list(lay.opening)


@needs_node
def test_move_names_match_the_library() -> None:
    pairs = [(pid, m) for pid in range(T.n_positions) for m in T.legal(pid)]
    names = run_node(names=pairs)["names"]
    assert names == [HEXAPAWN.move_name(T.position(pid), m) for pid, m in pairs]


@needs_node
def test_links_are_read_or_refused_with_a_reason() -> None:
    w = HerWidget(seed=7)
    play_session(w, 3, 1)
    good = w.fragment.removeprefix("her=")
    links = [
        good,
        "rule:michie",
        "rule:nobody",
        "seed:-1",
        "seed:4294967296",
        "games:zz",
        "x:1",
        "seed:1,seed:2",
    ]
    got = run_node(links=links)["links"]
    assert got[0] == {"rule": "gardner", "seed": 7, "games": w.record}
    assert got[1] == {"rule": "michie", "seed": 0, "games": []}
    for answer in got[2:]:
        assert set(answer) == {"error"} and answer["error"]
    bad = run_node(replays=[{"rule": "gardner", "seed": 0, "games": [[1]]}])["replays"][0]
    assert "not legal" in bad["error"]


def test_gardner_confiscates_only_the_last_bead_of_a_lost_game() -> None:
    w = HerWidget(seed=11)
    before = [list(b) for b in w.beads]
    pick = random.Random(4)
    for _ in range(60):
        w.new_game()
        start = sum(map(sum, w.beads))
        while w.turn == "human":
            w.play(pick.choice(T.legal(w.position)))
        lost = w.result == "You win"
        assert sum(map(sum, w.beads)) == start - (1 if lost and w.path else 0)
        if lost and w.path:
            b, j = w.path[-1]
            assert w.beads[b][j] == before[b][j] - 1
        before = [list(b) for b in w.beads]
    assert w.tally["her"] + w.tally["human"] == 60 == len(w.record)


def test_fragment_and_record_text() -> None:
    w = HerWidget(rule="michie", seed=5)
    assert w.fragment == "her=rule:michie,seed:5"
    play_session(w, 2, 0)
    assert w.fragment == f"her=rule:michie,seed:5,games:{record_text(w.record)}"
    assert record_text([[19, 25], [22]]) == "jp.m"


def test_moves_by_name_and_bad_input() -> None:
    w = HerWidget()
    assert w.legal_moves() == ["a1-a2", "b1-b2", "c1-c2"]
    w.play("b1-b2")
    assert len(w.moves) == 2 and w.turn == "human"
    with pytest.raises(ValueError, match="not legal now"):
        w.play("a1-a3")
    with pytest.raises(ValueError, match="not legal now"):
        w.play(0)
    with pytest.raises(ValueError, match="move must be"):
        w.play(1.5)
    with pytest.raises(ValueError, match="unknown rule"):
        HerWidget(rule="nobody")
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*32\)"):
        HerWidget(seed=2**32)
    with pytest.raises(ValueError, match="not HER's turn"):
        w.her_move()


def test_payload_is_small_and_plain_json() -> None:
    text = json.dumps(her_data())
    assert len(text) < PAYLOAD_LIMIT
    assert json.loads(text) == her_data()


BAD_STATES = [
    ("draws", -1),
    ("draws", 2**70),
    ("draws", "7"),
    ("moves", [999]),
    ("moves", [3 * 7 + 1, 3 * 7 + 1]),
    ("moves", "b1-b2"),
    ("moves", [0] * 50),
    ("path", [[99, 0]]),
    ("path", [[0, 9]]),
    ("path", [[0]]),
    ("beads", [[1.0]]),
    ("beads", [[float("nan")] * 2]),
    ("beads", "many"),
    ("result", "Black wins"),
    ("tally", {"her": -1, "human": 0}),
    ("tally", {"her": 0}),
    ("record", [[999]]),
    ("record", "x" * 10),
    ("last_draw", {"move": 0, "box": 99, "colour": 0}),
    ("last_draw", {"move": 0}),
]


@pytest.mark.parametrize(("trait", "value"), BAD_STATES, ids=lambda v: repr(v)[:30])
def test_a_bad_state_from_the_browser_is_refused_with_one_line(trait, value) -> None:
    """A damaged or hostile message is refused before it reaches the tables or the beads,
    with one line naming the trait; the widget keeps its state and plays on."""
    import traitlets

    w = HerWidget(seed=1)
    w.play("b1-b2")
    before = {name: getattr(w, name) for name in ("draws", "moves", "path", "beads", "tally")}
    with pytest.raises(traitlets.TraitError, match=trait.split("_")[0]) as err:
        setattr(w, trait, value)
    assert "\n" not in str(err.value)
    assert {name: getattr(w, name) for name in before} == before
    w.play(w.legal_moves()[0]) if w.turn == "human" else w.new_game()
