"""The command line: ``python -m menace_lib <command>``.

Each command lives in a module of its own in this package and offers three names:
``EXAMPLES`` (command lines shown under ``--help``), ``configure(parser)`` (its
options) and ``run(args) -> int``. Its one-line summary is in :data:`COMMANDS`, so
the command list and ``--help`` import no command module (and no numpy or scipy):
only the command that runs is imported and configured.

Conventions, the same for every command (set up here and in :mod:`.arguments`):

* ``--version`` prints the library's version; ``--help`` ends with examples.
* ``-`` means standard output wherever a file is written; the command's messages then
  go to standard error, so the data can be piped.
* ``--json [PATH]`` writes the command's result as one JSON document, to standard
  output (``--json`` or ``--json -``: no table) or to ``PATH`` (the table is still
  printed). The documents' shapes are JSON Schemas in ``menace_lib/schemas/cli/``.
* ``--progress/--no-progress``: progress bars on standard error, on by default when
  standard error is a terminal.
* Bad input ends with a one-line error naming the problem and exit status 2, checked
  as the command line is parsed (:mod:`.arguments`) where it can be. A missing
  optional package names the extra to install (:mod:`menace_lib.base.extras`), exit 1.
* Ctrl-C ends a command with one line and exit status 130 (SIGTERM: 143), with no
  traceback; no file is half-written and worker processes end with it.

===============  ==============================================================
``states``       golden facts of the enumerated game
``train``        train an agent of any kind and save it as JSON
``evaluate``     evaluate a saved agent, exactly or by sampling
``experiment``   the thesis's experiment suite (Tables 9.1-9.4) or the λ sweep
``tournament``   self-play tournament of the stochastic player
``bench``        measure the speed targets
``claims``       check every quantitative claim of the thesis (the claims ledger)
``kit``          a printable matchbox kit (PDF) for a real MENACE
``play``         play noughts and crosses against MENACE in the terminal
``lab``          the MENACE lab's games, played by the library (any game the lab shows)
``tune-priors``  tune MENACE's initial beads for the priors sweep (scipy.optimize)
===============  ==============================================================
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, NoReturn

from .. import __version__

PROG = "python -m menace_lib"

COMMANDS: dict[str, str] = {
    "states": "golden facts of the enumerated game",
    "train": "train an agent of any kind and save it as JSON",
    "evaluate": "evaluate a saved agent, exactly or by sampling",
    "experiment": "run the thesis's suite (Tables 9.1-9.4), the λ sweep, or a sweep "
    "beyond the thesis",
    "tournament": "self-play tournament of the stochastic player (the blog post's "
    "rule-agnostic MENACE)",
    "bench": "measure the speed targets",
    "claims": "check every quantitative claim of the thesis (the claims ledger)",
    "kit": "write a printable matchbox kit (labels, colour key, instructions) as a PDF",
    "play": "play noughts and crosses against MENACE in the terminal",
    "lab": "the MENACE lab's games from a seed, played by the library "
    "(noughts and crosses or hexapawn)",
    "tune-priors": "tune MENACE's initial bead schedule by exact sample efficiency "
    "(scipy.optimize)",
}
"""command → its one-line summary (the module is ``menace_lib.cli.<command>``, ``-`` → ``_``)."""

EXAMPLES = f"""\
{PROG} states --json
{PROG} train menace --games 500 --output agent.json
{PROG} evaluate agent.json --opponent perfect
{PROG} play
{PROG} train hybrid --help"""

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""

TERMINATED = 143
"""Exit status after SIGTERM (128 + SIGTERM)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: unwind like Ctrl-C (files removed, workers ended)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is a ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def command_module(name: str) -> ModuleType:
    """The module of command ``name`` (imported on first use)."""
    return importlib.import_module(f".{name.replace('-', '_')}", __name__)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command.

    Parameters
    ----------
    only
        Configure only this command's options (the others are listed with their
        summaries, unconfigured); ``None`` configures every command, ``""`` none.
    """
    parser = _parser(PROG, description=__doc__.splitlines()[0], examples=EXAMPLES)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        child = sub.add_parser(
            name,
            help=summary,
            description=summary[0].upper() + summary[1:] + ".",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if only is None or only == name:
            module = command_module(name)
            module.configure(child)
            _conventions(child, module.EXAMPLES)
    return parser


def _parser(prog: str, *, description: str, examples: str) -> Parser:
    parser = Parser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _version_and_examples(parser, examples)
    return parser


def _version_and_examples(p: argparse.ArgumentParser, examples: str) -> None:
    p.epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples.strip().splitlines())
    p.add_argument("--version", action="version", version=f"menace_lib {__version__}")


def _conventions(p: argparse.ArgumentParser, examples: str) -> None:
    """``--version``, the examples epilog, and ``--progress`` on the commands that run."""
    _version_and_examples(p, examples)
    children = _subparsers(p)
    if not children:
        _progress_option(p)
        _compile_option(p)
    for name, child in children.items():
        child.formatter_class = argparse.RawDescriptionHelpFormatter
        mine = [line for line in examples.splitlines() if f" {name} " in f"{line} "]
        _conventions(child, "\n".join(mine) or f"{child.prog} --help")


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _progress_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bars on stderr (default: on when stderr is a terminal)",
    )


def _compile_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-compile",
        action="store_true",
        help="play every run in Python, never by a compiled kernel (as MENACE_LIB_COMPILED=0)",
    )


@contextlib.contextmanager
def _python_only(on: bool) -> Iterator[None]:
    """``--no-compile``: the compile switch's variable set for the command (and so for its
    worker processes, which inherit it), restored afterwards."""
    from ..base.compiling import ENV

    if not on:
        yield
        return
    before = os.environ.get(ENV)
    os.environ[ENV] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (0, 2 after a one-line error, 130 on Ctrl-C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        with _sigterm_unwinds():
            return _main(argv)
    except Terminated:
        return _interrupted("terminated", TERMINATED)
    except KeyboardInterrupt:
        return _interrupted("interrupted", INTERRUPTED)


def _main(argv: list[str]) -> int:
    name = next((a for a in argv if not a.startswith("-")), "")
    try:
        args = build_parser(only=name if name in COMMANDS else "").parse_args(argv)
    except SystemExit as done:  # --help, --version, or a bad command line (already reported)
        return done.code if isinstance(done.code, int) else 2
    if getattr(args, "progress", None) is None:
        args.progress = sys.stderr.isatty()
    try:
        return _run(args)
    except ModuleNotFoundError as err:
        from ..base.extras import missing_extra

        extra = missing_extra(err, args.command)
        if extra is None:
            raise
        print(f"error: {extra}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from ..base.files import STDOUT, stdout_stream
    from ..base.progress import showing
    from .arguments import check_targets

    check_targets(args)  # no output over an input or another output, before any work
    to_stdout = [f"--{k.replace('_', '-')}" for k, v in vars(args).items() if v == STDOUT]
    if len(to_stdout) > 1:
        raise ValueError(f"{' and '.join(to_stdout)} all name standard output ('-'): keep one")
    # Data written to '-' goes to stdout; every message then goes to stderr.
    quiet = contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext()
    python_only = _python_only(getattr(args, "no_compile", False))
    with stdout_stream(sys.stdout), showing(args.progress), quiet, python_only:
        return command_module(args.command).run(args)


def _interrupted(what: str, status: int) -> int:
    from ..base.parallel import stop_workers

    stop_workers()
    print(what, file=sys.stderr)
    return status


@contextlib.contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` inside the block (main thread only)."""

    def handler(signum: int, frame: Any) -> NoReturn:
        raise Terminated

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


__all__ = ["COMMANDS", "INTERRUPTED", "TERMINATED", "build_parser", "command_module", "main"]
