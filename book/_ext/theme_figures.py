"""Sphinx extension: show each notebook figure in the ink of the page's theme.

The book's figures are PNGs drawn with dark ink, carrying a second drawing in light ink
(:mod:`menace_lib.book.themed_png`, written by :func:`menace_lib.book.plotting.themed_png`). When a
page is read, every image whose file carries such a drawing gets a twin image node for it,
right after it (same alt text, so the figure's caption and number are unchanged). The
classes ``theme-light`` / ``theme-dark`` let ``book/_static/book.css`` show exactly one of
the two: the light drawing unless the theme is dark. ``dark-light`` tells
pydata-sphinx-theme not to dim the dark drawing or put it on a white card.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from menace_lib.book.themed_png import dark_variant

LIGHT_CLASS = "theme-light"
DARK_CLASS = "theme-dark"


def _file_of(app: Sphinx, docname: str, uri: str) -> Path:
    """Where an image URI points: absolute URIs are relative to the source folder."""
    if uri.startswith("/"):
        return Path(app.srcdir) / uri.lstrip("/")
    return Path(app.env.doc2path(docname)).parent / uri


def add_dark_twins(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read`` handler (before Sphinx collects the images)."""
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if not uri.endswith(".png") or {LIGHT_CLASS, DARK_CLASS} & set(image["classes"]):
            continue
        path = _file_of(app, app.env.docname, uri)
        if not path.is_file():
            continue
        dark = dark_variant(path.read_bytes())
        if dark is None:
            continue
        dark_path = path.with_name(f"{path.stem}-dark.png")
        if not dark_path.is_file() or dark_path.read_bytes() != dark:
            dark_path.write_bytes(dark)
        twin = image.deepcopy()
        twin["uri"] = uri[: -len(path.name)] + dark_path.name
        twin["classes"] = [c for c in twin["classes"] if c != LIGHT_CLASS] + [
            DARK_CLASS,
            "dark-light",
        ]
        if "candidates" in twin:
            del twin["candidates"]
        image["classes"].append(LIGHT_CLASS)
        image.parent.insert(image.parent.index(image) + 1, twin)


def drop_dark_twins(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` handler: a page that cannot switch themes (LaTeX, the PDF
    book) prints every figure once, in its light drawing."""
    if app.builder.format == "html":
        return
    for image in list(doctree.findall(nodes.image)):
        if DARK_CLASS in image["classes"]:
            image.parent.remove(image)


def setup(app: Sphinx) -> dict:
    # Priority below the image collector's 500: the twins are copied to _images too.
    app.connect("doctree-read", add_dark_twins, priority=400)
    app.connect("doctree-resolved", drop_dark_twins)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
