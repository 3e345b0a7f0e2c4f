"""``scripts/stage_times.py``: what each stage of ``make test`` cost, written down as it ends."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import stage_times  # noqa: E402 - a script, imported from its folder


def test_a_stage_row_carries_its_status_and_times(tmp_path):
    times = tmp_path / "times.tsv"
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass"
    assert stage_times.run("first", [sys.executable, "-c", burn], times) == 0
    assert stage_times.run("second", [sys.executable, "-c", "raise SystemExit(3)"], times) == 3
    rows = [line.split("\t") for line in times.read_text().splitlines()]
    assert [r[:2] for r in rows] == [["first", "0"], ["second", "3"]]
    for _, _, wall, cpu, machine in rows:
        assert wall.isdigit() and cpu.isdigit(), rows
        assert machine == "" or machine.isdigit(), rows
    assert int(rows[0][3]) >= 1  # the child's 0.6 CPU-s and its start, rounded


def test_the_summary_is_a_table_with_totals(tmp_path):
    times = tmp_path / "times.tsv"
    times.write_text("book\t0\t150\t240\t250\nunit\t0\t300\t580\t590\n")
    table = stage_times.summary(times).splitlines()
    assert table[0].startswith("| stage | status | wall s |")
    assert table[2:] == [
        "| book | 0 | 150 | 240 | 250 |",
        "| unit | 0 | 300 | 580 | 590 |",
        "| all | | 450 | 820 | 840 |",
    ]
    times.write_text("book\t0\t150\t240\t\n")  # no /proc/stat: no machine total either
    assert stage_times.summary(times).splitlines()[-1] == "| all | | 150 | 240 |  |"
    assert stage_times.summary(tmp_path / "none.tsv") == "stage times: none recorded"


def test_a_failed_stage_prints_the_table_so_far(tmp_path, capsys):
    times = tmp_path / "times.tsv"
    assert stage_times.run("broken", [sys.executable, "-c", "raise SystemExit(2)"], times) == 2
    assert "| broken | 2 |" in capsys.readouterr().err


def test_bad_calls_say_what_is_wrong_in_one_line(tmp_path, capsys):
    assert stage_times.main(["unit", "make"]) == 2  # no "--" before the command
    assert capsys.readouterr().err == (
        "stage_times: unit make: give NAME -- COMMAND ..., --summary or --reset\n"
    )
    times = tmp_path / "times.tsv"
    with pytest.raises(SystemExit, match=r"stage name 'a\\tb': one word"):
        stage_times.run("a\tb", ["true"], times)
    with pytest.raises(SystemExit, match="no command after --"):
        stage_times.run("empty", [], times)
    assert stage_times.run("missing", [str(tmp_path / "no-such-program")], times) == 127
    assert not times.read_text().startswith("a\t")


def test_make_test_runs_every_stage_through_it():
    """Every sub-make of ``make test``'s recipe is a stage written down, and the table ends it."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    commands = re.sub(r"\\\n\s*", " ", recipe).splitlines()
    makes = [c for c in commands if "$(MAKE)" in c]
    assert [c.split()[1] for c in makes] == ["book", "pdf-nb-baseline", "unit", "browser"]
    assert all(c.strip().startswith("$(STAGE) ") for c in makes), makes
    assert commands[0].strip() == "@$(STAGE) --reset"
    assert commands[-1].strip() == "@$(STAGE) --summary"
