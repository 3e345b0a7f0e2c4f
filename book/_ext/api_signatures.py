"""Readable signatures in the API reference: a dataclass field's default factory by name.

A dataclass's generated ``__init__`` shows every ``field(default_factory=...)`` as
``<factory>``, which tells a reader nothing. This extension writes the factory's call
instead (``log: TrainingLog = TrainingLog()``, ``games: list[int] = list()``), read from
the class's own fields, so the signature says what a default is.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any


def _factories(obj: Any) -> list[str]:
    """The calls that make the defaults of a dataclass's factory fields, in field order."""
    if not (isinstance(obj, type) and dataclasses.is_dataclass(obj)):
        return []
    return [
        f"{getattr(f.default_factory, '__name__', 'factory')}()"
        for f in dataclasses.fields(obj)
        if f.init and f.default_factory is not dataclasses.MISSING
    ]


def named_factories(app, what, name, obj, options, signature, return_annotation):
    """``autodoc-process-signature``: each ``<factory>`` becomes its factory's call."""
    if not signature or "<factory>" not in signature:
        return None
    calls = iter(_factories(obj))
    signature = re.sub(r"<factory>", lambda _: next(calls, "<factory>"), signature)
    return signature, return_annotation


def setup(app):
    app.connect("autodoc-process-signature", named_factories)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
