"""The short path (issue 34): one list of stops, and the marks the build writes from it.

Over the book's sources and the owner (``book/_ext/short_path.py``): the list names pages of
the book and sections they have, every stop has an "In short" paragraph, no page carries a
hand-written mark. Over a small Sphinx project built with the extension: the chain of "next"
links walks the stops in the listed order from the first to the last, every other page is a
side road, a stop's skipped sections are stepped over, and the ten-minute route holds the
stops' own "In short" paragraphs. The built book itself is walked in
``tests/browser/test_short_path.py``.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from docutils.nodes import make_id
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import short_path  # noqa: E402


def _toc_pages() -> list[str]:
    return re.findall(r"(?:root|file):\s*(\S+)", (ROOT / "_toc.yml").read_text(encoding="utf-8"))


def _headings(page: str) -> list[str]:
    """The anchors of the page's second-level headings, as docutils makes them."""
    path = ROOT / page
    if path.with_suffix(".ipynb").exists():
        import json

        cells = json.loads(path.with_suffix(".ipynb").read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.with_suffix(".md").read_text(encoding="utf-8")
    return [make_id(t) for t in re.findall(r"^## (.+)$", text, flags=re.M)]


# ---------------------------------------------------------------------------- the book


def test_the_book_has_about_ten_stops_each_a_page_of_the_book_with_its_sections():
    stops = short_path.load_stops(ROOT)
    assert 8 <= len(stops) <= 12
    assert [s.number for s in stops] == list(range(1, len(stops) + 1))
    assert stops[0].page == short_path.INTRO, "the route starts where the book does"
    toc = _toc_pages()
    for stop in stops:
        assert stop.page in toc, stop
        missing = set(stop.sections) - set(_headings(stop.page))
        assert not missing, f"{stop.page} has no section {missing}"
        assert short_path.in_short_source(ROOT, stop.page).startswith("**In short")


def test_no_page_carries_a_hand_written_mark():
    marks = re.compile(r"Short path, stop|\*Side road: ")
    for page in _toc_pages():
        path = next((ROOT / page).parent.glob((ROOT / page).name + ".*"))
        assert not marks.search(path.read_text(encoding="utf-8")), path


def test_the_intro_map_and_the_ten_minute_route_are_generated():
    intro = (ROOT / "book" / "intro.ipynb").read_text(encoding="utf-8")
    assert "{short-path-map}" in intro
    assert not re.search(r"\d+\. \{doc\}`\w+` ·", intro), "a hand-written list of stops"
    digests = [p for p in _toc_pages() if "{short-path-digest}" in _source(p)]
    assert digests == ["book/in_short"]


def _source(page: str) -> str:
    path = next((ROOT / page).parent.glob((ROOT / page).name + ".*"))
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "non-empty list"),
        ("book/intro", "non-empty list"),
        ([{"page": "book/intro", "section": ["x"]}], "stop 1 must be"),
        ([{"page": ""}], "stop 1: page must be"),
        ([{"page": "book/a", "sections": "x"}], "stop 1: sections must be a list"),
        ([{"page": "book/a"}, {"page": "book/a"}], "stop 2: page 'book/a' is already"),
    ],
)
def test_a_bad_list_is_refused_naming_the_entry(raw, message):
    with pytest.raises(ExtensionError, match=re.escape(message)):
        short_path.parse_stops(raw)


# ---------------------------------------------------------------------------- a small build

PAGES = {
    "intro": """
        # Start

        **In short.** The start says what the book is about.

        Opening text of the start.

        ```{short-path-map}
        ```

        ## Read first

        First read section.

        ## Skipped

        Not on the route.

        ## Read second

        Second read section.
        """,
    "middle": """
        # Middle

        **In short.** The middle holds a {doc}`link <side>` and $x^2$.

        ## Only section

        Read it.
        """,
    "last": """
        # Last

        **In short.** The last page ends it.

        ## Skipped first

        Not read.

        ## The end

        Read to the end.
        """,
    "side": """
        # Side

        **In short.** Detail nobody on the route needs.
        """,
    "in_short": """
        # Ten minutes

        ```{short-path-digest}
        ```
        """,
}
STOPS = [
    {"page": "book/intro", "sections": ["read-first", "read-second"]},
    {"page": "book/middle", "sections": ["only-section"]},
    {"page": "book/last", "sections": ["the-end"]},
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src = tmp_path_factory.mktemp("book")
    (src / "book").mkdir()
    for name, text in PAGES.items():
        (src / "book" / f"{name}.md").write_text(textwrap.dedent(text), encoding="utf-8")
    (src / "index.md").write_text(
        "# Book\n\n```{toctree}\n" + "".join(f"book/{n}\n" for n in PAGES) + "```\n",
        encoding="utf-8",
    )
    conf = {
        "extensions": ["myst_parser", "short_path"],
        "myst_enable_extensions": ["dollarmath"],
        "short_path": STOPS,
        "html_theme": "basic",
    }
    (src / "conf.py").write_text(
        "\n".join(f"{k} = {v!r}" for k, v in conf.items()), encoding="utf-8"
    )
    out = src / "_build"
    # In docutils' namespace (as sphinx-build runs a build): what the build registers is taken
    # back after it, so another in-process Sphinx of the same worker is not warned about it.
    with docutils_namespace():
        app = Sphinx(src, src, out, out / ".doctrees", "html", warningiserror=True, status=None)
        app.build()
    return out


def _page(site: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup(
        (site / "book" / f"{name}.html").read_text(encoding="utf-8"), "html.parser"
    )


def _follow(site: Path, name: str, link) -> tuple[str, str]:
    """The page and anchor a relative link on book/<name>.html leads to."""
    target, _, anchor = link["href"].partition("#")
    page = Path(target).stem if target else name
    assert (site / "book" / f"{page}.html").exists(), link
    return page, anchor


def test_the_next_links_walk_the_stops_in_order_to_the_end(site):
    name, walked = "intro", []
    while True:
        page = _page(site, name)
        walked.append(name)
        header = page.select_one("p.short-path-stop")
        assert header is not None, name
        assert f"stop {len(walked)} of {len(STOPS)}" in header.get_text()
        if name == "middle":  # it reads straight on from its opening
            assert "read to the end of Only section" in header.get_text()
        ends = page.select("p.short-path-next")
        assert len(ends) == 1, name
        if "short-path-end" in ends[0]["class"]:
            assert _follow(site, name, ends[0].find("a"))[0] == "intro"
            break
        nxt, _ = _follow(site, name, ends[0].find("a"))
        header_next = header.find_all("a")[-1]
        assert _follow(site, name, header_next)[0] == nxt, "the header names the same next stop"
        name = nxt
        assert len(walked) <= len(STOPS)
    assert walked == [Path(s["page"]).name for s in STOPS]


def test_a_stop_steps_over_the_sections_it_skips(site):
    page = _page(site, "intro")
    # The opening is followed by a read section: no jump there. After it, a jump.
    jumps = page.select("p.short-path-continue")
    assert len(jumps) == 1
    assert jumps[0].find_parent("section")["id"] == "read-first"
    assert _follow(site, "intro", jumps[0].find("a")) == ("intro", "read-second")
    assert page.select_one("section#read-second p.short-path-next") is not None
    assert [s["id"] for s in page.select("section.short-path-on")] == ["read-first", "read-second"]
    last = _page(site, "last")
    jump = last.select_one("p.short-path-continue")  # the opening jumps over "Skipped first"
    assert _follow(site, "last", jump.find("a")) == ("last", "the-end")
    assert jump.find_parent("section")["id"] == "last"


def test_every_other_page_is_a_side_road(site):
    side = _page(site, "side")
    marks = side.select("p.short-path-side-road")
    assert len(marks) == 1 and "Side road" in marks[0].get_text()
    assert _follow(site, "side", marks[0].find("a"))[0] == "intro"
    assert not side.select("p.short-path-stop")
    assert not _page(site, "in_short").select("p.short-path-side-road"), "a route, not a road"


def test_the_map_lists_the_stops_with_their_sections(site):
    items = _page(site, "intro").select("div.short-path-map li")
    assert [_follow(site, "intro", li.find("a"))[0] for li in items] == ["intro", "middle", "last"]
    assert "Read first, Read second" in items[0].get_text()


def test_the_ten_minute_route_is_the_stops_own_in_short_paragraphs(site):
    page = _page(site, "in_short")
    paragraphs = page.select("p.short-path-in-short")
    expected = [
        _page(site, Path(s["page"]).name).find("strong", string="In short.").parent for s in STOPS
    ]
    assert [p.get_text(" ", strip=True) for p in paragraphs] == [
        e.get_text(" ", strip=True).removeprefix("In short.").strip() for e in expected
    ]
    assert page.find("script", src=re.compile("mathjax")), "formulas from the stops need MathJax"
    link = paragraphs[1].find("a")  # a relative link, resolved as on its own page
    assert _follow(site, "in_short", link)[0] == "side"
    assert "side" not in [s["page"] for s in STOPS]


def test_the_built_route_counts_its_words(site):
    header = _page(site, "intro").select_one("p.short-path-stop").get_text()
    assert "about 1 min" in header
    assert "1 minute at 200" in _page(site, "in_short").get_text()
    summary = _page(site, "intro").select("div.short-path-map > p")[-1].get_text()
    assert summary.startswith("3 stops") and "200 words a minute" in summary


def test_words_count_what_a_reader_reads():
    from docutils import nodes

    paragraph = nodes.paragraph(
        "",
        "",
        nodes.Text("one two "),
        nodes.math("x^2 + y", nodes.Text("x^2 + y")),
        nodes.Text(" three"),
    )
    code = nodes.container("", nodes.literal_block("", "import a as b"), classes=["cell_input"])
    widget = nodes.raw("", "<script>one two</script>", format="html")
    block = nodes.math_block("", "a + b = c")
    assert short_path.words(nodes.section("", paragraph, code, widget, block)) == 5
    assert [short_path.minutes(n) for n in (0, 299, 301, 8_000)] == [1, 1, 2, 40]


def test_config_yaml_is_the_list_the_build_reads():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert "short_path" in config["sphinx"]["config"]["extensions"]
    assert config["sphinx"]["local_extensions"]["short_path"] == "book/_ext"
