"""Re-execute book notebooks in place, so their committed outputs match the library.

Usage::

    python scripts/execute_notebooks.py                 # every book/*.ipynb
    python scripts/execute_notebooks.py book/game.ipynb # just these
    python scripts/execute_notebooks.py --time-only     # time every cell, write nothing

Each notebook runs in a fresh kernel with ``book/`` as its working folder, the way the
book build and nbval run it, and keeps the widget state the static site needs
(``store_widget_state=True``). Run it after a library change moves a number in a
notebook; nbval then compares against the new outputs.

Every run prints each notebook's slowest cell, and flags any cell over the project's
3-second limit (a reader waits for each one in a fresh kernel).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
CELL_LIMIT = 3.0  # seconds: no reader should wait longer for one cell


def cell_seconds(cell: nbformat.NotebookNode) -> float:
    """Wall time of one executed cell, from the timestamps nbclient records."""
    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


def execute(path: Path, timeout: int, write: bool = True) -> tuple[float, list[float]]:
    """Run one notebook (in place when ``write``); return its wall time and each cell's."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    seconds = [cell_seconds(cell) if cell.cell_type == "code" else 0.0 for cell in nb.cells]
    for cell in nb.cells:
        # Timestamps would make every re-run a diff (and a merge conflict).
        cell.metadata.pop("execution", None)
    if write:
        nbformat.write(nb, path)
    return time.perf_counter() - start, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every book/*.ipynb")
    parser.add_argument("--timeout", type=int, default=600, help="per-cell limit in seconds")
    parser.add_argument("--time-only", action="store_true", help="time the cells, write nothing")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "book").glob("*.ipynb"))
    # The kernel imports menace_lib from this checkout, not from wherever pip installed it.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    os.environ.pop("MPLBACKEND", None)
    slow = []
    for path in paths:
        total, cells = execute(path.resolve(), args.timeout, write=not args.time_only)
        worst = max(range(len(cells)), key=cells.__getitem__)
        print(f"{path}: {total:.1f} s; slowest cell {worst} {cells[worst]:.1f} s", flush=True)
        slow += [(path, i, s) for i, s in enumerate(cells) if s > CELL_LIMIT]
    for path, i, s in slow:
        print(f"over {CELL_LIMIT:.0f} s: {path} cell {i}: {s:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
