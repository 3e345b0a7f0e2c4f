"""The book's plot style and its pictures of boards, matchboxes and simplices.

Everything here only *draws*: the numbers come from the other modules.

Style
-----
:func:`use_book_style` sets matplotlib's rcParams once per notebook: the colour-blind-safe
Okabe--Ito palette, a transparent figure and axes background, mid-grey spines and ticks
(they read on white and on near-black alike) and text in :data:`INK`. No single grey
gives text enough contrast on both of the book's themes, so in a notebook every figure
is drawn twice: with dark ink for the light theme and light ink for the dark theme
(:func:`themed_png`; the dark drawing travels inside the PNG, see
:mod:`menace_lib.book.themed_png`). The colour constants below name the palette's roles
(results, players, highlights) so every chapter uses the same colour for the same thing.

Boards
------
:func:`draw_board` draws a position on an axes: square ``i`` sits in column ``i % 3`` of
row ``i // 3`` (square 0 top left, as in :mod:`menace_lib.games.board`), with optional square
numbers, shaded squares, marked squares (e.g. the squares where O would win), per-square
text and probability bars. :func:`draw_boards` lays out a row (or grid) of boards.

Matchboxes
----------
:func:`draw_matchbox` draws a box's bead counts as bars, one per bead colour, optionally
marking the drawn colour and the change from a reinforcement. :func:`draw_episode` draws a
whole recorded episode (:mod:`menace_lib.play.episodes`): the boards MENACE moved from, its
boxes before the game, the drawn beads and the boxes after the delayed update.

Simplices
---------
:func:`draw_simplex_density` draws a Dirichlet density over the 2-simplex (three
outcomes) as a filled ternary contour plot.
"""

from __future__ import annotations

import importlib
import io
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_hex, to_rgba
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Bbox
from matplotlib.tri import Triangulation

from ..base.palette import (
    ACCENT,
    BEAD_COLOUR_NAMES,
    BEAD_COLOURS,
    BLACK,
    BLUE,
    DRAW,
    GREEN,
    GREY,
    HIGHLIGHT,
    INK,
    LOSS,
    MARK,
    MOVE_CLASS_COLOURS,
    O_COLOUR,
    OKABE_ITO,
    ORANGE,
    PURPLE,
    RESULT_COLOURS,
    SKY,
    VERMILLION,
    WIN,
    X_COLOUR,
    YELLOW,
    agent_colour,
    agent_name,
    bead_colour,
    linestyle,
)
from ..games.board import EMPTY, LINES, O, X, parse_board, play, square_number, square_numbers
from ..maths.dirichlet import dirichlet_logpdf
from .themed_png import with_dark_variant, with_metrics, with_narrow_variant

if TYPE_CHECKING:  # pragma: no cover - imported for annotations only
    from ..play.episodes import Episode

__all__ = [
    "ACCENT",
    "BEAD_COLOURS",
    "BEAD_COLOUR_NAMES",
    "BLACK",
    "BLUE",
    "DRAW",
    "FIGURE_METADATA",
    "NARROW_WIDTH_IN",
    "GREEN",
    "GREY",
    "HIGHLIGHT",
    "INK",
    "LOSS",
    "MARK",
    "MOVE_CLASS_COLOURS",
    "OKABE_ITO",
    "ORANGE",
    "O_COLOUR",
    "PURPLE",
    "RESULT_COLOURS",
    "SKY",
    "VERMILLION",
    "WIN",
    "X_COLOUR",
    "YELLOW",
    "agent_colour",
    "agent_name",
    "bead_colour",
    "draw_bead_history",
    "draw_board",
    "draw_boards",
    "draw_episode",
    "draw_matchbox",
    "draw_simplex_density",
    "figure_metrics",
    "linestyle",
    "narrow_drawing",
    "narrow_layout",
    "panel_letters",
    "small_multiples",
    "simplex_to_xy",
    "themed_png",
    "use_book_style",
]

# The palette (colours and names of agents, beads, results, players) is owned by
# menace_lib.base.palette and re-exported here for the figure code.
_CYCLE = (BLUE, ORANGE, GREEN, VERMILLION, SKY, PURPLE, YELLOW)


def use_book_style() -> None:
    """Apply the book's matplotlib style (palette, transparent background, themed ink).

    Call once at the top of a notebook, after importing matplotlib. Idempotent. Inside
    IPython it also makes every displayed figure a :func:`themed_png`.
    """
    ink = INK["light"]
    mpl.rcParams.update(
        {
            "axes.prop_cycle": mpl.cycler(color=list(_CYCLE)),
            # Transparent backgrounds: the page's own colour shows through on both themes.
            "figure.facecolor": "none",
            "axes.facecolor": "none",
            "savefig.facecolor": "none",
            "savefig.transparent": True,
            "legend.facecolor": "none",
            "legend.framealpha": 0.0,
            "legend.edgecolor": GREY,
            # Text in the ink of the theme (redrawn for the dark one); lines mid-grey.
            "text.color": ink,
            "axes.labelcolor": ink,
            "axes.titlecolor": ink,
            "xtick.labelcolor": ink,
            "ytick.labelcolor": ink,
            "axes.edgecolor": GREY,
            "xtick.color": GREY,
            "ytick.color": GREY,
            "grid.color": GREY,
            "grid.alpha": 0.3,
            "patch.edgecolor": GREY,
            # Consistent sizes; legends as large as the rest of the text.
            "font.size": 10,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "legend.fontsize": 10,
            "legend.title_fontsize": 10,
            "xtick.labelsize": 9,
            "ytick.labelsize": 9,
            "figure.titlesize": 12,
            "figure.dpi": 110,
            "savefig.dpi": 150,
            "savefig.bbox": "tight",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": False,
            "lines.linewidth": 1.8,
            "image.cmap": "viridis",
            "figure.constrained_layout.use": False,
        }
    )
    _display_figures_themed()


# The light drawing has dark ink on a transparent background. JupyterLab's dark theme puts
# a light panel behind an image whose output says it needs one, so the figure reads there.
FIGURE_METADATA = {"needs_background": "light"}


def _display_figures_themed() -> None:
    """In IPython, show figures as :func:`themed_png` (``plt.show()`` included).

    However a figure is shown -- ``plt.show()``, ``display(fig)``, or ``fig`` as a cell's
    last line -- it goes out as one display with :data:`FIGURE_METADATA`, so a live
    JupyterLab in its dark theme shows the dark-ink drawing on a light panel.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is installed with the book
        return
    shell = get_ipython()
    if shell is None:
        return
    # The inline backend installs its own PNG formatter when its module is first imported
    # (lazily, at the first figure): import it now so that ours comes last and stays.
    if "inline" in mpl.get_backend(auto_select=False):
        importlib.import_module("matplotlib_inline.backend_inline")
    formatters = shell.display_formatter
    formatters.formatters["image/png"].for_type(Figure, themed_png)
    formatters.ipython_display_formatter.for_type(Figure, _publish_figure)


def _publish_figure(fig: Figure) -> bool:
    """Publish ``fig`` as text and a :func:`themed_png`, with :data:`FIGURE_METADATA`."""
    from IPython.display import publish_display_data

    data = {"text/plain": repr(fig), "image/png": themed_png(fig)}
    publish_display_data(data, metadata=dict(FIGURE_METADATA))
    return True


@contextmanager
def _inked(fig: Figure, ink: str) -> Iterator[None]:
    """Temporarily draw the figure's ink-coloured and grey text in ``ink``."""
    themed = {to_hex(INK["light"]), to_hex(INK["dark"]), to_hex(GREY)}
    changed = []
    for text in fig.findobj(Text):
        colour = text.get_color()
        if to_hex(colour) in themed:
            changed.append((text, colour))
            text.set_color(to_rgba(ink, to_rgba(colour)[3]))
    try:
        yield
    finally:
        for text, colour in changed:
            text.set_color(colour)


def _savefig_dpi(fig: Figure) -> float:
    dpi = mpl.rcParams["savefig.dpi"]
    return float(fig.dpi if dpi == "figure" else dpi)


def _png(fig: Figure, bbox: Bbox | None = None) -> tuple[bytes, Bbox | None]:
    """The figure as a PNG cut to its tight box, and that box (inches, padded).

    Given the ``bbox`` an earlier call returned for the same layout, the figure is not
    laid out a second time: the ink's colour moves no text, so the dark drawing reuses
    the light one's box and its layout as it stands. Its layout engine is off for that
    drawing: savefig would first run it again (a whole layout-only draw), and a
    constrained layout moves the panels on every run (by a pixel, now and then): run
    again, it would set the dark drawing elsewhere than the light one.
    """
    buffer = io.BytesIO()
    if bbox is not None:
        # savefig lays out again only under an engine. "none" keeps a placeholder with the
        # engine's colorbar rules, so the engine itself (the same object, its settings
        # untouched) can be set back. No engine: nothing to switch off (setting None back
        # would read the rcParams and could make a new one).
        engine = fig.get_layout_engine()
        if engine is not None:
            fig.set_layout_engine("none")
        try:
            fig.savefig(buffer, format="png", bbox_inches=bbox, transparent=True)
        finally:
            if engine is not None:
                fig.set_layout_engine(engine)
        return buffer.getvalue(), bbox
    found: list[Bbox] = []
    tight = fig.get_tightbbox

    def record(*args: Any, **kwargs: Any) -> Bbox:
        box = tight(*args, **kwargs)
        found.append(box)
        return box

    fig.get_tightbbox = record  # type: ignore[method-assign]
    try:
        fig.savefig(buffer, format="png", bbox_inches="tight", transparent=True)
    finally:
        del fig.get_tightbbox
    # savefig pads its tight box by savefig.pad_inches; anything else: no box to reuse.
    pad = mpl.rcParams["savefig.pad_inches"]
    if len(found) != 1 or not isinstance(pad, (int, float)):
        return buffer.getvalue(), None
    return buffer.getvalue(), found[0].padded(pad, pad)


def _themed(fig: Figure) -> bytes:
    """Light drawing carrying its dark drawing and the figure's :func:`figure_metrics`."""
    with _inked(fig, INK["light"]):
        light, box = _png(fig)
    with _inked(fig, INK["dark"]):
        dark, _ = _png(fig, box)
    values = figure_metrics(fig)
    return with_metrics(with_dark_variant(light, with_metrics(dark, values)), values)


def themed_png(fig: Figure) -> bytes:
    """The figure as a PNG in light-theme ink, carrying its dark and narrow drawings.

    Text coloured :data:`INK` or :data:`GREY` is drawn in ``INK["light"]`` for the PNG
    itself and in ``INK["dark"]`` for the variant stored inside it
    (:func:`menace_lib.book.themed_png.dark_variant` reads it back). A figure wider than a
    phone's column also carries its drawing for a narrow screen, panels stacked
    (:func:`narrow_layout`; :func:`menace_lib.book.themed_png.narrow_variant`), itself
    with its dark variant. Every drawing carries its :func:`figure_metrics`. The figure is
    left as it was.
    """
    with _text_metrics_shared():
        return _themed_drawings(fig)


def _themed_drawings(fig: Figure) -> bytes:
    wide = _themed(fig)
    redraw = getattr(fig, _NARROW_DRAWING, None)
    if redraw is not None:
        small = redraw()
        try:
            narrow = _themed(small)
        finally:
            plt.close(small)
    else:
        # The phone's drawing is a second layout of a figure made for the page: a layout
        # engine that gives up on a step of it says so on stderr, where a reader would see
        # it under the figure. What the phone drawing shows is measured (its tick sizes are
        # stored and browser-tested), so the engine's complaint is not passed on.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
            with narrow_layout(fig) as narrowed:
                narrow = _themed(fig) if narrowed else None
    return wide if narrow is None else with_narrow_variant(wide, narrow)


_NARROW_DRAWING = "_menace_narrow_drawing"


@contextmanager
def _text_metrics_shared() -> Iterator[None]:
    """Measure each text once for all the drawings of one figure.

    matplotlib caches a text's size per renderer, and every drawing (light, dark, each step
    of the phone layout, at each size of the figure) gets a new Agg renderer: the same
    labels were measured again and again (662 measurements of 180 texts for the suite's
    Figure 9.1, a fifth of its drawing time). An Agg renderer's measurement depends only on
    the text, its font properties, whether it is maths, and the resolution (its size only
    sets the canvas), so for the duration of the ``with`` block the measurements are shared
    by that key: the same numbers, the same PNG bytes.
    """
    from matplotlib.backends.backend_agg import RendererAgg

    measure = RendererAgg.get_text_width_height_descent
    known: dict[tuple[Any, ...], tuple[float, float, float]] = {}

    def shared(self: RendererAgg, s: str, prop: Any, ismath: Any) -> tuple[float, float, float]:
        key = (s, prop.copy(), ismath, self.dpi)
        found = known.get(key)
        if found is None:
            found = known[key] = measure(self, s, prop, ismath)
        return found

    RendererAgg.get_text_width_height_descent = shared  # type: ignore[method-assign]
    try:
        yield
    finally:
        RendererAgg.get_text_width_height_descent = measure  # type: ignore[method-assign]


def panel_letters(fig: Figure, axes: Sequence[Axes] | None = None) -> list[str]:
    """Name the figure's panels (a), (b), ... in their titles, so that a caption can say
    which panel it means on a desktop and on a phone alike: the phone's drawing stacks or
    rearranges panels (:func:`narrow_layout`), so "left" or "top" would not hold there.

    ``axes`` are the panels in the order to letter; by default every grid cell's first
    visible axes in reading order (row by row; a twin or a colour bar gets no letter). A
    panel's title becomes "(a) title", a panel without one gets "(a)" at its top left.
    Returns the letters given, e.g. ``["(a)", "(b)"]``. Raises ``ValueError`` for more
    than 26 panels.
    """
    if axes is None:
        cells: dict[tuple[int, int], Axes] = {}
        for ax in fig.axes:
            spec = ax.get_subplotspec()
            if not ax.get_visible() or spec is None or spec is not spec.get_topmost_subplotspec():
                continue
            cells.setdefault((spec.rowspan.start, spec.colspan.start), ax)
        axes = [cells[key] for key in sorted(cells)]
    axes = list(axes)
    if len(axes) > 26:
        raise ValueError(f"panel_letters: {len(axes)} panels, at most 26 can be lettered")
    letters = []
    for i, ax in enumerate(axes):
        letter = f"({chr(ord('a') + i)})"
        title = ax.get_title()
        if title:
            ax.set_title(f"{letter} {title}")
        else:
            ax.set_title(letter, loc="left")
        letters.append(letter)
    return letters


def narrow_drawing(fig: Figure, draw: Callable[[], Figure]) -> Figure:
    """Let ``draw()`` make ``fig``'s drawing for a phone's column, in place of
    :func:`narrow_layout`: for a figure whose panels must keep an order that stacking
    its grid's columns would break. :func:`themed_png` calls ``draw`` once and closes
    the figure it returns. Returns ``fig``.
    """
    if not callable(draw):
        raise ValueError(f"draw must be a function returning a Figure, got {draw!r}")
    setattr(fig, _NARROW_DRAWING, draw)
    return fig


# --- figures on a phone ----------------------------------------------------------------

# A drawing for a narrow screen is at most this wide (inches, as saved: tight bounding box).
# On a phone of 390 CSS px the book's column is about 350 px; a drawing of 4.4 in (317 pt)
# shown across it draws text of s pt at s * 350 / 317 px, so 9-pt tick labels show at
# about 10 px (tests/browser/test_figure_legibility.py measures it).
NARROW_WIDTH_IN = 4.4
# The smallest text of a narrow drawing: tick labels and other text are raised to these.
NARROW_MIN_TICK_PT = 9.0
NARROW_MIN_TEXT_PT = 8.0


def _visible_texts(fig: Figure) -> Iterator[Text]:
    """Every text that is drawn: tick labels of shown axes, and all other visible text."""
    ticks = {
        id(label)
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for tick in axis.get_major_ticks() + axis.get_minor_ticks()
        for label in (tick.label1, tick.label2)
    }
    for text in fig.findobj(Text):
        shown = text.get_visible() and (text.axes is None or text.axes.get_visible())
        if shown and id(text) not in ticks and text.get_text().strip():
            yield text
    yield from _tick_labels(fig)


def _tick_labels(fig: Figure) -> list[Text]:
    labels = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            if not axis.get_visible():
                continue
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    if label.get_visible() and label.get_text().strip():
                        labels.append(label)
    return labels


def figure_metrics(fig: Figure) -> dict[str, float]:
    """What a page needs to know how large the figure's text shows on a screen.

    ``dpi`` (pixels per inch of the saved PNG), ``tick_pt`` (the smallest tick label, in
    points; 0 if no axis shows ticks), ``text_pt`` (the smallest text of any kind). A
    drawing ``w`` pixels wide shown ``d`` CSS px wide draws text of ``s`` pt at
    ``s * d / w * dpi / 72`` px. Call after the figure was drawn (saved).
    """
    ticks = [label.get_fontsize() for label in _tick_labels(fig)]
    texts = [text.get_fontsize() for text in _visible_texts(fig)]
    return {
        "dpi": _savefig_dpi(fig),
        "tick_pt": float(min(ticks, default=0.0)),
        "text_pt": float(min(texts, default=0.0)),
    }


def _topmost(ax: Axes) -> Any:
    spec = ax.get_subplotspec()
    return None if spec is None else spec.get_topmost_subplotspec()


def _narrow_plan(fig: Figure) -> tuple[Any, int, int, float, float] | None:
    """The figure's top-level grid and how it reflows: ``(grid, nrows, ncols, cell width,
    cell height)`` in inches, or ``None`` if its axes are not all in one grid."""
    grids = {id(top.get_gridspec()): top.get_gridspec() for ax in fig.axes if (top := _topmost(ax))}
    if len(grids) != 1 or any(_topmost(ax) is None for ax in fig.axes if ax.get_visible()):
        return None
    (grid,) = grids.values()
    nrows, ncols = grid.get_geometry()
    width, height = fig.get_size_inches()
    return grid, nrows, ncols, width / ncols, height / nrows


def _renderer(fig: Figure):
    """The figure's renderer. A figure closed with ``plt.close`` keeps a bare canvas with no
    renderer (and may still be shown as a cell's value), so it is given an Agg canvas."""
    if getattr(fig.canvas, "get_renderer", None) is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)  # attaches itself as fig.canvas
    return fig.canvas.get_renderer()


def _layout_draw(fig: Figure) -> None:
    """What ``fig.canvas.draw()`` computes (positions, ticks, text and legend layout),
    without painting a pixel: the phone layout only measures the figure between its
    steps, and the drawing that is kept comes from ``savefig``."""
    get_renderer = getattr(fig.canvas, "get_renderer", None)
    if get_renderer is None:  # a bare canvas (a closed figure) draws nothing
        fig.canvas.draw()
        return
    renderer = get_renderer()
    # Laid out by this function already, at this size and resolution, and nothing changed
    # since (every artist's change makes the figure stale; a draw leaves it fresh): a
    # second pass would compute the same. Not so under a layout engine, which moves the
    # panels again on every draw (the place holder that fig.tight_layout() leaves does not).
    key = (renderer.width, renderer.height, fig.dpi)
    engine = fig.get_layout_engine()
    still = engine is None or isinstance(engine, PlaceHolderLayoutEngine)
    if still and not fig.stale and _LAID_OUT.get(fig) == key:
        return
    with renderer._draw_disabled():
        fig.draw(renderer)
    _LAID_OUT[fig] = key


# The figures :func:`_layout_draw` laid out, with the renderer's size and resolution then.
_LAID_OUT: weakref.WeakKeyDictionary[Figure, tuple[float, float, float]] = (
    weakref.WeakKeyDictionary()
)


def _tight_width(fig: Figure) -> float:
    """Width in inches of the figure as saved with ``bbox_inches="tight"``."""
    renderer = _renderer(fig)
    return fig.get_tightbbox(renderer).width


@contextmanager
def narrow_layout(fig: Figure, width: float = NARROW_WIDTH_IN) -> Iterator[bool]:
    """Lay ``fig`` out for a phone's column for the duration of the ``with`` block.

    Yields ``False`` (the figure untouched) if it already fits ``width`` inches as saved.
    Otherwise its panels are stacked: the top-level grid's columns are cut into groups of
    as many columns as fit ``width`` at their present width (one column for a chart; two
    or three for small boards), and the groups are placed one below the other, each row
    of a group as high as before (less if the panel narrows). A legend beside its axes
    moves below them, a figure legend below the panels in as many columns as fit; tick
    labels are at least :data:`NARROW_MIN_TICK_PT` points and other text at least
    :data:`NARROW_MIN_TEXT_PT`. Yields ``True``; afterwards the figure is as it was.
    """
    _layout_draw(fig)
    if _tight_width(fig) <= width * 1.02:
        yield False
        return
    saved_size = fig.get_size_inches().copy()
    pars = ("left", "right", "bottom", "top", "wspace", "hspace")
    saved_pars = {k: getattr(fig.subplotpars, k) for k in pars}
    saved_axes = [(ax, ax.get_subplotspec(), ax.get_position(original=True)) for ax in fig.axes]
    saved_nested: list[tuple[Any, Any]] = []
    saved_engine = fig.get_layout_engine()
    undo: list[Callable[[], None]] = []
    saved_fonts = [(t, t.get_fontsize()) for t in fig.findobj(Text)]
    saved_legends = [
        (leg, leg._loc, leg._bbox_to_anchor, leg._ncols, leg.borderaxespad, leg.prop.get_size())
        for leg in _legends(fig)
    ]
    try:
        undo = _phone_text(fig)
        plan = _narrow_plan(fig)
        if plan is not None:
            saved_nested = _restack(fig, plan, width, undo)
        else:
            w, h = saved_size
            fig.set_size_inches(width, h * max(0.7, min(1.0, width / w)))
        _legends_below(fig, width, undo)
        _fit_width(fig, width, undo)
        undo += _unoverlap(fig)
        # Again: turned tick labels push the axes' decorations down, under which the
        # legends go.
        _legends_below(fig, width, undo)
        _fit_width(fig, width, undo)
        yield True
    finally:
        for text, size in saved_fonts:
            text.set_fontsize(size)
        for step in reversed(undo):
            step()
        for grid, spec in saved_nested:
            grid._subplot_spec = spec
        for ax, spec, pos in saved_axes:
            if spec is not None:
                ax.set_subplotspec(spec)
            ax.set_position(pos, which="both")
        for leg, loc, anchor, ncols, pad, size in saved_legends:
            leg._loc = loc
            leg._bbox_to_anchor = anchor
            leg.borderaxespad = pad
            if (ncols, size) != (leg._ncols, leg.prop.get_size()):
                _set_legend_columns(leg, ncols, size)
        fig.set_size_inches(saved_size)
        fig._layout_engine = saved_engine
        engine = fig.get_layout_engine()
        if engine is None or engine.adjust_compatible:  # a layout engine keeps its own spacing
            fig.subplots_adjust(**saved_pars)


def _legends(fig: Figure) -> list[Any]:
    legends = list(fig.legends)
    legends += [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return legends


# A tick label longer than this many characters is broken into lines on a phone.
_WRAP_TICK_CHARS = 18


def _phone_text(fig: Figure) -> list[Callable[[], None]]:
    """Make the figure's text fit a phone: raise small text to the floors, break long
    category labels into lines, show the tick labels that a shared axis hid (the panels
    beside each other now stand one below the other), let figure titles wrap. Returns
    the steps that undo what the floors alone do not."""
    import textwrap

    from matplotlib.ticker import FuncFormatter

    undo: list[Callable[[], None]] = []
    ticks = set(map(id, _tick_labels(fig)))
    for text in fig.findobj(Text):
        floor = NARROW_MIN_TICK_PT if id(text) in ticks else NARROW_MIN_TEXT_PT
        if text.get_fontsize() < floor:
            text.set_fontsize(floor)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            params = axis.get_tick_params()
            size = params.get("labelsize")
            if isinstance(size, (int, float)) and size < NARROW_MIN_TICK_PT:
                axis.set_tick_params(labelsize=NARROW_MIN_TICK_PT)
                undo.append(lambda axis=axis, size=size: axis.set_tick_params(labelsize=size))
            # Words only: a mathtext label ("$2^{-4}$") must stay whole.
            labels = [t.get_text() for t in axis.get_ticklabels() if "$" not in t.get_text()]
            if max(map(len, labels), default=0) > _WRAP_TICK_CHARS:
                old = axis.get_major_formatter()
                wrapped = FuncFormatter(
                    lambda x, pos, old=old: textwrap.fill(old(x, pos), _WRAP_TICK_CHARS)
                )
                axis.set_major_formatter(wrapped)
                undo.append(lambda axis=axis, old=old: axis.set_major_formatter(old))
        params = ax.yaxis.get_tick_params()
        hidden = not params.get("labelleft", True) and not params.get("labelright", False)
        if ax.axison and ax.yaxis.get_visible() and hidden and len(ax.get_yticks()):
            ax.yaxis.set_tick_params(labelleft=True)
            undo.append(lambda ax=ax: ax.yaxis.set_tick_params(labelleft=False))
    labels = [
        text
        for ax in fig.axes
        for text in (ax.xaxis.label, ax.yaxis.label, ax.title, ax._left_title, ax._right_title)
    ]
    for text in [fig._suptitle, *fig.texts, *labels]:
        if text is not None and not text.get_wrap():
            text.set_wrap(True)
            undo.append(lambda text=text: text.set_wrap(False))
    return undo


def _restack(
    fig: Figure,
    plan: tuple[Any, int, int, float, float],
    width: float,
    undo: list[Callable[[], None]],
) -> list:
    """Move every panel of the top-level grid into the stacked grid (see
    :func:`narrow_layout`); returns the nested grids whose parent cell changed, with the
    cell they had."""
    from matplotlib.gridspec import GridSpec

    grid, nrows, ncols, cell_w, cell_h = plan
    cells = _small_multiples(fig, grid)
    if cells is not None:
        _two_columns(fig, cells, width, cell_w, cell_h, undo)
        return []
    # Charts keep their width or narrow (their tick labels need it); panels without axes
    # (boards, simplices) may shrink a little to sit two or three to a row.
    decorated = any(ax.axison for ax in fig.axes if ax.get_visible())
    fits = width / cell_w if decorated else round(width / cell_w + 0.2)
    per_group = max(1, min(ncols, int(fits)))
    groups = -(-ncols // per_group)
    new_w = min(width, cell_w * per_group) if per_group > 1 else width
    shrink = max(0.7, min(1.0, new_w / per_group / cell_w))
    heights = list(grid.get_height_ratios() or [1] * nrows) * groups
    stacked = GridSpec(nrows * groups, per_group, figure=fig, height_ratios=heights)
    nested: dict[int, tuple[Any, Any]] = {}

    def new_cell(top: Any) -> Any:
        rows, cols = top.rowspan, top.colspan
        group = cols.start // per_group
        c0 = cols.start % per_group
        c1 = min(per_group, c0 + len(cols)) if len(cols) < per_group else per_group
        if len(cols) >= per_group:
            c0 = 0
        r0 = group * nrows + rows.start
        return stacked[r0 : r0 + len(rows), c0:c1]

    for ax in fig.axes:
        spec = ax.get_subplotspec()
        if spec is None:
            continue
        top = spec.get_topmost_subplotspec()
        if spec is top:
            ax.set_subplotspec(new_cell(top))
            continue
        # A nested grid (a colour bar, a subgridspec): re-parent its outermost grid.
        inner = spec.get_gridspec()
        while inner._subplot_spec is not top:
            inner = inner._subplot_spec.get_gridspec()
        if id(inner) not in nested:
            nested[id(inner)] = (inner, inner._subplot_spec)
            inner._subplot_spec = new_cell(top)
    fig.set_size_inches(new_w, cell_h * shrink * nrows * groups)
    _relayout(fig)
    return list(nested.values())


# A grid of at least this many charts, one a cell, is small multiples: on a phone it keeps
# two charts to a row (one a row would make it screens long), in its reading order.
SMALL_MULTIPLES_MIN_PANELS = 4
SMALL_MULTIPLES_COLUMNS = 2
# A small multiple on a phone is at least this high (inches): its title, 9-pt tick labels
# and axis label take about half of it.
_SMALL_MULTIPLE_MIN_H = 2.3


_SMALL_MULTIPLES = "_menace_small_multiples"


def small_multiples(fig: Figure) -> Figure:
    """Mark ``fig``'s charts as small multiples: on a phone they sit two to a row in
    reading order (:func:`narrow_layout`) even when there are fewer than
    :data:`SMALL_MULTIPLES_MIN_PANELS` of them, e.g. three charts that read side by side.
    Returns ``fig``."""
    setattr(fig, _SMALL_MULTIPLES, True)
    return fig


def _small_multiples(fig: Figure, grid: Any) -> list[list[Axes]] | None:
    """The figure's charts cell by cell in reading order (a cell's twin axes together), if
    they are small multiples: at least :data:`SMALL_MULTIPLES_MIN_PANELS` cells of the
    top-level grid, each holding charts in exactly one cell and nothing nested; else
    ``None``."""
    by_cell: dict[tuple[int, int], list[Axes]] = {}
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        spec = ax.get_subplotspec()
        if spec is None or spec.get_gridspec() is not grid or not ax.axison:
            return None
        if len(spec.rowspan) != 1 or len(spec.colspan) != 1:
            return None
        by_cell.setdefault((spec.rowspan.start, spec.colspan.start), []).append(ax)
    least = 2 if getattr(fig, _SMALL_MULTIPLES, False) else SMALL_MULTIPLES_MIN_PANELS
    if len(by_cell) < least:
        return None
    return [by_cell[key] for key in sorted(by_cell)]


def _two_columns(
    fig: Figure,
    cells: list[list[Axes]],
    width: float,
    cell_w: float,
    cell_h: float,
    undo: list[Callable[[], None]],
) -> None:
    """Lay small multiples out :data:`SMALL_MULTIPLES_COLUMNS` to a row, in reading order
    (the first row's panels, then the next row's), across ``width`` inches; their titles
    and x-axis labels are set at about :data:`NARROW_MIN_TICK_PT` and broken into lines
    that fit a panel."""
    import textwrap

    from matplotlib.gridspec import GridSpec

    ncols = SMALL_MULTIPLES_COLUMNS
    rows = -(-len(cells) // ncols)
    stacked = GridSpec(rows, ncols, figure=fig)
    panel_pt = width / ncols * 72
    for i, axes in enumerate(cells):
        for ax in axes:
            ax.set_subplotspec(stacked[i // ncols, i % ncols])
            for title in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label):
                text = title.get_text()
                if not text or "$" in text:
                    continue
                size = min(title.get_fontsize(), NARROW_MIN_TICK_PT + 0.5)
                title.set_fontsize(size)
                # About 0.55 em a character in the book's sans-serif face.
                chars = max(12, int(panel_pt * 0.9 / (0.55 * size)))
                lines = [textwrap.fill(line, chars) for line in text.split("\n")]
                title.set_text("\n".join(lines))
                undo.append(lambda title=title, text=text: title.set_text(text))
    new_w = width / ncols
    height = max(_SMALL_MULTIPLE_MIN_H, min(cell_h, cell_h * new_w / cell_w * 1.2))
    fig.set_size_inches(width, height * rows)
    # A constrained layout gives each row the room its own decorations need (a legend
    # under one panel does not space every row apart); narrow_layout puts the figure's
    # own engine back.
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    fig._layout_engine = ConstrainedLayoutEngine(h_pad=0.04, w_pad=0.04)
    _relayout(fig)


def _relayout(fig: Figure) -> None:
    import warnings

    engine = fig.get_layout_engine()
    if engine is not None and engine.__class__.__name__ == "ConstrainedLayoutEngine":
        _layout_draw(fig)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig.tight_layout()
    _layout_draw(fig)


def _legends_below(fig: Figure, width: float, undo: list[Callable[[], None]]) -> None:
    """Legends beside their axes or the figure go below, in as many columns as fit
    ``width`` inches; ``undo`` gets the steps that bring the axes' own legends back."""
    renderer = _renderer(fig)
    room = 0.96 * width * fig.dpi
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None or not leg.get_visible():
            continue
        box = leg.get_window_extent(renderer)
        beside, under = box.x0 >= ax.bbox.x1 - 2, box.y1 <= ax.bbox.y0 + 2
        # A legend inside the axes that covers more than a fifth of a narrowed panel hides
        # its data: it goes below the axes too.
        inside_area = box.width * box.height / max(ax.bbox.width * ax.bbox.height, 1.0)
        crowded = not (beside or under) and inside_area > _CROWDED_LEGEND
        beside = beside or crowded
        if not (beside or under):
            # Inside the axes or above/below them: only too many columns to fit.
            if box.width > room:
                _fitting_columns(leg, renderer, room)
            continue
        leg.set_visible(False)  # the decorations under the axes, without the legend
        below = ax.get_tightbbox(renderer)
        leg.set_visible(True)
        size = max(leg._fontsize, NARROW_MIN_TEXT_PT)
        pad = (ax.bbox.y0 - below.y0) / (size * fig.dpi / 72) + 0.6
        title = leg.get_title().get_text()
        # A new legend under the axes (the figure's own one comes back afterwards).
        moved = ax.legend(
            _original_handles(leg),
            [t.get_text() for t in leg.texts],
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            bbox_transform=ax.transAxes,
            borderaxespad=pad,
            fontsize=size,
            frameon=leg.get_frame_on(),
            title=title or None,
            ncols=leg._ncols,
        )
        undo.append(lambda ax=ax, leg=leg: setattr(ax, "legend_", leg))
        _fitting_columns(moved, renderer, room)
        if beside:
            # The legend took room beside the axes; below them it needs height instead.
            w, h = fig.get_size_inches()
            fig.set_size_inches(w, h + moved.get_window_extent(renderer).height / fig.dpi)
            _relayout(fig)
    _layout_draw(fig)
    for leg in fig.legends:
        _fitting_columns(leg, renderer, room)
    if fig.legends:
        _relayout(fig)
        # The panels' lowest decoration, in figure fraction: the legend goes under it.
        bottom = min(ax.get_tightbbox(renderer).y0 for ax in fig.axes if ax.get_visible())
        for leg in fig.legends:
            leg._loc = 9
            leg.set_bbox_to_anchor((0.5, bottom / fig.bbox.height), transform=fig.transFigure)
            leg.borderaxespad = 0.3
    _layout_draw(fig)


# The share of its axes a legend inside them may cover on a phone before it moves below.
_CROWDED_LEGEND = 0.2


def _original_handles(leg: Any) -> list[Any]:
    """The artists a legend was made from (its own entries are copies of them): looked up
    by label among the figure's axes, else the legend's copies."""
    labels = [t.get_text() for t in leg.texts]
    known: dict[str, Any] = {}
    # The legend's own axes (and twins sharing its place) first: another panel may draw
    # a line of the same label in another colour.
    own = getattr(leg, "axes", None)
    place = None if own is None else own.get_position().bounds
    first = [ax for ax in leg.figure.axes if own is not None and ax.get_position().bounds == place]
    for ax in first + [ax for ax in leg.figure.axes if ax not in first]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            known.setdefault(label, handle)
    if all(label in known for label in labels):
        return [known[label] for label in labels]
    return list(leg.legend_handles)


def _set_legend_columns(leg: Any, ncols: int, size: float | None = None) -> None:
    """Lay a legend out again in ``ncols`` columns (and text of ``size`` points):
    matplotlib builds a legend's box once, so a new number of columns needs a new box."""
    handles, labels = _original_handles(leg), [t.get_text() for t in leg.texts]
    if size is not None:
        leg.prop.set_size(size)
        leg._fontsize = leg.prop.get_size_in_points()
    leg._ncols = ncols
    leg._init_legend_box(handles, labels)
    leg._loc = leg._loc  # the new box needs the legend's placement again


def _fitting_columns(leg: Any, renderer: Any, room: float) -> int:
    """The most legend columns (at most its present number) that fit ``room`` pixels;
    the legend is left laid out in them."""
    ncols = max(1, leg._ncols)
    size = max(leg._fontsize, NARROW_MIN_TEXT_PT)
    while True:
        _set_legend_columns(leg, ncols, size)
        if ncols == 1 or leg.get_window_extent(renderer).width <= room:
            return ncols
        ncols -= 1


def _overlapping(labels: list[Text], renderer: Any, axis: int) -> float:
    """How many times over the labels would need their room along ``axis`` (0: x, 1: y)
    to stand apart: above 1 they overlap."""
    boxes = [t.get_window_extent(renderer) for t in labels]
    if len(boxes) < 2:
        return 0.0
    boxes.sort(key=lambda b: b.x0 if axis == 0 else b.y0)
    worst = 0.0
    for a, b in zip(boxes, boxes[1:], strict=False):
        size = (a.width + b.width) / 2 if axis == 0 else (a.height + b.height) / 2
        gap = (b.x0 + b.x1 - a.x0 - a.x1) / 2 if axis == 0 else (b.y0 + b.y1 - a.y0 - a.y1) / 2
        worst = max(worst, (size + 2) / max(gap, 1e-6))
    return worst


def _unoverlap(fig: Figure) -> list[Callable[[], None]]:
    """Tick labels that collide once the panels narrowed: x labels turn, and the figure
    grows taller until y labels (category names broken into lines) stand apart."""
    renderer = _renderer(fig)
    undo: list[Callable[[], None]] = []
    for ax in fig.axes:
        labels = [t for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
        if ax.axison and _overlapping(labels, renderer, 0) > 1:
            for t in labels:
                old = (t.get_rotation(), t.get_horizontalalignment())
                t.set_rotation(30)
                t.set_horizontalalignment("right")
                undo.append(lambda t=t, old=old: (t.set_rotation(old[0]), t.set_ha(old[1])))
            ax.xaxis.set_tick_params(labelrotation=30)
            undo.append(lambda ax=ax: ax.xaxis.set_tick_params(labelrotation=0))
    grow = max(
        (
            _overlapping([t for t in ax.get_yticklabels() if t.get_text()], renderer, 1)
            for ax in fig.axes
            if ax.axison
        ),
        default=0.0,
    )
    if grow > 1:
        w, h = fig.get_size_inches()
        fig.set_size_inches(w, h * min(2.5, grow * 1.1))
    if undo or grow > 1:
        _relayout(fig)
    return undo


def _fit_width(fig: Figure, width: float, undo: list[Callable[[], None]]) -> None:
    """Narrow the figure until it saves at most ``width`` inches wide (legends and labels
    outside the axes make it wider than its size)."""
    for _ in range(4):
        excess = _tight_width(fig) - width
        if excess <= 0.01:
            return
        w, h = fig.get_size_inches()
        if w - excess < 1.5:
            return
        fig.set_size_inches(w - excess, h)
        _relayout(fig)
        if fig.legends:
            _legends_below(fig, width, undo)


# --- boards --------------------------------------------------------------------------


# A full probability bar covers the lower part of a cell, leaving room for its label.
_FILL_HEIGHT = 0.65


def _square_xy(square: int) -> tuple[float, float]:
    """Centre of ``square`` in board coordinates (x to the right, y up; cells of size 1)."""
    row, col = divmod(square, 3)
    return float(col), float(2 - row)


def _check_squares(squares: Iterable[int], name: str) -> list[int]:
    out = []
    for s in squares:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s <= 8:
            raise ValueError(f"{name}: squares must be integers 0..8, got {s!r}")
        out.append(int(s))
    return out


def _check_square_map(values: Mapping[int, Any] | None, name: str) -> dict[int, Any]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise ValueError(f"{name} must map squares 0..8 to values, got {type(values).__name__}")
    keys = _check_squares(values.keys(), name)
    return dict(zip(keys, values.values(), strict=True))


def _as_board(board: str | Sequence[int], validate: bool) -> tuple[int, ...]:
    if validate:
        return parse_board(board)
    if isinstance(board, str):
        raise ValueError("a board given as text is always validated; pass validate=True")
    cells = tuple(int(v) for v in board)
    if len(cells) != 9 or any(v not in (EMPTY, X, O) for v in cells):
        raise ValueError(f"board must be 9 values from {{0, 1, 2}}, got {board!r}")
    return cells


def _draw_x(ax: Axes, x: float, y: float, size: float, colour: str, lw: float) -> None:
    h = size / 2
    # One Line2D per X (NaN breaks the two strokes) so a test can count glyphs.
    line = Line2D(
        [x - h, x + h, np.nan, x - h, x + h],
        [y - h, y + h, np.nan, y + h, y - h],
        color=colour,
        linewidth=lw,
        solid_capstyle="round",
        gid="glyph-X",
        zorder=4,
    )
    ax.add_line(line)


def _draw_o(ax: Axes, x: float, y: float, size: float, colour: str, lw: float) -> None:
    ring = Circle((x, y), size / 2, fill=False, edgecolor=colour, linewidth=lw, gid="glyph-O")
    ring.set_zorder(4)
    ax.add_patch(ring)


def draw_board(
    ax: Axes,
    board: str | Sequence[int],
    *,
    numbers: bool = False,
    highlight: Iterable[int] = (),
    marks: Iterable[int] = (),
    annotations: Mapping[int, str] | None = None,
    fills: Mapping[int, float] | None = None,
    win_line: bool = True,
    title: str | None = None,
    highlight_colour: str = HIGHLIGHT,
    mark_colour: str = MARK,
    fill_colour: str = ACCENT,
    fill_max: float = 1.0,
    glyph_size: float = 0.56,
    validate: bool = True,
) -> Axes:
    """Draw a noughts-and-crosses position on ``ax``.

    Parameters
    ----------
    ax
        The axes to draw on; its frame is switched off and its aspect made equal.
    board
        Text (``"X.O/.X./..O"``) or 9 ints (0 empty, 1 X, 2 O).
    numbers
        Write each square's number as readers see it (1..9,
        :func:`~menace_lib.games.board.square_number`)
        small in its top-left corner.
    highlight
        Squares to shade (e.g. the last move, or the members of a move class).
    marks
        Squares to outline with a dashed frame (e.g. the squares where O would win).
    annotations
        Text per square, written in the square (below the glyph if it is occupied).
    fills
        A value in [0, ``fill_max``] per square (a move probability), drawn as a bar
        filling the cell from the bottom in proportion; combine with ``annotations`` to
        print the numbers.
    win_line
        Strike through a completed line.
    title
        Axes title.
    highlight_colour, mark_colour, fill_colour
        Colours of the shading, the marks and the probability bars.
    fill_max
        The value that fills a whole cell (e.g. the largest probability, so that small
        probabilities stay visible).
    glyph_size
        Width of an X or O as a fraction of a cell.
    validate
        Reject boards that cannot arise in a game (default). ``False`` draws any 9
        values from {0, 1, 2}.

    Returns
    -------
    Axes
        ``ax``. Each X is one ``Line2D`` with gid ``"glyph-X"``, each O one ``Circle``
        with gid ``"glyph-O"``.

    Raises
    ------
    ValueError
        On a malformed board (:class:`~menace_lib.games.board.BoardError`), squares outside
        0..8, or fill values outside [0, ``fill_max``].
    """
    cells = _as_board(board, validate)
    highlight = _check_squares(highlight, "highlight")
    marks = _check_squares(marks, "marks")
    annotations = _check_square_map(annotations, "annotations")
    fills = _check_fills(_check_square_map(fills, "fills"), fill_max)
    lw = mpl.rcParams["lines.linewidth"] * 1.6
    for s in highlight:
        _cell_patch(ax, s, 1.0, facecolor=highlight_colour, alpha=0.45, lw=0, zorder=1)
    for s, v in fills.items():
        x, y = _square_xy(s)
        height = _FILL_HEIGHT * float(v) / fill_max
        bar = Rectangle((x - 0.42, y - 0.45), 0.84, height, facecolor=fill_colour, alpha=0.55)
        bar.set(lw=0, zorder=2, gid="fill")
        ax.add_patch(bar)
    _draw_grid(ax)
    for s in marks:
        _cell_patch(
            ax, s, 0.88, fill=False, edgecolor=mark_colour, linestyle="--", lw=1.8, zorder=5
        ).set_gid("mark")
    _draw_glyphs(ax, cells, glyph_size, lw, numbers)
    _draw_annotations(ax, cells, annotations, fills)
    if win_line:
        _draw_win_lines(ax, cells)
    ax.set_xlim(-0.55, 2.55)
    ax.set_ylim(-0.55, 2.55)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title is not None:
        ax.set_title(title)
    return ax


def _check_fills(fills: dict[int, Any], fill_max: float) -> dict[int, Any]:
    if not np.isfinite(fill_max) or fill_max <= 0:
        raise ValueError(f"fill_max must be a positive number, got {fill_max!r}")
    for s, v in fills.items():
        if not isinstance(v, (int, float, np.number)) or not 0.0 <= float(v) <= fill_max:
            raise ValueError(f"fills[{s}] must be a number in [0, {fill_max:g}], got {v!r}")
    return fills


def _cell_patch(ax: Axes, square: int, size: float, **style: Any) -> Rectangle:
    """A square patch of side ``size`` (a cell is 1) centred on ``square``."""
    x, y = _square_xy(square)
    patch = Rectangle((x - size / 2, y - size / 2), size, size, **style)
    ax.add_patch(patch)
    return patch


def _draw_grid(ax: Axes) -> None:
    """The four lines of the board."""
    for k in (0.5, 1.5):
        ax.plot([k, k], [-0.5, 2.5], color=GREY, lw=1.5, zorder=3, solid_capstyle="butt")
        ax.plot([-0.5, 2.5], [k, k], color=GREY, lw=1.5, zorder=3, solid_capstyle="butt")


def _draw_glyphs(ax: Axes, cells: Sequence[int], size: float, lw: float, numbers: bool) -> None:
    for s, v in enumerate(cells):
        x, y = _square_xy(s)
        if v == X:
            _draw_x(ax, x, y, size, X_COLOUR, lw)
        elif v == O:
            _draw_o(ax, x, y, size, O_COLOUR, lw)
        if numbers:
            label = str(square_number(s))
            ax.text(x - 0.42, y + 0.42, label, ha="left", va="top", fontsize=7, color=GREY)


def _draw_annotations(
    ax: Axes, cells: Sequence[int], annotations: Mapping[int, Any], fills: Mapping[int, Any]
) -> None:
    for s, text in annotations.items():
        x, y = _square_xy(s)
        occupied = cells[s] != EMPTY
        # Below a glyph; above a probability bar; else in the middle of the cell.
        dy = -0.36 if occupied else 0.32 if s in fills else 0.0
        size = 7 if occupied else 9
        ax.text(x, y + dy, str(text), ha="center", va="center", fontsize=size, color=GREY, zorder=6)


def _draw_win_lines(ax: Axes, cells: Sequence[int]) -> None:
    """Strike through every completed line."""
    for line in LINES:
        owner = cells[line[0]]
        if owner != EMPTY and cells[line[1]] == owner and cells[line[2]] == owner:
            (x0, y0), (x1, y1) = _square_xy(line[0]), _square_xy(line[2])
            ax.plot([x0, x1], [y0, y1], color=GREY, lw=3, alpha=0.8, zorder=6, gid="win")


def draw_boards(
    boards: Sequence[str | Sequence[int]],
    *,
    titles: Sequence[str] | None = None,
    ncols: int | None = None,
    size: float = 1.6,
    per_board: Sequence[Mapping[str, Any]] | None = None,
    **kwargs: Any,
) -> tuple[Figure, np.ndarray]:
    """Draw several boards side by side (or in a grid of ``ncols`` columns).

    Parameters
    ----------
    boards
        The positions.
    titles
        One title per board.
    ncols
        Columns of the grid (default: all in one row).
    size
        Width and height of one board in inches.
    per_board
        Extra :func:`draw_board` keyword arguments for each board (e.g. highlights).
    **kwargs
        Keyword arguments passed to every :func:`draw_board` call.

    Returns
    -------
    (Figure, ndarray of Axes)
        The figure and its flat array of axes (unused cells are switched off).
    """
    n = len(boards)
    if n == 0:
        raise ValueError("draw_boards needs at least one board")
    if titles is not None and len(titles) != n:
        raise ValueError(f"got {len(titles)} titles for {n} boards")
    if per_board is not None and len(per_board) != n:
        raise ValueError(f"got {len(per_board)} per_board dicts for {n} boards")
    ncols = n if ncols is None else ncols
    if ncols < 1:
        raise ValueError(f"ncols must be ≥ 1, got {ncols}")
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(size * ncols, size * nrows * 1.08))
    axes = np.atleast_1d(axes).ravel()
    for i, ax in enumerate(axes):
        if i >= n:
            ax.set_axis_off()
            continue
        extra = dict(kwargs)
        if per_board is not None:
            extra.update(per_board[i])
        draw_board(ax, boards[i], title=None if titles is None else titles[i], **extra)
    return fig, axes


# --- matchboxes ----------------------------------------------------------------------


def draw_matchbox(
    ax: Axes,
    beads: Sequence[float],
    *,
    labels: Sequence[str] | None = None,
    colours: Sequence[str] | None = None,
    squares: Sequence[int] | None = None,
    drawn: int | None = None,
    previous: Sequence[float] | None = None,
    ymax: float | None = None,
    counts: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw a matchbox's bead counts as bars, one bar per bead colour.

    Parameters
    ----------
    ax
        The axes to draw on.
    beads
        Bead count of each colour (non-negative).
    labels
        Tick label of each colour (default: the number of the square it plays, 1..9, if
        ``squares`` is given, else the colour's index).
    colours
        Bar colours (default: :func:`bead_colour` of ``squares``, else the accent colour).
    squares
        The square each colour plays; sets the default labels and colours.
    drawn
        Index of the colour drawn in the game: its bar gets a thick outline.
    previous
        Bead counts before an update: drawn as hollow dashed bars behind, so the change
        is visible.
    ymax
        Upper limit of the count axis (to share a scale across boxes).
    counts
        Write each count above its bar.
    title
        Axes title.

    Returns
    -------
    Axes
        ``ax``; the bars carry gid ``"bead-bar"``.
    """
    values = np.asarray(beads, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"beads must be a non-empty 1-D sequence, got shape {values.shape}")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(f"bead counts must be finite and ≥ 0, got {values.tolist()}")
    k = values.size
    for name, seq in (("labels", labels), ("colours", colours), ("squares", squares)):
        if seq is not None and len(seq) != k:
            raise ValueError(f"{name} has {len(seq)} entries for {k} bead colours")
    if squares is not None:
        squares = _check_squares(squares, "squares")
    if drawn is not None and not 0 <= drawn < k:
        raise ValueError(f"drawn must index one of the {k} colours, got {drawn!r}")
    if labels is None:
        if squares is not None:
            labels = [str(n) for n in square_numbers(squares)]
        else:
            labels = [str(i) for i in range(k)]
    if colours is None:
        colours = [bead_colour(s) for s in squares] if squares is not None else [ACCENT] * k
    x = np.arange(k)
    if previous is not None:
        before = np.asarray(previous, dtype=float)
        if before.shape != values.shape:
            raise ValueError(f"previous has shape {before.shape}, beads {values.shape}")
        ax.bar(x, before, width=0.8, fill=False, edgecolor=GREY, linestyle="--", lw=1, zorder=1)
    bars = ax.bar(x, values, width=0.62, color=colours, edgecolor="none", zorder=2)
    for bar in bars:
        bar.set_gid("bead-bar")
    if drawn is not None:
        bars[drawn].set_edgecolor(GREY)
        bars[drawn].set_linewidth(2.2)
    top = ymax
    if top is None:
        before_max = 0.0 if previous is None else float(np.max(previous))
        top = max(1.0, float(values.max()), before_max)
    if counts:
        for xi, v in zip(x, values, strict=True):
            text = f"{v:g}" if float(v).is_integer() else f"{v:.1f}"
            ax.text(xi, v + 0.02 * top, text, ha="center", va="bottom", fontsize=7, color=GREY)
    ax.set_xticks(x, labels)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
    ax.set_xlim(-0.6, k - 0.4)
    ax.set_ylim(0, top * 1.18)
    ax.tick_params(axis="x", length=0)
    if title is not None:
        ax.set_title(title)
    return ax


def _draw_bead(ax: Axes, square: int, delta: float) -> None:
    """One drawn bead, kept aside until the end of the game, with its update."""
    ax.add_patch(Circle((0.5, 0.62), 0.2, facecolor=bead_colour(square), edgecolor=GREY, lw=1.5))
    ink = "black" if bead_colour(square) in (YELLOW, SKY, ORANGE, "#999999") else "white"
    ax.text(0.5, 0.62, str(square_number(square)), ha="center", va="center", fontsize=9, color=ink)
    ax.text(0.5, 0.12, f"Δ = {delta:+g}", ha="center", va="center", fontsize=9)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_axis_off()


def draw_episode(episode: Episode, *, size: float = 1.8, ymax: float | None = None) -> Figure:
    """Draw a recorded episode the way the blog does: boards, boxes, beads, boxes after.

    One column per MENACE move. Row 1: the board after MENACE's move, the new piece
    shaded. Row 2: the box's beads when MENACE drew, the drawn colour outlined. Row 3:
    the drawn bead, kept aside until the game ends, and the update it will receive.
    Row 4: the box after the delayed update (dashed outline: before).

    Parameters
    ----------
    episode
        A record from :func:`menace_lib.play.episodes.play_episode`.
    size
        Width of one column in inches.
    ymax
        Shared upper limit of the bead axes (default: the largest count shown).

    Returns
    -------
    Figure
    """
    steps = episode.steps
    if not steps:
        raise ValueError("the episode has no MENACE moves to draw")
    n = len(steps)
    top = ymax
    if top is None:
        top = max((max(*s.before, *s.after) for s in steps if s.box >= 0), default=1.0)
    fig, axes = plt.subplots(
        4,
        n,
        figsize=(size * n, size * 3.4),
        gridspec_kw={"height_ratios": [1.25, 1, 0.5, 1]},
        squeeze=False,
    )
    for j, step in enumerate(steps):
        resigned = step.square < 0
        move = "resigns" if resigned else f"square {square_number(step.square)}"
        # Show the board after MENACE's move, the new piece shaded.
        draw_board(
            axes[0, j],
            step.board if resigned else play(step.board, step.square),
            highlight=[] if resigned else [step.square],
            title=f"move {j + 1}: {move}",
        )
        if step.box < 0 or step.colour < 0:
            # A forced move (no box), or a resignation at an empty box: nothing drawn.
            text = "no box:\nnothing to learn" if step.box < 0 else "empty box:\nresigns"
            for ax, label in ((axes[1, j], text), (axes[2, j], ""), (axes[3, j], "unchanged")):
                ax.text(0.5, 0.5, label, ha="center", va="center", transform=ax.transAxes)
                ax.set_axis_off()
            continue
        draw_matchbox(
            axes[1, j], step.before, squares=step.colour_squares, drawn=step.colour, ymax=top
        )
        _draw_bead(axes[2, j], step.square, episode.reinforcement)
        draw_matchbox(
            axes[3, j],
            step.after,
            squares=step.colour_squares,
            drawn=step.colour,
            previous=step.before,
            ymax=top,
        )
    axes[1, 0].set_ylabel("beads at the draw")
    axes[3, 0].set_ylabel(f"after the {episode.result_name}")
    fig.suptitle(f"final position {episode.final_text}: MENACE {_VERB[episode.result]}")
    fig.tight_layout()
    return fig


_VERB = ("wins", "draws", "loses")


def draw_bead_history(
    ax: Axes,
    history: np.ndarray,
    *,
    labels: Sequence[str],
    colours: Sequence[str] | None = None,
    boundaries: Sequence[tuple[int, str]] = (),
    title: str | None = None,
) -> Axes:
    """Draw one box's bead proportions across training as stacked areas.

    Parameters
    ----------
    ax
        The axes to draw on.
    history
        Bead counts, shape (games + 1, colours): row ``g`` after game ``g``
        (:func:`menace_lib.play.episodes.bead_history`).
    labels
        Legend label of each colour.
    colours
        Area colours (default: the book's colour cycle).
    boundaries
        ``(game, text)`` pairs marking changes of opponent with a vertical line.
    title
        Axes title.

    Returns
    -------
    Axes
    """
    h = np.asarray(history, dtype=float)
    if h.ndim != 2 or h.shape[0] < 2:
        raise ValueError(f"history must have shape (games + 1, colours), got {h.shape}")
    if len(labels) != h.shape[1] or (colours is not None and len(colours) != h.shape[1]):
        raise ValueError(f"need one label (and colour) per column; history has {h.shape[1]}")
    totals = h.sum(axis=1, keepdims=True)
    share = np.divide(h, totals, out=np.full_like(h, 1.0 / h.shape[1]), where=totals > 0)
    games = np.arange(h.shape[0])
    colours = list(colours) if colours is not None else [_CYCLE[i % 7] for i in range(h.shape[1])]
    ax.stackplot(games, share.T, labels=labels, colors=colours, alpha=0.9, lw=0)
    for g, text in boundaries:
        ax.axvline(g, color=GREY, lw=1, ls="--")
        ax.text(
            g, 1.01, text, ha="left", va="bottom", fontsize=8, transform=ax.get_xaxis_transform()
        )
    ax.set_xlim(0, games[-1])
    ax.set_ylim(0, 1)
    ax.set_xlabel("training games")
    ax.set_ylabel("share of the beads")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    if title is not None:
        # Leave room above the axes for the boundary labels.
        ax.set_title(title, pad=16 if boundaries else 6)
    return ax


# --- the simplex ---------------------------------------------------------------------

# Corners of the 2-simplex in the plane: outcome 0 bottom left, 1 bottom right, 2 top.
_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]])


def simplex_to_xy(p: np.ndarray) -> np.ndarray:
    """Map points of the 2-simplex (rows summing to 1) to the plane of the triangle."""
    p = np.asarray(p, dtype=float)
    if p.shape[-1] != 3:
        raise ValueError(f"simplex points need 3 coordinates, got shape {p.shape}")
    return p @ _CORNERS


def _simplex_grid(resolution: int) -> np.ndarray:
    """Interior grid points of the 2-simplex (the density may be infinite on the edges)."""
    n = resolution
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = i + j <= n
    pts = np.stack([i[keep], j[keep], n - i[keep] - j[keep]], axis=1).astype(float)
    # Shrink towards the centre by half a grid step to stay off the boundary.
    eps = 0.5 / n
    return (pts / n) * (1 - 3 * eps) + eps


def draw_simplex_density(
    ax: Axes,
    alpha: Sequence[float],
    *,
    labels: Sequence[str] = ("win", "draw", "loss"),
    resolution: int = 120,
    levels: int = 14,
    cmap: str = "viridis",
    mean: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw the density of ``Dir(alpha)`` on the 2-simplex as filled contours.

    Parameters
    ----------
    ax
        The axes to draw on.
    alpha
        Three positive concentration parameters.
    labels
        Names of the three outcomes, written at the corners.
    resolution
        Grid steps along an edge.
    levels
        Number of contour levels.
    cmap
        Colour map of the density.
    mean
        Mark the mean ``alpha / alpha_0`` with a white dot.
    title
        Axes title (default: the α vector).

    Returns
    -------
    Axes
    """
    a = np.asarray(alpha, dtype=float)
    if a.shape != (3,):
        raise ValueError(f"alpha must have 3 components for the 2-simplex, got {a.shape}")
    if len(labels) != 3:
        raise ValueError(f"labels must name the 3 corners, got {len(labels)}")
    pts = _simplex_grid(resolution)
    density = np.exp(dirichlet_logpdf(pts, a))
    # Very peaked densities would put every level near the peak; clip the top percentile.
    cap = np.quantile(density, 0.99) if np.ptp(density) > 0 else density.max() + 1.0
    xy = simplex_to_xy(pts)
    tri = Triangulation(xy[:, 0], xy[:, 1])
    ax.tricontourf(tri, np.minimum(density, cap), levels=levels, cmap=cmap)
    outline = np.vstack([_CORNERS, _CORNERS[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color=GREY, lw=1)
    offsets = [(0.0, -0.04, "top"), (0.0, -0.04, "top"), (0.0, 0.04, "bottom")]
    for (cx, cy), (dx, dy, va), name in zip(_CORNERS, offsets, labels, strict=True):
        ax.text(cx + dx, cy + dy, name, ha="center", va=va, color=GREY)
    if mean:
        m = simplex_to_xy(a / a.sum())
        ax.plot(m[0], m[1], "o", color="white", markeredgecolor=GREY, ms=5)
    ax.set_aspect("equal")
    ax.set_xlim(-0.1, 1.1)
    ax.set_ylim(-0.14, 1.0)
    ax.set_axis_off()
    ax.set_title(title if title is not None else "α = (" + ", ".join(f"{v:g}" for v in a) + ")")
    return ax
