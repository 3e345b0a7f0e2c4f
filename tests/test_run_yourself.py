"""The "Run this book yourself" downloads (book/_ext/run_yourself.py), without a book build."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest
from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import run_yourself  # noqa: E402


def test_wheel_name_follows_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\n\n[project]\nname = "menace_lib"\nversion = "9.8.7"\n'
    )
    assert run_yourself.wheel_name(tmp_path) == "menace_lib-9.8.7-py3-none-any.whl"
    assert run_yourself.wheel_name(ROOT).startswith("menace_lib-")


def test_wheel_name_refuses_a_pyproject_without_version(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "menace_lib"\n')
    with pytest.raises(ExtensionError, match="no \\[project\\] name and version"):
        run_yourself.wheel_name(tmp_path)


def test_zip_holds_every_notebook_its_data_and_the_commands(tmp_path):
    out = run_yourself.build_zip(ROOT, tmp_path, "menace_lib-0.1.0-py3-none-any.whl")
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        run = zf.read("RUN.txt").decode()
    notebooks = {p.relative_to(ROOT).as_posix() for p in (ROOT / "book").glob("*.ipynb")}
    data = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "book" / "data").rglob("*") if p.is_file()
    }
    assert notebooks and notebooks <= names
    assert data <= names
    assert "book/references.bib" in names
    assert "pip install --no-index --find-links . menace_lib-0.1.0-py3-none-any.whl" in run
    assert "jupyter lab book/intro.ipynb" in run


def test_page_placeholder_is_filled_with_the_wheel_name():
    class App:
        confdir = str(ROOT)

    source = ["get <a href='../downloads/@WHEEL@'>@WHEEL@</a>"]
    run_yourself.fill_placeholder(App(), "book/run_yourself", source)
    assert "@WHEEL@" not in source[0]
    assert run_yourself.wheel_name(ROOT) in source[0]
