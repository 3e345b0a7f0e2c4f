"""Sphinx glue: the matchbox kit PDFs that the page *Build your own MENACE* offers.

At the start of every build, ``menace_lib.kit`` writes Michie's MENACE (287 boxes, one bead
colour per move class) and the reduced kit of its first two moves (13 boxes), each for A4
and for US Letter, into ``_build/kit/`` (git-ignored), unless
the files there are newer than every module of the library. The page links them with the
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


def write_kits(app) -> None:
    from menace_lib.kit.noughts import kit_agent, write_kit

    folder = Path(app.srcdir) / "_build" / "kit"
    folder.mkdir(parents=True, exist_ok=True)
    newest = _library_time()
    for name, (paper, moves) in KITS.items():
        path = folder / name
        if not path.exists() or path.stat().st_mtime < newest:
            summary = write_kit(kit_agent(), path, paper, moves=moves)
            print(f"menace_kit_pdf: {summary.labels} labels, {summary.pages} pages -> {path}")


def setup(app) -> dict:
    app.connect("builder-inited", write_kits)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
