"""Benchmark: would a compiled kernel (numba) belong in the library?

Measures, in one process on this machine, for MENACE's training loop and for exact
evaluation: numba's import time, the kernel's compile time (first call, no cache), its
speed as a ratio to the library's own pure-Python/NumPy code measured alongside, and
whether it plays the same games (results and final beads to the bit) and gives the same
exact values (through :func:`menace_lib.base.reproducibility.same_numbers`).

The kernel here is a benchmark, not library code: it covers MENACE's default settings
only (box restock, floor 0, square layout, Michie's boxes, X), against any scripted
opponent. See docs/PERFORMANCE.md for the decision and the numbers.

    python benchmarks/bench_numba.py [--games 200000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np


def _import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout)


def _kernels():
    import numba

    @numba.njit(cache=False)
    def menace_loop(
        games, u_blocks, weights, lengths, initial, raw_box, nxt, n_next, result_of, delta
    ):
        block = u_blocks.shape[1]
        results = np.empty(games, dtype=np.int8)
        path_b = np.empty(9, dtype=np.int64)
        path_j = np.empty(9, dtype=np.int64)
        row, k = 0, 0
        u = u_blocks[0]
        for g in range(games):
            if k > block - 16:
                row += 1
                u = u_blocks[row]
                k = 0
            s, n = 0, 0
            while result_of[s] < 0:
                b = raw_box[s]
                if b >= 0:
                    m = lengths[b]
                    total = 0.0
                    for i in range(m):
                        total += weights[b, i]
                    t = u[k] * total
                    k += 1
                    if t <= 0.0 and total <= 0.0:
                        for i in range(m):
                            weights[b, i] = initial[b, i]
                        total = 0.0
                        for i in range(m):
                            total += weights[b, i]
                        t = u[k - 1] * total
                    j = 0
                    while j < m and t >= weights[b, j]:
                        t -= weights[b, j]
                        j += 1
                    if j == m:
                        j = m - 1
                        while weights[b, j] <= 0:
                            j -= 1
                    path_b[n], path_j[n] = b, j
                    n += 1
                    s = nxt[s, j]
                else:
                    c = n_next[s]
                    if c == 1:
                        s = nxt[s, 0]
                    else:
                        s = nxt[s, int(u[k] * c)]
                        k += 1
            r = result_of[s]
            d = delta[r]
            for i in range(n):
                b, j = path_b[i], path_j[i]
                new = weights[b, j] + d
                weights[b, j] = new if new > 0.0 else 0.0
            if d < 0:
                for i in range(n):
                    b = path_b[i]
                    total = 0.0
                    for x in range(lengths[b]):
                        total += weights[b, x]
                    if total <= 0.0:
                        for x in range(lengths[b]):
                            weights[b, x] = initial[b, x]
            results[g] = r
        return results

    @numba.njit(cache=False)
    def backward(w, V, ids, bounds, succ, resign):
        for r in range(len(ids)):  # rows deepest ply first: children before parents
            v0 = v1 = v2 = 0.0
            for p in range(bounds[r], bounds[r + 1]):
                x = succ[p]
                v0 += w[p] * V[x, 0]
                v1 += w[p] * V[x, 1]
                v2 += w[p] * V[x, 2]
            s = ids[r]
            if resign[s]:
                V[s, 0], V[s, 1], V[s, 2] = 0.0, 0.0, 1.0
            else:
                V[s, 0], V[s, 1], V[s, 2] = v0, v1, v2
        return V

    return numba, menace_loop, backward


def main() -> None:  # noqa: PLR0915 (one report)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    from menace_lib.machine.engine import BLOCK
    from menace_lib.machine.menace import Menace
    from menace_lib.play.opponents import make_opponent

    print(f"load average        {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"numba import        {_import_seconds('numba'):.2f} s (fresh process)")
    print(f"menace_lib import   {_import_seconds('menace_lib'):.2f} s (fresh process)")
    t0 = time.perf_counter()
    numba, menace_loop, backward = _kernels()
    print(f"numba version       {numba.__version__}")

    perfect = make_opponent("perfect")
    games = args.games

    def arrays(agent: Menace, opponent):
        n_boxes = len(agent.weights)
        W = np.zeros((n_boxes, 9))
        I = np.zeros((n_boxes, 9))
        lengths = np.array([len(w) for w in agent.weights], dtype=np.int64)
        for b, (w, i) in enumerate(zip(agent.weights, agent.initial, strict=True)):
            W[b, : len(w)] = w
            I[b, : len(i)] = i
        theirs = opponent.next_ids
        succ = [agent.raw_next[p] or theirs[p] for p in range(len(agent.raw_next))]
        nxt = np.zeros((len(succ), 9), dtype=np.int64)
        n_next = np.array([len(o) for o in succ], dtype=np.int64)
        for p, o in enumerate(succ):
            nxt[p, : len(o)] = o
        return W, I, lengths, np.array(agent.raw_box), nxt, n_next, np.array(agent.result)

    def uniforms(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        blocks = games // (BLOCK // 16) + 2  # at least 16 games per block: enough blocks
        return np.stack([rng.random(BLOCK) for _ in range(blocks)])

    agent = Menace()
    W, I, lengths, raw_box, nxt, n_next, result_of = arrays(agent, perfect)
    delta = np.array(agent.config.reinforcement, dtype=float)
    u = uniforms(0)
    t1 = time.perf_counter()
    menace_loop(10, u, W.copy(), lengths, I, raw_box, nxt, n_next, result_of, delta)
    compile_s = time.perf_counter() - t1
    print(f"kernel compile      {compile_s:.2f} s (first call; {t1 - t0:.2f} s to define)")

    # identical games: the kernel against the library's fast loop, same seed
    lib = Menace()
    log = lib.train_against(perfect, games, np.random.default_rng(0), record=False)
    Wk = W.copy()
    res = menace_loop(games, u, Wk, lengths, I, raw_box, nxt, n_next, result_of, delta)
    same_games = res.tolist() == log.results
    same_beads = all(Wk[b, : len(w)].tolist() == w for b, w in enumerate(lib.weights))
    print(f"same games          {same_games} ({games:,} games vs perfect)")
    print(f"same final beads    {same_beads}")

    def timed(fn) -> float:
        times = []
        for _ in range(args.repeats):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        return float(np.median(times))

    lib_s = timed(
        lambda: Menace().train_against(perfect, games, np.random.default_rng(0), record=False)
    )
    kern_s = timed(
        lambda: menace_loop(games, u, W.copy(), lengths, I, raw_box, nxt, n_next, result_of, delta)
    )
    print(f"library loop        {games / lib_s:,.0f} games/s (CPU)")
    print(
        f"numba kernel        {games / kern_s:,.0f} games/s (CPU), "
        f"{lib_s / kern_s:.1f}x the library"
    )
    _exact(backward, lib, perfect, timed)


def _exact(backward, agent, opponent, timed) -> None:
    """Exact evaluation: the library's against the kernel's backward pass (same plan)."""
    from menace_lib.base.reproducibility import same_numbers
    from menace_lib.play.evaluation import _plan, _terminal_values, exact_outcome

    plan = _plan(opponent, agent.player, True)
    ids = np.concatenate([layer[0] for layer in plan.layers])
    sizes = np.concatenate([np.diff(np.append(layer[1], len(layer[2]))) for layer in plan.layers])
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    cells = np.concatenate([layer[2] for layer in plan.layers])
    succ = np.concatenate([layer[3] for layer in plan.layers])

    def kernel() -> np.ndarray:
        P, _, resign = agent.policy_matrix()
        w = P.ravel().take(cells)
        w[plan.opponent_cells] = plan.opponent_weights
        V = _terminal_values(agent.player).copy()
        return backward(w, V, ids, bounds, succ, resign)[0]

    t = time.perf_counter()
    kernel()
    compile_s = time.perf_counter() - t
    lib = exact_outcome(agent, opponent)
    v = kernel()
    same = same_numbers(list(lib.values()), v.tolist())
    n = 200
    lib_s = timed(lambda: [exact_outcome(agent, opponent) for _ in range(n)]) / n
    pm_s = timed(lambda: [agent.policy_matrix() for _ in range(n)]) / n
    kern_s = timed(lambda: [kernel() for _ in range(n)]) / n
    print(f"exact: compile      {compile_s:.2f} s; same numbers {same}")
    print(f"exact: library      {lib_s * 1e3:.3f} ms (policy matrix {pm_s * 1e3:.3f} ms of it)")
    print(f"exact: numba        {kern_s * 1e3:.3f} ms ({lib_s / kern_s:.1f}x)")


if __name__ == "__main__":
    main()
