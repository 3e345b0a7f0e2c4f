"""The MENACE lab's link (``lab_settings.js``, run in node).

* Its option lists and limits are the library's.
* Any valid settings survive ``formatLink`` -> ``parseLink`` unchanged.
* Field by field, a link is used exactly when :class:`menace_lib.widgets.lab_games.LabSettings`
(and,
  for the speed, :class:`~menace_lib.widgets.LabWidget`) accepts the same value.
* A partial link keeps the defaults; a bad field is dropped and named, with its value,
  while the link's other fields are still used.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from node_runner import NODE, run_module

from menace_lib.base.limits import MAX_REINFORCEMENT, MAX_SCHEDULE_LENGTH
from menace_lib.games.statespace import FILTERS
from menace_lib.machine.beads import EMPTY_BOX_RULES, RESTOCKS
from menace_lib.machine.menace import LAYOUTS
from menace_lib.play.opponents import TIE_BREAKS
from menace_lib.widgets import _bundle
from menace_lib.widgets.lab import SPEED_LABELS
from menace_lib.widgets.lab_games import LAB_OPPONENTS, WIDGET_SETTINGS, LabSettings

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
MODULE = (Path(_bundle.__file__).parent / "lab_settings.js").as_uri()
SPEEDS = len(SPEED_LABELS)

SCRIPT = f"""
import * as lab from {json.dumps(MODULE)};
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const parse = (t) => lab.parseLink(t, input.base, input.speeds);
process.stdout.write(JSON.stringify({{
  constants: {{
    opponents: lab.OPPONENTS, tie_breaks: lab.TIE_BREAKS, layouts: lab.LAYOUTS,
    filters: lab.FILTERS, restocks: lab.RESTOCKS, empty: lab.EMPTY_BOX_RULES,
    max_reinforcement: lab.MAX_REINFORCEMENT, max_schedule: lab.MAX_SCHEDULE_LENGTH,
    names: lab.LINK_SETTINGS, key: lab.FRAGMENT_KEY,
  }},
  formatted: input.settings.map((s) => lab.formatLink(s)),
  round: input.settings.map((s) => parse(lab.formatLink(s))),
  parsed: input.links.map(parse),
}}));
"""


def defaults() -> dict:
    return {**LabSettings().to_dict(), "speed": 3, "log": False}


def run(settings: list[dict] = (), links: list[str] = ()) -> dict:
    payload = {"base": defaults(), "speeds": SPEEDS}
    payload |= {"settings": list(settings), "links": list(links)}
    return run_module(SCRIPT, payload)


def library_accepts(name: str, value) -> bool:
    """Whether the library takes `value` for setting `name`, the others at their defaults."""
    if name == "speed":
        return isinstance(value, int) and 0 <= value < SPEEDS
    if name == "log":
        return isinstance(value, bool)
    try:
        LabSettings(**{**asdict(LabSettings()), name: value})
    except (ValueError, TypeError):
        return False
    return True


def test_lists_and_limits_are_the_librarys():
    c = run()["constants"]
    assert c["key"] == "lab"
    assert c["opponents"] == list(LAB_OPPONENTS)
    for js, py in [
        ("tie_breaks", TIE_BREAKS),
        ("layouts", LAYOUTS),
        ("filters", FILTERS),
        ("restocks", RESTOCKS),
        ("empty", EMPTY_BOX_RULES),
    ]:
        assert sorted(c[js]) == sorted(py), js
    assert c["max_reinforcement"] == MAX_REINFORCEMENT
    assert c["max_schedule"] == MAX_SCHEDULE_LENGTH
    assert c["names"] == [*WIDGET_SETTINGS, "speed", "log"]


INCENTIVES = [3, 1, -1, 0, -0.5, 1e6, -1e6, 0.3]


def random_settings(rng: np.random.Generator) -> dict:
    """Valid settings with every field drawn (awkward floats included)."""
    while True:
        floor = float(rng.choice([0, 0.5, 1, 1e-7]))
        length = rng.integers(1, MAX_SCHEDULE_LENGTH + 1)
        schedule = [float(x) for x in rng.choice([1, 2, 3, 4, 8, 0.1, 2.5, 1e-7, 1e12], length)]
        refill = rng.choice([None, 3.0, 0.75, 1e12])
        values = {
            "opponent": str(rng.choice(LAB_OPPONENTS)),
            "tie_break": str(rng.choice(TIE_BREAKS)),
            "side": str(rng.choice(["X", "O"])),
            "layout": str(rng.choice(LAYOUTS)),
            "filter": str(rng.choice(FILTERS)),
            "schedule": tuple(schedule),
            "reinforcement": tuple(float(x) for x in rng.choice(INCENTIVES, 3)),
            "restock": str(rng.choice(RESTOCKS)),
            "empty_box": str(rng.choice(EMPTY_BOX_RULES)),
            "floor": floor,
            "move_restock_beads": None if refill is None else float(refill),
            "seed": int(rng.integers(0, 2**32)),
        }
        try:
            settings = LabSettings(**values)
        except ValueError:
            continue
        view = {"speed": int(rng.integers(0, SPEEDS)), "log": bool(rng.integers(2))}
        return {**settings.to_dict(), **view}


def test_every_valid_setting_round_trips():
    rng = np.random.default_rng(20261124)
    settings = [defaults()] + [random_settings(rng) for _ in range(60)]
    out = run(settings=settings)
    assert out["formatted"][0] == (
        "opp:perfect;tie:uniform;side:X;layout:class;filter:decision;beads:4-3-2-1;"
        "inc:3,1,-1;restock:box;empty:resign;floor:0;refill:initial;seed:1;speed:3;log:0"
    )
    for s, text, back in zip(settings, out["formatted"], out["round"], strict=True):
        assert back["problems"] == [], text
        assert back["settings"] == s, text
        assert len(back["used"]) == len(s)
        assert not any(ch in text for ch in "&=# "), text  # fits fragment.js's rules


# (link field, setting, the value the library is offered): parsed alone, the field is used
# exactly when the library accepts that value.
CASES = [
    *[(f"opp:{o}", "opponent", o) for o in [*LAB_OPPONENTS, "Perfect", "wizard", ""]],
    *[(f"tie:{t}", "tie_break", t) for t in [*TIE_BREAKS, "random"]],
    ("side:X", "side", "X"),
    ("side:O", "side", "O"),
    ("side:x", "side", "x"),
    *[(f"layout:{v}", "layout", v) for v in [*LAYOUTS, "squares"]],
    *[(f"filter:{v}", "filter", v) for v in [*FILTERS, "none"]],
    *[(f"restock:{v}", "restock", v) for v in [*RESTOCKS, "all"]],
    *[(f"empty:{v}", "empty_box", v) for v in [*EMPTY_BOX_RULES, "panic"]],
    ("beads:8-4-2-1", "schedule", (8, 4, 2, 1)),
    ("beads:0.5", "schedule", (0.5,)),
    ("beads:0-0-0", "schedule", (0, 0, 0)),
    ("beads:" + "-".join(["1"] * 9), "schedule", (1,) * 9),
    ("beads:" + "-".join(["1"] * 10), "schedule", (1,) * 10),
    ("beads:1e12", "schedule", (1e12,)),
    ("beads:2e12", "schedule", (2e12,)),
    ("beads:Infinity", "schedule", (float("inf"),)),
    ("inc:3,1,-1", "reinforcement", (3, 1, -1)),
    ("inc:1e6,0,-1e6", "reinforcement", (1e6, 0, -1e6)),
    ("inc:2e6,0,0", "reinforcement", (2e6, 0, 0)),
    ("inc:3,1", "reinforcement", (3, 1)),
    ("inc:3,1,-1,0", "reinforcement", (3, 1, -1, 0)),
    ("floor:0.5", "floor", 0.5),
    ("floor:1", "floor", 1),
    ("floor:2", "floor", 2),  # above the last move's 1 bead
    ("floor:-1", "floor", -1),
    ("refill:initial", "move_restock_beads", None),
    ("refill:3", "move_restock_beads", 3),
    ("refill:0", "move_restock_beads", 0),  # not above the clamp level 0
    ("refill:1e13", "move_restock_beads", 1e13),
    ("seed:0", "seed", 0),
    ("seed:4294967295", "seed", 2**32 - 1),
    ("seed:4294967296", "seed", 2**32),
    ("speed:0", "speed", 0),
    (f"speed:{SPEEDS - 1}", "speed", SPEEDS - 1),
    (f"speed:{SPEEDS}", "speed", SPEEDS),
    ("log:1", "log", True),
    ("log:0", "log", False),
]


def test_a_field_is_used_exactly_when_the_library_accepts_it():
    out = run(links=[text for text, _, _ in CASES])["parsed"]
    for (text, name, value), parsed in zip(CASES, out, strict=True):
        accepted = library_accepts(name, value)
        assert (parsed["problems"] == []) == accepted, (text, parsed["problems"])
        if accepted:
            expected = list(value) if isinstance(value, tuple) else value
            assert parsed["settings"][name] == expected and parsed["used"] == [name], text
        else:
            key, _, raw = text.partition(":")
            assert parsed["settings"] == defaults() and parsed["used"] == [], text
            (problem,) = parsed["problems"]
            assert problem.startswith(f'{key} "{raw}"'), problem  # names the field and value


def test_bad_or_partial_links_keep_the_rest():
    links = [
        "seed:7",
        "",
        "seed:7;opp:wizard;zoom:3;floor:x;inc:3,1,-2",
        "seed:1.5;seed:9",
        "opp:random;opp:human",
        "beads:8-4-2-1;floor:5;refill:6",
        "beads:1-1;floor:2",
        "floor:1;refill:0.5",
        "%%%",
        "seed" + ":1" * 400,
    ]
    p = run(links=links)["parsed"]
    base = defaults()
    assert p[0] == {"settings": {**base, "seed": 7}, "used": ["seed"], "problems": []}
    assert p[1] == {"settings": base, "used": [], "problems": []}

    assert p[2]["settings"] == {**base, "seed": 7, "reinforcement": [3, 1, -2]}
    assert p[2]["problems"] == [
        'opp "wizard" is not one of human, random, defensive, perfect, menace',
        '"zoom" is not a setting (use opp, tie, side, layout, filter, beads, inc, restock, '
        "empty, floor, refill, seed, speed, log)",
        'floor "x" is not a number',
    ]
    assert p[3]["settings"] == base and len(p[3]["problems"]) == 2
    assert "seed is given twice" in p[3]["problems"][1]
    assert p[4]["settings"]["opponent"] == "random" and "opp is given twice" in p[4]["problems"][0]

    # Combinations LabSettings refuses: the link's clamp level goes first.
    assert p[5]["settings"] == {**base, "schedule": [8, 4, 2, 1], "move_restock_beads": 6}
    assert p[5]["problems"] == [
        'floor "5" was not used: the initial beads 8-4-2-1 go below the clamp level 5'
    ]
    assert p[6]["settings"] == {**base, "schedule": [1, 1]}
    assert p[7]["settings"] == {**base, "move_restock_beads": 0.5}
    assert "the move-restock beads 0.5 are not above the clamp level 1" in p[7]["problems"][0]
    for parsed in p[5:8]:
        LabSettings(**{k: v for k, v in parsed["settings"].items() if k not in ("speed", "log")})

    assert p[8]["problems"] == [
        '"%%%" is not a setting (use opp, tie, side, layout, filter, beads, inc, restock, '
        "empty, floor, refill, seed, speed, log)"
    ]
    assert p[9]["settings"] == base and "too long" in p[9]["problems"][0]


def test_a_long_bad_value_is_quoted_short():
    (parsed,) = run(links=["opp:" + "a" * 200])["parsed"]
    (problem,) = parsed["problems"]
    assert len(problem) < 120 and "…" in problem
