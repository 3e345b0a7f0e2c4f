"""Every deliberate copy of the bead rules agrees with their one owner, menace_lib.machine.beads.

The copies:

* MENACE's fast training loop (``machine.run_games``), against the generic game loop
  (``games.play_games`` with ``Menace.act``/``end_game``, which call the owner);
* the MENACE Decomposition Algorithm's update (``correspondence.mda_update``);
* the bead ledger (``correspondence.update_audit``), which must balance and end on the
  agent's real bead totals;
* the widgets' JavaScript (``widgets/beads.js``), run with node.

All of them are checked over the whole option grid: every restock mode, clamp level 0
and > 0, the move-restock count, both layouts, X and O, several reinforcement triples
and every empty-box rule. Changing any copy alone makes this file fail.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from menace_lib.base.limits import MAX_BEADS
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.correspondence import mda_update, update_audit
from menace_lib.games.board import O, X
from menace_lib.machine import beads
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.loop import play_games
from menace_lib.play.opponents import make_opponent

NODE = shutil.which("node")
DRIVER = Path(__file__).parent / "js" / "beads_grid.mjs"

REINFORCEMENTS = [(3, 1, -1), (1, 0, -2), (3, 1, -3), (0.5, 0.25, -0.75)]


def option_grid() -> list[MenaceConfig]:
    """Every combination of the options the bead rules read."""
    grid = []
    for restock, floor, refill, layout, player, reinforcement in itertools.product(
        beads.RESTOCKS, (0.0, 0.5), (None, 1.0), ("square", "class"), (X, O), REINFORCEMENTS
    ):
        if refill is not None and restock != "move":
            continue  # move_restock_beads only matters to move restock
        rules = beads.EMPTY_BOX_RULES if restock == "none" else ("resign",)
        for empty_box in rules:
            grid.append(
                MenaceConfig(
                    restock=restock,
                    floor=floor,
                    move_restock_beads=refill,
                    layout=layout,
                    player=player,
                    reinforcement=reinforcement,
                    empty_box=empty_box,
                    # Few beads, so boxes empty and restock often.
                    schedule=(2, 1, 1, 1),
                )
            )
    return grid


GRID = option_grid()


def grid_id(config: MenaceConfig) -> str:
    r = ",".join(f"{v:g}" for v in config.reinforcement)
    return (
        f"{config.restock}-floor{config.floor:g}-refill{config.move_restock_beads}-"
        f"{config.layout}-{'XO'[config.player - 1]}-{r}-{config.empty_box}"
    )


class UniformStream:
    """A Generator whose integer draws are ``int(u * n)`` of one uniform ``u``.

    The fast loop turns one uniform into a choice among ``n`` options that way; giving
    the generic loop the same stream lets the two be compared game by game. ``random``
    passes through (numpy yields the same doubles one at a time as in a block).
    """

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def random(self, size=None):
        return self.rng.random(size)

    def integers(self, n: int) -> int:
        return int(self.rng.random() * n)


# Games per parity run: 30 already reach every rule (restock, clamp, resign, stop; see
# test_the_grid_reaches_every_rule), so more games would check the same rules again.
PARITY_GAMES = 40


def train_fast(config: MenaceConfig, opponent: str, games: int, seed: int):
    """The fast loop alone (its parity with the owners is checked below); agent and log."""
    agent, opp = Menace(config), make_opponent(opponent, "uniform")
    return agent, agent.train_against(opp, games, UniformStream(seed))


def train_both(config: MenaceConfig, opponent: str, games: int, seed: int):
    """The same games through the fast loop and through the owners."""
    opp = make_opponent(opponent, "uniform", game=config.game)
    fast, slow = Menace(config), Menace(config)
    fast_log = fast.train_against(opp, games, UniformStream(seed))
    slow_log = play_games(slow, opp, games, UniformStream(seed))
    return fast, fast_log, slow, slow_log


@pytest.mark.parametrize("config", GRID, ids=grid_id)
def test_every_copy_follows_the_owner(config: MenaceConfig) -> None:
    # Stay inside one block of uniforms: the fast loop draws them 2**14 at a time.
    for opponent, seed in (("perfect", 7), ("random", 3)):
        fast, fast_log, slow, slow_log = train_both(config, opponent, PARITY_GAMES, seed)
        assert_same_games(fast, fast_log, slow, slow_log)
        assert_ledger_matches(config, fast, fast_log)
        assert_mda_matches(config, fast, fast_log)


def credit_grid() -> list[MenaceConfig]:
    """The credit rule (Gardner's confiscation) and the second game, over the other options.

    Noughts and crosses with ``credit="last"``, and Hexapawn (HER's side and the first
    player's) with both credits, over every restock, clamp level, layout, empty-box rule
    and Michie's and Gardner's reinforcements.
    """
    grid = []
    for game, credit, restock, floor, layout, player, reinforcement in itertools.product(
        ("noughts-and-crosses", "hexapawn"),
        beads.CREDITS,
        beads.RESTOCKS,
        (0.0, 0.5),
        ("square", "class"),
        (X, O),
        ((3, 1, -1), (0, 0, -1)),
    ):
        if game == "noughts-and-crosses" and credit == "every":
            continue  # the main grid
        rules = beads.EMPTY_BOX_RULES if restock == "none" else ("resign",)
        for empty_box in rules:
            grid.append(
                MenaceConfig(
                    game=game,
                    filter="michie" if game == "noughts-and-crosses" else "all",
                    credit=credit,
                    restock=restock,
                    floor=floor,
                    layout=layout,
                    player=player,
                    reinforcement=reinforcement,
                    empty_box=empty_box,
                    schedule=(2, 1, 1, 1) if reinforcement[0] else (1,),
                )
            )
    return grid


CREDIT_GRID = credit_grid()


@pytest.mark.parametrize("config", CREDIT_GRID, ids=lambda c: f"{c.game}-{c.credit}-{grid_id(c)}")
def test_credit_rule_and_second_game_follow_the_owner(config: MenaceConfig) -> None:
    opponents = (
        ("perfect", "random")
        if config.game == "noughts-and-crosses"
        else ("perfect", "random", "human-like")
    )
    for seed, opponent in enumerate(opponents):
        fast, fast_log, slow, slow_log = train_both(config, opponent, 120, seed)
        assert_same_games(fast, fast_log, slow, slow_log)


def test_credit_grid_confiscates_only_the_last_bead() -> None:
    """Gardner's rule really differs from Michie's, and touches one bead per lost game."""
    her = MenaceConfig(
        game="hexapawn",
        filter="all",
        player=O,
        schedule=(1,),
        reinforcement=(0, 0, -1),
        credit="last",
        restock="none",
    )
    agent = Menace(her)
    start = agent.total_beads()
    log = agent.train_against(make_opponent("random", game="hexapawn"), 300, UniformStream(1))
    losses = sum(r == 2 and not gone for r, gone in zip(log.results, log.resigned, strict=True))
    assert losses > 0
    resigned_after_move = sum(
        gone and bool(p) for gone, p in zip(log.resigned, log.paths, strict=True)
    )
    assert start - agent.total_beads() == losses + resigned_after_move
    michie = Menace(replace(her, credit="every"))
    michie.train_against(make_opponent("random", game="hexapawn"), 300, UniformStream(1))
    assert michie.weights != agent.weights


def assert_same_games(fast, fast_log, slow, slow_log) -> None:
    """The fast loop: same games, same draws, same beads as the generic loop."""
    assert fast_log.results == slow_log.results
    assert fast_log.stopped_early == slow_log.stopped_early
    assert fast_log.resigned == slow_log.resigned
    boxed = [[(b, j) for b, j in path if j >= 0] for path in slow_log.paths]
    assert fast_log.paths == boxed
    assert fast.weights == slow.weights
    assert fast.games_trained == slow.games_trained
    if fast_log.bead_totals:
        assert fast_log.bead_totals[-1] == pytest.approx(slow.total_beads(), abs=1e-9)


def assert_ledger_matches(config: MenaceConfig, agent: Menace, log) -> None:
    """The bead ledger balances and ends on the agent's real bead total."""
    audit = update_audit(config, log)
    assert audit.final_beads == pytest.approx(agent.total_beads(), abs=1e-9)
    balance = audit.initial_beads + audit.signed_beads + audit.beads_clamped
    assert balance + audit.beads_restocked == pytest.approx(audit.final_beads, abs=1e-9)
    assert audit.updates == sum(len(p) for p in log.paths)


def assert_mda_matches(config: MenaceConfig, agent: Menace, log) -> None:
    """The MDA update, game by game on named boxes, ends where the agent does."""
    fresh = Menace(config)
    boxes = dict(enumerate(fresh.weights))
    refill = dict(enumerate(fresh.move_refill if config.restock == "move" else fresh.initial))
    for path, result in zip(log.paths, log.results, strict=True):
        boxes = mda_update(
            boxes,
            path,
            config.reinforcement[result],
            initial=refill,
            floor=config.floor,
            restock=config.restock,
        )
    if config.restock == "move" and config.move_restock_beads is not None:
        return  # the MDA puts a colour back to `initial`; here that is the refill count
    assert [list(boxes[b]) for b in range(agent.n_boxes)] == agent.weights


def test_the_grid_reaches_every_rule() -> None:
    """The parity runs really exercise restocks, clamps, resignations and stops."""
    seen = set()
    for config in GRID:
        if config.player != X or config.layout != "square":
            continue
        _, log = train_fast(config, "perfect", PARITY_GAMES, seed=7)
        audit = update_audit(config, log)
        seen |= {"box restock"} if audit.box_restocks else set()
        seen |= {"move restock"} if audit.move_restocks else set()
        seen |= {"clamp"} if audit.clamped else set()
        seen |= {"resign"} if any(log.resigned) else set()
        seen |= {"stop"} if log.stopped_early else set()
    assert seen == {"box restock", "move restock", "clamp", "resign", "stop"}


def js_run(payload: dict) -> dict:
    done = subprocess.run(
        [NODE, str(DRIVER)], input=json.dumps(payload), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def js_grid_run(config: MenaceConfig, seed: int) -> tuple[dict, list]:
    """One option set's games as the JS driver's run, and the owner's steps for them."""
    opponent = make_opponent("perfect", "uniform", game=config.game)
    agent = Menace(config)
    log = agent.train_against(opponent, PARITY_GAMES, UniformStream(seed))
    start = Menace(config)
    games = [
        [path, config.reinforcement[r]] for path, r in zip(log.paths, log.results, strict=True)
    ]
    run = {
        "weights": [list(w) for w in start.weights],
        "initial": start.initial,
        "refill": start.move_refill,
        "restock": config.restock,
        "floor": config.floor,
        "credit": config.credit,
        "games": games,
    }
    steps = []
    for path, delta in games:
        change = beads.reinforce(
            start.weights,
            start.initial,
            start.move_refill,
            path,
            delta,
            config.restock,
            config.floor,
            config.credit,
        )
        steps.append([change, [list(start.weights[box]) for box, _ in path]])
    assert start.weights == agent.weights
    return run, {"steps": steps, "weights": start.weights}


@pytest.mark.skipif(NODE is None, reason="node is not installed; cannot run the JS copy")
def test_javascript_copy_matches_the_owner_over_the_grid() -> None:
    """beads.js over the whole grid: every option of the main grid, and the credit rule
    (Gardner's confiscation, ``credit="last"``) on both games over every other option.

    After each game the boxes of its path are compared (the only ones the rules may
    change), and every box at the end of each run: a copy that touched any other box
    would differ there. One node process runs the whole grid."""
    runs, expected = [], []
    for config in GRID + CREDIT_GRID:
        run, steps = js_grid_run(config, seed=5)
        runs.append(run)
        expected.append(steps)
    # The bead ceiling: a count that would rise above MAX_BEADS stops there.
    near = [[MAX_BEADS - 1.0, 5.0]]
    ceiling_games = [[[[0, 0]], 3.0], [[[0, 1]], -2.0]]
    runs.append(
        {
            "weights": [list(w) for w in near],
            "initial": [[4.0, 4.0]],
            "refill": [[4.0, 4.0]],
            "restock": "box",
            "floor": 0.0,
            "credit": "every",
            "games": ceiling_games,
        }
    )
    steps, weights = [], [list(w) for w in near]
    for path, delta in ceiling_games:
        change = beads.reinforce(weights, [[4.0, 4.0]], [[4.0, 4.0]], path, delta, "box", 0.0)
        steps.append([change, [list(weights[box]) for box, _ in path]])
    expected.append({"steps": steps, "weights": weights})
    assert weights[0][0] == MAX_BEADS
    rng = np.random.default_rng(0)
    draws = [
        [rng.integers(0, 5, size=k).astype(float).tolist(), float(rng.random())]
        for k in rng.integers(1, 10, size=300)
    ]
    draws = [[w, u] for w, u in draws if sum(w) > 0] + [[[0.5, 0.0, 2.5], 0.9999999999999999]]
    refills = [
        [w, init, restock]
        for w, init in ([[0.0, 0.0], [2.0, 1.0]], [[1.0, 0.0], [2.0, 2.0]])
        for restock in beads.RESTOCKS
    ]
    empties = [[rule, opening] for rule in beads.EMPTY_BOX_RULES for opening in (True, False)]
    out = js_run({"runs": runs, "draws": draws, "refills": refills, "empties": empties})
    for got, want in zip(out["runs"], expected, strict=True):
        assert len(got["steps"]) == len(want["steps"])
        for (g_change, g_w), (w_change, w_w) in zip(got["steps"], want["steps"], strict=True):
            assert g_w == w_w
            assert_same_numbers(g_change, w_change, "bead change")
        assert got["weights"] == want["weights"]
    assert out["draws"] == [beads.draw_bead(w, u) for w, u in draws]
    for (added, after), (w, init, restock) in zip(out["refills"], refills, strict=True):
        box = list(w)
        assert added == beads.refill_empty(box, init, restock) and after == box
    assert out["empties"] == [beads.empty_box_move(r, o) for r, o in empties]


def test_grid_covers_both_sides_layouts_and_every_mode() -> None:
    assert {c.player for c in GRID} == {X, O}
    assert {c.layout for c in GRID} == {"square", "class"}
    assert {c.restock for c in GRID} == set(beads.RESTOCKS)
    assert {c.empty_box for c in GRID} == set(beads.EMPTY_BOX_RULES)
    assert {c.floor for c in GRID} == {0.0, 0.5}
    assert {c.move_restock_beads for c in GRID} == {None, 1.0}
    assert replace(GRID[0], floor=0.0) in GRID


def test_every_copy_stops_at_the_bead_ceiling() -> None:
    """Near MAX_BEADS: the fast loop, the ledger and the JS copy stop where the owner does."""
    from menace_lib.base.limits import MAX_BEADS

    big = (1e6, 1e6, -1e6)
    config = MenaceConfig(schedule=(MAX_BEADS - 5e5,), reinforcement=big, restock="move")
    fast, fast_log, slow, slow_log = train_both(config, "random", 40, seed=1)
    assert_same_games(fast, fast_log, slow, slow_log)
    assert max(max(w) for w in fast.weights) == MAX_BEADS
    assert_ledger_matches(config, fast, fast_log)
    if NODE is None:
        pytest.skip("node is not installed; cannot run the JS copy")
    weights = [[MAX_BEADS - 1.0, 5.0]]
    run = {"weights": weights, "initial": weights, "refill": weights, "restock": "none"}
    out = js_run({"runs": [{**run, "floor": 0.0, "games": [[[[0, 0], [0, 1]], 1e6]]}]})
    owner = [list(w) for w in weights]
    change = beads.reinforce(owner, weights, weights, [(0, 0), (0, 1)], 1e6, "none", 0.0)
    # Each game: its change and its path's boxes after it (box 0, twice); then every box.
    assert out["runs"][0] == {"steps": [[change, [owner[0], owner[0]]]], "weights": owner}
    assert owner[0] == [MAX_BEADS, 5.0 + 1e6]


@pytest.mark.parametrize("restock", ["box", "move", "none"])
@pytest.mark.parametrize("player", [X, O])
def test_unsymmetrised_fast_loop_plays_as_the_generic_loop(restock: str, player: int) -> None:
    """The APL machine on the one engine (machine.run_games over its article_layout)
    plays as the generic loop with its own act: same games, same beads."""
    from menace_lib.agents.unsymmetrised import UnsymmetrisedConfig, UnsymmetrisedMenace

    config = UnsymmetrisedConfig(
        player=player, schedule=(2, 1, 1, 1), reinforcement=(3, 1, -2), restock=restock
    )
    for opponent in ("perfect", "random"):
        opp = make_opponent(opponent, "uniform")
        fast, slow = UnsymmetrisedMenace(config), UnsymmetrisedMenace(config)
        fast_log = fast.train_against(opp, 150, UniformStream(5))
        slow_log = play_games(slow, opp, 150, UniformStream(5))
        assert fast_log.results == slow_log.results
        assert fast_log.resigned == slow_log.resigned
        assert fast.weights == slow.weights
