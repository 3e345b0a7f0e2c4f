"""The ground floor: files written all or nothing, the documented limits, progress bars,
where runs go (this machine or a Dask cluster), reproducibility, 95% intervals, the
Philox generator shared with the widgets, the palette and small display helpers. It
imports nothing else of the library.
"""

from __future__ import annotations

from typing import Any

from ._lazy import submodule_getattr

_submodule = submodule_getattr(__name__, __path__)


def __getattr__(name: str) -> Any:
    """A module of this folder, loaded on first use."""
    return _submodule(name)
