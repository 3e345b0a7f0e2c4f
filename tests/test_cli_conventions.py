"""The conventions every command shares (menace_lib.cli): --version, examples under --help,
'-' for standard output, one --json, --progress, Ctrl-C, cheap --help, missing extras."""

from __future__ import annotations

# jsonschema is imported by the tests that use it: its import builds optional format
# parsers (about 2 CPU-s), which every xdist process would pay at collection.
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import menace_lib
from menace_lib.agents.registry import agent_from_dict
from menace_lib.cli import COMMANDS, INTERRUPTED, build_parser, main
from menace_lib.cli.output import output_schema

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*argv: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "menace_lib", *argv],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
        **kwargs,
    )


def parsers():
    """(name, parser) for every command and every ``train KIND``."""
    top = build_parser()
    commands = top._subparsers._group_actions[0].choices
    for name, p in commands.items():
        yield name, p
        for action in p._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                for kind, child in action.choices.items():
                    yield f"{name} {kind}", child


# --- --version and --help -----------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--version"], ["states", "--version"], ["train", "--version"]])
def test_version(argv, capsys):
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"menace_lib {menace_lib.__version__}"


def test_every_help_ends_with_runnable_examples():
    seen = 0
    for name, p in parsers():
        text = p.format_help()
        assert "\nexamples:\n  python -m menace_lib " in text, name
        examples = text.split("\nexamples:\n", 1)[1].splitlines()
        assert all(line.startswith("  python -m menace_lib ") for line in examples), name
        command = name.split()[0]
        assert any(f"menace_lib {command} " in line for line in examples), name
        assert "``" not in text and ":mod:" not in text and ":func:" not in text, name
        seen += 1
    assert seen >= len(COMMANDS) + 9  # the commands and the train kinds


def test_every_runnable_command_takes_progress_no_compile_and_json_is_one_option():
    for name, p in parsers():
        options = {o for a in p._actions for o in a.option_strings}
        if name == "train":  # KIND comes first; its options are the kind's
            continue
        assert {"--progress", "--no-progress", "--no-compile", "--version"} <= options, name
        json_opts = [a for a in p._actions if "--json" in a.option_strings]
        for action in json_opts:  # one meaning: an optional PATH, '-' (stdout) by default
            assert action.nargs == "?" and action.const == "-", name


# Each probe runs in a child forked from a server that has imported the command line and
# nothing else (tests/forked_cli.py, preload): it starts from the state a fresh
# `python -c "from menace_lib.cli import main"` has, and reports the modules its help loaded;
# one interpreter start instead of one per command.
HELP_PROBE = r"""
import contextlib, io, json, sys
from menace_lib.cli import main

HEAVY = ('scipy', 'matplotlib', 'jsonschema', 'joblib', 'dask', 'pandas')
for argv in ARGVS:
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0, argv
loaded = sorted(sys.modules)
print(json.dumps({
    "light": sorted(m for m in loaded if m.startswith(("numpy", "menace_lib.cli."))),
    "heavy": sorted({m.split('.')[0] for m in loaded if m.startswith(HEAVY)}),
}))
"""

HELP_COMMANDS = [*COMMANDS, "train menace", "train hybrid"]


@pytest.fixture(scope="module")
def help_probes(tmp_path_factory) -> dict:
    """What each probe loaded: the command list and --version (``"--help"``), and each
    command's --help (by its name)."""
    from forked_cli import ForkedCli

    probes = {"--help": [["--help"], ["--version"]]}
    probes.update({c: [[*c.split(), "--help"]] for c in HELP_COMMANDS})
    folder = tmp_path_factory.mktemp("help-probes")
    cli = ForkedCli(env=ENV, preload=("menace_lib.cli",))
    try:
        found = {}
        for name, argvs in probes.items():
            code = f"ARGVS = {argvs!r}\n{HELP_PROBE}"
            done = cli.run(code=code, cwd=folder, env=ENV, timeout=300)
            assert done.returncode == 0, f"{name}: {done.stderr}"
            found[name] = json.loads(done.stdout)
    finally:
        cli.close()
    return found


def test_help_imports_no_command_and_no_numpy(help_probes):
    """The command list and --version load no command module and no numpy."""
    assert help_probes["--help"].get("light") == [], help_probes["--help"]


@pytest.mark.parametrize("command", HELP_COMMANDS)
def test_a_commands_help_imports_no_heavy_module(command, help_probes):
    """--help stays cheap: no scipy (special, stats, optimize), matplotlib, jsonschema,
    joblib or dask is imported while a command's options are built."""
    assert help_probes[command].get("heavy") == [], help_probes[command]


# --- '-' and --json -----------------------------------------------------------------------


def test_output_dash_writes_the_agent_to_stdout_and_messages_to_stderr(tmp_path):
    done = run("train", "menace", "--games", "50", "--output", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    agent = agent_from_dict(json.loads(done.stdout))
    assert agent.to_dict()["games_trained"] == 50
    assert "trained menace for 50 games" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_a_file_named_dash_is_written_as_dot_slash_dash(tmp_path):
    done = run("train", "menace", "--games", "10", "--output", "./-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "-").read_text())["format"] == "menace_lib.menace"


def test_two_outputs_cannot_both_be_stdout(tmp_path):
    done = run("train", "menace", "--output", "-", "--json", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: --output and --json all name standard output ('-'): keep one"
    )
    assert list(tmp_path.iterdir()) == []


def test_csv_dash_is_stdout(tmp_path):
    done = run(
        "experiment", "thesis", "--tables", "9.1", "--seeds", "1", "--games", "30",
        "--validation-games", "10", "--curve-points", "2", "--backend", "sequential",
        "--csv", "-", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("table,agent,")
    assert "| table |" in done.stderr or "table" in done.stderr  # the table went to stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("states", ["states"]),
        ("states", ["states", "--game", "hexapawn"]),
        ("states", ["states", "--game", "connect4:4x4"]),
        ("train", ["train", "menace", "--games", "40", "--curve", "20", "--output", "a.json"]),
        ("train", ["train", "hybrid", "--game", "hexapawn", "--games", "20", "--output", "h.json"]),
        ("tournament", ["tournament", "--rounds", "2", "--games", "3"]),
        ("bench", ["bench", "--games", "1"]),
        ("claims", ["claims", "--data", str(ROOT / "book" / "data")]),
        (
            "experiment",
            ["experiment", "thesis", "--tables", "9.1", "--seeds", "1", "--games", "30",
             "--validation-games", "10", "--curve-points", "2", "--backend", "sequential"],
        ),
    ],
)  # fmt: skip
def test_json_documents_match_their_published_schemas(
    command, argv, tmp_path, capsys, monkeypatch, request
):
    import jsonschema

    monkeypatch.chdir(tmp_path)  # relative outputs (train's a.json) land here
    if command == "bench":
        # A measurement costs about 12 CPU-s whatever --games is: the run's one (shared with
        # tests/test_cli_fuzz.py's `bench --games 1 --json`) gives both documents here.
        request.getfixturevalue("measured_bench")
    assert main([*argv, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    jsonschema.validate(printed, output_schema(command))
    assert main([*argv, "--json", str(tmp_path / "doc.json")]) == 0
    written = json.loads((tmp_path / "doc.json").read_text())
    jsonschema.validate(written, output_schema(command))
    assert capsys.readouterr().out.strip()  # with a PATH, the table is still printed


@pytest.mark.parametrize("game", ["noughts-and-crosses", "hexapawn"])
def test_evaluate_json_matches_its_schema(tmp_path, capsys, game):
    import jsonschema

    path = str(tmp_path / "a.json")
    assert main(["train", "menace", "--game", game, "--games", "20", "--output", path]) == 0
    capsys.readouterr()
    assert main(["evaluate", path, "--game", game, "--json"]) == 0
    jsonschema.validate(json.loads(capsys.readouterr().out), output_schema("evaluate"))


def test_shipped_documents_match_the_schemas_of_the_commands_that_write_them():
    import jsonschema

    data = ROOT / "book" / "data"
    jsonschema.validate(json.loads((data / "claims.json").read_text()), output_schema("claims"))
    for name in ("thesis_results.json", "beyond_priors.json"):
        doc = json.loads((data / name).read_text())
        jsonschema.validate(doc, output_schema("experiment"))
    tuned = json.loads((ROOT / "menace_lib" / "data" / "priors_tuned.json").read_text())
    jsonschema.validate(tuned, output_schema("tune-priors"))


def test_every_command_with_json_has_a_schema():
    import jsonschema

    for name, p in parsers():
        if any("--json" in a.option_strings for a in p._actions):
            schema = output_schema(name.split()[0])
            jsonschema.Draft202012Validator.check_schema(schema)


# --- Ctrl-C and SIGTERM -------------------------------------------------------------------


def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _as_at_a_terminal() -> None:
    """Signals as a command typed at a terminal gets them: Ctrl-C and SIGTERM delivered.

    A test runner started in the background (or a worker that inherited a blocked mask)
    would otherwise pass SIGINT on as ignored, and the command, rightly, would ignore it.
    """
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "status", "line"),
    [(signal.SIGINT, INTERRUPTED, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_ends_a_running_experiment_with_one_line_and_no_file(tmp_path, sig, status, line):
    proc = subprocess.Popen(
        [sys.executable, "-m", "menace_lib", "experiment", "thesis", "--seeds", "40",
         "--games", "3000", "--jobs", "2", "--json", "out.json", "--csv", "out.csv"],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_as_at_a_terminal,
    )  # fmt: skip
    workers: set[int] = set()
    for _ in range(600):  # until the loky workers run (or 60 s)
        time.sleep(0.1)
        workers = {c for c in children_of(proc.pid) if "loky" in _cmdline(c)}
        if len(workers) >= 2:
            break
    assert proc.poll() is None, proc.communicate()
    time.sleep(1.0)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == status, err
    cost, *rest = err.splitlines()  # the run's cost, said before it starts, then one line
    assert cost.startswith("experiment thesis: 800 runs") and rest == [line], err
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no output, no temporary file
    for _ in range(100):
        if not any(alive(w) for w in workers):
            break
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "a worker outlived the command"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


# --- missing extras -------------------------------------------------------------------------

BLOCK = """
import sys
from importlib.abc import MetaPathFinder

class Missing(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from menace_lib.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_without(blocked: set[str], *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK.format(blocked=blocked), *argv],
        cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_scheduler_without_dask_names_the_extra(tmp_path):
    done = run_without({"dask", "distributed"}, "experiment", "priors", "--scheduler",
                       "local:2", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert 'pip install "menace_lib[dask]"' in done.stderr


def test_kit_without_matplotlib_names_the_extra(tmp_path):
    done = run_without({"matplotlib"}, "kit", "--output", "kit.pdf", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        'error: kit needs matplotlib, which is not installed: pip install "menace_lib[plots]"\n'
    )
    assert list(tmp_path.iterdir()) == []


def test_require_and_missing_extra():
    from menace_lib.base.extras import MissingExtraError, missing_extra, require

    require("plots", "a figure")  # installed here: silent
    with pytest.raises(ValueError, match="unknown extra 'pandas'"):
        require("pandas", "x")
    assert missing_extra(ModuleNotFoundError("x", name="numpy"), "x") is None
    err = missing_extra(ModuleNotFoundError("x", name="anywidget._x"), "the widgets")
    assert isinstance(err, MissingExtraError) and err.extra == "widgets"


# --- play ---------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["q", "quit", "Q"])
def test_play_quits_on_q(word, tmp_path):
    done = run("play", "--seed", "1", "--side", "X", cwd=tmp_path, input=f"{word}\n5\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Goodbye.")
    assert "Your move" in done.stdout and done.stdout.count("Your move") == 1


# --- '-' in the library's writers -----------------------------------------------------------


def test_writers_send_dash_to_stdout_only_when_complete(capfdbinary):
    from menace_lib.base import files

    files.write_bytes("-", b"%PDF-1.4 ...")
    assert capfdbinary.readouterr().out == b"%PDF-1.4 ..."
    with pytest.raises(RuntimeError), files.open_atomic("-") as f:
        f.write("half a document")
        raise RuntimeError("interrupted")
    assert capfdbinary.readouterr().out == b""  # nothing printed from a failed write
    files.write_json("-", {"a": 1})
    assert capfdbinary.readouterr().out == b'{"a": 1}\n'
