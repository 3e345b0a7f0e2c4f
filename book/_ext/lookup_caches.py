"""Sphinx extension: two lookups the build repeated for every reference, made once.

Measured in a profile of the book's build (cProfile of ``jupyter-book build``), each was a
tenth of the build's CPU time or near it, and neither changes a byte of the site:

* **pybtex's plugins.** sphinxcontrib-bibtex asks pybtex for its style plugins at every
  citation it resolves (118 in the book), and pybtex looks each one up in the entry points
  of every installed distribution (``importlib.metadata.entry_points``), reading all their
  metadata again each time. The installed distributions do not change during a build, so
  their entry points are read once and selected from (the same classes are found).
* **Doctrees behind numbered references.** Sphinx resolves each ``{numref}`` (114 in the
  book: "Book fig. 3.1") by unpickling the whole doctree of the page the figure is on, to
  read the figure's node type and id. Once pages are read the stored doctrees do not
  change, so each page's is unpickled once per process and shared by the lookups, which
  only read it. The cache starts empty when the pages have been read (``env-updated``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import weakref
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment


@functools.cache
def _installed_entry_points() -> importlib.metadata.EntryPoints:
    """Every installed distribution's entry points, read once per process."""
    return importlib.metadata.entry_points()


def _entry_points(**params: Any) -> Any:
    """``importlib.metadata.entry_points(**params)``, the distributions read once."""
    return _installed_entry_points().select(**params)


_DOCTREES: weakref.WeakKeyDictionary[BuildEnvironment, dict[str, nodes.document]] = (
    weakref.WeakKeyDictionary()
)
_resolve_numref_xref = StandardDomain._resolve_numref_xref


class _SharedDoctrees:
    """The environment as ``_resolve_numref_xref`` sees it: ``get_doctree`` answers from
    the per-environment cache, everything else is the environment's own."""

    def __init__(self, env: BuildEnvironment) -> None:
        self._env = env
        self._trees = _DOCTREES.setdefault(env, {})

    def get_doctree(self, docname: str) -> nodes.document:
        tree = self._trees.get(docname)
        if tree is None:
            tree = self._trees[docname] = self._env.get_doctree(docname)
        return tree

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


def _numref_from_shared_doctrees(
    self: StandardDomain, env: BuildEnvironment, *args: Any, **kwargs: Any
) -> Any:
    return _resolve_numref_xref(self, _SharedDoctrees(env), *args, **kwargs)


def _forget_doctrees(app: Sphinx, env: BuildEnvironment) -> None:
    _DOCTREES.pop(env, None)


def setup(app: Sphinx) -> dict:
    import pybtex.plugin

    pybtex.plugin.entry_points = _entry_points
    StandardDomain._resolve_numref_xref = _numref_from_shared_doctrees  # type: ignore[method-assign]
    app.connect("env-updated", _forget_doctrees)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
