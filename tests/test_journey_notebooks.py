"""A reader's journey, site -> wheel -> notebooks, walked as a new user on a clean machine.

The page "Run this book yourself" offers two downloads, the library's wheel and the notebooks
zip (book/_ext/run_yourself.py builds both with the site), and two commands (their one owner
is ``run_yourself.INSTALL``). This test builds the downloads as the site build does (the
wheel once per run, for every module that installs it: the ``site_wheel`` fixture), unzips
the notebooks into a temporary folder outside the checkout, puts the wheel beside them, and,
in a fresh virtual environment, from that folder:

* runs the install command exactly as the page shows it (pip without compiling bytecode,
  ``PIP_COMPILE=0``: Python compiles what it imports), with the newest pip (uv makes the
  venv and seeds it with pip when uv is here, as ``tests/test_python_versions.py`` makes its
  venvs; else ``venv``, with the Python's bundled pip);
* checks that JupyterLab lists jupyterlab-myst enabled and compatible (2.7.0 is not, under
  JupyterLab 4.6), and that the library finds the book's stored results inside the installed
  package, not in this checkout;
* runs the second command (JupyterLab on the introduction; on a free local port, no browser)
  until the server serves the introduction;
* checks that every stored result of the checkout (``book/data``) is inside the installed
  package, under the same name and with the same bytes (the notebooks read them there);
* executes notebooks of the download from top to bottom in a fresh kernel of that
  environment, in the notebook's own folder as JupyterLab does, with no PYTHONPATH: no cell
  may raise, and each must finish within :data:`CELL_TIMEOUT_S`. The notebook tests
  (``make test-nb``) run every notebook against the checkout already; what this walk adds
  is the installed package. The default run executes three pages of the short path
  (:data:`DEFAULT_NOTEBOOKS`) that between them read every kind of thing the notebooks take
  from the package: the introduction (the page the second command opens: the play widget,
  the book's plotting, training and an exact evaluation on the game tables), the Dirichlet
  chapter (a second widget, the claims ledger's evidence and figures, the game tables) and
  the key results (the stored suite results in the package's book data, the verdicts). The
  long run (``--thorough``) executes every notebook of the download.

Slow (a venv, JupyterLab's dependencies from the package index pip is configured with, and
every notebook run once): one test shares one environment; marked ``slow`` and ``packaging``
like ``tests/test_packaging.py``, whose helpers it uses. ``-m "not packaging"`` skips it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
import zipfile
from pathlib import Path

import pytest
from test_packaging import ROOT, sh, user_env
from test_python_versions import uv

sys.path.insert(0, str(ROOT / "book" / "_ext"))

import run_yourself  # noqa: E402
import short_path  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.packaging]

# Each cell's limit, as the notebook tests' (the Makefile's --nbval-cell-timeout).
CELL_TIMEOUT_S = 600
# The default run's notebooks (the module docstring says why these three).
DEFAULT_NOTEBOOKS = (
    "book/intro.ipynb",
    "book/dirichlet_categorical.ipynb",
    "book/key_results.ipynb",
)
LAB_START_TIMEOUT_S = 300

# Runs inside the fresh environment: every notebook named on the command line, in its own
# folder, one JSON line per notebook ("ok" or the error's last lines), also appended to
# executed.jsonl beside the script (to follow a long run; the seconds, wall and CPU with the
# kernel's, are for the reader).
EXECUTE = """
import json, resource, sys, time, traceback
from pathlib import Path
import nbformat
from nbclient import NotebookClient

progress = Path(__file__).with_name("executed.jsonl")
for name in sys.argv[2:]:
    path = Path(name)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=int(sys.argv[1]), kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    def cpu():
        return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
                   for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    start, start_cpu = time.monotonic(), cpu()
    try:
        client.execute()
        status = "ok"
    except Exception as err:
        status = "".join(traceback.format_exception_only(type(err), err))[-3000:]
    seconds = round(time.monotonic() - start)
    line = json.dumps({"notebook": name, "seconds": seconds,
                       "cpu_seconds": round(cpu() - start_cpu, 1), "status": status})
    print(line, flush=True)
    with progress.open("a") as f:
        print(line, file=f)
"""


def clean_env(home: Path) -> dict[str, str]:
    """A new user's environment: no PYTHONPATH, no Jupyter settings, the default backend."""
    env = {k: v for k, v in user_env().items() if not k.startswith(("JUPYTER", "MPL"))}
    for name, folder in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / folder)
    return env


def as_user(command: str, python: Path) -> list[str]:
    """A command of the page, with ``python`` the fresh environment's interpreter."""
    argv = shlex.split(command)
    assert argv[0] == "python", command
    return [str(python), *argv[1:]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def reader(tmp_path_factory, site_wheel) -> dict:
    """The downloads unzipped outside the checkout, and a fresh venv with the page's install."""
    base = tmp_path_factory.mktemp("journey")
    downloads = base / "downloads"
    wheel = site_wheel  # run_yourself.build_wheel's, built once per run
    notebooks = run_yourself.build_zip(ROOT, downloads, wheel.name)
    folder = base / "menace-book"  # where the reader unzipped the notebooks
    with zipfile.ZipFile(notebooks) as zf:
        zf.extractall(folder)
    (folder / wheel.name).write_bytes(wheel.read_bytes())
    env = clean_env(base / "home")
    found = uv()
    if found is not None:
        # uv makes the venv and seeds it with the newest pip (0.3 CPU-s, where ``venv``'s
        # ensurepip compiles its bundled pip: 5); that pip resolves the same packages for a
        # third of the older bundled one's CPU (12 CPU-s instead of 28, measured). The page
        # names no way to make the venv; its install command is run below as it shows it.
        create = [found, "venv", "--quiet", "--seed", "--python", sys.executable, base / "env"]
        done = sh(*create, cwd=base, env={**env, "UV_PYTHON_DOWNLOADS": "never"})
    else:
        warnings.warn(
            "uv is not installed (pip install uv, or the test extra): venv makes the "
            "environment, with the Python's bundled pip, about twice the CPU time",
            stacklevel=2,
        )
        done = sh(sys.executable, "-m", "venv", base / "env", cwd=base, env=env)
    assert done.returncode == 0, done.stderr
    python = base / "env" / "bin" / "python"
    install = run_yourself.INSTALL["@INSTALL_WHEEL@"].format(wheel=wheel.name)
    assert install in (folder / "RUN.txt").read_text(encoding="utf-8")
    # pip without compiling bytecode: 17 of the install's 43 CPU seconds, for a cache Python
    # fills itself for what it imports. What pip resolves and installs is unchanged. (pip
    # reads PIP_NO_COMPILE=1 as "compile"; PIP_COMPILE=0 is its switch for --no-compile.)
    no_compile = {**env, "PIP_COMPILE": "0"}
    done = sh(*as_user(install, python), cwd=folder, env=no_compile, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return {"folder": folder, "python": python, "env": env}


def test_site_wheel_notebooks(reader, request):
    folder, python, env = reader["folder"], reader["python"], reader["env"]
    thorough = request.config.getoption("--thorough")
    assert not str(folder).startswith(str(ROOT))

    # JupyterLab takes jupyterlab-myst (a version it does not disable). The environment's own
    # command: `jupyter labextension` would run the first one on PATH.
    done = sh(python.parent / "jupyter-labextension", "list", cwd=folder, env=env)
    assert done.returncode == 0, done.stderr
    listed = done.stdout + done.stderr
    (myst,) = [line for line in listed.splitlines() if "jupyterlab-myst" in line]
    assert "enabled" in myst and "OK" in myst and "not compatible" not in listed, listed

    # The library and its stored results come from the installed package.
    probe = (
        "import menace_lib; from menace_lib.base.files import book_data; "
        "print(menace_lib.__file__); print(book_data())"
    )
    done = sh(python, "-c", probe, cwd=folder / "book", env=env)
    assert done.returncode == 0, done.stderr
    for where in done.stdout.split():
        assert "site-packages" in Path(where).parts and str(ROOT) not in where, where

    # The second command: JupyterLab serves the introduction.
    port, token = free_port(), secrets.token_hex(16)
    lab = as_user(run_yourself.INSTALL["@OPEN_LAB@"], python) + [
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
    ]
    if os.geteuid() == 0:  # CI containers run as root, which JupyterLab refuses by default
        lab.append("--allow-root")
    log = folder.parent / "lab.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            lab, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        # Given a notebook, JupyterLab serves that notebook's folder (book/).
        url = f"http://127.0.0.1:{port}/api/contents/intro.ipynb?content=0&token={token}"
        deadline = time.monotonic() + LAB_START_TIMEOUT_S
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(url, timeout=10) as answer:
                    assert json.load(answer)["type"] == "notebook"
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(1)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()

    # Every stored result the notebooks read is in the installed package, byte for byte.
    checkout = {p.name: p.read_bytes() for p in (ROOT / "book" / "data").iterdir() if p.is_file()}
    listing = (
        "import hashlib, json; from menace_lib.base.files import book_data; "
        "print(json.dumps({p.name: hashlib.sha256(p.read_bytes()).hexdigest() "
        "for p in book_data().iterdir() if p.is_file()}))"
    )
    done = sh(python, "-c", listing, cwd=folder / "book", env=env)
    assert done.returncode == 0, done.stderr
    installed = json.loads(done.stdout)
    missing = sorted(set(checkout) - set(installed))
    assert not missing, f"stored results not in the installed package: {missing}"
    changed = [n for n, b in checkout.items() if hashlib.sha256(b).hexdigest() != installed[n]]
    assert not changed, f"stored results that differ in the installed package: {changed}"

    # The notebooks of the download run, top to bottom, in their own folder: three of the
    # short path's by default, every one under --thorough.
    every = sorted(p.relative_to(folder).as_posix() for p in (folder / "book").glob("*.ipynb"))
    assert len(every) == len(list((ROOT / "book").glob("*.ipynb")))
    on_the_path = {f"{stop.page}.ipynb" for stop in short_path.load_stops(ROOT)}
    assert set(DEFAULT_NOTEBOOKS) <= on_the_path & set(every), DEFAULT_NOTEBOOKS
    names = every if thorough else [n for n in every if n in DEFAULT_NOTEBOOKS]
    script = folder.parent / "execute.py"
    script.write_text(EXECUTE, encoding="utf-8")
    done = sh(python, script, CELL_TIMEOUT_S, *names, cwd=folder, env=env, timeout=4 * 3600)
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [r["notebook"] for r in results] == names, done.stderr[-3000:]
    failed = {r["notebook"]: r["status"] for r in results if r["status"] != "ok"}
    assert not failed, "\n\n".join(f"{k}:\n{v}" for k, v in failed.items())
