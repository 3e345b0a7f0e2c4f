"""Figures a phone can read: the narrow drawing every wide figure carries.

menace_lib.book.plotting.themed_png draws a figure wider than a phone's column twice, wide
(panels side by side) and narrow (panels stacked), each in both themes' ink, with the
measurements a page needs (menace_lib.book.themed_png.metrics). The browser side is
tests/browser/test_figure_legibility.py.
"""

import matplotlib

matplotlib.use("Agg")

import io  # noqa: E402

import matplotlib as mpl  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from menace_lib.book import plotting  # noqa: E402
from menace_lib.book.themed_png import (  # noqa: E402
    dark_variant,
    metrics,
    narrow_variant,
    plain,
    with_metrics,
)

# The book's column on a phone 390 CSS px wide (the browser test measures the real one).
PHONE_COLUMN_PX = 350


@pytest.fixture(autouse=True)
def _style():
    with mpl.rc_context():
        plotting.use_book_style()
        yield
    plt.close("all")


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def _on_phone_px(png: bytes, key: str) -> float:
    """How high text of the ``key`` size shows when ``png`` fills a phone's column."""
    values, (width, _) = metrics(png), _size(png)
    return values[key] * min(PHONE_COLUMN_PX, width) / width * values["dpi"] / 72


def _three_panels() -> tuple[plt.Figure, np.ndarray]:
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
    for i, ax in enumerate(axes):
        ax.plot(np.arange(10) * (i + 1), label=f"series {i}")
        ax.set(xlabel="training games", ylabel="draw rate", title=f"panel {i}")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncols=3)
    fig.tight_layout()
    return fig, axes


def test_a_wide_figure_carries_a_stacked_narrow_drawing_in_both_inks():
    fig, axes = _three_panels()
    before = [ax.get_position().bounds for ax in axes]
    png = plotting.themed_png(fig)
    narrow = narrow_variant(png)
    assert narrow is not None and dark_variant(png) is not None
    assert dark_variant(narrow) is not None, "the narrow drawing has its dark twin"
    (wide_w, wide_h), (narrow_w, narrow_h) = _size(png), _size(narrow)
    # Stacked: one column, taller than wide, at most NARROW_WIDTH_IN wide as saved.
    assert narrow_w < wide_w / 2 and narrow_h > 2 * wide_h
    assert narrow_w <= plotting.NARROW_WIDTH_IN * metrics(narrow)["dpi"] * 1.02
    # On a phone the wide drawing's ticks are too small and the narrow one's are not.
    assert _on_phone_px(plain(png), "tick_pt") < 9 <= _on_phone_px(plain(narrow), "tick_pt")
    # The figure itself is left as it was.
    assert tuple(fig.get_size_inches()) == (12, 3.5)
    after = [ax.get_position().bounds for ax in axes]
    assert np.allclose(before, after)


def test_the_narrow_drawing_stacks_panels_one_per_row_in_reading_order():
    fig, axes = _three_panels()
    with plotting.narrow_layout(fig) as narrowed:
        assert narrowed
        boxes = [ax.get_position() for ax in axes]
        assert all(abs(b.x0 - boxes[0].x0) < 0.02 for b in boxes), "one column"
        assert boxes[0].y0 > boxes[1].y0 > boxes[2].y0, "first panel on top"
        assert fig.get_size_inches()[0] <= plotting.NARROW_WIDTH_IN
        ticks = [t.get_fontsize() for ax in axes for t in ax.get_xticklabels()]
        assert min(ticks) >= plotting.NARROW_MIN_TICK_PT
    assert tuple(fig.get_size_inches()) == (12, 3.5)


def test_small_boards_sit_three_to_a_row():
    fig, axes = plotting.draw_boards(["X../.O./..."] * 6, titles=list("abcdef"), size=1.6)
    with plotting.narrow_layout(fig) as narrowed:
        assert narrowed
        xs = sorted({round(ax.get_position().x0, 2) for ax in axes})
        ys = {round(ax.get_position().y0, 2) for ax in axes}
        assert len(xs) == 3 and len(ys) == 2


def test_a_figure_that_fits_a_phone_has_no_narrow_drawing():
    fig, ax = plt.subplots(figsize=(3.5, 2.5))
    ax.plot([0, 1], [1, 0])
    png = plotting.themed_png(fig)
    assert narrow_variant(png) is None
    assert metrics(png)["dpi"] == 150 and metrics(png)["tick_pt"] == 9


def test_a_figure_may_draw_its_own_narrow_drawing():
    calls = []

    def small() -> plt.Figure:
        calls.append(1)
        f, a = plt.subplots(figsize=(3, 3))
        a.plot([0, 1])
        return f

    fig, _ = _three_panels()
    plotting.narrow_drawing(fig, small)
    narrow = narrow_variant(plotting.themed_png(fig))
    assert calls == [1] and _size(narrow)[0] < 3.2 * 150
    with pytest.raises(ValueError, match="draw must be a function"):
        plotting.narrow_drawing(fig, "not a function")


def test_hers_24_boxes_read_on_a_desktop_and_on_a_phone():
    import menace_lib as ml

    fig = ml.book.her_chapter.gardner_figure()
    png = plotting.themed_png(fig)
    titles = [ax.title for ax in fig.axes if ax.title.get_text().startswith("box ")]
    assert len(titles) == 24 and min(t.get_fontsize() for t in titles) >= 10
    # Shown at most 700 px wide on a desktop, the titles are at least 12 px high.
    width = _size(png)[0]
    assert 10 * min(700, width) / width * 150 / 72 >= 12
    narrow = narrow_variant(png)
    assert narrow is not None and _on_phone_px(plain(narrow), "text_pt") >= 9
    with pytest.raises(ValueError, match="columns must be an integer from 2 to 8"):
        ml.book.her_chapter.gardner_figure(columns=1)


def test_metrics_refuse_a_value_that_is_not_a_number():
    png = plain(plotting.themed_png(plt.subplots(figsize=(2, 2))[0]))
    with pytest.raises(ValueError, match=r"metrics\['dpi'\] must be a number"):
        with_metrics(png, {"dpi": "high"})


def test_small_multiples_sit_two_to_a_row_in_reading_order():
    fig, axes = plt.subplots(2, 4, figsize=(16, 7), sharey=True, constrained_layout=True)
    for i, ax in enumerate(axes.flat):
        ax.plot(np.arange(500), 80 * np.exp(-np.arange(500) / (50 + 20 * i)), label="mean")
        ax.set_title(f"agent {i} with a title longer than a small panel is wide")
    axes[0, 0].legend()
    letters = plotting.panel_letters(fig)
    with plotting.narrow_layout(fig) as narrowed:
        assert narrowed
        boxes = [ax.get_position() for ax in axes.flat]
        xs = sorted({round(b.x0, 2) for b in boxes})
        assert len(xs) == 2, "two columns"
        # Reading order kept: (a) (b) on the first row, (c) (d) on the next, ...
        for i in range(0, 8, 2):
            left, right = boxes[i], boxes[i + 1]
            assert left.x0 < right.x0 and abs(left.y0 - right.y0) < 0.01
            if i:
                assert boxes[i - 1].y0 > left.y0
        ticks = [t.get_fontsize() for ax in axes.flat for t in ax.get_yticklabels()]
        assert min(ticks) >= plotting.NARROW_MIN_TICK_PT
        assert all(
            ax.get_title().startswith(letter) for ax, letter in zip(axes.flat, letters, strict=True)
        )
    assert fig.get_layout_engine().__class__.__name__ == "ConstrainedLayoutEngine"
    assert tuple(fig.get_size_inches()) == (16, 7)
    assert axes[0, 0].get_title() == "(a) agent 0 with a title longer than a small panel is wide"
    png = plotting.themed_png(fig)
    narrow = narrow_variant(png)
    nw, nh = _size(narrow)
    # Four rows of two, not eight rows of one: about as tall as four wide-figure rows.
    assert nh < 2.4 * nw and _on_phone_px(plain(narrow), "tick_pt") >= 9


def test_a_legend_that_hides_a_narrowed_panel_goes_below_with_its_own_colours():
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
    x = np.arange(10)
    axes[0].plot(x, x, color="tab:red", label="Q-learning")
    axes[1].plot(x, x, color="tab:green", label="Q-learning")
    axes[1].plot(x, 9 - x, color="tab:blue", label="SARSA with a long name")
    for i in range(6):  # enough entries to cover a fifth of the panel
        axes[1].plot(x, x / (i + 2), color="grey", label=f"another agent {i}")
    axes[1].legend(fontsize=9)
    fig.tight_layout()
    with plotting.narrow_layout(fig) as narrowed:
        assert narrowed
        leg = axes[1].get_legend()
        box = leg.get_window_extent(fig.canvas.get_renderer())
        assert box.y1 <= axes[1].bbox.y0 + 2, "the legend is below its panel"
        colours = [matplotlib.colors.to_hex(h.get_color()) for h in leg.legend_handles]
        assert colours[:2] == [
            matplotlib.colors.to_hex("tab:green"),
            matplotlib.colors.to_hex("tab:blue"),
        ]


def test_three_charts_marked_as_small_multiples_sit_two_to_a_row():
    fig, axes = _three_panels()
    with plotting.narrow_layout(fig):
        assert len({round(ax.get_position().x0, 2) for ax in axes}) == 1, "unmarked: stacked"
    plotting.small_multiples(fig)
    with plotting.narrow_layout(fig):
        boxes = [ax.get_position() for ax in axes]
        assert boxes[0].x0 < boxes[1].x0 and abs(boxes[0].y0 - boxes[1].y0) < 0.01
        assert boxes[2].y0 < boxes[0].y0 and abs(boxes[2].x0 - boxes[0].x0) < 0.01


def test_learned_boxes_drawn_one_box_a_row_for_a_phone():
    import menace_lib as ml

    agent = ml.kit.noughts.kit_agent()
    boxes = {"empty board": 0}
    wide = ml.book.variants.figures.draw_learned_policies(agent, boxes)
    phone = ml.book.variants.figures.draw_learned_policies(agent, boxes, pairs=True)
    board, beads = phone.axes
    # Side by side, not one above the other, and no text below the phone floor.
    assert board.get_position().x1 <= beads.get_position().x0
    assert wide.axes[0].get_position().y0 >= wide.axes[1].get_position().y1
    texts = [t.get_fontsize() for t in phone.findobj(matplotlib.text.Text) if t.get_text()]
    assert min(texts) >= plotting.NARROW_MIN_TEXT_PT


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png))
    return image.size, image.tobytes()


def _dark_drawing_laid_out_afresh(fig: plt.Figure) -> bytes:
    """The dark drawing as savefig makes it on its own: its own tight box."""
    with plotting._inked(fig, plotting.INK["light"]):
        plotting._png(fig)
    with plotting._inked(fig, plotting.INK["dark"]):
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", bbox_inches="tight", transparent=True)
    return buffer.getvalue()


def test_the_dark_drawing_reusing_the_light_box_is_the_same_bytes():
    # Ink moves no text: the light drawing's tight box is the dark one's, to the byte.
    afresh = _pixels(_dark_drawing_laid_out_afresh(_three_panels()[0]))
    assert _pixels(dark_variant(plotting.themed_png(_three_panels()[0]))) == afresh
    fig, _ = _three_panels()
    light, box = plotting._png(fig)
    assert box is not None and plotting._png(fig, box)[0] == light


def _alpha(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))[..., 3]


def test_the_dark_drawing_is_the_light_one_in_other_ink_under_a_constrained_layout():
    # A constrained layout moves the panels again on every draw (by a pixel here): laid
    # out afresh, the dark drawing stood elsewhere than the light one. It reuses the
    # light drawing's layout, so only the ink differs: the same coverage, pixel by pixel,
    # in the wide drawing and in the phone's.
    fig, axes = plt.subplots(2, 3, figsize=(9, 5), layout="constrained", sharex=True, sharey=True)
    for i, ax in enumerate(axes.flat):
        x = np.linspace(0, 10 ** (i % 3), 50)
        ax.plot(x, np.sqrt(np.arange(50)) * 1e3 * (i + 1), label=f"series {i}")
        ax.set_title(f"panel {i}")
    fig.supylabel("draw rate")
    fig.legend(loc="outside right upper")
    png = plotting.themed_png(fig)
    narrow = narrow_variant(png)
    assert narrow is not None
    for drawing in (png, narrow):
        assert np.array_equal(_alpha(drawing), _alpha(dark_variant(drawing)))


def test_measuring_without_painting_lays_a_figure_out_as_a_full_draw_does():
    # The phone layout measures between its steps without painting: same positions,
    # same tight width as after the canvas's own draw.
    def laid_out(draw):
        fig, axes = _three_panels()
        fig.set_size_inches(5, 9)
        fig.axes[0].legend(loc="upper left")
        draw(fig)
        return [ax.get_position().bounds for ax in axes], plotting._tight_width(fig)

    painted = laid_out(lambda fig: fig.canvas.draw())
    measured = laid_out(plotting._layout_draw)
    assert painted == measured
