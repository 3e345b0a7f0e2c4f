"""The notebook stage (``make test-nb``): the book build's executions checked by nbval's rules.

``tests/nbval_cached.py`` takes each notebook's execution from the book build's jupyter-cache
and compares it with the stored outputs through nbval's own collector and comparison;
``scripts/prefill_notebook_cache.py`` fingerprints what else the outputs depend on and drops
executions made under another fingerprint. These tests build small books and caches in a
temporary folder and run the plugin on them (pytester, in this process): a changed stored
output fails with nbval's report, the sanitize patterns apply as nbval applies them, a stale
fingerprint or a missing execution stops the run with one line, and (one kernel each) nbval's
own re-run and the plugin agree on a changed and an unchanged output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import nbformat

# nbformat, jupyter-cache and nbval (through tests/nbval_cached.py) are imported by the
# functions that use them: at module level they cost every xdist process about 6 CPU-s of
# collection, though one process runs these tests.

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[1]
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"
# The inner runs: no cache folder, no benchmark plugin (it warns under an xdist worker), and
# no warning that this module imported the plugin before the inner run could rewrite it.
QUIET = (
    "-p",
    "no:cacheprovider",
    "-p",
    "no:benchmark",
    "-W",
    "ignore::pytest.PytestAssertRewriteWarning",
)
INPUTS = {"menace_lib": "a" * 64, "book data": "b" * 64, "python and packages": "c" * 64}


def notebook(cells: list[tuple[str, list, dict]], executed: bool = True) -> nbformat.NotebookNode:
    """A notebook of code cells ``(source, outputs, metadata)`` after a markdown cell."""
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    nb = new_notebook(cells=[new_markdown_cell("# A page")])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    for count, (source, outputs, metadata) in enumerate(cells, start=1):
        nb.cells.append(
            new_code_cell(
                source,
                outputs=[new_output(**o) for o in outputs],
                execution_count=count if executed else None,
                metadata=metadata,
            )
        )
    return nb


def stdout(text: str) -> dict:
    return {"output_type": "stream", "name": "stdout", "text": text}


def result(text: str, count: int) -> dict:
    return {"output_type": "execute_result", "data": {"text/plain": text}, "execution_count": count}


def make_book(root: Path, stored: nbformat.NotebookNode, executed: nbformat.NotebookNode) -> Path:
    """A book at ``root``: ``book/page.ipynb`` (``stored``), a table of contents listing it,
    and the build's cache holding ``executed`` under the fingerprint :data:`INPUTS`."""
    import nbformat
    import nbval_cached
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    (root / "book").mkdir(parents=True, exist_ok=True)
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    # A path outside the folder on the command line would move pytest's root folder there.
    shutil.copy(SANITIZE, root / SANITIZE.name)
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/page\n", encoding="utf-8")
    path = root / "book" / "page.ipynb"
    nbformat.write(stored, path)
    folder = root / "_build" / ".jupyter_cache"
    cache = get_cache(str(folder))
    cache.cache_notebook_bundle(
        CacheBundleIn(executed, str(path)), check_validity=False, overwrite=True
    )
    (folder / nbval_cached.prefill.INPUTS_FILE).write_text(json.dumps(INPUTS), encoding="utf-8")
    return path


@pytest.fixture(scope="module", autouse=True)
def _imported_before_pytester():
    """The heavy modules, imported before any test's ``pytester`` takes its snapshot of the
    imported modules (it removes what a test imported; a second import of nbformat then
    fails to find its own metadata)."""
    import jupyter_cache.base  # noqa: F401
    import nbformat  # noqa: F401
    import nbval_cached  # noqa: F401


@pytest.fixture
def prefill():
    """``scripts/prefill_notebook_cache.py`` as the plugin loaded it: the module the inner
    runs read, so that what a test patches on it they see."""
    import nbval_cached

    return nbval_cached.prefill


@pytest.fixture
def fixed_inputs(monkeypatch, prefill):
    """The current fingerprint is :data:`INPUTS` (the real one is tested on its own)."""
    monkeypatch.setattr(prefill, "notebook_inputs", lambda: dict(INPUTS))


def run(pytester, *extra: str):
    return pytester.runpytest(
        "-p",
        "nbval_cached",
        "--nbval-cached",
        "--nbval-sanitize-with",
        SANITIZE.name,
        *QUIET,
        *extra,
        "book/page.ipynb",
    )


CELLS = [
    ("print('one'); print('two')", [stdout("one\n"), stdout("two\n")], {}),
    ("6 * 7", [result("42", 2)], {}),
]


def test_unchanged_outputs_pass_one_test_per_code_cell(pytester, fixed_inputs):
    make_book(pytester.path, notebook(CELLS), notebook(CELLS))
    outcome = run(pytester, "-v")
    outcome.assert_outcomes(passed=2)
    outcome.stdout.fnmatch_lines(["*Cell 0 PASSED*", "*Cell 1 PASSED*"])


def test_a_changed_stored_output_fails_with_nbvals_report(pytester, fixed_inputs):
    stored = notebook([CELLS[0], ("6 * 7", [result("43", 2)], {})])
    make_book(pytester.path, stored, notebook(CELLS))
    outcome = run(pytester, "--color=no")
    outcome.assert_outcomes(passed=1, failed=1)
    outcome.stdout.fnmatch_lines(
        [
            "*book/page.ipynb::Cell 1*",
            "*Cell 1: Cell outputs differ*",
            "*mismatch 'text/plain'*",
            "*assert reference_output == test_output failed*",
            "*'43' == '42'*",
        ]
    )


def test_a_missing_or_extra_output_fails(pytester, fixed_inputs):
    executed = notebook([CELLS[0], ("6 * 7", [result("42", 2), stdout("more\n")], {})])
    make_book(pytester.path, notebook(CELLS), executed)
    outcome = run(pytester, "--color=no")
    outcome.assert_outcomes(passed=1, failed=1)
    outcome.stdout.fnmatch_lines(["*Unexpected output fields from running code: {'stdout'}*"])


def test_streams_are_merged_and_sanitized_as_nbval_does(pytester, fixed_inputs):
    """Stored and executed outputs differ only where nbval forgives: stream chunks (merged,
    carriage returns resolved), durations, addresses and dates (tests/nbval_sanitize.cfg)."""
    stored = [
        ("run()", [stdout("done in 1.5 s at 0x7f00aa\n"), stdout("on 2026-01-01 10:00:00\n")], {}),
        ("bar()", [stdout("step 3\n")], {}),
    ]
    executed = [
        ("run()", [stdout("done in 12 ms "), stdout("at 0xbeef\non 2027-02-02 11:11:11\n")], {}),
        ("bar()", [stdout("step 1\rstep 2\r"), stdout("step 3\n")], {}),
    ]
    make_book(pytester.path, notebook(stored), notebook(executed))
    run(pytester).assert_outcomes(passed=2)
    # Without the patterns the first cell differs (the streams still merge).
    outcome = pytester.runpytest("-p", "nbval_cached", "--nbval-cached", *QUIET, "book/page.ipynb")
    outcome.assert_outcomes(passed=1, failed=1)


def test_the_sanitize_file_is_read_by_nbvals_own_reader():
    """Every pattern of tests/nbval_sanitize.cfg is one nbval reads (its own parser)."""
    from nbval.plugin import get_sanitize_patterns

    text = SANITIZE.read_text(encoding="utf-8")
    patterns = get_sanitize_patterns(text)
    assert len(patterns) == text.count("\nregex: ") == 9
    for regex, _ in patterns:
        re.compile(regex)


def test_cell_tags_and_unrun_cells_follow_nbval(pytester, fixed_inputs):
    """``nbval-ignore-output``: not compared; ``nbval-skip``: skipped; a cell saved unrun is
    not compared, and one saved unrun with outputs fails (nbval's rule)."""
    ignore = {"tags": ["nbval-ignore-output"]}
    skip = {"tags": ["nbval-skip"]}
    stored = notebook(
        [("rand()", [result("0.1", 1)], ignore), ("rand()", [result("0.2", 2)], skip)]
    )
    executed = notebook(
        [("rand()", [result("0.7", 1)], ignore), ("rand()", [result("0.8", 2)], skip)]
    )
    make_book(pytester.path, stored, executed)
    run(pytester).assert_outcomes(passed=1, skipped=1)

    unrun = notebook([("rand()", [], {})], executed=False)
    unrun_with_outputs = notebook([("rand()", [result("0.1", 1)], {})], executed=False)
    done = notebook([("rand()", [result("0.5", 1)], {})])
    make_book(pytester.path, unrun, done)
    run(pytester).assert_outcomes(passed=1)
    make_book(pytester.path, unrun_with_outputs, done)
    run(pytester, "--color=no").stdout.fnmatch_lines(["*Unrun reference cell has outputs*"])


def test_an_error_fails_unless_the_cell_raises_on_purpose(pytester, fixed_inputs):
    error = {"output_type": "error", "ename": "ValueError", "evalue": "x", "traceback": ["boom"]}
    stored = notebook([("f()", [error], {})])
    make_book(pytester.path, stored, stored)
    outcome = run(pytester, "--color=no")
    outcome.assert_outcomes(failed=1)
    outcome.stdout.fnmatch_lines(["*Cell execution caused an exception*"])
    tagged = notebook([("f()", [error], {"tags": ["raises-exception"]})])
    make_book(pytester.path, tagged, tagged)
    run(pytester).assert_outcomes(passed=1)


def test_lax_compares_only_cells_marked_to_be_checked(pytester, fixed_inputs):
    check = {"tags": ["nbval-check-output"]}
    stored = notebook([("6 * 7", [result("43", 1)], {}), ("6 * 7", [result("41", 2)], check)])
    executed = notebook([("6 * 7", [result("42", 1)], {}), ("6 * 7", [result("42", 2)], check)])
    make_book(pytester.path, stored, executed)
    outcome = pytester.runpytest(
        "-p", "nbval_cached", "--nbval-cached-lax", *QUIET, "book/page.ipynb"
    )
    outcome.assert_outcomes(passed=1, failed=1)


def test_a_stale_fingerprint_stops_the_run_in_one_line(pytester, monkeypatch, prefill):
    make_book(pytester.path, notebook(CELLS), notebook(CELLS))
    monkeypatch.setattr(prefill, "notebook_inputs", lambda: {**INPUTS, "book data": "d" * 64})
    outcome = run(pytester)
    assert outcome.ret == pytest.ExitCode.TESTS_FAILED
    outcome.stdout.fnmatch_lines(
        ["*Exit: the notebook executions in * were made under another book data: run make book*"]
    )
    assert "passed" not in outcome.stdout.str()
    # No recorded fingerprint at all (a cache made before fingerprints, or by hand).
    (pytester.path / "_build" / ".jupyter_cache" / prefill.INPUTS_FILE).unlink()
    run(pytester).stdout.fnmatch_lines(["*Exit: * were made with no record of menace_lib, *"])


def test_a_notebook_without_an_execution_of_its_code_fails_in_one_line(pytester, fixed_inputs):
    changed = notebook([CELLS[0], ("6 * 8", [result("42", 2)], {})])
    make_book(pytester.path, changed, notebook(CELLS))
    outcome = run(pytester)
    assert outcome.ret != 0
    outcome.stdout.fnmatch_lines(
        ["page.ipynb: the book build has no execution of its current code cells in *: run make*"]
    )


def test_no_cache_at_all_stops_the_run(pytester, fixed_inputs):
    make_book(pytester.path, notebook(CELLS), notebook(CELLS))
    shutil.rmtree(pytester.path / "_build")
    outcome = run(pytester)
    assert outcome.ret == pytest.ExitCode.TESTS_FAILED
    outcome.stdout.fnmatch_lines(["*Exit: no notebook executions at *: run make book*"])
    assert not (pytester.path / "_build").exists()  # nothing created


def test_a_notebook_the_book_does_not_build_is_left_to_nbval(pytester, fixed_inputs):
    make_book(pytester.path, notebook(CELLS), notebook(CELLS))
    shutil.copy(pytester.path / "book" / "page.ipynb", pytester.path / "book" / "extra.ipynb")
    items, _ = pytester.inline_genitems(
        "-p", "nbval_cached", "--nbval-cached", *QUIET, "book/page.ipynb", "book/extra.ipynb"
    )
    kinds = {(item.path.name, type(item).__name__) for item in items}
    assert kinds == {("page.ipynb", "CachedCell"), ("extra.ipynb", "IPyNbCell")}


def test_nbvals_own_flags_are_refused_beside_it(pytester, fixed_inputs):
    make_book(pytester.path, notebook(CELLS), notebook(CELLS))
    outcome = pytester.runpytest("-p", "nbval_cached", "--nbval-cached", "--nbval", *QUIET, "book")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    outcome.stderr.fnmatch_lines(["*--nbval-cached takes the place of nbval's --nbval*"])


# ----------------------------------------------------------------------------- the fingerprint


def test_the_fingerprint_digests_every_file_but_bytecode(tmp_path, prefill):
    (tmp_path / "pkg" / "__pycache__").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    (tmp_path / "pkg" / "data.json").write_text("[1]\n")
    first = prefill._tree_digest(tmp_path / "pkg")
    (tmp_path / "pkg" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "pkg" / ".editor-swap").write_bytes(b"\0")
    assert prefill._tree_digest(tmp_path / "pkg") == first
    (tmp_path / "pkg" / "data.json").write_text("[2]\n")
    assert prefill._tree_digest(tmp_path / "pkg") != first
    (tmp_path / "pkg" / "data.json").write_text("[1]\n")
    assert prefill._tree_digest(tmp_path / "pkg") == first
    (tmp_path / "pkg" / "b.py").write_text("")  # a new, empty file counts too
    assert prefill._tree_digest(tmp_path / "pkg") != first


def test_the_fingerprint_names_the_library_the_data_and_the_environment(prefill):
    import menace_lib
    from menace_lib.base.files import book_data

    inputs = prefill.notebook_inputs()
    assert set(inputs) == {"menace_lib", "book data", "python and packages"}
    package = Path(menace_lib.__file__).resolve().parent
    assert inputs["menace_lib"] == prefill._tree_digest(package)
    assert inputs["book data"] == prefill._tree_digest(book_data())
    assert prefill.changed_inputs(inputs, prefill.notebook_inputs()) == []
    assert prefill.changed_inputs(None, inputs) == list(inputs)
    assert prefill.changed_inputs({**inputs, "book data": "x"}, inputs) == ["book data"]


def test_the_environment_part_is_what_the_notebooks_run_on(prefill):
    """The library's dependencies (extras too), the kernel's and the executor's, as
    installed; not a developer's tool installed beside them."""
    names = {line.split("==")[0] for line in prefill.kernel_distributions()}
    assert {"menace-lib", "numpy", "matplotlib", "ipykernel", "nbclient", "jupyter-cache"} <= names
    assert {"ipython", "anywidget", "numba", "scipy"} <= names  # pulled in, directly or not
    assert not {"ruff", "twine"} & names  # the dev extra's tools
    assert prefill.kernel_distributions(("no-such-distribution",)) == []


def test_executions_made_under_another_fingerprint_are_dropped(tmp_path, prefill):
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    folder = tmp_path / "cache"
    cache = get_cache(str(folder))
    for n in (1, 2):
        nb = notebook([(f"{n}", [result(f"{n}", 1)], {})])
        cache.cache_notebook_bundle(CacheBundleIn(nb, f"page{n}.ipynb"), check_validity=False)
    assert prefill.drop_stale_executions(cache, folder, INPUTS) == 2  # none recorded
    assert prefill.stored_inputs(folder) == INPUTS
    nb = notebook([("1", [result("1", 1)], {})])
    cache.cache_notebook_bundle(CacheBundleIn(nb, "page1.ipynb"), check_validity=False)
    assert prefill.drop_stale_executions(cache, folder, INPUTS) == 0  # the same: kept
    assert len(cache.list_cache_records()) == 1
    other = {**INPUTS, "menace_lib": "e" * 64}
    assert prefill.drop_stale_executions(cache, folder, other) == 1
    assert cache.list_cache_records() == []
    assert not list((folder / "executed").iterdir())
    assert prefill.stored_inputs(folder) == other


def test_the_make_stamp_is_rewritten_only_when_the_fingerprint_changes(tmp_path, prefill):
    stamp = tmp_path / "stamps" / "notebook-inputs"
    assert prefill.write_stamp(stamp, INPUTS)
    os.utime(stamp, (1, 1))
    assert not prefill.write_stamp(stamp, dict(INPUTS))
    assert stamp.stat().st_mtime == 1
    assert prefill.write_stamp(stamp, {**INPUTS, "book data": "f" * 64})
    assert stamp.stat().st_mtime > 1


# ----------------------------------------------------------------------------- the Makefile


def test_the_notebook_stage_checks_every_notebook_the_old_stage_ran(prefill):
    """``make test-nb`` and ``make test-nb-rerun`` (nbval's re-run) name the same notebooks,
    every ``book/*.ipynb``; the book builds each of them (so each has an execution to check)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")

    def recipe(target: str) -> str:
        match = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M)
        assert match, target
        return match.group(1)

    cached, rerun = recipe("test-nb"), recipe("test-nb-rerun")
    assert "nbs=$$(ls book/*.ipynb" in cached and "nbs=$$(ls book/*.ipynb" in rerun
    assert "$(NBVAL_CACHED_FLAGS) $$nbs" in cached and "$(NBVAL_FLAGS)" in rerun
    assert re.search(r"^test-nb: .*\$\(STAMP\)/book", makefile, re.M)
    assert re.search(r"^test-thorough: .*test-nb-rerun", makefile, re.M)
    assert re.search(r"^\$\(STAMP\)/book: .*\$\(NB_INPUTS\)", makefile, re.M)
    built = {p.resolve() for p in prefill.toc_notebooks(ROOT)}
    assert built == {p.resolve() for p in (ROOT / "book").glob("*.ipynb")}


# ---------------------------------------------------------- where nbclient and nbval could differ

# nbval reads a cell's outputs from the kernel's messages itself; the book build's executor
# (nbclient) also acts on three kinds of message nbval ignores: it clears a cell's outputs
# (clear_output), replaces a display in place (a display id, update_display_data), and
# routes what an Output widget captures into the widget. Code that does none of these gets
# the same outputs from both.
DIFFERING = re.compile(
    r"clear_output|display_id|update_display|\bOutput\s*\(|widgets\.Output|\binteract(ive)?\s*\("
)


def test_no_notebook_or_library_code_clears_updates_or_captures_outputs():
    sources = {}
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for n, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
            sources[f"{path.name} code cell {n}"] = "".join(cell["source"])
    for path in sorted((ROOT / "menace_lib").rglob("*.py")):
        sources[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    assert len(sources) > 300
    assert {name for name, text in sources.items() if DIFFERING.search(text)} == set()


@pytest.mark.slow
def test_nbval_and_the_plugin_agree_on_a_real_execution(pytester, prefill):
    """One small notebook executed by the book build's executor (as the prefill script runs
    it), then checked by nbval's own re-run (a kernel) and by the plugin: a copy whose stored
    outputs are the execution's passes both, a copy with one changed output fails both in the
    same cell. Its cells print in pieces, redraw a line with carriage returns, write to
    standard error, show an object's address, display HTML and return a value."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc, ProcessData

    cells = [
        (
            "import sys\nfor i in range(3):\n    print(i, end=' ', flush=True)\n"
            "print()\nsys.stdout.write('10%\\r50%\\r100%\\n')\nprint('note', file=sys.stderr)",
            [],
            {},
        ),
        ("class Thing: pass\nprint(Thing())", [], {}),
        ("from IPython.display import HTML, display\ndisplay(HTML('<b>bold</b>'))\n6 * 7", [], {}),
        ("import random\nrandom.random()", [], {"tags": ["nbval-ignore-output"]}),
    ]
    root = pytester.path
    (root / "book").mkdir()
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    shutil.copy(SANITIZE, root / SANITIZE.name)
    (root / "_toc.yml").write_text("root: book/same\nchapters:\n- file: book/changed\n")
    source = root / "book" / "same.ipynb"
    nbformat.write(notebook(cells, executed=False), source)
    folder = root / "_build" / ".jupyter_cache"
    cache = get_cache(str(folder))
    record = cache.add_nb_to_project(str(source))
    code, _ = ExecutionWorkerLocalMProc()(ProcessData(record.pk, str(source), cache, 60, False))
    assert code == 0
    (executed,) = cache.list_cache_records()
    ran = cache.get_cache_bundle(executed.pk).nb
    streams = [o for o in ran.cells[0].outputs if o.output_type == "stream"]
    assert len(streams) > 2  # pieces the comparison has to merge
    same = notebook([(source, [], metadata) for source, _, metadata in cells])
    for stored, out in zip(same.cells[1:], ran.cells, strict=True):
        stored.outputs = out.outputs
    changed = nbformat.from_dict(json.loads(json.dumps(same)))
    html = changed.cells[3].outputs[0]
    assert html.data["text/html"] == "<b>bold</b>"
    html.data["text/html"] = "<b>bolder</b>"
    nbformat.write(same, source)
    nbformat.write(changed, root / "book" / "changed.ipynb")
    (folder / prefill.INPUTS_FILE).write_text(json.dumps(prefill.notebook_inputs()))

    def outcomes(*args: str) -> tuple[dict[str, str], str]:
        out = pytester.runpytest(
            *args,
            "--nbval-sanitize-with",
            SANITIZE.name,
            *QUIET,
            "--color=no",
            "-rA",
            "book/same.ipynb",
            "book/changed.ipynb",
        )
        found = (re.match(r"^(PASSED|FAILED) (\S+::Cell \d+)", line) for line in out.stdout.lines)
        return {m.group(2): m.group(1) for m in found if m}, out.stdout.str()

    nbval, nbval_report = outcomes("--nbval", "--nbval-current-env")
    ours, our_report = outcomes("-p", "nbval_cached", "--nbval-cached")
    assert nbval == ours
    assert len(ours) == 8
    failed = sorted(name for name, outcome in ours.items() if outcome == "FAILED")
    assert failed == ["book/changed.ipynb::Cell 2"]
    for report in (nbval_report, our_report):
        assert "mismatch 'text/html'" in report
        assert "'<b>bolder</b>' == '<b>bold</b>'" in report
