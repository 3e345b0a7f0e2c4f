"""Random command lines: every command exits 0 or prints a one-line error, never a traceback.

Each example runs in-process (``menace_lib.cli.main``) in a fresh temporary folder
holding the awkward files a user might name: a saved agent, a folder, a FIFO, a
symbolic link, an empty and a garbage file. Option values mix good ones (kept
cheap, so the whole file runs in seconds) with hostile ones. After every run no
temporary file is left and none of the prepared files has been damaged.
"""

import contextlib
import io
import os
import stat
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from menace_lib.cli import COMMANDS, main

RUNS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

# Per option: values that should work (kept cheap) and values that must be refused.
HUGE = ["99999999999999999999999", "10000001", "9" * 5000, "-99999999999999999999"]
BAD_COUNTS = ["-1", "", " ", "abc", "1e3", "1.5", "0x10", "٣", "²", *HUGE]
COUNT = (["0", "1", "2", "+1", " 2"], BAD_COUNTS)
POSITIVE = (["1", "2"], ["0", *BAD_COUNTS])
SEED = (["0", "7", "9223372036854775807"], ["-1", "", "1.0", "9223372036854775808", "nan"])
BAD_NAMES = ["", "nope", "PERFECT", "\u2603", "-", "--json"]
GOOD_OUT = ["out.json", "agent.json", "link", "x\u2603.json", "-"]
BAD_OUT = ["", ".", "..", "sub/", "folder/", "missing/x.json", "folder", "fifo", "fifo_link"]
BAD_OUT += ["agent.json/x", "a" * 300]
OUTPUT = (GOOD_OUT, BAD_OUT)
AGENT_IN = (["agent.json", "link"], ["missing.json", "folder", "fifo", "empty.json", "."])
AGENT_IN[1].extend(["garbage.json", "huge_int.json", "nan.json", ""])
SCHEDULE = (["4,3,2,1", "8", "1,1,1", "0.5"], ["0", "0,0", "4,a", "", ",", "nan,1,1", "1e13"])
SCHEDULE[1].extend(["1,2,3,4,5,6,7,8,9,10", "-1,2,3"])
REWARD = (["3,1,-1", "1,1,1", "-1,2,3", "1e6,0,-1e6"], ["1e308,1e308,1e308", "1e7,1,-1"])
REWARD[1].extend(["3,1", "nan,1,1", "", "4,a", "inf,1,1"])
BEADS = (["5", "0.5", "1e12", "1e-300"], ["0", "-1", "nan", "inf", "-inf", "1e308", "1e13", ""])


def names(*good: str) -> tuple[list[str], list[str]]:
    return list(good), BAD_NAMES


@st.composite
def command(draw, name: str, positional, options: dict, *, always=(), flags=(), clean=True):
    """``name``, its positional argument, and options: at most one of them hostile.

    ``clean=False``: always one hostile value (for commands whose real run is slow).
    """
    # About half the lines are meant to work; the rest have exactly one hostile value.
    clean = [None] * max(2, len(options) + 1) if clean else []
    slots = ["positional"] if positional is not None else []
    hostile = draw(st.sampled_from([*clean, *slots, *options]))
    argv = [name]
    if positional is not None:
        good, bad = positional
        value = draw(st.sampled_from(bad if hostile == "positional" else good))
        argv += [value] if value else []
    for option, (good, bad) in options.items():
        if option == hostile:
            argv += [option, draw(st.sampled_from(bad))]
        elif option in always or draw(st.booleans()):
            argv += [option, draw(st.sampled_from(good))]
    argv += [f for f in flags if draw(st.booleans())]
    if draw(st.integers(0, 9)) == 0:  # now and then, junk on the end
        argv += draw(st.sampled_from([["--nope"], ["extra"], ["--seed"], ["--json", "x"]]))
    return argv


LINES = {
    "states": command("states", None, {}, flags=("--json",)),
    "train": command(
        "train",
        (["menace"], ["aif", "MENACE"]),
        {
            "--output": OUTPUT,
            "--games": COUNT,
            "--regimen": names("random", "defensive", "optimal", "mixed"),
            "--tie-break": names("lowest", "uniform", "priority"),
            "--filter": names("all", "decision", "michie"),
            "--restock": names("none", "move", "box"),
            "--layout": names("square", "class"),
            "--schedule": SCHEDULE,
            "--reward": REWARD,
            "--player": names("X", "O"),
            "--empty-box": names("resign", "stop", "web"),
            "--floor": (["0", "0.5"], ["-1", "nan", "inf", "1e13", "x", ""]),
            "--curve": (["1", "2"], ["0", *BAD_COUNTS]),
            "--csv": OUTPUT,
            "--seed": SEED,
        },
        always=("--output", "--games"),
        flags=("--json",),
    ),
    "evaluate": command(
        "evaluate",
        AGENT_IN,
        {
            "--opponent": names("perfect", "random", "defensive", "optimal"),
            "--tie-break": names("lowest", "uniform"),
            "--games": (["1", "5"], ["0", *BAD_COUNTS]),
            "--seed": SEED,
        },
        flags=("--exact", "--json"),
    ),
    "experiment": command(
        "experiment",
        (["thesis"], ["lambda", "other", ""]),
        {
            # The games and the workers are always given: the defaults are a real run.
            "--games": POSITIVE,
            "--jobs": (["1"], ["0", "257", "-300", "x", ""]),
            "--seeds": POSITIVE,
            # Tables 9.3 and 9.4 run in about a second; the Active Inference rows take longer.
            "--tables": (["9.3", "9.4", "9.3,9.4", "9.4,9.4"], ["", ",", "nope", "λ"]),
            "--validation-games": POSITIVE,
            "--curve-points": (["0", "2"], BAD_COUNTS),
            "--backend": (["loky", "sequential"], ["nope", "", "multiprocessing", "threading"]),
            "--json": OUTPUT,
            "--csv": OUTPUT,
        },
        always=("--games", "--jobs", "--tables"),
        flags=("--no-progress",),
    ),
    "tournament": command(
        "tournament",
        None,
        {
            "--player": (["stochastic"], BAD_NAMES),
            "--rounds": COUNT,
            "--games": COUNT,
            "--seed": SEED,
            "--beads": BEADS,
            "--restock": names("box", "none"),
        },
        always=("--rounds", "--games"),
        flags=("--json",),
    ),
    # Only hostile counts: a real benchmark run takes seconds (one is in the list below).
    "bench": command("bench", None, {"--games": (POSITIVE[1], POSITIVE[1])}, always=("--games",)),
    # The ledger reads a results folder; a real one takes a second or two, and the
    # command must never write into the repository's own: every --data here is hostile.
    "claims": command(
        "claims",
        None,
        {"--data": (["folder"], ["", "missing", "folder", "fifo", "agent.json", "empty.json"])},
        always=("--data",),
        flags=("--check", "--json", "--write-snapshot"),
        clean=False,
    ),
    # A real kit is a 22-page PDF (seconds): every line here has one hostile value.
    "kit": command(
        "kit",
        None,
        {
            "--layout": names("class", "square"),
            "--filter": names("michie", "decision", "all"),
            "--player": names("X", "O"),
            "--from": AGENT_IN,
            "--paper": names("a4", "letter"),
            "--label-size": (["large", "small", "50x35"], ["", "0x0", "1e3x50", "50x35x1"]),
            "--moves": (["1-2", "4", "1-4"], ["", "0", "2-1", "1-9", "1--2"]),
            "--output": (["kit.pdf", "link", "x\u2603.pdf"], BAD_OUT),
        },
        always=("--output",),
        flags=("--json",),
        clean=False,
    ),
    # A clean play line would wait for moves on stdin: every line here has one hostile
    # value, refused before the first move (tests/test_cli_play.py plays real games).
    "play": command(
        "play",
        (["agent.json", "link", "25", "5000"], [*AGENT_IN[1], "30", "-1", "9" * 50]),
        {
            "--side": names("X", "O"),
            "--seed": SEED,
            "--games": (["1", "2"], ["0", "1001", *BAD_COUNTS]),
        },
        clean=False,
    ),
    "lab": command(
        "lab",
        None,
        {
            "--game": (["noughts-and-crosses", "hexapawn"], ["connect4:4x4", *BAD_NAMES]),
            "--opponent": names("perfect", "random"),
            "--games": (["0", "1", "2"], ["100001", *BAD_COUNTS]),
            "--seed": (["0", "7"], ["-1", "", "1.0", "4294967296", "nan"]),
            "--json": OUTPUT,
        },
    ),
    # A real tuning run trains dozens of machines (seconds even when tiny; one runs in
    # tests/test_beyond_priors.py): every line here has one hostile value.
    "tune-priors": command(
        "tune-priors",
        None,
        {
            "--regimen": names("mixed", "perfect", "all"),
            "--seeds": POSITIVE,
            "--first-seed": SEED,
            "--evaluations": (["2", "3"], ["0", "1", *BAD_COUNTS]),
            "--games": POSITIVE,
            "--jobs": (["1"], ["0", "257", "-300", "x", ""]),
            "--backend": (["sequential"], ["nope", "", "multiprocessing"]),
            "--json": OUTPUT,
        },
        always=("--seeds", "--evaluations", "--games", "--jobs"),
        clean=False,
    ),
}


def test_every_command_is_fuzzed():
    assert set(LINES) == set(COMMANDS)


@cache
def agent_text() -> str:
    """A saved MENACE, made once through the command line itself."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "agent.json"
        assert main(["train", "menace", "--games", "3", "--output", str(path)]) == 0
        return path.read_text()


def prepare(folder: Path) -> dict[str, str]:
    """The awkward files of a user's folder; returns a fingerprint of each."""
    (folder / "folder").mkdir()
    (folder / "folder" / "keep.txt").write_text("keep")
    (folder / "sub").mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "fifo_link").symlink_to(folder / "fifo")
    (folder / "agent.json").write_text(agent_text())
    (folder / "link").symlink_to(folder / "agent.json")
    (folder / "empty.json").write_text("")
    (folder / "garbage.json").write_bytes(b"\x80\x04\x95 not json")
    text = (folder / "agent.json").read_text()
    (folder / "huge_int.json").write_text(text.replace('"version": 1', '"version": 1' + "0" * 400))
    (folder / "nan.json").write_text(text.replace('"beads": [', '"beads": [NaN, ', 1))
    return fingerprint(folder)


def fingerprint(folder: Path) -> dict[str, str]:
    marks = {}
    for name in ("folder", "sub", "fifo", "fifo_link", "link", "empty.json", "garbage.json"):
        path = folder / name
        kind = stat.S_IFMT(os.lstat(path).st_mode)
        body = path.read_text("latin-1") if path.is_file() and not path.is_symlink() else ""
        marks[name] = f"{kind}:{body}"
    marks["folder/keep.txt"] = (folder / "folder" / "keep.txt").read_text()
    return marks


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def inside(folder: Path):
    old = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(old)


def check_one(tmp_path_factory, argv: list[str]) -> tuple[int, str]:
    folder = tmp_path_factory.mktemp("cli")
    before = prepare(folder)
    with inside(folder):
        code, out, err = run(argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err and "Traceback" not in out, argv
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:"), (argv, err)
    assert fingerprint(folder) == before, argv
    assert not [p for p in folder.rglob("*.tmp")], argv
    return code, out


@pytest.mark.parametrize("name", sorted(set(LINES) - {"experiment"}))
@RUNS
@given(data=st.data())
def test_random_command_lines(tmp_path_factory, name, data):
    code, _ = check_one(tmp_path_factory, data.draw(LINES[name], label="argv"))
    event(f"exit {code}")  # shown by pytest --hypothesis-show-statistics


# A suite that runs costs up to a second, so the experiment command gets fewer examples.
@settings(RUNS, max_examples=12)
@given(argv=LINES["experiment"])
def test_random_experiment_command_lines(tmp_path_factory, argv):
    code, _ = check_one(tmp_path_factory, argv)
    event(f"exit {code}")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["nope"],
        ["train", "--help"],
        ["train", "menace", "--games", "5", "--output", "/"],
        ["train", "menace", "--games", "5", "--output", "."],
        ["train", "menace", "--games", "5", "--output", ""],
        ["train", "menace", "--seed", "-1", "--output", "a.json"],
        ["train", "menace", "--schedule", "0", "--output", "a.json"],
        ["train", "menace", "--reward", "1e308,1e308,1e308", "--output", "a.json"],
        ["train", "menace", "--games", "99999999999999999999999", "--output", "a.json"],
        ["evaluate", "agent.json", "--games", "99999999999999999999999"],
        ["tournament", "--rounds", "99999999999999999999"],
        ["tournament", "--rounds", "100000", "--games", "100000"],
        ["experiment", "thesis", "--json", ""],
        ["experiment", "thesis", "--csv", ""],
        ["experiment", "thesis", "--seeds", "10000", "--games", "10000000"],
        ["experiment", "thesis", "--games", "1", "--json", "same", "--csv", "same"],
        ["bench", "--games", "1", "--json"],
    ],
)
def test_the_issues_command_lines(tmp_path_factory, argv, request):
    if argv[:1] == ["bench"]:
        # A measurement costs about 8 CPU-s: the run's one (the `bench_figures` fixture,
        # measured in an empty folder it must leave empty, shared with
        # tests/test_cli_conventions.py) stands for this line's.
        request.getfixturevalue("measured_bench")
    code, out = check_one(tmp_path_factory, argv)
    if argv[:1] == ["bench"]:
        import json

        import jsonschema

        from menace_lib.cli.output import output_schema

        assert code == 0
        jsonschema.validate(json.loads(out), output_schema("bench"))
