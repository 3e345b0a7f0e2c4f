"""files.write_bytes: binary files (the kit's PDF) get the same all-or-nothing writes as text."""

from __future__ import annotations

import os
import stat

import pytest

from menace_lib.base.files import OutputPathError, open_atomic, write_bytes


def test_write_bytes_writes_and_replaces_keeping_the_mode(tmp_path):
    target = tmp_path / "kit.pdf"
    assert write_bytes(target, b"%PDF-1.4 first") == target
    assert target.read_bytes() == b"%PDF-1.4 first"
    os.chmod(target, 0o600)
    write_bytes(target, b"%PDF-1.4 second\x00\xff")
    assert target.read_bytes() == b"%PDF-1.4 second\x00\xff"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit.pdf"]  # no temporary left


def test_write_bytes_refuses_a_folder(tmp_path):
    with pytest.raises(OutputPathError, match="--output .*is a folder"):
        write_bytes(tmp_path, b"data", option="--output")


def test_a_failed_binary_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "kit.pdf"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), open_atomic(target, binary=True) as handle:
        handle.write(b"half of a new file")
        raise RuntimeError("the PDF backend failed")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit.pdf"]
