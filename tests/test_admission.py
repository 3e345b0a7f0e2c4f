"""Issue 39: every entry point admits a game's size, a file, the work and the output
targets before it builds anything, from one owner each. The hostile corpus
(``tests/hostile_corpus.py``) runs each case in its own process limited in memory and
time (forked from one preloaded server); every file lives in pytest's temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import thorough_param
from hostile_corpus import cases, make_files, run_case, server

import menace_lib as ml
from menace_lib.base.limits import MAX_TABLE_CELLS, MAX_TREE_CELLS


@pytest.fixture(scope="module")
def corpus_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("corpus")


@pytest.fixture(scope="module")
def corpus_cli(corpus_folder):
    """The server the cases fork from, which first writes the files they read."""
    cli = server(corpus_folder)
    make_files(corpus_folder, cli)
    yield cli
    cli.close()


def _long_run_only(case) -> bool:
    """The 2 MB Connect-4 matchbox file's bombs on the boards other than 7x6: every board
    and reader meets the same bombs made from the five other files (the same formats: the
    matchbox agent's on noughts and crosses and Hexapawn, and Connect-4 in the SARSA file),
    and every reader meets this file's 7x6 bomb; the rest only repeat those refusals on a
    bigger file to parse (about half a CPU-second each)."""
    return case.kind == "bomb" and case.id.endswith("-c4.json") and "-7x6-" not in case.id


@pytest.mark.parametrize(
    "case",
    [
        thorough_param(c, id=c.id) if _long_run_only(c) else pytest.param(c, id=c.id)
        for c in cases()
    ],
)
def test_hostile_corpus(case, corpus_folder, corpus_cli):
    """Every case of the corpus; the long run adds :func:`_long_run_only`'s."""
    fault, err = run_case(case, corpus_folder, corpus_cli)
    assert fault is None, f"{fault}: {err[-500:]}"


# --- the owners, directly ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("connect4:04x4", "write it connect4:4x4"),
        ("connect4:4x4/4", "write it connect4:4x4"),
        ("connect4:7x6", f"at most {MAX_TABLE_CELLS} cells"),
        ("connect4:5x5", f"at most {MAX_TABLE_CELLS} cells"),
        ("connect4:1x1", "line 4"),
        ("connect4:x", "unknown game"),
        (None, "unknown game"),
        (["hexapawn"], "unknown game"),
    ],
)
def test_one_parser_refuses_every_other_spelling_and_size(name, message):
    from menace_lib.games.registry import game_name

    with pytest.raises(ValueError, match=message):
        game_name(name)
    with pytest.raises(ValueError, match=message):
        ml.get_game(name)


def test_canonical_names_are_admitted_as_they_are():
    from menace_lib.games.registry import game_name

    for name in (
        "noughts-and-crosses",
        "hexapawn",
        "connect4:4x4",
        "connect4:5x4",
        "connect4:4x5",
        "connect4:3x3/3",
    ):
        assert game_name(name) == name


def test_the_schemas_hold_the_parsers_cap():
    """One cap: every agent schema's game pattern is the one the parser makes."""
    import re

    from menace_lib import schemas
    from menace_lib.games.registry import connect4_pattern

    folder = Path(schemas.__file__).parent
    for name in ("aif", "menace", "rl"):
        text = (folder / f"menace_lib.{name}.v1.schema.json").read_text()
        assert connect4_pattern() in text, name
        pattern = json.loads(text)  # the pattern admits 5x4 and refuses 7x6 and 04x4
        found = re.search(r'"pattern": "(\^\([^"]*connect4[^"]*)"', text)[1]
        assert re.fullmatch(found, "connect4:5x4") and re.fullmatch(found, "connect4:3x3/3")
        for bad in ("connect4:7x6", "connect4:04x4", "connect4:4x4/4", "connect4:5x5"):
            assert not re.fullmatch(found, bad), (name, bad)
        assert pattern


def test_tree_kinds_have_the_tree_cap():
    from menace_lib.agents.aif import HybridAIF
    from menace_lib.agents.registry import get_kind

    for kind in ("hybrid", "forgetful", "instrumental"):
        assert get_kind(kind).max_cells == MAX_TREE_CELLS
        with pytest.raises(ValueError, match=f"at most {MAX_TREE_CELLS} cells"):
            get_kind(kind).admit_game("connect4:5x4")
    with pytest.raises(ValueError, match=f"at most {MAX_TREE_CELLS} cells"):
        HybridAIF(game="connect4:4x5", filter="decision")


def test_agent_documents_are_admitted_before_any_table(tmp_path):
    from menace_lib.agents.registry import document_game
    from menace_lib.base.files import AgentFileError

    doc = ml.Menace().to_dict()
    assert document_game(doc) == "noughts-and-crosses"
    doc["boxes"] = doc["boxes"] * 20  # 5,740 boxes: more than the game's positions
    with pytest.raises(AgentFileError, match="5,478 positions"):
        document_game(doc)
    with pytest.raises(AgentFileError, match="287 boxes"):
        ml.Menace.from_dict(doc)  # the class's own reader counts before each box
    doc = ml.Menace().to_dict()
    doc["config"]["game"] = "connect4:7x6"
    with pytest.raises(AgentFileError, match="config.game 'connect4:7x6'"):
        document_game(doc)


def test_scaling_positions_are_the_tables():
    from menace_lib.book.beyond.scaling import POSITIONS

    for game in ("noughts-and-crosses", "hexapawn", "connect4:4x4"):
        assert ml.game_tables(game).n_positions == POSITIONS[game]


def test_every_sweep_has_an_estimate_that_grows_with_its_budget():
    from menace_lib.book.beyond import get_sweep, sweeps

    for name in sweeps():
        sweep = get_sweep(name)
        opts, chosen = sweep.resolve({})
        games, evaluations = sweep.work(opts, 30, chosen)
        assert games > 0 and evaluations > 0, name
    scaling = get_sweep("scaling")
    small = scaling.work(scaling.resolve({})[0], 1, ("connect4:5x4/4-3-2-1",))
    big = scaling.work(scaling.resolve({"budget_scale": 10.0})[0], 1, ("connect4:5x4/4-3-2-1",))
    assert big[0] == 10 * small[0] and big[1] > small[1]


def test_caches_honour_xdg_cache_home(tmp_path, monkeypatch):
    from menace_lib.games.connect4 import CACHE_ENV, ConnectFour, cache_file

    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_file(ConnectFour(4, 4)).parent == tmp_path / "menace_lib"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_file(ConnectFour(4, 4)).parent == tmp_path / "home" / ".cache" / "menace_lib"


def test_echo_escapes_control_characters():
    from menace_lib.cli.terminal_input import printable

    assert printable("\x1b[2J\x07ok") == "\\x1b[2J\\x07ok"
    assert printable("4") == "4"
