"""One registry of agent kinds (menace_lib.agents): one place to add a kind, no other list.

A toy kind registered here -- a learner that only counts its games -- appears at once in
saving and loading, on the command line (``train toy`` with its own option, then
``evaluate``), and in the experiments (a suite condition, ``experiments.make_agent``).
A scan of the library's source shows that no module but the registry keeps a list of
kinds or branches on a kind's name.
"""

from __future__ import annotations

import ast
import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import menace_lib as ml
from menace_lib.agents import registry as agents
from menace_lib.agents.options import Option, side
from menace_lib.agents.registry import (
    AgentKind,
    agent_kinds,
    get_kind,
    register_kind,
    unregister_kind,
)
from menace_lib.base.files import AgentFileError, check_header
from menace_lib.cli import main
from menace_lib.games.agent import PolicyMatrix
from menace_lib.games.statespace import ONGOING, tables
from menace_lib.play.loop import play_games

ROOT = Path(__file__).resolve().parents[1] / "menace_lib"


# --- a toy kind -------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyConfig:
    """The toy's settings: its side and how much it prefers the lowest legal square."""

    player: int = 1
    bias: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.bias <= 1.0:
            raise ValueError(f"bias must be in [0, 1], got {self.bias!r}")


class Toy:
    """Plays the lowest legal square with chance ``bias``, else a uniform legal square."""

    FORMAT: ClassVar[str] = "tests.toy"

    def __init__(self, config: ToyConfig) -> None:
        self.config, self.player = config, config.player
        self.frozen, self.games_trained = False, 0

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        legal = tables().legal(pid)
        if rng.random() < self.config.bias:
            return legal[0], None
        return legal[int(rng.integers(len(legal)))], None

    def end_game(self, trajectory: list, result: int, final: int = -1) -> None:
        if not self.frozen:
            self.games_trained += 1

    def frozen_copy(self) -> Toy:
        twin = Toy(self.config)
        twin.frozen, twin.games_trained = True, self.games_trained
        return twin

    def policy_matrix(self) -> PolicyMatrix:
        T = tables()
        rows = (T.outcome == ONGOING) & (T.player == self.player)
        legal = (T.succ >= 0) & rows[:, None]
        P = (1 - self.config.bias) * legal / np.maximum(legal.sum(axis=1), 1)[:, None]
        lowest = np.argmax(legal, axis=1)
        P[np.flatnonzero(rows), lowest[rows]] += self.config.bias
        return PolicyMatrix(P, rows, np.zeros(T.n_positions, dtype=bool))

    def canonical_policy(self, state: int) -> np.ndarray:
        return self.policy_matrix().probabilities[int(state)]

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        return self.policy_matrix().probabilities[np.asarray(states, dtype=np.intp)]

    def train_against(self, opponent: Any, games: int, rng, *, record: bool = True):
        return play_games(self, opponent, games, rng, record=record)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.FORMAT,
            "version": 1,
            "config": {"player": self.player, "bias": self.config.bias},
            "frozen": self.frozen,
            "games_trained": self.games_trained,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Toy:
        check_header(data, cls.FORMAT, 1, "agent file")
        try:
            agent = cls(ToyConfig(**data["config"]))
        except (TypeError, ValueError) as err:
            raise AgentFileError(f"config: {err}") from None
        agent.frozen, agent.games_trained = data["frozen"], data["games_trained"]
        return agent


TOY = AgentKind(
    "toy",
    "Toy",
    "a toy that plays the lowest square with chance --bias",
    ToyConfig,
    {"player": Option("--player", "the side", side), "bias": Option("--bias", "the bias")},
    Toy,
    Toy,
)


@pytest.fixture
def toy():
    """The toy kind, registered for one test only."""
    register_kind(TOY)
    try:
        yield TOY
    finally:
        unregister_kind("toy")


def test_a_registered_kind_is_built_saved_and_loaded(toy, tmp_path) -> None:
    assert "toy" in agent_kinds() and get_kind("toy") is toy
    agent = agents.make_agent("toy", bias=0.25)
    assert isinstance(agent, Toy) and agent.config.bias == 0.25
    assert "tests.toy" in agents.agent_formats()
    path = ml.save_agent(agent, tmp_path / "toy.json")
    again = ml.load_agent(path)
    assert type(again) is Toy and again.to_dict() == agent.to_dict()
    with pytest.raises(ValueError, match="bias"):
        agents.make_agent("toy", bias=2.0)
    with pytest.raises(ValueError, match="toy: .*colour"):
        agents.make_agent("toy", colour="red")


def test_a_registered_kind_is_on_the_command_line(toy, tmp_path, capsys) -> None:
    out = tmp_path / "toy.json"
    argv = ["train", "toy", "--bias", "0.5", "--games", "7", "--regimen", "random"]
    assert main([*argv, "--output", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kind"] == "toy" and summary["games"] == 7
    saved = json.loads(out.read_text())
    assert saved["format"] == "tests.toy" and saved["config"]["bias"] == 0.5
    assert main(["evaluate", str(out), "--opponent", "random", "--json"]) == 0
    rates = json.loads(capsys.readouterr().out)
    assert set(rates) == {"win", "draw", "loss"}
    # not menace's option
    assert main(["train", "menace", "--bias", "0.5", "--output", str(out)]) == 2
    assert "unrecognized arguments: --bias" in capsys.readouterr().err
    with contextlib.suppress(SystemExit):
        main(["train", "toy", "--help"])
    assert "--bias" in capsys.readouterr().out


def test_a_registered_kind_is_in_the_experiments(toy) -> None:
    condition = ml.experiments.Condition("extra", "toy", "random", "biased", {"bias": 0.5}, 20)
    assert condition.label == "Toy"
    assert isinstance(ml.experiments.make_agent("toy", **condition.kwargs), Toy)
    assert ml.experiments.AGENT_LABELS["toy"] == "Toy"


def test_unregistered_kinds_are_gone_and_names_are_unique() -> None:
    assert "toy" not in agent_kinds()
    with pytest.raises(ValueError, match="unknown agent kind 'toy'"):
        get_kind("toy")
    with pytest.raises(ValueError, match="registered already"):
        register_kind(get_kind("menace"))
    with pytest.raises(ValueError, match="not a kind added"):
        unregister_kind("menace")


def test_every_built_in_kind_builds_its_own_class_from_its_config() -> None:
    for name, kind in agent_kinds().items():
        config = kind.build_config()
        assert isinstance(config, kind.config)
        if kind.make is not None:
            agent = agents.make_agent(name)
            assert type(agent) is kind.agent and isinstance(agent, ml.Agent)
        assert set(kind.options) <= set(kind.settings())


def test_forgetful_aif_and_self_play_have_config_objects() -> None:
    from menace_lib.agents.aif import ForgetfulConfig
    from menace_lib.play.selfplay import SELFPLAY_CONFIG, SelfPlayConfig

    forgetful = agents.make_agent("forgetful", decay=0.7)
    assert isinstance(forgetful.config, ForgetfulConfig) and forgetful.decay == 0.7
    assert "decay" not in forgetful.to_dict()["config"]  # the file keeps it as opponent_decay
    assert ml.agent_from_dict(forgetful.to_dict()).config == forgetful.config
    recipe = get_kind("selfplay").build_config(pool_size=2, restock="move")
    assert isinstance(recipe, SelfPlayConfig) and recipe.pool_size == 2
    assert recipe.menace == SELFPLAY_CONFIG.__class__(layout="class", restock="move")
    with pytest.raises(ValueError, match="pool_size"):
        SelfPlayConfig(pool_size=0)


# --- no other list of kinds ---------------------------------------------------------------

ALLOWED = {
    # The registry itself.
    "menace_lib/agents/registry.py",
    # The book's one palette: a colour and a reader's name per kind (tests/test_palette.py
    # checks it styles every registered kind; a kind without a style still works everywhere).
    "menace_lib/base/palette.py",
}
KIND_NAMES = set(agent_kinds())
NOT_KINDS = {
    # A policy prior is also called "menace" (centre 8, corners 4, edges 2).
    "menace_lib/agents/aif/policy.py",
}


def _strings(node: ast.AST) -> list[str]:
    return [e.value for e in getattr(node, "elts", []) if isinstance(e, ast.Constant)]


def _kind_lists(tree: ast.AST) -> list[int]:
    """Lines of literal collections naming three or more kinds."""
    lines = []
    for node in ast.walk(tree):
        names: list[Any] = []
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = _strings(node)
        elif isinstance(node, ast.Dict):
            names = [k.value for k in node.keys if isinstance(k, ast.Constant)]
        if len(KIND_NAMES & {n for n in names if isinstance(n, str)}) >= 3:
            lines.append(node.lineno)
    return lines


def _subject(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _kind_switches(tree: ast.AST) -> list[int]:
    """Lines of ``if``/``elif``/conditional expressions that test a kind's name."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.If, ast.IfExp)):
            continue
        for test in ast.walk(node.test):
            if not isinstance(test, ast.Compare) or "kind" not in _subject(test.left):
                continue
            for other in test.comparators:
                values = {other.value} if isinstance(other, ast.Constant) else set(_strings(other))
                if KIND_NAMES & {v for v in values if isinstance(v, str)}:
                    lines.append(node.lineno)
    return lines


def test_no_module_outside_the_registry_lists_kinds_or_switches_on_them() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).as_posix()
        if rel in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{rel}:{n} lists kinds" for n in _kind_lists(tree)]
        if rel not in NOT_KINDS:
            found += [f"{rel}:{n} switches on a kind" for n in _kind_switches(tree)]
    assert found == []


def test_the_scan_finds_a_list_and_a_switch() -> None:
    """The scan above is not vacuous: it flags both shapes it looks for."""
    listed = ast.parse('KINDS = ("menace", "hybrid", "sarsa")')
    switched = ast.parse('if kind == "hybrid":\n    pass\nx = 1 if agent_kind in ("pure",) else 2')
    assert _kind_lists(listed) == [1]
    assert _kind_switches(switched) == [1, 3]
