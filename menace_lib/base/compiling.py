"""When a run is played by a compiled (numba) kernel: the one owner of that decision.

Two kernels copy a Python owner game for game: MENACE's matchbox engine
(:mod:`menace_lib.machine._kernel`) and the Instrumental/Hybrid Active Inference training
(:mod:`menace_lib.agents.aif._kernel`). A compiled run is faster per game but pays, once
per process, numba's import and either loading the kernel from numba's on-disk cache or
compiling it (much dearer). A short run cannot win that back, a long one wins it many
times over, so the decision is made by expected work, not by the board's size:

* the Python path costs ``games × plies × python_us``;
* the compiled path costs ``import_s + (load_s if cached else compile_s)
  + positions × setup_us + games × plies × compiled_us``;

and the cheaper one is taken (``plies`` is the game's longest game, a bound on its
moves; ``positions`` the game's positions, what the per-run conversion to flat arrays
walks, and what the per-ply costs grow with). The constants are measured
(``python -m menace_lib bench --compile``, and the table in ``docs/PERFORMANCE.md``).

``MENACE_LIB_COMPILED=0`` (the command line's ``--no-compile``) forces the Python path,
``=1`` the compiled one whatever the work (the parity tests use both). Without numba
(``pip install menace_lib[fast]``) everything runs in Python, with the same numbers.
The decision never reads what this process has already loaded, so the same call takes
the same path in any process on the same installation.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ENV = "MENACE_LIB_COMPILED"
"""``0``: always the Python path; ``1``: always the compiled one (when numba imports)."""


@dataclass(frozen=True)
class KernelCosts:
    """One kernel's measured CPU costs (seconds and microseconds of one core)."""

    python_us: float
    """Python path, per game and ply of the game's longest game."""
    compiled_us: float
    """Compiled path, per game and ply."""
    load_s: float
    """Loading the compiled kernel from numba's cache (numba already imported)."""
    compile_s: float
    """Compiling it with an empty cache (numba already imported)."""
    setup_us: float
    """Per position of the game, once per compiled run (flat arrays in and out)."""
    measured_on: int = 5_478
    """Positions of the game ``python_us`` and ``compiled_us`` were measured on."""
    large: tuple[int, float, float] | None = None
    """``(positions, python_us, compiled_us)`` measured on a larger game: per-ply costs
    grow with the game (its lists outgrow the processor's caches), so between the two
    games they are interpolated on the logarithm of the positions, and held outside."""

    def per_ply_us(self, positions: int) -> tuple[float, float]:
        """Python and compiled microseconds per game and ply on a game of ``positions``."""
        if self.large is None:
            return self.python_us, self.compiled_us
        big, big_python, big_compiled = self.large
        span = math.log(big) - math.log(self.measured_on)
        t = min(max((math.log(max(positions, 1)) - math.log(self.measured_on)) / span, 0.0), 1.0)
        return (
            self.python_us + t * (big_python - self.python_us),
            self.compiled_us + t * (big_compiled - self.compiled_us),
        )


IMPORT_S = 0.29
"""``import numba`` in a fresh process (CPU seconds; the wall clock is longer on a cold or
busy machine, but the decision weighs CPU, as the costs below are)."""

COSTS = {
    "menace": KernelCosts(
        python_us=0.345,
        compiled_us=0.022,
        load_s=0.47,
        compile_s=1.93,
        setup_us=0.25,  # remeasured at load 0.3-0.5 after the layouts became flat arrays
        large=(161_029, 1.286, 0.153),  # Connect-4 4x4
    ),
    "aif": KernelCosts(
        python_us=11.4,
        compiled_us=0.21,
        load_s=0.32,
        compile_s=6.6,
        setup_us=6.2,
        large=(161_029, 43.9, 2.95),  # Instrumental AIF on Connect-4 4x4
    ),
}
"""Measured by ``python -m menace_lib bench --compile`` on the project's 2-core machine,
2026-11-29, load average 13-21 (AIF on Connect-4 4x4: load 17); MENACE's ``setup_us`` again
at 18:41, load 0.3-0.5, after the machine's per-position data became flat arrays (0.83 on the
tuples). See ``docs/PERFORMANCE.md``, "When to compile"."""


PYTHON_MAX_POSITIONS = 5_000_000
"""Above this many positions a run is compiled whenever numba is installed, however short:
the Python path reads per-position tuples (about 300 bytes a position, built on first
use from the arrays the compiled path reads), which on Connect-4 5×5 against the perfect
player (21.7 million positions) would need gigabytes. No game of the thesis or of the
scaling sweep is that large (5×4 has 3.9 million), so their paths are decided by work."""


def forced() -> bool | None:
    """``False``/``True`` when :data:`ENV` forces a path, ``None`` when the work decides."""
    flag = os.environ.get(ENV, "")
    if flag not in ("", "0", "1"):
        raise ValueError(f"{ENV}={flag!r}: use 0 (Python), 1 (compiled) or leave it unset")
    return None if flag == "" else flag == "1"


@cache
def available() -> bool:
    """Whether numba is installed (an optional dependency), found without importing it:
    the import is itself a cost the decision weighs."""
    return importlib.util.find_spec("numba") is not None


def cache_dir(py_func: Any) -> Path:
    """Where numba keeps the compiled ``py_func`` (its locators' order, without importing
    numba): ``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the source when writable,
    else the user's cache directory."""
    source = Path(py_func.__code__.co_filename).resolve()
    sub = f"{source.parent.name}_{hashlib.sha1(str(source.parent).encode()).hexdigest()}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / sub
    if os.access(source.parent, os.W_OK):
        return source.parent / "__pycache__"
    user = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(user) / "numba" / sub


def cached(py_func: Any) -> bool:
    """Whether numba's cache holds an index for ``py_func`` as it stands (same file,
    same first line, same Python). An index whose source changed on the same line
    counts as present: that run pays the compile once and refreshes it."""
    source = Path(py_func.__code__.co_filename)
    name = (
        f"{source.stem}.{py_func.__qualname__}-{py_func.__code__.co_firstlineno}"
        f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi"
    )
    return (cache_dir(py_func) / name).is_file()


def expected_seconds(
    kernel: str, games: int, plies: int, positions: int, is_cached: bool
) -> tuple[float, float]:
    """Expected CPU seconds of a run on the Python path and on the compiled path."""
    c = COSTS[kernel]
    python_us, compiled_us = c.per_ply_us(positions)
    work = games * max(plies, 1) * 1e-6
    first = IMPORT_S + (c.load_s if is_cached else c.compile_s)
    return work * python_us, first + positions * c.setup_us * 1e-6 + work * compiled_us


def break_even_games(kernel: str, plies: int, positions: int, is_cached: bool) -> int:
    """The fewest games for which the compiled path is expected to be cheaper."""
    python_us, compiled_us = COSTS[kernel].per_ply_us(positions)
    python_s, compiled_s = expected_seconds(kernel, 0, plies, positions, is_cached)
    per_game = max(plies, 1) * (python_us - compiled_us) * 1e-6
    return int((compiled_s - python_s) // per_game) + 1


def use_compiled(kernel: str, games: int, plies: int, positions: int, py_func: Any) -> bool:
    """Whether a run of ``games`` games should be played by the compiled ``kernel``
    (``"menace"`` or ``"aif"``; ``py_func`` is its Python source, for the cache check)."""
    force = forced()
    if force is False or not available():
        return False
    if force or positions > PYTHON_MAX_POSITIONS:
        return True
    python_s, compiled_s = expected_seconds(kernel, games, plies, positions, cached(py_func))
    return compiled_s < python_s


__all__ = [
    "COSTS",
    "ENV",
    "IMPORT_S",
    "KernelCosts",
    "PYTHON_MAX_POSITIONS",
    "available",
    "break_even_games",
    "cached",
    "expected_seconds",
    "forced",
    "use_compiled",
]
