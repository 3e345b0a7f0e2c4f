"""The corpus of issue 39 ("bounded before it builds"): hostile inputs of every class.

Each case runs one command (``python -m menace_lib ...``) or one library call in its own
process limited in memory (``RLIMIT_AS``) and time, in a temporary folder, so a
regression fails fast instead of hanging the run. The processes are forked from one
server that has imported numpy and the library (``tests/forked_cli.py``): 143 fresh
interpreters cost about 60 CPU-s of start-up, which no case is about. :func:`classify`
names what went wrong, in the issue's classes: ``traceback``, ``hang`` (the time or memory limit
ended it), ``wrongly accepted`` (a bad input that exit 0), ``silent wrong result`` (an
option that did nothing), ``clobbered`` (an input file changed). ``tests/test_admission.py``
runs every case; ``python tests/hostile_corpus.py`` prints the totals (for a report).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from forked_cli import ForkedCli

MEMORY = 3 << 30  # bytes of address space a case may use
SECONDS = int(
    os.environ.get("HOSTILE_SECONDS", "90")
)  # wall-clock seconds a case may take (a refusal takes a few)


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # the class: bomb, kind-cap, target, budget, option, game-name, echo
    argv: tuple[str, ...] = ()  # a command line, or
    code: str = ""  # Python run with `python -c`
    expect: str = "refuse"  # refuse (exit 2, one line) or ok (exit 0)
    intact: tuple[str, ...] = ()  # files that must not change
    stdin: str = ""
    must_not_print: tuple[str, ...] = field(default=())


def _env(folder: Path) -> dict[str, str]:
    """The cases' environment: every cache (tables, matplotlib's fonts) in ``folder``."""
    cache = folder / "cache"
    return {
        **os.environ,
        "XDG_CACHE_HOME": str(cache),
        "MPLCONFIGDIR": str(cache / "matplotlib"),
        "MENACE_LIB_CACHE": str(cache / "menace_lib"),
        "PYTHONHASHSEED": "0",
    }


def server(folder: Path) -> ForkedCli:
    """The server the cases fork from, started with the cases' hash seed."""
    return ForkedCli(env=_env(folder))


def run_case(case: Case, folder: Path, cli: ForkedCli) -> tuple[str | None, str]:
    """Run ``case`` in ``folder`` (a child of ``cli``); ``(fault or None, stderr)``."""
    before = {name: (folder / name).read_bytes() for name in case.intact}
    done = cli.run(
        case.argv,
        code=case.code,
        cwd=folder,
        env=_env(folder),
        stdin=case.stdin,
        timeout=SECONDS,
        memory=MEMORY,
    )
    if done.timed_out:
        return "hang", ""
    err = done.stderr
    for name, data in before.items():
        if not (folder / name).exists() or (folder / name).read_bytes() != data:
            return "clobbered", err
    if "Traceback" in err:
        return ("hang" if "MemoryError" in err else "traceback"), err
    if done.returncode < 0:
        return "hang", err  # killed by a signal (memory)
    if any(text in done.stdout for text in case.must_not_print):
        return "silent wrong result", err
    if case.expect == "ok":
        return (None if done.returncode == 0 else "wrongly refused"), err
    if done.returncode == 0:
        kind = "silent wrong result" if case.kind == "option" else "wrongly accepted"
        return kind, err
    if done.returncode != 2 or err.count("\n") != 1:
        return "not a one-line error", err
    return None, err


# --- the files the cases read ------------------------------------------------------------

AGENTS = {
    "a.json": ("menace", "noughts-and-crosses"),
    "h.json": ("menace", "hexapawn"),
    "hy.json": ("hybrid", "hexapawn"),
    "q.json": ("qlearning", "hexapawn"),
    "s.json": ("sarsa", "connect4:4x4"),
    "c4.json": ("menace", "connect4:4x4"),
}


def make_files(folder: Path, cli: ForkedCli) -> None:
    """Train the small agents the cases start from, and write the bomb files.

    One child of ``cli`` (the cases' server, in their environment and caches) runs every
    ``train`` command line through the command line's ``main``, one after the other: no
    Python start of its own, instead of seven (about 3 CPU-s)."""
    argvs = [
        ["train", kind, "--game", game, "--games", "3", "--output", name]
        for name, (kind, game) in AGENTS.items()
    ]
    # matplotlib builds its font cache once, saying so on stderr: not inside a case.
    code = (
        "import matplotlib.pyplot\n"
        "from menace_lib.cli import main\n"
        f"for argv in {argvs!r}:\n"
        "    if main(argv) != 0:\n"
        "        raise SystemExit(f'{argv}: failed')\n"
    )
    done = cli.run(code=code, cwd=folder, env=_env(folder), timeout=SECONDS)
    if done.returncode != 0 or done.timed_out:
        raise RuntimeError(f"training the corpus's agents failed: {done.stderr[-2000:]}")
    os.link(folder / "a.json", folder / "hard.json")
    (folder / "sym.json").symlink_to("a.json")
    for name in AGENTS:
        doc = json.loads((folder / name).read_text())
        for board in ("7x6", "5x5", "6x5", "04x4", "4x4/4"):
            bomb = json.loads(json.dumps(doc))
            bomb["config"]["game"] = f"connect4:{board}"
            label = board.replace("/", "_")
            (folder / f"bomb-{label}-{name}").write_text(json.dumps(bomb))
        if "menace" in doc:  # an Active Inference file: the big board in one config only
            for where in ("config", "menace"):
                bomb = json.loads(json.dumps(doc))
                part = bomb if where == "config" else bomb["menace"]
                part["config"]["game"] = "connect4:7x6"
                (folder / f"bomb-only-{where}-{name}").write_text(json.dumps(bomb))
    doc = json.loads((folder / "a.json").read_text())
    doc["boxes"] = doc["boxes"] * 1000  # 287,000 boxes
    (folder / "many-boxes.json").write_text(json.dumps(doc))


def cases() -> list[Case]:
    out: list[Case] = []
    # 1. bomb files: every format and game, every reader.
    for name in AGENTS:
        for board in ("7x6", "5x5", "6x5", "04x4", "4x4_4"):
            path = f"bomb-{board}-{name}"
            out.append(Case(f"evaluate {path}", "bomb", ("evaluate", path)))
            out.append(Case(f"play {path}", "bomb", ("play", path), stdin="q\n"))
            out.append(
                Case(
                    f"load_agent {path}",
                    "bomb",
                    code="import sys, menace_lib as ml\n"
                    "try:\n    ml.load_agent(sys.argv[1] if len(sys.argv) > 1 else "
                    f"{path!r})\nexcept ValueError as e:\n    print(e, file=sys.stderr); "
                    "raise SystemExit(2)",
                )
            )
        out.append(
            Case(
                f"kit --from bomb-7x6-{name}",
                "bomb",
                ("kit", "--from", f"bomb-7x6-{name}", "--output", "k.pdf"),
            )
        )
    for where in ("config", "menace"):
        path = f"bomb-only-{where}-hy.json"
        out.append(Case(f"evaluate {path}", "bomb", ("evaluate", path)))
    out.append(Case("evaluate many-boxes.json", "bomb", ("evaluate", "many-boxes.json")))
    out.append(
        Case(
            "kit --from h.json (another game)",
            "bomb",
            ("kit", "--from", "h.json", "--output", "k.pdf"),
        )
    )
    # 2. per-kind caps.
    for kind in ("hybrid", "forgetful", "instrumental"):
        for board in ("5x4", "4x5"):
            argv = (
                "train",
                kind,
                "--game",
                f"connect4:{board}",
                "--games",
                "3",
                "--output",
                "t.json",
            )
            out.append(Case(f"train {kind} {board}", "kind-cap", argv))
    # 3. outputs over inputs (paths, links, hard links) and over each other.
    for target in ("a.json", "./a.json", "sym.json", "hard.json"):
        out.append(
            Case(
                f"evaluate a.json --json {target}",
                "target",
                ("evaluate", "a.json", "--json", target),
                intact=("a.json",),
            )
        )
        out.append(
            Case(
                f"kit --from a.json --json {target}",
                "target",
                ("kit", "--from", "a.json", "--output", "k.pdf", "--json", target),
                intact=("a.json",),
            )
        )
    out.append(
        Case(
            "evaluate h.json --json h.json",
            "target",
            ("evaluate", "h.json", "--game", "hexapawn", "--json", "h.json"),
            intact=("h.json",),
        )
    )
    out.append(
        Case(
            "kit --output k.pdf --json k.pdf",
            "target",
            ("kit", "--output", "k.pdf", "--json", "k.pdf"),
        )
    )
    out.append(
        Case(
            "train --output a.json --json hard.json",
            "target",
            ("train", "menace", "--games", "3", "--output", "a.json", "--json", "hard.json"),
            intact=("a.json",),
        )
    )
    # 4. budgets of every sweep, whatever its options are called.
    for argv in (
        ("scaling", "--seeds", "10000"),
        ("scaling-trainers", "--seeds", "10000"),
        ("scaling", "--set", "budget_scale=1e9"),
        ("scaling", "--set", "budget_scale=0"),
        ("scaling", "--set", "budget_scale=1e-300"),
        ("scaling-trainers", "--set", "budget_scale=1e9"),
        ("priors", "--seeds", "10000"),
        ("thesis", "--seeds", "10000"),
    ):
        out.append(Case("experiment " + " ".join(argv), "budget", ("experiment", *argv)))
    out.append(
        Case(
            "run_sweep scaling 10000 seeds",
            "budget",
            code=(
                "import menace_lib as ml\nfrom menace_lib.book.beyond import get_sweep\n"
                "try:\n    ml.run_sweep(get_sweep('scaling'), seeds=10000, backend='sequential')\n"
                "except ValueError as e:\n"
                "    import sys; print(e, file=sys.stderr); raise SystemExit(2)"
            ),
        )
    )
    # 5. options that must act or be refused.
    for argv in (
        ("experiment", "scaling", "--validation-games", "10", "--seeds", "1"),
        ("experiment", "scaling", "--curve-points", "5", "--seeds", "1"),
        ("experiment", "priors", "--games", "5", "--set", "games=-1", "--seeds", "1"),
        ("kit", "--game", "hexapawn", "--moves", "1-2", "--output", "k.pdf"),
        ("kit", "--game", "hexapawn", "--label-size", "small", "--output", "k.pdf"),
        ("play", "5000", "--game", "connect4:4x4"),
        ("play", "25", "--game", "hexapawn"),
    ):
        out.append(Case(" ".join(argv), "option", argv, stdin="q\n"))
    # 6. one spelling of a game.
    for argv in (
        ("evaluate", "c4.json", "--game", "connect4:04x4"),
        ("play", "--game", "connect4:04x4"),
        ("train", "menace", "--game", "connect4:4x4/4", "--games", "3", "--output", "t.json"),
    ):
        out.append(Case(" ".join(argv), "game-name", argv, stdin="q\n"))
    # 7. a saved agent knows its game (issue 33 item 6): these run.
    for name in ("h.json", "c4.json", "q.json", "hy.json"):
        out.append(Case(f"evaluate {name}", "file-game", ("evaluate", name), expect="ok"))
    # 8. terminal escapes are never echoed raw.
    for game in ("noughts-and-crosses", "hexapawn", "connect4:4x4"):
        out.append(
            Case(
                f"play --game {game} echo",
                "echo",
                ("play", "--game", game),
                stdin="\x1b[2J\x1b]0;owned\x07\nq\n",
                expect="ok",
                must_not_print=("\x1b",),
            )
        )
    return out


def main() -> int:
    import tempfile
    from collections import Counter

    totals: Counter[str] = Counter()
    kinds = sys.argv[1:]  # optional: only the cases of these classes
    chosen = [c for c in cases() if not kinds or c.kind in kinds]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cli = server(folder)
        make_files(folder, cli)
        for case in chosen:
            fault, err = run_case(case, folder, cli)
            if fault:
                totals[fault] += 1
                print(f"{fault:22} {case.id}: {err.strip().splitlines()[-1:] if err else ''}")
        cli.close()
    print(dict(totals) or "no faults", f"in {len(chosen)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
