"""Code style is part of the build: ruff must pass on the library, tests and notebooks."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    if shutil.which("ruff") is None and subprocess.call(
        [sys.executable, "-m", "ruff", "--version"], stdout=subprocess.DEVNULL
    ):
        pytest.skip("ruff is not installed")
    out = subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_eslint_on_the_widgets_javascript():
    """ESLint (npm devDependency, eslint.config.js) passes on the widgets and the JS drivers."""
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    if not eslint.exists():
        pytest.skip("eslint is not installed: run `npm ci` (make install)")
    out = subprocess.run(
        [str(eslint), "menace_lib/widgets", "tests/js", "eslint.config.js"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
