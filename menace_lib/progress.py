"""Progress bars: one switch, on by default at a terminal.

Long work (a sweep's runs, a tuning run's evaluations, regenerating a cache) shows a
tqdm bar on standard error when progress is on. The command line turns it on with
``--progress`` (the default when standard error is a terminal) and off with
``--no-progress``, for the whole command, through :func:`showing`; library calls that
take ``progress=None`` follow that switch, and an explicit ``True``/``False`` wins.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

__all__ = ["bar", "enabled", "showing", "steps"]

T = TypeVar("T")

_SHOWING: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "menace_lib_progress", default=False
)


@contextlib.contextmanager
def showing(on: bool) -> Iterator[None]:
    """Turn progress bars on or off inside the block.

    Examples
    --------
    >>> from menace_lib import progress
    >>> with progress.showing(True):
    ...     progress.enabled()
    True
    """
    token = _SHOWING.set(bool(on))
    try:
        yield
    finally:
        _SHOWING.reset(token)


def enabled(progress: bool | None = None) -> bool:
    """``progress`` if given, else the switch set by :func:`showing` (off by default)."""
    return _SHOWING.get() if progress is None else bool(progress)


class _NoBar:
    """A bar that shows nothing (progress off)."""

    def update(self, n: int = 1) -> None:
        """Count ``n`` more steps (ignored)."""

    def close(self) -> None:
        """Close the bar (nothing to do)."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def bar(total: int, desc: str, *, unit: str = "run", progress: bool | None = None) -> Any:
    """A tqdm bar on standard error, or one that shows nothing when progress is off."""
    if not enabled(progress):
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)


def steps(
    items: Iterable[T], desc: str, *, total: int | None = None, unit: str = "step"
) -> Iterator[T]:
    """``items``, one bar step each (when progress is on)."""
    items = list(items) if total is None else items
    count = total if total is not None else len(items)  # type: ignore[arg-type]
    with bar(count, desc, unit=unit) as b:
        for item in items:
            yield item
            b.update(1)
