"""Reading and writing files: the one owner of every file the library touches.

Writing
-------
Every file the library or the command line writes (agents, checkpoints,
experiment results as JSON or CSV, curves, the matchbox kit's PDF) goes through
:func:`write_text`, :func:`write_json`, :func:`write_bytes` or :func:`open_atomic`,
which promise:

* **All or nothing.** The data goes to a temporary file made by
  :func:`tempfile.mkstemp` in the target's own folder, is flushed to disk, and
  then :func:`os.replace` puts it in place in one step. A reader sees the old
  file or the new one, never half of one.
* **Nothing is left behind.** On any failure -- a full disk, ``ulimit -f``
  (``EFBIG``), a value that cannot be written, Ctrl-C -- the temporary file is
  deleted and the old file is untouched. (Only a kill that gives Python no
  chance to run, such as ``SIGKILL``, can leave a ``.NAME.*.tmp`` file.)
* **Only regular files are replaced.** A target that exists and is a folder, a
  FIFO, a device (``/dev/null``), a socket, or a read-only file is refused with
  an :class:`OutputPathError` before anything is written.
* **Symbolic links are written through.** A link at the target stays a link;
  the file it points to is replaced (a dangling link gets its file created).
* **Mode and owner are kept.** An existing file keeps its permission bits (a
  mode-600 file stays 600) and, where the process may set them, its owner and
  group. A new file gets the usual ``0o666 & ~umask``.

:func:`check_output_path` makes the same checks without writing, so a command
can refuse a bad ``--output`` *before* it spends minutes training.

The name ``-`` (:data:`STDOUT`, as text: ``Path("-")`` is a file) means standard
output, wherever a path is written (on the command line, ``./-`` names a file). It
is all or nothing too: the data is collected and printed only when the block ends
without an exception.

Reading
-------
:func:`read_json` reads a JSON document safely: only regular files (never
blocks on a FIFO), at most :data:`MAX_FILE_BYTES` bytes (checked with ``stat``
before anything is read), strict UTF-8, no ``NaN``/``Infinity``, no number
that overflows a float, no nesting deep enough to exhaust the stack. Every
failure is an :class:`AgentFileError` naming the file.

The book's stored results
-------------------------
:func:`book_data` is the one place that knows where the book's stored results (the
experiment caches and the claims ledger's snapshot) live: inside the installed package
(``menace_lib/book/data``, which the wheel carries), or, in a checkout of the book, its
``book/data`` folder, their one copy in git. Every reader of a stored result asks it.
"""

from __future__ import annotations

import contextlib
import contextvars
import csv
import io
import json
import math
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from .limits import MAX_FILE_BYTES, MAX_GAMES_TRAINED

__all__ = [
    "MAX_FILE_BYTES",
    "book_data",
    "book_data_is_packaged",
    "STDOUT",
    "stdout_stream",
    "AgentFileError",
    "OutputPathError",
    "check_distinct_files",
    "check_header",
    "check_output_path",
    "dumps",
    "whole_numbers_as_integers",
    "write_agent_json",
    "loads",
    "open_atomic",
    "read_json",
    "read_json_file",
    "shorten",
    "write_bytes",
    "write_csv",
    "write_json",
    "write_text",
]

# MAX_FILE_BYTES (64 MiB) is the largest file read_json reads. Real files are far
# smaller: a saved MENACE is 10-60 kB, the packaged checkpoint file (eight agents)
# about 135 kB. The cap stops a hostile or mistaken file from taking seconds and
# gigabytes before it is rejected.

_PACKAGE = Path(__file__).resolve().parents[1]
_PACKAGED_BOOK_DATA = _PACKAGE / "book" / "data"  # in a wheel (pyproject.toml's package-dir)
_CHECKOUT_BOOK_DATA = _PACKAGE.parent / "book" / "data"  # the one copy in git


def book_data_is_packaged() -> bool:
    """Whether the book's stored results come from the installed package (not a checkout).

    Commands that rewrite a stored result refuse to write into an installed package.
    """
    return _PACKAGED_BOOK_DATA.is_dir()


def book_data(name: str | None = None) -> Path:
    """The folder of the book's stored results, or the file ``name`` in it.

    An installed wheel carries them as ``menace_lib/book/data``; a checkout (an editable
    install, or ``PYTHONPATH`` naming it) reads its ``book/data``. Nothing depends on the
    working folder.

    Parameters
    ----------
    name
        A file name in the folder (``"thesis_results.json"``), or None for the folder.

    Returns
    -------
    Path
        The folder or the file (which the caller reads; a missing file fails there, naming
        this path).
    """
    folder = _PACKAGED_BOOK_DATA if book_data_is_packaged() else _CHECKOUT_BOOK_DATA
    return folder if name is None else folder / name


_MAX_INT_DIGITS = 30  # an integer literal longer than this is refused at parse time
_TMP_EXTRA = len(".") + len(".XXXXXXXX.tmp")  # what mkstemp adds to a name (see open_atomic)
_WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
_EXACT_INTEGERS = 2.0**53  # every whole float below this is exactly an int


class AgentFileError(ValueError):
    """An agent (or other input) file that is missing, corrupt, hostile or from another format.

    Attributes
    ----------
    args
        The one-line message: the file, what is wrong and the limit or format it broke.

    Examples
    --------
    >>> import menace_lib as ml
    >>> try:
    ...     ml.agent_from_dict({"format": "no such format"})
    ... except ml.AgentFileError as err:
    ...     print(type(err).__name__)
    AgentFileError
    """


class OutputPathError(ValueError):
    """An output path that cannot or must not be written."""


# --- writing -------------------------------------------------------------------------

STDOUT = "-"
"""The output name that means standard output."""

_STDOUT_STREAM: contextvars.ContextVar[IO[str] | None] = contextvars.ContextVar(
    "menace_lib_stdout", default=None
)


@contextlib.contextmanager
def stdout_stream(stream: IO[str]) -> Iterator[None]:
    """Send what is written to ``-`` to ``stream`` inside the block (default ``sys.stdout``).

    The command line uses it to keep data on standard output while its messages go to
    standard error.
    """
    token = _STDOUT_STREAM.set(stream)
    try:
        yield
    finally:
        _STDOUT_STREAM.reset(token)


@contextlib.contextmanager
def _open_stdout(binary: bool) -> Iterator[IO[Any]]:
    """A buffer that reaches standard output only if the block ends without an exception."""
    buffer: IO[Any] = io.BytesIO() if binary else io.StringIO()
    yield buffer
    stream = _STDOUT_STREAM.get() or sys.stdout
    if binary:
        stream.flush()
        stream.buffer.write(buffer.getvalue())  # type: ignore[attr-defined]
        stream.buffer.flush()  # type: ignore[attr-defined]
    else:
        text = buffer.getvalue()
        stream.write(text if text.endswith("\n") or not text else text + "\n")
        stream.flush()


def check_output_path(path: str | os.PathLike[str], option: str | None = None) -> Path:
    """Check that ``path`` can be written as a regular file, without writing anything.

    Parameters
    ----------
    path
        The intended output file.
    option
        The command-line option it came from (e.g. ``"--output"``), named in errors.

    Returns
    -------
    Path
        ``path`` as a :class:`~pathlib.Path` (not resolved).

    Raises
    ------
    OutputPathError
        If the name is empty or names a folder (``""``, ``"."``, ``"/"``, ``"dir/"``),
        the target exists and is not a writable regular file, or its folder does not
        exist or cannot be written. The message names ``option`` and the value.
        ``-`` (standard output) is always allowed.
    """
    if isinstance(path, str) and path == STDOUT:
        return Path(path)
    _real_target(path, option)
    return Path(path)


def _problem(option: str | None, path: Any, why: str) -> OutputPathError:
    label = option if option else "output path"
    return OutputPathError(f"{label} {shorten(str(path), 200)!r}: {why}")


def _real_target(path: str | os.PathLike[str], option: str | None) -> Path:
    """The file a write to ``path`` replaces (symbolic links followed), after every check."""
    try:
        text = os.fspath(path)
    except TypeError:
        raise _problem(option, path, "expected a file name") from None
    if not isinstance(text, str):
        raise _problem(option, text, "expected a file name as text")
    if text == "" or "\x00" in text:
        raise _problem(option, text, "not a file name")
    if text.endswith(("/", os.sep)) or Path(text).name in ("", ".", ".."):
        raise _problem(option, text, "names a folder, not a file")
    try:
        real = Path(os.path.realpath(text))
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as err:  # a loop of symbolic links, a name too long, ...
        raise _problem(option, text, err.strerror or str(err)) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _problem(option, text, "is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise _problem(
                option, text, "exists and is not a regular file (a device, FIFO or socket)"
            )
        if _read_only(real, st):
            raise _problem(option, text, "exists and is read-only (no write permission bit)")
    folder = real.parent
    if not folder.exists():
        raise _problem(option, text, f"folder {str(folder)!r} does not exist")
    if not folder.is_dir():
        raise _problem(option, text, f"{str(folder)!r} is not a folder")
    if _read_only(folder, os.stat(folder), os.W_OK | os.X_OK):
        raise _problem(option, text, f"folder {str(folder)!r} is not writable")
    _check_name_length(option, text, real)
    return real


def _read_only(path: Path, st: os.stat_result, mode: int = os.W_OK) -> bool:
    """Whether ``path`` must not be written: no write bit at all, or ``os.access`` says so.

    The mode bits are checked as well as :func:`os.access` because root may write any
    file; a file (or folder) with no write bit for anyone is read-only even for root.
    """
    return not st.st_mode & _WRITE_BITS or not os.access(path, mode)


def _check_name_length(option: str | None, text: str, real: Path) -> None:
    """Refuse a name too long for the folder once the temporary file's affixes are added."""
    try:
        name_max = os.pathconf(real.parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        name_max = 255
    size = len(os.fsencode(real.name))
    if size + _TMP_EXTRA > name_max:
        raise _problem(
            option, text, f"the file name is {size} bytes; at most {name_max - _TMP_EXTRA} fit here"
        )


def check_distinct_files(
    outputs: Mapping[str, str | os.PathLike[str] | None],
    inputs: Mapping[str, str | os.PathLike[str] | None] | None = None,
) -> None:
    """Refuse two outputs that name one file, or an output that is also an input.

    Parameters
    ----------
    outputs, inputs
        Option (or parameter) name -> path; ``None`` and ``"-"`` (standard output)
        are skipped. Links are followed and hard links recognised, so no command
        writes over a file it reads.

    Raises
    ------
    OutputPathError
        Naming both options and the file.
    """
    given = [(o, p, True) for o, p in outputs.items() if p is not None and str(p) != "-"]
    given += [(o, p, False) for o, p in (inputs or {}).items() if p is not None and str(p) != "-"]
    for i, (a, pa, a_out) in enumerate(given):
        for b, pb, b_out in given[i + 1 :]:
            if not (a_out or b_out) or not _same_file(pa, pb):
                continue
            if a_out and b_out:
                raise OutputPathError(f"{a} and {b} name the same file {str(pb)!r}")
            (out, path), src = ((a, pa), b) if a_out else ((b, pb), a)
            raise OutputPathError(
                f"{out} {str(path)!r} is the file {src} reads: choose another output file"
            )


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths end at the same file (links followed, hard links included)."""
    try:
        if os.path.samefile(a, b):
            return True
    except (OSError, ValueError):
        pass
    return os.path.realpath(a) == os.path.realpath(b)


@contextlib.contextmanager
def open_atomic(
    path: str | os.PathLike[str],
    *,
    option: str | None = None,
    newline: str | None = None,
    binary: bool = False,
) -> Iterator[IO[Any]]:
    """Open ``path`` for writing UTF-8 text, all or nothing (see the module docstring).

    Use it as ``with open_atomic(path) as f: f.write(...)``. The file appears at
    ``path`` only when the block ends without an exception. ``binary=True`` opens it
    for bytes instead (``newline`` is then ignored).

    Raises
    ------
    OutputPathError
        If ``path`` must not be written (see :func:`check_output_path`).
    OSError
        If writing fails (the temporary file is removed first).
    """
    if isinstance(path, str) and path == STDOUT:  # the text "-", not Path("./-")
        with _open_stdout(binary) as f:
            yield f
        return
    real = _real_target(path, option)
    old = _stat_or_none(real)
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    try:
        mode = {"mode": "wb"} if binary else {"mode": "w", "encoding": "utf-8", "newline": newline}
        with os.fdopen(fd, **mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        _copy_mode(tmp, old)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(real.parent)


def write_text(path: str | os.PathLike[str], text: str, *, option: str | None = None) -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`open_atomic`); returns ``path``."""
    with open_atomic(path, option=option) as f:
        f.write(text)
    return Path(path)


def write_bytes(path: str | os.PathLike[str], data: bytes, *, option: str | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (see :func:`open_atomic`); returns ``path``."""
    with open_atomic(path, option=option, binary=True) as f:
        f.write(data)
    return Path(path)


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` that refuses NaN and infinities (they are not JSON) with a clear error."""
    try:
        return json.dumps(obj, allow_nan=False, **kwargs)
    except ValueError as err:
        raise ValueError(f"cannot write a non-finite number as JSON ({err})") from None


def write_json(
    path: str | os.PathLike[str], obj: Any, *, option: str | None = None, **kwargs: Any
) -> Path:
    """Serialise ``obj`` (no NaN or infinity) and write it atomically; returns ``path``.

    The document is serialised before the file is opened, so a value that cannot be
    written never touches the disk. ``kwargs`` go to :func:`json.dumps`.
    """
    return write_text(path, dumps(obj, **kwargs), option=option)


def whole_numbers_as_integers(obj: Any) -> Any:
    """``obj`` with every whole float (``4.0``, ``-0.0``) as an int: the agent files' one
    number format.

    JSON has one kind of number, but Python writes ``4.0`` and JavaScript ``4``. Agent
    files write a whole number without a decimal point, whoever writes them, so a file
    saved by the library, loaded and saved again -- or exported by a browser widget and
    saved by the library -- is the same bytes. Floats beyond 2^53 keep their form.
    """
    if isinstance(obj, float) and obj.is_integer() and abs(obj) < _EXACT_INTEGERS:
        return int(obj)
    if isinstance(obj, dict):
        return {k: whole_numbers_as_integers(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [whole_numbers_as_integers(v) for v in obj]
    return obj


def write_agent_json(
    path: str | os.PathLike[str], doc: Mapping[str, Any], *, option: str | None = None
) -> Path:
    """Write an agent's document in the agent files' number format (see
    :func:`whole_numbers_as_integers`), all or nothing; returns ``path``."""
    return write_json(path, whole_numbers_as_integers(doc), option=option)


def write_csv(
    path: str | os.PathLike[str],
    rows: Sequence[Mapping[str, Any]],
    *,
    fieldnames: Sequence[str] | None = None,
    option: str | None = None,
) -> Path:
    """Write dict rows as CSV atomically; ``None`` becomes an empty cell; returns ``path``.

    Columns are ``fieldnames``, or every key in order of first appearance.
    """
    if fieldnames is None:
        fieldnames = list(dict.fromkeys(k for row in rows for k in row))
    with open_atomic(path, option=option, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(fieldnames))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if row.get(k) is None else row[k] for k in fieldnames})
    return Path(path)


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _copy_mode(tmp: str, old: os.stat_result | None) -> None:
    """Give the new file the old one's mode and owner, or the default mode of a new file."""
    if old is None:
        os.chmod(tmp, 0o666 & ~_umask())
        return
    os.chmod(tmp, stat.S_IMODE(old.st_mode))
    with contextlib.suppress(OSError):  # only permitted for root or the same owner
        os.chown(tmp, old.st_uid, old.st_gid)
        os.chmod(tmp, stat.S_IMODE(old.st_mode))  # chown may clear set-id bits


def _umask() -> int:
    """The process umask, read without changing it where the kernel allows."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as f:
        for line in f:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # fallback: set and restore (not thread-safe, hence last)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; best effort (not every file system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- reading -------------------------------------------------------------------------


def read_json(
    path: str | os.PathLike[str], what: str = "file", *, max_bytes: int = MAX_FILE_BYTES
) -> Any:
    """Parse a JSON file defensively; every failure is an :class:`AgentFileError`.

    Parameters
    ----------
    path
        The file to read. It must be a regular file (a FIFO or device is refused,
        never waited on).
    what
        What the file is, for messages (``"agent file"``).
    max_bytes
        Refuse larger files before reading them (default :data:`MAX_FILE_BYTES`).

    Raises
    ------
    AgentFileError
        If the file cannot be read, is too large, is not UTF-8, is not JSON, holds
        ``NaN``/``Infinity`` or a number beyond a float's range, or nests too deeply.
    """
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else repr(path)
    raw = _read_bytes(name, what, max_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AgentFileError(f"{what} {name!r}: not valid JSON (not UTF-8 text)") from None
    return loads(text, f"{what} {name!r}")


def loads(text: str, what: str = "text") -> Any:
    """Parse JSON ``text`` by the rules of :func:`read_json` (no NaN, infinity or huge numbers).

    Raises
    ------
    AgentFileError
        ``"<what>: not valid JSON (...)"``, naming the first problem.
    """
    try:
        return json.loads(
            text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int
        )
    except RecursionError:
        raise AgentFileError(f"{what}: not valid JSON (nested too deeply)") from None
    except ValueError as err:  # JSONDecodeError and our parse hooks
        raise AgentFileError(f"{what}: not valid JSON ({shorten(str(err), 200)})") from None


def read_json_file(path: str | os.PathLike[str], what: str) -> Any:
    """Alias of :func:`read_json` kept for existing callers."""
    return read_json(path, what)


def _read_bytes(name: str, what: str, max_bytes: int) -> bytes:
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise AgentFileError(f"cannot read {what} {name!r}: {why}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise AgentFileError(f"cannot read {what} {name!r}: it is {kind}")
        if st.st_size > max_bytes:
            raise AgentFileError(
                f"{what} {name!r}: {st.st_size:,} bytes is over the {max_bytes:,}-byte limit"
            )
        raw = _read_all(fd, max_bytes + 1)
    except OSError as err:
        raise AgentFileError(f"cannot read {what} {name!r}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(raw) > max_bytes:  # the file grew after fstat
        raise AgentFileError(f"{what} {name!r}: over the {max_bytes:,}-byte limit")
    return raw


def _read_all(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``, reading until the end of the file."""
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(limit - size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _reject_constant(name: str) -> float:
    raise ValueError(f"non-finite number {name} is not allowed")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {shorten(text)} is out of range")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError(f"integer {shorten(text)} has too many digits")
    return int(text)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (ending in ``...``), for error messages."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_progress(doc: dict) -> tuple[bool, int]:
    """An agent file's ``frozen`` flag and ``games_trained`` count, checked."""
    frozen = doc.get("frozen", False)
    if not isinstance(frozen, bool):
        raise AgentFileError(f"frozen: must be true or false, got {frozen!r}")
    games = _json_integer(doc.get("games_trained", 0))
    if games is None or not 0 <= games <= MAX_GAMES_TRAINED:
        raise AgentFileError(
            f"games_trained: must be an integer from 0 to {MAX_GAMES_TRAINED:,}, got "
            f"{shorten(repr(doc.get('games_trained')))}"
        )
    return frozen, games


def _json_integer(value: Any) -> int | None:
    """``value`` as an int if JSON reads it as a whole number (``5`` or ``5.0``), else None.

    JSON has one kind of number, and JSON Schema's "integer" is any number with no
    fraction; a browser cannot tell ``5.0`` from ``5`` either.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < _EXACT_INTEGERS:
        return int(value)
    return None


def check_header(doc: Any, fmt: str, version: int, what: str) -> None:
    """Raise :class:`AgentFileError` unless ``doc`` is an object of this format and version."""
    if not isinstance(doc, dict):
        raise AgentFileError(f"{what}: top level must be a JSON object")
    if doc.get("format") != fmt:
        raise AgentFileError(f"format: expected {fmt!r}, got {shorten(repr(doc.get('format')))}")
    got = doc.get("version")
    if _json_integer(got) != version:
        raise AgentFileError(
            f"version: this library reads version {version}, got {shorten(repr(got))}"
        )
