"""The library as a user installs it: the wheel and sdist pass `twine check`, a fresh venv
with the wheel and no extras runs the core commands outside the repository, a missing extra
is one line that names it, and each extra adds what it names.

These tests build the wheel and create virtual environments (pip installs the core
dependencies from the package index pip is configured with): slow, so marked ``slow`` and
``packaging``; they run once in CI (``make test``). ``-m "not packaging"`` skips them.

The site's wheel (the ``site_wheel`` fixture of ``tests/conftest.py``, which the reader's
journey and the other Pythons install) is checked here to be the release build's wheel, file
for file. The venv and its installs are uv's when uv is here (``venv_commands`` of
``tests/test_python_versions.py``: the same packages, resolved from the wheel's metadata,
at about a twentieth of pip's CPU time), else ``venv`` and pip without compiling bytecode
(``--no-compile``). What is tested is what the wheel and its extras install and that it
runs; pip itself installs the wheel in the reader's journey
(``tests/test_journey_notebooks.py``), with the page's own command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_python_versions import uv, venv_commands

tomllib = pytest.importorskip("tomllib")  # Python 3.11+ (the checks run on any one version)

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

pytestmark = [pytest.mark.slow, pytest.mark.packaging]


def sh(*argv, cwd: Path, env: dict | None = None, input: str | None = None, timeout=900):
    # By default a user's environment: a PYTHONPATH naming the checkout would make pip take
    # the checkout for an installed menace_lib and leave the wheel out of the venv.
    env = user_env() if env is None else env
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, input=input, capture_output=True,
        text=True, timeout=timeout,
    )  # fmt: skip


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The wheel and sdist, built from this checkout (in an isolated build environment)."""
    out = tmp_path_factory.mktemp("dist")
    src = tmp_path_factory.mktemp("src") / "menace_lib"
    # Build from a clean copy of the tracked files (no caches, no _build, no egg-info).
    files = sh("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")
    for name in filter(None, files):
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            target.write_bytes((ROOT / name).read_bytes())
    # build's isolated environments (one for the sdist, one for the wheel built from it) are
    # uv's when uv is here: the same build requirements, a third less CPU than pip's (5.9
    # CPU-s instead of 8.8, measured); the files built are the same.
    installer = ["--installer", "uv"] if uv() is not None else []
    done = sh(sys.executable, "-m", "build", *installer, "--outdir", out, src, cwd=src)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def wheel(dist: Path) -> Path:
    (found,) = dist.glob("menace_lib-*.whl")
    return found


def test_twine_check_passes_for_wheel_and_sdist(dist):
    files = sorted(dist.iterdir())
    assert {f.suffix for f in files} == {".whl", ".gz"}
    done = sh(sys.executable, "-m", "twine", "check", "--strict", *files, cwd=dist)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_sites_wheel_is_the_release_wheel(dist, site_wheel):
    """The page's download (built from the checkout's package folders, as the site builds it)
    holds the same files, with the same bytes, as the wheel built from the sdist. Only the
    build tool's own record may differ (its version, if the isolated build took another)."""

    def files(path: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(path) as whl:
            return {n: whl.read(n) for n in whl.namelist() if not n.endswith(("/WHEEL", "/RECORD"))}

    assert site_wheel.name == wheel(dist).name
    released, offered = files(wheel(dist)), files(site_wheel)
    assert sorted(offered) == sorted(released)
    assert [n for n in released if offered[n] != released[n]] == []


def test_wheel_carries_licences_types_schemas_and_data(dist):
    with zipfile.ZipFile(wheel(dist)) as whl:
        names = set(whl.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(info).decode()
    prefix = info.rsplit("/", 1)[0]
    assert {f"{prefix}/licenses/LICENSE", f"{prefix}/licenses/LICENSE-BOOK"} <= names
    assert "License-Expression: MIT" in metadata
    assert "menace_lib/py.typed" in names
    assert "menace_lib/data/checkpoints.json" in names
    assert "menace_lib/schemas/menace_lib.menace.v1.schema.json" in names
    assert "menace_lib/schemas/cli/experiment.schema.json" in names
    assert "menace_lib/book/data/thesis_results.json" in names  # book/data, inside the package
    assert not any(n.startswith(("tests/", "book/")) for n in names)
    assert not any(n.endswith(".ipynb") for n in names)
    assert "Classifier: Typing :: Typed" in metadata
    extras = ("plots", "widgets", "dask", "notebooks", "openspiel", "pettingzoo", "interop")
    for extra in (*extras, "book", "test", "dev"):
        assert f"Provides-Extra: {extra}" in metadata
    assert "seaborn" not in metadata


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel and its core dependencies only."""
    home = tmp_path_factory.mktemp("venv")
    create, install, env = venv_commands(sys.executable, home)
    done = sh(*create, cwd=home, env=env)
    assert done.returncode == 0, done.stderr
    python = home / "env" / "bin" / "python"
    done = sh(*install, "--find-links", dist, wheel(dist), cwd=home, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return python


def user_env() -> dict[str, str]:
    """The environment of a user outside the repository: no PYTHONPATH, no repo on it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return {**env, "MPLBACKEND": "Agg"}


def menace(python: Path, *argv: str, cwd: Path, input: str | None = None):
    return sh(python, "-m", "menace_lib", *argv, cwd=cwd, env=user_env(), input=input)


def test_the_core_installs_no_extra(venv):
    listing = (
        "import importlib.metadata as m, json; "
        "print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"
    )
    done = sh(venv, "-c", listing, cwd=venv.parent, env=user_env())
    assert done.returncode == 0, done.stderr
    installed = {name.lower().replace("_", "-") for name in json.loads(done.stdout)}
    assert {
        "menace-lib",
        "numpy",
        "scipy",
        "joblib",
        "tqdm",
        "jsonschema",
        "jsonschema-rs",
    } <= installed
    assert not installed & {"matplotlib", "anywidget", "ipywidgets", "dask", "seaborn", "pandas"}


def test_core_commands_run_outside_the_repository(venv, tmp_path):
    where = sh(venv, "-c", "import menace_lib; print(menace_lib.__file__)", cwd=tmp_path,
               env=user_env()).stdout  # fmt: skip
    assert "site-packages" in where and str(ROOT) not in where
    done = menace(venv, "--version", cwd=tmp_path)
    assert done.stdout.strip() == f"menace_lib {PROJECT['version']}"
    done = menace(venv, "states", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["positions"] == 5478
    done = menace(venv, "train", "menace", "--games", "200", "--output", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = menace(venv, "evaluate", "a.json", "--opponent", "random", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert abs(sum(json.loads(done.stdout).values()) - 1) < 1e-9
    done = menace(venv, "play", "--seed", "3", "--side", "X", cwd=tmp_path, input="5\nq\n")
    assert done.returncode == 0, done.stderr
    assert "MENACE plays" in done.stdout and done.stdout.rstrip().endswith("Goodbye.")
    done = menace(
        venv, "experiment", "thesis", "--tables", "9.1", "--seeds", "2", "--games", "50",
        "--validation-games", "10", "--curve-points", "2", "--json", "out.json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "out.json").read_text())["format"] == "menace_lib.experiments"


def test_same_numbers_from_the_wheel_and_the_checkout(venv, tmp_path):
    argv = ["train", "menace", "--games", "300", "--seed", "5", "--output", "-"]
    installed = menace(venv, *argv, cwd=tmp_path)
    here = sh(sys.executable, "-m", "menace_lib", *argv, cwd=tmp_path,
              env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert installed.returncode == here.returncode == 0, installed.stderr + here.stderr
    assert json.loads(installed.stdout) == json.loads(here.stdout)  # integers: bead counts


def test_missing_extras_are_one_line_naming_them(venv, tmp_path):
    done = menace(venv, "kit", "--output", "kit.pdf", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        1,
        'error: kit needs matplotlib, which is not installed: pip install "menace_lib[plots]"\n',
    )
    done = menace(venv, "experiment", "priors", "--scheduler", "local:2", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert 'pip install "menace_lib[dask]"' in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_wheel_carries_the_books_stored_results(venv, tmp_path):
    """The library finds book/data's files in the installed package, never in a checkout."""
    probe = "from menace_lib.base.files import book_data; print(book_data())"
    where = Path(sh(venv, "-c", probe, cwd=tmp_path).stdout.strip())
    assert "site-packages" in where.parts and str(ROOT) not in str(where)
    shipped = sorted(p.name for p in where.iterdir())
    assert shipped == sorted(p.name for p in (ROOT / "book" / "data").glob("*.json"))
    # Readers with a default path: the claims ledger, HER's stored results.
    done = menace(venv, "claims", "--check", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = sh(venv, "-c", "import menace_lib.book.her_chapter as h; print(len(h.load_results()))",
              cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    # Rewriting a stored result inside an installed package is refused, nothing written.
    done = menace(venv, "claims", "--write-snapshot", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "give --data FOLDER" in done.stderr
    assert list(tmp_path.iterdir()) == []


EXTRAS = {
    "plots": "import matplotlib, menace_lib.book.plotting, menace_lib.kit",
    "widgets": "import anywidget, ipywidgets; from menace_lib.widgets import PlayWidget",
    "dask": "import dask, distributed; from menace_lib.base.extras import require; "
    "require('dask', 'x')",
}


@pytest.fixture(scope="module")
def extras(venv, dist, tmp_path_factory) -> dict[str, tuple]:
    """Each extra installed in turn into the core venv, its check run before and after:
    extra -> (check before, pip install, check after). Installed once for every test here."""
    here = tmp_path_factory.mktemp("extras")
    _, install, env = venv_commands(sys.executable, venv.parents[2])
    found = {}
    for extra, check in EXTRAS.items():
        before = sh(venv, "-c", check, cwd=here, env=user_env())
        done = sh(*install, "--find-links", dist, f"menace_lib[{extra}]", cwd=here, env=env)
        after = sh(venv, "-c", check, cwd=here, env=user_env())
        found[extra] = (before, done, after)
    return found


@pytest.mark.parametrize("extra", EXTRAS)
def test_each_extra_adds_what_it_names(extras, extra):
    before, done, after = extras[extra]
    assert before.returncode != 0  # not there without the extra
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert after.returncode == 0, after.stderr


def test_dask_extra_runs_a_sweep_on_a_local_cluster(venv, extras, tmp_path):
    assert extras["dask"][1].returncode == 0  # installed by the fixture
    done = menace(
        venv, "experiment", "priors", "--seeds", "2", "--games", "20", "--conditions",
        "mixed/4-3-2-1", "--scheduler", "local:1", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "menace_lib.sweep"


def test_book_test_and_dev_extras_name_their_tools():
    extras = PROJECT["optional-dependencies"]
    names = {k: {r.split(">")[0].split("<")[0].split("[")[0].lower() for r in v}
             for k, v in extras.items()}  # fmt: skip
    assert {"jupyter-book", "sphinxcontrib-bibtex", "myst-nb", "menace_lib"} <= names["book"]
    assert "menace_lib[notebooks,dask]" in extras["book"]
    assert {"jupyterlab", "ipykernel", "jupyterlab-myst"} <= names["notebooks"]
    assert {"pytest", "hypothesis", "nbval"} <= names["test"]
    assert {"ruff", "build", "twine"} <= names["dev"] and "menace_lib[book,test]" in extras["dev"]
    core = {r.split(">")[0].lower() for r in PROJECT["dependencies"]}
    assert core == {
        "numpy",
        "scipy",
        "joblib",
        "tqdm",
        "jsonschema",
        "referencing",
        "jsonschema-rs",
    }


def test_every_package_is_named():
    """pyproject.toml lists its packages (book/data is one, mapped into menace_lib/book/data):
    every folder of menace_lib/ with tracked files must be in the list, and nothing else."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    files = sh("git", "ls-files", "-z", "menace_lib", cwd=ROOT).stdout.split("\0")
    folders = {".".join(Path(f).parent.parts) for f in filter(None, files)}
    assert set(setuptools["packages"]) == folders | {"menace_lib.book.data"}
    assert setuptools["package-dir"] == {"menace_lib.book.data": "book/data"}
