"""The compiled matchbox engine (menace_lib.machine._kernel) plays as the plain engine.

Over the whole option grid -- three games, every restock mode and empty-box rule, clamp
level 0 and > 0, the move-restock count, both layouts, both sides, four reinforcement
triples and both credit rules -- the compiled engine must play the same games, leave the
same beads and totals to the bit, and leave the generator in the same state.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from menace_lib.games.results import Tally, counts_only
from menace_lib.machine import _kernel as machine_kernel
from menace_lib.machine import beads
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.opponents import make_opponent

pytestmark = pytest.mark.skipif(not machine_kernel.available(), reason="numba is not installed")

GAMES = ("noughts-and-crosses", "hexapawn", "connect4:4x3/3")
REINFORCEMENTS = [(3, 1, -1), (1, 0, -2), (3, 1, -3), (0.5, 0.25, -0.75)]


def option_grid() -> list[MenaceConfig]:
    grid = []
    for game, restock, floor, refill, layout, player, reinforcement, credit in itertools.product(
        GAMES,
        beads.RESTOCKS,
        (0.0, 0.5),
        (None, 1.0),
        ("square", "class"),
        (1, 2),
        REINFORCEMENTS,
        ("every", "last"),
    ):
        if refill is not None and restock != "move":
            continue
        for empty_box in beads.EMPTY_BOX_RULES if restock == "none" else ("resign",):
            grid.append(
                MenaceConfig(
                    game=game,
                    filter="michie" if game == "noughts-and-crosses" else "decision",
                    restock=restock,
                    floor=floor,
                    move_restock_beads=refill,
                    layout=layout,
                    player=player,
                    reinforcement=reinforcement,
                    empty_box=empty_box,
                    credit=credit,
                    schedule=(2, 1, 1, 1),  # few beads: boxes empty and restock often
                )
            )
    return grid


def play(config: MenaceConfig, compiled: str, monkeypatch, seed: int, learn: bool):
    monkeypatch.setenv("MENACE_LIB_COMPILED", compiled)
    agent = Menace(config)
    tie = "uniform"
    opponent = make_opponent("random" if seed % 2 else "perfect", tie, game=config.game)
    rng = np.random.default_rng(seed)
    player = agent if learn else agent.frozen_copy()
    log = player.train_against(opponent, 40, rng, record=False)
    return log, player.weights, rng.bit_generator.state


def test_compiled_engine_equals_the_plain_engine_over_the_whole_grid(monkeypatch):
    grid = option_grid()
    assert len(grid) == 1152
    for i, config in enumerate(grid):
        learn = i % 7 != 0
        plain = play(config, "0", monkeypatch, i, learn)
        fast = play(config, "1", monkeypatch, i, learn)
        where = f"config {i}: {config}"
        assert fast[0].results == plain[0].results, where
        assert fast[0].bead_totals == plain[0].bead_totals, where
        assert fast[0].resigned == plain[0].resigned, where
        assert fast[0].stopped_early == plain[0].stopped_early, where
        assert fast[1] == plain[1], where
        assert fast[2] == plain[2], where


def _boxes() -> list[list[float]]:
    """Boxes of every shape the draw meets: bead counts, exp-made weights, empty colours,
    an all-empty box, and sums that rounding can overshoot."""
    rng = np.random.default_rng(35)
    boxes = [[4.0, 3.0, 2.0, 1.0], [0.0, 5.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0], [0.1, 0.2, 0.3]]
    boxes += [list(np.exp(rng.normal(size=int(n)))) for n in rng.integers(1, 10, 60)]
    boxes += [list(rng.integers(0, 4, int(n)).astype(float)) for n in rng.integers(1, 10, 60)]
    return boxes


def test_both_kernels_draw_with_the_one_compiled_draw_as_the_owner_does():
    """The bead draw is written once for both kernels (machine._kernel's box_total and
    scan_colour); compiled and plain, it draws beads.draw_bead's colour for every box and
    every uniform, the end of [0, 1) included (where rounding runs past the last bead)."""
    from menace_lib.agents.aif import _kernel as aif_kernel

    machine_kernel._kernel()
    aif_kernel._kernel()
    compiled = machine_kernel.compiled_draw()
    assert machine_kernel._scan_colour is compiled["_scan_colour"]
    assert aif_kernel._scan_colour is compiled["_scan_colour"]  # one copy, not two
    assert aif_kernel._box_total is compiled["_box_total"]
    plain = (machine_kernel.box_total, machine_kernel.scan_colour)
    jitted = (compiled["_box_total"], compiled["_scan_colour"])
    us = [0.0, 0.25, 0.5, 0.999, 1 - 2**-53, *np.random.default_rng(3).random(40)]
    for box in _boxes():
        flat = np.array([7.0, *box, 7.0])  # a box inside a flat array, as the kernels hold it
        lo, hi = 1, 1 + len(box)
        for u in us:
            for total, scan in (plain, jitted):
                got = scan(flat, lo, hi, u * total(flat, lo, hi))
                assert got == beads.draw_bead(box, u), (box, u)


def test_the_grid_stops_resigns_and_restocks(monkeypatch):
    """The grid is not vacuous: runs stop early, games are resigned, boxes empty."""
    stopped = resigned = 0
    for config in option_grid()[:400]:
        if config.restock != "none":
            continue
        log = play(config, "1", monkeypatch, 3, True)[0]
        resigned += sum(log.resigned)
        stopped += log.stopped_early
    assert resigned > 0 and stopped > 0


def test_long_runs_use_the_compiled_engine_unless_told_not_to(monkeypatch):
    """By work, not board size: a long noughts-and-crosses run compiles, a short
    Connect-4 one does not; records or MENACE_LIB_COMPILED=0 keep Python."""
    monkeypatch.delenv("MENACE_LIB_COMPILED", raising=False)
    assert machine_kernel.wanted(10**7, 9, 5_478, record=False)
    assert not machine_kernel.wanted(10**7, 9, 5_478, record=True)
    assert not machine_kernel.wanted(500, 9, 5_478, record=False)
    assert not machine_kernel.wanted(500, 16, 161_029, record=False)
    monkeypatch.setenv("MENACE_LIB_COMPILED", "0")
    assert not machine_kernel.wanted(10**7, 9, 5_478, record=False)


def play_counting(config: MenaceConfig, compiled: str, monkeypatch, seed: int, learn: bool):
    with counts_only():
        return play(config, compiled, monkeypatch, seed, learn)


def _tally(column: Tally) -> tuple:
    return column.n, column.counts, column.last


def test_a_counts_only_compiled_run_keeps_the_plain_engines_counts(monkeypatch):
    """Inside counts_only the compiled engine keeps counts, not a list per game: the
    same counts and last values as the plain engine's, the same beads and generator."""
    grid = option_grid()[::9]
    for i, config in enumerate(grid):
        learn = i % 7 != 0
        plain = play_counting(config, "0", monkeypatch, i, learn)
        fast = play_counting(config, "1", monkeypatch, i, learn)
        listed = play(config, "1", monkeypatch, i, learn)
        where = f"config {i}: {config}"
        for name in ("results", "bead_totals", "resigned"):
            column = getattr(fast[0], name)
            assert isinstance(column, Tally), where
            assert _tally(column) == _tally(getattr(plain[0], name)), (name, where)
            kept = getattr(listed[0], name)
            if kept:
                assert column.last == kept[-1] and column.n == len(kept), where
        assert fast[0].counts() == listed[0].counts(), where
        assert fast[0].stopped_early == plain[0].stopped_early, where
        assert fast[1] == plain[1] == listed[1], where
        assert fast[2] == plain[2], where
