"""Write book/api_reference.md: every name ``menace_lib`` exports, grouped as its docstring groups.

The package docstring's "Folders by layer" table names the folders (``games``,
``agents``, ...), from the ground up; every exported name goes under the group of the
folder that defines it, in the order of ``menace_lib.__all__``. Each entry is an
autodoc directive, so the page shows the signature and the NumPy-style docstring
(with its example) of the code it documents. Run after adding an exported name;
``tests/test_api_reference.py`` fails while the page is out of date.

    python scripts/api_reference.py            # rewrite the page
    python scripts/api_reference.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "api_reference.md"
sys.path.insert(0, str(ROOT))

import menace_lib as ml  # noqa: E402 - after the path is set

_ROW = re.compile(r"^``(\w+)``\s{2,}", re.M)  # a row of the folders table

TITLES = {
    "base": "Files, limits and reproducibility",
    "games": "Games",
    "maths": "Maths",
    "machine": "The matchbox machine",
    "play": "Play and learning",
    "agents": "Agents",
    "experiments": "Experiments",
    "interop": "OpenSpiel and PettingZoo",
    "book": "The book's code",
    "kit": "The printable kit",
    "widgets": "Widgets",
    "cli": "Command line",
}
"""The heading of each folder's group on the page."""


FACES = ("widgets",)
"""Folders whose public classes live in the folder's own ``__all__``, not in
``ml.__all__`` (the widgets need anywidget, so ``import menace_lib`` does not load
them): the page documents them as ``ml.<folder>.<Name>``, members included."""


def module_groups() -> list[tuple[str, list[str]]]:
    """(group, folders) in the order of the package docstring's "Folders by layer"."""
    doc = ml.__doc__ or ""
    section = doc.split("Folders by layer\n----------------\n", 1)[1]
    return [(TITLES[wing], [wing]) for wing in _ROW.findall(section)]


def exported() -> list[str]:
    """The exported names, without ``__version__``."""
    return [name for name in ml.__all__ if name != "__version__"]


def face_names() -> list[str]:
    """``<folder>.<Name>`` of every public name of the folders in :data:`FACES`."""
    return [
        f"{face}.{name}"
        for face in FACES
        for name in importlib.import_module(f"menace_lib.{face}").__all__
    ]


def home(name: str) -> str:
    """The module that defines ``ml.<name>`` (``menace_lib.games.agent`` for ``RESIGN``)."""
    obj = getattr(ml, name)
    module = getattr(obj, "__module__", None)
    if callable(obj) and isinstance(module, str) and module.startswith("menace_lib."):
        return module
    candidate = importlib.import_module(f"menace_lib.{ml._PUBLIC[name]}")  # a constant
    if getattr(candidate, name, None) is obj and name in vars(candidate):
        return candidate.__name__
    raise SystemExit(f"ml.{name}: {candidate.__name__} does not define it")


def name_groups() -> list[tuple[str, list[str]]]:
    """(group, exported names) for every group that has any."""
    owner = {}
    for group, modules in module_groups():
        for module in modules:
            owner.setdefault(module, group)
    found: dict[str, list[str]] = {group: [] for group, _ in module_groups()}
    for name in exported():
        module = home(name).split(".")[1]
        if module not in owner:
            raise SystemExit(f"{name}: module {module!r} is in no group of the package docstring")
        found[owner[module]].append(name)
    for name in face_names():
        found[owner[name.split(".")[0]]].append(name)
    return [(group, names) for group, names in found.items() if names]


def directive(name: str) -> str:
    """The autodoc directive that documents ``ml.<name>``."""
    obj = ml
    for part in name.split("."):  # "widgets.PlayWidget" for a class of a folder's face
        obj = getattr(obj, part)
    if inspect.isclass(obj):
        # Members too: a class's methods are most of what it offers.
        return f".. autoclass:: menace_lib.{name}\n   :members:"
    if callable(obj):
        return f".. autofunction:: menace_lib.{name}"
    return f".. autodata:: {home(name)}.{name}"


def page() -> str:
    """The page's text."""
    out = [
        "(api-reference)=",
        "# API reference",
        "",
        "**In short:** everything `import menace_lib as ml` offers, grouped by the folder "
        "of the library that defines it, from the ground up, and the widgets "
        "(`ml.widgets`): each name with its signature, "
        "what it takes and returns, and an example you can paste into a notebook. The "
        "command line has its own help (`python -m menace_lib --help`). This page is written by "
        "`scripts/api_reference.py`; a test fails when a name is missing or undocumented.",
        "",
    ]
    groups = name_groups()
    for group, names in groups:
        out.append(f"- **{group}**: " + ", ".join(f"`ml.{n}`" for n in names))
    for group, names in groups:
        out += ["", f"## {group}", "", "```{eval-rst}"]
        for name in names:
            out += [directive(name), ""]
        out[-1] = "```"
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        same = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{PAGE} is out of date: run {__file__}")
        return 0 if same else 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
