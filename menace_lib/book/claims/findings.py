"""The analyses behind the claims, as functions of :class:`~.evidence.Evidence`.

Each function returns plain rows or numbers that both the ledger's measures and the
book's pages use, so a number shown on a chapter page and the same number in the
ledger come from one computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...experiments import AGENT_LABELS
from . import stats
from .dynamics import PERFECT_ONLY

__all__ = [
    "BIMODAL_KEYS",
    "agreement_table",
    "seed_count_table",
    "shape_table",
    "variance_table",
    "CURVE_WORDS",
    "LAMBDA_KEYS",
    "RowCheck",
    "computational_rows",
    "curve_shapes",
    "dynamics_at_end",
    "lambda_bands",
    "oracle_models",
    "regret_slopes",
    "row_check",
    "thesis_successes",
    "variance_rows",
]

BIMODAL_KEYS = (
    "9.1/Q-learning/random",
    "9.1/Q-learning/defensive",
    "9.1/SARSA/random",
    "9.1/SARSA/defensive",
)
"""Rows whose seeds either hold the perfect player or collapse: judged as counts of seeds."""

LAMBDA_KEYS = ("9.1/Pure AIF/λ=0", "9.1/Pure AIF/λ=0.25", "9.1/Pure AIF/λ=0.5")


def thesis_successes(mean: float, seeds: int = 10) -> int:
    """Successful seeds implied by a bimodal row's printed mean (successes draw ≈ 100 %).

    Each printed mean ± SD matches exactly one count: 10.2 ± 30.9 is one of ten
    seeds, 20.5 ± 40.3 two, 98.0 ± 1.2 all ten.
    """
    return int(round(mean / 100 * seeds))


@dataclass(frozen=True)
class RowCheck:
    """One table row: ours on ten seeds, on forty, and the thesis's, side by side.

    Rates are percent. ``chance`` is the probability of the thesis's outcome had its
    seeds behaved as our forty: for a bimodal row, of its count of successful seeds
    (:func:`~.stats.tail_probability`); otherwise of a ten-seed mean at least as far
    from ours as the thesis's (:func:`~.stats.chance_of_mean`).
    """

    key: str
    metric: str
    mean: float
    sd: float
    seeds: int
    thesis: float
    thesis_sd: float
    thesis_seeds: int
    agrees: bool
    many_mean: float
    many_sd: float
    many_seeds: int
    bimodal: bool
    successes: int | None
    thesis_count: int | None
    many_successes: int | None
    chance: float

    @property
    def passed(self) -> bool:
        """Agrees within the thesis's spread, and for a bimodal row has the thesis's count."""
        return self.agrees and (not self.bimodal or self.successes == self.thesis_count)


def row_check(ev, key: str) -> RowCheck:
    """:class:`RowCheck` of a stored suite row (the thesis's metric for that row)."""
    row = ev.thesis.row(key)
    field = "train_draw" if row["thesis_metric"] == "training" else "val_draw"
    stop = row["seeds"] < row["seeds_run"] or "stop" in key
    ten = 100 * ev.per_seed(key, field)
    many = 100 * ev.many(key, field, drop_stopped=stop)
    bimodal = key in BIMODAL_KEYS
    successes = thesis_count = many_successes = None
    if bimodal:
        successes = stats.successes(ten / 100)
        many_successes = stats.successes(many / 100)
        thesis_count = thesis_successes(row["thesis_draw"], row["thesis_seeds"])
        chance = stats.tail_probability(
            thesis_count, row["thesis_seeds"], many_successes / many.size
        )
    else:
        chance = stats.chance_of_mean(row["thesis_draw"], many, row["thesis_seeds"])
    return RowCheck(
        key=key,
        metric=field,
        mean=float(ten.mean()),
        sd=float(ten.std(ddof=1)),
        seeds=int(ten.size),
        thesis=row["thesis_draw"],
        thesis_sd=row["thesis_draw_sd"],
        thesis_seeds=row["thesis_seeds"],
        agrees=bool(row["agrees"]),
        many_mean=float(many.mean()),
        many_sd=float(many.std(ddof=1)),
        many_seeds=int(many.size),
        bimodal=bimodal,
        successes=successes,
        thesis_count=thesis_count,
        many_successes=many_successes,
        chance=chance,
    )


def seed_count_table(ev) -> list[dict[str, str]]:
    """Display rows: every stored row that misses the thesis, and every bimodal row, with
    our ten- and forty-seed values and the probability of the thesis's outcome; then the
    no-restock runs that stop at an empty box (the thesis's 4 of 10)."""
    out = []
    for r in ev.thesis.rows:
        check = row_check(ev, r["key"])
        if check.passed and not check.bimodal:
            continue
        if check.bimodal:
            ours = f"{check.successes} of {check.seeds}"
            thesis = f"{check.thesis_count} of {check.thesis_seeds}"
            many = f"{check.many_successes} of {check.many_seeds}"
        else:
            ours = f"{check.mean:.1f} ± {check.sd:.1f}"
            thesis = f"{check.thesis:.1f} ± {check.thesis_sd:.1f}"
            many = f"{check.many_mean:.1f} ± {check.many_sd:.1f}"
        out.append(
            {
                "row": f"{r['table']} {r['agent']} ({r['condition']})",
                "ours, 10 seeds": ours,
                "thesis": thesis,
                "ours, 40 seeds": many,
                "P(thesis's outcome)": f"{check.chance:.2f}",
                "matches": "yes" if check.passed else "no",
            }
        )
    stopped = ev.seeds["rows"]["9.4/MENACE/no restock (stop)"]["stopped"]
    ten, many = sum(stopped[:10]), sum(stopped)
    out.append(
        {
            "row": "9.4 MENACE (no restock): runs that stop at an empty box",
            "ours, 10 seeds": f"{ten} of 10",
            "thesis": "4 of 10",
            "ours, 40 seeds": f"{many} of {len(stopped)}",
            "P(thesis's outcome)": f"{stats.tail_probability(4, 10, many / len(stopped)):.2f}",
            "matches": "yes" if ten == 4 else "no",
        }
    )
    return out


# --- §9.2: training spread vs evaluation noise -------------------------------------------


def variance_rows(ev, table: str = "9.1") -> list[dict[str, Any]]:
    """Per row of ``table``: the seed variance split into training and evaluation (SDs in pp).

    Ours uses each seed's exact draw probability (:func:`~.stats.variance_split`); the
    thesis's is recovered from its printed mean ± SD (:func:`~.stats.thesis_variance_split`).
    """
    games = ev.thesis.config["protocol"]["validation_games"]
    rows = []
    for row in ev.thesis.rows:
        if row["table"] != table:
            continue
        key = row["key"]
        ours = stats.variance_split(
            ev.per_seed(key, "exact_draw"), ev.per_seed(key, "val_draw"), games
        )
        theirs = stats.thesis_variance_split(
            row["thesis_draw"], row["thesis_draw_sd"], row["thesis_seeds"], games
        )
        rows.append(
            {
                "key": key,
                "agent": row["agent"],
                "condition": row["condition"],
                "sd": np.sqrt(ours.total),
                "training_sd": np.sqrt(ours.training),
                "evaluation_sd": np.sqrt(ours.evaluation),
                "training_share": ours.training_share,
                "thesis_sd": row["thesis_draw_sd"],
                "thesis_training_sd": np.sqrt(theirs.training),
                "thesis_evaluation_sd": np.sqrt(theirs.evaluation),
                "thesis_training_share": theirs.training_share,
            }
        )
    return rows


def variance_table(ev, table: str = "9.1") -> list[dict[str, str]]:
    """Display rows of :func:`variance_rows` (SDs in percentage points)."""
    return [
        {
            "row": f"{v['agent']} ({v['condition']})",
            "SD": f"{v['sd']:.1f}",
            "training SD": f"{v['training_sd']:.1f}",
            "evaluation SD": f"{v['evaluation_sd']:.1f}",
            "training share": f"{v['training_share']:.0%}",
            "thesis: training share": f"{v['thesis_training_share']:.0%}",
        }
        for v in variance_rows(ev, table)
    ]


# --- §9.6: the Oracle's opponent models --------------------------------------------------

ORACLE_KEYS = {
    "uniform": "9.2/Oracle AIF/uniform",
    "adversarial": "9.2/Oracle AIF/adversarial",
    "minimax": "9.2/Oracle AIF/minimax",
}


def oracle_models(ev) -> dict[str, Any]:
    """Table 9.2 recomputed: intervals, Adversarial vs Minimax, the ratio to Uniform.

    The thesis's numbers are training draw rates (see ``implementation_decisions``), so
    ours are too; the validation rates are given beside them.
    """
    out: dict[str, Any] = {"models": {}}
    for model, key in ORACLE_KEYS.items():
        row = ev.thesis.row(key)
        train = 100 * ev.per_seed(key, "train_draw")
        val = 100 * ev.per_seed(key, "val_draw")
        out["models"][model] = {
            "thesis": row["thesis_draw"],
            "thesis_interval": stats.printed_interval(
                row["thesis_draw"], row["thesis_draw_sd"], row["thesis_seeds"]
            ),
            "training": float(train.mean()),
            "training_sd": float(train.std(ddof=1)),
            "training_interval": stats.mean_interval(train),
            "validation": float(val.mean()),
            "validation_interval": stats.mean_interval(val),
        }
    adv = 100 * ev.per_seed(ORACLE_KEYS["adversarial"], "train_draw")
    mm = 100 * ev.per_seed(ORACLE_KEYS["minimax"], "train_draw")
    out["difference"], out["p"] = stats.welch(adv, mm)
    out["identical"] = bool(np.array_equal(adv, mm))
    m = out["models"]
    out["thesis_ratio"] = m["adversarial"]["thesis"] / m["uniform"]["thesis"]
    out["ratio"] = m["adversarial"]["training"] / m["uniform"]["training"]
    out["validation_ratio"] = m["adversarial"]["validation"] / m["uniform"]["validation"]
    return out


# --- §9.8.3: the shape of the learning curves ---------------------------------------------

CURVE_WORDS = {
    "smooth exponential decay": "the loss falls, an exponential fits it (R² ≥ 0.9) better "
    "than one step does, and fewer than 30 % of seeds relapse",
    "step-like": "a single step fits at least as well as an exponential",
    "erratic": "at least 30 % of seeds relapse (loss rises by > 10 pp between checkpoints)",
}
"""How each of the thesis's words (§9.8.3) is read on the per-seed exact loss curves."""


def shape_words(shape: stats.CurveShape) -> dict[str, bool]:
    """Which of :data:`CURVE_WORDS` a :class:`~.stats.CurveShape` earns."""
    smooth = shape.exponential_r2 >= 0.9 and shape.exponential_r2 > shape.step_r2
    return {
        "smooth exponential decay": smooth and shape.relapses < 0.3 and shape.decline > 0.05,
        "step-like": shape.step_r2 >= shape.exponential_r2,
        "erratic": shape.relapses >= 0.3,
    }


def curve_shapes(ev) -> dict[str, dict[str, Any]]:
    """Per dynamics condition: its curves (seeds × checkpoints), shape numbers and words."""
    return ev.memo("curve_shapes", lambda: _curve_shapes(ev))


def shape_table(ev) -> list[dict[str, str]]:
    """Display rows of :func:`curve_shapes`: the shape numbers and the words each earns."""
    return [
        {
            "agent": f"{key.split('/')[1]} ({key.split('/')[2]})",
            "exponential R²": f"{s['shape'].exponential_r2:.2f}",
            "one-step R²": f"{s['shape'].step_r2:.2f}",
            "seeds that relapse": f"{s['shape'].relapses:.0%}",
            "words earned": ", ".join(w for w, ok in s["words"].items() if ok) or "—",
        }
        for key, s in curve_shapes(ev).items()
    ]


def _curve_shapes(ev) -> dict[str, dict[str, Any]]:
    out = {}
    for cond in ev.dynamics["conditions"]:
        key = f"{cond['table']}/{_label(cond)}/{cond['condition']}"
        runs = ev.runs(key)
        games = runs[0]["games"]
        losses = np.array([r["exact_loss"] for r in runs])
        shape = stats.curve_shape(games, losses)
        out[key] = {
            "games": games,
            "loss": losses,
            "draw": np.array([r["exact_draw"] for r in runs]),
            "shape": shape,
            "words": shape_words(shape),
        }
    return out


def _label(cond: dict[str, Any]) -> str:
    return AGENT_LABELS[cond["agent"]]


# --- §7.5.2 / §9.7: does λ change Pure AIF's trajectory? -----------------------------------


def lambda_bands(ev, level: float = 0.95) -> dict[str, Any]:
    """Pure AIF at λ = 0, 0.25, 0.5: exact and cumulative training draw curves with bands.

    Returns per key the checkpoint games, mean and ``level`` t-interval of the exact
    draw probability, and the same for the cumulative training draw rate; and, for
    λ = 0.25 and 0.5 against λ = 0, the Welch p-value at every checkpoint and which
    checkpoints differ after Holm's correction.
    """
    return ev.memo(f"lambda_bands/{level}", lambda: _lambda_bands(ev, level))


def _lambda_bands(ev, level: float) -> dict[str, Any]:
    from ...experiments.results import cumulative_draws

    curves = {}
    for key in LAMBDA_KEYS:
        recs = ev.thesis.records_for(key)
        exact = 100 * np.array([r["curve"]["draw"] for r in recs])
        cumulative = 100 * np.array([cumulative_draws(r) for r in recs])
        curves[key] = {
            "games": recs[0]["curve"]["games"],
            "exact": exact,
            "exact_band": _band(exact, level),
            "cumulative": cumulative,
            "cumulative_band": _band(cumulative, level),
        }
    base = curves[LAMBDA_KEYS[0]]
    tests = {}
    for key in LAMBDA_KEYS[1:]:
        p, sig = stats.pointwise_difference(curves[key]["exact"], base["exact"])
        early = slice(0, 4)  # the first 100 games: where exploration would show
        d_early = float(curves[key]["cumulative"][:, 99].mean() - base["cumulative"][:, 99].mean())
        tests[key] = {
            "p": p,
            "significant": sig,
            "separated": int(sig.sum()),
            "early_p": float(p[early].min()),
            "cumulative_100_difference": d_early,
        }
    return {"curves": curves, "tests": tests}


def _band(values: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo, hi = stats.mean_intervals(values, level)
    return values.mean(axis=0), lo, hi


# --- §8.5.3, §9.5, §9.10: learning dynamics -------------------------------------------------


def agreement_table(ev, table: str = "9.1") -> list[dict[str, str]]:
    """Display rows (§9.5): per agent, visit-weighted minimax agreement and coverage at the
    end of training, the share of the last 1,000 training games lost, and the exact draw
    probability against the perfect player."""
    out = []
    for row in ev.thesis.rows:
        if row["table"] != table:
            continue
        end = dynamics_at_end(ev, row["key"])
        late = "".join(r["train_results"][-1000:] for r in ev.thesis.records_for(row["key"]))
        out.append(
            {
                "agent": f"{row['agent']} ({row['condition']})",
                "minimax-optimal moves, visit-weighted": f"{end['agreement']:.1%}",
                "states covered": f"{end['coverage']:.0%}",
                "late training games lost": f"{late.count('2') / len(late):.1%}",
                "exact draw vs perfect": f"{row['exact_draw_mean']:.1f} %",
            }
        )
    return out


def dynamics_at_end(ev, key: str) -> dict[str, float]:
    """Means over seeds of a condition's last observation (NaN-aware)."""
    out = {}
    for field in ("kl_forward", "reverse_finite", "agreement", "entropy", "coverage"):
        out[field] = float(np.nanmean(ev.observed(key, field)[:, -1]))
    return out


# --- §8.8: computational figures ------------------------------------------------------------


def computational_rows(ev) -> list[dict[str, Any]]:
    """The thesis's §8.8 figures beside this machine's (from the bench)."""
    from ...experiments.bench import THESIS_FIGURES

    c = ev.computational
    slowest = max(c["train_500_s"], key=c["train_500_s"].get)
    agent_mb = {k: v["agent_mb"] for k, v in c["memory_mb"].items()}
    heaviest = max(agent_mb, key=agent_mb.get)
    process_mb = max(v["process_mb"] for v in c["memory_mb"].values())
    return [
        {
            "figure": "one agent, 500 training games",
            "thesis": f"~{THESIS_FIGURES['train_500_s']:g} s",
            "ours": c["train_500_s"]["menace"],
            "ours_text": (
                f"MENACE {c['train_500_s']['menace']:.2f} s; slowest "
                f"({slowest}) {c['train_500_s'][slowest]:.2f} s"
            ),
            "slowest": c["train_500_s"][slowest],
        },
        {
            "figure": "full comparison suite, 10 seeds",
            "thesis": "~2 min",
            "ours": c.get("suite_s"),
            "ours_text": f"{c['suite_s']:.0f} s on {c['cores']} cores",
        },
        {
            "figure": "parameter sweep",
            "thesis": "~30 min",
            "ours": c.get("sweep_s"),
            "ours_text": f"λ sweep (12 rows × 10 seeds) {c['sweep_s']:.0f} s",
        },
        {
            "figure": "memory per agent",
            "thesis": "< 100 MB",
            "ours": agent_mb[heaviest],
            "ours_text": (
                f"largest agent {agent_mb[heaviest]:.1f} MB ({heaviest}); whole process "
                f"at most {process_mb:.0f} MB"
            ),
        },
    ]


# --- §5.3: regret ---------------------------------------------------------------------------


def regret_slopes(ev, from_step: int = 1000) -> dict[str, dict[str, float]]:
    """Per rule: log–log slope of mean cumulative regret beyond ``from_step``, and the
    ratio regret / (√T ln T) at the first and last horizon beyond it."""
    doc = ev.regret
    T = np.asarray(doc["horizons"], dtype=float)
    late = from_step <= T
    out = {}
    for rule, chunks in doc["curves"].items():
        mean = np.mean(np.asarray(chunks, dtype=float), axis=0)
        slope = float(np.polyfit(np.log(T[late]), np.log(mean[late]), 1)[0])
        bound = np.sqrt(T) * np.log(T)
        ratio = mean[late] / bound[late]
        out[rule] = {
            "slope": slope,
            "final": float(mean[-1]),
            "ratio_first": float(ratio[0]),
            "ratio_last": float(ratio[-1]),
        }
    return out


PERFECT_ONLY_KEY = PERFECT_ONLY.key
