"""Issue 28, the lab's import (run in node): one validator, ``widgets/agent_schema.js``,
generated from the library's JSON Schema by ``scripts/make_agent_schema_js.py``; the
lab accepts a file exactly when :meth:`menace_lib.machine.menace.Menace.load` does, over
hostile files (1e308 beads and the rest), and its Export never writes a file the
library refuses."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from node_runner import NODE, run_module
from test_agent_files import CATALOGUE

from menace_lib.agents.registry import load_agent
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.training import train
from menace_lib.widgets import _bundle
from menace_lib.widgets.lab_data import lab_data
from menace_lib.widgets.lab_games import LabSettings

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
HERE = Path(_bundle.__file__).parent
ROOT = HERE.parents[1]


def uri(name: str) -> str:
    return json.dumps((HERE / name).as_uri())


SCRIPT = f"""
import {{ LabSession }} from {uri("lab_session.js")};
import {{ gameTables, menaceStructure }} from {uri("lab_tables.js")};
import {{ readAgentFile }} from {uri("lab_agent_file.js")};
import {{ menaceFileProblem, parseAgentBytes }} from {uri("agent_schema.js")};
let text = "";
for await (const chunk of process.stdin) text += chunk;
const job = JSON.parse(text);
const T = gameTables(job.data);
const imports = job.texts.map((t) => {{
  try {{
    const bytes = parseAgentBytes(new TextEncoder().encode(t));
    if (bytes.error) return {{ error: bytes.error }};
    const read = readAgentFile(T, bytes.doc, menaceStructure);  // what the lab's Import does next
    const settings = {{ ...job.settings, ...read.settings }};
    const session = new LabSession(T, settings, {{ beads: read.beads }});
    return {{ ok: true, exported: session.agentFile(1, read.games) }};
  }} catch (error) {{
    return {{ error: String(error.message) }};
  }}
}});
const exports = job.exports.map((doc) => menaceFileProblem(doc));
process.stdout.write(JSON.stringify({{ imports, exports }}));
"""


def library_accepts(text: str, tmp: Path) -> bool:
    path = tmp / "file.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_agent(path)
    except ValueError:
        return False
    return True


def base_docs() -> list[dict]:
    """Valid files of several configurations, trained a little."""
    configs = [
        MenaceConfig(),
        MenaceConfig(layout="class", player=2),
        MenaceConfig(filter="all", restock="none", schedule=(1,)),
        MenaceConfig(restock="move", floor=1, move_restock_beads=3, schedule=(4, 3, 2, 1)),
    ]
    docs = []
    for i, cfg in enumerate(configs):
        agent = Menace(cfg)
        train(agent, "mixed", 40, i)
        docs.append(agent.to_dict())
    return docs


HOSTILE_VALUES = [
    1e308,
    -1e308,
    1e13,
    1e12,
    1e12 + 1,
    -1,
    -0.0,
    0,
    0.5,
    5e-324,
    2**53,
    2**53 + 1,
    1e6,
    1e6 + 1,
    -1e6 - 1,
    "4",
    "",
    None,
    True,
    False,
    [],
    {},
    [4],
    {"a": 1},
    "X",
    "michie",
    "........X",
    9,
    8,
    -0.5,
    3.0,
]


def paths(doc, prefix=()):
    """Every path of ``doc`` (keys and list indices) to a value."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:4]):
            yield from paths(v, (*prefix, i))


def mutated(docs: list[dict], n: int, seed: int) -> list[str]:
    """``n`` texts: a valid file with one to three values replaced or removed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc = copy.deepcopy(rng.choice(docs))
        for _ in range(rng.randint(1, 3)):
            path = rng.choice([p for p in paths(doc) if p])
            holder = doc
            for key in path[:-1]:
                holder = holder[key]
            if rng.random() < 0.15 and isinstance(holder, dict):
                del holder[path[-1]]
            else:
                holder[path[-1]] = rng.choice(HOSTILE_VALUES)
        out.append(json.dumps(doc))
    return out


def named_attacks(docs: list[dict]) -> list[str]:
    texts = []
    for _, mutate, _ in CATALOGUE:
        doc = copy.deepcopy(docs[0])
        mutate(doc)
        texts.append(json.dumps(doc))
    good = json.dumps(docs[0])
    texts += [
        good.replace('"beads": [', '"beads": [1e308, ', 1),
        good.replace('"beads": [', '"beads": [1e400, ', 1),  # Infinity in a browser
        good.replace('"games_trained": ', '"games_trained": 1e400 + ', 1),
        good.replace('"version": 1', '"version": 1.0', 1),
        good.replace('"version": 1', '"version": 1e0', 1),
        good.replace('"games_trained": 40', '"games_trained": 40.0', 1),
        good.replace('"games_trained": 40', '"games_trained": 40.5', 1),
        good.replace('"games_trained": 40', '"games_trained": 1' + "0" * 40, 1),
        good.replace('"format"', '"\\u0066ormat"', 1),
        good.replace('"floor": 0.0', '"floor": 1e-320', 1),
        good[:-1] + ', "format": "menace_lib.menace"}',  # a repeated key: the last counts
        good[:-1] + ', "format": "other"}',
        good.replace("{", "{ ", 1) + "\n",
        "[" * 5000 + "]" * 5000,
        "",
        "null",
        '"menace"',
    ]
    return texts


def run(texts: list[str], exports: list[dict] = ()) -> dict:
    settings = LabSettings().to_dict()
    return run_module(
        SCRIPT, {"data": lab_data(), "settings": settings, "texts": texts, "exports": list(exports)}
    )


def test_the_module_is_generated_from_the_schema():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_agent_schema_js.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_lab_and_library_accept_the_same_hostile_files(tmp_path):
    docs = base_docs()
    texts = [json.dumps(d) for d in docs] + named_attacks(docs) + mutated(docs, 200, seed=28)
    got = run(texts)["imports"]
    disagree = []
    for text, lab in zip(texts, got, strict=True):
        python = library_accepts(text, tmp_path)
        if python != ("ok" in lab):
            disagree.append((text[:120], python, lab.get("error")))
    assert not disagree, disagree[:5]
    accepted = sum("ok" in lab for lab in got)
    assert len(docs) <= accepted < len(texts) / 2  # most hostile files are refused
    for lab in got:
        assert "error" not in lab or len(lab["error"]) < 300


def test_every_file_the_lab_exports_loads_in_the_library(tmp_path):
    docs = base_docs()
    got = run([json.dumps(d) for d in docs])["imports"]
    for lab in got:
        path = tmp_path / "export.json"
        path.write_text(json.dumps(lab["exported"]))
        load_agent(path)


def test_the_export_check_refuses_what_the_library_refuses():
    doc = base_docs()[0]
    broken = [copy.deepcopy(doc) for _ in range(4)]
    broken[0]["boxes"][0]["beads"][0] = 1e308
    broken[1]["boxes"][0]["beads"][0] = -1
    broken[2]["games_trained"] = 2**60
    broken[3]["config"]["schedule"] = [1e13]
    problems = run([], [doc, *broken])["exports"]
    assert problems[0] == ""
    assert all(problems[1:]), problems
    assert "boxes[0].beads[0]" in problems[1] and "games_trained" in problems[3]


def test_a_file_of_another_game_is_refused_by_name(tmp_path):
    """The lab plays noughts and crosses: a Hexapawn MENACE that ``train`` wrote is a good
    file of another game, refused in one line that names the game and where it plays."""
    from menace_lib import Menace, MenaceConfig

    path = tmp_path / "h.json"
    Menace(MenaceConfig(game="hexapawn", filter="all", schedule=(4, 3, 2))).save(path)
    (got,) = run([path.read_text()])["imports"]
    assert "hexapawn" in got["error"] and "noughts and crosses" in got["error"]
    assert "\n" not in got["error"] and "boxes[" not in got["error"]
