"""The cached ten-seed studies of the other-machines chapter (menace_lib.book.variants.studies)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from menace_lib.agents import unsymmetrised
from menace_lib.base.files import AgentFileError
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.variants.studies import FORMAT, load_studies, save_studies
from menace_lib.play import selfplay

CACHED = Path(__file__).resolve().parents[1] / "book" / "data" / "other_machines.json"


@pytest.fixture(scope="module")
def cached():
    return load_studies(CACHED)


@pytest.mark.golden
def test_cached_file_is_what_the_library_computes_for_seed_0(cached):
    """Seed 0 recomputed now equals the file's seed 0: the cache is not stale."""
    assert cached["seeds"] == list(range(10))
    live = selfplay.checkpoint_outcomes(seeds=[0])
    assert set(live) == set(cached["checkpoint_outcomes"]) == set(selfplay.CHECKPOINTS)
    for checkpoint, outcomes in live.items():
        assert_same_numbers(cached["checkpoint_outcomes"][checkpoint][0], outcomes[0], checkpoint)
    symmetry = unsymmetrised.symmetry_comparison(seeds=[0])
    assert symmetry["checkpoints"] == cached["symmetry"]["checkpoints"]
    for name, curves in symmetry["curves"].items():
        assert_same_numbers(cached["symmetry"]["curves"][name][0], curves[0], name)
        for t, games in symmetry["games_to"][name].items():
            assert cached["symmetry"]["games_to"][name][t][0] == games[0]


def test_loaded_studies_feed_the_chapter_functions(cached):
    rows = unsymmetrised.symmetry_rows(cached["symmetry"])
    assert {r["machine"] for r in rows} == {"symmetric", "unsymmetrised"}
    assert all(r["seeds reaching it"].endswith("/ 10") for r in rows)
    run = selfplay.pooled_selfplay(100, np.random.default_rng(0), checkpoints=(25, 100))
    blog = selfplay.blog_checkpoint_rows(run, cached["checkpoint_outcomes"])
    assert [r["games"] for r in blog] == list(selfplay.BLOG_CHECKPOINT_DRAWS)
    assert all(r["mean of 10 seeds"] >= 0 and r["sd"] >= 0 for r in blog)


def test_save_then_load_round_trips(cached, tmp_path):
    path = save_studies(cached, tmp_path / "studies.json")
    again = load_studies(path)
    assert again["checkpoint_outcomes"] == cached["checkpoint_outcomes"]
    assert again["symmetry"]["games_to"] == cached["symmetry"]["games_to"]
    for name, curves in cached["symmetry"]["curves"].items():
        assert np.array_equal(again["symmetry"]["curves"][name], curves)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "top level must be a JSON object"),
        ('{"format": "other", "version": 1}', "format: expected"),
        (json.dumps({"format": FORMAT, "version": 9}), "version: this library reads version 1"),
        (json.dumps({"format": FORMAT, "version": 1, "seeds": [0]}), "malformed studies file"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_files_are_refused_with_the_reason(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AgentFileError, match=message):
        load_studies(path)
