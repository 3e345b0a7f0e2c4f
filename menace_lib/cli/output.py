"""What the commands share: printing JSON and parsing number lists."""

from __future__ import annotations

import json
from typing import Any

import numpy as np


def print_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON (numpy scalars and arrays allowed)."""
    print(json.dumps(obj, indent=2, default=json_default))


def json_default(obj: Any) -> Any:
    """``json.dumps`` fallback for numpy values."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def numbers(text: str, option: str) -> tuple[float, ...]:
    """Comma-separated numbers given to ``option`` (e.g. ``--schedule 4,3,2,1``)."""
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"{option}: expected comma-separated numbers, got {text!r}") from None
