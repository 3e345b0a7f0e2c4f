"""Benchmark: the kernel's CPU time for "Restart Kernel and Run All Cells" of book notebooks.

Target: ``book/lab.ipynb`` within 10 CPU-s (a teacher restarts it in class). Each notebook
runs in a fresh kernel with ``book/`` as its working folder, as the book build and nbval run
it; a last cell, added to the in-memory copy only, prints the kernel process's own CPU time
(user + system, its start-up and imports included) and its children's. It is a benchmark,
not a test: it prints the times and never asserts them. Run on an otherwise idle machine:
other processes on the same cores inflate CPU time a little (cache misses).

    python benchmarks/bench_notebook_cpu.py                  # book/lab.ipynb, 3 runs
    python benchmarks/bench_notebook_cpu.py book/intro.ipynb --runs 1
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
BUDGET_S = {"lab.ipynb": 10.0}
PROBE = (
    "import resource as _r\n"
    "_s, _c = _r.getrusage(_r.RUSAGE_SELF), _r.getrusage(_r.RUSAGE_CHILDREN)\n"
    "print(_s.ru_utime + _s.ru_stime, _c.ru_utime + _c.ru_stime)"
)


def kernel_cpu_seconds(path: Path) -> tuple[float, float]:
    """(kernel CPU-s, its children's CPU-s) for one restart-and-run-all of ``path``."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    own, children = nb.cells[-1].outputs[0]["text"].split()
    return float(own), float(children)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, default=[ROOT / "book" / "lab.ipynb"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    for path in args.notebooks:
        times = [sum(kernel_cpu_seconds(path.resolve())) for _ in range(args.runs)]
        budget = BUDGET_S.get(path.name)
        limit = f" (budget {budget:g})" if budget else ""
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"{path.name}: kernel CPU-s per run {shown}; best {min(times):.2f}{limit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
