"""``python -m menace_lib claims``: the claims ledger, its snapshot and its cached results."""

from __future__ import annotations

import argparse
import sys

from .output import print_json

HELP = "check every quantitative claim of the thesis (the claims ledger)"


def configure(p: argparse.ArgumentParser) -> None:
    from ..claims.cache import CACHES, DATA_DIR

    p.add_argument("--data", default=str(DATA_DIR), help="results folder (default: book/data)")
    p.add_argument(
        "--regenerate",
        choices=[*sorted(CACHES), "all"],
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
    p.add_argument("--json", action="store_true", help="print the snapshot document")


def run(args: argparse.Namespace) -> int:
    from ..claims import (
        Evidence,
        build_ledger,
        compare_snapshot,
        read_snapshot,
        snapshot,
        write_snapshot,
    )
    from ..claims.cache import CACHES, regenerate
    from ..claims.render import VERDICT_LABELS, summary_text

    evidence = Evidence(args.data)  # refuses a missing folder before any slow work
    _check_targets(args)
    if args.regenerate:
        for name in sorted(CACHES) if args.regenerate == "all" else [args.regenerate]:
            print(f"regenerating {name} ...", file=sys.stderr, flush=True)
            print(f"wrote {regenerate(name, args.data)}", file=sys.stderr)
    entries = build_ledger(evidence)
    if args.write_snapshot:
        print(f"wrote {write_snapshot(entries, args.data)}", file=sys.stderr)
    if args.json:
        print_json(snapshot(entries))
    else:
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

    from ..claims import SNAPSHOT
    from ..claims.cache import CACHES, cache_path
    from ..files import check_output_path

    if args.regenerate:
        names = sorted(CACHES) if args.regenerate == "all" else [args.regenerate]
        for name in names:
            check_output_path(cache_path(name, args.data), "--regenerate")
    if args.write_snapshot:
        check_output_path(Path(args.data) / SNAPSHOT, "--write-snapshot")
