"""Display helpers for notebooks and the command line: tables of result rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["markdown_table"]


def markdown_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Rows of dicts as a Markdown pipe table.

    Columns default to the first row's keys; a row without a column shows an empty
    cell. Floats are shown to 3 decimals, integers with thousands separators, and a
    ``|`` inside a cell or a column name is escaped.

    Parameters
    ----------
    rows
        One mapping per row.
    columns
        Column names, in order (default: the first row's keys).

    Examples
    --------
    >>> import menace_lib as ml
    >>> print(ml.markdown_table([{"boxes": 19, "beads": 47}]))
    | boxes | beads |
    |---|---|
    | 19 | 47 |
    """
    if isinstance(rows, (str, bytes, Mapping)) or not all(isinstance(r, Mapping) for r in rows):
        raise TypeError("rows must be a sequence of mappings (one dict per row)")
    if not rows:
        raise ValueError("markdown_table needs at least one row")
    columns = list(columns) if columns is not None else list(rows[0])
    lines = ["| " + " | ".join(_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value).replace("|", "\\|")
