"""The measures of the ledger's historical rows and of the exact-regret rows.

The historical rows (section ``"H.n"``) check what the book retells from Michie
(1961, 1963), Gardner (1962) and Scroggs' web MENACE; their figures come from
``book/data/history.json`` (:func:`menace_lib.book.history.history_study`, written by
``python -m menace_lib experiment history --json book/data/history.json``), except the
opening player's bias, which is recomputed exactly here. The exact-regret rows read
``book/data/exact_regret.json`` (:func:`menace_lib.maths.bandit_regret.exact_regret_table`,
``python -m menace_lib experiment exact-regret --json book/data/exact_regret.json``) and
re-run its horizon-20 column, so a stale file fails the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...base.files import check_header, read_json
from ...maths import bandit_regret as br
from ..history import random_play_outcome
from .ledger import Measured

__all__ = ["HISTORY_FILE", "HISTORY_MEASURES", "REGRET_FILE", "closest", "history", "regret"]

HISTORY_FILE = "history.json"
REGRET_FILE = "exact_regret.json"

GARDNER = {"corner": 17.0, "draw20": 1.0, "coping150": 0.0}
"""Gardner's milestones as numbers: corner-only opening box by game 17; game 20 drawn;
no losses by game 150 ("coping")."""


def _stored(ev, name: str, what: str, fmt: str) -> dict[str, Any]:
    """The stored file ``name`` of the evidence's folder, read once, its header checked."""

    def read() -> dict[str, Any]:
        path = ev.data_dir / name
        doc = read_json(path, what)
        check_header(doc, fmt, 1, str(path))
        return doc

    return ev.memo(name, read)


def history(ev) -> dict[str, Any]:
    """The stored historical study."""
    return _stored(ev, HISTORY_FILE, "historical study", "menace_lib.history")


def regret(ev) -> dict[str, Any]:
    """The stored exact-regret table."""
    return _stored(ev, REGRET_FILE, "exact regret", "menace_lib.bandit_regret")


# --- history -----------------------------------------------------------------------------


def _opening_bias(ev) -> Measured:
    r = random_play_outcome()
    ratio = float(r["first"] / r["second"])
    return Measured(
        ratio,
        f"{ratio:.3f} to 1",
        f"exact over the game tree: P(first wins) = {r['first']} ≈ {float(r['first']):.4f}, "
        f"P(second wins) = {r['second']} ≈ {float(r['second']):.4f}, "
        f"P(draw) = {r['draw']} ≈ {float(r['draw']):.4f}",
    )


def closest(ev, field: str) -> tuple[str, float | None]:
    """The scripted opponent whose milestone ``field`` lies nearest Gardner's, and its value."""
    rows = history(ev)["milestones"]["opponents"]
    target = {"corner_only_median": GARDNER["corner"], "draw_game_20": 1.0, "loss_after": 0.0}[
        field
    ]
    found = [(name, row[field]) for name, row in rows.items() if row[field] is not None]
    if not found:
        return "none", None
    return min(found, key=lambda item: abs(item[1] - target))


def _milestone(field: str, fmt: Callable[[Any], str]) -> Callable:
    def measure(ev) -> Measured:
        doc = history(ev)["milestones"]
        rows = doc["opponents"]
        name, value = closest(ev, field)
        listed = "; ".join(
            f"{opp}: {fmt(row[field])}"
            + (
                f" ({row['corner_only_reached']} of {doc['seeds']} machines)"
                if field == "corner_only_median"
                else ""
            )
            for opp, row in rows.items()
        )
        return Measured(
            None,
            f"closest: against the {name} player, {fmt(value)}",
            f"MENACE of 287 boxes, move classes, 4-3-2-1, +3/+1/−1, box restock, "
            f"{doc['seeds']} machines of {doc['games']} games each: {listed}",
        )

    return measure


def _game(x: float | None) -> str:
    return "never" if x is None else f"game {x:g} (median)"


def _share(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f} % drew game 20"


def _loss(x: float | None) -> str:
    return "—" if x is None else f"exact loss {x:.3f} after 150 games"


def _sweep_rows(ev) -> list[dict[str, Any]]:
    return history(ev)["pegasus_sweep"]["rows"]


def _non_convergence(ev) -> Measured:
    doc = history(ev)["pegasus_sweep"]
    rows = doc["rows"]
    mild = min(rows, key=lambda r: (r["A"], -r["B"]))
    strong = max(rows, key=lambda r: (r["A"], -r["B"]))
    n = doc["seeds"]
    holds = strong["near_best"] < mild["near_best"] and strong["sd"] > mild["sd"]
    text = (
        f"A = {strong['A']:g}, B = {strong['B']:g}: {strong['near_best']} of {n} duplicates "
        f"near the best score, spread {strong['sd']:.3f}; A = {mild['A']:g}, B = {mild['B']:g}: "
        f"{mild['near_best']} of {n}, spread {mild['sd']:.3f}"
    )
    note = (
        f"{doc['games']} games against the random player; score = exact P(win) − P(loss) "
        f"afterwards; best reachable {doc['best_score']:.4f}; near = within 0.05"
    )
    return Measured(holds, text, note)


SELFPLAY_MARK = 500
"""The game at which self-play is judged ("a few hundred games")."""

NEAR_EXPERT = 0.1
"""Mean exact loss rate to the perfect player at or below which a side plays near-expert."""


def _selfplay(ev) -> Measured:
    import numpy as np

    runs = history(ev)["pegasus_selfplay"]
    doc, strong = runs[0], runs[1]  # judged on the mild setting; the strong one in the note
    i = doc["marks"].index(SELFPLAY_MARK)
    xs = float(np.mean([run[i] for run in strong["x_loss"]]))
    os_ = float(np.mean([run[i] for run in strong["o_loss"]]))
    x = float(np.mean([run[i] for run in doc["x_loss"]]))
    o = float(np.mean([run[i] for run in doc["o_loss"]]))
    last = doc["marks"][-1]
    x_end = float(np.mean([run[-1] for run in doc["x_loss"]]))
    o_end = float(np.mean([run[-1] for run in doc["o_loss"]]))
    cfg = doc["config"]
    return Measured(
        max(x, o),
        f"after {SELFPLAY_MARK} games: X loses {x:.3f}, O loses {o:.3f} to the perfect player",
        f"A = {cfg['A']:g}, B = {cfg['B']:g}, D = {cfg['decay']:g}, {doc['seeds']} pairs; "
        f"after {last}: X {x_end:.3f}, O {o_end:.3f} (exact loss rates, means over pairs); "
        f"A = {strong['config']['A']:g}: after {SELFPLAY_MARK} X {xs:.3f}, O {os_:.3f}",
    )


def _scroggs(ev) -> Measured:
    return Measured(None, "—", "no stored text gives the figure's opponent or number of games")


# --- exact regret --------------------------------------------------------------------------

_LABELS = {
    "bayes-optimal": "Bayes-optimal",
    "greedy": "greedy",
    "thompson": "Thompson",
    "matching": "matching",
    "win-bead": "a win adds a bead",
    "menace": "MENACE ±1",
}


def _fresh_at_20(doc: dict[str, Any]) -> bool:
    """Whether the stored horizon-20 column equals a fresh dynamic programme."""
    i = doc["horizons"].index(20)
    fresh = {
        "bayes-optimal": br.bayes_optimal_regret(20),
        **{p: float(br.count_policy_regret(p, 20)[-1]) for p in br.COUNT_POLICIES},
        "menace": float(br.bead_rule_regret(20)[-1]),
    }
    return all(abs(doc["table"][p][i] - fresh[p]) <= 1e-12 for p in br.POLICIES)


def _regret_table(ev) -> Measured:
    doc = regret(ev)
    i = doc["horizons"].index(100)
    values = {p: doc["table"][p][i] for p in br.POLICIES}
    ordered = all(values["bayes-optimal"] <= v for v in values.values())
    return Measured(
        ordered and _fresh_at_20(doc),
        "; ".join(f"{_LABELS[p]} {v:.3f}" for p, v in values.items()),
        "Bayesian regret at 100 pulls, two arms, Beta(1, 1) priors; exact (dynamic "
        "programming), horizon 20 re-run",
    )


def _value_of_information(ev) -> Measured:
    doc = regret(ev)
    voi = dict(zip(doc["horizons"], doc["value_of_information"], strict=True))
    return Measured(
        voi[100],
        f"{voi[100]:.3f} at 100 pulls ({voi[10]:.3f} at 10, {voi[50]:.3f} at 50)",
        "greedy's exact regret minus the Bayes-optimal's",
    )


def _linear_growth(ev) -> Measured:
    doc = regret(ev)
    slope = doc["per_pull"]
    limit = doc["per_pull_limit_matching"]
    linear = ("matching", "win-bead", "menace", "greedy")
    holds = slope["matching"] >= 0.75 * limit and all(
        slope[p] > 2 * slope["thompson"] for p in ("matching", "menace")
    )
    return Measured(
        holds,
        "; ".join(f"{_LABELS[p]} {slope[p]:.4f}" for p in ("thompson", *linear)),
        f"regret of pull 100 (the curve's slope there); probability matching tends to "
        f"{limit:.4f} per pull",
    )


def _bead_rule_gap(ev) -> Measured:
    doc = regret(ev)
    i = doc["horizons"].index(100)
    menace, best = doc["table"]["menace"][i], doc["table"]["bayes-optimal"][i]
    return Measured(
        menace - best,
        f"{menace:.3f} against {best:.3f} at 100 pulls ({menace / best:.1f} times)",
        "MENACE's +1/−1 bead rule (one bead per arm to start, never below one) "
        "against the Bayes-optimal policy",
    )


HISTORY_MEASURES: dict[str, Callable] = {
    "opening_bias": _opening_bias,
    "gardner_corner": _milestone("corner_only_median", _game),
    "gardner_draw_20": _milestone("draw_game_20", _share),
    "gardner_coping": _milestone("loss_after", _loss),
    "pegasus_non_convergence": _non_convergence,
    "pegasus_selfplay": _selfplay,
    "scroggs_wins": _scroggs,
    "exact_regret_table": _regret_table,
    "exact_value_of_information": _value_of_information,
    "exact_linear_growth": _linear_growth,
    "exact_bead_rule_gap": _bead_rule_gap,
}
"""The measures of this module, by the name a record gives (joined to ``MEASURES``)."""
