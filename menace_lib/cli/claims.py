"""``python -m menace_lib claims``: the claims ledger, its snapshot and its cached results."""

from __future__ import annotations

import argparse
import sys

from .arguments import add_json_option
from .output import emit_json

EXAMPLES = """\
python -m menace_lib claims --check
python -m menace_lib claims --data book/data --json
python -m menace_lib claims --regenerate seeds"""

CACHE_NAMES = ("computational", "dynamics", "regret", "seeds", "stress")
"""The cached results ``--regenerate`` recomputes (``menace_lib.book.claims.cache.CACHES``)."""


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data",
        default=None,
        metavar="FOLDER",
        help="the results folder (default: the book's stored results, which the installed "
        "library carries; in a checkout, its book/data)",
    )
    p.add_argument(
        "--regenerate",
        choices=[*CACHE_NAMES, "all"],
        help="recompute a cached result first (slow: minutes)",
    )
    p.add_argument(
        "--write-snapshot",
        action="store_true",
        help="record the verdicts in claims.json (after a deliberate change)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if any verdict or value differs from claims.json",
    )
    add_json_option(p, "the snapshot document")


def run(args: argparse.Namespace) -> int:
    from ..base.files import book_data, book_data_is_packaged
    from ..base.progress import steps
    from ..book.claims import (
        Evidence,
        build_ledger,
        compare_snapshot,
        read_snapshot,
        snapshot,
        write_snapshot,
    )
    from ..book.claims.cache import CACHES, regenerate
    from ..book.claims.render import VERDICT_LABELS, summary_text

    if args.data is None:
        if book_data_is_packaged() and (args.regenerate or args.write_snapshot):
            # The installed package's copy is read-only in spirit: a rewrite belongs in a
            # checkout's book/data, where git sees it.
            flag = "--regenerate" if args.regenerate else "--write-snapshot"
            raise ValueError(
                f"{flag} rewrites the book's stored results, which an installed library "
                "carries read-only: give --data FOLDER, the book/data folder of a checkout"
            )
        args.data = str(book_data())
    evidence = Evidence(args.data)  # refuses a missing folder before any slow work
    _check_targets(args)
    if args.regenerate:
        names = sorted(CACHES) if args.regenerate == "all" else [args.regenerate]
        for name in steps(names, "regenerating", unit="cache"):
            print(f"regenerating {name} ...", file=sys.stderr, flush=True)
            print(f"wrote {regenerate(name, args.data)}", file=sys.stderr)
    entries = build_ledger(evidence)
    if args.write_snapshot:
        print(f"wrote {write_snapshot(entries, args.data)}", file=sys.stderr)
    if not emit_json(args.json, snapshot(entries)):
        for e in entries:
            print(f"§{e.claim.section:<7} {VERDICT_LABELS[e.verdict]:<22} {e.claim.id}")
        print(summary_text(entries))
    if args.check:
        changes = compare_snapshot(entries, read_snapshot(args.data))
        for line in changes:
            print(f"changed: {line}", file=sys.stderr)
        return 1 if changes else 0
    return 0


def _check_targets(args: argparse.Namespace) -> None:
    """The files --regenerate and --write-snapshot will write, checked before any work."""
    from pathlib import Path

    from ..base.files import check_output_path
    from ..book.claims import SNAPSHOT
    from ..book.claims.cache import CACHES, cache_path

    if args.regenerate:
        names = sorted(CACHES) if args.regenerate == "all" else [args.regenerate]
        for name in names:
            check_output_path(cache_path(name, args.data), "--regenerate")
    if args.write_snapshot:
        check_output_path(Path(args.data) / SNAPSHOT, "--write-snapshot")
