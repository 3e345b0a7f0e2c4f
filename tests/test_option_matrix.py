"""Issue 39: every option acts or is refused, for the command and the game it is given
with. Each (command, option, game) runs twice in this process, with and without the
option: it must either end with a one-line error naming the option (or its value), or
change what the command prints or writes. An option that changes nothing is a silent
ignore, and fails. Every file lives in pytest's temporary folder.

The noughts-and-crosses kit is written for MENACE's moves 1-2 (13 boxes, as in
``GAME_BASE``), not all 287: each option acts on that kit through the same code (the
instruction sheet, the labels, the colour key, the paper), at a seventh of the cost. What
the options do to the whole kit (287, 304 and 338 boxes, the trained beads, letter paper)
is ``tests/test_kit.py``'s."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

from menace_lib.cli import main

GAMES = ("noughts-and-crosses", "hexapawn", "connect4:4x4")
FILES = {"noughts-and-crosses": "a.json", "hexapawn": "h.json", "connect4:4x4": "c4.json"}

# command -> (base arguments with {file} for the game's agent file, stdin)
BASE = {
    "evaluate": (["evaluate", "{file}", "--json"], ""),
    "play": (["play", "{file}"], "q\n"),
    "kit": (["kit", "--output", "k.pdf", "--json"], ""),
    "lab": (["lab", "--games", "2", "--json"], ""),
    "train menace": (["train", "menace", "--games", "5", "--output", "t.json", "--json"], ""),
    "train qlearning": (
        ["train", "qlearning", "--games", "5", "--output", "t.json", "--json"],
        "",
    ),
}

# (command, game) -> arguments added to BASE: a small noughts-and-crosses kit (see above)
GAME_BASE = {("kit", "noughts-and-crosses"): ["--moves", "1-2"]}

# command -> option -> a value other than the default (None: a flag; a dict: per game,
# "" for every other game, where the game's default differs)
OPTIONS = {
    "evaluate": {
        "--opponent": "random",
        "--tie-break": "priority",
        "--games": "50",
        "--seed": "5",
    },
    "play": {"--side": "X", "--seed": "5"},
    "kit": {
        "--layout": "square",
        "--filter": "all",
        "--player": "O",
        "--from": "{file}",
        "--paper": "letter",
        "--label-size": "small",
        "--moves": {"noughts-and-crosses": "1-1", "": "1-2"},  # not GAME_BASE's window
    },
    "lab": {"--opponent": "random", "--rule": "michie", "--seed": "5"},
    "train menace": {
        "--regimen": "random",
        "--tie-break": {"noughts-and-crosses": "uniform", "": "lowest"},
        "--seed": "5",
        "--curve": "10",
        "--filter": "decision",
        "--schedule": "2,2,2,2",
        "--restock": "none",
        "--layout": "class",
        "--player": {"noughts-and-crosses": "O", "": "X"},
    },
    "train qlearning": {
        "--regimen": "random",
        "--tie-break": {"noughts-and-crosses": "uniform", "": "lowest"},
        "--seed": "5",
        "--epsilon": "0.1",
        "--player": {"noughts-and-crosses": "O", "": "X"},
    },
}


def _cases():
    for command, options in OPTIONS.items():
        for option in options:
            for game in GAMES:
                yield pytest.param(command, option, game, id=f"{command} {option} {game}")


def _run(argv: list[str], stdin: str, folder: Path) -> tuple[int, str, str, bytes]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = old
    written = b"".join(
        (folder / n).read_bytes() for n in ("t.json", "k.pdf") if (folder / n).exists()
    )
    for n in ("t.json", "k.pdf"):
        (folder / n).unlink(missing_ok=True)
    return code, out.getvalue(), err.getvalue(), written


_BEFORE: dict[tuple[str, str], tuple[int, str, str, bytes]] = {}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("options")
    for game, name in FILES.items():
        argv = ["train", "menace", "--game", game, "--games", "30", "--output", str(folder / name)]
        assert main(argv) == 0
    return folder


@pytest.mark.parametrize(("command", "option", "game"), _cases())
def test_every_option_acts_or_is_refused(command, option, game, folder, monkeypatch):
    monkeypatch.chdir(folder)
    base, stdin = BASE[command]
    fill = {"file": FILES[game]}
    argv = [a.format(**fill) for a in base] + GAME_BASE.get((command, game), [])
    if command not in ("evaluate", "play"):  # a file names its game; these take --game
        argv += ["--game", game]
    value = OPTIONS[command][option]
    if isinstance(value, dict):
        value = value.get(game, value[""])
    given = [option] if value is None else [option, value.format(**fill)]
    key = (command, game)
    if key not in _BEFORE:  # the run without the option, once per command and game
        _BEFORE[key] = _run(argv, stdin, folder)
    before = _BEFORE[key]
    after = _run(argv + given, stdin, folder)
    if after[0] == 2:
        message = after[2]
        assert message.count("\n") == 1 and "Traceback" not in message, message
        assert option in message or (value and value in message) or "--game" in message, message
        return
    assert before[0] == 0, before[2]
    assert after[0] == 0, after[2]
    assert (after[1], after[3]) != (before[1], before[3]), f"{option} changed nothing"
