"""Markdown tables for notebooks and the command line."""

import pytest
from markdown_it import MarkdownIt

from menace_lib.base.display import markdown_table


def test_a_pipe_in_a_column_name_or_cell_is_escaped_so_the_table_still_parses():
    text = markdown_table([{"q(o|s,a)": "a|b", "n": 1234, "x": 0.12345}])
    tokens = [t.type for t in MarkdownIt("commonmark").enable("table").parse(text)]
    assert tokens[0] == "table_open" and tokens.count("th_open") == 3
    assert "q(o\\|s,a)" in text and "a\\|b" in text and "1,234" in text and "0.123" in text


def test_columns_default_to_the_first_rows_keys_and_missing_cells_are_empty():
    text = markdown_table([{"a": 1}, {"b": 2}]).splitlines()
    assert text[0] == "| a |" and text[3] == "|  |"
    assert markdown_table([{"a": 1}], ["a", "b"]).splitlines()[2] == "| 1 |  |"
    with pytest.raises(ValueError):
        markdown_table([])
