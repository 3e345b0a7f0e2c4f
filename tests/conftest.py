"""Settings shared by every test: the hypothesis profiles.

* ``ci`` (the default): cheap properties run :data:`CI_EXAMPLES` examples each (hypothesis's
  own default); costly ones (an agent file validated, a command run per example) take the
  small counts they name through ``tests/budget.py``, so ``make test`` stays short.
* ``thorough``: :data:`THOROUGH_EXAMPLES` examples for the cheap properties and ten times
  the named counts for the costly ones, for a long run before a release or after touching
  the file readers: ``pytest tests -m "not browser" --hypothesis-profile=thorough``.

Tests that name their own ``max_examples`` in ``@settings`` keep it under both profiles.
Neither profile has a deadline: a timed test fails on a busy machine, and speed belongs in
``python -m menace_lib bench``.

``--thorough`` (``make test-thorough``) is the long run: the ``thorough`` profile (unless
``--hypothesis-profile`` names another), and every test or parameter marked
``@pytest.mark.thorough`` (``budget.thorough_param`` for one parameter set), which the
default run deselects. The default run checks every property and every seam at least once;
what it leaves to the long run is the same check repeated over more instances (more pages and
views, Pythons, notebooks, boards, seeds). Each such test says so in its docstring, and
``docs/PERFORMANCE.md`` ("What the default run leaves to the long run") lists them all.

The fixture :func:`site_wheel` builds the library's wheel once per run, for every test
module and xdist process that installs it; :func:`michie_kit` and :func:`michie_kit_pages`
likewise write Michie's matchbox kit and read its text once per run, and
:func:`bench_figures` measures ``bench --games 1`` once for the command-line tests that run
it (:func:`measured_bench`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100
THOROUGH_EXAMPLES = 1000

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=CI_EXAMPLES, **_COMMON)
settings.register_profile("thorough", max_examples=THOROUGH_EXAMPLES, **_COMMON)
# `--hypothesis-profile=NAME` is applied after this file is imported, so it wins.
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        default=False,
        help="the long run: the thorough hypothesis profile (ten times the examples)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module is imported: tests/budget.py scales its counts at import time.
    if config.getoption("--thorough") and not config.getoption("hypothesis_profile", None):
        settings.load_profile("thorough")


def is_thorough(config: pytest.Config) -> bool:
    """Whether this is the long run (``--thorough``)."""
    return bool(config.getoption("--thorough"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``thorough`` only in the long run; then slow tests first: xdist hands
    tests out in this order, so the long ones start at once and the short ones fill in
    around them (the order of the rest is kept)."""
    if not is_thorough(config):
        left = [item for item in items if item.get_closest_marker("thorough")]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if not item.get_closest_marker("thorough")]
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True, scope="session")
def tables_cache_in_a_temporary_folder(tmp_path_factory):
    """Built game tables (Connect-4) are cached on disk: keep them in a temporary folder.

    Set before any worker process starts, so loky and Dask workers inherit it.
    """
    os.environ["MENACE_LIB_CACHE"] = str(tmp_path_factory.mktemp("tables"))
    yield


@pytest.fixture(scope="session")
def site_wheel(tmp_path_factory) -> Path:
    """The wheel of the "Run this book yourself" page, built as the site builds it
    (``book/_ext/run_yourself.build_wheel``), once per run.

    The reader's journey, the other Pythons and the packaging tests install it: the first
    xdist process to ask builds it into a folder of the run's base temporary folder, which
    every process of the run shares, while the others wait on a lock; they then reuse it.
    ``tests/test_packaging.py`` checks that it is the release build's wheel (``python -m
    build``, through the sdist), file for file. Nothing may write into its folder.
    """
    import fcntl  # POSIX: the tests that install the wheel run on Linux and macOS

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder (each process has its own below it)
    folder, built = base / "site-wheel", base / "site-wheel.built"
    with (base / "site-wheel.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not built.is_file():
            root = Path(__file__).resolve().parents[1]
            sys.path.insert(0, str(root / "book" / "_ext"))
            import run_yourself

            built.write_text(run_yourself.build_wheel(root, folder).name, encoding="utf-8")
        return folder / built.read_text(encoding="utf-8")


def _once_per_run(tmp_path_factory, name: str, make) -> Path:
    """The file ``name`` in the run's shared temporary folder, made by ``make(path)`` by the
    first xdist process to ask (under a lock) and reused by every other one."""
    import fcntl  # POSIX: the tests run on Linux and macOS

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder (each process has its own below it)
    path, done = base / name, base / f"{name}.done"
    with (base / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.is_file():
            make(path)
            done.touch()
    return path


@pytest.fixture(scope="session")
def michie_kit(tmp_path_factory) -> Path:
    """Michie's MENACE (287 boxes, move classes) on A4: the kit the site offers, which the book
    build wrote (``_build/kit/menace-kit-a4.pdf``, ``write_kit(kit_agent(), path, "a4")``)
    when it is newer than every module of the library (the build's own rule,
    ``book/_ext/menace_kit_pdf.stale_kits``), else written once per run through the command
    line (``kit --layout class``: the same agent and paper; about 7 CPU-s of drawing). The
    kit's tests and the widgets' journey read it. Nothing may write to it. (The command
    line's ``kit`` writes other kits in ``tests/test_kit.py`` either way.)"""
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "book" / "_ext"))
    import menace_kit_pdf

    built = root / "_build" / "kit" / "menace-kit-a4.pdf"
    assert menace_kit_pdf.KITS[built.name] == ("a4", None)  # Michie's whole kit on A4
    if built not in menace_kit_pdf.stale_kits(root):
        return built

    def make(path: Path) -> None:
        from menace_lib.cli import main

        assert main(["kit", "--layout", "class", "--output", str(path)]) == 0

    return _once_per_run(tmp_path_factory, "michie-kit.pdf", make)


@pytest.fixture(scope="session")
def michie_kit_pages(tmp_path_factory, michie_kit) -> tuple[str, ...]:
    """The text of each page of :func:`michie_kit` as pypdf extracts it, extracted once per
    run (the extraction costs about as much as a quarter of the writing)."""
    import json

    def make(path: Path) -> None:
        import pypdf

        pages = [page.extract_text() for page in pypdf.PdfReader(str(michie_kit)).pages]
        path.write_text(json.dumps(pages), encoding="utf-8")

    text = _once_per_run(tmp_path_factory, "michie-kit-pages.json", make)
    return tuple(json.loads(text.read_text(encoding="utf-8")))


@pytest.fixture(scope="session")
def bench_figures(tmp_path_factory) -> dict:
    """The figures of one real ``bench --games 1`` (``run_benchmarks(games=1)``: its timing
    runs are one game each, the rest, about 8 CPU-s, does not scale with the games), measured
    once per run in an empty folder, which it must leave
    empty. :func:`measured_bench` gives them to the command line."""
    import json

    def make(path: Path) -> None:
        from menace_lib.experiments import bench

        folder = path.with_name("bench-cwd")
        folder.mkdir()
        old = os.getcwd()
        os.chdir(folder)
        try:
            figures = bench.run_benchmarks(games=1)
        finally:
            os.chdir(old)
        assert list(folder.iterdir()) == [], "bench wrote into the folder it ran in"
        path.write_text(json.dumps(figures), encoding="utf-8")

    text = _once_per_run(tmp_path_factory, "bench-figures.json", make)
    return json.loads(text.read_text(encoding="utf-8"))


@pytest.fixture
def measured_bench(bench_figures, monkeypatch) -> None:
    """``bench --games 1`` on the command line without measuring again: the measurement
    (``run_benchmarks``) returns :func:`bench_figures`; parsing, the table and the JSON on
    stdout or in a file are the command's own. The tests that run ``bench`` share one run."""
    import copy

    from menace_lib.experiments import bench

    def run_benchmarks(games: int = 200_000) -> dict:
        assert games == 1, f"the shared bench figures are for --games 1, not {games}"
        return copy.deepcopy(bench_figures)

    monkeypatch.setattr(bench, "run_benchmarks", run_benchmarks)
