"""The texts of a book page, for the tests that read pages (one reader, many checks).

A page is a Markdown file or a notebook. :func:`page_texts` returns its pieces in order:
the whole file of a Markdown page; of a notebook, the sources of its cells (Markdown cells
only, or every cell) and the outputs its cells stored, of the kinds asked for.
"""

from __future__ import annotations

import json
from pathlib import Path


def page_texts(
    path: Path,
    *,
    code: bool = False,
    kinds: tuple[str, ...] = ("text/markdown",),
    streams: bool = False,
) -> list[str]:
    """The texts of the page at ``path``.

    Parameters
    ----------
    path
        A ``.md`` page or an ``.ipynb`` notebook.
    code
        Whether the sources of code cells are read too (not only Markdown cells).
    kinds
        The output kinds (MIME types) read from every cell's stored outputs, in this order.
    streams
        Whether printed text (stream outputs) is read too.
    """
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        if code or cell["cell_type"] == "markdown":
            out.append("".join(cell["source"]))
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            out += ["".join(data[kind]) for kind in kinds if kind in data]
            if streams and "text" in o:
                out.append("".join(o["text"]))
    return out
