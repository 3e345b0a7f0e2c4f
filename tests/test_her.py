"""HER: MENACE on Hexapawn, its exact learning curves, its kit and its commands."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from menace_lib.agents.her import her, her_config, opponents
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.her_chapter import RESULTS_FILE, box_counts, exact_part, load_results
from menace_lib.kit.hexapawn import her_boxes, write_her_kit
from menace_lib.machine import beads
from menace_lib.play.exact_learning import exact_curve, exact_rates


def test_her_has_gardners_boxes_and_beads():
    agent = her()
    assert agent.n_boxes == 19
    assert agent.total_beads() == 47
    assert agent.config.credit == "last" and agent.config.player == 2
    with pytest.raises(ValueError, match="unknown rule 'x'"):
        her_config("x")


def test_box_counts_reconcile_37_19_17_24():
    b = box_counts()
    assert b["raw"] == {"total": 37, "by_move": {"2": 3, "4": 20, "6": 14}}
    assert b["boxes"] == {"total": 19, "by_move": {"2": 2, "4": 10, "6": 7}}
    assert b["choice"] == 17
    assert b["gardner"] == {"total": 24, "by_move": {"2": 2, "4": 11, "6": 11}}


def _brute_force_next_loss(agent, opponent) -> float:
    """P(losing game 2), by walking every game-1 path and applying the owner's update."""
    layout = agent.box_layout
    total = 0.0
    stack = [(0, 1.0, [])]
    while stack:
        s, p, path = stack.pop()
        r = layout.result[s]
        if r >= 0 or (layout.raw_box[s] >= 0 and sum(agent.weights[layout.raw_box[s]]) <= 0):
            r = 2 if r < 0 else r
            weights = [list(w) for w in agent.weights]
            if path:
                cfg = agent.config
                beads.reinforce(
                    weights, agent.initial, agent.move_refill, path,
                    cfg.reinforcement[r], cfg.restock, cfg.floor, cfg.credit,
                )  # fmt: skip
            state = tuple(tuple(w) for w in weights)
            total += p * exact_rates(agent, state, opponent.next_ids)[2]
            continue
        b = layout.raw_box[s]
        if b >= 0:
            w = agent.weights[b]
            for j, x in enumerate(w):
                if x > 0:
                    stack.append((layout.raw_next[s][j], p * x / sum(w), [*path, (b, j)]))
        else:
            options = layout.raw_next[s] or opponent.next_ids[s]
            stack += [(c, p / len(options), path) for c in options]
    return total


@pytest.mark.parametrize("white", ["perfect", "human-like", "random"])
def test_exact_curve_agrees_with_walking_every_game(white):
    agent, opp = her(), opponents()[white]
    curve = exact_curve(agent, opp, 1)
    fresh = exact_rates(agent, tuple(tuple(w) for w in agent.weights), opp.next_ids)
    assert curve.train_loss[0] == pytest.approx(fresh[2], abs=1e-12)
    assert curve.train_loss[1] == pytest.approx(_brute_force_next_loss(agent, opp), abs=1e-12)
    assert curve.train_loss[1] < curve.train_loss[0]  # one game of confiscation helps


def test_exact_curves_need_gardners_rule():
    with pytest.raises(ValueError, match="credit='last'"):
        exact_curve(her("michie"), opponents()["perfect"], 2)


def test_the_cached_chapter_numbers_rerun_record_for_record():
    cached = load_results(RESULTS_FILE)
    assert cached["boxes"] == box_counts()
    again = exact_part("human-like", 10, 5)
    assert_same_numbers(again["train_loss"], cached["exact"]["human-like"]["train_loss"][:11])
    assert_same_numbers(again["unbeatable"], cached["exact"]["human-like"]["unbeatable"][:11])


def test_the_kit_has_a_rule_card_and_nineteen_box_fronts(tmp_path):
    boxes = her_boxes()
    assert len(boxes) == 19 and sum(len(b.moves) for b in boxes) == 47
    assert max(len(b.moves) for b in boxes) <= 4
    kit = write_her_kit(tmp_path / "her.pdf")
    assert kit.pages == 2 and kit.boxes == 19 and sum(kit.beads.values()) == 47
    data = (tmp_path / "her.pdf").read_bytes()
    assert (
        data.startswith(b"%PDF")
        and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 2
        or b"/Count 2" in data
    )


def _cli(*args, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "menace_lib", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_states_for_hexapawn():
    out = _cli("states", "--game", "hexapawn", "--json")
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["second_player"] == {
        "positions_to_move": 37,
        "boxes": 19,
        "boxes_with_a_choice": 17,
    }
    assert facts["first_player"]["positions_to_move"] == 33 and facts["first_player"]["boxes"] == 18
    assert facts["value_of_start_for_first_player"] == -1
    assert facts["gardner_boxes_by_move"] == {"2": 2, "4": 11, "6": 11}


def test_an_option_the_game_lacks_is_one_clear_error(tmp_path):
    out = _cli(
        "kit", "--game", "hexapawn", "--layout", "class", "--output", str(tmp_path / "k.pdf")
    )
    assert out.returncode != 0
    assert "--layout does not apply to --game hexapawn" in out.stderr
    assert not (tmp_path / "k.pdf").exists()
    out = _cli("play", "--game", "hexapawn", "--side", "X")
    assert out.returncode != 0 and "--side does not apply" in out.stderr


def test_play_hexapawn_in_the_terminal():
    out = _cli("play", "--game", "hexapawn", "--seed", "1", stdin="b1-b2\nnonsense\n")
    assert out.returncode == 0, out.stderr
    assert "HER's chances" in out.stdout and "is not a legal move" in out.stdout
    assert "Input ended" in out.stdout


def test_a_her_file_saves_and_loads(tmp_path):
    agent = her()
    agent.train_against(opponents()["random"], 30, np.random.default_rng(0))
    agent.save(tmp_path / "her.json")
    back = type(agent).load(tmp_path / "her.json")
    assert back.weights == agent.weights and back.config == agent.config
    assert json.loads((tmp_path / "her.json").read_text())["boxes"][0]["board"] == "BBB..WWW."


def test_train_and_evaluate_a_her_from_the_command_line(tmp_path):
    path = tmp_path / "her.json"
    out = _cli("train", "menace", "--game", "hexapawn", "--games", "40", "--output", str(path))
    assert out.returncode == 0, out.stderr
    out = _cli("evaluate", str(path), "--game", "hexapawn", "--opponent", "human-like", "--json")
    assert out.returncode == 0, out.stderr
    rates = json.loads(out.stdout)
    assert rates["draw"] == 0 and abs(rates["win"] + rates["loss"] - 1) < 1e-12
    out = _cli("evaluate", str(path), "--opponent", "human-like", "--json")  # the file's game
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rates
    out = _cli("evaluate", str(path), "--game", "noughts-and-crosses")
    assert out.returncode == 2 and "holds a hexapawn agent, not --game" in out.stderr
    out = _cli("train", "pure", "--game", "hexapawn", "--output", str(tmp_path / "x.json"))
    assert out.returncode != 0 and "does not play --game hexapawn" in out.stderr
    assert not (tmp_path / "x.json").exists()
