"""pytest plugin for the notebook stages: jsonschema without its optional IRI format checker.

``-p no_iri_checker`` (with ``tests`` on ``PYTHONPATH``) is loaded before nbval, whose import
of nbformat imports jsonschema; when ``rfc3987_syntax`` is installed (jsonschema's
``format-nongpl`` extra, which Jupyter brings) jsonschema imports it for its ``iri`` format
checker, and it builds 38 parsers at import: 1.6 CPU-s in every process. Neither nbformat
nor nbval checks a format, and the notebooks run in their own kernels, so those processes
do without it. ``scripts/jupyter_book_cli.py`` does the same for Jupyter Book's builds.
"""

from __future__ import annotations

import sys

sys.modules.setdefault("rfc3987_syntax", None)
