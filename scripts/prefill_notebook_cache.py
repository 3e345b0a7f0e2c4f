"""Run the book's notebooks in parallel into the book build's execution cache.

Usage: ``python scripts/prefill_notebook_cache.py [--jobs N]`` (``make book`` runs it
before ``jupyter-book build``).

``jupyter-book build`` (``execute_notebooks: cache``) runs each changed notebook one
after the other while it reads the pages. This script runs the same notebooks first, N at
a time, with the same executor (jupyter-cache's ``single_nb_execution``, the notebook's
folder as working folder, the timeout of ``_config.yml``, errors not allowed), and stores
them in ``_build/.jupyter_cache``. The build then finds every notebook already executed.
A notebook that fails here is left out of the cache, so the build runs it again and
reports the error in its usual strict way. Unchanged notebooks are not run again. What the
build would otherwise make itself before reading a page, one after the other on one core
(the matchbox kits and the seminar handouts, :func:`side_jobs`), runs in the same pool, and
the build finds it current.

jupyter-cache knows a notebook only by its code cells (and their metadata). What else can
change a notebook's outputs is fingerprinted (:func:`notebook_inputs`): the ``menace_lib``
the kernels import (every file of the package but ``__pycache__`` folders and hidden files),
the book's stored results they read (``book/data``, or the packaged copy an installed wheel
reads), and the Python and the installed distributions the library, the kernel and the
executor need, directly or not (:func:`kernel_distributions`, name and version). Nothing
else is read by the notebooks' code: they run in ``book/`` and read files only through the
library (the book's Sphinx extensions, pages and static files are not read by a kernel).
Left out on purpose: environment variables such as ``MENACE_LIB_COMPILED`` and numpy's CPU
features, and the processor (results must not depend on them: ``make test-baseline``
checks it), the built-tables cache in ``~/.cache/menace_lib`` (derived, keyed by the
library's version), and fonts (they change images only, which are not compared). The
fingerprint the executions were made under is kept beside the cache (:data:`INPUTS_FILE`);
when it is not the current one, every execution in the cache is dropped before anything
runs, so the book is built from executions of the current code and data, and the notebook
tests (``tests/nbval_cached.py``) refuse a cache made under another fingerprint.

``--inputs-stamp FILE`` only writes the current fingerprint into FILE, and only when it
differs from what FILE holds (``make`` rebuilds the book when that file changes).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.metadata
import json
import multiprocessing
import os
import platform
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"
INPUTS_FILE = "menace_notebook_inputs.json"
"""File in the cache folder: the :func:`notebook_inputs` its executions were made under."""


def toc_notebooks(root: Path = ROOT) -> list[Path]:
    """The notebooks ``_toc.yml`` lists (only those are built: ``only_build_toc_files``)."""
    toc = (root / "_toc.yml").read_text(encoding="utf-8")
    names = re.findall(r"^\s*-?\s*(?:file|root):\s*(\S+?)\s*$", toc, re.M)
    paths = [root / f"{name.removesuffix('.ipynb')}.ipynb" for name in names]
    return [p for p in paths if p.is_file()]


def cell_timeout(root: Path = ROOT) -> int:
    """``execute: timeout:`` of ``_config.yml`` (seconds per cell)."""
    config = (root / "_config.yml").read_text(encoding="utf-8")
    match = re.search(r"^execute:\s*\n(?:[ \t]+.*\n)*?[ \t]+timeout:\s*(\d+)", config, re.M)
    if not match:
        raise SystemExit("_config.yml: no execute: timeout: found")
    return int(match.group(1))


def _tree_digest(folder: Path) -> str:
    """SHA-256 over every file under ``folder`` (relative path and contents), except
    ``__pycache__`` folders and hidden files (compiled bytecode and numba's caches)."""
    digest = hashlib.sha256()
    files = sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and not any(
            part == "__pycache__" or part.startswith(".") for part in p.relative_to(folder).parts
        )
    )
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


KERNEL_DISTRIBUTIONS = ("menace-lib", "ipykernel", "nbclient", "jupyter-cache")
"""What the notebooks run on: the library (with its extras), the kernel and the executor."""
TOOL_EXTRAS = ("dev",)
"""The library's extra for its developers' tools (linters, builders): no notebook uses it.
(``test`` stays: it brings pymdp, which the book's cross-check page can run.)"""


def kernel_distributions(roots: tuple[str, ...] = KERNEL_DISTRIBUTIONS) -> list[str]:
    """``name==version`` of every installed distribution ``roots`` need, directly or not.

    The library's requirements with its extras (but :data:`TOOL_EXTRAS`), the kernel's and
    the executor's, and theirs in turn (with the extras each asks for), as installed; a
    tool installed beside them (a linter, a package manager) is not among them, so
    installing one does not make the cached executions stale.
    """
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found: dict[str, str] = {}
    todo: list[tuple[str, set[str] | None]] = [(name, None) for name in roots]
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if key in found:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[key] = dist.version
        if extras is None:  # a root: its extras but the tools'
            extras = set(dist.metadata.get_all("Provides-Extra") or []) - set(TOOL_EXTRAS)
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or any(
                req.marker.evaluate({"extra": extra}) for extra in {"", *extras}
            ):
                todo.append((req.name, set(req.extras)))
    return sorted(f"{key}=={version}" for key, version in found.items())


def notebook_inputs() -> dict[str, str]:
    """What a notebook's outputs depend on besides its code cells: one digest per part.

    Computed in this process, which imports the library the way the kernels do (they run
    with this interpreter and environment, in ``book/``, where no ``menace_lib`` lies).

    Returns
    -------
    dict
        ``{"menace_lib": ..., "book data": ..., "python and packages": ...}`` (hex digests).
    """
    import menace_lib
    from menace_lib.base.files import book_data  # the folder the kernels' library reads

    package = Path(menace_lib.__file__).resolve().parent
    environment = "\n".join([sys.version, platform.machine(), *kernel_distributions()])
    return {
        "menace_lib": _tree_digest(package),
        "book data": _tree_digest(book_data().resolve()),
        "python and packages": hashlib.sha256(environment.encode("utf-8")).hexdigest(),
    }


def stored_inputs(cache_dir: Path = CACHE) -> dict[str, str] | None:
    """The fingerprint the cache's executions were made under (None: none recorded)."""
    try:
        stored = json.loads((cache_dir / INPUTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) else None


def changed_inputs(stored: dict[str, str] | None, current: dict[str, str]) -> list[str]:
    """The parts of ``current`` that ``stored`` does not match (all when none is stored)."""
    if stored is None:
        return list(current)
    return [name for name in current if stored.get(name) != current[name]] + [
        name for name in stored if name not in current
    ]


def drop_stale_executions(cache, cache_dir: Path, current: dict[str, str]) -> int:
    """Drop every execution made under another fingerprint, then record ``current``.

    All the cache's executions share one fingerprint (it is checked before any notebook
    runs), so they are all kept or all dropped. Returns how many were dropped.
    """
    from jupyter_cache.cache.db import NbCacheRecord

    dropped = 0
    if changed_inputs(stored_inputs(cache_dir), current):
        for record in cache.list_cache_records():
            try:
                cache.remove_cache(record.pk)
            except KeyError:  # its notebook file is already gone: drop the row alone
                NbCacheRecord.remove_records([record.pk], cache.db)
            dropped += 1
    (cache_dir / INPUTS_FILE).write_text(
        json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return dropped


def write_stamp(path: Path, current: dict[str, str]) -> bool:
    """Write ``current`` into ``path`` unless it already holds it (its time is then kept)."""
    text = json.dumps(current, indent=1, sort_keys=True) + "\n"
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def _book_extension(name: str):
    """One of the book's Sphinx extensions (``book/_ext``), imported as the build does."""
    folder = str(ROOT / "book" / "_ext")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


def side_jobs(root: Path = ROOT) -> list[str]:
    """What the build would otherwise make itself, one after the other, before it reads a
    page: each stale matchbox kit (``menace_kit_pdf``) and the seminar handouts
    (``seminar_handouts``). They depend on neither the notebooks' executions nor each
    other, so they run here beside the notebooks, on the cores the notebooks leave free at
    times, and the build finds them current (by its own rules) and leaves them."""
    kits = [f"kit {p.name}" for p in _book_extension("menace_kit_pdf").stale_kits(root)]
    handouts = [] if _book_extension("seminar_handouts").current(root) else ["handouts"]
    return kits + handouts


def _run_job(job: object) -> tuple[int, str]:
    """Run one job of the pool: a notebook (jupyter-cache's worker) or a side job."""
    if not isinstance(job, str):
        from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc

        return ExecutionWorkerLocalMProc()(job)
    try:
        if job == "handouts":
            _book_extension("seminar_handouts").write_handouts_into(ROOT)
        else:
            _book_extension("menace_kit_pdf").write_kits_into(ROOT, (job.removeprefix("kit "),))
    except Exception as error:  # left to the build, which makes it again and reports why
        print(f"prefill_notebook_cache: {job} failed: {error}", file=sys.stderr)
        return 1, job
    return 0, job


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks run at once"
    )
    parser.add_argument(
        "--inputs-stamp",
        type=Path,
        metavar="FILE",
        help="only write the notebooks' input fingerprint into FILE (when it changed)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 64:
        parser.error(f"--jobs {args.jobs}: must be between 1 and 64")
    current = notebook_inputs()
    if args.inputs_stamp is not None:
        write_stamp(args.inputs_stamp, current)
        return 0
    from jupyter_cache import get_cache
    from jupyter_cache.executors.basic import ProcessData

    cache = get_cache(str(CACHE))
    stored = stored_inputs(CACHE)
    changed = changed_inputs(stored, current)
    dropped = drop_stale_executions(cache, CACHE, current)
    if dropped:
        made = "with no record of" if stored is None else "under another"
        print(
            f"prefill_notebook_cache: dropped {dropped} executions made {made} {', '.join(changed)}"
        )
    notebooks = [str(p) for p in toc_notebooks()]
    for path in notebooks:
        cache.add_nb_to_project(path)
    todo = cache.list_unexecuted(filter_uris=notebooks)
    side = side_jobs()
    print(
        f"prefill_notebook_cache: {len(todo)} of {len(notebooks)} notebooks to run"
        + (f", and {', '.join(side)}" if side else "")
    )
    if not todo and not side:
        return 0
    timeout = cell_timeout()
    # Largest first, one at a time per process, so the two pools end close together. The
    # side jobs (each about as long as a middling notebook) go after the largest notebook.
    todo.sort(key=lambda r: -Path(r.uri).stat().st_size)
    jobs: list[object] = [ProcessData(r.pk, r.uri, cache, timeout, False) for r in todo]
    jobs[1:1] = side
    with multiprocessing.Pool(min(args.jobs, len(jobs))) as pool:
        codes = list(pool.imap_unordered(_run_job, jobs, chunksize=1))
    failed = sorted(Path(uri).name for code, uri in codes if code != 0)
    cached = sum(code == 0 and uri in notebooks for code, uri in codes)
    print(
        f"prefill_notebook_cache: {cached} cached"
        + (f", left to the build (it reports why): {failed}" if failed else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
