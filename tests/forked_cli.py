"""Run ``python -m menace_lib ...`` (or a short script) in a fresh process, cheaply.

A test that runs the command line in a subprocess pays a new interpreter and the imports of
numpy and the library each time (about 0.4 CPU-s, most of a refused command's cost). Here one
server process imports them once and forks a child for every run: each run still gets its own
process, working folder, environment, standard streams, memory limit and time limit, and is
killed if it runs over; it only skips the start-up. What a run cannot see this way is the
start-up it skipped, so what a server imports is its caller's choice (``preload``): the tests
about imports (``--help`` imports no numpy) fork from a server that has imported only the
command line (``tests/test_cli_conventions.py``, ``help_probes``).

The server speaks one JSON line per request and per answer on its standard streams (no
pickling); a child's streams are files, so nothing it prints reaches the protocol.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Imported once by the server (unless the caller names others); what a command imports beyond
# these it imports itself.
PRELOAD = ("numpy", "jsonschema", "menace_lib", "menace_lib.cli", "menace_lib.agents.registry")


@dataclass(frozen=True)
class Done:
    """What :func:`subprocess.run` would have given (``timed_out``: killed at the limit)."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool


class ForkedCli:
    """A server that forks a preloaded interpreter for each run (see the module's docstring)."""

    def __init__(
        self, env: dict[str, str] | None = None, preload: tuple[str, ...] = PRELOAD
    ) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )

    def run(
        self,
        argv: list[str] | tuple[str, ...] = (),
        *,
        code: str = "",
        cwd: Path,
        env: dict[str, str],
        stdin: str = "",
        timeout: float,
        memory: int | None = None,
    ) -> Done:
        """``python -m menace_lib *argv`` (or ``python -c code``) in ``cwd`` with ``env``."""
        if bool(argv) == bool(code):
            raise ValueError("give a command line or code, not both")
        request = {
            "argv": list(argv),
            "code": code,
            "cwd": str(cwd),
            "env": env,
            "stdin": stdin,
            "timeout": timeout,
            "memory": memory,
        }
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the forked-CLI server ended (exit {self._proc.wait()})")
        return Done(**json.loads(line))

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=60)


# --- the server ---------------------------------------------------------------------------


def _child(request: dict, folder: Path) -> None:
    """In the forked child: become ``python -m menace_lib`` / ``python -c``, then exit."""
    import contextlib
    import resource
    import runpy
    import traceback

    if request["memory"]:
        resource.setrlimit(resource.RLIMIT_AS, (request["memory"],) * 2)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    (folder / "in").write_text(request["stdin"], encoding="utf-8")
    for fd, name, mode in (
        (0, "in", os.O_RDONLY),
        (1, "out", os.O_WRONLY | os.O_CREAT),
        (2, "err", os.O_WRONLY | os.O_CREAT),
    ):
        new = os.open(folder / name, mode, 0o600)
        os.dup2(new, fd)
        os.close(new)
    # Fresh text streams over the new descriptors, set up as Python sets up its own.
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - lives until exit
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", 1, encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    sys.path[0] = os.getcwd()  # as `python -m` and `python -c` put it
    status = 0
    try:
        if request["argv"]:
            sys.argv = ["-m", *request["argv"]]
            runpy.run_module("menace_lib", run_name="__main__", alter_sys=True)
        else:
            script = folder / "script.py"
            script.write_text(request["code"], encoding="utf-8")
            sys.argv = ["-c"]
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as stop:
        if stop.code is None:
            status = 0
        elif isinstance(stop.code, int):
            status = stop.code
        else:
            print(stop.code, file=sys.stderr)
            status = 1
    except BaseException:  # noqa: BLE001 - as the interpreter does: the traceback, then exit 1
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or broken stream: nothing to flush
            stream.flush()
    os._exit(status & 0xFF)


def _run_one(request: dict) -> dict:
    import signal
    import time

    with tempfile.TemporaryDirectory(prefix="forked-cli-") as tmp:
        folder = Path(tmp)
        pid = os.fork()
        if pid == 0:
            try:
                _child(request, folder)
            finally:
                os._exit(70)  # only if _child itself failed before its own exit
        deadline = time.monotonic() + request["timeout"]
        timed_out = False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                timed_out = True
                break
            time.sleep(0.005)
        code = os.waitstatus_to_exitcode(status)

        def read(name: str) -> str:
            path = folder / name
            return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

        return {
            "returncode": code,
            "stdout": read("out"),
            "stderr": read("err"),
            "timed_out": timed_out,
        }


def serve(preload: list[str]) -> None:
    import importlib

    for name in preload:
        importlib.import_module(name)
    protocol_in, protocol_out = sys.stdin, sys.stdout
    for line in protocol_in:
        answer = _run_one(json.loads(line))
        protocol_out.write(json.dumps(answer) + "\n")
        protocol_out.flush()


if __name__ == "__main__" and sys.argv[1:2] == ["--serve"]:
    serve(sys.argv[2:])
