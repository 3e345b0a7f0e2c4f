"""Issue 28, round trips: agent files have one number format (a whole number is written
without a decimal point, as JavaScript writes it), so save -> load -> save is the same
bytes for every kind, and a file written with ``0`` or ``0.0`` is saved one way."""

import json

import numpy as np
import pytest
from budget import examples
from hypothesis import given
from hypothesis import strategies as st

from menace_lib.agents.registry import load_agent, save_agent, thesis_kinds
from menace_lib.base.files import whole_numbers_as_integers
from menace_lib.experiments.suite import make_agent
from menace_lib.machine.menace import Menace
from menace_lib.play.training import train


@pytest.mark.parametrize("kind", thesis_kinds())
def test_save_load_save_is_byte_identical(tmp_path, kind):
    agent = make_agent(kind)
    train(agent, "mixed", 25, 3)
    save_agent(agent, tmp_path / "a.json")
    save_agent(load_agent(tmp_path / "a.json"), tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


@examples(10)  # each example validates and writes four agent files
@given(
    st.lists(
        st.tuples(
            st.integers(0, 286),
            st.integers(0, 8),
            st.one_of(st.integers(0, 10**12), st.floats(0, 1e12), st.sampled_from([0, 0.0, 4.0])),
        ),
        max_size=6,
    ),
    st.booleans(),
)
def test_any_valid_menace_file_is_saved_the_same_whichever_way_its_numbers_are_written(
    tmp_path_factory, changes, as_floats
):
    folder = tmp_path_factory.mktemp("rt")
    doc = Menace().to_dict()
    for box, colour, value in changes:
        beads = doc["boxes"][box]["beads"]
        beads[colour % len(beads)] = value
    if all(sum(box["beads"]) > 0 for box in doc["boxes"]):  # no empty box under box restock
        text = json.dumps(doc if as_floats else whole_numbers_as_integers(doc))
        (folder / "in.json").write_text(text)
        save_agent(load_agent(folder / "in.json"), folder / "one.json")
        save_agent(load_agent(folder / "one.json"), folder / "two.json")
        one = (folder / "one.json").read_bytes()
        assert one == (folder / "two.json").read_bytes()
        assert one.decode() == json.dumps(whole_numbers_as_integers(json.loads(text)))


def test_whole_numbers_as_integers_keeps_other_values():
    doc = {"a": [0.0, -0.0, 4.0, 0.5, 1e300, 2.0**53, True, None, "4.0"], "b": (1.5, 2)}
    out = whole_numbers_as_integers(doc)
    assert out == {"a": [0, 0, 4, 0.5, 1e300, 2.0**53, True, None, "4.0"], "b": [1.5, 2]}
    assert [type(v) for v in out["a"][:4]] == [int, int, int, float]
    assert np.isfinite(out["a"][4])
