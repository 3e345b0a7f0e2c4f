"""The library on every Python it claims (3.10 to 3.13): installed from its wheel, outside the
repository, with the same numbers.

For each version the test looks for an interpreter (``python3.X`` on ``PATH``, then
``~/.pyenv/versions/3.X.*``, or the one named by ``MENACE_PYTHON_3_X``), makes a fresh venv,
installs the site's wheel (the ``site_wheel`` fixture of ``tests/conftest.py``) with its
core dependencies (numpy and scipy are that version's newest on the index), and from a
temporary folder:

* reruns one stored record of every condition of the thesis and λ suites
  (``scripts/golden_subset.py``), compared with the stored ones through ``ml.same_numbers``;
* trains a MENACE on the command line: the agent file equals this checkout's to the bit
  (bead counts are integers), and its exact evaluation is the same numbers.

The installer is not what is tested here (the reader's journey installs with pip, as the
page shows; ``tests/test_packaging.py`` takes this module's ``venv_commands`` too): uv
makes the venv and installs, about twenty times cheaper than ``venv`` and pip (measured:
0.3-1 CPU-s a version instead of about 20). uv reads its own
configuration (``UV_INDEX_URL``, ``uv.toml``), not pip's. Without uv (the ``test`` extra
names it) the test falls back to ``venv`` and pip, and says so in a warning.

The default run takes the oldest and the newest version (3.10, the library's floor, and
3.13, with the newest numpy and scipy): the same check runs on each, and the two ends are
where a version's difference shows (a newer feature used, an older one removed). The
versions between them (3.11 and 3.12) are the long run's (``--thorough``).

A version with no interpreter here is skipped, and the reason names the version. Slow
(venvs and downloads): marked ``slow`` and ``packaging`` like ``tests/test_packaging.py``.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from budget import thorough_param

import menace_lib as ml

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = ("3.10", "3.11", "3.12", "3.13")
TRAIN = ["train", "menace", "--games", "300", "--seed", "5", "--output"]

pytestmark = [pytest.mark.slow, pytest.mark.packaging]


def run(*argv, cwd: Path, env: dict | None = None, timeout: int = 900):
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def user_env() -> dict[str, str]:
    """A user's environment: no PYTHONPATH or virtualenv pointing at this checkout."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def interpreter(version: str) -> str | None:
    """A working ``python<version>``, or None."""
    named = os.environ.get(f"MENACE_PYTHON_{version.replace('.', '_')}")
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [named, shutil.which(f"python{version}")]
    candidates += sorted(glob.glob(str(pyenv / f"{version}.*" / "bin" / f"python{version}")))
    for candidate in filter(None, candidates):
        probe = "import sys, venv; print('%d.%d' % sys.version_info[:2])"
        done = run(candidate, "-c", probe, cwd=ROOT, env=user_env(), timeout=60)
        if done.returncode == 0 and done.stdout.strip() == version:
            return candidate
    return None


def uv() -> str | None:
    """The uv executable: the ``uv`` package's (the ``test`` extra), else ``uv`` on PATH."""
    try:
        import uv as package
    except ImportError:
        return shutil.which("uv")
    return package.find_uv_bin()


def venv_commands(python: str, home: Path) -> tuple[list, list, dict[str, str]]:
    """The command that makes a fresh venv of ``python`` in ``home/env``, the command that
    installs into it (packages to follow), and their environment."""
    env, found = user_env(), uv()
    if found is not None:
        # Never a Python uv would download: the interpreter found here or nothing.
        env["UV_PYTHON_DOWNLOADS"] = "never"
        create = [found, "venv", "--quiet", "--python", python, home / "env"]
        install = [found, "pip", "install", "--quiet", "--python", home / "env" / "bin" / "python"]
    else:
        warnings.warn(
            "uv is not installed (pip install uv, or the test extra): venv and pip make the "
            "environments, about twenty times the CPU time",
            stacklevel=2,
        )
        create = [python, "-m", "venv", home / "env"]
        install = [home / "env" / "bin" / "python", "-m", "pip", "install", "-q",
                   "--no-compile", "--disable-pip-version-check"]  # fmt: skip
    return create, install, env


@pytest.fixture(scope="module")
def checkout_numbers(tmp_path_factory) -> tuple[dict, dict]:
    """This checkout's agent file and its exact evaluation, for the same command."""
    here = tmp_path_factory.mktemp("checkout")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = run(sys.executable, "-m", "menace_lib", *TRAIN, "agent.json", cwd=here, env=env)
    assert done.returncode == 0, done.stderr
    evaluate = ["evaluate", "agent.json", "--opponent", "perfect", "--exact", "--json"]
    done = run(sys.executable, "-m", "menace_lib", *evaluate, cwd=here, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads((here / "agent.json").read_text()), json.loads(done.stdout)


@pytest.mark.parametrize(
    "version",
    [v if v in (VERSIONS[0], VERSIONS[-1]) else thorough_param(v, id=v) for v in VERSIONS],
)
def test_the_wheel_gives_the_same_numbers_on_python(
    version, site_wheel, checkout_numbers, tmp_path
):
    python = interpreter(version)
    if python is None:
        pytest.skip(
            f"no Python {version} interpreter here (looked for python{version} on PATH and in "
            f"~/.pyenv/versions; set MENACE_PYTHON_{version.replace('.', '_')} to one)"
        )
    create, install, env = venv_commands(python, tmp_path)
    done = run(*create, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    venv = tmp_path / "env" / "bin" / "python"
    done = run(*install, "--find-links", site_wheel.parent, site_wheel, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    work = tmp_path / "work"
    work.mkdir()

    script = ROOT / "scripts" / "golden_subset.py"
    done = run(venv, script, "--data", ROOT / "book" / "data", cwd=work, env=user_env())
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["python"].startswith(version + ".")
    assert str(tmp_path / "env") in report["menace_lib"]  # the wheel, not this checkout
    assert report["records"] >= 30 and report["differ"] == []

    agent, evaluation = checkout_numbers
    done = run(venv, "-m", "menace_lib", *TRAIN, "-", cwd=work, env=user_env())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == agent  # integers: every bead count
    (work / "agent.json").write_text(done.stdout)
    evaluate = ["evaluate", "agent.json", "--opponent", "perfect", "--exact", "--json"]
    done = run(venv, "-m", "menace_lib", *evaluate, cwd=work, env=user_env())
    assert done.returncode == 0, done.stderr
    ml.assert_same_numbers(json.loads(done.stdout), evaluation, f"exact evaluation on {version}")
