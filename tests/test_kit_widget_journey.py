"""Journey: a class builds the printed kit, then plays the widgets.

For every box of every kit (Michie's 287, the reduced kit of MENACE's first two moves,
HER's 19), the box a widget names -- the number its data and JavaScript give for a
position -- is the box with that number in the kit PDF, and each move's bead has the same
colour name there, read back from the PDF's text with pypdf. The widgets' side is their
own JavaScript run in node on their own data traits (play.js, the lab's tables, HER's
widget) and the inspector's data as its JavaScript reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from budget import thorough_param
from node_runner import needs_node, run_module

from menace_lib.base.palette import BEAD_COLOUR_NAMES
from menace_lib.games.board import TRANSFORMS, move_classes, transform_board
from menace_lib.games.registry import DEFAULT_GAME
from menace_lib.games.statespace import FILTERS, tables
from menace_lib.kit import noughts as kit
from menace_lib.kit.hexapawn import write_her_kit
from menace_lib.machine.engine import LAYOUTS
from menace_lib.machine.printed import printed_layout
from menace_lib.widgets import _bundle
from menace_lib.widgets.her_play import her_data
from menace_lib.widgets.inspector import inspector_data
from menace_lib.widgets.lab_data import lab_data
from menace_lib.widgets.play_data import play_data

pypdf = pytest.importorskip("pypdf")

WIDGETS = Path(_bundle.__file__).parent
T = tables()
LABEL = re.compile(
    r"^Box (\d+) ([XO]) to play, move (\d)\n([.XO]{3}/[.XO]{3}/[.XO]{3})\n(.*?)(?=^Box \d+ |\Z)",
    re.M | re.S,
)
ROW = re.compile(r"^([a-z]+(?: [a-z]+)?) +([1-9]) +(\d+(?:\.\d+)?)$", re.M)
HER_LABEL = re.compile(r"^HER box (\d+) move (\d)\n(.*?)(?=^HER box |\Z)", re.M | re.S)


def pages_of(path: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(str(path)).pages]


def kit_labels(path: Path) -> dict[int, dict]:
    """Each label of a noughts-and-crosses kit PDF, by its printed box number: its board
    (text, rows top to bottom) and its legend as {colour name: square 1-9}."""
    return labels_of_pages(pages_of(path))


def labels_of_pages(pages: Sequence[str]) -> dict[int, dict]:
    """:func:`kit_labels` of a kit's pages' text."""
    found: dict[int, dict] = {}
    # The label sheets: after the instructions, the colour key and the box index.
    for text in pages[2:]:
        if text.startswith("Box index"):
            continue
        for m in LABEL.finditer(text):
            number = int(m[1])
            assert number not in found, f"box {number} printed twice"
            rows = {name: int(sq) for name, sq, _ in ROW.findall(m[5])}
            found[number] = {"board": m[4], "rows": rows, "move": int(m[3])}
    return found


def board_of(text: str) -> tuple[int, ...]:
    return tuple({".": 0, "X": 1, "O": 2}[c] for c in text.replace("/", ""))


@pytest.fixture(scope="module")
def full_kit(michie_kit_pages) -> dict[int, dict]:
    """The labels of the full kit of :func:`menace_lib.kit.noughts.kit_agent` (Michie's 287
    boxes), written once per run by tests/conftest.py through the command line (``kit``
    prints ``kit_agent()`` with ``--layout class``)."""
    return labels_of_pages(michie_kit_pages)


@pytest.fixture(scope="module")
def reduced_kit(tmp_path_factory) -> dict[int, dict]:
    path = tmp_path_factory.mktemp("journey") / "kit-1-2.pdf"
    kit.write_kit(kit.kit_agent(), path, moves=(1, 2), progress=False)
    return kit_labels(path)


def module_script(script: str, **modules: Path) -> str:
    """``script`` with each quoted placeholder NAME replaced by the file URL of a module."""
    for name, path in modules.items():
        script = script.replace(f'"{name}"', json.dumps(path.as_uri()))
    return script


def check_box(label: dict, board: tuple[int, ...], moves: list[list[int]], names: list[str]):
    """The widget's position ``board``, its bead colours' squares ``moves`` (one list per
    colour, on ``board``) and their colour ``names`` agree with the printed ``label``: some
    turn or mirror image of the board is the label's drawing, and each colour's squares
    land in the move class whose legend row (the class's lowest square) has that name."""
    printed = board_of(label["board"])
    images = [t for t in range(8) if transform_board(t, board) == printed]
    assert images, f"the widget's board {board} is not the label's {label['board']}"
    perm = TRANSFORMS[images[0]]
    classes = move_classes(printed)
    assert len(names) == len(label["rows"]) == len(moves), (label, names)
    for squares, name in zip(moves, names, strict=True):
        for sq in squares:
            cls = next(c for c in classes if perm[sq] in c)
            assert label["rows"].get(name) == min(cls) + 1, (label, name, squares)


PLAY_SCRIPT = """
import { policyOf } from "PLAY";
import { COLOUR_NAMES } from "COMMON";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const { data, side } = JSON.parse(text);
const d = data.sides[side];
const human = side === "X" ? "O" : "X";
const rows = d.lookup.codes.map((code) => {
  const board = [];
  for (let i = 0, c = code; i < 9; i++, c = Math.floor(c / 3)) board.push(c % 3);
  const p = policyOf(data, { human, board, live_beads: d.initial });
  return [board, p.box, p.number, p.members, p.colours.map((c) => COLOUR_NAMES[c])];
});
process.stdout.write(JSON.stringify(rows));
"""


@needs_node
def test_play_widget_names_the_kits_boxes_and_colours(full_kit, reduced_kit):
    """Every position where the play widget's MENACE (X) opens a box: the number and the
    bead colours it shows are those of the printed box, in the full and the reduced kit."""
    data = play_data()
    config = data["sides"]["X"]["config"]
    printed = kit.kit_agent().config
    assert (config["layout"], config["filter"], config["player"]) == (
        printed.layout,
        printed.filter,
        "X" if printed.player == 1 else "O",
    ), "the play widget's X is the kit's MENACE"
    script = module_script(
        PLAY_SCRIPT,
        PLAY=WIDGETS / "play.js",
        COMMON=WIDGETS / "common.js",
    )
    rows = run_module(script, {"data": data, "side": "X"})
    seen = set()
    for board, box, number, members, names in rows:
        if box < 0:
            continue
        check_box(full_kit[number], tuple(board), members, names)
        if number in reduced_kit:
            check_box(reduced_kit[number], tuple(board), members, names)
        seen.add(number)
    assert seen == set(full_kit) and len(seen) == 287
    assert set(reduced_kit) == set(range(1, 14))
    assert {n: full_kit[n] for n in reduced_kit} == reduced_kit


@needs_node
@pytest.mark.parametrize("moves", [(1, 2), thorough_param(None, id="all")])
def test_play_widget_names_the_second_players_kit(tmp_path, moves):
    """MENACE as O in the play widget names the boxes of the kit for the second player.

    The widget numbers every box (1 to the kit's 234) by default too; the labels it is
    compared with are those of the kit reduced to MENACE's first two moves (41 boxes, their
    numbers those of the whole kit, as ``moves=(1, 2)`` prints them; about 3 CPU-s to draw
    instead of 7): every box of those moves, each compared as in the whole kit, by the same
    code. The long run (``--thorough``) draws the whole O kit and compares all 234.
    """
    data = play_data()
    config = data["sides"]["O"]["config"]
    agent = kit.kit_agent(config["layout"], config["filter"], player=2)
    path = tmp_path / "kit-o.pdf"
    kit.write_kit(agent, path, moves=moves, progress=False)
    labels = kit_labels(path)
    script = module_script(PLAY_SCRIPT, PLAY=WIDGETS / "play.js", COMMON=WIDGETS / "common.js")
    seen, printed = set(), set()
    for board, box, number, members, names in run_module(script, {"data": data, "side": "O"}):
        if box >= 0:
            seen.add(number)
            # MENACE's move k (as O) is made with k - 1 of its pieces on the board.
            if moves is None or moves[0] <= list(board).count(2) + 1 <= moves[1]:
                check_box(labels[number], tuple(board), members, names)
                printed.add(number)
    assert seen == set(range(1, len(agent.states) + 1))
    assert printed == set(labels)
    if moves is not None:
        assert {label["move"] for label in labels.values()} == set(range(moves[0], moves[1] + 1))


def test_inspector_shows_the_kits_boxes(full_kit):
    """The inspector draws each box as its label does, under the label's number (the
    Michie filter), with each move class's colour named as the label names it."""
    data = inspector_data(0)
    numbers = data["numbers"]["michie"]
    assert sorted(n for n in numbers if n is not None) == sorted(full_kit)
    for i, number in enumerate(numbers):
        if number is None:
            continue
        label = full_kit[number]
        assert data["boards"][i] == label["board"].replace("/", "")
        classes = [[int(q) for q in c] for c in data["class"]["members"][i].split("/")]
        # inspector.js names a colour by the first square of its class (COLOUR_NAMES).
        names = [BEAD_COLOUR_NAMES[c[0]] for c in classes]
        check_box(label, board_of(data["boards"][i]), classes, names)
    # The thumbnails stand in the kit's order.
    listed = [n for n in numbers if n is not None]
    assert listed == sorted(listed)


@needs_node
def test_inspector_names_a_box_by_its_printed_number():
    script = (
        f"import {{ boxName }} from {json.dumps((WIDGETS / 'inspector.js').as_uri())};\n"
        'process.stdout.write(JSON.stringify([boxName("XO./.../...", 2), '
        'boxName("XO./.../...", null)]));'
    )
    assert run_module(script, None) == ["Matchbox 2: X on 1; O on 2", "No matchbox: X on 1; O on 2"]


LAB_SCRIPT = """
import { gameTables, menaceStructure } from "TABLES";
import { COLOUR_NAMES } from "COMMON";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const data = JSON.parse(text);
const T = gameTables(data);
const config = { layout: "class", filter: "michie", player: 1, schedule: [4, 3, 2, 1] };
const s = menaceStructure(T, config);
process.stdout.write(JSON.stringify(s.states.map((pid, b) =>
  [pid, s.numbers[b], s.members[b], s.colours[b].map((c) => COLOUR_NAMES[c])])));
"""


@needs_node
def test_lab_names_the_kits_boxes_and_colours(full_kit):
    """The lab's boxes for Michie's MENACE, built by its JavaScript from its data."""
    script = module_script(
        LAB_SCRIPT,
        TABLES=WIDGETS / "lab_tables.js",
        COMMON=WIDGETS / "common.js",
    )
    rows = run_module(script, lab_data())
    assert sorted(number for _, number, _, _ in rows) == sorted(full_kit)
    for pid, number, members, names in rows:
        check_box(full_kit[number], T.position(pid), members, names)


PARITY_SCRIPT = """
import { gameTables, menaceStructure } from "TABLES";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const { data, configs } = JSON.parse(text);
const T = gameTables(data);
process.stdout.write(JSON.stringify(configs.map((config) => {
  const s = menaceStructure(T, { ...config, schedule: [4, 3, 2, 1] });
  return [s.numbers, s.colours];
})));
"""


@needs_node
def test_lab_numbers_and_colours_equal_the_owner_for_every_machine():
    """The lab's payload is compact (a number and a symmetry per box), so its JavaScript
    works each bead's colour out: for every box of every layout, filter and side it equals
    menace_lib.machine.printed's."""
    configs = [
        {"layout": layout, "filter": f, "player": player}
        for layout in LAYOUTS
        for f in FILTERS
        for player in (1, 2)
    ]
    script = module_script(PARITY_SCRIPT, TABLES=WIDGETS / "lab_tables.js")
    got = run_module(script, {"data": lab_data(), "configs": configs})
    boxes = 0
    for config, (numbers, colours) in zip(configs, got, strict=True):
        P = printed_layout(DEFAULT_GAME, config["filter"], config["layout"], config["player"])
        assert numbers == list(P.numbers), config
        assert colours == [list(c) for c in P.colours], config
        boxes += len(numbers)
    assert boxes > 3000


# ------------------------------------------------------------------------------ HER


HER_SCRIPT = """
import { setup, moveName } from "HER";
import { COLOUR_NAMES } from "COMMON";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const data = JSON.parse(text);
const { T, machines } = setup(data);
const out = {};
for (const [rule, { structure }] of Object.entries(machines)) {
  out[rule] = structure.states.map((pid, b) => [
    structure.numbers[b],
    structure.entries[b].map((m, j) =>
      [COLOUR_NAMES[structure.colours[b][j]], moveName(T, pid, m)]),
  ]);
}
process.stdout.write(JSON.stringify(out));
"""


@needs_node
def test_her_widget_names_the_her_kits_boxes_and_colours(tmp_path):
    """HER's 19 boxes: the widget's number for each box, and the colour and move of each
    of its beads, are the HER kit's, under both of HER's rules."""
    path = tmp_path / "her.pdf"
    write_her_kit(path)
    text = "\n".join(pages_of(path)[1:])  # the box fronts
    printed = {}
    for m in HER_LABEL.finditer(text):
        lines = [x for x in m[3].splitlines() if x and x not in {"a b c", "1", "2", "3"}]
        printed[int(m[1])] = list(zip(lines[::2], lines[1::2], strict=True))
    assert sorted(printed) == list(range(1, 20))
    assert {name for pairs in printed.values() for name, _ in pairs} <= set(BEAD_COLOUR_NAMES)
    script = module_script(
        HER_SCRIPT,
        HER=WIDGETS / "her_play.js",
        COMMON=WIDGETS / "common.js",
    )
    for rule, boxes in run_module(script, her_data()).items():
        shown = {number: [tuple(pair) for pair in beads] for number, beads in boxes}
        assert shown == printed, rule


def test_every_surface_reads_one_palette():
    """The colour names the kits print are the palette's, and the widgets' copy
    (common.js COLOUR_NAMES, which the HER widget imports) is the same list."""
    js = (WIDGETS / "common.js").read_text()
    names = re.search(r"COLOUR_NAMES = \[([^\]]*)\]", js)[1]
    assert tuple(re.findall(r'"([^"]+)"', names)) == BEAD_COLOUR_NAMES
    her_js = (WIDGETS / "her_play.js").read_text()
    assert re.search(r'"(red|yellow|vermilion)"', her_js) is None


def test_book_figure_colours_a_box_as_its_label(full_kit):
    """The book's figure of learned boxes draws each box's beads in its label's colours."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    from menace_lib.base.palette import BEAD_COLOURS
    from menace_lib.book.variants.figures import draw_learned_policies

    agent = kit.kit_agent()
    P = printed_layout()
    picks = {f"box {n}": int(agent.states[P.order[n - 1]]) for n in (1, 2, 40, 287)}
    fig = draw_learned_policies(agent, picks)
    name_of = dict(zip((c.upper() for c in BEAD_COLOURS), BEAD_COLOUR_NAMES, strict=True))
    try:
        for j, n in enumerate((1, 2, 40, 287)):
            ax = fig.axes[len(picks) + j]  # row 2: the bead bars
            bars = [p for p in ax.patches if p.get_gid() == "bead-bar"]
            shown = {name_of[to_hex(p.get_facecolor()).upper()] for p in bars}
            assert shown == set(full_kit[n]["rows"]), n
    finally:
        plt.close(fig)
