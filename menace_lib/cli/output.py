"""What the commands share: the ``--json`` document, CSV, comparing output paths."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def emit_json(target: str | Path | None, obj: Any, *, option: str = "--json") -> bool:
    """Write ``obj`` for ``--json``: nothing (``None``), stdout (``-``) or a file.

    Returns whether it went to standard output (the command then prints no table).
    """
    from ..base.files import STDOUT, write_text

    if target is None:
        return False
    text = json.dumps(obj, indent=2, default=json_default, allow_nan=False) + "\n"
    write_text(target, text, option=option)
    return isinstance(target, str) and target == STDOUT


def output_schema(command: str) -> dict[str, Any]:
    """The JSON Schema of ``command``'s ``--json`` document (``menace_lib/schemas/cli/``)."""
    from importlib import resources

    from .. import schemas

    entry = resources.files(schemas) / "cli" / f"{command}.schema.json"
    return json.loads(entry.read_text(encoding="utf-8"))


def print_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON (numpy scalars and arrays allowed)."""
    print(json.dumps(obj, indent=2, default=json_default, allow_nan=False))


def json_default(obj: Any) -> Any:
    """``json.dumps`` fallback for numpy values."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def write_csv(path: Path, rows: Sequence[Mapping[str, Any]], *, option: str | None = None) -> Path:
    """Write ``rows`` (dicts with the same keys) as CSV with a header, all or nothing."""
    from ..base.files import write_text

    if not rows:
        raise ValueError("no rows to write as CSV")
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return write_text(path, text.getvalue(), option=option)


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two output paths end at the same file (links followed)."""
    return os.path.realpath(a) == os.path.realpath(b)
