"""Re-execute book notebooks in place, so their committed outputs match the library.

Usage::

    python scripts/execute_notebooks.py                 # every book/*.ipynb
    python scripts/execute_notebooks.py book/game.ipynb # just these
    python scripts/execute_notebooks.py --time-only     # time every cell, write nothing
    python scripts/execute_notebooks.py --time-only --table cells.tsv  # and save the table

Each notebook runs in a fresh kernel with ``book/`` as its working folder, the way the
book build and nbval run it, and keeps the widget state the static site needs
(``store_widget_state=True``). Run it after a library change moves a number in a
notebook; nbval then compares against the new outputs.

Every run prints each notebook's slowest cell, and flags any cell over the project's
3-second limit (a reader waits for each one in a fresh kernel). ``--table`` writes one
tab-separated row per code cell (notebook, cell, wall seconds, kernel CPU seconds, first line
of source) and one ``TOTAL`` row per notebook with the kernel's whole CPU time (start-up and
imports included; its child processes counted once they end). CPU time is the figure to
compare on a shared machine: wall time moves with the neighbours' load.

Code cells saved unrun (no execution count, no outputs, e.g. the widgets a reader starts
by hand) are run and then saved unrun again, as git has them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
import psutil
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


class _CpuClock:
    """The kernel process's CPU seconds (its own and its ended children's) at each cell."""

    def __init__(self, client: NotebookClient) -> None:
        self.client = client
        self.process: psutil.Process | None = None
        self.start: dict[int, float] = {}
        self.seconds: dict[int, float] = {}
        self.last = 0.0  # the kernel's CPU seconds when the last cell ended

    def now(self) -> float:
        if self.process is None:
            self.process = psutil.Process(self.client.km.provisioner.pid)
        t = self.process.cpu_times()
        return t.user + t.system + t.children_user + t.children_system

    def cell_start(self, cell: nbformat.NotebookNode, cell_index: int, **_: object) -> None:
        self.start[cell_index] = self.now()

    def cell_end(self, cell: nbformat.NotebookNode, cell_index: int, **_: object) -> None:
        self.last = self.now()
        self.seconds[cell_index] = self.last - self.start.get(cell_index, 0.0)


def _unrun(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and cell.get("execution_count") is None and not cell.outputs


def execute(
    path: Path, timeout: int, write: bool = True
) -> tuple[float, list[float], list[float], float]:
    """Run one notebook (in place when ``write``).

    Returns its wall time, each cell's wall time, each cell's kernel CPU time and the
    kernel's whole CPU time.
    """
    nb = nbformat.read(path, as_version=4)
    unrun = [i for i, cell in enumerate(nb.cells) if _unrun(cell)]
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,
        record_timing=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    clock = _CpuClock(client)
    client.on_cell_execute = clock.cell_start
    client.on_cell_executed = clock.cell_end
    start = time.perf_counter()
    client.execute()
    wall = time.perf_counter() - start
    seconds = [cell_seconds(cell) if cell.cell_type == "code" else 0.0 for cell in nb.cells]
    cpu = [clock.seconds.get(i, 0.0) for i in range(len(nb.cells))]
    for cell in nb.cells:
        # Timestamps would make every re-run a diff (and a merge conflict).
        cell.metadata.pop("execution", None)
    for i in unrun:
        nb.cells[i].outputs = []
        nb.cells[i].execution_count = None
    # The counts as a reader's run gives them: the cells left unrun take no number.
    count = 0
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.execution_count is not None:
            count += 1
            cell.execution_count = count
            for output in cell.outputs:
                if output.output_type == "execute_result":
                    output.execution_count = count
    if write:
        nbformat.write(nb, path)
    return wall, seconds, cpu, clock.last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every book/*.ipynb")
    parser.add_argument("--timeout", type=int, default=600, help="per-cell limit in seconds")
    parser.add_argument("--time-only", action="store_true", help="time the cells, write nothing")
    parser.add_argument("--table", type=Path, help="write the per-cell table here (TSV)")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "book").glob("*.ipynb"))
    # The kernel imports menace_lib from this checkout, not from wherever pip installed it.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
    os.environ.pop("MPLBACKEND", None)
    slow = []
    rows = ["notebook\tcell\twall_s\tcpu_s\tsource"]
    for path in paths:
        nb_source = nbformat.read(path, as_version=4)
        total, cells, cpu, kernel_cpu = execute(
            path.resolve(), args.timeout, write=not args.time_only
        )
        worst = max(range(len(cells)), key=cells.__getitem__)
        print(
            f"{path}: {total:.1f} s, kernel {kernel_cpu:.1f} CPU-s; "
            f"slowest cell {worst} {cells[worst]:.1f} s",
            flush=True,
        )
        slow += [(path, i, s) for i, s in enumerate(cells) if s > CELL_LIMIT]
        for i, cell in enumerate(nb_source.cells):
            if cell.cell_type == "code":
                first = (cell.source.strip().splitlines() or [""])[0][:80]
                rows.append(f"{path.name}\t{i}\t{cells[i]:.2f}\t{cpu[i]:.2f}\t{first}")
        rows.append(f"{path.name}\tTOTAL\t{total:.2f}\t{kernel_cpu:.2f}\t")
        if args.table:
            args.table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for path, i, s in slow:
        print(f"over {CELL_LIMIT:.0f} s: {path} cell {i}: {s:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
