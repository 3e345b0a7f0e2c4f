"""One PNG file that carries a figure for both page themes.

A static image cannot change its text colour when a reader switches the book to its dark
theme. The book's figures are therefore drawn twice, once with dark ink for a light page
and once with light ink for a dark page (:func:`menace_lib.book.plotting.use_book_style`
arranges this). The light drawing is an ordinary PNG -- what JupyterLab, nbval and any
image viewer see -- and the dark drawing travels inside it, in one private ancillary
chunk. PNG decoders skip ancillary chunks they do not know (PNG specification, section
5.4), so the file stays a valid image of the light drawing.

The book's Sphinx extension (``book/_ext/theme_figures.py``) calls :func:`dark_variant`
on every notebook image and shows the light or the dark drawing to match the theme.

This module owns the chunk: its type code, and how it is written and read.
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["CHUNK_TYPE", "PNG_SIGNATURE", "dark_variant", "with_dark_variant"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Four letters whose case bits say: ancillary (t), private (h), reserved bit clear (D),
# safe to copy (k). "theme: dark".
CHUNK_TYPE = b"thDk"
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


def with_dark_variant(light_png: bytes, dark_png: bytes) -> bytes:
    """``light_png`` with ``dark_png`` stored in its :data:`CHUNK_TYPE` chunk.

    An existing dark variant is replaced. Raises ``ValueError`` if either is not a PNG.
    """
    _chunks(dark_png)  # validate
    kept = [c for c in _chunks(light_png) if c[0] not in (CHUNK_TYPE, _IEND)]
    body = b"".join(_chunk(kind, data) for kind, data in kept)
    return PNG_SIGNATURE + body + _chunk(CHUNK_TYPE, bytes(dark_png)) + _chunk(_IEND, b"")


def dark_variant(png: bytes) -> bytes | None:
    """The dark-theme PNG stored in ``png``, or ``None`` if it carries none.

    Raises ``ValueError`` if ``png`` is not a PNG file.
    """
    for kind, data in _chunks(png):
        if kind == CHUNK_TYPE:
            return data
    return None
