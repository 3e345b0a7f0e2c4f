"""Sphinx extension: show each notebook figure in the ink of the page's theme, and
stacked on a phone.

The book's figures are PNGs drawn with dark ink, carrying a second drawing in light ink
(:mod:`menace_lib.book.themed_png`, written by :func:`menace_lib.book.plotting.themed_png`),
and, when they are wider than a phone's column, a drawing for a narrow screen (panels
stacked) with its own dark twin. When a page is read, every image whose file carries such
drawings gets a twin image node for each, right after it (same alt text, so the figure's
caption and number are unchanged); each file is written without the drawings it carries,
so a page loads only pictures. The classes ``theme-light`` / ``theme-dark`` and
``fig-wide`` / ``fig-narrow`` let ``book/_static/book.css`` show exactly one of them: the
light drawing unless the theme is dark, the narrow one on a narrow screen. ``dark-light``
tells pydata-sphinx-theme not to dim the dark drawing or put it on a white card.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from menace_lib.book.themed_png import dark_variant, narrow_variant, plain

LIGHT_CLASS = "theme-light"
DARK_CLASS = "theme-dark"
WIDE_CLASS = "fig-wide"
NARROW_CLASS = "fig-narrow"


def _file_of(app: Sphinx, docname: str, uri: str) -> Path:
    """Where an image URI points: absolute URIs are relative to the source folder."""
    if uri.startswith("/"):
        return Path(app.srcdir) / uri.lstrip("/")
    return Path(app.env.doc2path(docname)).parent / uri


def _write(path: Path, data: bytes) -> None:
    if not path.is_file() or path.read_bytes() != data:
        path.write_bytes(data)


def _twin(image: nodes.image, uri: str, classes: list[str]) -> nodes.image:
    twin = image.deepcopy()
    twin["uri"] = uri
    twin["classes"] = [c for c in twin["classes"] if c not in _OURS] + classes
    if "candidates" in twin:
        del twin["candidates"]
    return twin


_OURS = {LIGHT_CLASS, DARK_CLASS, WIDE_CLASS, NARROW_CLASS, "dark-light"}


def add_dark_twins(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read`` handler (before Sphinx collects the images)."""
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if not uri.endswith(".png") or _OURS & set(image["classes"]):
            continue
        path = _file_of(app, app.env.docname, uri)
        if not path.is_file():
            continue
        png = path.read_bytes()
        dark = dark_variant(png)
        if dark is None:
            continue
        narrow = narrow_variant(png)
        folder = uri[: -len(path.name)]
        drawings = [(f"{path.stem}-light.png", plain(png), [LIGHT_CLASS])]
        drawings.append((f"{path.stem}-dark.png", plain(dark), [DARK_CLASS, "dark-light"]))
        if narrow is not None:
            drawings = [(name, data, [*cls, WIDE_CLASS]) for name, data, cls in drawings]
            narrow_dark = dark_variant(narrow)
            drawings.append((f"{path.stem}-narrow.png", plain(narrow), [LIGHT_CLASS, NARROW_CLASS]))
            if narrow_dark is not None:
                drawings.append(
                    (
                        f"{path.stem}-narrow-dark.png",
                        plain(narrow_dark),
                        [DARK_CLASS, "dark-light", NARROW_CLASS],
                    )
                )
        twins = []
        for name, data, classes in drawings:
            _write(path.with_name(name), data)
            twins.append(_twin(image, folder + name, classes))
        parent, at = image.parent, image.parent.index(image)
        parent.replace(image, twins[0])
        for offset, twin in enumerate(twins[1:], start=1):
            parent.insert(at + offset, twin)


def drop_dark_twins(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` handler: a page that cannot switch themes nor screens (LaTeX,
    the PDF book) prints every figure once, in its light, wide drawing."""
    if app.builder.format == "html":
        return
    for image in list(doctree.findall(nodes.image)):
        if DARK_CLASS in image["classes"] or NARROW_CLASS in image["classes"]:
            image.parent.remove(image)


def setup(app: Sphinx) -> dict:
    # Priority below the image collector's 500: the twins are copied to _images too.
    app.connect("doctree-read", add_dark_twins, priority=400)
    app.connect("doctree-resolved", drop_dark_twins)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
