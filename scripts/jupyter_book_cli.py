"""Jupyter Book's command line (``python scripts/jupyter_book_cli.py build .``), as ``make
book`` runs it: from the Python it is started with, whatever ``jupyter-book`` is first on PATH,
with the working folder first on the import path (as ``python -c``, not this script's
folder), and without jsonschema's optional IRI format checker.

Jupyter Book imports jsonschema, which imports ``rfc3987_syntax`` for its ``iri`` format
checker when that is installed (jsonschema's ``format-nongpl`` extra, which Jupyter brings);
it builds 38 parsers at import, 1.6 CPU-s in every build. Nothing in the build checks a
format, so it is not imported. (The notebook stages' pytest processes do the same with the
plugin ``tests/no_iri_checker.py``.)
"""

from __future__ import annotations

import sys

sys.modules.setdefault("rfc3987_syntax", None)

if __name__ == "__main__":
    # The working folder first, as `python -c` puts it, not this folder: a script here
    # named like a module the build imports would be imported instead.
    sys.path[0] = ""
    from jupyter_book.cli.main import main

    sys.argv[0] = "jupyter-book"
    sys.exit(main())
