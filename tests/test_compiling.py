"""The one owner of when to compile (menace_lib.base.compiling): by work, cache and switch."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from menace_lib.base import compiling
from menace_lib.cli import _python_only, main
from menace_lib.machine import _kernel as machine_kernel

NC = {"plies": 9, "positions": 5_478}  # noughts and crosses
C4 = {"plies": 16, "positions": 161_029}  # Connect-4 4x4


def test_the_switch_forces_either_path_and_refuses_other_values(monkeypatch) -> None:
    monkeypatch.setattr(compiling, "available", lambda: True)
    monkeypatch.setenv(compiling.ENV, "0")
    assert compiling.forced() is False
    assert not compiling.use_compiled("menace", 10**9, 9, 5_478, _probe)
    monkeypatch.setenv(compiling.ENV, "1")
    assert compiling.forced() is True
    assert compiling.use_compiled("aif", 1, 9, 5_478, _probe)
    monkeypatch.setenv(compiling.ENV, "yes")
    with pytest.raises(ValueError, match=r"MENACE_LIB_COMPILED='yes'.*0 \(Python\), 1"):
        compiling.forced()


def test_without_numba_everything_runs_in_python(monkeypatch) -> None:
    monkeypatch.setattr(compiling, "available", lambda: False)
    monkeypatch.setenv(compiling.ENV, "1")
    assert not compiling.use_compiled("menace", 10**9, 9, 5_478, _probe)


@pytest.mark.parametrize("kernel", sorted(compiling.COSTS))
@pytest.mark.parametrize("is_cached", [True, False])
def test_the_decision_turns_at_the_break_even_run(kernel, is_cached, monkeypatch) -> None:
    monkeypatch.delenv(compiling.ENV, raising=False)
    monkeypatch.setattr(compiling, "available", lambda: True)
    monkeypatch.setattr(compiling, "cached", lambda f: is_cached)
    for board in (NC, C4):
        n = compiling.break_even_games(kernel, board["plies"], board["positions"], is_cached)
        python_s, compiled_s = compiling.expected_seconds(kernel, n, **board, is_cached=is_cached)
        assert compiled_s < python_s
        python_s, compiled_s = compiling.expected_seconds(
            kernel, n - 1, **board, is_cached=is_cached
        )
        assert compiled_s >= python_s
        assert compiling.use_compiled(kernel, n, board["plies"], board["positions"], _probe)
        assert not compiling.use_compiled(kernel, n - 1, board["plies"], board["positions"], _probe)


def test_long_runs_compile_short_ones_never_pay_a_compile() -> None:
    def be(kernel: str, board: dict, is_cached: bool) -> int:
        return compiling.break_even_games(kernel, board["plies"], board["positions"], is_cached)

    for kernel in compiling.COSTS:
        for board in (NC, C4):
            assert be(kernel, board, True) < be(kernel, board, False)  # a compile costs more
    assert be("menace", NC, False) < 10**7  # long noughts-and-crosses runs are compiled
    assert be("aif", NC, True) > 1_000  # a short AIF run stays in Python, cache or not
    assert be("menace", NC, True) > 10_000  # as does the thesis's 500-game MENACE run


def _probe(x):
    return x + 1


@pytest.mark.skipif(not compiling.available(), reason="numba is not installed")
@pytest.mark.parametrize("module_name", ["probe_module", "_probe_module"])
def test_the_cache_check_finds_what_numba_writes(module_name, tmp_path, monkeypatch) -> None:
    """The owner reads numba's cache without importing numba: the index it looks for is
    the one numba writes (a subprocess compiles a function into a fresh cache), for a
    public module name and a private one (the kernels live in ``_kernel.py``)."""
    source = tmp_path / "src" / f"{module_name}.py"
    source.parent.mkdir()
    source.write_text("def probe(x):\n    return x + 1\n", encoding="utf-8")
    cache = tmp_path / "cache"
    spec = importlib.util.spec_from_file_location(module_name, source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    assert not compiling.cached(module.probe)
    code = (
        "import importlib.util, sys, numba\n"
        "spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "assert numba.njit(cache=True)(m.probe)(1) == 2\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-c", code, str(source), module_name], check=True, env=env)
    assert compiling.cached(module.probe)
    source.write_text("\ndef probe(x):\n    return x + 1\n", encoding="utf-8")  # moved a line
    spec.loader.exec_module(module)
    assert not compiling.cached(module.probe)


def test_no_compile_sets_the_switch_for_the_command_and_restores_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(compiling.ENV, "1")
    with _python_only(True):
        assert os.environ[compiling.ENV] == "0"
    assert os.environ[compiling.ENV] == "1"
    monkeypatch.delenv(compiling.ENV)
    with _python_only(True):
        assert compiling.forced() is False
    assert compiling.ENV not in os.environ
    with _python_only(False):
        assert compiling.ENV not in os.environ
    # a real command: the engine's decision sees the switch off, the variable comes back
    seen = []
    decide = machine_kernel.use_compiled

    def spy(*args):
        seen.append(compiling.forced())
        return decide(*args)

    monkeypatch.setattr(machine_kernel, "use_compiled", spy)
    monkeypatch.setenv(compiling.ENV, "1")
    argv = ["train", "menace", "--games", "20", "--no-compile", "--output", str(tmp_path / "a")]
    assert main(argv) == 0
    assert seen and set(seen) == {False}
    assert os.environ[compiling.ENV] == "1"


def test_per_ply_costs_follow_the_game_between_the_two_measured_boards() -> None:
    menace = compiling.COSTS["menace"]
    small = (menace.python_us, menace.compiled_us)
    big_positions, *big = menace.large
    assert menace.per_ply_us(menace.measured_on) == small
    assert menace.per_ply_us(100) == small  # held below the smaller board
    assert menace.per_ply_us(big_positions) == pytest.approx(tuple(big))
    assert menace.per_ply_us(10**8) == pytest.approx(tuple(big))  # and above the larger
    middle = menace.per_ply_us(int((menace.measured_on * big_positions) ** 0.5))
    halfway = tuple((a + b) / 2 for a, b in zip(small, big, strict=True))
    assert middle == pytest.approx(halfway, rel=1e-4)  # the geometric mean, rounded
    flat = compiling.KernelCosts(1.0, 0.5, 0.1, 1.0, 0.0)  # one board measured: constant
    assert flat.per_ply_us(10) == flat.per_ply_us(10**8) == (1.0, 0.5)
