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
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

__all__ = ["bar", "counting_games", "enabled", "game_ticker", "showing", "steps"]

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


_TICKER: contextvars.ContextVar[Callable[[int], None] | None] = contextvars.ContextVar(
    "menace_lib_game_ticker", default=None
)


@contextlib.contextmanager
def counting_games(ticker: Callable[[int], None]) -> Iterator[None]:
    """Inside the block, game loops report finished games to ``ticker(n)``.

    A training run shows its progress this way, in one call, instead of being cut into
    chunks: MENACE draws its random numbers in blocks, so cutting a run into chunks would
    change its games (``tests/test_training.py`` checks that a bar does not).

    Examples
    --------
    >>> from menace_lib import progress
    >>> seen = []
    >>> with progress.counting_games(seen.append):
    ...     progress.game_ticker()(3)
    >>> seen
    [3]
    """
    token = _TICKER.set(ticker)
    try:
        yield
    finally:
        _TICKER.reset(token)


def game_ticker() -> Callable[[int], None] | None:
    """The ``ticker`` of the innermost :func:`counting_games` block (``None`` outside one)."""
    return _TICKER.get()


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
