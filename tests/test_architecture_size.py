"""The core stays small: its lines against the budget the README states (issue 35).

The README's architecture section gives the lines of the core, the library and the book's
code, and a budget for the core. This test counts them afresh: it fails when the core
passes its budget, or when a stated figure is more than 5% off the count.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "menace_lib"
CORE = ("games", "maths", "machine", "play", "agents")
BOOK = ("book",)


def _lines(paths) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in paths)


def counts() -> dict[str, int]:
    files = sorted(LIB.rglob("*.py"))
    wing = {f: f.relative_to(LIB).parts[0] for f in files}
    return {
        "core": _lines(f for f in files if wing[f] in CORE),
        "library": _lines(f for f in files if wing[f] not in BOOK),
        "the book's code": _lines(f for f in files if wing[f] in BOOK),
    }


def stated() -> tuple[dict[str, int], int]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Size", 1)[1]
    rows = dict(re.findall(r"^\| ([a-z' ]+) \| .*? \| ([\d,]+) \|$", section, re.M))
    budget = re.search(r"Core budget: ([\d,]+) lines", section)
    assert budget, "the README states no core budget"
    return {k: int(v.replace(",", "")) for k, v in rows.items()}, int(
        budget.group(1).replace(",", "")
    )


def test_the_core_is_within_its_budget():
    figures, budget = stated()
    assert counts()["core"] <= budget, (
        f"the core has {counts()['core']} lines, past its budget of {budget}: "
        "shrink it, or raise the budget in the README and say why"
    )


def test_the_readme_states_the_sizes_within_five_percent():
    figures, _ = stated()
    assert set(figures) == {"core", "library", "the book's code"}
    for part, lines in counts().items():
        assert abs(figures[part] - lines) <= 0.05 * lines, (part, figures[part], lines)
