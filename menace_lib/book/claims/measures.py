"""The measures of the claims ledger: a small registry of code, one function per kind of check.

The claims themselves are data (``catalogue.json``, read by :mod:`.catalogue`); each
names its measure here by its key in :data:`MEASURES`. A measure reads
:class:`~.evidence.Evidence` and returns :class:`~.ledger.Measured`. A *factory*
(:data:`FACTORIES`) takes the record's ``args`` first (a count's field, a table row's
key, ...) and returns the measure.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from functools import cache

import numpy as np

from ...agents.registry import agent_kinds, get_kind
from ...agents.rl import epsilon_after
from ...base.confidence import paired_ci
from ...experiments import THESIS_SUITE, Protocol, make_agent, select
from ...experiments.suite import RL_DEFAULTS
from ...experiments.sweep import SweepResult
from ...games import statespace
from ...games.connect4 import TABLE_FIELDS, ConnectFour, cached_tables, positions_by_pieces
from ...games.game import FIRST_WIN, SECOND_WIN
from ...games.statespace import ONGOING, tables
from ...machine.menace import Menace, MenaceConfig
from ...maths.dirichlet import dirichlet_variance
from ...maths.efe import DEFAULT_PREFERENCES, worked_example
from ...play.opponents import regimen_blocks
from ...play.training import train
from .. import correspondence as corr
from . import findings, stats
from .ledger import Link, Measured


class _ScipyStats:
    """:mod:`scipy.stats`, imported on first use (it takes seconds; the book's pages that
    only read the committed ledger never need it)."""

    def __getattr__(self, name: str):
        from scipy import stats as module

        return getattr(module, name)


sps = _ScipyStats()

__all__ = ["CHANCE_LINK", "FACTORIES", "MEASURES"]

ER = "empirical_results"
SCALING_FILE = "beyond_scaling.json"
"""The scaling chapter's sweep, in the results folder."""
SCALING_SIZES_FILE = "beyond_scaling_open.json"
SOLVED_FILE = "connect4_solved.json"
"""Lean solutions of 5×5 and 6×4 (``python -m menace_lib bench --solve 5x5,6x4``)."""
FIVE_FILE = "connect4_5x5_menace.json"
"""MENACE trained on 5×5 against the perfect player (``experiment scaling-5x5``)."""
"""The scaling chapter's machine sizes and first-visit runs, in the results folder."""
CHANCE_LINK = Link(ER, "er-seed-counts", "Empirical results: forty seeds")
"""Where the book explains differences that ten seeds produce by chance."""


def _pm(mean: float, sd: float, digits: int = 1) -> str:
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f} %"


# --- Chapter 4: the state space ----------------------------------------------------------


def _count(field: str) -> Callable:
    def measure(ev) -> Measured:
        value = int(statespace.summary()[field])
        return Measured(value, f"{value:,}")

    return measure


def _boxes(filter: str) -> Callable:
    def measure(ev) -> Measured:
        value = len(tables().matchbox_states(filter))
        return Measured(value, f"{value}")

    return measure


def _double_threats(ev) -> Measured:
    value = len(statespace.double_threats(tables()))
    return Measured(value, f"{value}")


def _boxes_from_thousands(ev) -> Measured:
    T = tables()
    raw = int(np.sum((T.outcome == ONGOING) & (T.player == T.player[0])))
    boxes = len(T.matchbox_states("michie"))
    return Measured(raw >= 1000 and boxes == 287, f"{raw:,} X-to-move positions → {boxes} boxes")


def _reinforcement(ev) -> Measured:
    value = tuple(int(x) for x in MenaceConfig().reinforcement)
    return Measured(value, "(+{}, +{}, {})".format(*value))


def _schedule(ev) -> Measured:
    agent = Menace()
    T = tables()
    by_ply = {}
    for box, s in enumerate(agent.states):
        by_ply.setdefault(int(T.ply[s]), set()).update(agent.initial[box])
    value = tuple(int(v) for ply in sorted(by_ply) for v in sorted(by_ply[ply]))
    return Measured(
        value, "-".join(str(v) for v in value) + " beads per colour at plies 0, 2, 4, 6"
    )


# --- Chapter 5: the correspondence -------------------------------------------------------


@cache
def _trained_opening_box() -> Menace:
    """A MENACE after the thesis's 500-game curriculum (seed 2026), as in the book."""
    agent = Menace()
    train(agent, "mixed", 500, np.random.default_rng(2026))
    return agent


def _probability_matching(ev) -> Measured:
    agent = _trained_opening_box()
    beads = np.array(agent.weights[0])
    rng = np.random.default_rng(1)
    draws = np.array([agent.choose(0, rng)[0] for _ in range(20_000)])
    observed = np.bincount(draws, minlength=9)
    live = beads > 0
    test = sps.chisquare(observed[live], beads[live] / beads.sum() * draws.size)
    gap = np.abs(observed / draws.size - beads / beads.sum()).max()
    return Measured(
        float(test.pvalue),
        f"largest gap {gap:.4f} over 20,000 draws",
        f"χ² goodness of fit p = {test.pvalue:.2f}",
    )


def _thompson_decisive(ev) -> Measured:
    beads = np.array(_trained_opening_box().weights[0])
    ts = corr.thompson_choice_probabilities(beads, 20_000, np.random.default_rng(3))
    pm = beads / beads.sum()
    top = int(np.argmax(beads))
    return Measured(
        ts[top] > pm[top],
        f"leading move: Thompson {ts[top]:.2f}, matching {pm[top]:.2f}",
        f"trained opening box, {int(beads.sum())} beads",
    )


def _parameters(ev) -> Measured:
    agent = Menace()
    colours = sum(len(w) for w in agent.initial)
    return Measured(
        colours <= agent.n_boxes * 9,
        f"{colours:,} bead counts in {agent.n_boxes} boxes (≤ {agent.n_boxes} × 9)",
    )


def _regret(ev) -> Measured:
    s = findings.regret_slopes(ev)
    ts = s["value-thompson"]
    falling = ts["ratio_last"] < ts["ratio_first"]
    return Measured(
        falling,
        f"Thompson: regret/(√T ln T) {ts['ratio_first']:.2f} → {ts['ratio_last']:.2f}",
        f"log–log slopes beyond T = 1,000: Thompson {ts['slope']:.2f}, MENACE's matching "
        f"{s['matching']['slope']:.2f}, Thompson on beads {s['thompson']['slope']:.2f}",
    )


# --- Chapter 6 -----------------------------------------------------------------------------


def _uniform_update(ev) -> Measured:
    deltas = []
    for result in (0, 1, 2):
        agent = Menace()
        path = [(0, 4), (5, 0), (40, 1)]
        before = [agent.weights[b][j] for b, j in path]
        agent.reinforce(path, result)
        deltas.append(
            tuple(agent.weights[b][j] - w for (b, j), w in zip(path, before, strict=True))
        )
    uniform = all(len(set(d)) == 1 for d in deltas)
    value = uniform and tuple(d[0] for d in deltas) == (3, 1, -1)
    return Measured(value, "every drawn bead: " + ", ".join(f"{d[0]:+g}" for d in deltas))


# --- Chapter 7: the worked example and the objective --------------------------------------


def _table_7_1(i: int) -> Callable:
    def measure(ev) -> Measured:
        ex = worked_example()
        value = (float(ex.terms.risk[i]), float(ex.terms.epistemic[i]), float(ex.terms.G[i]))
        return Measured(value, "risk {:.3f}, I {:.3f}, G {:.3f}".format(*value))

    return measure


def _worked_policy(ev) -> Measured:
    value = tuple(float(x) for x in worked_example().policy)
    return Measured(value, "({:.3f}, {:.3f}, {:.3f})".format(*value))


def _worked_beads(ev) -> Measured:
    value = tuple(int(x) for x in worked_example().rounded_beads)
    return Measured(value, "({}, {}, {})".format(*value))


def _aif_settings(ev) -> Measured:
    rows = [c for c in select(THESIS_SUITE, "9.1") if get_kind(c.agent).family == "aif"]
    temps = {c.kwargs["lambda_policy"] for c in rows}
    betas = {c.kwargs["beta_amb"] for c in rows}
    pure = sorted({c.kwargs["lam"] for c in rows if c.agent == "pure"})
    value = (tuple(temps), tuple(betas), tuple(pure))
    return Measured(
        value == ((0.25,), (0.0,), (0.0, 0.25, 0.5)),
        f"λ_policy {sorted(temps)}, β_amb {sorted(betas)}, Pure AIF λ {pure}",
    )


def _hybrid_lambdas(ev) -> Measured:
    lams = sorted({c.kwargs["lam"] for c in THESIS_SUITE if c.agent == "hybrid"})
    return Measured(tuple(lams), f"λ {lams} (the λ sweep adds 0.1, 0.25, 1, 2)")


def _matches(ev) -> Measured:
    menace = 100 * ev.many("9.1/MENACE/restock box", "exact_draw")
    aif = 100 * ev.many("9.1/Instrumental AIF/λ=0", "exact_draw")
    gap, p = stats.welch(aif, menace)
    return Measured(
        p,
        f"exact: AIF − MENACE {gap:+.1f} pp",
        f"40 seeds, exact draw probability; Welch p = {p:.1g}",
    )


def _lambda_trajectory(ev) -> Measured:
    bands = findings.lambda_bands(ev)
    sep = {k.split("/")[-1]: t["separated"] for k, t in bands["tests"].items()}
    n = len(bands["curves"][findings.LAMBDA_KEYS[0]]["games"])
    worst = min(t["p"].min() for t in bands["tests"].values())
    return Measured(
        sum(sep.values()),
        ", ".join(f"{k}: {v} of {n} checkpoints differ from λ=0" for k, v in sep.items()),
        f"Welch per checkpoint, Holm-corrected; smallest raw p = {worst:.2f}",
    )


def _no_better(ev) -> Measured:
    base = 100 * ev.per_seed("9.1/Pure AIF/λ=0", "val_draw")
    texts, ps = [], []
    for key in findings.LAMBDA_KEYS[1:]:
        x = 100 * ev.per_seed(key, "val_draw")
        p = float(sps.ttest_ind(x, base, equal_var=False, alternative="greater").pvalue)
        ps.append(p)
        texts.append(f"{key.split('/')[-1]}: {x.mean() - base.mean():+.1f} pp")
    return Measured(
        min(ps),
        "vs λ=0: " + ", ".join(texts),
        f"one-sided Welch (λ > 0 better): smallest p = {min(ps):.2f}",
    )


def _information_gap(ev) -> Measured:
    aif = 100 * ev.many("9.1/Instrumental AIF/λ=0", "exact_draw")
    hybrid = 100 * ev.many("9.1/Hybrid AIF/λ=0.5", "exact_draw")
    gap, p = stats.welch(aif, hybrid)
    se = float(np.sqrt(aif.var(ddof=1) / aif.size + hybrid.var(ddof=1) / hybrid.size))
    lo, hi = gap - 1.96 * se, gap + 1.96 * se
    thesis_gap = 88.1 - 85.2  # Table 9.1
    return Measured(
        lo <= thesis_gap <= hi,
        f"Instrumental − Hybrid (λ=0.5): {gap:.1f} pp, 95 % interval [{lo:.1f}, {hi:.1f}]",
        f"exact, 40 seeds; Welch p = {p:.1g}",
    )


def _sd_rate(ev) -> Measured:
    n = np.logspace(1, 4, 13)
    base = np.array([0.5, 0.3, 0.2])
    sd = np.array([np.sqrt(dirichlet_variance(k * base)[0]) for k in n])
    slope = float(np.polyfit(np.log(n), np.log(sd), 1)[0])
    return Measured(slope, f"log–log slope {slope:.3f}", "SD of θ₁ under Dir(n·(0.5, 0.3, 0.2))")


def _variance_formula(ev) -> Measured:
    alphas = [np.array(a, dtype=float) for a in ((1, 1, 1), (6, 2, 2), (30, 15, 5), (0.5, 2, 9))]
    worst = max(float(np.abs(dirichlet_variance(a) - sps.dirichlet(a).var()).max()) for a in alphas)
    return Measured(worst, f"largest difference from scipy.stats.dirichlet: {worst:.1e}")


def _epistemic_shrinks(ev) -> Measured:
    ratios = []
    for key in findings.LAMBDA_KEYS:
        E = np.array([r["trace"]["epistemic"] for r in ev.thesis.records_for(key)], dtype=float)
        mean = np.nanmean(E, axis=0)
        ratios.append(float(mean[0] / mean[-1]))
    return Measured(
        min(ratios),
        f"epistemic value falls {min(ratios):.1f}–{max(ratios):.1f}× over 500 games",
        "Pure AIF, first vs last block of 10 games, λ = 0, 0.25, 0.5",
    )


def _contribution_grows(ev) -> Measured:
    means = []
    for key in findings.LAMBDA_KEYS:
        c = [r["trace"]["epistemic_contribution"] for r in ev.thesis.records_for(key)]
        means.append(float(np.nanmean(np.array(c, dtype=float))))
    increasing = all(a < b for a, b in zip(means, means[1:], strict=False))
    return Measured(increasing, "mean λ·E over training: " + ", ".join(f"{m:.4f}" for m in means))


# --- Chapter 8: settings and the logged dynamics --------------------------------------------


def _preferences(ev) -> Measured:
    agents = {
        tuple(float(x) for x in make_agent(name).config.prefs)
        for name, kind in agent_kinds().items()
        if kind.family == "aif"
    }
    value = tuple(float(x) for x in DEFAULT_PREFERENCES)
    return Measured(value if agents == {value} else None, "({:.2f}, {:.2f}, {:.2f})".format(*value))


def _menace_main(ev) -> Measured:
    (c,) = [c for c in THESIS_SUITE if c.key == "9.1/MENACE/restock box"]
    value = (c.kwargs["filter"], c.kwargs["restock"], c.regimen)
    return Measured(value, "{} filter, {} restock, {} curriculum".format(*value))


def _rl_settings(ev) -> Measured:
    cfg = make_agent("qlearning", **RL_DEFAULTS).config
    value = (cfg.epsilon, cfg.epsilon_decay, cfg.min_epsilon, cfg.learning_rate, cfg.discount)
    return Measured(value, "ε {} ×{} per game, floor {}; η {}; γ {}".format(*value))


def _budgets(ev) -> Measured:
    games = {c.agent: c.games for c in select(THESIS_SUITE, "9.1")}
    rl = {g for k, g in games.items() if get_kind(k).family == "td"}
    others = {g for k, g in games.items() if get_kind(k).family != "td"}
    return Measured((tuple(others), tuple(rl)), f"{sorted(others)} games; RL {sorted(rl)}")


def _curriculum(ev) -> Measured:
    value = tuple(regimen_blocks("mixed", 500))
    return Measured(value, ", ".join(f"{n} {name}" for name, n in value))


def _protocol(ev) -> Measured:
    p = Protocol()
    value = (len(ev.thesis.config["seeds"]), p.validation_games, p.validation_opponent)
    return Measured(value, "{} seeds × {} games vs {}".format(*value))


def _kl_direction(ev) -> Measured:
    keys = ("9.1/MENACE/restock box", "9.1/Instrumental AIF/λ=0")
    finite = np.concatenate([ev.observed(k, "reverse_finite")[:, -1] for k in keys])
    share = float(np.nanmean(finite))
    return Measured(
        share,
        f"KL(learned ‖ minimax) finite on {100 * share:.0f} % of frequently visited states",
        "MENACE and Instrumental AIF after 500 games, 10 seeds",
    )


def _logged_dynamics(ev) -> Measured:
    menace = findings.dynamics_at_end(ev, "9.1/MENACE/restock box")
    aif = findings.dynamics_at_end(ev, "9.1/Instrumental AIF/λ=0")
    q = ev.observed("9.1/Q-learning/random", "q_change", "rms")
    beads = ev.observed("9.1/MENACE/restock box", "beads", "total")
    return Measured(
        None,
        f"coverage after 500 games: MENACE {100 * menace['coverage']:.0f} %, "
        f"Instrumental AIF {100 * aif['coverage']:.0f} %; Q-learning RMS ΔQ "
        f"{np.nanmean(q[:, 1]):.3f} → {np.nanmean(q[:, -1]):.3f}; MENACE beads "
        f"{np.nanmean(beads[:, 0]):,.0f} → {np.nanmean(beads[:, -1]):,.0f}",
    )


def _computational(i: int) -> Callable:
    def measure(ev) -> Measured:
        row = findings.computational_rows(ev)[i]
        return Measured(row["ours"], row["ours_text"], f"{ev.computational['cores']} cores")

    return measure


def _memory(ev) -> Measured:
    row = findings.computational_rows(ev)[3]
    return Measured(
        row["ours"],
        row["ours_text"],
        "agent: peak Python allocations while built and trained for 500 games; process: "
        "peak resident memory, interpreter, numpy and game tables included",
    )


# --- Chapter 9: the tables ------------------------------------------------------------------


def _row(key: str) -> Callable:
    def measure(ev) -> Measured:
        rc = findings.row_check(ev, key)
        text = _pm(rc.mean, rc.sd)
        if rc.seeds != 10:
            text += f" ({rc.seeds} seeds)"
        many = f"{rc.many_seeds} seeds: {_pm(rc.many_mean, rc.many_sd)}"
        if rc.bimodal:
            note = (
                f"{rc.successes} of {rc.seeds} seeds hold the perfect player (thesis "
                f"{rc.thesis_count} of {rc.thesis_seeds}); {rc.many_successes} of "
                f"{rc.many_seeds} in 40 seeds; P(thesis's count) = {rc.chance:.2f}"
            )
            return Measured(rc.passed, text, note, rc.chance)
        metric = "training draw rate" if rc.metric == "train_draw" else "100-game validation"
        note = f"{metric}; {many}; P(thesis's mean) = {rc.chance:.2f}"
        return Measured(rc.mean, text, note, rc.chance)

    return measure


def _variance(ev) -> Measured:
    rows = findings.variance_rows(ev)
    training = [r for r in rows if r["training_share"] >= 0.5]
    thesis = [r for r in rows if r["thesis_training_share"] >= 0.5]
    tree = [r for r in rows if r["agent"] in ("Instrumental AIF", "Hybrid AIF", "Oracle AIF")]
    return Measured(
        len(training) / len(rows),
        f"training ≥ evaluation in {len(training)} of {len(rows)} rows",
        f"tree-based AIF rows: training SD {min(r['training_sd'] for r in tree):.1f}–"
        f"{max(r['training_sd'] for r in tree):.1f} pp, evaluation "
        f"{min(r['evaluation_sd'] for r in tree):.1f}–{max(r['evaluation_sd'] for r in tree):.1f}"
        f" pp; on the thesis's own mean ± SD, {len(thesis)} of {len(rows)} rows",
    )


def _binomial_noise(ev) -> Measured:
    n = Protocol().validation_games
    p = np.linspace(0, 1, 1001)
    worst = float(100 * np.sqrt(p * (1 - p) / n).max())
    return Measured(worst, f"{worst:.2f} pp at p = 0.5, {n} games")


def _ten_seeds(ev) -> Measured:
    n = Protocol().validation_games
    seeds = len(ev.thesis.config["seeds"])
    value = 100 * 0.5 / np.sqrt(n) / np.sqrt(seeds)
    return Measured(value, f"{value:.2f} pp for the mean of {seeds} seeds")


def _defensive_variance(ev) -> Measured:
    sds = {
        k: float(100 * ev.many(k, "val_draw").std(ddof=1))
        for k in ("9.1/Q-learning/defensive", "9.1/SARSA/defensive")
    }
    return Measured(
        min(sds.values()),
        ", ".join(f"{k.split('/')[1]} {v:.1f} pp" for k, v in sds.items()),
        "seed SD over 40 seeds",
    )


def _beats_epistemic(ev) -> Measured:
    menace = 100 * ev.many("9.1/MENACE/restock box", "exact_draw")
    ps, texts = [], []
    for key in findings.LAMBDA_KEYS[1:]:
        x = 100 * ev.many(key, "exact_draw")
        gap, p = stats.welch(menace, x)
        ps.append(p if gap > 0 else 1.0)
        texts.append(f"+{gap:.1f} pp over Pure {key.split('/')[-1]}")
    hybrid = 100 * ev.many("9.1/Hybrid AIF/λ=0.5", "exact_draw")
    return Measured(
        max(ps),
        "MENACE " + ", ".join(texts),
        f"exact, 40 seeds, Welch p ≤ {max(ps):.1g}; Hybrid AIF (λ=0.5) is "
        f"{hybrid.mean() - menace.mean():+.1f} pp ahead of MENACE",
    )


def _collapse(ev) -> Measured:
    rates = {}
    for key in ("9.1/Q-learning/defensive", "9.1/SARSA/defensive"):
        x = ev.many(key, "val_draw")
        rates[key.split("/")[1]] = stats.successes(x) / x.size
    return Measured(
        max(rates.values()),
        ", ".join(
            f"{k} holds the perfect player in {100 * v:.0f} % of seeds" for k, v in rates.items()
        ),
        "40 seeds, trained 5,000 games against the defensive player",
    )


def _strong_training(ev) -> Measured:
    shares = {}
    for key in ("9.1/Q-learning/defensive", "9.1/SARSA/defensive"):
        recs = ev.thesis.records_for(key)
        losses = [r["train_results"][-1000:].count("2") / 1000 for r in recs]
        shares[key.split("/")[1]] = 1 - float(np.mean(losses))
    return Measured(
        min(shares.values()),
        ", ".join(f"{k} avoids losing {100 * v:.0f} %" for k, v in shares.items()),
        "last 1,000 training games against the defensive player, 10 seeds",
    )


def _minimax_like(ev) -> Measured:
    values = {}
    for key in ("9.1/Q-learning/random", "9.1/SARSA/random"):
        values[key.split("/")[1]] = float(np.nanmean(ev.observed(key, "agreement")[:, -1]))
    defensive = float(np.nanmean(ev.observed("9.1/SARSA/defensive", "agreement")[:, -1]))
    return Measured(
        min(values.values()),
        ", ".join(f"{k} {100 * v:.1f} %" for k, v in values.items()),
        "visit-weighted share of minimax-optimal moves, last 100 training games, 10 seeds; "
        f"even defensive-trained SARSA reaches {100 * defensive:.1f} % on its own visits",
    )


def _positive(ev) -> Measured:
    zero = ev.observed("9.1/MENACE/restock box", "beads", "zero_share")[:, -1]
    share = float(np.nanmean(zero))
    return Measured(
        share, f"{100 * share:.1f} % of colours in visited boxes at zero beads after 500 games"
    )


def _budget(ev) -> Measured:
    shapes = findings.curve_shapes(ev)

    def at(key: str, games: int) -> float:
        s = shapes[key]
        return float(100 * s["draw"][:, list(s["games"]).index(games)].mean())

    rl = max(at("9.1/Q-learning/random", 500), at("9.1/SARSA/random", 500))
    menace = at("9.1/MENACE/restock box", 500)
    aif = at("9.1/Instrumental AIF/λ=0", 500)
    return Measured(
        rl < min(menace, aif),
        f"after 500 games: MENACE {menace:.0f} %, Instrumental AIF {aif:.0f} %, RL ≤ {rl:.0f} %",
        "exact draw probability against the perfect player, 10 seeds",
    )


def _oracle(field: str) -> Callable:
    def measure(ev) -> Measured:
        o = findings.oracle_models(ev)
        if field == "difference":
            return Measured(
                o["difference"],
                f"{o['difference']:.1f} pp",
                "Adversarial and Minimax identical in every seed"
                if o["identical"]
                else "not identical seed for seed",
            )
        if field == "p":
            return Measured(o["p"], f"p = {o['p']:.2f}", "Welch, training draw rates, 10 seeds")
        if field == "ratio":
            return Measured(
                o["ratio"],
                f"{o['ratio']:.2f}× (training), {o['validation_ratio']:.2f}× (validation)",
            )
        if field == "thesis_interval":
            lo, hi = o["models"]["adversarial"]["thesis_interval"]
            return Measured((round(lo, 1), round(hi, 1)), f"[{lo:.1f}, {hi:.1f}]", "1.96 × SD/√10")
        lo, hi = o["models"]["adversarial"]["training_interval"]
        ulo, uhi = o["models"]["uniform"]["training_interval"]
        return Measured(
            (round(lo, 1), round(hi, 1)),
            f"Adversarial/Minimax [{lo:.1f}, {hi:.1f}], Uniform [{ulo:.1f}, {uhi:.1f}]",
            "t interval, training draw rates",
        )

    return measure


def _model_dominates(ev) -> Measured:
    adv = 100 * ev.per_seed("9.2/Oracle AIF/adversarial", "train_draw")
    uni = 100 * ev.per_seed("9.2/Oracle AIF/uniform", "train_draw")
    gap, p = stats.welch(adv, uni)
    return Measured(
        gap > 0 and p < 0.05, f"Adversarial − Uniform {gap:+.1f} pp", f"Welch p = {p:.1g}"
    )


def _early_exploration(ev) -> Measured:
    base = ev.observed("9.1/Pure AIF/λ=0", "entropy")
    texts, ps = [], []
    for key in findings.LAMBDA_KEYS[1:]:
        x = ev.observed(key, "entropy")
        # first 100 games: the first four checkpoints
        p = float(
            sps.ttest_ind(
                x[:, :4].mean(axis=1),
                base[:, :4].mean(axis=1),
                equal_var=False,
                alternative="greater",
            ).pvalue
        )
        ps.append(p)
        texts.append(f"{key.split('/')[-1]} {x[:, :4].mean():.3f}")
    return Measured(
        min(ps),
        f"move entropy, first 100 games: λ=0 {base[:, :4].mean():.3f}, " + ", ".join(texts),
        f"nats, visit-weighted; one-sided Welch (λ > 0 more): smallest p = {min(ps):.2f}",
    )


def _filter_advantage(ev) -> Measured:
    michie = 100 * ev.many("9.3/MENACE/michie filter", "exact_draw")
    decision = 100 * ev.many("9.3/MENACE/decision-only filter", "exact_draw")
    gap, p = stats.welch(michie, decision)
    thesis_p = sps.ttest_ind_from_stats(84.5, 8.1, 10, 82.4, 6.0, 10, equal_var=False).pvalue
    return Measured(
        gap > 0 and p < 0.05,
        f"Michie − decision-only {gap:+.1f} pp",
        f"exact, 40 seeds, Welch p = {p:.2g}; the thesis's own +2.1 pp has p = {thesis_p:.2f}",
    )


def _no_restock_seeds(ev) -> Measured:
    row = ev.seeds["rows"]["9.4/MENACE/no restock (stop)"]
    stopped = row["stopped"]
    ten, many = int(sum(stopped[:10])), int(sum(stopped))
    chance = stats.tail_probability(4, 10, many / len(stopped))
    return Measured(
        ten,
        f"{ten} of 10",
        f"{many} of {len(stopped)} in 40 seeds; P(≥ 4 of 10) = {chance:.2f}",
        chance,
    )


def _move_underperforms(ev) -> Measured:
    box = 100 * ev.many("9.4/MENACE/box restock", "exact_draw")
    move = 100 * ev.many("9.4/MENACE/move restock", "exact_draw")
    gap, p = stats.welch(move, box)
    return Measured(
        gap < 0 and p < 0.05, f"move − box {gap:+.1f} pp", f"exact, 40 seeds, p = {p:.1g}"
    )


def _box_never_empty(ev) -> Measured:
    resigned = int(sum(ev.seeds["rows"]["9.4/MENACE/box restock"]["resigned_games"]))
    return Measured(resigned, f"{resigned} games lost at an empty box in 40 × 500 games")


def _shape(keys: tuple[str, ...], word: str) -> Callable:
    def measure(ev) -> Measured:
        shapes = findings.curve_shapes(ev)
        has = [shapes[k]["words"][word] for k in keys]
        parts = []
        for k in keys:
            s = shapes[k]["shape"]
            parts.append(
                f"{k.split('/')[1]} ({k.split('/')[2]}): exponential R² {s.exponential_r2:.2f}, "
                f"step R² {s.step_r2:.2f}, relapsing seeds {s.relapses:.0%}"
            )
        extra = ""
        if word == "smooth exponential decay":
            p = shapes[findings.PERFECT_ONLY_KEY]["shape"]
            extra = (
                f"; trained on the perfect player only: exponential R² {p.exponential_r2:.2f}, "
                f"step R² {p.step_r2:.2f}"
            )
        return Measured(
            sum(has) / len(has),
            f"'{word}' fits {sum(has)} of {len(keys)}",
            "; ".join(parts) + extra,
        )

    return measure


def _q_erratic(ev) -> Measured:
    shapes = findings.curve_shapes(ev)
    keys = ("9.1/Q-learning/random", "9.1/Q-learning/defensive")
    erratic = [shapes[k]["words"]["erratic"] for k in keys]
    s = shapes["9.1/Q-learning/random"]
    drops = [s["games"][int(np.argmax(y < 0.5))] for y in s["loss"] if (y < 0.5).any()]
    cliff = float(np.median(drops))
    sarsa = shapes["9.1/SARSA/random"]["shape"].relapses
    return Measured(
        sum(erratic) / len(erratic),
        f"'erratic' fits {sum(erratic)} of {len(keys)}",
        f"relapsing seeds: Q-learning {shapes[keys[0]]['shape'].relapses:.0%} (random), "
        f"{shapes[keys[1]]['shape'].relapses:.0%} (defensive), SARSA {sarsa:.0%} (random); "
        f"Q-learning (random) drops below 50 % loss at a median {cliff:,.0f} games, "
        f"where ε = {epsilon_after(int(cliff)):.3f}",
    )


def _kl_settles(ev) -> Measured:
    texts, ok = [], []
    for key in ("9.1/MENACE/restock box", "9.1/Instrumental AIF/λ=0"):
        kl = np.nanmean(ev.observed(key, "kl_forward"), axis=0)
        quarter = len(kl) * 3 // 4
        late = kl[quarter:]
        settled = kl[-1] > 0.01 and np.ptp(late) <= 0.5 * kl[-1]
        ok.append(bool(settled))
        texts.append(f"{key.split('/')[1]} {kl[quarter]:.2f} → {kl[-1]:.2f}")
    return Measured(
        all(ok),
        "KL(π_mm,U ‖ π), last quarter of training: " + "; ".join(texts),
        "mean over frequently visited states and 10 seeds; settled = varies by ≤ half its "
        "final value over the last quarter, and stays above 0",
    )


def _below_perfect(ev) -> Measured:
    s = findings.curve_shapes(ev)["9.1/MENACE/restock box"]
    start, end = s["draw"][:, 0].mean(), s["draw"][:, -1]
    return Measured(
        end.mean() > start and end.max() < 1,
        f"exact draw {100 * start:.0f} % → {100 * end.mean():.0f} % "
        f"(best seed {100 * end.max():.0f} %)",
    )


def _no_catastrophe(ev) -> Measured:
    worst = {
        k.split("/")[1]: float(100 * ev.many(k, "exact_draw").min())
        for k in ("9.1/MENACE/restock box", "9.1/Instrumental AIF/λ=0")
    }
    return Measured(
        min(worst.values()),
        "worst of 40 seeds: " + ", ".join(f"{k} {v:.0f} %" for k, v in worst.items()),
        "defensive-trained RL: most seeds near 0 %",
    )


# --- Chapter 11: scaling to Connect-4 (§11.6.2) ----------------------------------------

STANDARD_BOARD_POSITIONS = 4_531_985_219_092
"""Positions of Connect-4 on 7×6 reachable in play (Tromp's count; OEIS A212693's total)."""

A212693_PREFIX = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)
"""OEIS A212693: positions of the standard board with 0-8 pieces."""

LAPTOP_BYTES = 16 * 2**30
"""A laptop's memory, for "practical": 16 GiB."""


def _connect4_state_space(ev) -> Measured:
    ours = tuple(positions_by_pieces(ConnectFour(7, 6), 8))
    power = np.log10(STANDARD_BOARD_POSITIONS)
    return Measured(
        ours == A212693_PREFIX and 12 <= power <= 14,
        f"{STANDARD_BOARD_POSITIONS:,} positions reachable in play, about 10 to the power "
        f"{power:.1f} (Tromp's count); our enumerator matches its first nine terms by pieces",
        "the total is restated, not counted here: counting 4.5 × 10¹² positions needs "
        "weeks of a dedicated solver",
    )


def _enumerability(ev) -> Measured:
    T = cached_tables(ConnectFour(4, 4))
    per_position = sum(getattr(T, f).nbytes for f in TABLE_FIELDS) / T.n_positions
    need = per_position * STANDARD_BOARD_POSITIONS
    return Measured(
        need > LAPTOP_BYTES,
        f"the integer tables take {per_position:.0f} bytes a position on 4×4 (more on wider "
        f"boards): at least {need / 1e12:,.0f} TB for 7×6, "
        f"{need / LAPTOP_BYTES:,.0f} times a 16 GiB laptop; "
        "mirror symmetry halves the boxes, not the positions",
    )


def _small_boards(ev) -> Measured:
    T = cached_tables(ConnectFour(4, 4))
    won = int(np.isin(T.outcome, (FIRST_WIN, SECOND_WIN)).sum())
    value = "a draw" if T.value[0] == 0 else "not a draw"
    # 5×4 takes ~10 CPU-s to build: the chapter's size table has its count, and the golden
    # test (tests/test_connect4.py) recounts it from scratch.
    with open(ev.data_dir / SCALING_SIZES_FILE, encoding="utf-8") as f:
        sizes = {s["game"]: s for s in json.load(f)["sizes"]}
    n5 = int(sizes["connect4:5x4"]["positions"])
    return Measured(
        (T.n_positions, won, value, n5),
        f"4×4: {T.n_positions:,} positions ({won:,} won), {value} under perfect play; "
        f"5×4: {n5:,} positions",
    )


def _lean_boards(ev) -> Measured:
    # Solving both boards takes about 15 CPU-minutes and 3 GB: the measure reads the stored
    # bench run, and tests/test_connect4_solve.py recounts their first plies from scratch.
    with open(ev.data_dir / SOLVED_FILE, encoding="utf-8") as f:
        boards = json.load(f)["boards"]
    names = {1: "a first-player win", 0: "a draw", -1: "a second-player win"}
    out, parts = [], []
    for board in ("5x5", "6x4"):
        b = boards[board]
        out += [int(b["positions"]), names[int(b["start_value"])]]
        parts.append(
            f"{board.replace('x', '×')}: {b['positions']:,} positions, {names[b['start_value']]} "
            f"under perfect play, {b['bytes_per_position']:.0f} bytes a position, "
            f"{b['peak_mb'] / 1024:.1f} GB peak"
        )
    return Measured(tuple(out), "; ".join(parts))


def _five_by_five(ev) -> Measured:
    # The run takes about 10 CPU-minutes and 4 GB: the measure reads the stored sweep, and
    # tests/test_scaling_5x5.py reruns its code path on 4x4 (equal to the whole board's).
    from ...base.confidence import mean_ci

    result = SweepResult.load_json(ev.data_dir / FIVE_FILE)
    runs = result.records
    final = mean_ci([r["final_not_losing"] for r in runs])
    start = runs[0]["not_losing"][0]
    hits = {t: [r[f"games_to_{t}"] for r in runs] for t in (90, 99)}

    def reached(t: int) -> str:
        done = [h for h in hits[t] if h is not None]
        if not done:
            return f"no seed reached {t} %"
        span = f"{min(done):,}" if min(done) == max(done) else f"{min(done):,} to {max(done):,}"
        return f"{len(done)} of {len(runs)} seeds reached {t} % (at {span} games)"

    budget = runs[0]["games"][-1]
    text = (
        f"5×5 against the perfect player ({runs[0]['positions']:,} positions, "
        f"{runs[0]['boxes']:,} boxes), {len(runs)} seeds: exact chance of not losing "
        f"{start:.3f} untrained, {final['mean']:.4f} after {budget:,} games (95 % interval "
        f"{final['low']:.4f} to {final['high']:.4f}); {reached(90)}; {reached(99)}"
    )
    peak = max(r["peak_mb"] for r in runs) / 1024
    seeds = sorted(r["seed"] for r in runs)
    return Measured(
        all(h is not None for h in hits[90]),
        text,
        f"Michie's beads, one box per canonical position with a choice, playing first; exact "
        f"evaluation at log-spaced checkpoints from 100 games; seeds {seeds[0]}-{seeds[-1]}; "
        f"one process, {peak:.1f} GB peak; regenerate: {result.config['command']}",
    )


def _scaling_sweep(ev) -> SweepResult:
    return ev.memo("scaling", lambda: SweepResult.load_json(ev.data_dir / SCALING_FILE))


def _scaling_sizes(ev) -> list[dict]:
    with open(ev.data_dir / SCALING_SIZES_FILE, encoding="utf-8") as f:
        return json.load(f)["sizes"]


def stress_summary(doc: dict) -> dict:
    """The distribution of games to 99 % not losing on 4×4 over the stress seeds: median,
    quartiles, its interval, and how many seeds reach 99 % by the sweep's 18,196 games."""
    from ...base.confidence import proportion_ci

    hits = [r["games_to_99"] for r in doc["runs"]]
    reached = [h for h in hits if h is not None]
    n = len(hits)
    # A seed that never reached 99 % counts as beyond every checkpoint (above the median).
    filled = np.array([h if h is not None else np.inf for h in hits], dtype=float)
    q1, median, q3 = (float(v) for v in np.quantile(filled, (0.25, 0.5, 0.75), method="lower"))
    by = int(sum(h is not None and h <= SWEEP_MARK for h in hits))
    share = proportion_ci(by, n)
    return {
        "seeds": n,
        "reached": len(reached),
        "median": median,
        "quartiles": (q1, q3),
        "median_interval": stats.median_interval(filled),
        "range": (min(reached), max(reached)) if reached else None,
        "by_mark": by,
        "by_mark_interval": (share["low"], share["high"]),
        # The evaluation grid's step (the sweep's log checkpoints sit between its points).
        "every": Counter(np.diff(doc["games"]).tolist()).most_common(1)[0][0],
        "budget": doc["games"][-1],
        "first_seed": doc["runs"][0]["seed"],
        "last_seed": doc["runs"][-1]["seed"],
    }


SWEEP_MARK = 18_196
"""The scaling sweep's checkpoint by which its eight seeds had all reached 99 % on 4×4."""


def _small_boards_learnt(ev) -> Measured:
    s = stress_summary(ev.stress)
    runs = [r for r in _scaling_sweep(ev).records if r["condition"] == "connect4:5x4/4-3-2-1"]
    five = [r["games_to_99"] for r in runs if r["games_to_99"] is not None]
    ok = s["reached"] == s["seeds"] and len(five) == len(runs) > 0
    lo, hi = s["median_interval"]
    plo, phi = s["by_mark_interval"]
    brackets = sorted({r["games"][r["games"].index(r["games_to_99"]) - 1] for r in runs})
    text = (
        f"4×4, {s['seeds']} fresh seeds: median {s['median']:,.0f} games to 99 % not losing "
        f"against the perfect player (quartiles {s['quartiles'][0]:,.0f} and "
        f"{s['quartiles'][1]:,.0f}; 95 % interval of the median {lo:,.0f} to {hi:,.0f}); "
        f"{s['by_mark']} of {s['seeds']} seeds by {SWEEP_MARK:,} games (95 % interval "
        f"{100 * plo:.0f} to {100 * phi:.0f} % of seeds); {s['reached']} of {s['seeds']} "
        f"within {s['budget']:,} games. 5×4: {len(five)} of {len(runs)} seeds, all between "
        f"{brackets[0]:,} and {max(five):,} games"
    )
    return Measured(
        ok,
        text,
        f"exact evaluation every {s['every']:,} games up to {s['budget']:,}; Michie's beads; "
        f"4×4: {s['seeds']} fresh seeds ({s['first_seed']}-{s['last_seed']}); 5×4: the "
        "scaling sweep's seeds 0-7, log-spaced checkpoints; regenerate: python -m menace_lib "
        "claims --regenerate stress, and python -m menace_lib experiment scaling --seeds 8 "
        "--json book/data/beyond_scaling.json",
    )


def _extrapolation(ev) -> Measured:
    from ..beyond.scaling import extrapolate

    x = extrapolate(_scaling_sweep(ev).records, _scaling_sizes(ev))
    low, high = x["low"], x["high"]
    text = (
        f"{low['games'] / 1e6:,.0f} million to {high['games'] / 1e6:,.0f} million games, "
        f"{low['years']:,.0f} to {high['years']:,.0f} years at one game a minute, for the "
        f"standard board's {x['boxes']:.2g} boxes"
    )
    return Measured(
        min(low["years"], high["years"]) > 100,
        text,
        f"power law fitted on noughts and crosses, 4×4 and 5×4 (exponent {low['b']:.2f} to "
        f"{high['b']:.2f}); every 5×4 seed crossed 99 % between the checkpoints "
        f"{low['largest_games']:,.0f} and {high['largest_games']:,.0f}, and the range is the "
        "fit on each",
    )


LAMBDA_TUNING_FILE = "beyond_lambda_tuning.json"
"""The λ-schedule chapter's fair comparison (tuned on some seeds, judged on others)."""

_PARAM_WORDS = {"lam": "λ₀", "lambda_tau": "τ", "lambda_kappa": "κ"}


def _edge_words(edges: list[str]) -> str:
    out = []
    for e in edges:
        key, _, rest = e.partition("=")
        out.append(f"{_PARAM_WORDS.get(key, key)} = {rest}")
    return ", ".join(out)


def _lambda_schedules(ev) -> Measured:
    with open(ev.data_dir / LAMBDA_TUNING_FILE, encoding="utf-8") as f:
        doc = json.load(f)
    cells = doc["cells"]
    if list(cells) != ["hybrid/optimal"]:
        raise KeyError(f"the tuning covers {list(cells)}; the claim's words name one cell")
    cell = cells["hybrid/optimal"]
    names = {"decay": "decaying λ", "concentration": "concentration-tied λ"}
    parts, edges, ok = [], [], True
    for schedule, name in names.items():
        d = cell[schedule]["vs_fixed"]
        ok &= d["high"] <= 0
        low, high = 100 * d["low"], 100 * d["high"]
        parts.append(f"{name} {100 * d['mean']:+.2f} pp [{low:+.2f} pp, {high:+.2f} pp]")
        edges.append(f"{name}: {_edge_words(cell[schedule]['at_edge'])}")
    best = cell["fixed"]["best"]["lam"]
    grid = ", ".join(f"{len(doc['grid'][s])}" for s in ("fixed", "decay", "concentration"))
    return Measured(
        ok,
        f"{'; '.join(parts)} in area under the exact learning curve against the tuned fixed "
        f"λ = {best:g}; every tuned setting sits at an edge of its grid ({'; '.join(edges)}), "
        "so the grids found a direction, not an optimum",
        f"Hybrid agent against the perfect player only, 500 games; tuned on "
        f"{len(doc['tuning_seeds'])} seeds ({doc['tuning_seeds'][0]}-"
        f"{doc['tuning_seeds'][-1]}), grids of {grid} settings (fixed, decay, concentration); "
        f"compared on {len(doc['held_out'])} held-out seeds; 95 % intervals, paired by seed",
    )


OPPONENT_FILE = "beyond_opponent_model.json"
"""The opponent-model chapter's sweep (its learners have λ = 0)."""
CURIOUS_FILE = "beyond_opponent_curious.json"
"""The same switching opponent against the Hybrid agent with λ > 0, on the same seeds."""


def _curiosity_vs_forgetting(ev) -> Measured:
    from ...base.confidence import mean_ci

    runs = {}
    for name in (OPPONENT_FILE, CURIOUS_FILE):
        result = ev.memo(name, lambda n=name: SweepResult.load_json(ev.data_dir / n))
        for r in result.records:
            if r["condition"].endswith("/switching"):
                runs.setdefault(r["condition"].split("/")[0], []).append(r)
    agents = ("learned", "forgetful", *sorted(a for a in runs if a.startswith("curious-")))
    words = {"learned": "λ = 0", "forgetful": "λ = 0, forgetting"}
    parts, recovered = [], {}
    for a in agents:
        hits = [r["recovery_games"] for r in runs[a]]
        done = [h for h in hits if h is not None]
        recovered[a] = (len(done), len(hits), float(np.mean(done)) if done else None)
        ci = mean_ci(done)
        mean = f"{ci['mean']:,.0f} games" if done else "never"
        label = words.get(a, f"λ = {a.removeprefix('curious-')}")
        parts.append(f"{label}: {mean} ({len(done)} of {len(hits)} seeds recover)")
    forget = recovered["forgetful"][2]
    curious_best = min(
        (v[2] for a, v in recovered.items() if a.startswith("curious-") and v[2] is not None),
        default=None,
    )
    # Curiosity helps if some λ > 0 recovers as fast as forgetting, with as many seeds.
    full = all(v[0] == v[1] for a, v in recovered.items() if a.startswith("curious-"))
    ok = curious_best is None or not full or curious_best > forget
    return Measured(
        ok,
        "games after the switch from random to perfect play until the exact draw rate against "
        "the perfect player is back at 90 %, seed mean: " + "; ".join(parts),
        f"Hybrid agent (learnt opponent counts) against the switching opponent, "
        f"{len(runs['learned'])} seeds each, common random numbers; forgetting: each new "
        "observation of a position shrinks its old counts towards the prior by a factor 0.9",
    )


# --- search with bead priors (§11.6.3): new results ------------------------------------------

HYBRID_FILE = "hybrid_search.json"
HYBRID_NOTE = (
    "Connect-4 4×4, MENACE first, trained and scored against the perfect player (uniform "
    "ties), 3,000 training games, seeds 0-7; regenerate: python -m menace_lib experiment "
    "hybrid --seeds 8 --json book/data/hybrid_search.json"
)


def _hybrid_losses(ev, arm: str, budget: int) -> list[float]:
    """Per seed, ``arm``'s loss after 3,000 games at ``budget`` simulations a move."""
    sweep = ev.memo("hybrid", lambda: SweepResult.load_json(ev.data_dir / HYBRID_FILE))
    return [
        r[f"loss_3000g_{budget}sims"]
        for r in sweep.records
        if r["condition"] == f"connect4:4x4/{arm}"
    ]


def _hybrid_mean(ev, arm: str, budget: int) -> float:
    return 100 * float(np.mean(_hybrid_losses(ev, arm, budget)))


def _hybrid_beats_greedy(ev) -> Measured:
    greedy = _hybrid_losses(ev, "greedy", 0)
    texts, ok = [], True
    for b in (16, 64, 256):
        diff = paired_ci(_hybrid_losses(ev, "puct", b), greedy)
        ok &= diff["high"] is not None and diff["high"] < 0
        texts.append(f"{b}: {_hybrid_mean(ev, 'puct', b):.2f} %")
    return Measured(
        ok,
        f"exact loss, greedy beads {_hybrid_mean(ev, 'greedy', 0):.2f} %; bead-prior search "
        "at " + ", ".join(texts) + " (simulations a move: loss)",
        HYBRID_NOTE + "; paired 95 % intervals of the difference below 0 at each budget",
    )


def _hybrid_flat_prior(ev) -> Measured:
    greedy = _hybrid_mean(ev, "greedy", 0)
    flat = {b: _hybrid_mean(ev, "flat", b) for b in (4, 16, 64, 256)}
    return Measured(
        all(v > greedy for v in flat.values()),
        f"exact loss, flat-prior search {min(flat.values()):.1f}-{max(flat.values()):.1f} % "
        f"at 4-256 simulations a move, greedy beads {greedy:.2f} %",
        HYBRID_NOTE,
    )


def _hybrid_rollouts(ev) -> Measured:
    menace = _hybrid_mean(ev, "menace", 0)
    uct = {b: _hybrid_mean(ev, "uct", b) for b in (4, 16, 64, 256)}
    return Measured(
        all(v > menace for v in uct.values()),
        f"UCT with random rollouts loses {min(uct.values()):.1f}-{max(uct.values()):.1f} % "
        f"(sampled, 400 games a seed) at 4-256 simulations a move; MENACE alone {menace:.2f} % "
        "(exact)",
        HYBRID_NOTE,
    )


NOISY_FILE = "noisy_eyes.json"
NOISY_NOTE = (
    "exact loss against the perfect player (lowest-square tie-break) over every reading; "
    "MENACE trained 3,000 games; seeds 0-5; regenerate: python -m menace_lib experiment "
    "noisy --seeds 6 --json book/data/noisy_eyes.json"
)


def _noisy(ev) -> SweepResult:
    return ev.memo("noisy", lambda: SweepResult.load_json(ev.data_dir / NOISY_FILE))


def _noisy_naive_loses(ev) -> Measured:
    from ..beyond.noisy import metric

    result = _noisy(ev)
    clean = result.summary["train-0"][metric("naive", 0.0)]["mean"]
    at = result.summary["train-0"][metric("naive", 0.1)]
    perfect = result.summary["perfect"][metric("naive", 0.1)]["mean"]
    return Measured(
        at["mean"],
        f"{100 * at['mean']:.1f} % lost at eps 0.1 (clean: {100 * clean:.2f} %; the perfect "
        f"player, read the same way: {100 * perfect:.1f} %)",
        NOISY_NOTE,
    )


def _noisy_bayes(ev) -> Measured:
    from ..beyond.noisy import metric

    s = _noisy(ev).summary["train-0"]
    reach, uniform = (s[metric(o, 0.1)]["mean"] for o in ("reach", "uniform"))
    return Measured(
        reach,
        f"{100 * reach:.1f} % lost at eps 0.1 with the reach prior, {100 * uniform:.1f} % "
        "with the uniform prior",
        NOISY_NOTE,
    )


def _noisy_learn_vs_infer(ev) -> Measured:
    from ..beyond.noisy import EVAL_EPS, learn_minus_infer, metric

    result = _noisy(ev)
    diffs = {e: learn_minus_infer(result, e, "reach") for e in EVAL_EPS[1:]}
    learn = result.summary["train-0.1"][metric("naive", 0.1)]["mean"]
    infer = result.summary["train-0"][metric("reach", 0.1)]["mean"]
    d = diffs[0.1]
    return Measured(
        all(x["low"] is not None and x["low"] > 0 for x in diffs.values()),
        f"{100 * d['mean']:.1f} pp less lost by inferring at eps 0.1 (learning "
        f"{100 * learn:.1f} %, inferring {100 * infer:.1f} %; paired 95% interval "
        f"{100 * d['low']:.1f} to {100 * d['high']:.1f} pp)",
        NOISY_NOTE,
    )


# --- the registry ------------------------------------------------------------------------

MEASURES: dict[str, Callable] = {
    "boxes_from_thousands": _boxes_from_thousands,
    "reinforcement": _reinforcement,
    "double_threats": _double_threats,
    "schedule": _schedule,
    "probability_matching": _probability_matching,
    "thompson_decisive": _thompson_decisive,
    "parameters": _parameters,
    "regret": _regret,
    "uniform_update": _uniform_update,
    "worked_policy": _worked_policy,
    "worked_beads": _worked_beads,
    "aif_settings": _aif_settings,
    "lambda_trajectory": _lambda_trajectory,
    "no_better": _no_better,
    "information_gap": _information_gap,
    "sd_rate": _sd_rate,
    "variance_formula": _variance_formula,
    "epistemic_shrinks": _epistemic_shrinks,
    "preferences": _preferences,
    "hybrid_lambdas": _hybrid_lambdas,
    "menace_main": _menace_main,
    "rl_settings": _rl_settings,
    "budgets": _budgets,
    "curriculum": _curriculum,
    "protocol": _protocol,
    "kl_direction": _kl_direction,
    "logged_dynamics": _logged_dynamics,
    "memory": _memory,
    "binomial_noise": _binomial_noise,
    "ten_seeds": _ten_seeds,
    "variance": _variance,
    "defensive_variance": _defensive_variance,
    "contribution_grows": _contribution_grows,
    "beats_epistemic": _beats_epistemic,
    "collapse": _collapse,
    "strong_training": _strong_training,
    "minimax_like": _minimax_like,
    "positive": _positive,
    "budget": _budget,
    "model_dominates": _model_dominates,
    "early_exploration": _early_exploration,
    "filter_advantage": _filter_advantage,
    "no_restock_seeds": _no_restock_seeds,
    "move_underperforms": _move_underperforms,
    "box_never_empty": _box_never_empty,
    "q_erratic": _q_erratic,
    "kl_settles": _kl_settles,
    "below_perfect": _below_perfect,
    "matches": _matches,
    "no_catastrophe": _no_catastrophe,
    "connect4_state_space": _connect4_state_space,
    "enumerability": _enumerability,
    "small_boards": _small_boards,
    "lean_boards": _lean_boards,
    "small_boards_learnt": _small_boards_learnt,
    "five_by_five": _five_by_five,
    "hybrid_beats_greedy": _hybrid_beats_greedy,
    "hybrid_flat_prior": _hybrid_flat_prior,
    "hybrid_rollouts": _hybrid_rollouts,
    "extrapolation": _extrapolation,
    "lambda_schedules": _lambda_schedules,
    "curiosity_vs_forgetting": _curiosity_vs_forgetting,
    "noisy_naive_loses": _noisy_naive_loses,
    "noisy_bayes": _noisy_bayes,
    "noisy_learn_vs_infer": _noisy_learn_vs_infer,
}
"""Measures that take no arguments, by the name a record gives."""

from .historical import HISTORY_MEASURES  # noqa: E402 (the historical rows' measures)

MEASURES.update(HISTORY_MEASURES)

FACTORIES: dict[str, Callable[..., Callable]] = {
    "boxes": _boxes,
    "computational": _computational,
    "count": _count,
    "oracle": _oracle,
    "row": _row,
    "shape": _shape,
    "table_7_1": _table_7_1,
}
"""Measure factories: ``FACTORIES[name](*args)`` is the measure."""
