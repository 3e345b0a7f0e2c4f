"""One palette and one vocabulary (menace_lib.base.palette) read by figures, widgets and tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import menace_lib as ml
from menace_lib.agents.registry import agent_kinds, thesis_kinds
from menace_lib.base import palette
from menace_lib.book import plotting
from menace_lib.experiments import suite

WIDGETS = Path(ml.__file__).parent / "widgets"
# Every agent kind of `python -m menace_lib train KIND` (the registry).
TRAINABLE = tuple(agent_kinds())


def _js_array(source: str, name: str) -> list[str]:
    match = re.search(rf"export const {name} = \[(.*?)\];", source, re.S)
    assert match, f"{name} not found in common.js"
    return re.findall(r'"([^"]*)"', match.group(1))


def test_widget_bead_colours_and_names_are_the_palettes():
    source = (WIDGETS / "common.js").read_text(encoding="utf-8")
    assert [c.upper() for c in _js_array(source, "BEAD_COLOURS")] == list(palette.BEAD_COLOURS)
    assert _js_array(source, "COLOUR_NAMES") == list(palette.BEAD_COLOUR_NAMES)


def test_plotting_reexports_the_palette_unchanged():
    for name in ("BEAD_COLOURS", "BEAD_COLOUR_NAMES", "WIN", "DRAW", "LOSS", "GREY", "INK"):
        assert getattr(plotting, name) is getattr(palette, name)
    assert plotting.bead_colour is palette.bead_colour


def test_every_agent_kind_has_one_name_and_colour():
    for kind in TRAINABLE:
        assert palette.agent_name(kind)
        assert re.fullmatch(r"#[0-9A-F]{6}", palette.agent_colour(kind))
    # The kinds compared in the experiments all look different.
    colours = [palette.agent_colour(kind) for kind in thesis_kinds()]
    assert len(set(colours)) == len(colours)
    assert len({palette.agent_name(k) for k in palette.AGENTS}) == len(palette.AGENTS)


def test_experiment_tables_use_the_palettes_names():
    assert {k: palette.agent_name(k) for k in TRAINABLE} == suite.AGENT_LABELS


def test_the_perfect_player_is_called_perfect():
    assert palette.agent_name("optimal") == "perfect"
    assert palette.agent_name("perfect") == "perfect"


def test_move_class_colours_are_the_bead_colours_of_their_squares():
    # corner = square 1, edge = square 2, centre = square 5 (library squares 0, 1, 4)
    assert {
        "corner": palette.bead_colour(0),
        "edge": palette.bead_colour(1),
        "centre": palette.bead_colour(4),
    } == palette.MOVE_CLASS_COLOURS


def test_squares_are_named_one_to_nine():
    assert [palette.square_name(s) for s in range(9)] == [str(n) for n in range(1, 10)]


@pytest.mark.parametrize("bad", [-1, 9, 1.0, "4", None])
def test_bad_square_is_refused(bad):
    with pytest.raises(ValueError, match="square must be an integer 0..8"):
        palette.bead_colour(bad)


def test_unknown_agent_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown agent kind 'robot'"):
        palette.agent_colour("robot")


def test_line_styles_cycle_and_refuse_negative_indices():
    assert palette.linestyle(0) == "-"
    assert palette.linestyle(len(palette.LINESTYLES)) == "-"
    with pytest.raises(ValueError, match="non-negative"):
        palette.linestyle(-1)


def test_the_glossary_key_gives_each_agent_its_palette_colour():
    glossary = (Path(__file__).resolve().parents[1] / "book" / "glossary.md").read_text()
    for kind in thesis_kinds():
        style = palette.AGENTS[kind]
        assert f"| {style.name} | `{style.colour}` |" in glossary, kind
        assert f'style="background:{style.colour}"' in glossary, kind


def test_the_labs_result_colours_are_the_palettes():
    css = (WIDGETS / "widgets.css").read_text(encoding="utf-8")
    lab = css[css.index(".mw-lab {") :]
    lab = lab[: lab.index("}")]
    for name, colour in zip(palette.RESULT_NAMES, palette.RESULT_COLOURS, strict=True):
        match = re.search(rf"--mw-lab-{name}: (#[0-9a-fA-F]{{6}});", lab)
        assert match, f"--mw-lab-{name} not set in the lab's CSS"
        assert match.group(1).upper() == colour, name
    # In the dark theme a draw keeps the palette's orange (tints only lighten win and loss).
    assert css.count(f"--mw-lab-draw: {palette.DRAW.lower()};") == 3


def test_regimens_are_named_for_readers():
    assert palette.regimen_name("optimal") == "perfect"
    assert palette.regimen_name("mixed") == "mixed"
    rows = suite.describe([c for c in suite.THESIS_SUITE if c.regimen == "optimal"][:1])
    assert rows[0]["regimen"] == "perfect"
    with pytest.raises(ValueError, match="regimen must be a string"):
        palette.regimen_name(None)
