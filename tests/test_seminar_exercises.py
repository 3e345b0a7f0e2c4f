"""The exercises of Parts IV and V: every number their solutions print, computed again.

The solutions are Markdown only (the pages' code belongs to their chapters); this test reads
each solution from its page and checks that the numbers it states are the library's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from menace_lib.agents.aif import AIFConfig
from menace_lib.agents.aif.forgetful import decayed_counts
from menace_lib.base.reproducibility import same_float
from menace_lib.machine import beads
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.maths.dirichlet import conjugate_update, dirichlet_mean

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import book_exercises as bx  # noqa: E402


def solution(page: str, label: str) -> str:
    """The text between an exercise's {solution-start} and {solution-end}."""
    cells = bx.page_cells(ROOT, f"book/{page}")
    text = "\n".join(bx.source(c) for c in cells if c["cell_type"] == "markdown")
    start = text.index(f"{{solution-start}} {label}")
    return text[start : text.index("{solution-end}", start)]


def r3(x: float) -> str:
    return f"{x:.3f}"


def test_exercises_of_parts_4_and_5_are_indexed():
    labels = {item.label: item.chapter for item in bx.exercises()}
    for label, page in [
        ("ex-discussion-loss", "book/discussion"),
        ("ex-priors-beads", "book/beyond_priors"),
        ("ex-lambda-decay", "book/beyond_lambda_schedule"),
        ("ex-opponent-forgetting", "book/beyond_opponent_model"),
    ]:
        assert labels[label] == page


def test_discussion_loss():
    text = solution("discussion", "ex-discussion-loss")
    box, initial = [[4.0, 4.0, 4.0]], [[4.0, 4.0, 4.0]]
    beads.reinforce(box, initial, initial, [(0, 2)], -1.0, "box", 0.0)
    assert box == [[4.0, 4.0, 3.0]] and "$(4, 4, 3)$" in text
    assert r3(3 / 11) in text and r3(box[0][2] / sum(box[0])) in text
    bayes = dirichlet_mean(conjugate_update([4, 4, 4], [1, 0, 0]))
    assert r3(bayes[2]) in text
    losses = 1
    while box[0][2] > 0:
        beads.reinforce(box, initial, initial, [(0, 2)], -1.0, "box", 0.0)
        losses += 1
    assert (losses, box) == (4, [[4.0, 4.0, 0.0]])
    assert "Four losses: $(4, 4, 0)$" in text


def test_priors_beads():
    text = solution("beyond_priors", "ex-priors-beads")
    totals = {s: Menace(MenaceConfig(schedule=s)).total_beads() for s in
              [(4, 3, 2, 1), (1, 1, 1, 1), (4, 4, 4, 4), (8, 4, 2, 1)]}  # fmt: skip
    assert totals[(4, 3, 2, 1)] == 1866
    for schedule in [(1, 1, 1, 1), (4, 4, 4, 4), (8, 4, 2, 1)]:
        assert f"{int(totals[schedule]):,}" in text, schedule
    for first in (1, 4, 8):
        agent = Menace(MenaceConfig(schedule=(first, 1, 1, 1)))
        box = [list(agent.weights[0])]
        centre = next(j for j, sq in enumerate(agent.members[0]) if 4 in sq)
        before = box[0][centre] / sum(box[0])
        beads.reinforce(box, box, box, [(0, centre)], 3.0, "box", 0.0)
        after = box[0][centre] / sum(box[0])
        assert r3(before) in text and r3(after) in text and r3(after - before) in text, first


def test_lambda_decay():
    text = solution("beyond_lambda_schedule", "ex-lambda-decay")
    config = AIFConfig(lam=1.0, lambda_schedule="decay", lambda_tau=50.0)
    assert config.epistemic_weight(50) == 0.5 and "$\\tau = 50$ games" in text
    assert r3(config.epistemic_weight(500)) in text
    assert same_float(config.epistemic_weight(950), 0.05)
    assert config.epistemic_weight(951) < 0.05 < config.epistemic_weight(949)
    assert "after 950 games" in text


def _observations(update, threshold: float, limit: int = 10_000) -> int | None:
    counts, m = [101.0] * 4, 0
    while dirichlet_mean(counts)[0] <= threshold:
        if m == limit:
            return None
        counts, m = update(counts), m + 1
    return m


def test_opponent_forgetting():
    text = solution("beyond_opponent_model", "ex-opponent-forgetting")
    assert f"$101/404 = {dirichlet_mean([101.0] * 4)[0]:g}$" in text
    plain = _observations(lambda a: conjugate_update(a, [1, 0, 0, 0]), 0.75)
    forgetful = _observations(lambda a: decayed_counts(a, 0, 1.0, 0.9), 0.75)
    assert f"{plain} observations" in text and f"{forgetful} observations" in text
    assert _observations(lambda a: decayed_counts(a, 0, 1.0, 0.9), 0.9) is None
    counts = [101.0] * 4
    for _ in range(2_000):
        counts = decayed_counts(counts, 0, 1.0, 0.9)
    assert r3(dirichlet_mean(counts)[0]) in text and r3(11 / 14) in text
