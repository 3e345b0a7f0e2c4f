"""Figures in a live Jupyter kernel: every way of showing one reads in both JupyterLab themes.

The light drawing has dark ink on a transparent background. JupyterLab's dark theme puts a
light panel behind an image whose output carries ``needs_background: light``, so each of
the usual ways to show a figure must carry it, and the PNG must carry the dark drawing the
built book switches to.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import nbformat

from menace_lib.book.plotting import FIGURE_METADATA
from menace_lib.book.themed_png import dark_variant

SETUP = (
    "import matplotlib.pyplot as plt\nfrom menace_lib import plotting\nplotting.use_book_style()"
)
DRAW = "fig, ax = plt.subplots(figsize=(2, 1.5))\nax.plot([0, 1]); ax.set_title('t')\n"
WAYS = {
    "plt.show()": DRAW + "plt.show()",
    "the figure as the cell's value": DRAW + "plt.close(fig)\nfig",
    "display(fig)": DRAW + "plt.close(fig)\nfrom IPython.display import display\ndisplay(fig)",
}


@pytest.fixture(scope="module")
def executed() -> nbformat.NotebookNode:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (SETUP, *WAYS.values())]
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    except Exception as err:  # pragma: no cover - no kernel on this machine
        if "No such kernel" in str(err):
            pytest.skip(f"no python3 Jupyter kernel: {err}")
        raise
    return nb


@pytest.mark.parametrize("index, way", list(enumerate(WAYS, start=1)))
def test_every_way_of_showing_a_figure_asks_for_a_light_panel(executed, index, way):
    images = [o for o in executed.cells[index].outputs if "image/png" in o.get("data", {})]
    assert len(images) == 1, f"{way}: {len(images)} images"
    (image,) = images
    assert image["metadata"].get("needs_background") == FIGURE_METADATA["needs_background"]
    assert image["data"]["text/plain"].startswith("<Figure size")
    assert dark_variant(base64.b64decode(image["data"]["image/png"])) is not None, way
