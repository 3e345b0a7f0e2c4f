"""Issue 28, ``play``: a long line is asked again, never parsed or echoed in full."""

import io
import sys

import pytest

from menace_lib.cli import main
from menace_lib.cli.play import MAX_LINE

EVERY_SQUARE = "".join(f"{i}\n" for i in range(1, 10))


def play(monkeypatch, capsys, stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "--side", "X", "--seed", "1"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "line", ["5" * 5000, "1" * (MAX_LINE + 1), "x" * 2_000_000, "0" * 50 + "5", "٥", "5" * 4301]
)
def test_a_long_or_odd_line_is_asked_again(monkeypatch, capsys, line):
    code, out, err = play(monkeypatch, capsys, line + "\n" + EVERY_SQUARE)
    assert code == 0 and err == ""
    assert "type a number from 1 to 9" in out
    assert ("You win!" in out) or ("A draw." in out) or ("MENACE wins." in out)
    assert len(out) < 5000  # the line is echoed as a short prefix only
    assert max(len(row) for row in out.splitlines()) < 120


def test_a_huge_last_line_without_newline_ends_cleanly(monkeypatch, capsys):
    code, out, err = play(monkeypatch, capsys, "7" * 1_000_000)
    assert code == 0 and err == "" and "Input ended" in out and len(out) < 2000
