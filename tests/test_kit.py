"""The printable matchbox kit: what the PDF says, read back with pypdf."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from budget import thorough_param

from menace_lib.book.plotting import BEAD_COLOUR_NAMES
from menace_lib.cli import main
from menace_lib.games.board import O, square_number
from menace_lib.kit import noughts as kit
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.training import train

pypdf = pytest.importorskip("pypdf")

PER_PAGE = kit.COLUMNS * kit.ROWS
A4_POINTS = (595.28, 841.89)
LETTER_POINTS = (612.0, 792.0)


def read(path: Path) -> list[str]:
    """The text of every page, whitespace runs squeezed to one space."""
    reader = pypdf.PdfReader(str(path))
    return [re.sub(r"[ \t]+", " ", page.extract_text()) for page in reader.pages]


def page_size(path: Path, page: int = 0) -> tuple[float, float]:
    box = pypdf.PdfReader(str(path)).pages[page].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def box_numbers(pages: list[str]) -> list[int]:
    return [int(n) for text in pages for n in re.findall(r"^Box (\d+) ", text, re.M)]


def index_pages(pages: list[str]) -> list[str]:
    return [p for p in pages if p.startswith("Box index")]


def index_entries(pages: list[str]) -> list[tuple[str, str, int]]:
    """The box index read back: (crosses' squares, noughts' squares, box) per line."""
    found = []
    for text in index_pages(pages):
        found += [
            (x, o, int(box))
            for x, o, box in re.findall(r"^([1-9]+|-) +([1-9]+|-) +(\d+)$", text, re.M)
        ]
    return found


def label_texts(pages: list[str]) -> dict[int, str]:
    """Each label's text by its box number."""
    text = "\n".join(pages)
    starts = [(int(m[1]), m.start()) for m in re.finditer(r"^Box (\d+) ", text, re.M)]
    ends = [start for _, start in starts[1:]] + [len(text)]
    return {box: text[start:end] for (box, start), end in zip(starts, ends, strict=True)}


def key_of_board_text(board: str) -> tuple[str, str]:
    """The index key of a label's position text (``X.O/.../...``): squares 1-9 of X, of O."""
    cells = board.replace("/", "")
    xs = "".join(str(k + 1) for k, c in enumerate(cells) if c == "X") or "-"
    os_ = "".join(str(k + 1) for k, c in enumerate(cells) if c == "O") or "-"
    return xs, os_


def legend_row(name: str, square: int, count: float) -> str:
    """A legend row as printed: squares as readers number them, 1-9."""
    return f"{name} {square_number(square)} {count:g}"


# `michie_kit` (Michie's MENACE, 287 boxes, on A4: the book build's kit when current, else
# written by `kit --layout class`) and its pages' text come from tests/conftest.py: made once
# per run, shared with the widgets' journey.


@pytest.fixture(scope="module")
def michie_pages(michie_kit_pages) -> tuple[str, ...]:
    """The Michie kit's text, page by page, whitespace runs squeezed as :func:`read` does."""
    return tuple(re.sub(r"[ \t]+", " ", text) for text in michie_kit_pages)


def test_michie_kit_has_287_labels_on_a4(michie_kit, michie_pages):
    pages = michie_pages
    # Michie's 287 boxes (golden): instructions, colour key, a one-page index, 20 sheets.
    assert len(pages) == 2 + 1 + math.ceil(287 / PER_PAGE) == 23
    assert page_size(michie_kit) == A4_POINTS
    assert box_numbers(pages[:1]) == []  # the instructions carry no label,
    assert box_numbers(pages[1:2]) == [1]  # the colour key an enlarged sample
    assert len(index_pages(pages)) == 1 and pages[2].startswith("Box index")
    assert box_numbers(pages[3:]) == list(range(1, 288))
    assert all(len(box_numbers([p])) == PER_PAGE for p in pages[3:-1])
    assert "Each label is 63.5 mm x 50.8 mm" in pages[0].replace("\n", " ")


def test_every_index_entry_resolves_to_its_box(michie_pages):
    """The index lists each box once, in box order, under the key its label shows."""
    pages = michie_pages
    entries = index_entries(pages)
    assert [box for _, _, box in entries] == list(range(1, 288))
    keys = [(x, o) for x, o, _ in entries]
    labels = label_texts(pages[3:])
    assert sorted(labels) == list(range(1, 288))
    for x, o, box in entries:
        board = re.search(r"^([.XO]{3}/[.XO]{3}/[.XO]{3})$", labels[box], re.M)[1]
        assert key_of_board_text(board) == (x, o), (box, board)
    # Sorted by move (pieces on the board), then by the squares: a searchable list.
    sort_key = [(len(x.strip("-")) + len(o.strip("-")), tuple(x), tuple(o)) for x, o in keys]
    assert sort_key == sorted(sort_key) and len(set(keys)) == 287


def test_each_box_is_drawn_with_its_crosses_lowest():
    """The kit's orientation: no turned or mirrored copy puts the pieces on lower squares."""
    from menace_lib.games.board import board_to_grid, transform_board

    for label in kit.labels(kit.kit_agent())[::7]:
        images = {
            key_of_board_text(board_to_grid(transform_board(t, label.board))) for t in range(8)
        }
        as_tuples = sorted((tuple(x.strip("-")), tuple(o.strip("-"))) for x, o in images)
        x, o = key_of_board_text(label.text)
        assert (tuple(x.strip("-")), tuple(o.strip("-"))) == as_tuples[0], label.text


def test_michie_opening_box_label(michie_pages):
    """Michie's opening box: corner, edge and centre, four beads each."""
    first_sheet = michie_pages[3]
    label = first_sheet[first_sheet.index("Box 1 ") : first_sheet.index("Box 2 ")]
    assert "X to play, move 1" in label
    assert ".../.../..." in label
    names = dict(enumerate(BEAD_COLOUR_NAMES))
    rows = [legend_row(names[square], square, 4) for square in (0, 1, 4)]
    assert all(row in label for row in rows), label
    assert label.count("\n") < 12, "the opening box has just three colours"


def test_every_label_matches_its_box(michie_pages):
    """Each label's legend rows are the agent's colours, squares and beads, in order."""
    agent = kit.kit_agent()
    chunks = label_texts(list(michie_pages[3:]))
    for label in kit.labels(agent)[::37]:
        chunk = chunks[label.box]
        assert label.text in chunk
        for bead in label.beads:
            assert legend_row(bead.name, bead.square, bead.count) in chunk, (label.box, chunk)


def test_front_pages(michie_pages):
    instructions, key = (p.replace("\n", " ") for p in michie_pages[:2])
    for heading, _ in kit.instructions(kit.kit_agent()):
        assert heading in instructions
    assert "287 matchboxes" in instructions
    assert "put the bead back with 3 beads more of its colour" in instructions
    assert "refill it with the beads printed on its" in instructions
    assert "Colour key" in key
    assert all(name in key for name in BEAD_COLOUR_NAMES)


@pytest.mark.parametrize(
    ("moves", "boxes", "n_index"),
    [pytest.param((1, 2), 13, 1, id="moves 1-2"), thorough_param(None, 304, 2, id="whole kit")],
)
def test_decision_filter_square_layout_on_letter(tmp_path, capsys, moves, boxes, n_index):
    """The decision filter, the square layout and US Letter, in a PDF: by default the kit of
    MENACE's moves 1-2 (the same sheets, 13 boxes; the whole 304-box kit, whose index runs
    over two Letter pages, is the long run's). The whole kit's counts are checked without
    drawing it: 304 boxes, indexed on two Letter pages."""
    square = kit.kit_agent(layout="square", filter="decision")
    assert len(kit.labels(square)) == 304
    assert len(kit._index_sheets("letter", kit.labels(square))) == 2  # Letter is shorter
    path = tmp_path / "kit.pdf"
    # In process: the command's own code and JSON document, without a second interpreter
    # importing the library and matplotlib again.
    args = ["kit", "--filter", "decision", "--layout", "square", "--paper", "letter"]
    args += ["--moves", f"{moves[0]}-{moves[1]}"] if moves else []
    assert main([*args, "--output", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    pages = read(path)
    assert summary["labels"] == boxes and summary["paper"] == "letter"
    assert len(index_pages(pages)) == n_index
    assert summary["pages"] == len(pages) == 2 + n_index + math.ceil(boxes / PER_PAGE)
    assert page_size(path) == LETTER_POINTS
    assert box_numbers(pages[2 + n_index :]) == list(range(1, boxes + 1))
    assert [box for _, _, box in index_entries(pages)] == list(range(1, boxes + 1))
    # The thesis's layout: the opening box holds a colour for each of the nine squares.
    sheet = pages[2 + n_index]
    opening = sheet[: sheet.index("Box 2 ")]
    assert all(legend_row(BEAD_COLOUR_NAMES[s], s, 4) in opening for s in range(9))


def test_from_file_prints_the_trained_beads(tmp_path):
    """The trained beads on the labels, for MENACE's moves 1-2 (13 boxes: the file's beads
    reach every label through the same code; the whole kit's numbering is the Michie kit's
    test)."""
    agent = Menace(MenaceConfig(layout="class"))
    train(agent, "mixed", 300, np.random.default_rng(5))
    agent.games_trained = 300
    saved = tmp_path / "trained.json"
    agent.save(saved)
    path = tmp_path / "kit.pdf"
    assert main(["kit", "--from", str(saved), "--moves", "1-2", "--output", str(path)]) == 0
    pages = read(path)
    assert box_numbers(pages[3:]) == list(range(1, 14))
    assert str(saved) in pages[0].replace("\n", "") and "300 games" in pages[0]
    opening = pages[3][: pages[3].index("Box 2 ")]
    assert agent.weights[0] != agent.initial[0], "training should have moved the opening box"
    for squares, count in zip(agent.members[0], agent.weights[0], strict=True):
        assert legend_row(BEAD_COLOUR_NAMES[squares[0]], squares[0], count) in opening


def test_from_file_refuses_conflicting_options(tmp_path, capsys):
    saved = tmp_path / "agent.json"
    Menace(MenaceConfig(layout="class")).save(saved)
    out = tmp_path / "kit.pdf"
    assert main(["kit", "--from", str(saved), "--layout", "square", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--layout square" in err and "'class'" in err
    assert not out.exists()


def test_bad_agent_file_is_refused(tmp_path, capsys):
    bad = tmp_path / "agent.json"
    bad.write_text('{"format": "something else"}')
    out = tmp_path / "kit.pdf"
    assert main(["kit", "--from", str(bad), "--output", str(out)]) == 2
    assert "format" in capsys.readouterr().err
    assert not out.exists()


def test_output_checks_come_first_and_clobber_nothing(tmp_path):
    folder = tmp_path / "a folder"
    folder.mkdir()
    with pytest.raises(ValueError, match="is a folder, not a file"):
        kit.write_kit(kit.kit_agent(), folder)
    with pytest.raises(ValueError, match="does not exist"):
        kit.write_kit(kit.kit_agent(), tmp_path / "missing" / "kit.pdf")
    with pytest.raises(ValueError, match="unknown paper 'a5'"):
        kit.write_kit(kit.kit_agent(), tmp_path / "kit.pdf", paper="a5")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a folder"]


def test_labels_for_the_second_player():
    agent = kit.kit_agent(player=O)
    labels = kit.labels(agent)
    assert len(labels) == agent.n_boxes
    assert all(label.player == O and label.move >= 1 for label in labels)
    # O's first box follows one X move, so it has one piece on the board.
    assert sum(v != 0 for v in labels[0].board) == 1


def test_instructions_follow_the_rules():
    harsh = Menace(MenaceConfig(reinforcement=(2, 0, -3), restock="none", filter="decision"))
    text = " ".join(p for _, p in kit.instructions(harsh))
    assert "put the bead back with 2 beads more of its colour" in text
    assert "put the bead back, nothing more" in text
    assert "keep the bead out and take 2 beads more of its colour out" in text
    assert "it resigns" in text
    assert "threatens" not in text  # the decision filter keeps the double threats' boxes
    moving = Menace(MenaceConfig(restock="move", move_restock_beads=1))
    assert "put back 1 bead of that colour" in " ".join(p for _, p in kit.instructions(moving))


def test_reduced_kit_small_labels(tmp_path, capsys):
    """--moves 1-2: MENACE's first two moves only (13 boxes), on small labels, with the rule
    for the other moves on the instruction sheet."""
    path = tmp_path / "kit.pdf"
    argv = ["kit", "--moves", "1-2", "--label-size", "small", "--output", str(path), "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["labels"] == 13 and summary["moves"] == [1, 2]
    assert summary["label_size_mm"] == [50.0, 35.0]
    assert summary["beads"] == 3 * 4 + sum(
        len(b.beads) * 3 for b in kit.labels(kit.kit_agent())[1:13]
    )
    pages = read(path)
    assert len(pages) == summary["pages"] == 4  # instructions, key, index, one sheet
    first = pages[0].replace("\n", " ")
    assert "13 empty matchboxes" in first and "Each label is 50 mm x 35 mm" in first
    assert "boxes for MENACE's moves 1 to 2 (of 4) only" in first
    assert kit.AFTER_LAST_BOX_RULE.split(";")[0] in first
    assert box_numbers(pages[3:]) == list(range(1, 14))
    assert [box for _, _, box in index_entries(pages)] == list(range(1, 14))
    columns, rows = kit.grid("a4", (50.0, 35.0))
    assert (columns, rows) == (3, 7)


@pytest.mark.parametrize(
    "value, message",
    [
        ("huge", "expected large or small"),
        ("30x20", "30x20 mm is out of range"),
        ("91x50", "out of range"),
        ("50x", "expected large"),
    ],
)
def test_bad_label_size_is_refused(tmp_path, capsys, value, message):
    out = tmp_path / "kit.pdf"
    assert main(["kit", "--label-size", value, "--output", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    "value, message", [("0-2", "moves 1 to 4"), ("3-1", "comes after"), ("1-5", "moves 1 to 4")]
)
def test_bad_moves_are_refused(tmp_path, capsys, value, message):
    out = tmp_path / "kit.pdf"
    assert main(["kit", "--moves", value, "--output", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_kit_names_the_widgets_bead_colours():
    """The kit's colour names are the widgets' (common.js COLOUR_NAMES), in square order."""
    js = (Path(kit.__file__).parents[1] / "widgets" / "common.js").read_text()
    names = re.search(r"COLOUR_NAMES = \[([^\]]*)\]", js)[1]
    assert tuple(re.findall(r'"([^"]+)"', names)) == BEAD_COLOUR_NAMES


def test_a_reduced_kit_keeps_the_full_kits_numbers():
    """A kit of some of MENACE's moves prints those boxes under their full-kit numbers, so
    its boxes are the full kit's (and the widgets', which read the same numbers)."""
    agent = kit.kit_agent()
    full = {label.library_box: label.box for label in kit.labels(agent)}
    later = kit.labels(agent, (2, 3))
    assert later[0].box == 2 and all(label.move in (2, 3) for label in later)
    assert all(full[label.library_box] == label.box for label in later)
    assert [label.box for label in later] == sorted(label.box for label in later)
