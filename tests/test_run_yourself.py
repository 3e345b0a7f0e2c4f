"""The "Run this book yourself" downloads (book/_ext/run_yourself.py), without a book build."""

from __future__ import annotations

import re
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


def test_zip_holds_every_notebook_and_the_commands_and_no_second_copy_of_the_data(tmp_path):
    out = run_yourself.build_zip(ROOT, tmp_path, "menace_lib-0.1.0-py3-none-any.whl")
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        run = zf.read("RUN.txt").decode()
    notebooks = {p.relative_to(ROOT).as_posix() for p in (ROOT / "book").glob("*.ipynb")}
    assert notebooks and notebooks <= names
    # The wheel carries the stored results; the notebooks read them through the library.
    assert not any(n.startswith("book/data/") for n in names)
    assert "book/references.bib" in names
    assert 'python -m pip install "./menace_lib-0.1.0-py3-none-any.whl[notebooks]"' in run
    assert "python -m jupyterlab book/intro.ipynb" in run


def test_zip_pages_show_the_commands_not_placeholders(tmp_path):
    wheel = "menace_lib-0.1.0-py3-none-any.whl"
    out = run_yourself.build_zip(ROOT, tmp_path, wheel)
    with zipfile.ZipFile(out) as zf:
        page = zf.read("book/run_yourself.md").decode()
        how = zf.read("book/how_to_use.md").decode()
    assert "@" + "WHEEL@" not in page and "@INSTALL" not in page + how
    assert f'python -m pip install "./{wheel}[notebooks]"' in page
    assert 'python -m pip install -e ".[notebooks]"' in how


def test_page_placeholder_is_filled_with_the_wheel_name():
    class App:
        confdir = str(ROOT)

    source = ["get <a href='../downloads/@WHEEL@'>@WHEEL@</a>"]
    run_yourself.fill_placeholder(App(), "book/run_yourself", source)
    assert "@WHEEL@" not in source[0]
    assert run_yourself.wheel_name(ROOT) in source[0]


def test_install_commands_have_one_owner():
    """The pages name the commands by placeholder; README.md repeats them word for word."""
    commands = run_yourself.commands(run_yourself.wheel_name(ROOT))
    for page in ("run_yourself.md", "how_to_use.md"):
        text = (ROOT / "book" / page).read_text(encoding="utf-8")
        assert "@INSTALL_WHEEL@" in text and "@OPEN_LAB@" in text, page
        assert "pip install" not in text, f"{page} writes an install command by hand"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in ("@INSTALL_WHEEL@", "@INSTALL_CHECKOUT@", "@OPEN_LAB@"):
        assert commands[key] in readme, f"README.md lacks {commands[key]!r}"


def test_no_install_from_the_public_index():
    """menace_lib is not on the public index: no page or README line installs it from there."""
    index_install = re.compile(r"pip install +[\"']?menace_lib\b")
    pages = [ROOT / "README.md", *sorted((ROOT / "book").glob("*.md"))]
    for path in pages:
        found = index_install.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name}: {found}"


def test_notebooks_extra_is_the_one_the_commands_install():
    """The extra the commands name exists, and bounds jupyterlab-myst as requirements.txt
    pins it (2.7.0 is disabled by JupyterLab 4.6)."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = project["optional-dependencies"][run_yourself.EXTRA]
    names = {re.split(r"[<>=\[; ]", r)[0].lower() for r in extra}
    assert {"jupyterlab", "ipykernel", "jupyterlab-myst", "menace_lib"} <= names
    assert "menace_lib[plots,widgets]" in extra
    (myst,) = [r for r in extra if r.startswith("jupyterlab-myst")]
    pinned = re.search(
        r"^jupyterlab-myst==(\S+)", (ROOT / "requirements.txt").read_text(), re.M
    ).group(1)
    from packaging.specifiers import SpecifierSet

    spec = SpecifierSet(myst.removeprefix("jupyterlab-myst"))
    assert pinned in spec and "2.7.0" not in spec


def test_notebooks_read_stored_results_through_the_library():
    """A notebook opened anywhere (the download, the student edition) finds the stored results:
    no code cell names the checkout's data folder by a relative path."""
    import json

    relative = re.compile(r"""["'](?:\.\./)?(?:book/)?data(?:/[\w.]+)?["']""")
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] == "code":
                found = relative.findall("".join(cell["source"]))
                assert not found, f"{path.name}: {found} (use ml.base.files.book_data)"


def test_the_wheel_takes_only_tracked_files_in_a_checkout(tmp_path):
    """A stray untracked file (a result being written, a scratch script) stays out of the
    readers' wheel, as it stays out of the release build; outside git every file counts."""
    import subprocess

    for name in ("pyproject.toml", "menace_lib/core.py", "book/data/kept.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n")
    (tmp_path / "menace_lib" / "__pycache__").mkdir()
    (tmp_path / "menace_lib" / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"\0")
    outside = run_yourself._package_files(tmp_path)
    assert sorted(outside) == ["book/data/kept.json", "menace_lib/core.py", "pyproject.toml"]
    (tmp_path / ".gitignore").write_text("__pycache__/\n")  # as the project's
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    (tmp_path / "book" / "data" / "stray.json").write_text("{}\n")
    (tmp_path / "menace_lib" / "scratch.py").write_text("x\n")
    assert sorted(run_yourself._package_files(tmp_path)) == sorted(outside)
