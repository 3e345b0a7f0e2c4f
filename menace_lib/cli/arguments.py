"""Option types the commands share: counts, seeds, numbers, output files and ``--json``.

Each is an ``argparse`` ``type=`` callable, so a bad value is refused while the
command line is parsed -- before any training starts -- and argparse names the
option: ``error: argument --games: must be a whole number from 0 to 10,000,000,
got '99999999999999999999'``. The limits come from :mod:`menace_lib.base.limits`; the
output-path checks from :func:`menace_lib.base.files.check_output_path`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from ..base.files import STDOUT, OutputPathError, check_output_path
from ..base.limits import MAX_JOBS, MAX_SEED, check_number

__all__ = [
    "STDOUT",
    "InputFile",
    "add_json_option",
    "count",
    "input_file",
    "jobs",
    "number",
    "number_list",
    "output_file",
    "output_or_stdout",
    "scheduler",
    "seed",
    "add_engine_options",
    "add_huge_option",
]

_MAX_DIGITS = 30  # longer digit strings are refused before int() is tried


def count(maximum: int, minimum: int = 0) -> Callable[[str], int]:
    """An option type for a whole number in ``[minimum, maximum]``."""

    def parse(text: str) -> int:
        return _whole_number(text, minimum, maximum)

    parse.__name__ = "count"
    return parse


def _whole_number(text: str, minimum: int, maximum: int) -> int:
    allowed = f"must be a whole number from {minimum:,} to {maximum:,}"
    digits = text.strip().lstrip("+-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > _MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{allowed}, got {_show(text)}")
    value = int(text)
    if not minimum <= value <= maximum:
        raise argparse.ArgumentTypeError(f"{allowed}, got {_show(text)}")
    return value


def seed(text: str) -> int:
    """An option type for a random seed: a whole number from 0 to ``MAX_SEED``."""
    return _whole_number(text, 0, MAX_SEED)


def jobs(text: str) -> int:
    """An option type for joblib's ``n_jobs``: 1..MAX_JOBS, or -1..-MAX_JOBS (CPUs + 1 + n)."""
    value = _whole_number(text, -MAX_JOBS, MAX_JOBS)
    if value == 0:
        raise argparse.ArgumentTypeError(
            f"must be 1 to {MAX_JOBS} workers, or negative to count back from the CPUs; got 0"
        )
    return value


def number(minimum: float | None = None, maximum: float | None = None) -> Callable[[str], float]:
    """An option type for a finite real number in ``[minimum, maximum]``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {_show(text)}") from None
        try:
            return check_number("the value", value, minimum=minimum, maximum=maximum)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err).removeprefix("the value ")) from None

    parse.__name__ = "number"
    return parse


def number_list(
    lengths: tuple[int, int], minimum: float | None = None, maximum: float | None = None
) -> Callable[[str], tuple[float, ...]]:
    """An option type for comma-separated numbers (``4,3,2,1``), each in range.

    ``lengths`` is the (fewest, most) numbers allowed.
    """
    one = number(minimum, maximum)

    def parse(text: str) -> tuple[float, ...]:
        parts = text.split(",")
        if not lengths[0] <= len(parts) <= lengths[1]:
            want = lengths[0] if lengths[0] == lengths[1] else f"{lengths[0]} to {lengths[1]}"
            raise argparse.ArgumentTypeError(
                f"expected {want} comma-separated numbers, got {_show(text)}"
            )
        values = []
        for i, part in enumerate(parts):
            try:
                values.append(one(part))
            except argparse.ArgumentTypeError as err:
                raise argparse.ArgumentTypeError(
                    f"number {i + 1} of {_show(text)}: {err}"
                ) from None
        return tuple(values)

    parse.__name__ = "number list"
    return parse


def output_file(text: str) -> Path | str:
    """An option type for a file to write, checked at once (see ``check_output_path``).

    ``-`` means standard output and is returned as the text ``"-"`` (:data:`STDOUT`);
    ``./-`` names a file.
    """
    if text == STDOUT:
        return STDOUT
    try:
        return check_output_path(text)
    except OutputPathError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


class InputFile(str):
    """A file a command reads, as given (a ``str``), marked so that the command line
    compares it with every output before anything is written (:func:`check_targets`).

    ``option`` is the option (or argument) that named it, for the message.
    """

    option: str = "input"

    def __new__(cls, text: str, option: str = "input") -> InputFile:
        self = super().__new__(cls, text)
        self.option = option
        return self


def input_file(option: str) -> Callable[[str], InputFile]:
    """An option type for a file the command reads (named ``option`` in messages)."""

    def parse(text: str) -> InputFile:
        return InputFile(text, option)

    parse.__name__ = "input file"
    return parse


def check_targets(args: argparse.Namespace) -> None:
    """The one admission of a command's files, before it builds or writes anything.

    Every output (each option of type :func:`output_file`, a :class:`~pathlib.Path`)
    must differ from every input (:func:`input_file`) and from every other output,
    whatever path, symbolic link or hard link names it (``os.path.samefile``: the same
    device and inode; see :func:`menace_lib.base.files.check_distinct_files`).
    """
    from ..base.files import check_distinct_files

    items = vars(args).items()
    outputs = {f"--{k.replace('_', '-')}": v for k, v in items if isinstance(v, Path)}
    inputs = {v.option: v for k, v in items if isinstance(v, InputFile)}
    check_distinct_files(outputs, inputs)


def output_or_stdout(text: str) -> Path | str:
    """The same as :func:`output_file` (every output path takes ``-``); kept for callers."""
    return output_file(text)


def add_json_option(p: argparse.ArgumentParser, what: str) -> None:
    """``--json [PATH]``: the result as one JSON document, on stdout or in ``PATH``.

    ``--json`` alone (or ``--json -``) prints the document instead of the table;
    ``--json PATH`` writes it, all or nothing, and the table is still printed. The
    document's shape is ``menace_lib/schemas/cli/<command>.schema.json``.
    """
    p.add_argument(
        "--json",
        nargs="?",
        const=STDOUT,
        default=None,
        type=output_file,
        metavar="PATH",
        help=f"{what} as JSON: on stdout (no PATH, or '-') or written to PATH",
    )


def scheduler(text: str) -> str:
    """An option type for a Dask scheduler: ``local:N`` or a cluster address.

    Without the ``[dask]`` extra it is refused at once, naming the extra.
    """
    from ..base.extras import MissingExtraError, require
    from ..base.parallel import check_scheduler

    try:
        text = check_scheduler(text)
        require("dask", "--scheduler")
    except (ValueError, MissingExtraError) as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def add_engine_options(p: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--scheduler``: where a sweep's runs go.

    They choose an engine for :func:`menace_lib.base.parallel.run_tasks` and cannot
    change the numbers.
    """
    from ..base.parallel import BACKENDS

    p.add_argument(
        "--jobs", type=jobs, default=-1, help="worker processes on this machine (default: all CPUs)"
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="joblib backend on this machine: loky (processes, default) or sequential",
    )
    p.add_argument(
        "--scheduler",
        type=scheduler,
        default=None,
        metavar="ADDRESS|local:N",
        help="run on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
        "for a LocalCluster of N workers started for this run",
    )


def add_huge_option(p: argparse.ArgumentParser) -> None:
    """``--i-know-this-is-huge``: run past the work budget (``limits.check_work``)."""
    from ..base.limits import HUGE_OPTION, MAX_WORK

    p.add_argument(
        HUGE_OPTION,
        dest="huge",
        action="store_true",
        help=f"run even if the estimated work is over the budget of {MAX_WORK:,} games "
        "(see docs/FILES_AND_LIMITS.md)",
    )


def _show(text: str, limit: int = 40) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"
