"""The AIF agents' caches for the Other games part: HER's comparison table and the
Instrumental agent's Connect-4 4×4 curves (what the book prints, checked against reruns)."""

from __future__ import annotations

import numpy as np
import pytest

import menace_lib as ml
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.beyond import scaling_aif
from menace_lib.book.her_compare import LEARNERS, build_comparison


def test_the_her_comparison_is_a_mean_of_exact_rates(tmp_path) -> None:
    out = build_comparison(tmp_path / "c.json", games=20, seeds=2, every=10)
    assert out == ml.base.files.read_json(tmp_path / "c.json", "HER comparison")
    name = "Instrumental AIF"
    curve = out["learners"][name]["random"]
    assert curve["marks"] == [0, 10, 20]
    perfect = ml.make_opponent("perfect", "uniform", game="hexapawn")
    random_white = ml.make_opponent("random", "uniform", game="hexapawn")
    losses = []
    for seed in range(2):  # the same runs by hand: the mean of the two exact rates
        agent = LEARNERS[name]()
        agent.train_against(random_white, 20, np.random.default_rng(seed), record=False)
        losses.append(ml.exact_outcome(agent, perfect)["loss"])
    assert_same_numbers(curve["rates"]["perfect"][-1][2], float(np.mean(losses)))


def test_the_her_table_says_what_the_cache_holds() -> None:
    """The chapter's sentence: trained against the perfect White, the agents lose about
    four (Instrumental) and five (Hybrid) games in a thousand to it; HER about one."""
    C = ml.book.her_compare.her_comparison()
    assert C["games"] == ml.book.her_chapter.her_results()["games"] == 200 and C["seeds"] == 300
    loss = {n: C["learners"][n]["perfect"]["rates"]["perfect"][-1][2] for n in C["learners"]}
    assert 0.003 < loss["Instrumental AIF"] < 0.005 < loss["Hybrid AIF (λ = 0.5)"] < 0.006
    her = ml.book.her_chapter.her_results()["exact"]["perfect"]["rates"]["perfect"][-1][2]
    assert her < 0.002 < loss["Instrumental AIF"]
    # Q-learning loses 10-19 % to every White, whoever trained it (its ε stays about 0.18)
    q = C["learners"]["Q-learning"]
    assert all(0.10 < q[t]["rates"][w][-1][2] < 0.19 for t in q for w in q[t]["rates"])


@pytest.mark.golden
def test_the_connect4_aif_cache_reruns_record_for_record() -> None:
    cached = ml.base.files.read_json(scaling_aif.CACHE, "AIF scaling")
    assert cached["settings"] == scaling_aif.SETTINGS and cached["seeds"] == len(cached["runs"])
    run = cached["runs"][0]
    again = scaling_aif.run_one(0, cached["budget"], stop=300)
    n = len(again["games"])
    assert again["games"] == run["games"][:n] and n > 5
    assert_same_numbers(again["not_losing"], run["not_losing"][:n], "not_losing")


def test_the_connect4_aif_cache_learns() -> None:
    cached = ml.base.files.read_json(scaling_aif.CACHE, "AIF scaling")
    for run in cached["runs"]:
        curve = run["not_losing"]
        assert curve[-1] > curve[0] + 0.5  # it learns to hold the perfect player
        assert run["games"][-1] == cached["budget"]
