"""Sphinx extension: the short path, a route through the book of about forty minutes.

One list owns the route: ``short_path`` under ``sphinx: config:`` in ``_config.yml``. Each
entry is a stop: a page and the sections of it the route reads, in reading order::

    short_path:
      - page: book/intro
        sections: [michie-s-question, what-this-book-does]

A stop always reads its page's opening (title, "In short" and the text before the first
section) and then the listed top-level sections, named by their anchors (the ``id`` of the
``<section>`` on the built page). No page is whole: no choice of about ten whole pages fits
the budget of 8,000 words (200 words a minute for forty minutes), so a stop is part of a page.

At build time this extension writes, from that list alone:

* under the title of a stop: "Short path, stop k of n", the sections it reads, its reading
  time and a link to the next stop;
* after each read block that the route leaves: where to continue (a later section of the same
  page, the next stop, or, after the last stop, back to the reading map);
* under the title of every other page: the "Side road" mark;
* ``{short-path-map}``: the numbered list of stops with their sections and reading times;
* ``{short-path-digest}``: the ten-minute route, the "In short" paragraph of every stop, taken
  from the stops' own pages.

Nothing of this is written in the pages by hand. Other code reads the route through
:func:`load_stops` (e.g. the seminar handouts: ``sys.path.insert(0, "book/_ext")``, then
``short_path.load_stops(root)`` and ``short_path.in_short_source(root, stop.page)``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.transforms.post_transforms import SphinxPostTransform

WORDS_PER_MINUTE = 200
# Forty minutes at WORDS_PER_MINUTE: the route's budget, checked on the built site.
MAX_WORDS = 8_000
INTRO = "book/intro"
IN_SHORT = "In short"
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Stop:
    """One stop of the short path: a page (docname, no suffix) and the sections it reads."""

    number: int
    page: str
    sections: tuple[str, ...]


def parse_stops(raw: object) -> tuple[Stop, ...]:
    """The stops of a ``short_path`` list, checked; a one-line error names a bad entry."""
    if not isinstance(raw, list) or not raw:
        raise ExtensionError(f"short_path must be a non-empty list of stops, got {raw!r}")
    stops, seen = [], set()
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict) or set(entry) - {"page", "sections"} or "page" not in entry:
            raise ExtensionError(
                f"short_path stop {number} must be {{page: ..., sections: [...]}}, got {entry!r}"
            )
        page, sections = entry["page"], entry.get("sections", [])
        if not isinstance(page, str) or not page:
            raise ExtensionError(f"short_path stop {number}: page must be a docname, got {page!r}")
        if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections):
            raise ExtensionError(
                f"short_path stop {number}: sections must be a list of anchors, got {sections!r}"
            )
        if page in seen:
            raise ExtensionError(f"short_path stop {number}: page {page!r} is already a stop")
        seen.add(page)
        stops.append(Stop(number, page, tuple(sections)))
    return tuple(stops)


def load_stops(root: Path | str) -> tuple[Stop, ...]:
    """The stops as ``_config.yml`` under ``root`` lists them (for code outside the build)."""
    import yaml

    config = yaml.safe_load((Path(root) / "_config.yml").read_text(encoding="utf-8"))
    return parse_stops(config.get("sphinx", {}).get("config", {}).get("short_path"))


def in_short_source(root: Path | str, page: str) -> str:
    """The page's "In short" paragraph as written in its source (MyST), label included."""
    base = Path(root) / page
    if base.with_suffix(".ipynb").exists():
        notebook = json.loads(base.with_suffix(".ipynb").read_text(encoding="utf-8"))
        text = "\n\n".join(
            "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"
        )
    else:
        text = base.with_suffix(".md").read_text(encoding="utf-8")
    for paragraph in re.split(r"\n\s*\n", text):
        if paragraph.startswith(f"**{IN_SHORT}"):
            return paragraph.strip()
    raise ExtensionError(f"{page}: no paragraph starts with '**{IN_SHORT}.**'")


# ---------------------------------------------------------------------------- reading


def _hidden(node: nodes.Node) -> bool:
    """Text the reader does not read: code, raw HTML (widgets), comments, closed dropdowns."""
    while node is not None:
        if isinstance(node, nodes.raw | nodes.comment | nodes.system_message):
            return True
        classes = node.get("classes", []) if isinstance(node, nodes.Element) else []
        if "cell_input" in classes or "dropdown" in classes or "toggle" in classes:
            return True
        node = node.parent
    return False


def words(node: nodes.Node) -> int:
    """The words a reader reads in ``node``: a formula counts as one, a widget as none."""
    math = (nodes.math, nodes.math_block)
    if isinstance(node, math):
        return 0 if _hidden(node) else 1
    return sum(
        1 if isinstance(child, math) else len(_WORD.findall(child.astext()))
        for child in node.findall(lambda n: isinstance(n, (nodes.Text, *math)))
        if not _hidden(child.parent) and not isinstance(child.parent, math)
    )


def top_section(doctree: nodes.document) -> nodes.section:
    section = doctree.next_node(nodes.section)
    if section is None:
        raise ExtensionError(f"{doctree.get('source')}: the page has no title")
    return section


def blocks(top: nodes.section) -> tuple[list[nodes.Node], list[nodes.section]]:
    """The page's opening (the top section's children before its first section) and sections."""
    sections = [child for child in top.children if isinstance(child, nodes.section)]
    cut = top.index(sections[0]) if sections else len(top.children)
    return list(top.children[:cut]), sections


def stop_sections(top: nodes.section, stop: Stop) -> list[nodes.section]:
    """The stop's sections in page order; a one-line error names an anchor the page lacks."""
    _, sections = blocks(top)
    by_id = {anchor: s for s in sections for anchor in s["ids"]}
    for anchor in stop.sections:
        if anchor not in by_id:
            raise ExtensionError(
                f"short_path stop {stop.number} ({stop.page}): no top-level section "
                f"#{anchor}; the page has {', '.join('#' + s['ids'][0] for s in sections)}"
            )
    wanted = {id(by_id[a]) for a in stop.sections}
    return [s for s in sections if id(s) in wanted]


def stop_words(doctree: nodes.document, stop: Stop) -> int:
    """Words of the stop: its page's opening and its sections."""
    top = top_section(doctree)
    opening, _ = blocks(top)
    return sum(words(n) for n in opening) + sum(words(s) for s in stop_sections(top, stop))


def minutes(n_words: int) -> int:
    """Reading time in whole minutes (at least one) at WORDS_PER_MINUTE."""
    return max(1, round(n_words / WORDS_PER_MINUTE))


def reading_time(n_words: int) -> str:
    m = minutes(n_words)
    return f"about {m} minute{'s' if m != 1 else ''} at {WORDS_PER_MINUTE} words a minute"


# ---------------------------------------------------------------------------- nodes


class short_path_map(nodes.General, nodes.Element):  # noqa: N801 (docutils node naming)
    """Placeholder of ``{short-path-map}``, filled once every page is read."""


class short_path_digest(nodes.General, nodes.Element):  # noqa: N801
    """Placeholder of ``{short-path-digest}``, filled once every page is read."""


class MapDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        return [short_path_map()]


class DigestDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        env.metadata[env.docname]["short_path_digest"] = True
        return [short_path_digest()]


def _doc_link(page: str, text: str, refdoc: str) -> addnodes.pending_xref:
    ref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="doc",
        reftarget="/" + page,
        refexplicit=True,
        refwarn=True,
        refdoc=refdoc,
    )
    ref += nodes.inline(text, text)
    return ref


def _section_link(
    env, docname: str, section: nodes.section, short: bool = False
) -> nodes.reference:
    """A link to a section of the page: "4.1. Title", or "§4.1" if ``short`` and numbered."""
    title = section.next_node(nodes.title).astext()
    number = env.toc_secnumbers.get(docname, {}).get("#" + section["ids"][0])
    if number and short:
        label = "§" + ".".join(map(str, number))
    else:
        label = f"{'.'.join(map(str, number))}. {title}" if number else title
    ref = nodes.reference("", "", internal=True, refid=section["ids"][0])
    ref += nodes.emphasis(label, label)
    return ref


def _mark(classes: list[str], *parts: nodes.Node | str) -> nodes.paragraph:
    paragraph = nodes.paragraph(classes=["short-path-mark", *classes])
    for part in parts:
        paragraph += nodes.Text(part) if isinstance(part, str) else part
    return paragraph


def _title(env, page: str) -> str:
    return env.titles[page].astext() if page in env.titles else page


class ShortPathMarks(SphinxPostTransform):
    """Marks every page (stop or side road) and fills the map and the digest.

    Runs after every page is read and before cross-references are resolved (priority 5 <
    the resolver's 10), so its links are resolved like the pages' own.
    """

    default_priority = 5

    def run(self, **kwargs) -> None:
        stops = parse_stops(self.config.short_path)
        for stop in stops:
            if stop.page not in self.env.all_docs:
                raise ExtensionError(
                    f"short_path stop {stop.number}: page {stop.page!r} is not in the book"
                )
        docname = self.env.docname
        for node in list(self.document.findall(short_path_map)):
            node.replace_self(self._map(stops, docname))
        for node in list(self.document.findall(short_path_digest)):
            node.replace_self(self._digest(stops, docname))
        if self.app.builder.format != "html":
            return  # the printed book reads straight through: no route marks
        by_page = {stop.page: stop for stop in stops}
        if docname in by_page:
            self._mark_stop(stops, by_page[docname])
        elif not self.env.metadata[docname].get("short_path_digest"):
            self._mark_side_road()

    # --- marks ------------------------------------------------------------------------
    def _next(self, stops: tuple[Stop, ...], stop: Stop) -> Stop | None:
        return stops[stop.number] if stop.number < len(stops) else None

    def _mark_stop(self, stops: tuple[Stop, ...], stop: Stop) -> None:
        env, docname = self.env, self.env.docname
        top = top_section(self.document)
        opening, sections = blocks(top)
        chosen = stop_sections(top, stop)
        n_words = stop_words(self.document, stop)
        following = self._next(stops, stop)
        # Short, to keep the intro's board in the first screen of a phone: section numbers
        # (their titles are in the marks where the route jumps), or, for a stop that reads
        # straight on from its opening, where it stops.
        header = [
            nodes.strong(text=f"Short path, stop {stop.number} of {len(stops)}"),
            f" · about {minutes(n_words)} min: ",
        ]
        if chosen and chosen == sections[: len(chosen)]:
            header += ["read to the end of ", _section_link(env, docname, chosen[-1], short=True)]
        else:
            header += ["this opening"]
            for i, section in enumerate(chosen):
                header += [
                    " and " if i == len(chosen) - 1 else ", ",
                    _section_link(env, docname, section, short=True),
                ]
        if following is None:
            header += [" · the last stop"]
        else:
            header += [" · next: ", _doc_link(following.page, _title(env, following.page), docname)]
        title = top.next_node(nodes.title)
        top.insert(top.index(title) + 1, _mark(["short-path-stop"], *header))
        top["classes"].append("short-path-page")
        for section in chosen:
            section["classes"].append("short-path-on")

        # After each read block the route leaves: where to go on. Block 0 is the opening.
        read = [0, *(sections.index(s) + 1 for s in chosen)]
        for i, block in enumerate(read):
            later = read[i + 1] if i + 1 < len(read) else None
            if later == block + 1:
                continue  # the next block on the page is read too: no jump
            if later is not None:
                mark = _mark(
                    ["short-path-continue"],
                    nodes.strong(text="Short path"),
                    " · continue at ",
                    _section_link(env, docname, sections[later - 1]),
                )
            elif following is not None:
                mark = _mark(
                    ["short-path-next"],
                    nodes.strong(text=f"Short path, end of stop {stop.number} of {len(stops)}"),
                    " · next stop: ",
                    _doc_link(following.page, _title(env, following.page), docname),
                )
            else:
                mark = _mark(
                    ["short-path-next", "short-path-end"],
                    nodes.strong(text="End of the short path"),
                    " · every other page is a side road, listed in ",
                    _doc_link(INTRO, "the reading map", docname),
                )
            if block > 0:
                sections[block - 1].append(mark)
            elif sections:
                top.insert(top.index(sections[0]), mark)
            else:
                top.append(mark)

    def _mark_side_road(self) -> None:
        top = top_section(self.document)
        title = top.next_node(nodes.title)
        mark = _mark(
            ["short-path-side-road"],
            nodes.emphasis(text="Side road"),
            ": the ",
            _doc_link(INTRO, "short path", self.env.docname),
            " does not need this page; read it for the detail.",
        )
        top.insert(top.index(title) + 1, mark)

    # --- map and digest ---------------------------------------------------------------
    def _map(self, stops: tuple[Stop, ...], docname: str) -> nodes.Node:
        env = self.env
        items = nodes.enumerated_list(
            enumtype="arabic", prefix="", suffix=".", classes=["short-path-map"]
        )
        total = 0
        for stop in stops:
            doctree = env.get_doctree(stop.page)
            n_words = stop_words(doctree, stop)
            total += n_words
            titles = [
                s.next_node(nodes.title).astext() for s in stop_sections(top_section(doctree), stop)
            ]
            paragraph = nodes.paragraph()
            paragraph += _doc_link(stop.page, _title(env, stop.page), docname)
            if titles:
                paragraph += nodes.Text(": the opening, then " + ", ".join(titles))
            paragraph += nodes.Text(f" (about {minutes(n_words)} min)")
            items += nodes.list_item("", paragraph)
        summary = nodes.paragraph(
            text=f"{len(stops)} stops, about {total:,} words: {reading_time(total)}."
        )
        return nodes.container("", items, summary, classes=["short-path-map"])

    def _digest(self, stops: tuple[Stop, ...], docname: str) -> nodes.Node:
        env = self.env
        box = nodes.container(classes=["short-path-digest"])
        total = 0
        for stop in stops:
            paragraph = self._in_short(stop.page)
            total += words(paragraph)
            head = nodes.paragraph(classes=["short-path-digest-stop"])
            head += nodes.strong(text=f"{stop.number}. ")
            head += _doc_link(stop.page, _title(env, stop.page), docname)
            box += head
            box += paragraph
        box += nodes.paragraph(
            text=f"{len(stops)} paragraphs, about {total:,} words: {reading_time(total)}."
        )
        return box

    def _in_short(self, page: str) -> nodes.paragraph:
        """The stop's "In short" paragraph from its own page, without its label."""
        for paragraph in self.env.get_doctree(page).findall(nodes.paragraph):
            copy = paragraph.deepcopy()
            while copy.children and isinstance(copy[0], nodes.Text) and not copy[0].strip():
                copy.pop(0)  # the parser may leave an empty text before the label
            first = copy.children[0] if copy.children else None
            if isinstance(first, nodes.strong) and first.astext().startswith(IN_SHORT):
                copy.pop(0)
                if copy.children and isinstance(copy[0], nodes.Text):
                    copy[0] = nodes.Text(copy[0].astext().lstrip())
                for ref in copy.findall(addnodes.pending_xref):
                    ref["refdoc"] = page  # relative targets resolve as on their own page
                copy["classes"].append("short-path-in-short")
                return copy
        raise ExtensionError(f"{page}: no paragraph starts with '{IN_SHORT}.'")


def _outdated(app: Sphinx, env, added, changed, removed) -> list[str]:
    """A changed stop changes its neighbours' links, the map and the digest: re-read them."""
    stops = parse_stops(app.config.short_path)
    pages = [stop.page for stop in stops]
    if not (set(added) | set(changed) | set(removed)) & set(pages):
        return []
    digests = [doc for doc, meta in env.metadata.items() if meta.get("short_path_digest")]
    return [page for page in [*pages, INTRO, *digests] if page in env.found_docs]


def _math_on_digest(app: Sphinx, pagename: str, *args) -> None:
    """The digest's formulas come from other pages: load MathJax there too.

    Sphinx decides from the page's own source, read before the digest is filled in; this
    runs before its mathjax handler (priority 500) and tells it the page has formulas.
    """
    if app.env.metadata.get(pagename, {}).get("short_path_digest"):
        app.env.get_domain("math").data["has_equations"][pagename] = True


def _check_config(app: Sphinx, config) -> None:
    parse_stops(config.short_path)


def setup(app: Sphinx) -> dict:
    app.add_config_value("short_path", [], "env", types=[list])
    for node in (short_path_map, short_path_digest):
        app.add_node(node)  # replaced before writing; registered for pickling the doctree
    app.add_directive("short-path-map", MapDirective)
    app.add_directive("short-path-digest", DigestDirective)
    app.add_post_transform(ShortPathMarks)
    app.connect("config-inited", _check_config)
    app.connect("env-get-outdated", _outdated)
    app.connect("html-page-context", _math_on_digest, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
