"""Benchmarks for the speed targets (``python -m menace_lib bench``).

Timings are wall-clock medians of a few repeats on one core; they are measured
here and never asserted in unit tests. On a shared, loaded machine the wall
clock counts time spent waiting for a core, so the Active Inference figure is
also given in CPU time (``time.process_time``), which a busy neighbour inflates
much less.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np


def _best_of(fn, repeats: int = 5, clock=time.perf_counter) -> float:
    """Median seconds of ``repeats`` calls of ``fn`` by ``clock``."""
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return float(np.median(times))


AIF_GAMES = 5_000
"""Games of each Hybrid AIF timing run of :func:`run_benchmarks` (fewer if its ``games`` is)."""
TD_GAMES = 5_000
"""Games of each Q-learning and SARSA timing run (fewer if ``games`` is)."""
CONNECT4_GAMES = 20_000
"""Games of the compiled Connect-4 4×4 timing run, a tenth of them for the plain engine
(fewer if ``games`` is)."""


def run_benchmarks(games: int = 200_000) -> dict[str, float]:
    """Measure import time, table build, training speed of MENACE, Hybrid AIF (in Python
    and compiled) and the TD learners, exact evaluation and the policy KL.

    Each fast path is also given as a ratio to its own plain counterpart measured in
    the same process just before or after it (``*_ratio``: how many times faster),
    which a busy machine distorts far less than the raw figures.

    ``games`` is the MENACE timing run's length and caps the other timing runs: Hybrid
    AIF (:data:`AIF_GAMES`), Q-learning and SARSA (:data:`TD_GAMES`) and Connect-4
    (:data:`CONNECT4_GAMES`) train ``min(their size, games)`` games, so a short run
    (``--games 1000``, a quick look) is short throughout; the default and any ``games``
    above those sizes measure them at full size. What does not scale with games (the
    import and table builds, exact evaluations, the policy KL, the noisy observers, the
    layouts' bytes, numba's compile or load) is measured whatever ``games`` is.
    """
    from ..games.statespace import build_tables, tables
    from ..machine.menace import Menace
    from ..play.evaluation import exact_outcome
    from ..play.opponents import make_opponent
    from ..play.training import train

    probe = (
        "import time; t = time.perf_counter(); import menace_lib; print(time.perf_counter() - t)"
    )
    import_s = float(
        subprocess.run(
            [sys.executable, "-c", probe], check=True, capture_output=True, text=True
        ).stdout
    )
    cold_probe = (
        "import time; t = time.perf_counter(); import menace_lib.games.statespace as s; "
        "s.tables(); print(time.perf_counter() - t)"
    )
    cold_s = float(
        subprocess.run(
            [sys.executable, "-c", cold_probe], check=True, capture_output=True, text=True
        ).stdout
    )

    build_s = _best_of(build_tables, 3)
    tables()
    perfect = make_opponent("perfect")

    def train_perfect() -> None:
        Menace().train_against(perfect, games, np.random.default_rng(0), record=False)

    def plain_perfect() -> None:
        plain_loop(Menace(), perfect, games, np.random.default_rng(0))

    train_s = _best_of(train_perfect, 3)
    plain_s = _best_of(plain_perfect, 3)
    agent = Menace()
    train(agent, "mixed", 500, np.random.default_rng(0))
    exact_s = _best_of(lambda: exact_outcome(agent, perfect), 20)

    def thesis_run() -> None:
        train(Menace(), "mixed", 500, np.random.default_rng(0))

    thesis_s = _best_of(thesis_run, 5)
    aif_games = min(AIF_GAMES, games)
    aif_training_run(min(200, games))  # warm the shared caches (game tables, model, digamma memo)
    aif_s = _best_of(lambda: aif_training_run(aif_games), 3)
    aif_cpu_s = _best_of(lambda: aif_training_run(aif_games), 3, clock=time.process_time)
    aif_plain_s = _best_of(
        lambda: aif_training_run(aif_games, plain=True), 3, clock=time.process_time
    )
    return {
        "load_average": os.getloadavg()[0],
        "import_s": import_s,
        "cold_tables_s": cold_s,
        "build_tables_s": build_s,
        "menace_games_per_s": games / train_s,
        "plain_loop_games_per_s": games / plain_s,
        "menace_to_plain_ratio": plain_s / train_s,
        "exact_eval_ms": exact_s * 1000,
        "menace_500_mixed_s": thesis_s,
        "aif_games_per_s": aif_games / aif_s,
        "aif_games_per_s_cpu": aif_games / aif_cpu_s,
        "aif_to_plain_ratio": aif_plain_s / aif_cpu_s,
        **aif_engine_figures(aif_games, aif_plain_s),
        **_exact_figures(agent, perfect),
        **_td_figures(min(TD_GAMES, games)),
        **_policy_kl_figures(),
        **noisy_figures(agent),
        **connect4_figures(games=min(CONNECT4_GAMES, games)),
        **layout_figures(),
    }


_LAYOUT_CHILD = (
    "import json, sys, tracemalloc\n"
    "from menace_lib.games.registry import game_tables\n"
    "from menace_lib.machine.engine import box_layout\n"
    "from menace_lib.play.opponents import make_opponent\n"
    "game = sys.argv[1]\n"
    "T = game_tables(game)\n"
    "tracemalloc.start()\n"
    "lay = box_layout(game, 'decision', 'square', 1)\n"
    "opp = make_opponent('perfect', 'uniform', game=game)\n"
    "nxt = opp.next_ids\n"
    "arrays = tracemalloc.get_traced_memory()[0]\n"
    "views = (lay.states, lay.box_of, lay.members, lay.box_ply, lay.raw_box, lay.result,\n"
    "         lay.opening, lay.raw_moves.tuples, lay.raw_next.tuples, lay.entries.tuples,\n"
    "         opp.choices.tuples, nxt.tuples)\n"
    "tuples = tracemalloc.get_traced_memory()[0] - arrays\n"
    "print(json.dumps([T.n_positions, arrays, tuples, lay.nbytes()]))\n"
)


def layout_figures(game: str = "connect4:4x4") -> dict[str, float]:
    """Bytes a position of a matchbox layout and a scripted opponent (the perfect player),
    measured with ``tracemalloc`` in a fresh process, the game's tables built first.

    ``layout_bytes_per_position``: the layout's and the opponent's arrays (what the
    compiled engine reads); ``layout_tuples_bytes_per_position``: the per-position tuples
    the Python loop reads, built from them on demand (the form every layout kept before
    issue 40); ``layout_tuples_to_arrays_ratio``: how many times more the tuples take.
    """
    done = subprocess.run(
        [sys.executable, "-c", _LAYOUT_CHILD, game], check=True, capture_output=True, text=True
    )
    n, arrays, tuples, own = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "layout_positions": n,
        "layout_bytes_per_position": arrays / n,
        "layout_own_arrays_bytes_per_position": own / n,
        "layout_tuples_bytes_per_position": tuples / n,
        "layout_tuples_to_arrays_ratio": tuples / arrays,
    }


def connect4_figures(
    width: int = 4, height: int = 4, games: int = CONNECT4_GAMES
) -> dict[str, float]:
    """Connect-4 on a small board: building its tables, training MENACE, exact evaluation.

    Training is given for the plain engine and, when numba is installed, the compiled one
    (``connect4_compiled_to_plain_ratio``); the tables are built from scratch, not read
    from the disk cache. ``python -m menace_lib bench --json`` reports them for 4×4.
    """
    from ..games.connect4 import ConnectFour, build_tables
    from ..machine import _kernel as machine_kernel
    from ..machine.menace import Menace, MenaceConfig
    from ..play.evaluation import exact_outcome
    from ..play.opponents import make_opponent

    game = ConnectFour(width, height)
    build_s = _best_of(lambda: build_tables(game), 1, clock=time.process_time)
    config = MenaceConfig(game=game.name, filter="decision")
    perfect = make_opponent("perfect", "uniform", game=game.name)
    agent = Menace(config)
    agent.train_against(perfect, 10, np.random.default_rng(0), record=False)

    def train(mode: str, n: int) -> float:
        os.environ["MENACE_LIB_COMPILED"] = mode
        try:
            m = Menace(config)
            rng = np.random.default_rng(0)
            return (
                _best_of(
                    lambda: m.train_against(perfect, n, rng, record=False),
                    3,
                    clock=time.process_time,
                )
                / n
            )
        finally:
            os.environ.pop("MENACE_LIB_COMPILED", None)

    label = f"connect4_{width}x{height}"
    out = {
        f"{label}_build_tables_s": build_s,
        f"{label}_plain_games_per_s": 1 / train("0", max(1, games // 10)),
        f"{label}_exact_eval_ms": 1000
        * _best_of(lambda: exact_outcome(agent.frozen_copy(), perfect), 5, clock=time.process_time),
    }
    if machine_kernel.available():
        train("1", min(100, games))  # compile (or load the compiled kernel from numba's cache)
        out[f"{label}_compiled_games_per_s"] = 1 / train("1", games)
        out[f"{label}_compiled_to_plain_ratio"] = (
            out[f"{label}_compiled_games_per_s"] / out[f"{label}_plain_games_per_s"]
        )
    return out


def _exact_figures(agent, opponent) -> dict[str, float]:
    """Exact evaluation against its plain pass (every position, nine squares each)."""
    from ..play.evaluation import dense_values, exact_outcome

    clock = time.process_time
    fast = _best_of(lambda: [exact_outcome(agent, opponent) for _ in range(50)], 5, clock) / 50
    plain = _best_of(lambda: [dense_values(agent, opponent)[0] for _ in range(50)], 5, clock) / 50
    out = {"exact_eval_cpu_ms": fast * 1000}
    return {**out, "exact_eval_plain_ms": plain * 1000, "exact_to_plain_ratio": plain / fast}


def noisy_figures(agent, eps: float = 0.1) -> dict[str, float]:
    """Seconds of one exact evaluation through noisy eyes (all 19,683 readings, then the
    pass), per observer, for ``agent`` (:mod:`menace_lib.agents.noisy`): the first call
    of each, which builds the observer's tables, and the best of later ones."""
    from ..agents import noisy

    policy = noisy.menace_policy(agent)
    out = {}
    for observer in noisy.OBSERVERS:
        t = time.perf_counter()
        noisy.noisy_outcome(policy, eps, observer)
        out[f"noisy_{observer}_first_s"] = time.perf_counter() - t
        out[f"noisy_{observer}_s"] = _best_of(
            lambda o=observer: noisy.noisy_outcome(policy, eps, o), 3
        )
    return out


def _td_figures(games: int = TD_GAMES) -> dict[str, float]:
    """Q-learning and SARSA against the random player: the fast loop and the generic one."""
    from ..agents.registry import agent_kinds
    from ..play.loop import play_games
    from ..play.opponents import make_opponent

    opponent = make_opponent("random")
    out = {}
    td = [(name, kind.agent) for name, kind in agent_kinds().items() if kind.family == "td"]
    for name, cls in td:

        def fast(cls=cls) -> None:
            cls().train_against(opponent, games, np.random.default_rng(0), record=False)

        def plain(cls=cls) -> None:
            play_games(cls(), opponent, games, np.random.default_rng(0), record=False)

        fast_s = _best_of(fast, 3, clock=time.process_time)
        plain_s = _best_of(plain, 3, clock=time.process_time)
        out[f"{name}_games_per_s_cpu"] = games / fast_s
        out[f"{name}_to_plain_ratio"] = plain_s / fast_s
    return out


def _policy_kl_figures() -> dict[str, float]:
    """The policy KL of a trained Hybrid AIF: one matrix call against one call per state."""
    from ..agents.aif import HybridAIF
    from ..games.statespace import tables
    from ..play.evaluation import kl_to_reference, policy_kl
    from ..play.opponents import make_opponent

    agent = HybridAIF()
    agent.train_against(make_opponent("perfect"), 200, np.random.default_rng(0), record=False)
    states = tables().player_states(agent.player)

    def per_state() -> dict[int, float]:
        return {int(s): kl_to_reference(int(s), agent.canonical_policy(int(s))) for s in states}

    fast = _best_of(lambda: policy_kl(agent), 5)
    plain = _best_of(per_state, 3)
    return {"policy_kl_ms": fast * 1000, "policy_kl_to_plain_ratio": plain / fast}


def aif_training_run(games: int, *, plain: bool = False) -> None:
    """A fresh Hybrid AIF trains against the perfect player (``aif_games_per_s``).

    The settings of the thesis suite's Hybrid row (Table 9.1, with
    :data:`~menace_lib.experiments.suite.AIF_DEFAULTS`): λ = 0.5, softmax
    temperature 0.25, 40 beads per box, preferences (0.60, 0.35, 0.05), a
    uniform opponent prior of 1, the code's cross-entropy risk and summed
    epistemic term, playing X with Michie's boxes, against the perfect player
    (lowest-square tie-break), through the agent's fast training loop without
    per-game records (``plain=True``: through :func:`menace_lib.play.loop.play_games`,
    the generic loop, the yardstick of ``aif_to_plain_ratio``).
    """
    from ..agents.aif import AIFConfig, HybridAIF
    from ..play.opponents import make_opponent

    config = AIFConfig(lam=0.5, lambda_policy=0.25, bead_scale=40.0, opponent_alpha=1.0)
    agent = HybridAIF(config)
    if plain:
        from ..play.loop import play_games

        play_games(agent, make_opponent("perfect"), games, np.random.default_rng(0), record=False)
        return
    agent.train_against(make_opponent("perfect"), games, np.random.default_rng(0), record=False)


def aif_engine_figures(games: int, plain_s: float | None = None) -> dict[str, float]:
    """Hybrid AIF training before and after its compiled copy, in one run (CPU time).

    ``aif_python_*`` is the agent on the one matchbox machine in Python (its path
    before the compiled copy, and today's without the ``[fast]`` extra or for a run too
    short to pay for compiling, :mod:`menace_lib.base.compiling`), ``aif_compiled_*`` the
    compiled copy (:mod:`menace_lib.agents.aif._kernel`, when numba is installed). Both are
    also given as ratios to the generic loop (:func:`menace_lib.play.loop.play_games`),
    measured here unless ``plain_s`` (its seconds for ``games`` games) is given, and
    ``aif_compiled_to_python_ratio`` is the speed-up (issue 29 asks for 2.5).
    """
    from ..machine._kernel import available

    clock = time.process_time
    if plain_s is None:
        plain_s = _best_of(lambda: aif_training_run(games, plain=True), 3, clock=clock)

    def run(mode: str) -> float:
        os.environ["MENACE_LIB_COMPILED"] = mode
        try:
            return _best_of(lambda: aif_training_run(games), 3, clock=clock)
        finally:
            os.environ.pop("MENACE_LIB_COMPILED", None)

    python_s = run("0")
    out = {
        "aif_python_games_per_s_cpu": games / python_s,
        "aif_python_to_plain_ratio": plain_s / python_s,
    }
    if available():
        run("1")  # compile, or load the compiled code from numba's cache
        compiled_s = run("1")
        out["aif_compiled_games_per_s_cpu"] = games / compiled_s
        out["aif_compiled_to_plain_ratio"] = plain_s / compiled_s
        out["aif_compiled_to_python_ratio"] = python_s / compiled_s
    return out


def plain_loop(agent, opponent, games: int, rng: np.random.Generator) -> list[int]:
    """The yardstick for MENACE's fast path: a plain table-driven loop, no records.

    What a careful programmer writes first: per game, walk the position tables,
    draw a bead by scanning the box, then add the reinforcement to every drawn
    bead, clamp at 0 and refill a box that empties. It keeps only the results.
    """
    from ..machine.engine import BLOCK

    box, result, nxt_agent = agent.raw_box, agent.result, agent.raw_next
    nxt_opp = opponent.next_ids
    weights, initial = agent.weights, agent.initial
    delta = agent.config.reinforcement
    results = []
    u = rng.random(BLOCK).tolist()
    k = 0
    for _ in range(games):
        if k > BLOCK - 16:
            u, k = rng.random(BLOCK).tolist(), 0
        s, path = 0, []
        while result[s] < 0:
            b = box[s]
            if b >= 0:
                w = weights[b]
                t = u[k] * sum(w)
                k += 1
                j = 0
                while t >= w[j]:
                    t -= w[j]
                    j += 1
                path.append((b, j))
                s = nxt_agent[s][j]
            else:
                options = nxt_agent[s] or nxt_opp[s]
                if len(options) > 1:
                    s = options[int(u[k] * len(options))]
                    k += 1
                else:
                    s = options[0]
        d = delta[result[s]]
        for b, j in path:
            w = weights[b]
            w[j] = max(w[j] + d, 0.0)
            if d < 0 and max(w) <= 0:
                w[:] = initial[b]
        results.append(result[s])
    return results


# --- the thesis's computational figures (§8.8) ------------------------------------------

THESIS_FIGURES = {
    "train_500_s": 0.5,
    "suite_s": 120.0,
    "sweep_s": 1800.0,
    "memory_mb": 100.0,
}
"""Thesis §8.8: ~0.5 s per 500-game run, ~2 min for the suite, ~30 min for a sweep, < 100 MB."""


def _figure_kinds() -> dict[str, tuple[str, dict, str]]:
    """Kind -> (kind, settings, regimen) of its timed 500-game run (the registry's
    ``benchmark``)."""
    from ..agents.registry import agent_kinds

    return {
        name: (name, dict(kind.benchmark[0]), kind.benchmark[1])
        for name, kind in agent_kinds().items()
        if kind.benchmark is not None
    }


def _agent_memory_mb(kind: str) -> dict[str, float]:
    """Memory of one agent trained for 500 games, measured in a fresh process.

    ``agent_mb`` is the peak of Python allocations (``tracemalloc``) while the agent is
    built and trained, after the shared game tables exist: the agent's own footprint.
    ``process_mb`` is the whole process's peak resident memory (interpreter, numpy,
    the tables and their enumeration included).
    """
    code = (
        "import json, resource, sys, tracemalloc\n"
        "import numpy as np\n"
        "from menace_lib.experiments import make_agent\n"
        "from menace_lib.games.statespace import tables\n"
        "from menace_lib.play.training import train\n"
        "tables()\n"
        "kind, params, regimen = json.loads(sys.argv[1])\n"
        "tracemalloc.start()\n"
        "agent = make_agent(kind, **params)\n"
        "train(agent, regimen, 500, np.random.default_rng(0))\n"
        "peak = tracemalloc.get_traced_memory()[1]\n"
        "try:\n"  # VmHWM: this program's peak (ru_maxrss would include the forking parent's)
        "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    rss_kb = int(status.split()[0])\n"
        "except (OSError, IndexError):\n"
        "    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps([peak, rss_kb]))\n"
    )
    spec = json.dumps(list(_figure_kinds()[kind]))
    out = subprocess.run([sys.executable, "-c", code, spec], check=True, capture_output=True)
    peak, rss_kb = json.loads(out.stdout)
    return {"agent_mb": peak / 2**20, "process_mb": rss_kb / 1024}


MEMORY_GAMES = (10_000, 1_000_000, 10_000_000)
"""Game counts of the flat-memory figures (issue 40: the last within 10 % of the first)."""
MEMORY_BOARDS = ("noughts-and-crosses", "connect4:4x4")
PATHS = {"python": "0", "compiled": "1", "auto": ""}
"""Path label -> ``MENACE_LIB_COMPILED`` (``auto``: :mod:`menace_lib.base.compiling` decides)."""

_MEMORY_CHILD = (
    "import json, resource, sys, time\n"
    "import numpy as np\n"
    "from menace_lib.machine.menace import Menace, MenaceConfig\n"
    "from menace_lib.play.training import train\n"
    "game, games, record = sys.argv[1], int(sys.argv[2]), sys.argv[3] == '1'\n"
    "nc = game == 'noughts-and-crosses'\n"
    "config = MenaceConfig() if nc else MenaceConfig(game=game, filter='decision')\n"
    "train(Menace(config), 'mixed' if nc else 'perfect', games, np.random.default_rng(0), "
    "record=record)\n"
    "try:\n"  # VmHWM: this program's own peak
    "    kb = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
    "except (OSError, IndexError):\n"
    "    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(json.dumps([kb, time.process_time(), 'numba' in sys.modules]))\n"
)


def training_memory_mb(
    games: int,
    record: bool = False,
    game: str = "noughts-and-crosses",
    path: str = "auto",
    python: str | None = None,
    pythonpath: str | None = None,
) -> dict[str, float | bool]:
    """Peak resident memory of a fresh process that trains MENACE for ``games`` games.

    Noughts and crosses trains on the mixed curriculum, other games against their
    perfect player; the log keeps counts (``record=False``) or every game. ``path``
    forces the Python or the compiled engine (:data:`PATHS`). ``pythonpath`` runs
    another checkout of the library (a baseline, for before-and-after figures).

    Returns ``peak_mb`` (the child's peak resident set), ``cpu_s`` (its CPU time,
    start-up and table build included) and ``numba`` (whether it imported numba).
    """
    env = dict(os.environ)
    env["MENACE_LIB_COMPILED"] = PATHS[path]
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [python or sys.executable, "-c", _MEMORY_CHILD, game, str(games), "1" if record else "0"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    kb, cpu, numba = json.loads(out.stdout.strip().splitlines()[-1])
    return {"peak_mb": kb / 1024, "cpu_s": cpu, "numba": numba}


def memory_figures(
    counts: tuple[int, ...] = MEMORY_GAMES,
    boards: tuple[str, ...] = MEMORY_BOARDS,
    paths: tuple[str, ...] = ("python", "compiled"),
    pythonpath: str | None = None,
) -> dict[str, dict]:
    """Counts-only training memory per board, path and number of games (fresh processes).

    Per board and path: ``peak_mb`` and ``cpu_s`` at each count, and
    ``last_to_first_ratio``, the peak at the largest count over the peak at the
    smallest (flat memory: within 1.1). A path's fixed costs (numba's own ~70 MB for
    the compiled one) do not grow with the games, so paths are compared with
    themselves. The compiled path is skipped when numba is not installed.
    """
    from ..base.compiling import available

    out: dict[str, dict] = {"load_average_before": {"1min": os.getloadavg()[0]}}
    for board in boards:
        for path in paths:
            if path == "compiled" and not available():
                continue
            row = {f"{n:.0e}": training_memory_mb(n, False, board, path, None, pythonpath)
                   for n in counts}  # fmt: skip
            first, last = row[f"{counts[0]:.0e}"], row[f"{counts[-1]:.0e}"]
            row["last_to_first_ratio"] = last["peak_mb"] / first["peak_mb"]
            out[f"{board} {path}"] = row
    out["load_average_after"] = {"1min": os.getloadavg()[0]}
    return out


SOLVE_BOARDS = ("5x4",)
"""Boards :func:`solve_figures` measures by default (``bench --solve 5x5,6x4`` for the big
ones: minutes and a few GB each)."""

_SOLVE_CHILD = (
    "import json, resource, sys, time\n"
    "from menace_lib.games.connect4 import ConnectFour\n"
    "from menace_lib.games.connect4_solve import solve\n"
    "w, h = map(int, sys.argv[1].split('x'))\n"
    "s = solve(ConnectFour(w, h))\n"
    "try:\n"
    "    kb = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
    "except (OSError, IndexError):\n"
    "    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "print(json.dumps([s.n_positions, s.start_value(), s.bytes_per_position(), kb, "
    "time.process_time(), s.positions_by_ply()]))\n"
)


def solve_figures(boards: tuple[str, ...] = SOLVE_BOARDS) -> dict[str, dict]:
    """Lean solving of Connect-4 boards (:mod:`menace_lib.games.connect4_solve`), one
    fresh process a board.

    Per board: ``positions`` and whether they equal the published count
    (``published_positions``), the ``start_value`` (+1 first player wins, 0 draw),
    ``bytes_per_position`` of the solution, the process's ``peak_mb`` and ``cpu_s``
    (import and enumeration included), and the positions by ply.
    """
    from ..games.connect4_solve import KNOWN_POSITIONS

    out: dict[str, dict] = {"load_average_before": {"1min": os.getloadavg()[0]}}
    for board in boards:
        done = subprocess.run(
            [sys.executable, "-c", _SOLVE_CHILD, board], check=True, capture_output=True, text=True
        )
        n, start, bpp, kb, cpu, by_ply = json.loads(done.stdout.strip().splitlines()[-1])
        w, h = map(int, board.split("x"))
        out[board] = {
            "positions": n,
            "published_positions": KNOWN_POSITIONS.get((w, h), "none"),
            "start_value": start,
            "bytes_per_position": bpp,
            "peak_mb": kb / 1024,
            "cpu_s": cpu,
            "positions_by_ply": " ".join(map(str, by_ply)),
        }
    out["load_average_after"] = {"1min": os.getloadavg()[0]}
    return out


_WHOLE_CHILD = (
    "import json, sys, time\n"
    "import numpy as np\n"
    "def mark(phases, name, t0):\n"
    "    s = open('/proc/self/status').read()\n"
    "    rss = int(s.split('VmRSS:')[1].split()[0]) / 1024\n"
    "    phases[name] = {'cpu_s': time.process_time() - t0, 'rss_mb': rss}\n"
    "    return time.process_time()\n"
    "board, games = sys.argv[1], int(sys.argv[2])\n"
    "phases = {}\n"
    "t = time.process_time()\n"
    "from menace_lib.games.connect4_solve import against_perfect\n"
    "from menace_lib.games.registry import game_tables\n"
    "from menace_lib.machine.menace import Menace, MenaceConfig\n"
    "from menace_lib.play.evaluation import exact_outcome\n"
    "from menace_lib.play.opponents import make_opponent\n"
    "t = mark(phases, 'import', t)\n"
    "name = against_perfect(board)\n"
    "t = mark(phases, 'solve', t)\n"
    "T = game_tables(name)\n"
    "t = mark(phases, 'tables', t)\n"
    "perfect = make_opponent('perfect', 'uniform', game=name)\n"
    "agent = Menace(MenaceConfig(game=name, filter='decision'))\n"
    "t = mark(phases, 'perfect player and MENACE', t)\n"
    "agent.train_against(perfect, games, np.random.default_rng(0), record=False)\n"
    "t = mark(phases, 'training', t)\n"
    "out = exact_outcome(agent, perfect)\n"
    "t = mark(phases, 'first exact evaluation', t)\n"
    "kb = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
    "print(json.dumps([T.n_positions, agent.n_boxes, out, phases, kb, time.process_time()]))\n"
)


def whole_run_figures(board: str = "5x4", games: int = 300_000) -> dict:
    """One whole Connect-4 run against the perfect player in a fresh process with an empty
    table cache: solve the board, build the game against the perfect player, make the
    perfect player and MENACE, train ``games`` games, evaluate exactly once.

    Returns the ``peak_mb`` (``VmHWM``) and ``cpu_s`` of the whole process (interpreter
    start-up excluded), each phase's CPU seconds and resident memory after it, and the
    positions, boxes and the exact outcome.
    """
    import tempfile

    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, MENACE_LIB_CACHE=cache)
        done = subprocess.run(
            [sys.executable, "-c", _WHOLE_CHILD, board, str(games)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
    n, boxes, exact, phases, kb, cpu = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "load_average_before": {"1min": before},
        board: {
            "positions": n,
            "boxes": boxes,
            "games": games,
            "exact_draw": exact["draw"],
            "exact_loss": exact["loss"],
            "peak_mb": kb / 1024,
            "cpu_s": cpu,
            "phases": phases,
        },
        "load_average_after": {"1min": os.getloadavg()[0]},
    }


def thesis_figures(suite: bool = True, repeats: int = 3) -> dict:
    """This machine's figures for the thesis's §8.8 computational requirements.

    Per agent kind: median seconds of a 500-game training run (MENACE on the mixed
    curriculum, the Active Inference agents against the perfect player, Q-learning
    and SARSA against the random one) and its memory (:func:`_agent_memory_mb`); and,
    with ``suite=True``, the wall clock of the whole thesis suite (10 seeds) and of
    the λ sweep on all cores. Timings vary between machines and with load; they are
    measured, never asserted.
    """
    import os

    from ..base.progress import steps
    from ..play.training import train
    from . import LAMBDA_SUITE, THESIS_SUITE, make_agent, run_suite

    train_s = {}
    figure_kinds = _figure_kinds()
    kinds = steps(figure_kinds.items(), "timing 500-game runs", unit="kind")
    for kind, (agent_kind, params, regimen) in kinds:

        def run(agent_kind=agent_kind, params=params, regimen=regimen) -> None:
            train(make_agent(agent_kind, **params), regimen, 500, np.random.default_rng(0))

        run()  # warm caches (game tables, lookups) before timing
        train_s[kind] = _best_of(run, repeats)
    out = {
        "cores": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "train_500_s": train_s,
        "memory_mb": {kind: _agent_memory_mb(kind) for kind in figure_kinds},
    }
    out["training_memory"] = memory_figures()  # 10^7 games per board and path: minutes
    out["training_memory_records"] = {
        f"{games:.0e} games, records": training_memory_mb(games, True, path="python")
        for games in (10_000, 100_000)
    }
    out["compile_thresholds"] = compile_thresholds()
    if suite:
        for name, conditions in (("suite_s", THESIS_SUITE), ("sweep_s", LAMBDA_SUITE)):
            t0 = time.perf_counter()
            run_suite(conditions, seeds=10, cache=False)
            out[name] = time.perf_counter() - t0
        timings = {}
        for jobs in (2, 1):
            t0 = time.perf_counter()
            run_suite(THESIS_SUITE, seeds=10, n_jobs=jobs, cache=False)
            timings[jobs] = time.perf_counter() - t0
        out["suite_jobs2_s"] = timings[2]
        out["suite_sequential_s"] = timings[1]
        out["suite_jobs2_to_sequential_ratio"] = timings[1] / timings[2]
    out["load_average_after"] = os.getloadavg()[0]
    return out


# --- when compiling pays (menace_lib.base.compiling) ------------------------------------

THRESHOLD_RUNS = (
    ("menace", "noughts-and-crosses"),
    ("menace", "connect4:4x4"),
    ("aif", "noughts-and-crosses"),
    ("aif", "connect4:4x4"),
)


def compile_thresholds() -> dict[str, dict]:
    """The compile decision's break-even runs, from the owner's written-down constants.

    Per kernel and board: the fewest games for which the compiled path is expected to
    be cheaper, with numba's cache present and absent
    (:func:`menace_lib.base.compiling.break_even_games`). :func:`compile_costs`
    measures the constants themselves.
    """
    from ..base.compiling import break_even_games
    from ..games.registry import game_tables

    out = {}
    for kernel, board in THRESHOLD_RUNS:
        T = game_tables(board)
        plies, positions = int(T.ply.max()), T.n_positions
        out[f"{kernel} {board}"] = {
            "cached": break_even_games(kernel, plies, positions, True),
            "not_cached": break_even_games(kernel, plies, positions, False),
        }
    return out


def compile_costs() -> dict[str, dict]:
    """Measure the compile decision's constants (CPU seconds, fresh processes).

    ``import_s``: ``import numba``. Per kernel: ``compile_s`` (first use with an empty
    cache, a temporary ``NUMBA_CACHE_DIR``), ``load_s`` (first use with that cache
    filled), ``python_us`` and ``compiled_us`` (per game and ply of the longest game,
    noughts and crosses; also on Connect-4 4×4, ``c4_*``), and ``setup_us``
    (a compiled run's first use of a game, per position). Compare them with
    :data:`menace_lib.base.compiling.COSTS`, the values the decision reads.
    """
    import tempfile

    def child(what: str, cache_dir: str) -> dict:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
        env.pop("MENACE_LIB_COMPILED", None)
        code = f"from menace_lib.experiments.bench import _cost_probe; _cost_probe({what!r})"
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    out: dict[str, dict] = {"load_average": {"before": os.getloadavg()[0]}}
    with tempfile.TemporaryDirectory() as empty:
        out["numba"] = child("import", empty)
        for kernel in ("menace", "aif"):
            first = child(kernel, empty)  # compiles into the empty cache
            again = child(kernel, empty)  # loads it
            out[kernel] = {**again, "compile_s": first["first_s"], "load_s": again["first_s"]}
            del out[kernel]["first_s"]
    out["load_average"]["after"] = os.getloadavg()[0]
    return out


def _cost_probe(what: str) -> None:  # noqa: PLR0915 (one measurement script)
    """One fresh process of :func:`compile_costs`: prints its figures as JSON."""
    clock = time.process_time
    if what == "import":
        t0 = clock()
        import numba  # noqa: F401

        print(json.dumps({"import_s": clock() - t0}))
        return
    import numba  # noqa: F401,F811  (imported before the kernel's first use is timed)

    from ..games.registry import game_tables
    from ..machine.menace import Menace, MenaceConfig
    from ..play.opponents import make_opponent

    def per_ply(run, games: int, board: str) -> float:
        t0 = clock()
        run(games)
        return (clock() - t0) / games / int(game_tables(board).ply.max()) * 1e6

    def mode(flag: str):
        os.environ["MENACE_LIB_COMPILED"] = flag

    out = {}
    if what == "menace":
        nc = "noughts-and-crosses"
        perfect = make_opponent("perfect")
        agent = Menace()

        def run(n: int, agent=agent, opponent=perfect) -> None:
            agent.train_against(opponent, n, np.random.default_rng(n), record=False)

        from ..machine._kernel import layout_arrays

        layout_arrays(agent.box_layout, perfect.next_ids)  # outside the timing
        mode("1")
        t0 = clock()
        run(1)
        out["first_s"] = clock() - t0
        out["compiled_us"] = per_ply(run, 1_000_000, nc)
        mode("0")
        out["python_us"] = per_ply(run, 100_000, nc)
        c4 = "connect4:4x4"
        config = MenaceConfig(game=c4, filter="decision")
        c4_agent, c4_perfect = Menace(config), make_opponent("perfect", "uniform", game=c4)

        def run4(n: int) -> None:
            c4_agent.train_against(c4_perfect, n, np.random.default_rng(n), record=False)

        mode("1")
        t0 = clock()
        run4(1)  # the first compiled run of this game: its flat arrays
        out["setup_us"] = (clock() - t0) / game_tables(c4).n_positions * 1e6
        out["c4_compiled_us"] = per_ply(run4, 200_000, c4)
        mode("0")
        out["c4_python_us"] = per_ply(run4, 20_000, c4)
    else:
        from ..agents.aif import AIFConfig, HybridAIF, InstrumentalAIF

        config = AIFConfig(lam=0.5, lambda_policy=0.25, bead_scale=40.0, opponent_alpha=1.0)

        def aif_run(n: int, board: str = "noughts-and-crosses") -> float:
            """The bench's Hybrid agent on noughts and crosses, else the Instrumental
            agent with the scaling chapter's boxes (first player, decision positions)."""
            nc = board == "noughts-and-crosses"
            agent = HybridAIF(config) if nc else InstrumentalAIF(game=board, filter="decision")
            opponent = make_opponent("perfect", "uniform", game=board)
            t0 = clock()  # the agent is built on both paths: only its training is timed
            agent.train_against(opponent, n, np.random.default_rng(n), record=False)
            return clock() - t0

        def aif_per_ply(n: int) -> float:
            return aif_run(n) / n / int(game_tables("noughts-and-crosses").ply.max()) * 1e6

        mode("1")
        out["first_s"] = aif_run(1, "hexapawn")  # the kernel's first use, on a small game
        setup = aif_run(1)  # noughts and crosses' first compiled run: its tree's flat arrays
        out["setup_us"] = setup / game_tables("noughts-and-crosses").n_positions * 1e6
        out["compiled_us"] = aif_per_ply(50_000)
        mode("0")
        out["python_us"] = aif_per_ply(5_000)
        c4 = "connect4:4x4"
        plies = int(game_tables(c4).ply.max())
        mode("1")
        aif_run(1, c4)  # its tree's flat arrays, outside the timing
        out["c4_compiled_us"] = aif_run(10_000, c4) / 10_000 / plies * 1e6
        mode("0")
        out["c4_python_us"] = aif_run(500, c4) / 500 / plies * 1e6
    print(json.dumps(out))
