"""The library on every Python it claims (3.10 to 3.13): installed from its wheel, outside the
repository, with the same numbers.

For each version the test looks for an interpreter (``python3.X`` on ``PATH``, then
``~/.pyenv/versions/3.X.*``, or the one named by ``MENACE_PYTHON_3_X``), makes a fresh venv,
installs the wheel with its core dependencies (pip takes them from the configured index, so
numpy and scipy are that version's newest), and from a temporary folder:

* reruns one stored record of every condition of the thesis and λ suites
  (``scripts/golden_subset.py``), compared with the stored ones through ``ml.same_numbers``;
* trains a MENACE on the command line: the agent file equals this checkout's to the bit
  (bead counts are integers), and its exact evaluation is the same numbers.

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
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built offline from a copy of the tracked files."""
    src = tmp_path_factory.mktemp("src")
    for name in filter(None, run("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    done = run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
        "--disable-pip-version-check", "-w", out, src, cwd=src,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (found,) = out.glob("menace_lib-*.whl")
    return found


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


@pytest.mark.parametrize("version", VERSIONS)
def test_the_wheel_gives_the_same_numbers_on_python(version, wheel, checkout_numbers, tmp_path):
    python = interpreter(version)
    if python is None:
        pytest.skip(
            f"no Python {version} interpreter here (looked for python{version} on PATH and in "
            f"~/.pyenv/versions; set MENACE_PYTHON_{version.replace('.', '_')} to one)"
        )
    done = run(python, "-m", "venv", tmp_path / "env", cwd=tmp_path, env=user_env())
    assert done.returncode == 0, done.stderr
    venv = tmp_path / "env" / "bin" / "python"
    done = run(
        venv, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--find-links",
        wheel.parent, wheel, cwd=tmp_path, env=user_env(),
    )  # fmt: skip
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
