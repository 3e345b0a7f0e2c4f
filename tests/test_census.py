"""Tests for menace_lib.book.census against the thesis's golden counts (Appendices A and B)."""

from __future__ import annotations

import pytest

from menace_lib.book.census import (
    double_threat_catalogue,
    filter_census,
    games_by_length,
    ply_census,
)
from menace_lib.games.board import O, X, canonical, parse_board, winning_squares


def test_ply_census_totals_and_consistency() -> None:
    rows = ply_census()
    total = rows[-1]
    assert total["ply"] == "total"
    assert (total["positions"], total["canonical"]) == (5478, 765)
    assert total["games_ending"] == 255168
    for r in rows[:-1]:
        terminal = r["x_wins"] + r["o_wins"] + r["draws"]
        assert r["ongoing"] + terminal == r["positions"]
        assert r["canonical"] <= r["positions"] <= 8 * r["canonical"]
    # Nobody can win before X's third piece, and only a full board is drawn.
    assert all(r["x_wins"] + r["o_wins"] == 0 for r in rows[:5])
    assert [r["draws"] for r in rows[:-1]] == [0] * 9 + [16]
    # Every sequence that does not end at a ply continues to the next one.
    for r, nxt in zip(rows[:-2], rows[1:-1], strict=True):
        assert nxt["sequences"] >= r["sequences"] - r["games_ending"]


def test_games_by_length_matches_appendix_b() -> None:
    rows = games_by_length()
    assert [r["games"] for r in rows[:-1]] == [1440, 5328, 47952, 72576, 127872]
    total = rows[-1]
    assert (total["games"], total["x_wins"], total["o_wins"], total["draws"]) == (
        255168,
        131184,
        77904,
        46080,
    )
    # X completes lines on odd move counts, O on even ones.
    assert all(r["o_wins"] == 0 for r in rows[:-1] if r["moves"] % 2)
    assert all(r["x_wins"] == 0 for r in rows[:-1] if r["moves"] % 2 == 0)


def test_filter_census_matches_table_b1() -> None:
    rows = filter_census(X)
    assert [r["all"] for r in rows[:-1]] == [1, 12, 108, 183, 34]
    assert [r["decision"] for r in rows[:-1]] == [1, 12, 108, 183, 0]
    total = rows[-1]
    assert (total["all"], total["decision"], total["michie"]) == (338, 304, 287)
    assert (total["forced"], total["double_threats"]) == (34, 17)
    assert [r["move"] for r in rows[:-1]] == [1, 2, 3, 4, 5]
    o_rows = filter_census(O)
    assert [r["ply"] for r in o_rows[:-1]] == [1, 3, 5, 7]
    with pytest.raises(ValueError, match="player"):
        filter_census(3)


def test_double_threat_catalogue() -> None:
    rows = double_threat_catalogue()
    assert len(rows) == 17
    assert sum(r["threats"] == 3 for r in rows) == 3  # the thesis's three triple threats
    golden = parse_board("...XOXOXO")  # from the thesis's golden list
    assert any(parse_board(r["board"]) == golden for r in rows)
    for r in rows:
        board = parse_board(r["board"])
        assert canonical(board) == board
        assert winning_squares(board, X) == []
        assert r["winning_squares"] == winning_squares(board, O)
        assert r["raw_positions"] in (1, 2, 4, 8)
