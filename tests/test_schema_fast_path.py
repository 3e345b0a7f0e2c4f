"""The schemas' fast path (jsonschema-rs) is never more lenient than jsonschema.

``menace_lib.schemas.validate`` lets jsonschema-rs accept a document and sends everything
else to jsonschema, which names the first bad field. So one property must hold: a document
jsonschema-rs accepts, jsonschema accepts too. It is checked on every kind of saved agent
and on the other published documents, mutated at random places into the values where two
validators are likeliest to differ (1.0 for an integer, booleans, NaN, infinities, integers
past 64 bits, a string ending in a newline, wrong containers, unknown keys).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from menace_lib import schemas
from menace_lib.cli import main

jsonschema_rs = pytest.importorskip("jsonschema_rs")

ROOT = Path(__file__).resolve().parents[1]
# Each kind on the smallest game it plays.
KINDS = {k: "hexapawn" for k in ("menace", "instrumental", "hybrid", "forgetful", "qlearning")}
KINDS |= {"sarsa": "hexapawn"}
KINDS |= {k: "noughts-and-crosses" for k in ("pure", "oracle", "unsymmetrised", "pegasus")}


@cache
def documents() -> dict[str, dict]:
    """One valid document of every published format (small agents, a few games each)."""
    found = {}
    for kind, game in KINDS.items():
        out = io.StringIO()
        argv = ["train", kind, "--game", game, "--games", "3", "--output", "-"]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main(argv) == 0, kind
        doc = json.loads(out.getvalue())
        if (doc["format"], doc["version"]) in schemas.known_formats():  # else read otherwise
            found[doc["format"]] = doc
    catalogue = ROOT / "menace_lib" / "book" / "claims" / "catalogue.json"
    doc = json.loads(catalogue.read_text(encoding="utf-8"))
    found[doc["format"]] = doc
    return found


def jsonschema_accepts(doc: dict) -> bool:
    from jsonschema import Draft202012Validator

    schema = schemas.schema_for(doc["format"], doc["version"])
    validator = Draft202012Validator(schema, registry=schemas._registry())
    return next(validator.iter_errors(doc), None) is None


def paths(node, here=()):
    """Every place in a document (a key of a dict or an index of a list)."""
    yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3] + node[-2:] if len(node) > 5 else node):
            j = i if i < 3 or len(node) <= 5 else len(node) - 5 + i
            yield from paths(value, (*here, j))


ODD = st.one_of(
    st.sampled_from(
        [1.0, 0.0, -0.0, True, False, None, math.nan, math.inf, -math.inf, 2**64, -(2**63) - 1]
    ),
    st.sampled_from(["X\n", "", "......X..\n", "1", "0x1", "\u0661", "é", "a" * 70]),
    st.sampled_from([[], {}, [1], {"x": 1}, [True], [1.0], [0, 0], [-1], [10**30]]),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)


def mutate(doc: dict, where: tuple, value) -> dict:
    new = copy.deepcopy(doc)
    if not where:
        return value if isinstance(value, dict) else new
    node = new
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    return new


def test_every_valid_document_takes_the_fast_path():
    assert len(documents()) >= 10
    for fmt, doc in documents().items():
        assert schemas._fast_accepts(fmt, doc["version"], doc), fmt
        assert jsonschema_accepts(doc), fmt


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_path_accepts_nothing_jsonschema_refuses(data):
    docs = documents()
    fmt = data.draw(st.sampled_from(sorted(docs)), label="format")
    doc = docs[fmt]
    where = data.draw(st.sampled_from(list(paths(doc))), label="where")
    extra = data.draw(st.booleans(), label="new key instead")
    value = data.draw(ODD, label="value")
    if extra:
        parent = doc
        for step in where:
            parent = parent[step]
        if not isinstance(parent, dict):
            return
        changed = copy.deepcopy(doc)
        node = changed
        for step in where:
            node = node[step]
        node["unknown"] = value
    else:
        changed = mutate(doc, where, value)
    if schemas._fast_accepts(fmt, doc["version"], changed):
        assert jsonschema_accepts(changed), (fmt, where, value)
