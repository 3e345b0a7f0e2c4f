"""Sphinx extension: refuse to build the book without its vendored browser assets.

MathJax, RequireJS and the widget front ends are served from ``book/_static/vendor/``,
which ``make book`` fills (``npm ci`` + ``scripts/vendor_assets.py``; the folder is not in
git). Without them a plain ``jupyter-book build .`` used to "succeed" into a site with raw
TeX and empty widgets. This extension stops such a build before anything is read, with a
message that says what to run.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

HINT = (
    "run `make book` (it installs the npm packages and copies them into "
    "book/_static/vendor/ before building), or `make assets` and then build again"
)


# Loaded by local-widgets.js rather than named in the configuration; VERSIONS.json is the
# last file scripts/vendor_assets.py writes.
ALSO_REQUIRED = ("vendor/anywidget/index.js", "vendor/VERSIONS.json")


def required_assets(config: Config) -> list[str]:
    """The static files the pages load from the vendor folder (paths under ``_static``)."""
    wanted = [config.mathjax_path, *(getattr(config, "nb_ipywidgets_js", {}) or {})]
    vendored = [p for p in wanted if isinstance(p, str) and p.startswith("vendor/")]
    return vendored + [p for p in ALSO_REQUIRED if p not in vendored]


def missing_assets(confdir: str | Path, config: Config) -> list[Path]:
    """Required vendored files found in none of the ``html_static_path`` folders."""
    folders = [Path(confdir) / p for p in config.html_static_path]
    wanted = required_assets(config)
    found = {a for a in wanted for folder in folders if (folder / a).is_file()}
    home = folders[0] if folders else Path(confdir)
    return [home / a for a in wanted if a not in found]


def check_assets(app: Sphinx, config: Config) -> None:
    """``config-inited`` handler: raise :class:`ConfigError` if an asset is missing."""
    missing = missing_assets(app.confdir, config)
    if missing:
        listed = ", ".join(str(p) for p in missing)
        raise ConfigError(f"the book's vendored browser assets are missing ({listed}): {HINT}")


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", check_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
