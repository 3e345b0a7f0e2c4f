"""Agent files: schema, round trips, and a corpus of hostile files.

Every hostile file must be refused with :class:`AgentFileError` -- never accepted,
never another exception. The corpus is generated and mutated by hypothesis from
real saved agents, plus a catalogue of named attacks.
"""

import contextlib
import copy
import json
import math
import subprocess
import sys
from functools import cache

import numpy as np
import pytest
from budget import examples
from hypothesis import given
from hypothesis import strategies as st

from menace_lib import schemas
from menace_lib.agents.registry import agent_from_dict, load_agent, thesis_kinds
from menace_lib.base import limits
from menace_lib.base.files import AgentFileError, read_json, write_json
from menace_lib.experiments.suite import make_agent
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.checkpoints import DEFAULT_PATH, parse_checkpoints
from menace_lib.play.training import train

# Loading an agent costs tens of milliseconds (schema and construction), so example
# counts are kept small (more under --hypothesis-profile=thorough: tests/budget.py).


@cache
def base_docs() -> tuple[str, ...]:
    """Saved agents of several configurations, as JSON text (the corpus seeds)."""
    configs = [
        MenaceConfig(),
        MenaceConfig(layout="class", player=2, restock="move", move_restock_beads=1),
        MenaceConfig(filter="all", restock="none", floor=0.5, schedule=(8, 4, 2, 1)),
    ]
    docs = []
    for i, cfg in enumerate(configs):
        agent = Menace(cfg)
        train(agent, "mixed", 40, np.random.default_rng(i))
        docs.append(json.dumps(agent.to_dict()))
    return tuple(docs)


def base(i: int) -> dict:
    return json.loads(base_docs()[i])


def load_text(tmp_path, text: str | bytes, name: str = "agent.json") -> Menace:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return Menace.load(path)


def locations(doc, here=()):
    """Every (path, value) in a JSON document, the root excluded."""
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return
    for key, value in items:
        yield (*here, key), value
        yield from locations(value, (*here, key))


def at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


# --- the schema --------------------------------------------------------------------


def test_validating_skips_jsonschemas_slow_optional_uri_checker():
    """rfc3987_syntax builds parsers for seconds at import; our schemas use no ``format``.

    A checkpoint load (the play widget's first cell) must not pay for it: a valid file is
    accepted by jsonschema-rs without importing jsonschema at all, and a refused one is
    worded by jsonschema without the URI checker, which stays importable for anyone else.
    """
    code = (
        "import sys\n"
        "from menace_lib import schemas\n"
        "from menace_lib.play.checkpoints import load_checkpoints\n"
        "load_checkpoints()\n"
        "print('jsonschema' in sys.modules)\n"
        "try:\n"
        "    schemas.validate({'format': 'menace_lib.menace', 'version': 1, 'boxes': 'x'})\n"
        "except schemas.AgentFileError as err:\n"
        "    print('refused:', err)\n"
        "assert 'jsonschema' in sys.modules\n"
        "print('rfc3987_syntax' in sys.modules, sys.modules.get('rfc3987_syntax', 0) is None)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "False", done.stdout + done.stderr  # the valid load: no jsonschema
    assert lines[1].startswith("refused: "), done.stdout
    assert lines[2].split() == ["False", "False"], done.stdout + done.stderr


def test_every_packaged_schema_is_a_valid_draft_2020_12_schema():
    from jsonschema import Draft202012Validator

    assert ("menace_lib.menace", 1) in schemas.known_formats()
    assert ("menace_lib.checkpoints", 1) in schemas.known_formats()
    for fmt, version in schemas.known_formats():
        Draft202012Validator.check_schema(schemas.schema_for(fmt, version))


def test_the_schema_repeats_the_documented_limits():
    defs = schemas.schema_for("menace_lib.menace", 1)["$defs"]
    assert defs["beads"]["maximum"] == limits.MAX_BEADS
    assert defs["reinforcement"]["maximum"] == limits.MAX_REINFORCEMENT
    assert defs["reinforcement"]["minimum"] == -limits.MAX_REINFORCEMENT
    config = defs["config"]["properties"]
    assert config["schedule"]["maxItems"] == limits.MAX_SCHEDULE_LENGTH
    top = schemas.schema_for("menace_lib.menace", 1)["properties"]
    assert top["games_trained"]["maximum"] == limits.MAX_GAMES_TRAINED
    assert set(config) == set(MenaceConfig.__dataclass_fields__)


def test_the_other_schemas_repeat_the_limits_and_the_config_fields():
    from dataclasses import fields

    from menace_lib.agents.aif.config import AIFConfig
    from menace_lib.agents.rl import RLConfig

    aif = schemas.schema_for("menace_lib.aif.instrumental", 1)
    props = aif["$defs"]["config"]["properties"]
    assert set(props) == {f.name for f in fields(AIFConfig)}
    assert props["bead_scale"]["maximum"] == props["opponent_alpha"]["maximum"] == limits.MAX_BEADS
    assert aif["$defs"]["count"]["maximum"] == limits.MAX_BEADS
    rl = schemas.schema_for("menace_lib.rl.sarsa", 1)
    assert set(rl["properties"]["config"]["properties"]) == {f.name for f in fields(RLConfig)}
    assert rl["$defs"]["reward"]["maximum"] == limits.MAX_REINFORCEMENT
    reachable = 6 * limits.MAX_REINFORCEMENT  # |q_init| + 5 rewards
    assert rl["properties"]["q"]["items"]["properties"]["values"]["items"]["maximum"] > reachable


@cache
def trained(kind: str) -> str:
    """An agent of ``kind`` after 20 training games, as saved JSON text."""
    agent = make_agent(kind)
    train(agent, "mixed", 20, np.random.default_rng(7))
    return json.dumps(agent.to_dict())


@pytest.mark.parametrize("kind", thesis_kinds())
def test_every_saved_kind_of_agent_passes_its_schema_and_round_trips(tmp_path, kind):
    """Each agent kind must save, pass its schema, and load back to the same document."""
    doc = json.loads(trained(kind))
    schemas.validate(doc)
    path = write_json(tmp_path / "agent.json", doc)
    again = load_agent(path)
    assert type(again) is type(make_agent(kind))
    assert again.to_dict() == doc


@examples(20)
@given(data=st.data())
def test_hostile_files_of_every_kind_are_refused(data):
    kind = data.draw(st.sampled_from(thesis_kinds()))
    doc = json.loads(trained(kind))
    where = list(locations(doc))
    path, _ = where[data.draw(st.integers(0, len(where) - 1))]
    at(doc, path[:-1])[path[-1]] = data.draw(WRONG_IN_ANY_KIND)
    with pytest.raises(AgentFileError):
        agent_from_dict(doc)


def test_the_packaged_checkpoints_pass_their_schema():
    schemas.validate(read_json(DEFAULT_PATH))


# --- round trips -------------------------------------------------------------------


@st.composite
def configs(draw):
    restock = draw(st.sampled_from(["none", "move", "box"]))
    floor = draw(st.sampled_from([0.0, 0.0, 0.25, 1.0]))
    low = max(floor, 0.5 if restock != "none" else 0.0)
    schedule = tuple(draw(st.lists(st.floats(low, 50, allow_nan=False), min_size=1, max_size=5)))
    refill = None
    if restock == "move" and draw(st.booleans()):
        refill = draw(st.floats(floor + 0.5, 10))
    reward = tuple(draw(st.floats(-5, 5, allow_nan=False)) for _ in range(3))
    return MenaceConfig(
        filter=draw(st.sampled_from(["all", "decision", "michie"])),
        schedule=schedule,
        reinforcement=reward,
        restock=restock,
        empty_box=draw(st.sampled_from(["resign", "stop", "web"])),
        layout=draw(st.sampled_from(["square", "class"])),
        player=draw(st.sampled_from([1, 2])),
        floor=floor,
        move_restock_beads=refill,
    )


@examples(8)
@given(config=configs(), games=st.integers(0, 10), seed=st.integers(0, 2**32))
def test_save_then_load_gives_back_the_same_agent(tmp_path_factory, config, games, seed):
    agent = Menace(config)
    train(agent, "mixed", games, np.random.default_rng(seed))
    path = tmp_path_factory.mktemp("rt") / "agent.json"
    agent.save(path)
    again = Menace.load(path)
    assert again.config == agent.config
    assert again.weights == agent.weights
    assert (again.frozen, again.games_trained) == (agent.frozen, agent.games_trained)
    assert again.to_dict() == agent.to_dict()


def test_training_at_the_limits_still_saves_a_file_that_loads(tmp_path):
    # The case: train --reward 1e308,... saved Infinity. Now rewards are capped
    # and beads stop at MAX_BEADS, so even a huge run stays finite and loadable.
    big = limits.MAX_REINFORCEMENT
    agent = Menace(MenaceConfig(schedule=(limits.MAX_BEADS,), reinforcement=(big, big, -big)))
    train(agent, "random", 50, np.random.default_rng(0))
    assert all(math.isfinite(sum(w)) for w in agent.weights)
    assert max(max(w) for w in agent.weights) == limits.MAX_BEADS
    agent.save(tmp_path / "a.json")
    assert Menace.load(tmp_path / "a.json").weights == agent.weights


def test_save_refuses_an_agent_whose_beads_were_broken_by_hand(tmp_path):
    agent = Menace()
    agent.weights[0][0] = float("inf")
    with pytest.raises(AgentFileError, match=r"boxes\[0\]\.beads\[0\]"):
        agent.save(tmp_path / "a.json")
    assert not (tmp_path / "a.json").exists()


# --- a catalogue of named attacks ---------------------------------------------------


def _set(path, value):
    def mutate(d):
        at(d, path[:-1])[path[-1]] = value

    return mutate


def _delete(path):
    def mutate(d):
        del at(d, path[:-1])[path[-1]]

    return mutate


CATALOGUE = [
    ("not an object", lambda d: d.clear() or d.update({"x": [1]}), "format"),
    ("format pickle", _set(("format",), "pickle"), "format"),
    ("version 2", _set(("version",), 2), "version"),
    ("version true", _set(("version",), True), "version"),
    ("unknown top-level key", _set(("padding",), "x" * 1000), "padding"),
    ("unknown config key", _set(("config", "evil"), "rm -rf"), "evil"),
    ("unknown box key", _set(("boxes", 3, "note"), 1), r"boxes\[3\]"),
    ("config missing", _delete(("config",)), "config"),
    ("boxes missing", _delete(("boxes",)), "boxes"),
    ("board missing", _delete(("boxes", 0, "board")), r"boxes\[0\]"),
    ("filter unknown", _set(("config", "filter"), "x"), "config.filter"),
    ("player lowercase", _set(("config", "player"), "x"), "config.player"),
    ("player number", _set(("config", "player"), 1), "config.player"),
    ("schedule empty", _set(("config", "schedule"), []), "config.schedule"),
    ("schedule string", _set(("config", "schedule"), "4,3,2,1"), "config.schedule"),
    ("schedule too long", _set(("config", "schedule"), [1] * 10), "config.schedule"),
    ("schedule zero under box restock", _set(("config", "schedule"), [0]), "schedule"),
    ("reward 1e308", _set(("config", "reinforcement"), [1e308, 1, -1]), "reinforcement"),
    ("reward two values", _set(("config", "reinforcement"), [3, 1]), "reinforcement"),
    ("floor above beads", _set(("config", "floor"), 50), "floor"),
    ("refill below floor", _set(("config", "move_restock_beads"), -1), "move_restock"),
    ("frozen string", _set(("frozen",), "yes"), "frozen"),
    ("games negative", _set(("games_trained",), -1), "games_trained"),
    ("games float", _set(("games_trained",), 1.5), "games_trained"),
    ("games huge", _set(("games_trained",), 2**60), "games_trained"),
    ("one box short", lambda d: d["boxes"].pop(), "boxes"),
    ("one box extra", lambda d: d["boxes"].append(copy.deepcopy(d["boxes"][0])), "boxes"),
    ("boxes swapped", lambda d: d["boxes"].insert(0, d["boxes"].pop(5)), r"boxes\[0\]"),
    ("board wrong", _set(("boxes", 5, "board"), "XXXXXXXXX"), r"boxes\[5\]\.board"),
    ("board lowercase", _set(("boxes", 5, "board"), "........x"), r"boxes\[5\]\.board"),
    ("moves wrong", _set(("boxes", 2, "moves"), [0]), r"boxes\[2\]\.moves"),
    ("move 9", _set(("boxes", 2, "moves", 0), 9), r"boxes\[2\]\.moves"),
    ("bead negative", _set(("boxes", 7, "beads", 0), -3), r"boxes\[7\]\.beads\[0\]"),
    ("bead string", _set(("boxes", 7, "beads", 1), "lots"), r"boxes\[7\]\.beads\[1\]"),
    ("bead 1e300", _set(("boxes", 7, "beads", 1), 1e300), r"boxes\[7\]\.beads\[1\]"),
    ("bead huge int", _set(("boxes", 7, "beads", 1), 10**25), r"boxes\[7\]\.beads\[1\]"),
    ("bead null", _set(("boxes", 7, "beads", 1), None), r"boxes\[7\]\.beads\[1\]"),
    ("bead bool", _set(("boxes", 7, "beads", 1), True), r"boxes\[7\]\.beads\[1\]"),
    ("beads short", lambda d: d["boxes"][7]["beads"].pop(), r"boxes\[7\]\.beads"),
    (
        "empty box under box restock",
        lambda d: d["boxes"][4].update(beads=[0] * len(d["boxes"][4]["beads"])),
        r"boxes\[4\]\.beads: an empty box",
    ),
]


@pytest.mark.parametrize(("name", "mutate", "field"), CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_catalogued_attacks_are_refused_naming_the_field(tmp_path, name, mutate, field):
    doc = base(0)
    mutate(doc)
    with pytest.raises(AgentFileError, match=field):
        load_text(tmp_path, json.dumps(doc))


def test_an_empty_box_is_accepted_only_without_restock(tmp_path):
    doc = base(2)  # restock "none", floor 0.5
    doc["config"]["floor"] = 0.0
    doc["boxes"][4]["beads"] = [0.0] * len(doc["boxes"][4]["beads"])
    assert Menace.from_dict(doc).weights[4] == doc["boxes"][4]["beads"]


def test_beads_below_the_clamp_level_are_refused():
    doc = base(2)  # floor 0.5
    doc["boxes"][9]["beads"][0] = 0.25
    with pytest.raises(AgentFileError, match=r"boxes\[9\]\.beads\[0\].*clamp level"):
        Menace.from_dict(doc)


RAW_ATTACKS = [
    ("pickle bytes", b"\x80\x04\x95\x00 pickle", "UTF-8"),
    ("utf-16", json.dumps({"format": "menace_lib.menace"}).encode("utf-16"), "UTF-8"),
    ("byte-order mark", b"\xef\xbb\xbf{}", "not valid JSON"),
    ("NaN bead", None, "non-finite"),
    ("Infinity bead", None, "non-finite"),
    ("1e400 bead", None, "out of range"),
    ("10**400 bead", None, "too many digits"),
    ("nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ("nested inside a box", None, r"boxes\[0\]\.beads"),
    ("truncated", None, "not valid JSON"),
    ("empty", b"", "not valid JSON"),
    ("trailing garbage", None, "not valid JSON"),
]


def _raw(name: str) -> bytes:
    text = base_docs()[0]
    bead = '"beads": [' + str(base(0)["boxes"][0]["beads"][0])
    replacements = {
        "NaN bead": '"beads": [NaN',
        "Infinity bead": '"beads": [Infinity',
        "1e400 bead": '"beads": [1e400',
        "10**400 bead": '"beads": [' + "1" + "0" * 400,
        "nested inside a box": '"beads": [' + "[" * 500 + "]" * 500,
    }
    if name in replacements:
        assert bead in text
        return text.replace(bead, replacements[name], 1).encode()
    if name == "truncated":
        return text[: len(text) // 2].encode()
    if name == "trailing garbage":
        return (text + "}").encode()
    raise KeyError(name)


@pytest.mark.parametrize(("name", "raw", "message"), RAW_ATTACKS, ids=[a[0] for a in RAW_ATTACKS])
def test_raw_attacks_are_refused(tmp_path, name, raw, message):
    with pytest.raises(AgentFileError, match=message):
        load_text(tmp_path, raw if raw is not None else _raw(name))


def test_a_200_megabyte_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:  # sparse: no disk space used
        f.write(base_docs()[0][:-1].encode() + b', "pad": "')
        f.truncate(200 * 1024 * 1024)
    with pytest.raises(AgentFileError, match="limit"):
        Menace.load(path)


# --- generated and mutated hostile files --------------------------------------------

# Values that are wrong wherever they are put in an agent file.
ALWAYS_WRONG = st.sampled_from(
    [
        {"unexpected": 1},
        "\u2603",
        "x" * 10_000,
        1e300,
        -1e300,
        [],
        [[[[[[[[[[[]]]]]]]]]]],
        10**25,
    ]
)


# Wrong wherever they land in a file of any kind (an empty list or a huge positive
# number can be valid in some kinds: no Q rows yet, a large λ).
WRONG_IN_ANY_KIND = st.sampled_from(
    [{"unexpected": 1}, "\u2603", "x" * 10_000, -1e300, [[[[[[[[[[[]]]]]]]]]]]]
)


@st.composite
def hostile_documents(draw):
    """A saved agent with one change that makes it wrong wherever it lands."""
    doc = base(draw(st.integers(0, len(base_docs()) - 1)))
    where = list(locations(doc))
    kind = draw(st.sampled_from(["replace", "add key", "delete required", "append", "swap"]))
    if kind == "replace":
        path, _ = where[draw(st.integers(0, len(where) - 1))]
        at(doc, path[:-1])[path[-1]] = draw(ALWAYS_WRONG)
    elif kind == "add key":
        objects = [doc] + [v for _, v in where if isinstance(v, dict)]
        obj = objects[draw(st.integers(0, len(objects) - 1))]
        obj[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in obj))] = 0
    elif kind == "delete required":
        box = doc["boxes"][draw(st.integers(0, len(doc["boxes"]) - 1))]
        target = draw(st.sampled_from(["format", "version", "config", "boxes", "box"]))
        if target == "box":
            del box[draw(st.sampled_from(["board", "moves", "beads"]))]
        else:
            del doc[target]
    elif kind == "append":
        box = doc["boxes"][draw(st.integers(0, len(doc["boxes"]) - 1))]
        target = draw(st.sampled_from(["boxes", "beads", "moves", "reinforcement"]))
        if target == "boxes":
            doc["boxes"].append(copy.deepcopy(box))
        elif target == "reinforcement":
            doc["config"]["reinforcement"].append(1)
        else:
            box[target].append(box[target][0])
    else:
        i, j = draw(st.lists(st.integers(0, len(doc["boxes"]) - 1), min_size=2, unique=True))[:2]
        doc["boxes"][i], doc["boxes"][j] = doc["boxes"][j], doc["boxes"][i]
    return doc


@st.composite
def hostile_bytes(draw):
    """A saved agent's text, corrupted so that it is no longer a valid file."""
    text = base_docs()[draw(st.integers(0, len(base_docs()) - 1))].encode()
    kind = draw(st.sampled_from(["truncate", "bad byte", "non-finite", "nest"]))
    cut = draw(st.integers(0, len(text) - 1))
    if kind == "truncate":
        return text[:cut]
    if kind == "bad byte":
        return text[:cut] + bytes([draw(st.integers(0xF8, 0xFF))]) + text[cut:]
    if kind == "non-finite":
        token = draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 40]))
        numbers = [i for i in range(len(text)) if text[i : i + 10] == b'"beads": [']
        i = numbers[draw(st.integers(0, len(numbers) - 1))] + 10
        return text[:i] + token + b"," + text[i:]
    depth = draw(st.integers(2_000, 50_000))
    return text[:-1] + b', "deep": ' + b"[" * depth + b"]" * depth + b"}"


@examples(15)
@given(doc=hostile_documents())
def test_generated_hostile_documents_are_refused(doc):
    with pytest.raises(AgentFileError):
        Menace.from_dict(doc)


@examples(60)
@given(raw=hostile_bytes())
def test_corrupted_files_are_refused(tmp_path_factory, raw):
    with pytest.raises(AgentFileError):
        load_text(tmp_path_factory.mktemp("bad"), raw)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@examples(30)
@given(value=json_values)
def test_arbitrary_json_is_never_an_agent(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("any") / "x.json"
    path.write_text(json.dumps(value))  # NaN/Infinity are written as bare tokens
    with pytest.raises(AgentFileError):
        Menace.load(path)
    with pytest.raises(AgentFileError):
        parse_checkpoints(value)


@examples(15)
@given(data=st.data())
def test_any_change_to_a_file_loads_or_raises_agent_file_error(data):
    """Random changes -- even harmless ones -- never raise anything but AgentFileError."""
    doc = base(data.draw(st.integers(0, len(base_docs()) - 1)))
    for _ in range(data.draw(st.integers(1, 3))):
        where = list(locations(doc))  # again: an earlier change may have replaced a subtree
        if not where:
            break
        path, _ = where[data.draw(st.integers(0, len(where) - 1))]
        at(doc, path[:-1])[path[-1]] = data.draw(json_values)
    with contextlib.suppress(AgentFileError):
        Menace.from_dict(doc)


@pytest.mark.parametrize("key", ["²", "١٢", "-1", "", "1" * 13, "1e3", "25\n"])
def test_checkpoint_keys_must_be_ascii_digits(key):
    doc = read_json(DEFAULT_PATH)
    doc["X"] = {key: doc["X"]["25"]}
    with pytest.raises(AgentFileError, match=r"X\["):
        parse_checkpoints(doc)


@examples(10)
@given(data=st.data())
def test_hostile_checkpoint_documents_are_refused(data):
    doc = read_json(DEFAULT_PATH)
    side = data.draw(st.sampled_from(["X", "O"]))
    key = data.draw(st.sampled_from(sorted(doc[side])))
    for s in ("X", "O"):  # one agent per side keeps each example fast
        doc[s] = {key: doc[s][key]}
    change = data.draw(st.sampled_from(["key", "agent", "top"]))
    if change == "key":
        doc[side][data.draw(st.sampled_from(["²", "١٢", "-1", "", "1" * 13, "1e3"]))] = doc[
            side
        ].pop(key)
    elif change == "agent":
        agent = doc[side][key]
        path, _ = data.draw(st.sampled_from(list(locations(agent))[:50]))
        at(agent, path[:-1])[path[-1]] = data.draw(ALWAYS_WRONG)
    else:
        wrong = data.draw(st.sampled_from([{"unexpected": 1}, 1e300, -1.5, [], None]))
        doc[data.draw(st.sampled_from(["seed", "recipe", "X", "O"]))] = wrong
    with pytest.raises(AgentFileError):
        parse_checkpoints(doc)
