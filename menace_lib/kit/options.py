"""What a matchbox kit prints, as options: the label size and MENACE's moves.

Kept apart from :mod:`menace_lib.kit.noughts` (which draws with matplotlib) so that the command
line can check ``--label-size`` and ``--moves`` while it parses, without matplotlib.
"""

from __future__ import annotations

import re

__all__ = [
    "LABEL_SIZES",
    "LABEL_SIZE_MM",
    "MAX_LABEL_MM",
    "MIN_LABEL_MM",
    "parse_label_size",
    "parse_moves",
]

LABEL_SIZES: dict[str, tuple[float, float]] = {"large": (63.5, 50.8), "small": (50.0, 35.0)}
"""Named label sizes (width, height in mm): a large household matchbox's front (and a
2.5 x 2 inch sheet label), and a common small matchbox's front. Measure your boxes."""
LABEL_SIZE_MM = LABEL_SIZES["large"]
"""The default label size; every drawing is laid out at this size and scaled."""
MIN_LABEL_MM = (40.0, 28.0)
MAX_LABEL_MM = (90.0, 70.0)


def parse_label_size(text: str) -> tuple[float, float]:
    """A label size: a name of :data:`LABEL_SIZES` or ``WIDTHxHEIGHT`` in millimetres."""
    if text in LABEL_SIZES:
        return LABEL_SIZES[text]
    match = re.fullmatch(r"\s*(\d{1,3}(?:\.\d{1,2})?)\s*[x×]\s*(\d{1,3}(?:\.\d{1,2})?)\s*", text)
    (wmin, hmin), (wmax, hmax) = MIN_LABEL_MM, MAX_LABEL_MM
    limits = (
        f"{' or '.join(LABEL_SIZES)}, or WIDTHxHEIGHT in mm from {wmin:g}x{hmin:g} "
        f"to {wmax:g}x{hmax:g}"
    )
    if match is None:
        raise ValueError(f"label size {text[:40]!r}: expected {limits}")
    w, h = float(match[1]), float(match[2])
    if not (wmin <= w <= wmax and hmin <= h <= hmax):
        raise ValueError(f"label size {w:g}x{h:g} mm is out of range: expected {limits}")
    return w, h


def parse_moves(text: str) -> tuple[int, int]:
    """MENACE's moves to print boxes for: ``"1-2"``, ``"3"`` or ``"1-4"`` (moves 1 to 4)."""
    match = re.fullmatch(r"\s*([1-4])\s*(?:-\s*([1-4])\s*)?", text)
    if match is None:
        raise ValueError(f"moves {text[:40]!r}: expected FIRST-LAST with moves 1 to 4, e.g. 1-2")
    first, last = int(match[1]), int(match[2] or match[1])
    if first > last:
        raise ValueError(f"moves {text!r}: the first move {first} comes after the last {last}")
    return first, last
