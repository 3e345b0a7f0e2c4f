"""The book imports the library one way: ``import menace_lib as ml`` (issue 23).

Every code cell of every notebook in ``book/``, and every Python example in its Markdown
(cells and ``.md`` pages), may import ``menace_lib`` only as ``import menace_lib as ml``;
``from menace_lib...`` and ``import menace_lib.x`` in any form fail.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
PAGES = sorted(BOOK.glob("*.md"))
_FENCE = re.compile(r"^```(?:python|py|ipython3?)\s*\n(.*?)^```", re.M | re.S)


def _python_sources(path: Path) -> list[tuple[str, str]]:
    """(where, source) of every piece of Python in a notebook or a Markdown page."""
    if path.suffix == ".md":
        text = path.read_text(encoding="utf-8")
        return [(f"{path.name} example {i}", m) for i, m in enumerate(_FENCE.findall(text), 1)]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            # IPython magics and shell lines are not Python.
            lines = ["" if s.lstrip().startswith(("%", "!")) else s for s in source.splitlines()]
            out.append((f"{path.name} cell {i}", "\n".join(lines)))
        elif cell["cell_type"] == "markdown":
            out += [(f"{path.name} cell {i} example", m) for m in _FENCE.findall(source)]
    return out


def _bad_imports(source: str) -> list[str]:
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "menace_lib":
            bad.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "menace_lib" and (
                    alias.name != "menace_lib" or alias.asname != "ml"
                ):
                    bad.append(
                        f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
                    )
    return bad


@pytest.mark.parametrize("path", NOTEBOOKS + PAGES, ids=lambda p: p.name)
def test_book_imports_menace_lib_only_as_ml(path):
    problems = [
        f"{where}: {bad}" for where, source in _python_sources(path) for bad in _bad_imports(source)
    ]
    assert not problems, "use `import menace_lib as ml`:\n" + "\n".join(problems)


def test_the_check_catches_every_other_form():
    for form in (
        "from menace_lib import plotting",
        "from menace_lib.machine.menace import Menace",
        "import menace_lib",
        "import menace_lib.games.board as bd",
        "import menace_lib as m",
    ):
        assert _bad_imports(form), form
    assert not _bad_imports("import menace_lib as ml\nml.plotting.use_book_style()")


def test_every_public_module_is_reachable_from_ml():
    import menace_lib as ml

    for name in ("base", "games", "maths", "machine", "play", "agents", "experiments", "book"):
        assert getattr(ml, name).__name__ == f"menace_lib.{name}"
    # A folder's modules too, even when the folder was imported before by someone else.
    for path in (
        "book.plotting",
        "games.board",
        "maths.efe",
        "book.variants.compare",
        "book.claims.findings",
        "widgets.inspector",
    ):
        module = ml
        for part in path.split("."):
            module = getattr(module, part)
        assert module.__name__ == f"menace_lib.{path}"


def test_old_flat_paths_warn_and_give_the_same_module():
    import importlib
    import warnings

    import menace_lib as ml

    for old, new in (
        ("plotting", "menace_lib.book.plotting"),
        ("board", "menace_lib.games.board"),
        ("variants", "menace_lib.book.variants"),
    ):
        with pytest.warns(DeprecationWarning, match=new):
            assert getattr(ml, old) is importlib.import_module(new)
    with pytest.warns(DeprecationWarning, match="menace_lib.book.variants.compare"):
        old = importlib.import_module("menace_lib.variants.compare")
    assert old is importlib.import_module("menace_lib.book.variants.compare")
    assert old.__spec__.name == "menace_lib.book.variants.compare"
    with pytest.warns(DeprecationWarning, match="menace_lib.play.selfplay"):
        from menace_lib.variants.selfplay import selfplay_config  # noqa: F401
    with pytest.warns(DeprecationWarning, match="menace_lib.play.loop.play_game"):
        from menace_lib.games import play_game
    assert play_game is ml.play_game
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import menace_lib.games.board  # noqa: F401  (a new path never warns)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        ml.nonsense  # noqa: B018


@pytest.mark.parametrize(
    ("package", "name", "new"),
    [
        ("menace_lib.machine", "kernel", "menace_lib.machine._kernel"),
        ("menace_lib.agents.aif", "kernel", "menace_lib.agents.aif._kernel"),
    ],
)
def test_private_implementation_modules_answer_to_their_old_names(package, name, new):
    """The compiled kernels are private (``_kernel``); their public names warn for a release."""
    import importlib

    module = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=new):
        assert getattr(module, name) is importlib.import_module(new)


# The namespaces the book reaches the library through: ``ml``'s own names, the folders
# whose modules chapters teach, and the book's own code beside its neighbours. Any other
# library name the book uses is re-exported by ``ml.book`` (menace_lib.book.LIBRARY).
BOOK_NAMESPACES = {"games", "maths", "experiments", "book", "kit", "widgets"}
_NAMESPACE = re.compile(r"\bml\.([a-z_]+)\.")


def _namespaces(source: str) -> set[str]:
    """The library folders ``source`` reaches as ``ml.<folder>.``."""
    import menace_lib as ml

    return {ns for ns in _NAMESPACE.findall(source) if ns in ml._MODULES}


def test_the_book_reaches_the_library_through_a_handful_of_namespaces():
    used: dict[str, set[str]] = {}
    for path in NOTEBOOKS + PAGES:
        for where, source in _python_sources(path):
            for ns in _namespaces(source):
                used.setdefault(ns, set()).add(where)
    outside = {ns: sorted(w)[:3] for ns, w in used.items() if ns not in BOOK_NAMESPACES}
    assert not outside, f"re-export these names from ml or ml.book: {outside}"
    assert len(used) <= len(BOOK_NAMESPACES)


def test_the_namespace_check_can_fail():
    assert _namespaces("ml.base.display.markdown_table(rows)") == {"base"}
    assert _namespaces("ml.markdown_table(ml.games.board.X)") == {"games"}
    assert _namespaces("ml.Menace().play") == set()


def test_the_books_door_to_the_library_hands_over_the_library_objects():
    import importlib

    import menace_lib as ml
    from menace_lib.book import LIBRARY

    for name, module in LIBRARY.items():
        assert getattr(ml.book, name) is getattr(
            importlib.import_module(f"menace_lib.{module}"), name
        )
        assert not module.startswith(("book", "kit", "widgets")), name  # rooms of one floor
    assert "load_checkpoints" in dir(ml.book)
