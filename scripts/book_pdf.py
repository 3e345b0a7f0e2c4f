"""The whole book as one PDF, offline: ``make pdf``.

1. Still pictures of the widgets from the built site (``scripts/widget_stills.py``; skipped
   with ``--no-stills``, and then each widget prints its text summary and its link).
2. Jupyter Book's LaTeX builder on the book's own configuration (the pages as the HTML
   build of ``make book`` read them, from its Sphinx environment, and so the same notebook
   execution cache; ``book/_ext/print_edition.py`` and
   ``theme_figures.py`` make the print edition: a title page with the version and the
   licence, every figure once in its light drawing, widgets as stills with a link).
3. XeLaTeX through the Makefile Sphinx writes (latexmk, xindy), with Debian's TeX Live.
4. The PDF is copied to ``_build/pdf/menace-book.pdf`` and, when the site is built, to
   ``_build/html/downloads/menace-book.pdf`` (the page *How to use this book* links it).

Usage: ``python scripts/book_pdf.py [--no-stills] [--tex-only] [--fresh-env]``;
``--tex-only`` stops after step 2 (the ``.tex`` file that ``tests/test_seminar.py`` reads);
``--fresh-env`` reads every page again instead of reusing the HTML build's environment.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
LATEX = BUILD / "latex"
PDF = BUILD / "pdf" / "menace-book.pdf"
SITE_COPY = BUILD / "html" / "downloads" / "menace-book.pdf"
TEX_NAME = "menace-book"
# Jupyter Book's command line, as the Makefile's JB runs it (without jsonschema's optional
# IRI format checker: the script says why).
JB = ROOT / "scripts" / "jupyter_book_cli.py"


def latex_build(config: str | None = None, fresh: bool = False) -> Path:
    """Run the LaTeX builder; return the .tex file.

    The LaTeX builder reads the book from the environment the HTML build left in
    ``_build/.doctrees``: Sphinx's doctrees do not depend on the output format (myst-nb keeps
    every output's formats and picks one per builder when it resolves; the dark and narrow
    twins of a figure are added when a page is read and dropped from a LaTeX page when it is
    resolved, ``theme_figures.drop_dark_twins``), and Sphinx re-reads any page whose source
    or configuration changed since. Reading the book again took a third of this build's CPU
    and wrote the same ``.tex``, byte for byte. ``fresh`` (or another configuration) starts
    from an empty environment, as every build did before.
    """
    if fresh or config:
        shutil.rmtree(BUILD / ".doctrees", ignore_errors=True)
    shutil.rmtree(LATEX, ignore_errors=True)
    cmd = [sys.executable, str(JB), "build", ".", "--builder", "latex", "--keep-going", "-W"]
    if config:
        cmd += ["--config", config]
    subprocess.run(cmd, cwd=ROOT, check=True)
    tex = LATEX / f"{TEX_NAME}.tex"
    if not tex.exists():
        raise SystemExit(f"book_pdf: the LaTeX build wrote no {tex}")
    return tex


def typeset(latex: Path = LATEX) -> Path:
    if shutil.which("xelatex") is None or shutil.which("latexmk") is None:
        raise SystemExit(
            "book_pdf: xelatex, latexmk and xindy are needed (`make tex`, or Debian: apt-get "
            "install texlive-xetex texlive-latex-extra latexmk xindy fonts-freefont-otf)"
        )
    log = latex / "make.log"
    with log.open("w") as out:
        done = subprocess.run(
            # -xelatex: each pass writes XDV and xdvipdfmx makes the PDF once, at the end
            # (latexmk's -pdf, Sphinx's default, had XeLaTeX write the whole PDF every pass).
            ["make", "-C", str(latex), "all-pdf", "LATEXMKOPTS=-silent -xelatex"],
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"book_pdf: XeLaTeX failed; see {log} and {latex / TEX_NAME}.log")
    return latex / f"{TEX_NAME}.pdf"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-stills", action="store_true", help="no widget pictures")
    parser.add_argument("--tex-only", action="store_true", help="stop after the .tex file")
    parser.add_argument("--config", help="another _config.yml (e.g. without execution)")
    parser.add_argument(
        "--fresh-env",
        action="store_true",
        help="read every page again (by default the HTML build's environment is reused)",
    )
    args = parser.parse_args(argv)
    start = time.time()
    if not args.no_stills:
        import widget_stills

        if (BUILD / "html" / "index.html").exists():
            widget_stills.take(BUILD / "html", BUILD / "stills")
        else:
            print("book_pdf: no built site, so no widget stills (run `make book` first)")
    tex = latex_build(args.config, fresh=args.fresh_env)
    print(f"book_pdf: {tex} ({tex.stat().st_size / 1e6:.1f} MB) in {time.time() - start:.0f} s")
    if args.tex_only:
        return 0
    pdf = typeset()
    PDF.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdf, PDF)
    if SITE_COPY.parent.parent.exists():
        SITE_COPY.parent.mkdir(exist_ok=True)
        shutil.copyfile(pdf, SITE_COPY)
    print(f"book_pdf: {PDF} in {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
