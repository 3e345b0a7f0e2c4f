"""One PNG file that carries a figure for both page themes and both screen widths.

A static image cannot change its text colour when a reader switches the book to its dark
theme. The book's figures are therefore drawn twice, once with dark ink for a light page
and once with light ink for a dark page (:func:`menace_lib.book.plotting.use_book_style`
arranges this). The light drawing is an ordinary PNG -- what JupyterLab, nbval and any
image viewer see -- and the dark drawing travels inside it, in one private ancillary
chunk. PNG decoders skip ancillary chunks they do not know (PNG specification, section
5.4), so the file stays a valid image of the light drawing.

The book's Sphinx extension (``book/_ext/theme_figures.py``) calls :func:`dark_variant`
on every notebook image and shows the light or the dark drawing to match the theme.

A phone's column is too narrow for a figure of panels side by side: shrunk to fit, its
text would be a few pixels high. :func:`menace_lib.book.plotting.themed_png` therefore also
draws the figure for a narrow screen (panels stacked, see
:func:`menace_lib.book.plotting.narrow_layout`) and stores that drawing -- itself a themed
PNG -- in a second private chunk. Every drawing carries a third chunk with its
measurements (resolution and smallest text, :func:`metrics`), from which a page can tell
how large its text shows on a screen.

This module owns the chunks: their type codes, and how they are written and read.
"""

from __future__ import annotations

import json
import struct
import zlib

__all__ = [
    "CHUNK_TYPE",
    "METRICS_CHUNK_TYPE",
    "NARROW_CHUNK_TYPE",
    "PNG_SIGNATURE",
    "dark_variant",
    "metrics",
    "narrow_variant",
    "plain",
    "with_dark_variant",
    "with_metrics",
    "with_narrow_variant",
]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Four letters whose case bits say: ancillary (t), private (h), reserved bit clear (D),
# safe to copy (k). "theme: dark".
CHUNK_TYPE = b"thDk"
# "theme: narrow" (the drawing for a phone's column) and "theme: figure metrics" (JSON),
# with the same case bits.
NARROW_CHUNK_TYPE = b"thNr"
METRICS_CHUNK_TYPE = b"thFm"
_IEND = b"IEND"


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, data) chunks of a PNG, checking the signature and every length."""
    if not isinstance(png, (bytes, bytearray)) or not png.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file (the 8-byte PNG signature is missing)")
    chunks, pos = [], len(PNG_SIGNATURE)
    while pos < len(png):
        if pos + 8 > len(png):
            raise ValueError(f"truncated PNG: chunk header cut off at byte {pos}")
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = bytes(png[pos + 4 : pos + 8])
        end = pos + 12 + length
        if end > len(png):
            raise ValueError(f"truncated PNG: chunk {kind!r} at byte {pos} runs past the end")
        chunks.append((kind, bytes(png[pos + 8 : pos + 8 + length])))
        pos = end
        if kind == _IEND:
            break
    if not chunks or chunks[-1][0] != _IEND:
        raise ValueError("truncated PNG: no IEND chunk")
    return chunks


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _with_chunk(png: bytes, chunk_type: bytes, data: bytes) -> bytes:
    """``png`` with one ``chunk_type`` chunk holding ``data`` (an existing one replaced)."""
    kept = [c for c in _chunks(png) if c[0] not in (chunk_type, _IEND)]
    body = b"".join(_chunk(kind, payload) for kind, payload in kept)
    return PNG_SIGNATURE + body + _chunk(chunk_type, bytes(data)) + _chunk(_IEND, b"")


def _chunk_data(png: bytes, chunk_type: bytes) -> bytes | None:
    for kind, data in _chunks(png):
        if kind == chunk_type:
            return data
    return None


def with_dark_variant(light_png: bytes, dark_png: bytes) -> bytes:
    """``light_png`` with ``dark_png`` stored in its :data:`CHUNK_TYPE` chunk.

    An existing dark variant is replaced. Raises ``ValueError`` if either is not a PNG.
    """
    _chunks(dark_png)  # validate
    return _with_chunk(light_png, CHUNK_TYPE, dark_png)


def dark_variant(png: bytes) -> bytes | None:
    """The dark-theme PNG stored in ``png``, or ``None`` if it carries none.

    Raises ``ValueError`` if ``png`` is not a PNG file.
    """
    return _chunk_data(png, CHUNK_TYPE)


def with_narrow_variant(png: bytes, narrow_png: bytes) -> bytes:
    """``png`` with ``narrow_png`` (the drawing for a narrow screen, itself possibly
    carrying its dark variant) stored in its :data:`NARROW_CHUNK_TYPE` chunk.

    An existing narrow variant is replaced. Raises ``ValueError`` if either is not a PNG.
    """
    _chunks(narrow_png)  # validate
    return _with_chunk(png, NARROW_CHUNK_TYPE, narrow_png)


def narrow_variant(png: bytes) -> bytes | None:
    """The narrow-screen PNG stored in ``png``, or ``None`` if it carries none.

    Raises ``ValueError`` if ``png`` is not a PNG file.
    """
    return _chunk_data(png, NARROW_CHUNK_TYPE)


def with_metrics(png: bytes, values: dict[str, float]) -> bytes:
    """``png`` with ``values`` (numbers by name, e.g. ``dpi``, ``tick_pt``) stored as JSON in
    its :data:`METRICS_CHUNK_TYPE` chunk.

    Raises ``ValueError`` if ``png`` is not a PNG or a value is not a finite number.
    """
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise ValueError(f"metrics[{name!r}] must be a number, got {value!r}")
    text = json.dumps(values, sort_keys=True, allow_nan=False)
    return _with_chunk(png, METRICS_CHUNK_TYPE, text.encode("ascii"))


def metrics(png: bytes) -> dict[str, float] | None:
    """The measurements stored in ``png`` by :func:`with_metrics`, or ``None``.

    Raises ``ValueError`` if ``png`` is not a PNG file or the chunk is not a JSON object.
    """
    data = _chunk_data(png, METRICS_CHUNK_TYPE)
    if data is None:
        return None
    values = json.loads(data.decode("ascii"))
    if not isinstance(values, dict):
        raise ValueError(f"figure metrics chunk is not a JSON object: {data[:40]!r}")
    return values


def plain(png: bytes) -> bytes:
    """``png`` without its dark and narrow variants (its metrics kept): the one drawing a
    page shows, at the size of an ordinary PNG."""
    kept = [c for c in _chunks(png) if c[0] not in (CHUNK_TYPE, NARROW_CHUNK_TYPE)]
    return PNG_SIGNATURE + b"".join(_chunk(kind, data) for kind, data in kept)
