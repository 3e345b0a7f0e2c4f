"""Every stylesheet the site ships is well formed: a rule left open (as a merge once left one in
widgets.css) makes the browser drop every rule after it, and no layout-blind test notices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHEETS = sorted([*ROOT.glob("menace_lib/widgets/*.css"), *ROOT.glob("book/_static/*.css")])


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.name)
def test_braces_balance(path):
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"\"[^\"\n]*\"|'[^'\n]*'", "", text)  # strings may hold braces
    depth = 0
    for line_no, line in enumerate(text.splitlines(), 1):
        for ch in line:
            depth += {"{": 1, "}": -1}.get(ch, 0)
            assert depth >= 0, f"{path.name}:{line_no}: a '}}' closes nothing"
            assert depth <= 3, f"{path.name}:{line_no}: rules nest {depth} deep (one left open?)"
    assert depth == 0, f"{path.name}: {depth} rule(s) left open"
