"""Sphinx glue: the matchbox kit PDFs that the page *Build your own MENACE* offers.

At the start of every build, ``menace_lib.kit`` writes Michie's MENACE (287 boxes, one bead
colour per move class) and the reduced kit of its first two moves (13 boxes), each for A4
and for US Letter, into ``_build/kit/`` (git-ignored), unless
the files there are newer than every module of the library (``make book`` has them written
beside the notebooks' executions, by ``scripts/prefill_notebook_cache.py``, so the build
finds them current). The page links them with the
``{download}`` role, which copies them into the site, so the PDFs on the site always come
from the library that built it.
"""

from __future__ import annotations

from pathlib import Path

KITS = {  # file: (paper, MENACE's moves or None for all)
    "menace-kit-a4.pdf": ("a4", None),
    "menace-kit-letter.pdf": ("letter", None),
    "menace-kit-moves-1-2-a4.pdf": ("a4", (1, 2)),
    "menace-kit-moves-1-2-letter.pdf": ("letter", (1, 2)),
}


def _library_time() -> float:
    """When any module of the library last changed (the kit depends on most of them)."""
    import menace_lib

    root = Path(menace_lib.__file__).parent
    return max(p.stat().st_mtime for p in root.rglob("*.py"))


def stale_kits(root: Path) -> list[Path]:
    """The kits under ``root/_build/kit`` that are missing or older than the library."""
    folder = root / "_build" / "kit"
    newest = _library_time()
    paths = [folder / name for name in KITS]
    return [p for p in paths if not p.exists() or p.stat().st_mtime < newest]


def write_kits_into(root: Path, names: tuple[str, ...] | None = None) -> None:
    """Write every stale kit (:func:`stale_kits`) of the book at ``root`` (only those of
    ``names``, file names of :data:`KITS`, when given).

    ``scripts/prefill_notebook_cache.py`` calls it beside the notebooks it runs, so that the
    build that follows finds the kits current and leaves them.
    """
    stale = [p for p in stale_kits(root) if names is None or p.name in names]
    if not stale:
        return
    from menace_lib.kit.noughts import kit_agent, write_kit

    stale[0].parent.mkdir(parents=True, exist_ok=True)
    for path in stale:
        paper, moves = KITS[path.name]
        summary = write_kit(kit_agent(), path, paper, moves=moves)
        print(f"menace_kit_pdf: {summary.labels} labels, {summary.pages} pages -> {path}")


def write_kits(app) -> None:
    write_kits_into(Path(app.srcdir))


def setup(app) -> dict:
    app.connect("builder-inited", write_kits)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
