"""Run one stage of ``make test`` and write down what it cost; or print this run's table.

``python scripts/stage_times.py NAME -- COMMAND ...`` runs ``COMMAND`` and, when it ends,
appends one row to ``_build/test-times.tsv``: the stage's name, its exit status, its wall
time, the CPU time of its processes (every descendant that was waited for) and, on Linux,
the whole machine's busy CPU time over the stage (which also counts processes nobody
waits for, such as the browser's, and anything else the machine ran). It exits with the
command's status. ``--summary`` prints the rows as a table; ``--reset`` empties the file.

``make test`` runs each of its stages through it and prints the table at the end, so that
a run's log (CI's included) says where the time went. It is a record, not a limit: no stage
fails for being slow (speed targets belong in ``python -m menace_lib bench``).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

TIMES = Path(__file__).resolve().parent.parent / "_build" / "test-times.tsv"
COLUMNS = ("stage", "status", "wall_s", "cpu_s", "machine_cpu_s")


def machine_busy() -> float | None:
    """Seconds every processor has spent busy since boot (``/proc/stat``), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    # user, nice, system, (idle, iowait,) irq, softirq, steal: the busy ones.
    ticks = [int(v) for v in fields[1:9]]
    busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    return busy / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """CPU seconds of every descendant this process has waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(name: str, command: list[str], times: Path = TIMES) -> int:
    """Run ``command`` as the stage ``name``; append its row to ``times``; its exit status."""
    if not name or any(c in name for c in "\t\n"):
        raise SystemExit(f"stage_times: stage name {name!r}: one word, no tabs or newlines")
    if not command:
        raise SystemExit("stage_times: no command after --")
    wall, cpu, busy = time.monotonic(), children_cpu(), machine_busy()
    try:
        status = subprocess.call(command)
    except OSError as err:  # not found, not executable: as the shell says it
        print(f"stage_times: {command[0]}: {err.strerror}", file=sys.stderr)
        status = 127
    after = machine_busy()
    row = (
        name,
        str(status),
        f"{time.monotonic() - wall:.0f}",
        f"{children_cpu() - cpu:.0f}",
        "" if busy is None or after is None else f"{after - busy:.0f}",
    )
    times.parent.mkdir(parents=True, exist_ok=True)
    with times.open("a", encoding="utf-8") as f:
        f.write("\t".join(row) + "\n")
    if status != 0:  # make stops here: the table so far, with this stage's row
        print(summary(times), file=sys.stderr)
    return status


def summary(times: Path = TIMES) -> str:
    """This run's rows (since the last ``--reset``) as a Markdown table with a total."""
    rows = []
    if times.is_file():
        rows = [line.split("\t") for line in times.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if len(r) == len(COLUMNS)]
    if not rows:
        return "stage times: none recorded"
    head = "| stage | status | wall s | CPU-s of its processes | machine CPU-s |"
    lines = [head, "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]

    def total(i: int) -> str:
        values = [r[i] for r in rows]
        return "" if "" in values else str(sum(int(v) for v in values))

    lines.append(f"| all | | {total(2)} | {total(3)} | {total(4)} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv == ["--summary"]:
        print(summary())
        return 0
    if argv == ["--reset"]:
        TIMES.unlink(missing_ok=True)
        return 0
    if len(argv) >= 2 and argv[1] == "--":
        return run(argv[0], argv[2:])
    print(
        f"stage_times: {' '.join(argv) or 'nothing'}: give NAME -- COMMAND ..., --summary or "
        "--reset",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
