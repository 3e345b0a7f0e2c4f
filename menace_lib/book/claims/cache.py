"""The ledger's cached results in the book's data folder: which file, which producer, how to
read it.

Heavy computations run once, through :func:`regenerate` (command line:
``python -m menace_lib claims --regenerate NAME``), and the book reads their files.
Tests re-run a small slice of each and compare it with the file.

==================  ==================================  ==============================
name                file                                producer
==================  ==================================  ==============================
``seeds``           ``claims_seeds.json``               :func:`.seeds.many_seeds`
``dynamics``        ``claims_dynamics.json``            :func:`.dynamics.run_dynamics`
``regret``          ``claims_regret.json``              :func:`.regret.regret_curves`
``computational``   ``claims_computational.json``      ``experiments.bench.thesis_figures``
``stress``          ``claims_stress.json``              :func:`.stress.stress_runs`
==================  ==================================  ==============================
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...base.files import book_data, check_header, read_json, write_text
from ...experiments.results import dumps

__all__ = ["CACHES", "DATA_DIR", "cache_path", "load", "regenerate", "save"]

DATA_DIR = book_data()
"""The book's stored results (:func:`menace_lib.base.files.book_data`)."""


def _seeds() -> dict[str, Any]:
    from .seeds import many_seeds

    return many_seeds()


def _dynamics() -> dict[str, Any]:
    from .dynamics import run_dynamics

    return run_dynamics()


def _regret() -> dict[str, Any]:
    from .regret import regret_curves

    return regret_curves()


def _stress() -> dict[str, Any]:
    from .stress import stress_runs

    return stress_runs()


def _computational() -> dict[str, Any]:
    from ...experiments.bench import thesis_figures

    return {"format": "menace_lib.claims.computational", "version": 1, **thesis_figures()}


CACHES: dict[str, tuple[str, str, Callable[[], dict[str, Any]]]] = {
    "seeds": ("claims_seeds.json", "menace_lib.claims.seeds", _seeds),
    "dynamics": ("claims_dynamics.json", "menace_lib.claims.dynamics", _dynamics),
    "regret": ("claims_regret.json", "menace_lib.claims.regret", _regret),
    "computational": (
        "claims_computational.json",
        "menace_lib.claims.computational",
        _computational,
    ),
    "stress": ("claims_stress.json", "menace_lib.claims.stress", _stress),
}
"""name → (file name, format, producer)."""


def _entry(name: str) -> tuple[str, str, Callable[[], dict[str, Any]]]:
    if name not in CACHES:
        raise ValueError(f"unknown cache {name!r}; choose one of {sorted(CACHES)}")
    return CACHES[name]


def cache_path(name: str, data_dir: str | Path = DATA_DIR) -> Path:
    """Where cache ``name`` lives in ``data_dir``."""
    return Path(data_dir) / _entry(name)[0]


def load(name: str, data_dir: str | Path = DATA_DIR) -> dict[str, Any]:
    """Read cache ``name``, checking its format and version."""
    _, fmt, _ = _entry(name)
    path = cache_path(name, data_dir)
    doc = read_json(path, f"claims cache {name!r}")
    check_header(doc, fmt, 1, str(path))
    return doc


def save(name: str, doc: dict[str, Any], data_dir: str | Path = DATA_DIR) -> Path:
    """Write ``doc`` as cache ``name`` (NaN and infinity become null)."""
    _, fmt, _ = _entry(name)
    if doc.get("format") != fmt:
        raise ValueError(f"cache {name!r} must have format {fmt!r}, got {doc.get('format')!r}")
    return write_text(cache_path(name, data_dir), dumps(doc) + "\n")


def regenerate(name: str, data_dir: str | Path = DATA_DIR) -> Path:
    """Recompute cache ``name`` and write it; returns its path."""
    return save(name, _entry(name)[2](), data_dir)
