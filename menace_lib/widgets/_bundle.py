"""Turn the widgets' ES modules into one self-contained module string each.

anywidget loads ``_esm`` from a ``blob:`` URL, against which a relative import such as
``import { explore } from "./efe_math.js"`` cannot resolve (and the static site has no
module server anyway). The widget files stay ordinary ES modules -- node can import them
directly -- and :func:`bundle` replaces every relative named import by the imported
module's code, wrapped in a function so its private names cannot clash::

    import { a, b as c } from "./x.js";
    ->  const { a, b: c } = (() => { <x.js without "export"> ; return { a, b }; })();

Only the subset of ES module syntax these files use is supported: top-level
``export function``/``export const``/``export class`` declarations and named imports of
sibling files. Anything else raises ``ValueError`` naming the file.
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


def _as_function_body(name: str, seen: tuple[str, ...]) -> tuple[str, list[str]]:
    """The code of module ``name`` with its exports made local, and the exported names."""
    source = _inline_imports(name, seen)
    if re.search(r"^export\s+(default|\{|\*)", source, re.M):
        raise ValueError(f"{name}: only 'export function/const/let/class' can be inlined")
    exported = _EXPORT_NAME.findall(source)
    return _EXPORT_DECL.sub("", source), exported


def _inline_imports(name: str, seen: tuple[str, ...]) -> str:
    if name in seen:
        raise ValueError(f"circular import of {name!r} via {' -> '.join(seen)}")
    source = _read(name)

    def replace(match: re.Match[str]) -> str:
        specifiers = [s.strip() for s in match.group(1).split(",") if s.strip()]
        body, exported = _as_function_body(match.group(2), (*seen, name))
        pattern, picked = [], []
        for spec in specifiers:
            original, _, alias = (part.strip() for part in spec.partition(" as "))
            if original not in exported:
                raise ValueError(f"{name}: {match.group(2)} does not export {original!r}")
            picked.append(original)
            pattern.append(f"{original}: {alias}" if alias else original)
        return (
            f"// ---- inlined from {match.group(2)} ----\n"
            f"const {{ {', '.join(pattern)} }} = (() => {{\n{body}\n"
            f"return {{ {', '.join(picked)} }};\n}})();\n"
            f"// ---- end of {match.group(2)} ----"
        )

    result = _IMPORT.sub(replace, source)
    if _OTHER_IMPORT.search(result):
        raise ValueError(f"{name}: only named imports of sibling files can be inlined")
    return result


@cache
def bundle(name: str) -> str:
    """The ES module ``menace_lib/widgets/<name>`` with its sibling imports inlined."""
    return _inline_imports(name, ())


@cache
def stylesheet(name: str = "widgets.css") -> str:
    """A stylesheet shipped next to the widgets."""
    return _read(name)
