"""The widgets' dark palette is written twice in CSS, once per way a page asks for it.

A page asks for dark either by its theme (``html[data-theme="dark"]``, JupyterLab's dark
themes) or, when it forces no theme, by the system (``prefers-color-scheme: dark``). CSS
cannot share one block of custom properties between a selector and a media query, so
``widgets.css`` declares each widget's dark palette twice. This test holds the copies
equal: the same widgets, the same properties, the same values.
"""

from __future__ import annotations

import re
from pathlib import Path

CSS = (Path(__file__).resolve().parents[1] / "menace_lib" / "widgets" / "widgets.css").read_text(
    encoding="utf-8"
)
_BLOCK = re.compile(r"([^{}]+)\{([^{}]*)\}")
_VAR = re.compile(r"(--[\w-]+)\s*:\s*([^;]+);")


def _palettes(text: str) -> dict[str, dict[str, str]]:
    """Widget class -> its custom properties, for the blocks whose selectors are all dark."""
    found: dict[str, dict[str, str]] = {}
    for selectors, body in _BLOCK.findall(text):
        props = dict(_VAR.findall(body))
        if not props:
            continue
        widgets = {s.strip().split()[-1] for s in selectors.split(",")}
        if len(widgets) == 1:
            found[widgets.pop()] = props
    return found


def dark_copies() -> tuple[dict, dict]:
    media = re.search(r"@media \(prefers-color-scheme: dark\)", CSS)
    assert media, "widgets.css has no prefers-color-scheme block"
    by_theme, by_system = {}, {}
    for m in re.finditer(
        r"@media \(prefers-color-scheme: dark\) \{((?:[^{}]*\{[^{}]*\})+)\s*\}", CSS
    ):
        by_system.update(_palettes(m.group(1)))
    for selectors, body in _BLOCK.findall(CSS):
        if 'html[data-theme="dark"]' in selectors and "--" in body:
            by_theme.update(_palettes(f"{selectors}{{{body}}}"))
    return by_theme, by_system


def test_each_dark_palette_is_the_same_in_both_copies():
    by_theme, by_system = dark_copies()
    assert len(by_theme) >= 3  # .mw, .mw-play, .mw-lab at least
    assert by_theme == by_system


def test_the_check_sees_a_difference():
    changed = CSS.replace("--mw-bg: #1e1f22;", "--mw-bg: #000000;", 1)
    before = dark_copies()
    try:
        globals()["CSS"] = changed
        after = dark_copies()
    finally:
        globals()["CSS"] = CSS_ORIGINAL
    assert before[0] != after[0] or before[1] != after[1]
    assert after[0] != after[1]


CSS_ORIGINAL = CSS
