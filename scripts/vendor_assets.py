"""Copy the third-party browser assets into ``book/_static/vendor/``.

The built book must not request anything from another host, so MathJax, RequireJS,
the ipywidgets HTML manager and anywidget's front end are served from ``_static/vendor/``.
They come from npm (``package.json`` + ``package-lock.json``, installed by ``npm ci``)
except anywidget's AMD module, which is taken from the installed ``anywidget`` Python
package so that the front end always matches the Python side's protocol version.

Usage: ``python scripts/vendor_assets.py`` (run by ``make assets``). See docs/STATIC_WIDGETS.md.
"""

from __future__ import annotations

import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "book" / "_static" / "vendor"


def _npm_version(pkg: str) -> str:
    return json.loads((NODE / pkg / "package.json").read_text())["version"]


def _copy_tree(src: Path, dst: Path, skip_suffixes: tuple[str, ...] = ()) -> None:
    if not src.is_dir():
        sys.exit(f"vendor_assets: missing {src} (did `npm ci` run?)")
    shutil.copytree(
        src,
        dst,
        ignore=lambda _d, names: [n for n in names if n.endswith(skip_suffixes)],
        dirs_exist_ok=True,
    )


def _copy_file(src: Path, dst: Path) -> None:
    if not src.is_file():
        sys.exit(f"vendor_assets: missing {src} (did `npm ci` / `pip install` run?)")
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def main() -> None:
    if VENDOR.exists():
        shutil.rmtree(VENDOR)
    VENDOR.mkdir(parents=True)

    # MathJax 3: the whole es5/ tree (combined components + lazily loaded extensions + fonts),
    # minus latest.js, whose only job is to fetch "the latest MathJax" from a CDN.
    _copy_tree(NODE / "mathjax" / "es5", VENDOR / "mathjax", skip_suffixes=("latest.js",))

    # RequireJS (AMD loader used by the ipywidgets embedder).
    _copy_file(NODE / "requirejs" / "require.js", VENDOR / "require" / "require.js")

    # @jupyter-widgets/html-manager: embed-amd.js plus the Font Awesome files it references
    # (webpack assets resolved against window.__jupyter_widgets_assets_path__).
    hm = NODE / "@jupyter-widgets" / "html-manager" / "dist"
    _copy_file(hm / "embed-amd.js", VENDOR / "html-manager" / "embed-amd.js")
    for f in sorted(hm.iterdir()):
        if f.suffix in {".woff", ".woff2", ".ttf", ".eot", ".svg"}:
            _copy_file(f, VENDOR / "html-manager" / f.name)

    # anywidget: the AMD build shipped in the Python package
    # (define(["@jupyter-widgets/base"], ...)), so front end and Python side always match.
    import anywidget

    aw = Path(anywidget.__file__).parent / "nbextension" / "index.js"
    _copy_file(aw, VENDOR / "anywidget" / "index.js")

    versions = {
        "mathjax": _npm_version("mathjax"),
        "requirejs": _npm_version("requirejs"),
        "@jupyter-widgets/html-manager": _npm_version("@jupyter-widgets/html-manager"),
        "anywidget (python package)": metadata.version("anywidget"),
    }
    (VENDOR / "VERSIONS.json").write_text(json.dumps(versions, indent=2) + "\n")
    n = sum(1 for p in VENDOR.rglob("*") if p.is_file())
    print(f"vendor_assets: {n} files in {VENDOR.relative_to(ROOT)}: {versions}")


if __name__ == "__main__":
    main()
