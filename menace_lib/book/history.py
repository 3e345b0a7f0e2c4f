"""The historical record checked: Michie (1961, 1963), Gardner (1962) and the computer MENACE.

:func:`history_study` computes every figure the historical rows of the claims ledger
read, and writes nothing; ``python -m menace_lib experiment history --json
book/data/history.json`` stores it. Its parts:

``bias``
    the opening player's advantage under uniform random play by both sides, exactly
    over the game tree (fractions): P(first wins) / P(second wins);
``milestones``
    Gardner's tournament milestones set against MENACE (Michie's 287 boxes, move
    classes, 4-3-2-1 beads, +3/+1/-1) trained against each scripted opponent: the
    first game after which the opening box holds corner beads only, the share of
    machines drawing game 20, and the exact loss rate after 150 games;
``pegasus_sweep``
    the computer MENACE against the random opponent over a grid of ``A`` and ``B``:
    per setting, duplicate runs' exact score (win minus loss) against the same
    opponent after training, their spread, and how many come within 0.05 of the best
    score any policy can reach (:func:`best_score_vs_random`);
``pegasus_selfplay``
    two computer MENACEs (X and O) learning against each other; each side's exact
    loss rate against the perfect player at checkpoints.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from ..agents.pegasus import PegasusConfig, PegasusMenace
from ..base.progress import bar
from ..games.board import O, X
from ..games.statespace import ONGOING, tables
from ..machine.menace import Menace, MenaceConfig
from ..play.evaluation import exact_outcome
from ..play.loop import play_game
from ..play.opponents import make_opponent
from ..play.selfplay import play_menace_vs_menace

__all__ = [
    "MICHIE_1961",
    "MILESTONE_OPPONENTS",
    "SWEEP_A",
    "SWEEP_B",
    "best_score_vs_random",
    "draw_history",
    "draw_regret",
    "history_study",
    "ledger_rows",
    "regret_rows",
    "milestones",
    "pegasus_selfplay",
    "pegasus_sweep",
    "random_play_outcome",
]

MICHIE_1961 = MenaceConfig(filter="michie", layout="class", schedule=(4, 3, 2, 1))
"""The matchbox MENACE of the tournament: 287 boxes, move classes, 4-3-2-1, +3/+1/-1."""

MILESTONE_OPPONENTS = ("random", "defensive", "positional", "perfect")
"""The scripted opponents set against Gardner's milestones."""

SWEEP_A = (1.5, 3.0, 10.0, 100.0)
SWEEP_B = (1.0, 1.1)
SELFPLAY = (PegasusConfig(A=2.0, B=1.0), PegasusConfig(A=10.0, B=1.0))
"""The self-play settings: a mild and a strong reinforcement."""


def random_play_outcome() -> dict[str, Fraction]:
    """Exact P(first wins), P(draw), P(second wins) when both sides play uniformly at random."""
    T = tables()

    @cache
    def value(s: int) -> tuple[Fraction, Fraction, Fraction]:
        o = int(T.outcome[s])
        if o != ONGOING:
            return (
                (Fraction(1), Fraction(0), Fraction(0))
                if o == X
                else (Fraction(0), Fraction(0), Fraction(1))
                if o == O
                else (Fraction(0), Fraction(1), Fraction(0))
            )
        legal = T.legal_lists[s]
        parts = [value(int(T.succ[s, m])) for m in legal]
        n = len(legal)
        return tuple(sum((p[i] for p in parts), Fraction(0)) / n for i in range(3))  # type: ignore[return-value]

    first, draw, second = value(0)
    return {"first": first, "draw": draw, "second": second}


def best_score_vs_random() -> float:
    """The largest expected score (win 1, draw 0, loss -1) X can reach against the random O."""
    T = tables()

    @cache
    def value(s: int) -> float:
        o = int(T.outcome[s])
        if o != ONGOING:
            return 1.0 if o == X else -1.0 if o == O else 0.0
        nxt = [value(int(T.succ[s, m])) for m in T.legal_lists[s]]
        return max(nxt) if T.player[s] == X else sum(nxt) / len(nxt)

    return value(0)


def _only_corners(agent: Menace) -> bool:
    """Whether the opening box holds beads for corner moves only (class layout)."""
    b = agent.box_for(0)
    members = agent.members[b]
    corners = {0, 2, 6, 8}
    return all(w <= 0 or set(m) <= corners for w, m in zip(agent.weights[b], members, strict=True))


def milestones(
    opponents: tuple[str, ...] = MILESTONE_OPPONENTS,
    seeds: int = 50,
    games: int = 150,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Gardner's milestones for the tournament MENACE against each scripted opponent."""
    out: dict[str, Any] = {}
    with bar(len(opponents) * seeds, "milestones", progress=progress) as b:
        for name in opponents:
            opp = make_opponent(name)
            corner_at, draw20, loss150 = [], [], []
            for seed in range(seeds):
                agent = Menace(MICHIE_1961)
                rng = np.random.default_rng([17, seed])
                first = None
                results = []
                for g in range(1, games + 1):
                    played = play_game(agent, opp, rng)  # the generic loop: one game, then learn
                    result = played.result(X)
                    agent.end_game(played.records[0], result, played.final)
                    results.append(result)
                    if first is None and _only_corners(agent):
                        first = g
                corner_at.append(first)
                draw20.append(results[19] == 1)
                loss150.append(exact_outcome(agent.frozen_copy(), opp)["loss"])
                b.update(1)
            reached = [c for c in corner_at if c is not None]
            out[name] = {
                "corner_only_reached": len(reached),
                "corner_only_median": float(np.median(reached)) if reached else None,
                "draw_game_20": float(np.mean(draw20)),
                "loss_after": float(np.mean(loss150)),
                "per_seed": {
                    "corner_only": corner_at,
                    "draw_game_20": draw20,
                    "loss_after": loss150,
                },
            }
    return {"seeds": seeds, "games": games, "opponents": out}


def pegasus_sweep(
    A: tuple[float, ...] = SWEEP_A,
    B: tuple[float, ...] = SWEEP_B,
    seeds: int = 8,
    games: int = 2000,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Duplicate runs of the computer MENACE (X) against the random opponent, per ``(A, B)``."""
    opp = make_opponent("random")
    best = best_score_vs_random()
    rows = []
    with bar(len(A) * len(B) * seeds, "A, B sweep", progress=progress) as b:
        for a in A:
            for bb in B:
                scores = []
                for seed in range(seeds):
                    agent = PegasusMenace(PegasusConfig(A=a, B=bb))
                    agent.train_against(
                        opp, games, np.random.default_rng([1963, seed]), record=False
                    )
                    r = exact_outcome(agent.frozen_copy(), opp)
                    scores.append(r["win"] - r["loss"])
                    b.update(1)
                s = np.array(scores)
                rows.append(
                    {
                        "A": a,
                        "B": bb,
                        "scores": s.tolist(),
                        "mean": float(s.mean()),
                        "sd": float(s.std(ddof=1)) if len(s) > 1 else 0.0,
                        "near_best": int((s >= best - 0.05).sum()),
                    }
                )
    return {"seeds": seeds, "games": games, "best_score": best, "rows": rows}


def pegasus_selfplay(
    config: PegasusConfig = PegasusConfig(),  # noqa: B008 (frozen)
    seeds: int = 8,
    games: int = 2000,
    every: int = 100,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Two computer MENACEs learn together; each side's exact loss to the perfect player."""
    perfect = make_opponent("perfect")
    marks = list(range(0, games + 1, every))
    x_loss, o_loss = [], []
    with bar(seeds, "self-play", progress=progress) as b:
        for seed in range(seeds):
            rng = np.random.default_rng([1963, 2, seed])
            xa = PegasusMenace(config)
            oa = PegasusMenace(PegasusConfig(A=config.A, B=config.B, decay=config.decay, player=O))
            xs, os_ = [], []
            for g in range(games + 1):
                if g in marks:
                    xs.append(exact_outcome(xa.frozen_copy(), perfect)["loss"])
                    os_.append(exact_outcome(oa.frozen_copy(), perfect)["loss"])
                if g < games:
                    play_menace_vs_menace(xa, oa, rng)
            x_loss.append(xs)
            o_loss.append(os_)
            b.update(1)
    return {
        "config": {"A": config.A, "B": config.B, "decay": config.decay},
        "seeds": seeds,
        "marks": marks,
        "x_loss": x_loss,
        "o_loss": o_loss,
    }


def history_study(progress: bool | None = None) -> dict[str, Any]:
    """Every figure of the historical rows (see the module docstring); JSON-ready."""
    r = random_play_outcome()
    return {
        "format": "menace_lib.history",
        "version": 1,
        "bias": {
            "first": str(r["first"]),
            "draw": str(r["draw"]),
            "second": str(r["second"]),
            "ratio": float(r["first"] / r["second"]),
        },
        "milestones": milestones(progress=progress),
        "pegasus_sweep": pegasus_sweep(progress=progress),
        "pegasus_selfplay": [pegasus_selfplay(c, progress=progress) for c in SELFPLAY],
    }


# --- the book's figures and tables -----------------------------------------------------


def draw_history(doc: dict[str, Any]):
    """Left: each duplicate run's exact score after the A, B sweep; right: self-play loss curves."""
    import matplotlib.pyplot as plt

    from ..base import palette

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), constrained_layout=True)
    sweep = doc["pegasus_sweep"]
    for i, row in enumerate(sweep["rows"]):
        xs = np.full(len(row["scores"]), i) + np.linspace(-0.15, 0.15, len(row["scores"]))
        left.plot(
            xs, row["scores"], "o", ms=4, color=palette.BLUE if row["B"] == 1 else palette.ORANGE
        )
    left.axhline(sweep["best_score"], color=palette.GREY, lw=1, ls="--")
    left.set_xticks(range(len(sweep["rows"])))
    left.set_xticklabels([f"A={r['A']:g}\nB={r['B']:g}" for r in sweep["rows"]], fontsize=8)
    left.set_ylabel("exact score against random (win − loss)")
    left.set_title(f"duplicate runs after {sweep['games']} games")
    for run, style in zip(doc["pegasus_selfplay"], ("-", "--"), strict=False):
        marks = run["marks"]
        for key, colour, side in (
            ("x_loss", palette.BLUE, "X"),
            ("o_loss", palette.VERMILLION, "O"),
        ):
            mean = np.mean(run[key], axis=0)
            right.plot(
                marks, mean, style, color=colour, label=f"{side}, A = {run['config']['A']:g}"
            )
    right.set_xlabel("self-play games")
    right.set_ylabel("exact loss rate to the perfect player")
    right.set_ylim(0, 1)
    right.legend(fontsize=8)
    right.set_title("two computer MENACEs learning together")
    return fig


def ledger_rows(entries) -> list[dict[str, str]]:
    """The historical rows of the ledger as table rows (source, claim, value, ours, verdict)."""
    return [
        {
            "source": e.claim.source,
            "claim": e.claim.claim,
            "the source says": e.claim.thesis,
            "ours": e.measured.text,
            "verdict": e.verdict,
        }
        for e in entries
        if e.claim.historical
    ]


def draw_regret(doc: dict[str, Any]):
    """Exact Bayesian regret against the number of pulls, one line per policy."""
    import matplotlib.pyplot as plt

    from ..base import palette

    styles = {
        "greedy": palette.SKY,
        "thompson": palette.GREEN,
        "matching": palette.VERMILLION,
        "win-bead": palette.PURPLE,
        "menace": palette.BLUE,
    }
    labels = {
        "greedy": "greedy",
        "thompson": "Thompson sampling",
        "matching": "probability matching",
        "win-bead": "a win adds a bead",
        "menace": "MENACE's +1/−1 beads",
    }
    fig, ax = plt.subplots(figsize=(7, 4), constrained_layout=True)
    steps = np.arange(1, len(doc["curves"]["greedy"]) + 1)
    for policy, colour in styles.items():
        ax.plot(steps, doc["curves"][policy], color=colour, label=labels[policy])
    opt = doc["optimal_curve"]
    ax.plot(opt["horizons"], opt["regret"], "o", ms=3, color=palette.BLACK, label="Bayes-optimal")
    ax.set_xlabel("pulls (horizon)")
    ax.set_ylabel("Bayesian regret")
    ax.legend(fontsize=8)
    return fig


def regret_rows(doc: dict[str, Any]) -> list[dict[str, str]]:
    """The regret table: a row per policy, a column per horizon, and the value of information."""
    names = {
        "bayes-optimal": "Bayes-optimal",
        "greedy": "greedy",
        "thompson": "Thompson sampling",
        "matching": "probability matching",
        "win-bead": "a win adds a bead",
        "menace": "MENACE's +1/−1 beads",
    }
    rows = [
        {
            "policy": names[p],
            **{str(h): f"{v:.3f}" for h, v in zip(doc["horizons"], values, strict=True)},
        }
        for p, values in doc["table"].items()
    ]
    rows.append(
        {
            "policy": "value of information (greedy − Bayes-optimal)",
            **{
                str(h): f"{v:.3f}"
                for h, v in zip(doc["horizons"], doc["value_of_information"], strict=True)
            },
        }
    )
    return rows
