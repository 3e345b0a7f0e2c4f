"""Captions that hold on a desktop and on a phone (issue 34).

On a phone a figure's panels are stacked or rearranged (menace_lib.book.plotting
.narrow_layout), so "left", "right", "top" or "bottom" would name the wrong panel there.
Panels are named by the letters drawn in them (menace_lib.book.plotting.panel_letters):
no numbered caption, and no sentence that points at a numbered figure, names a panel by
its position.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from menace_lib.book import plotting  # noqa: E402

BOOK = Path(__file__).resolve().parents[1] / "book"
POSITION = re.compile(r"\b(left|right|top|bottom|upper|lower|middle)\b", re.I)
# In prose: a position in brackets always; in a sentence about a numbered figure or a
# panel, also a position word naming a panel, row or column, or "on the left/right" (a
# board's "top row" elsewhere is a board's).
BRACKETED = re.compile(r"\((left|right|top|bottom|middle)\)", re.I)
PANEL_POSITION = re.compile(
    r"\b(left|right|top|bottom|upper|lower|middle)[- ](panels?|rows?|columns?|charts?)\b"
    r"|\b(on|at|to) the (left|right)\b",
    re.I,
)
ABOUT_A_FIGURE = re.compile(r"\{numref\}`[^`]*fig-|\bpanels?\b", re.I)


def _panel_position(sentence: str) -> re.Match | None:
    if m := BRACKETED.search(sentence):
        return m
    return PANEL_POSITION.search(sentence) if ABOUT_A_FIGURE.search(sentence) else None


def _notebooks() -> list[Path]:
    return sorted(BOOK.glob("*.ipynb"))


def _captions() -> list[tuple[str, str, str]]:
    """(notebook, figure name, caption) of every numbered notebook figure."""
    out = []
    for path in _notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            figure = cell.get("metadata", {}).get("mystnb", {}).get("figure")
            if figure and figure.get("caption"):
                out.append((path.name, figure.get("name", "?"), figure["caption"]))
    return out


def test_the_book_has_numbered_captions_to_check():
    assert len(_captions()) >= 40


def test_no_caption_names_a_panel_by_its_position():
    bad = [
        f"{nb} {name}: {m.group(0)!r} in {caption[:80]!r}"
        for nb, name, caption in _captions()
        if (m := POSITION.search(caption))
    ]
    assert not bad, "captions naming a panel by position (use its letter):\n" + "\n".join(bad)


def test_no_sentence_names_a_figures_panel_by_its_position():
    bad = []
    for path in _notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = " ".join("".join(cell["source"]).split())
            for paragraph in text.split("\n\n"):
                for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                    m = _panel_position(sentence)
                    if m:
                        bad.append(f"{path.name}: {m.group(0)!r} in {sentence[:100]!r}")
    assert not bad, "sentences naming a panel by position:\n" + "\n".join(bad)


def test_the_position_rules_catch_what_they_should():
    assert POSITION.search("Left: boxes made. Right: the chance")
    assert _panel_position("The top row of {numref}`fig-x` shades each colour")
    assert _panel_position("in the curriculum (left) little happens")
    assert _panel_position("the right panel shows how many")
    assert not _panel_position("square 1 at the top left of the board")
    assert not _panel_position("But X completes the top row with its third cross")
    assert not POSITION.search("(a) Boxes made so far. (b) The sampled chance")


@pytest.fixture
def _style():
    with matplotlib.rc_context():
        plotting.use_book_style()
        yield
    plt.close("all")


def test_panel_letters_name_panels_in_reading_order(_style):
    fig, axes = plt.subplots(2, 2)
    axes[0, 0].set_title("first")
    twin = axes[1, 0].twinx()
    letters = plotting.panel_letters(fig)
    assert letters == ["(a)", "(b)", "(c)", "(d)"]
    assert axes[0, 0].get_title() == "(a) first"
    assert axes[0, 1].get_title(loc="left") == "(b)"
    assert axes[1, 0].get_title(loc="left") == "(c)" and twin.get_title(loc="left") == ""
    assert axes[1, 1].get_title(loc="left") == "(d)"
    fig2, axes2 = plt.subplots(1, 27)
    with pytest.raises(ValueError, match="27 panels, at most 26"):
        plotting.panel_letters(fig2)
