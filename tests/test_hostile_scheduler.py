"""Issue 28, ``--scheduler``: addresses are checked up front, and a server that is not
a Dask scheduler fails fast with one line. The fake servers listen on loopback only,
each for the length of one test; every wait is bounded by ``CONNECT_SECONDS``."""

import contextlib
import socket
import threading
import time

import pytest

from menace_lib.base import parallel
from menace_lib.base.parallel import SchedulerError, check_scheduler, probe_scheduler
from menace_lib.cli import main

FAST = 0.5  # seconds a fake server may keep us waiting in these tests


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", FAST)


@contextlib.contextmanager
def fake_server(reply: bytes | None, close: bool = False):
    """A loopback TCP server: ``None`` accepts and never answers; bytes are sent at once
    (and the connection closed with ``close``)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.1)
    stop = threading.Event()
    held = []

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if reply is not None:
                with contextlib.suppress(OSError):
                    conn.sendall(reply)
            if close:
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        listener.close()


def refused_address() -> str:
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


HTTP = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>no</html>\r\n"


@pytest.mark.parametrize(
    ("reply", "close", "why"),
    [
        (None, False, "no Dask handshake within"),  # a listener that never answers
        (b"", True, "cannot connect"),  # accepts and hangs up
        (HTTP, False, "not a Dask scheduler"),  # a web server ('3.07 EiB' before)
        (b"\x20\x00\x00\x00\x00\x00\x00\x00" + b"x" * 32, False, "not a Dask handshake"),
        (b"\x01\x02", True, "cannot connect"),  # closes mid-length
        (b"\x01\x02", False, "no Dask handshake within"),  # stalls mid-length
    ],
)
def test_a_server_that_is_not_dask_is_refused_fast(reply, close, why):
    with fake_server(reply, close) as address:
        t0 = time.monotonic()
        with pytest.raises(SchedulerError, match=why):
            probe_scheduler(address)
        assert time.monotonic() - t0 < 10 * FAST + 5  # bounded, never the old 240 s


def test_a_refused_port_fails_at_once():
    with pytest.raises(SchedulerError, match="cannot connect"):
        probe_scheduler(refused_address())


@pytest.mark.parametrize("reply", [None, HTTP])
def test_the_cli_says_one_line_for_a_server_that_is_not_dask(capsys, reply):
    with fake_server(reply) as address:
        argv = ["experiment", "priors", "--seeds", "1", "--games", "5", "--scheduler", address]
        assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and address in err and "Traceback" not in err


def test_the_cli_refuses_a_refused_port(capsys):
    address = refused_address()
    argv = ["experiment", "priors", "--seeds", "1", "--games", "5", "--scheduler", address]
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot connect" in err


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("tcp://127.0.0.1:99999", "port must be 1 to 65535"),
        ("tcp://127.0.0.1:0", "port must be 1 to 65535"),
        ("tcp://999.999.999.999:8786", "not a host name"),
        ("tcp://1.2.3:8786", "not a host name"),
        ("tcp://-bad-.org:8786", "not a host name"),
        ("tcp://[zz::1]:8786", "tcp://HOST:PORT"),
        ("tcp://[1::2::3]:8786", "IPv6"),
        ("tcp://127.0.0.1", "tcp://HOST:PORT"),
        ("127.0.0.1:8786", "tcp://HOST:PORT"),
        ("LOCAL:2", "tcp://HOST:PORT"),
        ("ucx://127.0.0.1:8786", "'ucx' transport is not supported"),
        ("tls://127.0.0.1:8786", "'tls' transport is not supported"),
        ("ws://127.0.0.1:8786", "'ws' transport is not supported"),
        ("wss://127.0.0.1:8786", "'wss' transport is not supported"),
        ("inproc://x", "'inproc' transport is not supported"),
        ("tcp://" + "a" * 400 + ":1", "tcp://HOST:PORT"),
    ],
)
def test_impossible_addresses_are_refused_before_anything(capsys, bad, why):
    with pytest.raises(SchedulerError, match=why.replace("(", r"\(")):
        check_scheduler(bad)
    assert main(["experiment", "priors", "--scheduler", bad]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 300


@pytest.mark.parametrize(
    "good", ["tcp://127.0.0.1:8786", "tcp://[::1]:8786", "tcp://dask-01.lab:1", "local:2"]
)
def test_good_addresses_pass_the_syntax_check(good):
    assert check_scheduler(good) == good


def test_a_real_scheduler_passes_the_probe():
    with parallel.held_scheduler("local:1") as address:
        probe_scheduler(address, seconds=5)
