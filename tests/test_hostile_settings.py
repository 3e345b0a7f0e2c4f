"""Issue 28, settings: ``--set`` values go through the same typed checks as options,
and every derived quantity (κ·prior, the preferences' sum) is checked before work."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menace_lib.agents.aif.config import AIFConfig
from menace_lib.base.files import AgentFileError, loads
from menace_lib.base.limits import MAX_BEADS, MAX_GAMES
from menace_lib.book.beyond import get_sweep
from menace_lib.cli import main
from menace_lib.maths.efe import normalise_preferences

QUICK = settings(max_examples=150, deadline=None)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.mark.parametrize("value", ["Infinity", "[5]", "true", "5.5", "NaN", "1e400", "-1", "0"])
def test_bad_set_values_get_one_line(capsys, value):
    assert main(["experiment", "priors", "--seeds", "1", "--set", f"games={value}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "games" in err and "Traceback" not in err


def test_an_80000_character_set_value_is_echoed_short(capsys):
    assert main(["experiment", "priors", "--set", "games=[" + "1," * 40000 + "1]"]) == 2
    assert len(capsys.readouterr().err) < 200


@QUICK
@given(JSON_VALUES)
def test_whole_number_options_take_only_whole_numbers(value):
    sweep = get_sweep("priors")
    try:
        got = sweep.check_option("games", value)
    except ValueError as err:
        assert "games" in str(err) and len(str(err)) < 200
        return
    assert type(got) is int and got == value and not isinstance(value, bool)
    assert 1 <= got <= MAX_GAMES


@QUICK
@given(JSON_VALUES)
def test_rate_options_take_only_finite_rates(value):
    sweep = get_sweep("opponent-model")
    try:
        got = sweep.check_option("decay", value)
    except ValueError:
        return
    assert math.isfinite(got) and 0 <= got <= 1 and not isinstance(value, bool)


@QUICK
@given(st.text(max_size=30))
def test_set_text_parses_strictly_or_says_why(text):
    try:
        value = loads(text, "--set games: VALUE")
    except AgentFileError as err:
        assert str(err).startswith("--set games: VALUE: not valid JSON")
        return
    for leaf in _leaves(value):
        assert not isinstance(leaf, float) or math.isfinite(leaf)


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def test_a_text_option_refuses_other_types():
    sweep = get_sweep("priors")
    with pytest.raises(ValueError, match="tie_break: must be text"):
        sweep.resolve({"tie_break": 5})
    with pytest.raises(ValueError, match="threshold must be ≤ 1"):
        sweep.resolve({"threshold": 2.0})


FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, 1e-308, 5e-324])


@QUICK
@given(kappa=FLOATS, lam=FLOATS, prior=st.floats(0, 9 * MAX_BEADS), evidence=st.floats(0, 1e15))
def test_the_concentration_weight_is_finite_or_refused(kappa, lam, prior, evidence):
    try:
        cfg = AIFConfig(lam=lam, lambda_schedule="concentration", lambda_kappa=kappa)
    except ValueError as err:
        assert len(str(err)) < 200
        return
    assert math.isfinite(cfg.epistemic_weight(10, prior, evidence))


@QUICK
@given(st.lists(FLOATS, min_size=3, max_size=3))
def test_preferences_are_a_distribution_or_refused(prefs):
    try:
        cfg = AIFConfig(prefs=tuple(prefs))
    except ValueError:
        return
    p = cfg.preferences
    # a distribution, each entry at least the thesis's 1e-12 floor (never all floored)
    assert np.all(np.isfinite(p)) and np.all(p >= 1e-12) and np.all(p <= 1)
    assert float(p.max()) >= 1 / 3 - 1e-12


def test_overflowing_settings_are_refused_before_training(tmp_path, capsys):
    out = tmp_path / "x.json"
    for argv in (
        ["train", "hybrid", "--lambda-schedule", "concentration", "--lambda-kappa", "1e308"],
        ["train", "pure", "--prefs", "1e308,1e308,1e308"],
        ["train", "instrumental", "--prefs", "1e308,1,1e308"],
    ):
        assert main([*argv, "--games", "10000000", "--output", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "1e+308" in err
    assert not out.exists()
    with pytest.raises(ValueError, match="finite sum"):
        normalise_preferences([1e308, 1e308, 1.0], strict=False)


def test_the_aif_schema_repeats_the_weight_limit():
    from menace_lib import schemas
    from menace_lib.base import limits

    config = schemas.schema_for("menace_lib.aif.hybrid", 1)["$defs"]["config"]["properties"]
    assert config["lam"]["maximum"] == config["lambda_kappa"]["maximum"] == limits.MAX_WEIGHT
