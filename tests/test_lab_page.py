"""The facts the MENACE lab page (book/lab.ipynb) states, recomputed with the library.

Every number a reader is told to check on the page is computed here from
:mod:`menace_lib.widgets.lab_games` (the games the widget plays, replayed by the library's
rules) and
must appear, as written, in the page's text. Changing a rule, the seed's stream or the
text alone makes this file fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import make_opponent
from menace_lib.widgets.lab_games import LabSession, LabSettings, games_until

PAGE = Path(__file__).resolve().parents[1] / "book" / "lab.ipynb"
PERFECT = make_opponent("perfect", "uniform")


@pytest.fixture(scope="module")
def text() -> str:
    cells = json.loads(PAGE.read_text(encoding="utf-8"))["cells"]
    prose = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return " ".join(prose.split())  # line breaks inside sentences do not matter


def pct(p: float) -> str:
    return f"{p:.2%}"


def played(settings: LabSettings, games: int = 1000) -> int | None:
    """Games played before the session stopped at an empty box (None: it did not stop)."""
    session = LabSession(settings)
    n = session.play(games)
    return n if session.stopped else None


def test_untrained_and_perfect_player_facts(text):
    settings = LabSettings(seed=1)
    untrained = LabSession(settings).exact()
    assert f"draws {pct(untrained['draw'])} of its games" in text
    assert f"loses the other {pct(untrained['loss'])}" in text
    first = games_until(settings, "draw", 0.9, 1000)
    assert f"passes 90% after **{first} games**" in text
    session = LabSession(settings)
    session.play(300)
    assert f"after 300 games it is {pct(session.exact()['draw'])}" in text
    t = session.tally
    assert f"{t['win']} won, {t['draw']} drawn, {t['loss']} lost" in text


def test_random_player_facts(text):
    settings = LabSettings(opponent="random", seed=1)
    untrained = LabSession(settings).exact()
    first = games_until(settings, "win_random", 0.75, 1000)
    assert f"from {pct(untrained['win_random'])} to 75% after {first} games" in text
    session = LabSession(settings)
    session.play(1000)
    exact = session.exact()
    assert f"is {pct(exact['win_random'])} after 1,000" in text
    assert f"draws just {pct(exact['draw'])} against the perfect player" in text


def test_two_menaces_facts(text):
    session = LabSession(LabSettings(opponent="menace", seed=1))
    session.play(2000)
    t = session.tally
    assert f"won {t['win']}, drawn {t['draw']:,} and lost {t['loss']}" in text
    first, second = (exact_outcome(m, PERFECT)["draw"] for m in (session.menace, session.menace2))
    assert f"draws {pct(first)} against the perfect" in text
    assert f"draws only {pct(second)} against" in text


def test_bead_schedule_facts(text):
    seeds = range(1, 7)
    michie = [games_until(LabSettings(seed=s), "draw", 0.9, 2000) for s in seeds]
    scroggs = [
        games_until(LabSettings(schedule=(8, 4, 2, 1), seed=s), "draw", 0.9, 2000) for s in seeds
    ]

    def listed(values):
        return ", ".join(str(v) for v in values[:-1]) + f" and {values[-1]}"

    assert f"after {listed(michie)} games with 4-3-2-1" in text
    assert f"after {listed(scroggs)} games with 8-4-2-1" in text
    slower = sum(b > a for a, b in zip(michie, scroggs, strict=True))
    words = {5: "five", 6: "six"}
    assert f"slower for {words[slower]} of the six seeds" in text


def test_harsh_incentive_facts(text):
    web = {"restock": "none", "empty_box": "web"}

    def runs(schedule, loss):
        return [
            played(LabSettings(schedule=schedule, reinforcement=(3, 1, loss), seed=s, **web))
            for s in range(1, 11)
        ]

    michie_1, scroggs_1 = runs((4, 3, 2, 1), -1), runs((8, 4, 2, 1), -1)
    assert f"empty after **{michie_1[0]} games**" in text  # seed 1
    stopped = sum(n is not None for n in michie_1)
    assert f"within 1,000 games for {stopped} of the 10 seeds" in text
    assert f"for only {sum(n is not None for n in scroggs_1)} of them" in text
    michie_3, scroggs_3 = runs((4, 3, 2, 1), -3), runs((8, 4, 2, 1), -3)
    assert all(n is not None for n in michie_3)
    assert f"within {max(michie_3)} games for every seed with 4-3-2-1" in text
    stopped_3 = [n for n in scroggs_3 if n is not None]
    assert f"within {max(stopped_3)} games for {len(stopped_3)} of the 10 seeds" in text


def test_opening_box_sizes(text):
    """The opening box holds 12 beads under 4-3-2-1 and 24 under 8-4-2-1 (three classes)."""
    for schedule, beads in [((4, 3, 2, 1), 12), ((8, 4, 2, 1), 24)]:
        session = LabSession(LabSettings(schedule=schedule))
        (box,) = session.opening
        assert sum(session.menace.initial[box]) == beads
    assert "it holds only 12 beads (4 for each kind of opening)" in text
    assert "(24 beads in the opening box)" in text


def test_box_count_stated(text):
    assert len(LabSession(LabSettings()).menace.states) == 304
    assert "`decision` filter (304 boxes)" in text
