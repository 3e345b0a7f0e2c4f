"""Modules reachable as attributes: ``ml.variants.compare`` after ``import menace_lib as ml``.

The book imports the library one way, ``import menace_lib as ml``, and reaches every public
module through attributes. A package that is already imported (by another module, say)
still lacks the attributes of its submodules that nobody has imported yet;
:func:`submodule_getattr` gives such a package a module-level ``__getattr__`` (PEP 562) that
imports a public submodule on first use.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from types import ModuleType
from typing import Any


def public_submodules(path: list[str] | tuple[str, ...]) -> frozenset[str]:
    """Names of the public modules and packages in a package's ``__path__``."""
    return frozenset(m.name for m in pkgutil.iter_modules(path) if not m.name.startswith("_")) - {
        "__main__"
    }


def submodule_getattr(package: str, path: list[str]) -> Callable[[str], ModuleType]:
    """A PEP 562 ``__getattr__`` for ``package`` that imports its public submodules lazily."""
    names = public_submodules(path)

    def module_getattr(name: str) -> Any:
        if name in names:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return module_getattr


def folder_getattr(package: str, path: list[str]) -> Callable[[str], Any]:
    """A folder's PEP 562 ``__getattr__``: its public modules loaded on first use, then
    the names its old flat path had (:func:`menace_lib._moved.old_attribute`, one release)."""
    from .._moved import old_attribute  # ground floor, like this module

    submodule = submodule_getattr(package, path)

    def folder_attribute(name: str) -> Any:
        try:
            return submodule(name)
        except AttributeError:
            return old_attribute(package, name)

    return folder_attribute
