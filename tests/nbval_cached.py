"""pytest plugin: check the book build's own notebook executions against the stored outputs.

Usage (``make test-nb``; ``tests/`` on ``PYTHONPATH``)::

    PYTHONPATH=tests python -m pytest -p nbval_cached --nbval-cached \\
        --nbval-sanitize-with tests/nbval_sanitize.cfg book/*.ipynb

nbval (``--nbval``) runs every notebook again in a fresh kernel and compares each cell
saved with an execution count with its stored outputs. The book build has already run
every notebook the book builds (``scripts/prefill_notebook_cache.py`` and jupyter-book,
into jupyter-cache's ``_build/.jupyter_cache``), in a fresh kernel with ``book/`` as its
working folder, in this environment. This plugin takes those executions instead of a
second run and checks them with nbval's own code: nbval's collector reads the notebook
and each cell's tags and comment markers (``nbval-ignore-output``, ``nbval-skip``,
``raises-exception``, ...), one test per code cell; nbval's ``coalesce_streams`` merges
the streams of both sides; nbval's ``compare_outputs`` applies the sanitize patterns of
``--nbval-sanitize-with`` and skips what nbval skips (images, widget ids, metadata,
execution counts), and nbval reports a difference. Only where the outputs come from
differs: the executed cell in the cache, where nbval reads the kernel's messages.

The two agree where nbval's message loop and nbclient (the book build's executor) record
the same outputs, which is every output but those a cell clears (``clear_output``),
updates in place (a display id) or sends into an ``Output`` widget:
``tests/test_nbval_cached.py`` checks that no notebook (nor the library) does any of
these, and runs both on a small notebook.

Freshness: jupyter-cache matches an execution to a notebook by its code cells only. The
executions must also be of the current library, stored results and environment: the
prefill script records the fingerprint of those (``notebook_inputs``) beside the cache
and drops the executions when it changes. This plugin refuses the cache (one line, "run
make book") when the recorded fingerprint is not the current one, and a notebook whose
code cells have no execution in the cache.

A notebook the book does not build (not listed in ``_toc.yml``) has no execution in the
cache: it is collected by nbval itself and executed in a kernel, as before (give nbval's
kernel options too: ``--nbval-current-env --nbval-cell-timeout=600``).

``--nbval-cached-lax`` is nbval's ``--nbval-lax``: only cells marked to be checked are
compared. ``make test-nb-rerun`` is the old stage (nbval runs every notebook again).
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbval.plugin import IPyNbCell, IPyNbFile, coalesce_streams

ROOT = Path(__file__).resolve().parents[1]


def _load_prefill() -> Any:
    """``scripts/prefill_notebook_cache.py``: owner of the cache's place, of the list of
    notebooks the book builds and of the fingerprint of the notebooks' other inputs."""
    name = "prefill_notebook_cache"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


prefill = _load_prefill()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("nbval")
    group.addoption(
        "--nbval-cached",
        action="store_true",
        help="compare the book build's cached notebook executions with the stored outputs "
        "(nbval's rules, no second run)",
    )
    group.addoption(
        "--nbval-cached-lax",
        action="store_true",
        help="as --nbval-cached, comparing only cells marked to be checked (as --nbval-lax)",
    )


def _active(config: pytest.Config) -> bool:
    return bool(config.option.nbval_cached or config.option.nbval_cached_lax)


def pytest_configure(config: pytest.Config) -> None:
    if _active(config) and (config.option.nbval or config.option.nbval_lax):
        raise pytest.UsageError(
            "--nbval-cached takes the place of nbval's --nbval/--nbval-lax: give one of them"
        )


def cache_dir(config: pytest.Config) -> Path:
    """The book build's jupyter-cache folder under the run's root folder."""
    return config.rootpath / prefill.CACHE.relative_to(prefill.ROOT)


def built_notebooks(config: pytest.Config) -> set[Path]:
    """The notebooks the book builds (``_toc.yml`` of the run's root folder)."""
    return {p.resolve() for p in prefill.toc_notebooks(config.rootpath)}


def pytest_sessionstart(session: pytest.Session) -> None:
    if _active(session.config):
        check_fresh(session.config)


def check_fresh(config: pytest.Config) -> None:
    """Stop the run (one line) unless the cache's executions are of the current inputs."""
    folder = cache_dir(config)
    if not (folder / "global.db").is_file():
        pytest.exit(
            f"no notebook executions at {folder}: run make book",
            returncode=pytest.ExitCode.TESTS_FAILED,
        )
    stored = prefill.stored_inputs(folder)
    changed = prefill.changed_inputs(stored, prefill.notebook_inputs())
    if changed:
        made = "with no record of" if stored is None else "under another"
        pytest.exit(
            f"the notebook executions in {folder} were made {made} "
            f"{', '.join(changed)}: run make book",
            returncode=pytest.ExitCode.TESTS_FAILED,
        )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if not _active(config) or file_path.suffix != ".ipynb":
        return None
    if file_path.resolve() in built_notebooks(config):
        return CachedNotebook.from_parent(parent, path=file_path)
    # Not built by the book, so not in its cache: nbval runs it in a kernel.
    return IPyNbFile.from_parent(parent, path=file_path)


class CachedNotebook(IPyNbFile):
    """nbval's notebook collector, with the book build's execution in place of a kernel."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.compare_outputs = not self.config.option.nbval_cached_lax

    def setup(self) -> None:
        # nbval's setup less the kernel: the sanitize patterns of --nbval-sanitize-with.
        self.setup_sanitize_files()

    def executed_code_cells(self) -> list[nbformat.NotebookNode]:
        """The code cells of the cached execution matching this notebook's code cells."""
        from jupyter_cache import get_cache

        nb = nbformat.read(str(self.path), as_version=4)
        cache = get_cache(str(cache_dir(self.config)))
        try:
            _, merged = cache.merge_match_into_notebook(nb)
        except KeyError:
            raise self.CollectError(
                f"{self.path.name}: the book build has no execution of its current code "
                f"cells in {cache_dir(self.config)}: run make book"
            ) from None
        return [cell for cell in merged.cells if cell.cell_type == "code"]

    def collect(self) -> Iterator[CachedCell]:
        executed = self.executed_code_cells()
        # nbval's collect reads the notebook, each cell's options (tags, comment markers,
        # --nbval-lax) and names the tests "Cell N"; each of its items becomes ours.
        for item in super().collect():
            yield CachedCell.from_parent(
                self,
                name=item.name,
                cell_num=item.cell_num,
                cell=item.cell,
                options=item.options,
                executed=executed[item.cell_num],
            )


class CachedCell(IPyNbCell):
    """nbval's cell test, reading the outputs the book build recorded for the cell."""

    def __init__(
        self,
        name: str,
        parent: CachedNotebook,
        cell_num: int,
        cell: nbformat.NotebookNode,
        options: dict[str, Any],
        executed: nbformat.NotebookNode,
    ) -> None:
        super().__init__(name, parent, cell_num, cell, options)
        self.executed = executed

    def runtest(self) -> None:
        # nbval's IPyNbCell.runtest from the point where the kernel's messages are read;
        # the same checks in the same order, on the recorded outputs.
        if self.options["skip"]:
            pytest.skip()
        outs = [copy.deepcopy(out) for out in self.executed.get("outputs", [])]
        for out in outs:
            if out.output_type == "error" and not self.options["check_exception"]:
                self.raise_cell_error(
                    "Cell execution caused an exception", "\n" + "\n".join(out.traceback)
                )
        outs[:] = coalesce_streams(outs)
        self.test_outputs = outs
        unrun = self.cell.execution_count is None
        if unrun and self.cell.outputs:
            self.raise_cell_error("Unrun reference cell has outputs")
        if (
            self.options["check"]
            and not unrun
            and not self.compare_outputs(outs, coalesce_streams(self.cell.outputs))
        ):
            self.raise_cell_error("Cell outputs differ", "\n".join(self.comparison_traceback))
