"""Run the book's notebooks in parallel into the book build's execution cache.

Usage: ``python scripts/prefill_notebook_cache.py [--jobs N]`` (``make book`` runs it
before ``jupyter-book build``).

``jupyter-book build`` (``execute_notebooks: cache``) runs each changed notebook one
after the other while it reads the pages. This script runs the same notebooks first, N at
a time, with the same executor (jupyter-cache's ``single_nb_execution``, the notebook's
folder as working folder, the timeout of ``_config.yml``, errors not allowed), and stores
them in ``_build/.jupyter_cache``. The build then finds every notebook already executed.
A notebook that fails here is left out of the cache, so the build runs it again and
reports the error in its usual strict way. Unchanged notebooks are not run again.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks run at once"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 64:
        parser.error(f"--jobs {args.jobs}: must be between 1 and 64")
    from jupyter_cache import get_cache
    from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc, ProcessData

    cache = get_cache(str(CACHE))
    notebooks = [str(p) for p in toc_notebooks()]
    for path in notebooks:
        cache.add_nb_to_project(path)
    todo = cache.list_unexecuted(filter_uris=notebooks)
    print(f"prefill_notebook_cache: {len(todo)} of {len(notebooks)} notebooks to run")
    if not todo:
        return 0
    timeout = cell_timeout()
    # Largest first, one at a time per process, so the two pools end close together.
    todo.sort(key=lambda r: -Path(r.uri).stat().st_size)
    jobs = [ProcessData(r.pk, r.uri, cache, timeout, False) for r in todo]
    with multiprocessing.Pool(min(args.jobs, len(jobs))) as pool:
        codes = list(pool.imap_unordered(ExecutionWorkerLocalMProc(), jobs, chunksize=1))
    failed = sorted(Path(uri).name for code, uri in codes if code != 0)
    print(
        f"prefill_notebook_cache: {len(codes) - len(failed)} cached"
        + (f", left to the build (it reports why): {failed}" if failed else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
