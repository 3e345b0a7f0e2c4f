"""Issue 28, files: no command writes over a file it reads; read-only means read-only
for root too (mode bits, not only ``os.access``); a name too long for its folder is
refused before any work. Every file lives in pytest's temporary folder."""

import os
import stat

import pytest

from menace_lib.base.files import OutputPathError, check_distinct_files, check_output_path
from menace_lib.cli import main


def one_line_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:"), err
    assert "Traceback" not in err
    return err


@pytest.fixture
def agent(tmp_path):
    path = tmp_path / "a.json"
    assert main(["train", "menace", "--games", "5", "--output", str(path)]) == 0
    return path


def test_kit_refuses_to_write_over_its_input(tmp_path, agent, capsys):
    before = agent.read_bytes()
    err = one_line_error(capsys, ["kit", "--from", str(agent), "--output", str(agent)])
    assert "--output" in err and "--from" in err and "a.json" in err
    assert agent.read_bytes() == before


def test_kit_refuses_a_link_or_hard_link_to_its_input(tmp_path, agent, capsys):
    before = agent.read_bytes()
    (tmp_path / "sym.pdf").symlink_to(agent)
    os.link(agent, tmp_path / "hard.pdf")
    for name in ("sym.pdf", "hard.pdf"):
        err = one_line_error(
            capsys, ["kit", "--from", str(agent), "--output", str(tmp_path / name)]
        )
        assert "--from" in err
    assert agent.read_bytes() == before


def test_write_kit_refuses_its_source_as_target(agent):
    from menace_lib.agents.registry import load_agent
    from menace_lib.kit.noughts import write_kit

    with pytest.raises(OutputPathError, match="source"):
        write_kit(load_agent(agent), agent, source=str(agent))


def test_check_distinct_files_names_both_options(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    check_distinct_files({"--output": a, "--csv": b}, {"--from": tmp_path / "c"})
    check_distinct_files({"--json": "-", "--csv": "-"})  # standard output is not a file
    with pytest.raises(OutputPathError, match="--output and --csv"):
        check_distinct_files({"--output": a, "--csv": tmp_path / "x" / ".." / "a"})
    with pytest.raises(OutputPathError, match="--json .* --data reads"):
        check_distinct_files({"--json": a}, {"--data": a})
    check_distinct_files({}, {"--a": a, "--b": a})  # two inputs may be one file


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "menace", "--games", "5", "--output", "{ro}"],
        ["experiment", "priors", "--seeds", "1", "--games", "5", "--json", "{ro}"],
        ["kit", "--output", "{ro}"],
        ["tune-priors", "--seeds", "1", "--evaluations", "2", "--games", "5", "--json", "{ro}"],
    ],
)
def test_read_only_targets_are_refused_even_as_root(tmp_path, capsys, argv):
    ro = tmp_path / "ro.json"
    ro.write_text("keep")
    ro.chmod(0o444)
    err = one_line_error(capsys, [a.replace("{ro}", str(ro)) for a in argv])
    assert "read-only" in err
    assert ro.read_text() == "keep"


def test_read_only_is_the_mode_bits(tmp_path):
    target = tmp_path / "t.json"
    target.write_text("x")
    for mode in (0o444, 0o400, 0o000):
        target.chmod(mode)
        with pytest.raises(OutputPathError, match="read-only"):
            check_output_path(target)
    target.chmod(0o200)  # write-only for the owner: writable
    check_output_path(target)
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(OutputPathError, match="not writable"):
            check_output_path(folder / "new.json")
    finally:
        folder.chmod(stat.S_IRWXU)


def test_a_name_too_long_with_the_temporary_affixes_is_refused_before_work(tmp_path, capsys):
    name = tmp_path / ("b" * 245 + ".json")  # 250 characters: fits, but .NAME.XXXXXXXX.tmp not
    err = one_line_error(capsys, ["train", "menace", "--games", "10000000", "--output", str(name)])
    assert "file name is 250 bytes; at most 241 fit" in err
    assert list(tmp_path.iterdir()) == []
    check_output_path(tmp_path / ("b" * 236 + ".json"))  # 241 bytes is the most here


@pytest.mark.parametrize(
    ("argv", "name"),
    [(["--regenerate", "seeds"], "claims_seeds.json"), (["--write-snapshot"], "claims.json")],
)
def test_claims_checks_what_it_will_write_before_any_work(tmp_path, capsys, argv, name):
    import shutil
    from pathlib import Path

    data = tmp_path / "data"
    data.mkdir()
    for path in (Path(__file__).resolve().parents[1] / "book" / "data").glob("claims*.json"):
        shutil.copy(path, data)
    (data / name).chmod(0o444)
    err = one_line_error(capsys, ["claims", "--data", str(data), *argv])
    assert "read-only" in err and name in err
