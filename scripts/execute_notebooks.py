"""Re-execute book notebooks in place, so their committed outputs match the library.

Usage::

    python scripts/execute_notebooks.py                 # every book/*.ipynb
    python scripts/execute_notebooks.py book/game.ipynb # just these

Each notebook runs in a fresh kernel with ``book/`` as its working folder, the way the
book build and nbval run it, and keeps the widget state the static site needs
(``store_widget_state=True``). Run it after a library change moves a number in a
notebook; nbval then compares against the new outputs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def execute(path: Path, timeout: int) -> float:
    """Run one notebook in place and return its wall time in seconds."""
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
    for cell in nb.cells:
        # Timestamps would make every re-run a diff (and a merge conflict).
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every book/*.ipynb")
    parser.add_argument("--timeout", type=int, default=600, help="per-cell limit in seconds")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "book").glob("*.ipynb"))
    # The kernel imports menace_lib from this checkout, not from wherever pip installed it.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    os.environ.pop("MPLBACKEND", None)
    for path in paths:
        seconds = execute(path.resolve(), args.timeout)
        print(f"{path}: {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
