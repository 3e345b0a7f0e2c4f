"""The tree agents' training compiled with numba: a deliberate copy of three owners.

Why it exists: a Hybrid or Instrumental AIF agent spends about 90 % of a training game
learning -- counting the opponent's moves, refreshing the values of the tree above them
and writing the softmax of ``G`` into the boxes it visited -- in per-node Python
(issue 29 asks for at least 2.5 times the plain speed). Compiled, that work costs about
as much as playing the game.

What it copies, game for game: the one matchbox machine's move step and game loop with
the generic loop's draws (:func:`menace_lib.machine.engine.run_games_with_hook`; numba's
``Generator`` gives the same numbers as NumPy's for ``random()`` and
``integers(0, n)``), the agent's reading of the opponent's moves
(``ActiveInferenceAgent._count_slots``), the counts' update
(:meth:`~menace_lib.agents.aif.GenerativeModel.count_moves`), the incremental refresh
(:meth:`~menace_lib.agents.aif.GenerativeModel.refresh`, with ``d`` and ``A`` brought up to
date at once, as :meth:`~menace_lib.agents.aif.GenerativeModel.ensure_outcomes` would) and
the box writes (:func:`~menace_lib.agents.aif.policy.softmax_rows`).

What it may change: integers (games, moves, counts) are the owners' to the bit. The
boxes' beads agree within the reproducibility contract (:mod:`menace_lib.base.reproducibility`),
not always to the bit: ``exp`` is the C library's here and NumPy's SIMD kernel in the
owners (they differ in the last bit for about one number in twenty). The information
gain's digamma below 10 comes from a table of the owners' values for the
counts a run can reach from its prior (``alpha + n``, and totals that are multiples of
one half), else from the owners' memo itself (a call back to Python), so the model's
values are the owners' to the bit. A changed last bit of a bead changes the bead drawn
with a chance of about ``2**-52`` (see :func:`menace_lib.machine.beads.draw_bead`).
``tests/test_aif_kernel.py`` checks games, counts, values and boxes against the owners
over the option grid.

When it is used: :meth:`~menace_lib.agents.aif.MatchboxAIF.train_against` calls
:func:`train_compiled` when numba is installed (``pip install menace_lib[fast]``), no
per-game record or trace is kept, :func:`menace_lib.base.compiling.use_compiled` expects
the run's work to pay for numba's import and the kernel's load or compile (a short run
would not), and the agent is a plain Instrumental/Hybrid agent with the code's readings
(uniform policy prior, summed epistemic term, fixed λ). ``MENACE_LIB_COMPILED=0/1``
forces either path. Inside :func:`~menace_lib.games.results.counts_only` the kernel
counts the results instead of keeping one per game, so memory stays flat.
"""

from __future__ import annotations

import gc
import math
from functools import cache
from itertools import chain
from typing import Any

import numpy as np

from ...base.compiling import use_compiled
from ...base.limits import MAX_BEADS
from ...games.results import Tally, counting
from ...machine._kernel import box_total, compiled_draw, layout_arrays, scan_colour
from ...maths.dirichlet import digamma_gap
from .model import digamma_gap_memo as model_gap
from .tree import canonical_tree, game_lists

SERIES_FROM = 10.0  # digamma_gap's asymptotic series starts here (menace_lib.maths.dirichlet)
SERIES = (-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132, 691 / 32760, -1 / 12)

NODE_VALUES = ("R", "E", "G", "A", "D0", "D1", "D2", "mi")
MOVE_VALUES = ("alpha", "weights", "gapped")

__all__ = ["train_compiled", "wanted"]

numba: Any = None  # the module, set when the kernel is first compiled (numba is optional)


def wanted(agent: Any, games: int, record: bool) -> bool:
    """Whether ``agent.train_against`` should use the compiled training: never with
    records, a trace or readings the kernel does not copy, else as
    :func:`menace_lib.base.compiling.use_compiled` decides from the work."""
    if record or agent.trace is not None or not agent.supports_compiled():
        return False
    T = agent.menace.box_layout.tables
    return use_compiled("aif", games, int(T.ply.max()), T.n_positions, _train)


@cache
def _tree_arrays(game: str, player: int) -> dict[str, Any]:
    """The canonical tree and the raw moves' count slots as flat arrays (once per pair)."""
    tree, L = canonical_tree(game), game_lists(game)
    n = L.n_positions
    ch_len = np.fromiter((len(k) for k in tree.children), dtype=np.int64, count=n)
    ch_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(ch_len, out=ch_start[1:])
    pa_len = np.fromiter((len(p) for p in tree.parents), dtype=np.int64, count=n)
    pa_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(pa_len, out=pa_start[1:])
    succ = np.array(L.succ_lists, dtype=np.int64)
    canon = np.array(L.canon_list, dtype=np.int64)
    # slot_of[pid, m]: the index of move m's canonical move among its canonical moves
    slot_of = np.full(succ.shape, -1, dtype=np.int64)
    canon_moves = np.array(L.canon_square_lists, dtype=np.int64)
    for pid in np.flatnonzero((succ >= 0).any(axis=1)).tolist():
        moves = tree.moves[canon[pid]]
        index = {mv: i for i, mv in enumerate(moves)}
        for m in np.flatnonzero(succ[pid] >= 0).tolist():
            slot_of[pid, m] = index[int(canon_moves[pid, m])]
    ply = np.array(tree.ply, dtype=np.int64)
    ids = np.array(tree.ids, dtype=np.int64)
    per_ply = np.bincount(ply[ids], minlength=int(ply.max()) + 1)
    level_start = np.zeros(len(per_ply) + 1, dtype=np.int64)
    np.cumsum(per_ply, out=level_start[1:])
    return {
        "ch_start": ch_start,
        "ch_flat": np.fromiter(chain.from_iterable(tree.children), np.int64, int(ch_start[-1])),
        "pa_start": pa_start,
        "pa_flat": np.fromiter(chain.from_iterable(tree.parents), np.int64, int(pa_start[-1])),
        "ply": ply,
        "succ": succ,
        "canon": canon,
        "slot_of": slot_of,
        "level_start": level_start,
    }


def _gap_table(alpha0: float) -> tuple[np.ndarray, np.ndarray]:
    """The owners' digamma gaps below :data:`SERIES_FROM` for the values a run reaches."""
    xs = {0.5 * m for m in range(1, 20)}
    a = alpha0
    while a < SERIES_FROM:
        xs.add(a)
        a = a + 1.0
    keys = np.array(sorted(xs), dtype=np.float64)
    return keys, np.array([digamma_gap(float(x)) for x in keys], dtype=np.float64)


def train_compiled(agent: Any, opponent_next: tuple, games: int, rng: np.random.Generator):
    """Train ``agent`` (see :func:`wanted`) for ``games`` games; returns the results
    (a list, or inside :func:`~menace_lib.games.results.counts_only` their counts).

    The agent's boxes, counts and values are brought up to date afterwards, as the
    owners would have left them.
    """
    gc_was_on = gc.isenabled()
    gc.disable()  # the many small lists made and dropped here would trigger needless passes
    try:
        return _train_compiled(agent, opponent_next, games, rng)
    finally:
        if gc_was_on:
            gc.enable()


def _train_compiled(agent: Any, opponent_next: tuple, games: int, rng: np.random.Generator):
    model, menace = agent.model, agent.menace
    values = model.snapshot()  # d and A up to date: the kernel keeps them so
    t = _tree_arrays(model.game, model.player)
    lay = layout_arrays(menace.box_layout, opponent_next)
    per_node = {k: np.array(values[k], dtype=np.float64) for k in NODE_VALUES}
    best = np.array(values["best"], dtype=np.int64)
    counted = np.array([bool(row) for row in values["alpha"]])  # the opponent nodes
    in_rows = np.repeat(counted, np.diff(t["ch_start"]))  # their cells of the flat arrays
    per_move = {k: _flat(values[k], in_rows) for k in MOVE_VALUES}
    alpha_before = per_move["alpha"].copy()
    beads = np.fromiter(chain.from_iterable(menace.weights), dtype=np.float64)
    initial = np.fromiter(chain.from_iterable(menace.initial), dtype=np.float64)
    gap_x, gap_v = _gap_table(agent.config.opponent_alpha)
    cfg = agent.config
    settings = np.array(
        [model.beta_tree, model.lam_tree, cfg.lambda_policy, cfg.bead_scale, float(MAX_BEADS)]
    )
    flags = np.array([0 if model.player == 1 else 1, int(not agent.frozen)], dtype=np.int64)
    keep = not counting()
    results = np.empty(games if keep else 1, dtype=np.int64)  # counts only: the last game
    counts = np.zeros(3, dtype=np.int64)
    v, m = per_node, per_move
    _kernel()(
        rng, games, lay["box"], lay["result"], lay["agent"], lay["next_start"],
        lay["next_flat"], lay["offsets"], lay["box_state"], beads, initial,
        t["ch_start"], t["ch_flat"], t["pa_start"], t["pa_flat"], t["ply"],
        t["level_start"], t["succ"], t["canon"], t["slot_of"],
        v["R"], v["E"], v["G"], v["A"], v["D0"], v["D1"], v["D2"], best, v["mi"],
        m["alpha"], m["weights"], m["gapped"], gap_x, gap_v, settings, flags, results,
        counts,
    )  # fmt: skip
    back: dict = {k: a.tolist() for k, a in per_node.items()}
    back["best"] = best.tolist()
    cells = np.flatnonzero(per_move["alpha"] != alpha_before)
    nodes = np.unique(np.searchsorted(t["ch_start"], cells, side="right") - 1).tolist()
    starts = t["ch_start"]
    for k, a in per_move.items():  # the rows of the nodes whose counts changed
        back[k] = {c: a[starts[c] : starts[c + 1]].tolist() for c in nodes}
    model.restore(back)
    flat = beads.tolist()
    offsets = lay["offsets"].tolist()
    for b, row in enumerate(menace.weights):
        row[:] = flat[offsets[b] : offsets[b + 1]]
    if keep:
        return results.tolist()
    tally = Tally()
    tally.counts = {value: k for value, k in enumerate(counts.tolist()) if k}
    tally.n, tally.last = games, (int(results[0]) if games else None)
    return tally


def _flat(rows: list[list[float]], in_rows: np.ndarray) -> np.ndarray:
    """The opponent nodes' rows laid out on the tree's flat child arrays (zeros elsewhere)."""
    out = np.zeros(len(in_rows), dtype=np.float64)
    out[in_rows] = np.fromiter(chain.from_iterable(rows), dtype=np.float64)
    return out


_box_total = box_total  # the machine kernel's draw; compiled in _kernel()
_scan_colour = scan_colour


@cache
def _kernel():
    """Compile the training on first use (numba is imported only here)."""
    import numba

    jit = numba.njit(cache=True)
    globals()["numba"] = numba  # for _gap's call back to the owner (objmode)
    globals()["_series"] = jit(_series)
    helpers = {
        "_gap": jit(_gap),
        "_entropy3": jit(_entropy3),
        "_row_sum": jit(_row_sum),
    }
    globals().update(helpers)
    globals().update(compiled_draw())  # the bead draw, one copy for both kernels
    return jit(_train)


def _series(x):
    """``digamma_gap(x)`` for ``x >= 10``: the owners' series, operation for operation."""
    u = 1.0 / (x * x)
    tail = 0.0
    tail = (tail + -1 / 12) * u
    tail = (tail + 691 / 32760) * u
    tail = (tail + -1 / 132) * u
    tail = (tail + 1 / 240) * u
    tail = (tail + -1 / 252) * u
    tail = (tail + 1 / 120) * u
    tail = (tail + -1 / 12) * u
    return 0.5 / x + tail


def _gap(x, gap_x, gap_v):
    """``digamma_gap(x)``: the owners' series at 10 and above, their values below."""
    if x >= 10.0:
        return _series(x)
    i = np.searchsorted(gap_x, x)
    if i < len(gap_x) and gap_x[i] == x:
        return gap_v[i]
    with numba.objmode(value="float64"):  # a count the table lacks: the owner's value
        value = _owner_gap(x)
    return value


def _owner_gap(x: float) -> float:
    return model_gap(float(x))


def _entropy3(d0, d1, d2):
    h = 0.0
    if d0 > 1e-12:
        h -= d0 * math.log(d0)
    if d1 > 1e-12:
        h -= d1 * math.log(d1)
    if d2 > 1e-12:
        h -= d2 * math.log(d2)
    return h


def _row_sum(w, lo, hi):
    """NumPy's sum of ``w[lo:hi]`` (pairwise with eight partial sums from 8 numbers on,
    as :func:`menace_lib.agents.aif.policy.numpy_sum`)."""
    n = hi - lo
    if n < 8:
        total = 0.0
        for i in range(lo, hi):
            total += w[i]
        return total
    r = np.empty(8)
    for j in range(8):
        r[j] = w[lo + j]
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += w[lo + i + j]
        i += 8
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for k in range(lo + i, hi):
        total += w[k]
    return total


def _train(  # noqa: C901, PLR0912, PLR0913, PLR0915 (one hot loop, mirrors the owners)
    rng, games, box, result, agent, next_start, next_flat, offsets, box_state, beads, initial,
    ch_start, ch_flat, pa_start, pa_flat, ply, level_start, succ, canon, slot_of,
    R, E, G, A, D0, D1, D2, best, mi, alpha, wts, gapped, gap_x, gap_v,
    settings, flags, results, counts,
):  # fmt: skip
    beta, lam, temperature, scale, max_beads = (
        settings[0], settings[1], settings[2], settings[3], settings[4],
    )  # fmt: skip
    agent_parity, learn = flags[0], flags[1]
    lean = beta == 0.0
    bh = beta * 0.0
    top = len(level_start) - 2
    n = len(R)
    NOT_IN, OPEN, RESCAN = -3, -2, -1  # mark: absent, an opponent node, rescan
    mark = np.full(n, NOT_IN, dtype=np.int64)
    level_fill = np.zeros(top + 1, dtype=np.int64)
    level_nodes = np.empty(level_start[-1], dtype=np.int64)
    path_s = np.empty(512, dtype=np.int64)  # the agent's positions
    path_b = np.empty(512, dtype=np.int64)  # their boxes (-1: none)
    path_after = np.empty(512, dtype=np.int64)  # the position each move led to
    slots_c = np.empty(512, dtype=np.int64)
    slots_i = np.empty(512, dtype=np.int64)
    logits = np.empty(64, dtype=np.float64)
    for game in range(games):
        # --- play: machine._hook_loop ---------------------------------------------
        s = 0
        k = 0
        r = result[s]
        while r < 0:
            lo = next_start[s]
            width = next_start[s + 1] - lo
            b = box[s]
            if b >= 0:
                u = rng.random()
                blo, bhi = offsets[b], offsets[b + 1]
                total = _box_total(beads, blo, bhi)
                if total <= 0:
                    for i in range(blo, bhi):
                        beads[i] = initial[i]
                    total = _box_total(beads, blo, bhi)
                j = _scan_colour(beads, blo, bhi, u * total)  # machine._kernel's draw
            elif width == 1:
                j = 0
            else:
                j = rng.integers(0, width)
            nxt = next_flat[lo + j]
            if b >= 0 or agent[s]:
                path_s[k] = s
                path_b[k] = b
                path_after[k] = nxt
                k += 1
            s = nxt
            r = result[s]
        results[game % len(results)] = r  # every game, or a one-game ring (counts only)
        counts[r] += 1
        if not learn:
            continue
        # --- the opponent's moves: ActiveInferenceAgent._count_slots ----------------
        m_slots = 0
        for q in range(k):
            before = path_after[q]
            if result[before] >= 0:
                break
            after = path_s[q + 1] if q + 1 < k else s
            found = -1
            for mv in range(succ.shape[1]):
                if succ[before, mv] == after:
                    found = mv
                    break
            if found < 0:
                raise ValueError("a move of the game is not a move of the tree")
            slots_c[m_slots] = canon[before]
            slots_i[m_slots] = slot_of[before, found]
            m_slots += 1
        # --- GenerativeModel.count_moves ------------------------------------------------
        for q in range(m_slots):
            c = slots_c[q]
            lo, hi = ch_start[c], ch_start[c + 1]
            i = lo + slots_i[q]
            a = alpha[i] + 1.0
            if a > max_beads:
                a = max_beads
            alpha[i] = a
            total = 0.0
            for x in range(lo, hi):
                total += alpha[x]
            for x in range(lo, hi):
                wts[x] = alpha[x] / total
            gapped[i] = a * _gap(a, gap_x, gap_v)
            if hi - lo < 2:
                mi[c] = 0.0
            else:
                weighted = 0.0
                for x in range(lo, hi):
                    weighted += gapped[x]
                mi[c] = max(weighted / total - _gap(total, gap_x, gap_v), 0.0)
            if mark[c] == NOT_IN:
                p = ply[c]
                level_nodes[level_start[p] + level_fill[p]] = c
                level_fill[p] += 1
            mark[c] = OPEN
        # --- GenerativeModel.refresh (d and A kept up to date) --------------------------
        for p in range(top, -1, -1):
            count = level_fill[p]
            if count == 0:
                continue
            base = level_start[p]
            if p % 2 == agent_parity:  # agent nodes copy their best child
                for x in range(base, base + count):
                    c = level_nodes[x]
                    choice = mark[c]
                    if choice == RESCAN:
                        choice = ch_flat[ch_start[c]]
                        low = G[choice]
                        for y in range(ch_start[c], ch_start[c + 1]):
                            kk = ch_flat[y]
                            if G[kk] < low:
                                choice = kk
                                low = G[kk]
                    best[c] = choice
                    R[c] = R[choice]
                    E[c] = E[choice]
                    G[c] = G[choice]
                    A[c] = A[choice]
                    D0[c] = D0[choice]
                    D1[c] = D1[choice]
                    D2[c] = D2[choice]
                    mark[c] = NOT_IN
                    if p > 0:
                        for y in range(pa_start[c], pa_start[c + 1]):
                            qn = pa_flat[y]
                            if mark[qn] == NOT_IN:
                                pp = p - 1
                                level_nodes[level_start[pp] + level_fill[pp]] = qn
                                level_fill[pp] += 1
                            mark[qn] = OPEN
                level_fill[p] = 0
                continue
            for x in range(base, base + count):
                c = level_nodes[x]
                mark[c] = NOT_IN
                rr = 0.0
                ee = 0.0
                d0 = 0.0
                d1 = 0.0
                d2 = 0.0
                for y in range(ch_start[c], ch_start[c + 1]):
                    w = wts[y]
                    kk = ch_flat[y]
                    rr += w * R[kk]
                    ee += w * E[kk]
                    d0 += w * D0[kk]
                    d1 += w * D1[kk]
                    d2 += w * D2[kk]
                h = _entropy3(d0, d1, d2)
                A[c] = h
                D0[c] = d0
                D1[c] = d1
                D2[c] = d2
                ee += mi[c]
                g = rr + bh - lam * ee if lean else rr + beta * h - lam * ee
                R[c] = rr
                E[c] = ee
                G[c] = g
                if p == 0:
                    continue
                for y in range(pa_start[c], pa_start[c + 1]):
                    qn = pa_flat[y]
                    bq = best[qn]
                    if c != bq and g > G[bq]:
                        continue
                    choice = mark[qn]
                    if choice == RESCAN:
                        continue
                    if c == bq:
                        if choice == NOT_IN:
                            pp = p - 1
                            level_nodes[level_start[pp] + level_fill[pp]] = qn
                            level_fill[pp] += 1
                        mark[qn] = RESCAN
                        continue
                    if choice == NOT_IN:
                        choice = bq
                    replace = g < G[choice]
                    if not replace and g == G[choice]:
                        ic = -1
                        ib = -1
                        for z in range(ch_start[qn], ch_start[qn + 1]):
                            if ic < 0 and ch_flat[z] == c:
                                ic = z
                            if ib < 0 and ch_flat[z] == choice:
                                ib = z
                        replace = ic < ib
                    if replace:
                        if mark[qn] == NOT_IN:
                            pp = p - 1
                            level_nodes[level_start[pp] + level_fill[pp]] = qn
                            level_fill[pp] += 1
                        mark[qn] = c
            level_fill[p] = 0
        # --- the visited boxes' new beads: softmax_rows -------------------------------------
        for q in range(k):
            b = path_b[q]
            if b < 0:
                continue
            seen = False
            for z in range(q):
                if path_b[z] == b:
                    seen = True
                    break
            if seen:
                continue
            c = box_state[b]
            lo, hi = ch_start[c], ch_start[c + 1]
            low = G[ch_flat[lo]]
            for y in range(lo, hi):
                if G[ch_flat[y]] < low:
                    low = G[ch_flat[y]]
            for y in range(lo, hi):
                logits[y - lo] = math.exp((low - G[ch_flat[y]]) / temperature)
            total = _row_sum(logits, 0, hi - lo)
            blo = offsets[b]
            for y in range(hi - lo):
                beads[blo + y] = logits[y] / total * scale
    return games
