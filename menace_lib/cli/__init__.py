"""The command line: ``python -m menace_lib <command>``.

Each command lives in a module of its own in this package and offers three names:
``HELP`` (one line for the command list), ``configure(parser)`` (its options) and
``run(args) -> int``. A command prints a readable table or, with ``--json``, one JSON
document. Bad input ends with a one-line error naming the problem and exit status 2:
option values are checked as the command line is parsed (:mod:`.arguments`), so a
bad count or output path is refused before any work starts.

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
``tune-priors``  tune MENACE's initial beads for the priors sweep (scipy.optimize)
===============  ==============================================================
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from . import (
    bench,
    claims,
    evaluate,
    experiment,
    kit,
    play,
    states,
    tournament,
    train,
    tune_priors,
)

COMMANDS: dict[str, ModuleType] = {
    "states": states,
    "train": train,
    "evaluate": evaluate,
    "experiment": experiment,
    "tournament": tournament,
    "bench": bench,
    "claims": claims,
    "kit": kit,
    "play": play,
    "tune-priors": tune_priors,
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is a ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser for every command."""
    parser = Parser(prog="python -m menace_lib", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, module in COMMANDS.items():
        module.configure(sub.add_parser(name, help=module.HELP, description=module.HELP))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (0, or 2 after a one-line error)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, or a bad command line (already reported)
        return done.code if isinstance(done.code, int) else 2
    try:
        return COMMANDS[args.command].run(args)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


__all__ = ["COMMANDS", "build_parser", "main"]
