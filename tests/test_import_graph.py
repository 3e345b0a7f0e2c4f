"""No import circles between the library's modules (top-level, lazy and type-only imports)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "menace_lib"


def _modules() -> dict[str, Path]:
    out = {}
    for f in ROOT.rglob("*.py"):
        parts = f.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = f
    return out


def _graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for c in (target, *(f"{target}.{a.name}" for a in node.names)):
                parent_package = c == m.rsplit(".", 1)[0]  # a module importing its package
                if c in mods and c != m and not parent_package:
                    graph[m].add(c)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circles():
    assert _cycles(_graph(_modules())) == []


def test_the_detector_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


# The library's folders by layer, from the ground up (menace_lib/__init__.py says what each
# holds). A module may import its own folder and the folders below it, never one above.
# ``schemas`` and the top-level private modules are resources of the ground floor.
LAYERS = (
    ("base", "schemas", "_moved"),
    ("games",),
    ("maths",),
    ("machine",),
    ("play",),
    ("agents",),
    ("experiments",),
    ("interop",),
    ("book", "kit", "widgets"),
    ("cli", "__main__"),
)


def _floor(module: str) -> int | None:
    """The floor of a module (``menace_lib.games.board`` -> 1); None for the package face."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    for i, wing in enumerate(LAYERS):
        if parts[1] in wing:
            return i
    raise AssertionError(f"{module} lies in no folder of LAYERS: add its folder to one")


def _upward_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for m, targets in graph.items():
        fm = _floor(m)
        for t in targets:
            ft = _floor(t)
            if fm is None or ft is None:
                continue
            # Rooms on one floor (book, kit, widgets) may not import each other either.
            same_floor_other_wing = ft == fm and m.split(".")[1] != t.split(".")[1]
            if ft > fm or (same_floor_other_wing and fm == len(LAYERS) - 2):
                found.append(f"{m} -> {t}")
    return sorted(found)


def test_every_module_lives_in_a_layer_folder():
    for m in _modules():
        _floor(m)


def test_no_folder_imports_a_folder_above_it():
    assert _upward_imports(_graph(_modules())) == []


def test_the_layer_check_finds_an_upward_import():
    graph = {
        "menace_lib.games.board": {"menace_lib.play.loop"},
        "menace_lib.play.loop": {"menace_lib.games.board"},
        "menace_lib.kit.noughts": {"menace_lib.book.plotting"},
    }
    assert _upward_imports(graph) == [
        "menace_lib.games.board -> menace_lib.play.loop",
        "menace_lib.kit.noughts -> menace_lib.book.plotting",
    ]


def test_every_relative_import_names_a_module_that_exists():
    """A module moved between folders keeps no relative import of its old neighbours
    (a lazy one inside a function fails only when that function runs)."""
    mods = _modules()
    missing = []
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if target not in mods:
                    missing.append(f"{m}:{node.lineno} imports {target}")
    assert missing == []
