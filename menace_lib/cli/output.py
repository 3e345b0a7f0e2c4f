"""What the commands share: printing JSON."""

from __future__ import annotations

import json
from typing import Any

import numpy as np


def print_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON (numpy scalars and arrays allowed)."""
    print(json.dumps(obj, indent=2, default=json_default, allow_nan=False))


def json_default(obj: Any) -> Any:
    """``json.dumps`` fallback for numpy values."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"cannot serialise {type(obj).__name__}")
