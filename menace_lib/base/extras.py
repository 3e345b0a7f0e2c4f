"""The optional parts of the library, and the one message that names a missing one.

The library alone (the site's wheel, or ``pip install -e .`` in a checkout) is the core:
every computation and the command line's ``states``, ``train``, ``evaluate``, ``play``,
``experiment``, ``tournament``, ``bench``, ``claims`` and ``tune-priors``. The rest comes
with an extra:

==============  ==============================  =========================================
extra           packages                        for
==============  ==============================  =========================================
``plots``       matplotlib                      figures (:mod:`menace_lib.book.plotting`), ``kit``
``widgets``     anywidget, ipywidgets           the book's widgets (:mod:`menace_lib.widgets`)
``dask``        dask, distributed               sweeps on a cluster (``--scheduler``)
``fast``        numba                           the compiled engine for big games
``openspiel``   open-spiel                      OpenSpiel's games and searchers
                                                (:mod:`menace_lib.interop`)
``pettingzoo``  pettingzoo[classic], shimmy     PettingZoo environments
                                                (:mod:`menace_lib.interop.pettingzoo`)
``interop``     openspiel, pettingzoo           both
``notebooks``   plots, widgets, JupyterLab      running the book's notebooks
``book``        notebooks, dask, Jupyter Book   building the book
==============  ==============================  =========================================

``fast`` is never required: without numba, big games run in the plain engine with the
same numbers (:mod:`menace_lib.machine._kernel`).

:func:`require` checks before a module is imported; :func:`missing_extra` turns the
:class:`ModuleNotFoundError` of an optional package into a :class:`MissingExtraError`
with the one-line message (the command line prints it, with no traceback).
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "MissingExtraError", "missing_extra", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "plots": ("matplotlib",),
    "widgets": ("anywidget", "ipywidgets", "traitlets"),
    "dask": ("dask", "distributed"),
    # Before its parts, so that a missing module is named with its own extra.
    "interop": ("pyspiel", "pettingzoo", "shimmy"),
    "openspiel": ("pyspiel",),
    "pettingzoo": ("pettingzoo", "shimmy"),
}
"""extra → the top-level modules it installs."""

_EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


class MissingExtraError(ModuleNotFoundError):
    """An optional package is not installed; the message names the extra to install.

    Examples
    --------
    >>> from menace_lib.base.extras import MissingExtraError
    >>> str(MissingExtraError("dask", "a Dask scheduler"))
    'a Dask scheduler needs dask, which is not installed: pip install "menace_lib[dask]"'
    """

    def __init__(self, extra: str, what: str, module: str | None = None) -> None:
        module = module or EXTRAS[extra][0]
        super().__init__(
            f'{what} needs {module}, which is not installed: pip install "menace_lib[{extra}]"',
            name=module,
        )
        self.extra = extra


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` unless every package of ``extra`` is installed.

    Parameters
    ----------
    extra
        A key of :data:`EXTRAS` (``"plots"``, ``"widgets"``, ``"dask"``, ``"openspiel"``
        or ``"pettingzoo"``).
    what
        What needs it, for the message (``"--scheduler"``, ``"the kit"``).

    Raises
    ------
    MissingExtraError
        Naming the first missing package and the extra that installs it.
    ValueError
        If ``extra`` is not one of :data:`EXTRAS`.

    Examples
    --------
    >>> from menace_lib.base.extras import require
    >>> require("plots", "a figure")  # silent when matplotlib is installed
    """
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; choose one of {sorted(EXTRAS)}")
    for module in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a broken or blocked install counts as missing
            found = False
        if not found:
            raise MissingExtraError(extra, what, module)


def missing_extra(err: ModuleNotFoundError, what: str) -> MissingExtraError | None:
    """The :class:`MissingExtraError` for ``err`` if an extra installs its module, else None.

    Parameters
    ----------
    err
        A failed import.
    what
        What needed it, for the message (a command: ``"kit"``).

    Returns
    -------
    MissingExtraError or None
        ``err`` itself if it already is one; ``None`` if the module belongs to no extra
        (a real error, to be reported as it is).

    Examples
    --------
    >>> from menace_lib.base.extras import missing_extra
    >>> str(missing_extra(ModuleNotFoundError("x", name="matplotlib.pyplot"), "kit"))
    'kit needs matplotlib, which is not installed: pip install "menace_lib[plots]"'
    """
    if isinstance(err, MissingExtraError):
        return err
    module = (err.name or "").partition(".")[0]
    extra = _EXTRA_OF.get(module)
    return None if extra is None else MissingExtraError(extra, what, module)
