"""Safe files: atomic writes that never clobber or half-write, and bounded, strict reads.

Every path here is inside pytest's ``tmp_path``; nothing touches a real device.
"""

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from menace_lib.base import files
from menace_lib.base.files import (
    AgentFileError,
    OutputPathError,
    check_output_path,
    open_atomic,
    read_json,
    write_json,
    write_text,
)
from menace_lib.base.limits import MAX_FILE_BYTES


def leftovers(folder):
    """Temporary files a write might have left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- writing ------------------------------------------------------------------------


def test_write_creates_and_replaces_a_regular_file(tmp_path):
    target = tmp_path / "a.json"
    write_json(target, {"x": 1})
    assert json.loads(target.read_text()) == {"x": 1}
    write_json(target, {"x": 2})
    assert json.loads(target.read_text()) == {"x": 2}
    assert leftovers(tmp_path) == []


def test_a_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "new.txt", "hi")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_an_existing_files_mode_is_kept(tmp_path):
    target = tmp_path / "secret.json"
    target.write_text("{}")
    target.chmod(0o600)
    write_json(target, {"k": 1})
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert json.loads(target.read_text()) == {"k": 1}


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_an_existing_files_owner_is_kept_when_we_may_set_it(tmp_path):
    target = tmp_path / "theirs.txt"
    target.write_text("old")
    os.chown(target, 12345, 23456)
    write_text(target, "new")
    st = target.stat()
    assert (st.st_uid, st.st_gid) == (12345, 23456)
    assert target.read_text() == "new"


def test_a_symbolic_link_is_written_through(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_a_dangling_link_gets_its_file_created(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "made.json")
    write_text(link, "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


def test_a_folder_is_refused_and_left_alone(tmp_path):
    folder = tmp_path / "somedir"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep")
    with pytest.raises(OutputPathError, match="is a folder"):
        write_text(folder, "x", option="--output")
    assert folder.is_dir() and (folder / "keep.txt").read_text() == "keep"
    assert leftovers(tmp_path) == [] and not (tmp_path / "somedir.tmp").exists()


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputPathError, match="not a regular file"):
        write_text(fifo, "x")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(OutputPathError, match="not a regular file"):
        check_output_path(fifo, "--output")
    assert leftovers(tmp_path) == []


def test_a_device_is_refused_and_left_a_device(tmp_path):
    # A null device made inside tmp_path (root only): the case of `--output /dev/null`.
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here")
    with pytest.raises(OutputPathError, match="not a regular file"):
        write_text(device, "x", option="--output")
    assert stat.S_ISCHR(device.stat().st_mode)
    assert leftovers(tmp_path) == []


def test_a_link_to_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    with pytest.raises(OutputPathError, match="not a regular file"):
        write_text(link, "x")
    assert link.is_symlink() and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_read_only_folder_is_refused(tmp_path, monkeypatch):
    # Root ignores permission bits, so simulate what a normal user sees.
    folder = tmp_path / "ro"
    folder.mkdir()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if str(p) == str(folder) else real_access(p, mode)
    )
    with pytest.raises(OutputPathError, match="not writable"):
        write_text(folder / "a.json", "x", option="--json")
    assert list(folder.iterdir()) == []


def test_a_read_only_file_is_refused(tmp_path, monkeypatch):
    target = tmp_path / "ro.json"
    target.write_text("keep")
    target.chmod(0o444)
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if str(p) == str(target) else real_access(p, mode)
    )
    with pytest.raises(OutputPathError, match="read-only"):
        write_text(target, "x")
    assert target.read_text() == "keep"


def test_a_really_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(OutputPathError, match="not writable"):
            write_text(folder / "a.json", "x")
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "not a file name"),
        (".", "names a folder"),
        ("/", "names a folder"),
        ("..", "names a folder"),
        ("sub/", "names a folder"),
        ("missing/a.json", "does not exist"),
        ("a\x00b", "not a file name"),
    ],
)
def test_bad_output_names_are_refused_naming_option_and_value(tmp_path, monkeypatch, name, why):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    with pytest.raises(OutputPathError, match=why) as err:
        check_output_path(name, "--output")
    assert str(err.value).startswith(f"--output {name!r}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]


def test_a_file_as_parent_folder_is_refused(tmp_path):
    (tmp_path / "plain").write_text("x")
    with pytest.raises(OutputPathError, match="plain/a.json"):
        check_output_path(tmp_path / "plain" / "a.json", "--csv")


def test_a_failing_replace_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "agent.json"
    target.write_text("old")

    def fail(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        write_text(target, "new")
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_an_error_while_writing_keeps_the_old_file(tmp_path):
    target = tmp_path / "results.csv"
    target.write_text("old")
    with pytest.raises(RuntimeError), open_atomic(target) as f:
        f.write("half a ")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_an_unwritable_value_never_touches_the_disk(tmp_path):
    target = tmp_path / "x.json"
    target.write_text("old")
    with pytest.raises(ValueError, match="non-finite"):
        write_json(target, {"beads": float("inf")})
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_ulimit_f_leaves_the_old_file_and_no_temporary(tmp_path):
    # ulimit -f in a child process: writing past the limit fails with EFBIG.
    target = tmp_path / "victim.json"
    target.write_text("old contents")
    script = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        from menace_lib.base.files import write_text
        try:
            write_text({str(target)!r}, "x" * 100_000)
        except OSError as err:
            print("refused", err.errno)
            sys.exit(3)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.returncode == 3, out.stderr
    assert "refused 27" in out.stdout  # EFBIG
    assert target.read_text() == "old contents"
    assert leftovers(tmp_path) == []


# --- reading ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x80\x04\x95 pickle", "not UTF-8"),
        (b'{"a": NaN}', "non-finite"),
        (b'{"a": -Infinity}', "non-finite"),
        (b'{"a": 1e400}', "out of range"),
        (b'{"a": ' + b"9" * 400 + b"}", "too many digits"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": 1', "not valid JSON"),
        (b"", "not valid JSON"),
    ],
)
def test_bad_json_is_an_agent_file_error(tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(AgentFileError, match=message):
        read_json(path, "agent file")


def test_size_is_checked_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text('{"pad": "' + "x" * 5000 + '"}')
    with pytest.raises(AgentFileError, match="over the 1,000-byte limit"):
        read_json(path, "agent file", max_bytes=1000)

    def no_reading(*_):
        raise AssertionError("read a file that stat already showed was too large")

    monkeypatch.setattr(files, "_read_all", no_reading)
    sparse = tmp_path / "sparse.json"
    with open(sparse, "wb") as f:  # a sparse file: large on paper, no disk used
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(AgentFileError, match="limit"):
        read_json(sparse, "agent file")


def test_special_files_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(AgentFileError, match="not a regular file"):
        read_json(fifo, "agent file")
    with pytest.raises(AgentFileError, match="folder"):
        read_json(tmp_path, "agent file")
    with pytest.raises(AgentFileError, match="cannot read"):
        read_json(tmp_path / "missing.json", "agent file")


def test_book_data_is_the_one_place_the_stored_results_are_found():
    """In a checkout, book/data; every reader with a default path asks book_data."""
    import menace_lib as ml
    from menace_lib.base.files import book_data, book_data_is_packaged
    from menace_lib.book.beyond import scaling_aif

    root = Path(__file__).resolve().parents[1]
    assert not book_data_is_packaged()  # a checkout has no menace_lib/book/data
    assert book_data() == root / "book" / "data"
    assert book_data("her.json") == root / "book" / "data" / "her.json"
    defaults = {
        ml.book.her_chapter.RESULTS_FILE: "her.json",
        ml.book.her_compare.COMPARE_FILE: "her_compare.json",
        scaling_aif.CACHE: "beyond_scaling_aif.json",
        ml.book.claims.cache.DATA_DIR / "claims.json": "claims.json",
        ml.experiments.verdicts.DATA_DIR / "claims.json": "claims.json",
    }
    for path, name in defaults.items():
        assert path == book_data(name) and path.is_file(), path
