"""The API reference (book/api_reference.md): every exported name, documented NumPy-style,
with an example that runs, on a page that is up to date and builds strictly."""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import menace_lib as ml

ROOT = Path(__file__).resolve().parents[1]
SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}$", re.M)
DESCRIBES = {"Parameters", "Returns", "Yields", "Attributes"}


def load_script():
    spec = importlib.util.spec_from_file_location(
        "api_reference", ROOT / "scripts" / "api_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = load_script()


def docstring(name: str) -> str:
    """The docstring of ``ml.<name>``; for a constant, its attribute docstring."""
    obj = getattr(ml, name)
    if callable(obj):
        return inspect.getdoc(obj) or ""
    from sphinx.pycode import ModuleAnalyzer

    docs = ModuleAnalyzer.for_module(SCRIPT.home(name)).find_attr_docs()
    return "\n".join(docs.get(("", name), []))


def missing_sections(name: str, text: str, is_callable: bool) -> list[str]:
    """What NumPy sections ``text`` lacks: an Examples section, and for a function or
    class one that describes it (Parameters, Returns, Yields or Attributes)."""
    sections = set(SECTION.findall(text))
    missing = [] if "Examples" in sections else ["Examples"]
    if is_callable and not sections & DESCRIBES:
        missing.append("Parameters/Returns/Attributes")
    return missing


NAMES = [name for name in ml.__all__ if name != "__version__"]


@pytest.mark.parametrize("name", NAMES)
def test_every_exported_name_has_numpy_sections(name):
    assert missing_sections(name, docstring(name), callable(getattr(ml, name))) == []


def test_the_section_check_can_fail():
    assert missing_sections("f", "One line.", True) == ["Examples", "Parameters/Returns/Attributes"]
    text = "One line.\n\nReturns\n-------\nint\n    A number.\n"
    assert missing_sections("f", text, True) == ["Examples"]


# Exported names whose examples need an optional extra (skipped when it is missing).
NEEDS = {"play_pettingzoo": ("pettingzoo", "shimmy", "pyspiel"), "spiel_game": ("pyspiel",)}


@pytest.mark.parametrize("name", NAMES)
def test_every_example_runs(name):
    for module in NEEDS.get(name, ()):
        pytest.importorskip(module)
    home = sys.modules[SCRIPT.home(name)]  # as doctest runs a module's examples
    globs = dict(vars(home))
    test = doctest.DocTestParser().get_doctest(docstring(name), globs, name, None, 0)
    assert test.examples, f"ml.{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: print(text, end=""))
    assert runner.failures == 0


def test_page_lists_every_name_once_grouped_as_the_package_docstring():
    script = SCRIPT
    assert script.main(["--check"]) == 0, "run python scripts/api_reference.py"
    text = (ROOT / "book" / "api_reference.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\.\. auto\w+:: menace_lib\.(?:\w+\.)*(\w+)$", text, re.M)
    faces = [name.split(".")[-1] for name in script.face_names()]
    assert sorted(documented) == sorted(NAMES + faces)
    assert {"PlayWidget", "LabWidget", "Connect4Widget"} <= set(faces)
    for name in script.face_names():  # the widget classes, their members included
        assert f".. autoclass:: menace_lib.{name}\n   :members:" in text, name
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings == [group for group, _ in script.name_groups()]
    docstring_groups = [group for group, _ in script.module_groups()]
    assert [h for h in docstring_groups if h in headings] == headings  # the docstring's order
    assert {"Games", "Agents", "Play and learning", "Experiments"} <= set(headings)


def test_page_is_an_appendix():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    appendices = next(p for p in toc["parts"] if p["caption"] == "Appendices")
    assert {"file": "book/api_reference"} in appendices["chapters"]


@pytest.mark.slow
def test_page_builds_strictly_with_the_books_autodoc_settings(tmp_path):
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]
    assert {"sphinx.ext.autodoc", "sphinx.ext.napoleon"} <= set(config["config"]["extensions"])
    settings = {
        k: v
        for k, v in config["config"].items()
        if k.startswith(("napoleon_", "autodoc_")) or k == "add_module_names"
    }
    conf = ["extensions = ['myst_parser', 'sphinx.ext.autodoc', 'sphinx.ext.napoleon']"]
    conf += [f"{k} = {v!r}" for k, v in settings.items()]
    conf.append("suppress_warnings = ['myst.header']")
    (tmp_path / "conf.py").write_text("\n".join(conf) + "\n")
    (tmp_path / "index.md").write_text((ROOT / "book" / "api_reference.md").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(tmp_path), str(tmp_path / "_build")],
        capture_output=True, text=True, timeout=600,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "_build" / "index.html").read_text()
    for name in NAMES + [n.split(".")[-1] for n in SCRIPT.face_names()]:
        assert re.search(rf'id="menace_lib\.(?:\w+\.)*{name}"', html), name
    assert html.count("Examples") >= len(NAMES)
