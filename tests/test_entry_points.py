"""Issue 39: every library entry point named in ``ml.__all__`` refuses a hostile first
argument with a ``ValueError`` or ``TypeError`` (or returns): never an
``AttributeError``, ``IndexError``, ``KeyError`` or overflow from deep inside. Each
call runs in pytest's temporary folder (a text argument may be read as a file name)."""

from __future__ import annotations

import contextlib
import inspect
import math

import pytest
from budget import examples
from hypothesis import given
from hypothesis import strategies as st

import menace_lib as ml

ENTRY_POINTS = sorted(
    name
    for name in ml.__all__
    if callable(getattr(ml, name))
    and not (inspect.isclass(getattr(ml, name)) and issubclass(getattr(ml, name), Exception))
)

HOSTILE = st.one_of(
    st.sampled_from(
        [None, object(), True, math.nan, math.inf, -math.inf, 1e308, [], {}, (), b"\x00", ...]
    ),
    st.integers(max_value=-1),
    st.integers(min_value=10**15),
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not 0 <= x < 1e6),
    st.text(alphabet=st.characters(blacklist_characters="/\\\x00"), max_size=30),
    st.lists(st.one_of(st.none(), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.text(max_size=3), st.none(), max_size=2),
)


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_entry_points_refuse_hostile_arguments_by_name(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call = getattr(ml, name)

    @examples(15)
    @given(value=HOSTILE)
    def check(value):
        with contextlib.suppress(ValueError, TypeError):  # a refusal; anything else fails
            call(value)

    check()
