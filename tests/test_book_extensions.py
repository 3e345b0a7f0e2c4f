"""The book's own Sphinx extensions (book/_ext/), without building the whole book."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes
from docutils.utils import new_document
from sphinx.errors import ConfigError

from menace_lib.book.themed_png import (
    dark_variant,
    metrics,
    narrow_variant,
    with_dark_variant,
    with_metrics,
    with_narrow_variant,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import theme_figures  # noqa: E402
import vendored_assets  # noqa: E402


def _config(**overrides):
    values = {
        "mathjax_path": "vendor/mathjax/tex-mml-chtml.js",
        "nb_ipywidgets_js": {
            "vendor/require/require.js": {},
            "local-widgets.js": {},
            "vendor/html-manager/embed-amd.js": {},
        },
        "html_static_path": ["book/_static"],
    }
    return SimpleNamespace(**(values | overrides))


def test_missing_vendored_assets_are_listed(tmp_path):
    static = tmp_path / "book" / "_static"
    (static / "vendor" / "require").mkdir(parents=True)
    (static / "vendor" / "require" / "require.js").write_text("//")
    missing = vendored_assets.missing_assets(tmp_path, _config())
    assert {p.relative_to(static).as_posix() for p in missing} == {
        "vendor/mathjax/tex-mml-chtml.js",
        "vendor/html-manager/embed-amd.js",
        "vendor/anywidget/index.js",
        "vendor/VERSIONS.json",
    }
    app = SimpleNamespace(confdir=str(tmp_path))
    with pytest.raises(ConfigError, match=r"make book.*make assets"):
        vendored_assets.check_assets(app, _config())
    for asset in vendored_assets.required_assets(_config()):
        (static / asset).parent.mkdir(parents=True, exist_ok=True)
        (static / asset).write_text("//")
    vendored_assets.check_assets(app, _config())  # nothing missing: no error


@pytest.mark.skipif(shutil.which("jupyter-book") is None, reason="jupyter-book not installed")
def test_plain_jupyter_book_build_without_assets_fails_naming_make_book(tmp_path):
    """The real configuration, built by plain `jupyter-book build .` with no vendor folder."""
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(
        ROOT / "book",
        tmp_path / "book",
        ignore=shutil.ignore_patterns("vendor", "_build", "*.ipynb", "data"),
    )
    # The extensions import menace_lib from this checkout, wherever the test runs from.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        ["jupyter-book", "build", "."],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "vendored browser assets are missing" in output and "`make book`" in output
    assert not (tmp_path / "_build" / "html" / "index.html").exists()


def _png(shade: float) -> bytes:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    plt.imsave(buffer, [[shade]], format="png", cmap="gray", vmin=0, vmax=1)
    return buffer.getvalue()


def test_theme_figures_adds_a_dark_twin_after_each_themed_image(tmp_path):
    out = tmp_path / "_build" / "jupyter_execute"
    out.mkdir(parents=True)
    (out / "fig.png").write_bytes(with_dark_variant(_png(0.9), _png(0.1)))
    (out / "plain.png").write_bytes(_png(0.5))
    doc = new_document("page")
    figure = nodes.figure()
    themed = nodes.image(uri="/_build/jupyter_execute/fig.png", alt="A chart")
    plain = nodes.image(uri="/_build/jupyter_execute/plain.png", alt="Other")
    figure += [themed, nodes.caption(text="Caption")]
    doc += [figure, plain]
    env = SimpleNamespace(docname="book/page", doc2path=lambda d: tmp_path / f"{d}.ipynb")
    app = SimpleNamespace(srcdir=str(tmp_path), env=env)
    theme_figures.add_dark_twins(app, doc)
    images = list(doc.findall(nodes.image))
    assert [i["uri"] for i in images] == [
        "/_build/jupyter_execute/fig-light.png",
        "/_build/jupyter_execute/fig-dark.png",
        "/_build/jupyter_execute/plain.png",
    ]
    light, dark, other = images
    assert light["classes"] == ["theme-light"] and "theme-dark" in dark["classes"]
    assert dark["alt"] == "A chart" and other["classes"] == []
    assert (out / "fig-dark.png").read_bytes() == _png(0.1)
    # The page loads the light drawing alone, not the file that carries both.
    assert (out / "fig-light.png").read_bytes() == _png(0.9)
    assert isinstance(figure.children[2], nodes.caption), "the caption stays last"
    assert dark_variant((out / "fig-dark.png").read_bytes()) is None
    theme_figures.add_dark_twins(app, doc)  # a second pass adds nothing
    assert len(list(doc.findall(nodes.image))) == 3


def test_theme_figures_adds_the_narrow_drawings_of_a_figure_that_has_them(tmp_path):
    out = tmp_path / "_build" / "jupyter_execute"
    out.mkdir(parents=True)
    narrow = with_metrics(with_dark_variant(_png(0.8), _png(0.2)), {"dpi": 150.0})
    wide = with_narrow_variant(with_dark_variant(_png(0.9), _png(0.1)), narrow)
    (out / "fig.png").write_bytes(wide)
    doc = new_document("page")
    figure = nodes.figure()
    figure += [nodes.image(uri="/_build/jupyter_execute/fig.png", alt="A chart")]
    figure += nodes.caption(text="Caption")
    doc += figure
    env = SimpleNamespace(docname="book/page", doc2path=lambda d: tmp_path / f"{d}.ipynb")
    app = SimpleNamespace(srcdir=str(tmp_path), env=env)
    theme_figures.add_dark_twins(app, doc)
    images = list(doc.findall(nodes.image))
    assert [(i["uri"].rsplit("/", 1)[1], i["classes"]) for i in images] == [
        ("fig-light.png", ["theme-light", "fig-wide"]),
        ("fig-dark.png", ["theme-dark", "dark-light", "fig-wide"]),
        ("fig-narrow.png", ["theme-light", "fig-narrow"]),
        ("fig-narrow-dark.png", ["theme-dark", "dark-light", "fig-narrow"]),
    ]
    assert {i["alt"] for i in images} == {"A chart"}
    assert isinstance(figure.children[-1], nodes.caption), "the caption stays last"
    narrow_light = (out / "fig-narrow.png").read_bytes()
    assert narrow_variant(narrow_light) is None and dark_variant(narrow_light) is None
    assert metrics(narrow_light) == {"dpi": 150.0}
    assert (out / "fig-narrow-dark.png").read_bytes() == _png(0.2)
    # The printed book keeps the light, wide drawing only.
    app.builder = SimpleNamespace(format="latex")
    theme_figures.drop_dark_twins(app, doc, "book/page")
    assert [i["uri"].rsplit("/", 1)[1] for i in doc.findall(nodes.image)] == ["fig-light.png"]


def test_api_signatures_name_each_default_factory():
    import api_signatures

    import menace_lib as ml

    fields = ("games: G", "rates: R", "extra: E", "log: L")
    sig = "(" + ", ".join(f"{f} = <factory>" for f in fields) + ")"
    new, _ = api_signatures.named_factories(None, "class", "x", ml.LearningCurve, {}, sig, None)
    calls = ("list()", "dict()", "list()", "TrainingLog()")
    assert new == "(" + ", ".join(f"{f} = {c}" for f, c in zip(fields, calls, strict=True)) + ")"
    assert (
        api_signatures.named_factories(None, "class", "x", ml.Menace, {}, "(a: int = 1)", None)
        is None
    )


def test_the_root_page_redirects_with_the_favicon_and_a_link(tmp_path):
    """The site's index.html: the first page's redirect, the favicon (no /favicon.ico 404
    before the redirect) and a titled link for a browser that does not follow it."""
    import accessible_markup

    app = SimpleNamespace(
        builder=SimpleNamespace(format="html", get_target_uri=lambda doc: f"{doc}.html"),
        config=SimpleNamespace(
            root_doc="book/intro",
            html_title="MENACE & Co",
            project="p",
            html_favicon="book/_static/favicon.svg",
        ),
        outdir=str(tmp_path),
    )
    accessible_markup.write_root_index(app, None)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<meta http-equiv="Refresh" content="0; url=book/intro.html">' in page
    assert '<link rel="icon" href="_static/favicon.svg">' in page
    assert '<a href="book/intro.html">MENACE &amp; Co</a>' in page
    (tmp_path / "index.html").unlink()
    accessible_markup.write_root_index(app, RuntimeError("failed build"))
    assert not (tmp_path / "index.html").exists()


_NUMREF_PAGES = {
    "index.rst": """Book
====

.. toctree::

   figures
   text

See {ref}.
""",
    "figures.rst": """Figures
=======

.. _fig-one:

.. figure:: one.png

   The first figure.

.. _fig-two:

.. figure:: one.png

   The second figure.
""",
    "text.rst": """Text
====

:numref:`fig-one`, :numref:`fig-two` and :numref:`Picture %s <fig-one>`; :cite:p:`woz`.

.. bibliography::
""",
}


def _numref_site(tmp_path: Path, name: str, extensions: list[str]) -> dict[str, str]:
    """A small Sphinx site with numbered references and a citation, built in process."""
    from io import StringIO

    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    warnings = StringIO()
    src = tmp_path / name
    src.mkdir()
    for page, text in _NUMREF_PAGES.items():
        (src / page).write_text(text.replace("{ref}", ":numref:`fig-two`"), encoding="utf-8")
    (src / "one.png").write_bytes(_png(0.5))
    (src / "refs.bib").write_text(
        "@misc{woz, author = {Wos, K.}, title = {MENACE}, year = {2026}}\n", encoding="utf-8"
    )
    (src / "conf.py").write_text(
        f"extensions = {extensions!r}\nnumfig = True\nbibtex_bibfiles = ['refs.bib']\n",
        encoding="utf-8",
    )
    out = tmp_path / f"{name}-html"
    # In docutils' namespace, as sphinx-build's own main runs a build: the node classes, roles
    # and directives the build registers are taken back after it, so a later Sphinx in this
    # process (another test's, with warnings as errors) starts clean.
    with docutils_namespace():
        app = Sphinx(
            str(src),
            str(src),
            str(out),
            str(tmp_path / f"{name}-doctrees"),
            "html",
            status=None,
            warning=warnings,
        )
        app.build()
    assert not warnings.getvalue(), warnings.getvalue()
    return {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.html")}


def test_lookup_caches_build_the_same_site_reading_each_doctree_once(tmp_path, monkeypatch):
    """lookup_caches: numbered references and citations render as without it, while each
    page's doctree is unpickled once for the numbered references (three to one page) and
    pybtex's entry points are read once; the same plugin classes are found."""
    import importlib.metadata

    import pybtex.plugin
    from sphinx.domains.std import StandardDomain
    from sphinx.environment import BuildEnvironment

    # setup() patches both lookups for the process: put the originals back afterwards.
    monkeypatch.setattr(pybtex.plugin, "entry_points", pybtex.plugin.entry_points)
    monkeypatch.setattr(StandardDomain, "_resolve_numref_xref", StandardDomain._resolve_numref_xref)
    loads: list[str] = []
    get_doctree = BuildEnvironment.get_doctree

    def counted(self, docname):
        loads.append(docname)
        return get_doctree(self, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counted)
    plain = _numref_site(tmp_path, "plain", ["sphinxcontrib.bibtex"])
    plain_loads, loads[:] = loads.count("figures"), []
    import lookup_caches

    cached = _numref_site(tmp_path, "cached", ["sphinxcontrib.bibtex", "lookup_caches"])
    assert cached == plain
    assert "Fig. 1" in cached["text.html"] and "Picture 1" in cached["text.html"]
    assert "Fig. 2" in cached["index.html"]
    # The four numbered references to the figures' page unpickled it four times; now once.
    assert plain_loads - loads.count("figures") == 3
    for group, name in [("pybtex.style.formatting", "unsrt"), ("pybtex.backends", "html")]:
        assert list(lookup_caches._entry_points(group=group, name=name)) == list(
            importlib.metadata.entry_points(group=group, name=name)
        )


def test_prefill_makes_the_stale_kits_and_handouts_the_build_would_make(tmp_path):
    """scripts/prefill_notebook_cache.py runs beside the notebooks exactly what the build's
    own rules (menace_kit_pdf.stale_kits, seminar_handouts.current) would make: each missing
    kit and the handouts; nothing once they are newer than their sources and the library."""
    import importlib.util

    import menace_kit_pdf
    import seminar_handouts

    spec = importlib.util.spec_from_file_location(
        "prefill_for_test", ROOT / "scripts" / "prefill_notebook_cache.py"
    )
    prefill = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prefill)
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "intro.md").write_text("# Intro\n", encoding="utf-8")
    (tmp_path / "_toc.yml").write_text("root: book/intro\n", encoding="utf-8")
    assert prefill.side_jobs(tmp_path) == [
        *(f"kit {name}" for name in menace_kit_pdf.KITS),
        "handouts",
    ]
    made = [tmp_path / "_build" / "kit" / name for name in menace_kit_pdf.KITS]
    made += [tmp_path / "_build" / "handouts" / name for name in seminar_handouts.OUTPUTS]
    for path in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    assert prefill.side_jobs(tmp_path) == []
    old = made[0].stat().st_mtime - 10**6  # a kit older than the library is made again
    os.utime(made[1], (old, old))
    assert prefill.side_jobs(tmp_path) == [f"kit {made[1].name}"]
