"""One PNG carrying a figure for both page themes (menace_lib.book.themed_png)."""

from __future__ import annotations

import io
import struct
import zlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from menace_lib.book.themed_png import CHUNK_TYPE, PNG_SIGNATURE, dark_variant, with_dark_variant  # noqa: E402


def _png(value: float) -> bytes:
    buffer = io.BytesIO()
    plt.imsave(buffer, np.full((4, 5), value), format="png", cmap="gray", vmin=0, vmax=1)
    return buffer.getvalue()


def _chunk_types(png: bytes) -> list[bytes]:
    types, pos = [], len(PNG_SIGNATURE)
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + data) & 0xFFFFFFFF, f"bad CRC in {kind!r}"
        types.append(kind)
        pos += 12 + length
    return types


def test_dark_variant_round_trips_and_the_light_image_still_decodes():
    light, dark = _png(0.9), _png(0.1)
    both = with_dark_variant(light, dark)
    assert dark_variant(both) == dark
    assert dark_variant(light) is None
    # Ordinary decoders skip the private chunk: the file is still the light image.
    assert np.array_equal(plt.imread(io.BytesIO(both)), plt.imread(io.BytesIO(light)))
    types = _chunk_types(both)
    assert types[-1] == b"IEND" and types.count(CHUNK_TYPE) == 1


def test_chunk_type_is_ancillary_private_and_safe_to_copy():
    first, second, third, fourth = (bool(b & 0x20) for b in CHUNK_TYPE)
    assert first and second and not third and fourth


def test_embedding_again_replaces_the_variant():
    light = _png(0.9)
    twice = with_dark_variant(with_dark_variant(light, _png(0.1)), _png(0.3))
    assert dark_variant(twice) == _png(0.3)
    assert _chunk_types(twice).count(CHUNK_TYPE) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GIF89a", "not a PNG"),
        (PNG_SIGNATURE + b"\x00\x00", "truncated"),
        (PNG_SIGNATURE + struct.pack(">I", 99) + b"IHDR", "runs past the end"),
    ],
)
def test_bad_files_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        dark_variant(data)
    with pytest.raises(ValueError, match=message):
        with_dark_variant(data, _png(0.1))
    with pytest.raises(ValueError, match=message):
        with_dark_variant(_png(0.1), data)


def test_png_without_iend_is_refused():
    png = _png(0.5)
    with pytest.raises(ValueError, match="no IEND"):
        dark_variant(png[:-12])
