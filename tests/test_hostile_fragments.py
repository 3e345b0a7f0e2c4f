"""Issue 28, fragment readers (run in node): the λ explorer's, the lab's and the play
widget's links are capped before parsing, and no message echoes more than a prefix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from node_runner import NODE, run_module

from menace_lib.widgets import _bundle

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
HERE = Path(_bundle.__file__).parent


def uri(name: str) -> str:
    return json.dumps((HERE / name).as_uri())


SCRIPT = f"""
import * as fragment from {uri("fragment.js")};
import {{ decodeSettings }} from {uri("lambda_explorer.js")};
import {{ parseLink }} from {uri("lab_settings.js")};
import {{ parseSettings }} from {uri("play.js")};
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const attempt = (f) => {{
  try {{
    return {{ value: f() }};
  }} catch (error) {{
    return {{ error: String(error.message), kind: error.name }};
  }}
}};
const lambdaBase = {{
  lam: 1, lambda_policy: 0.25, pref_weights: [0.6, 0.35, 0.05], risk_form: "kl",
  custom_alphas: [[1, 1, 1]],
}};
const playData = {{
  defaults: {{ checkpoint: 25, human: "O", auto: true, learn: false, seed: 1 }},
  checkpoints: [25],
}};
const out = {{ max: fragment.MAX_FRAGMENT_VALUE, cases: [] }};
for (const value of input.values) {{
  const hash = "#other=1&" + input.key + "=" + value + "&after";
  const read = attempt(() => fragment.fragmentValue(hash, input.key));
  const direct = {{
    lambda: attempt(() => decodeSettings(value, lambdaBase)),
    lab: attempt(() => parseLink(value, input.lab_base, 5)),
    play: attempt(() => parseSettings(playData, value)),
  }};
  const got = read.error ? read : {{ length: read.value.length }};
  out.cases.push({{ length: value.length, read: got, direct }});
}}
process.stdout.write(JSON.stringify(out));
"""


def lab_base() -> dict:
    from dataclasses import asdict

    from menace_lib.widgets.lab_games import LabSettings

    base = asdict(LabSettings())
    base.update(speed=2, log=False)
    return base


def messages(case: dict) -> list[str]:
    found = []
    for result in case["direct"].values():
        if "error" in result:
            found.append(result["error"])
        elif isinstance(result["value"], dict):
            found += result["value"].get("problems", [])
            if "error" in result["value"]:
                found.append(result["value"]["error"])
    return found


@pytest.mark.parametrize("key", ["lambda", "lab", "play"])
def test_an_80000_character_fragment_is_refused_before_parsing(key):
    values = [
        "a:" + "1,1,1/" * 13_334,  # 80,000 characters of counts
        "lam:" + "9" * 80_000,
        "x" * 1_900_000,
        "%" * 80_000,
        "w:" + "0.5," * 300,  # within the cap: parsed, and its messages stay short
    ]
    out = run_module(SCRIPT, {"key": key, "values": values, "lab_base": lab_base()})
    cap = out["max"]
    for case in out["cases"]:
        if case["length"] > cap:
            read = case["read"]
            assert read["kind"] == "RangeError"
            assert f"{case['length']:,}" in read["error"] and len(read["error"]) < 150
        else:
            assert case["read"] == {"length": case["length"]}
        for message in messages(case):  # parsed directly: nothing long is echoed
            assert len(message) < 300, message[:100]


def test_a_value_at_the_cap_is_read():
    out = run_module(
        SCRIPT, {"key": "lambda", "values": ["x" * 1000, "x" * 1001], "lab_base": lab_base()}
    )
    assert out["max"] == 1000
    assert out["cases"][0]["read"] == {"length": 1000}
    assert out["cases"][1]["read"]["kind"] == "RangeError"
