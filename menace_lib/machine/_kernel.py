"""The matchbox engine compiled with numba: a deliberate copy of :func:`machine.run_games`.

Why it exists: the plain engine plays about 200,000 noughts-and-crosses games a second,
which is as fast as Python goes, but a Connect-4 game is twice as long and a 4×4 board
has 33,167 boxes; issue 25 asks for at least 100,000 games a second there. numba
compiles this loop to machine code once per process (the compiled code is cached on
disk, see ``docs/PERFORMANCE.md``).

What it copies: the engine's move step, bead draw, empty-box rule, end-of-game update
(credit, clamp, move and box restock, bead ceiling) and its use of the generator (blocks
of :data:`~menace_lib.machine.engine.BLOCK` uniform numbers, refreshed between games). It plays
the same games and leaves the same beads to the bit; ``tests/test_machine_kernel.py``
checks it against :func:`menace_lib.machine.engine.run_games` over the whole option grid.

When it is used: :func:`menace_lib.machine.engine.run_games` calls :func:`run_compiled` when
numba is installed (``pip install menace_lib[fast]``), no per-game record is asked for,
and :func:`menace_lib.base.compiling.use_compiled` expects the run's work to pay for
numba's import and the kernel's load (or compile); ``MENACE_LIB_COMPILED=0/1`` forces
either path. Without numba everything runs in the plain engine, with the same numbers.

What it keeps: every game's result, bead total and resignation (a list each), or,
inside :func:`~menace_lib.games.results.counts_only`, their counts and last values
only, so a counts-only run of any length needs the same memory.
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from typing import Any

import numpy as np

from ..base.compiling import available, use_compiled
from ..games.game import Rows
from ..games.results import Tally

RESTOCKS = ("none", "move", "box")
RULES = ("resign", "stop", "web")

__all__ = [
    "available",
    "box_total",
    "compiled_draw",
    "layout_arrays",
    "run_compiled",
    "scan_colour",
    "wanted",
]


def wanted(games: int, plies: int, n_positions: int, record: bool) -> bool:
    """Whether :func:`machine.run_games` should use the compiled engine: never with
    per-game records, else as :func:`menace_lib.base.compiling.use_compiled` decides."""
    return not record and use_compiled("menace", games, plies, n_positions, _play_block)


@cache
def layout_arrays(layout: Any, opponent_next: Any) -> dict[str, np.ndarray]:
    """A box layout and an opponent's choices as flat integer arrays, built once per pair:
    what a compiled game loop reads (this engine's and the compiled AIF agents').

    Per raw position: its ``box`` (-1 if none), the ``result`` from the machine's side,
    whether it is the machine's ``opening`` move or one of its positions (``agent``), and
    its children, ``next_flat[next_start[p]:next_start[p + 1]]`` (the machine's colour
    order, or the opponent's choices). Per box: where its colours start in the flat bead
    array (``offsets``) and its canonical position (``box_state``). Read from the
    layout's and the opponent's arrays (:class:`~menace_lib.games.game.Rows`) in one
    vectorised pass, a few bytes a position: no per-position Python object is made.
    """
    opp = opponent_next if isinstance(opponent_next, Rows) else Rows.from_tuples(opponent_next)
    mine = layout.children
    own, theirs = mine.lengths(), opp.lengths()
    agent = own > 0
    starts = np.zeros(len(own) + 1, dtype=np.int64)
    np.cumsum(np.where(agent, own, theirs), out=starts[1:])
    flat = np.empty(int(starts[-1]), dtype=np.int32)
    for rows, use in ((mine, None), (opp, ~agent)):
        pos = rows.row_ids()
        at = starts[pos] + np.arange(len(pos), dtype=np.int64) - rows.start[pos]
        if use is None:
            flat[at] = rows.flat
        else:
            kept = use[pos]
            flat[at[kept]] = rows.flat[kept]
        del pos, at
    return {
        "box": layout.position_box,
        "result": layout.position_result,
        "opening": layout.position_opening,
        "agent": agent,
        "next_start": starts,
        "next_flat": flat,
        "offsets": layout.colours.start,
        "box_state": layout.box_state,
    }


def run_compiled(layout, beads, cfg, opponent_next, games, rng, learn, margin, block, keep=True):
    """Play like ``machine._loop`` with ``record=False``; returns its ``MachineLog`` fields.

    Returns
    -------
    tuple
        ``(results, totals, resigned, stopped_early)``: lists, or with ``keep=False``
        :class:`~menace_lib.games.results.Tally` counts (what ``machine._loop`` keeps
        inside ``counts_only``); the beads in ``beads.weights`` updated in place.
    """
    a = layout_arrays(layout, opponent_next)
    w = np.fromiter(chain.from_iterable(beads.weights), dtype=np.float64)
    init = np.fromiter(chain.from_iterable(beads.initial), dtype=np.float64)
    refill = np.fromiter(chain.from_iterable(beads.move_refill), dtype=np.float64)
    delta = np.asarray(cfg.reinforcement, dtype=np.float64)
    settings = np.array(
        [
            RESTOCKS.index(cfg.restock),
            RULES.index(cfg.empty_box),
            int(getattr(cfg, "credit", "every") == "last"),
            int(learn),
        ],
        dtype=np.int64,
    )
    kept = games if keep else 1  # counts only: a one-game ring holds the last game
    results = np.empty(kept, dtype=np.int64)
    totals = np.empty(kept, dtype=np.float64)
    resigned = np.zeros(kept, dtype=np.bool_)
    counts = np.zeros(4, dtype=np.int64)  # wins, draws, losses, resigned games
    total = float(sum(sum(x) for x in beads.weights))
    played, stopped = 0, False
    loop = _kernel()
    from ..base.limits import MAX_BEADS

    u = rng.random(block)
    k = 0
    while played < games and not stopped:
        if k > block - margin:
            u = rng.random(block)
            k = 0
        played, k, total, stopped = loop(
            a["box"], a["result"], a["opening"], a["next_start"], a["next_flat"],
            a["offsets"], w, init, refill, delta, float(cfg.floor), float(MAX_BEADS),
            settings, u, k, block - margin, games, played, total, results, totals, resigned,
            counts,
        )  # fmt: skip
    _write_back(beads.weights, w, a["offsets"])
    if keep:
        columns = (results[:played], totals[:played], resigned[:played])
        return (*(c.tolist() for c in columns), stopped)
    return (*_tallies(played, counts, results, totals, resigned), stopped)


def _tallies(played, counts, results, totals, resigned) -> tuple[Tally, Tally, Tally]:
    """The counts-only columns ``machine._loop`` keeps: results and resignations counted,
    bead totals' last value only."""
    out = (Tally(), Tally(distinct=False), Tally())
    if not played:
        return out
    out[0].counts = {r: int(counts[r]) for r in range(3) if counts[r]}
    gave_up = int(counts[3])
    out[2].counts = {v: k for v, k in ((False, played - gave_up), (True, gave_up)) if k}
    for tally, column in zip(out, (results, totals, resigned), strict=True):
        tally.n, tally.last = played, column[0].item()
    return out


def _write_back(weights: list[list[float]], flat: np.ndarray, offsets: np.ndarray) -> None:
    values = flat.tolist()
    for b, row in enumerate(weights):
        row[:] = values[offsets[b] : offsets[b + 1]]


# --- the bead draw, written once for both compiled kernels ------------------------------
# A compiled copy of :func:`menace_lib.machine.beads.draw_bead` on a flat bead array: this
# engine and the compiled Active Inference training (menace_lib.agents.aif._kernel) both
# call it. Each kernel's loop names it ``_box_total`` and ``_scan_colour``: the plain
# functions below until the kernel is compiled, their numba copies (:func:`compiled_draw`)
# after. numba's cache checks only the caller's file, so a change here must also touch
# agents/aif/_kernel.py (or clear numba's cache), or that kernel keeps the old draw.


def box_total(w, lo, hi):
    """The beads of the box ``w[lo:hi]``, added in order (as :func:`sum` in ``draw_bead``)."""
    total = 0.0
    for i in range(lo, hi):
        total += w[i]
    return total


def scan_colour(w, lo, hi, t):
    """The colour (0 to ``hi - lo - 1``) that the point ``t`` in ``[0, box_total)`` falls
    on, scanning in order; when rounding leaves ``t`` past the end, the last colour with
    beads, else 0 (:func:`menace_lib.machine.beads.scan_beads`)."""
    for i in range(lo, hi):
        if t < w[i]:
            return i - lo
        t -= w[i]
    last = 0
    for i in range(lo, hi):
        if w[i] > 0:
            last = i - lo
    return last


_box_total = box_total  # replaced by the compiled copies in _kernel()
_scan_colour = scan_colour


@cache
def compiled_draw() -> dict[str, Any]:
    """The draw's numba copies, compiled once for both kernels, by the names their loops call."""
    import numba

    jit = numba.njit(cache=True, nogil=True)
    return {"_box_total": jit(box_total), "_scan_colour": jit(scan_colour)}


@cache
def _kernel():
    """Compile the loop on first use (numba is imported only here)."""
    import numba

    globals().update(compiled_draw())
    return numba.njit(cache=True, nogil=True)(_play_block)


def _play_block(  # noqa: C901, PLR0912, PLR0913, PLR0915 (one hot loop, mirrors machine._loop)
    box, result, opening, next_start, next_flat, offsets, w, init, refill, delta,
    floor, max_beads, settings, u, k, last_k, games, played, total, results, totals, resigned,
    counts,
):  # fmt: skip
    """Play games until the uniform block runs low, the games are done or a run stops.

    Game ``g`` is written at ``g % len(results)`` (every game, or a one-game ring for
    a counts-only run) and counted in ``counts`` (wins, draws, losses, resignations).
    Returns ``(played, k, total, stopped)``.
    """
    ring = len(results)
    restock, rule, last_only, learn = settings[0], settings[1], settings[2], settings[3]
    path_b = np.empty(256, dtype=np.int64)
    path_j = np.empty(256, dtype=np.int64)
    while played < games and k <= last_k:
        s = 0
        n = 0
        gave_up = False
        stop = False
        r = result[s]
        while r < 0:
            b = box[s]
            if b >= 0:
                lo, hi = offsets[b], offsets[b + 1]
                wsum = _box_total(w, lo, hi)
                t = u[k] * wsum
                k += 1
                if t <= 0.0 and wsum <= 0:
                    if restock == 0:
                        stop = rule == 1 or (rule == 2 and opening[s])
                        gave_up = True
                        r = 2  # LOSS
                        break
                    isum = _box_total(init, lo, hi)
                    total += isum - wsum
                    for i in range(lo, hi):
                        w[i] = init[i]
                    t = u[k - 1] * isum
                j = _scan_colour(w, lo, hi, t)
                path_b[n] = b
                path_j[n] = j
                n += 1
                s = next_flat[next_start[s] + j]
            else:
                m = next_start[s + 1] - next_start[s]
                if m == 1:
                    s = next_flat[next_start[s]]
                else:
                    s = next_flat[next_start[s] + int(u[k] * m)]
                    k += 1
            r = result[s] if not gave_up else r
        if stop:
            return played, k, total, True
        if learn and n > 0:
            d = delta[r]
            first = n - 1 if last_only else 0
            for q in range(first, n):
                i = offsets[path_b[q]] + path_j[q]
                old = w[i]
                new = old + d
                if new <= floor:
                    new = refill[i] if restock == 1 else floor
                elif new > max_beads:
                    new = max_beads
                w[i] = new
                total += new - old
            if restock == 2 and d < 0:
                for q in range(first, n):
                    lo, hi = offsets[path_b[q]], offsets[path_b[q] + 1]
                    wsum = _box_total(w, lo, hi)
                    if wsum <= 0:
                        isum = _box_total(init, lo, hi)
                        total += isum - wsum
                        for i in range(lo, hi):
                            w[i] = init[i]
        at = played % ring
        results[at] = r
        totals[at] = total
        resigned[at] = gave_up
        counts[r] += 1
        counts[3] += gave_up
        played += 1
    return played, k, total, False
