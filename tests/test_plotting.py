"""The book's plot style and drawing helpers."""

import matplotlib

matplotlib.use("Agg")

import io  # noqa: E402

import matplotlib as mpl  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from menace_lib.book import plotting  # noqa: E402
from menace_lib.book.themed_png import dark_variant  # noqa: E402
from menace_lib.games.board import BoardError  # noqa: E402
from menace_lib.machine.menace import Menace  # noqa: E402
from menace_lib.play.episodes import play_episode  # noqa: E402


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def _glyphs(ax, gid):
    artists = list(ax.lines) + list(ax.patches)
    return [a for a in artists if a.get_gid() == gid]


def test_style_applies_transparent_palette_with_themed_ink():
    with mpl.rc_context():
        mpl.rcdefaults()
        plotting.use_book_style()
        assert mpl.rcParams["figure.facecolor"] == "none"
        assert mpl.rcParams["savefig.transparent"] is True
        assert to_hex(mpl.rcParams["text.color"]) == plotting.INK["light"]
        assert to_hex(mpl.rcParams["axes.titlecolor"]) == plotting.INK["light"]
        assert to_hex(mpl.rcParams["axes.edgecolor"]) == plotting.GREY.lower()
        assert mpl.rcParams["legend.fontsize"] >= mpl.rcParams["font.size"]
        cycle = [to_hex(c) for c in mpl.rcParams["axes.prop_cycle"].by_key()["color"]]
        okabe = {c.lower() for c in plotting.OKABE_ITO}
        assert cycle and set(cycle) <= okabe


def _opaque_colours(png: bytes) -> set[str]:
    """Colours of the fully opaque pixels of a PNG (text and lines, not anti-aliasing)."""
    image = plt.imread(io.BytesIO(png))
    rgba = (image * 255).round().astype(int)
    opaque = rgba[rgba[..., 3] == 255][:, :3]
    return {"#{:02x}{:02x}{:02x}".format(*c) for c in np.unique(opaque, axis=0)}


def test_themed_png_draws_text_in_each_themes_ink():
    with mpl.rc_context():
        plotting.use_book_style()
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.set_title("ink", fontsize=20)
        note = ax.text(0.5, 0.5, "grey", color=plotting.GREY, fontsize=20)
        data = ax.plot([0, 1], [0, 1], color=plotting.BLUE, lw=6)[0]
        png = plotting.themed_png(fig)
        dark = dark_variant(png)
        assert dark is not None
        light_ink, dark_ink = _opaque_colours(png), _opaque_colours(dark)
        assert plotting.INK["light"] in light_ink and plotting.INK["dark"] not in light_ink
        assert plotting.INK["dark"] in dark_ink and plotting.INK["light"] not in dark_ink
        # The data colours are the same in both drawings; the figure itself is unchanged.
        assert plotting.BLUE.lower() in light_ink and plotting.BLUE.lower() in dark_ink
        assert to_hex(note.get_color()) == plotting.GREY.lower()
        assert to_hex(ax.title.get_color()) == plotting.INK["light"]
        assert to_hex(data.get_color()) == plotting.BLUE.lower()
        plt.close(fig)


def test_role_colours_are_distinct():
    roles = [plotting.WIN, plotting.DRAW, plotting.LOSS, plotting.X_COLOUR, plotting.O_COLOUR]
    assert len(set(roles)) == len(roles)
    assert len(set(plotting.BEAD_COLOURS)) == 9


@pytest.mark.parametrize(
    ("text", "n_x", "n_o"),
    [(".........", 0, 0), ("X.O/.X./..O", 2, 2), ("XOX/XOO/OXX", 5, 4), ("X........", 1, 0)],
)
def test_draw_board_draws_one_glyph_per_piece(ax, text, n_x, n_o):
    plotting.draw_board(ax, text)
    assert len(_glyphs(ax, "glyph-X")) == n_x
    assert len(_glyphs(ax, "glyph-O")) == n_o


def test_draw_board_accepts_tuples_and_places_square_zero_top_left(ax):
    plotting.draw_board(ax, (1, 0, 0, 0, 0, 0, 0, 0, 0))
    (x_glyph,) = _glyphs(ax, "glyph-X")
    xs, ys = x_glyph.get_xdata(), x_glyph.get_ydata()
    assert np.nanmean(xs) == pytest.approx(0.0)
    assert np.nanmean(ys) == pytest.approx(2.0)


def test_draw_board_marks_fills_and_win_line(ax):
    plotting.draw_board(
        ax, "XXX/OO./...", marks=[5], fills={6: 0.5, 7: 0.0}, annotations={6: "0.5"}
    )
    assert len(_glyphs(ax, "mark")) == 1
    heights = sorted(p.get_height() for p in _glyphs(ax, "fill"))
    assert heights == pytest.approx([0.0, 0.5 * plotting._FILL_HEIGHT])
    assert len(_glyphs(ax, "win")) == 1
    assert any(t.get_text() == "0.5" for t in ax.texts)


def test_draw_board_numbers(ax):
    plotting.draw_board(ax, ".........", numbers=True)
    assert sorted(t.get_text() for t in ax.texts) == [str(i) for i in range(1, 10)]


@pytest.mark.parametrize(
    "bad",
    ["XX.......", "X.O", "XYZ......", "XXX/OOO/...", (1, 2, 3, 0, 0, 0, 0, 0, 0), (0,) * 8],
)
def test_draw_board_rejects_malformed_boards(ax, bad):
    with pytest.raises(ValueError):
        plotting.draw_board(ax, bad)


def test_draw_board_rejects_bad_options(ax):
    with pytest.raises(ValueError, match="highlight"):
        plotting.draw_board(ax, ".........", highlight=[9])
    with pytest.raises(ValueError, match="fills"):
        plotting.draw_board(ax, ".........", fills={0: 1.5})
    with pytest.raises(BoardError):
        plotting.draw_board(ax, "OO.......")


def test_draw_board_without_validation_draws_any_cells(ax):
    plotting.draw_board(ax, (1, 1, 1, 1, 0, 0, 0, 0, 0), validate=False, win_line=False)
    assert len(_glyphs(ax, "glyph-X")) == 4


def test_draw_boards_grid():
    fig, axes = plotting.draw_boards(["X........", ".X.......", "....X...."], ncols=2)
    try:
        assert len(axes) == 4
        assert [len(_glyphs(a, "glyph-X")) for a in axes] == [1, 1, 1, 0]
    finally:
        plt.close(fig)


def test_draw_matchbox_bars_follow_beads(ax):
    plotting.draw_matchbox(ax, [4, 0, 2.5], squares=[0, 4, 8], drawn=2)
    bars = [p for p in ax.patches if p.get_gid() == "bead-bar"]
    assert [b.get_height() for b in bars] == [4, 0, 2.5]
    assert [to_hex(b.get_facecolor()) for b in bars] == [
        plotting.bead_colour(s).lower() for s in (0, 4, 8)
    ]
    assert bars[2].get_linewidth() > bars[0].get_linewidth()
    # Squares are labelled as readers number them, 1-9.
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "5", "9"]


def test_draw_matchbox_rejects_bad_input(ax):
    with pytest.raises(ValueError, match="≥ 0"):
        plotting.draw_matchbox(ax, [1, -1])
    with pytest.raises(ValueError, match="labels"):
        plotting.draw_matchbox(ax, [1, 2], labels=["a"])
    with pytest.raises(ValueError, match="drawn"):
        plotting.draw_matchbox(ax, [1, 2], drawn=2)


def test_draw_episode_one_column_per_menace_move():
    episode = play_episode(Menace(), "random", np.random.default_rng(0))
    fig = plotting.draw_episode(episode)
    try:
        assert len(fig.axes) == 4 * len(episode.steps)
    finally:
        plt.close(fig)


def test_simplex_projection_and_density_plot(ax):
    corners = plotting.simplex_to_xy(np.eye(3))
    assert corners[0] == pytest.approx([0, 0])
    assert corners[1] == pytest.approx([1, 0])
    centre = plotting.simplex_to_xy(np.full(3, 1 / 3))
    assert centre == pytest.approx(corners.mean(axis=0))
    plotting.draw_simplex_density(ax, [2, 5, 3])
    assert ax.collections  # the filled contours
    with pytest.raises(ValueError, match="3 components"):
        plotting.draw_simplex_density(ax, [1, 1])


def test_draw_board_fill_max_scales_bars(ax):
    plotting.draw_board(ax, ".........", fills={0: 0.2, 1: 0.1}, fill_max=0.2)
    heights = sorted(p.get_height() for p in _glyphs(ax, "fill"))
    assert heights == pytest.approx([0.5 * plotting._FILL_HEIGHT, plotting._FILL_HEIGHT])
    with pytest.raises(ValueError, match="fills"):
        plotting.draw_board(ax, ".........", fills={0: 0.3}, fill_max=0.2)
    with pytest.raises(ValueError, match="fill_max"):
        plotting.draw_board(ax, ".........", fill_max=0)
