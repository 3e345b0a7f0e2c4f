"""Turn the widgets' ES modules into one self-contained module string each.

anywidget loads ``_esm`` from a ``blob:`` URL, against which a relative import such as
``import { explore } from "./efe_math.js"`` cannot resolve (and the static site has no
module server anyway). The widget files stay ordinary ES modules -- node can import them
directly -- and :func:`bundle` puts every sibling module the widget needs, directly or
through another module, once in front of it, each wrapped in a function so its private
names cannot clash, and turns every relative named import into a read of that module::

    const __mod_x = (() => { <x.js without "export"> ; return { a, b }; })();
    import { a, b as c } from "./x.js";  ->  const { a, b: c } = __mod_x;

A module that several others import (``common.js``) is shipped once. Only the subset of
ES module syntax these files use is supported: top-level ``export function``/``export
const``/``export class`` declarations and named imports of sibling files. Anything else
raises ``ValueError`` naming the file.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+\.js)";?[ \t]*$', re.M)
_EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+)?function\b|const\b|let\b|class\b)", re.M)
_EXPORT_NAME = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.M
)
_OTHER_IMPORT = re.compile(r"^\s*import\b(?!\s*\()", re.M)


def _read(name: str) -> str:
    path = HERE / name
    if not path.is_file():
        raise ValueError(f"widget module {name!r} not found in {HERE}")
    return path.read_text(encoding="utf-8")


def _module_name(name: str) -> str:
    """The bundle's name for the object holding sibling module ``name``'s exports."""
    return "__mod_" + re.sub(r"\W", "_", name.removesuffix(".js"))


def _exports(name: str, source: str) -> list[str]:
    """The names module ``name`` exports (only declarations can be inlined)."""
    if re.search(r"^export\s+(default|\{|\*)", source, re.M):
        raise ValueError(f"{name}: only 'export function/const/let/class' can be inlined")
    return _EXPORT_NAME.findall(source)


def _linked(name: str, modules: dict[str, tuple[str, list[str]]], seen: tuple[str, ...]) -> str:
    """Module ``name`` with its imports read from the module objects; its dependencies
    join ``modules`` (name -> (linked code, exports)) first, each once, in import order."""
    if name in seen:
        raise ValueError(f"circular import of {name!r} via {' -> '.join(seen)}")
    source = _read(name)

    def replace(match: re.Match[str]) -> str:
        dependency = match.group(2)
        if dependency not in modules:
            code = _linked(dependency, modules, (*seen, name))
            modules[dependency] = (code, _exports(dependency, code))
        exported = modules[dependency][1]
        pattern = []
        for spec in (s.strip() for s in match.group(1).split(",") if s.strip()):
            original, _, alias = (part.strip() for part in spec.partition(" as "))
            if original not in exported:
                raise ValueError(f"{name}: {dependency} does not export {original!r}")
            pattern.append(f"{original}: {alias}" if alias else original)
        return f"const {{ {', '.join(pattern)} }} = {_module_name(dependency)};"

    result = _IMPORT.sub(replace, source)
    if _OTHER_IMPORT.search(result):
        raise ValueError(f"{name}: only named imports of sibling files can be inlined")
    return result


def _inline_imports(name: str) -> str:
    modules: dict[str, tuple[str, list[str]]] = {}
    entry = _linked(name, modules, ())
    parts = [
        f"// ---- inlined from {dependency} ----\n"
        f"const {_module_name(dependency)} = (() => {{\n{_EXPORT_DECL.sub('', code)}\n"
        f"return {{ {', '.join(exported)} }};\n}})();\n"
        f"// ---- end of {dependency} ----"
        for dependency, (code, exported) in modules.items()
    ]
    return "\n".join([*parts, entry])


@cache
def bundle(name: str) -> str:
    """The ES module ``menace_lib/widgets/<name>`` with its sibling imports inlined once each."""
    return _inline_imports(name)


@cache
def stylesheet(name: str = "widgets.css") -> str:
    """A stylesheet shipped next to the widgets."""
    return _read(name)
