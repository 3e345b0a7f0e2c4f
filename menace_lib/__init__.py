"""menace_lib: MENACE as a Bayesian observer.

Import it one way: ``import menace_lib as ml``.

Vocabulary
----------
box
    A matchbox: one per canonical position where MENACE has a choice (the filter
    decides which). It holds beads.
bead, colour
    A bead's colour names a move; a box's bead counts are its Dirichlet
    pseudo-counts, and drawing a bead samples the posterior predictive.
layout
    ``"square"``: one colour per legal square (the thesis's code). ``"class"``: one
    colour per move class, squares that the position's own symmetries make equivalent
    (Michie's boxes).
filter
    Which canonical positions get a box: ``all`` (338 for X), ``decision`` (304) or
    ``michie`` (287: no forced moves, no lost double threats).
schedule
    Initial beads per colour by MENACE's move number (4-3-2-1 by default).
reinforcement
    Beads added to every colour drawn in a game: ``(win, draw, loss) = (+3, +1, -1)``.
clamp level
    The count a colour cannot fall below (``floor``: 0 in the thesis's code).
restock
    ``none``, ``move`` (a colour that hits the clamp level is refilled) or ``box``
    (an empty box is refilled); ``empty_box`` says what an empty, unrefilled box does:
    ``resign``, ``stop`` or ``web``. All bead rules live in :mod:`menace_lib.machine.beads`.
regimen
    The training opponents in order: ``random``, ``defensive``, ``optimal`` or
    ``mixed`` (the thesis's 40/20/40 curriculum).
opponent
    A scripted player (random, defensive, perfect with a tie-break, ...):
    :func:`make_opponent`.
agent
    Any learner with the :class:`Agent` interface: MENACE, the Active Inference agents
    (Instrumental, Hybrid, Pure, Oracle), Q-learning and SARSA, the unsymmetrised MENACE.
sweep
    Conditions × seeds, every run seeded from its seed alone (so serial, loky and Dask
    runs agree), summarised with 95% confidence intervals: :func:`run_sweep`.
same numbers
    The reproducibility contract, owned by :mod:`menace_lib.base.reproducibility`: integers
    (games, moves, beads, sampled outcomes, seeds, counts) are equal to the bit on every
    machine; floats are equal within one documented tolerance (relative ``1e-12``, floor
    ``1e-12``), because ``exp`` and ``log`` differ in the last bit between processors.
    Every rerun is compared with a stored result by :func:`same_numbers`.
exact evaluation
    The exact win/draw/loss probabilities of a frozen agent against an opponent, by one
    backward pass over the 5,478 positions (:func:`exact_outcome`), with no sampling noise.

Folders by layer
----------------
From the ground up: a folder imports only itself and the folders listed before it
(``tests/test_import_graph.py`` refuses any other import):

============  ===========================================================================
``base``      files, limits, progress, where runs go (:mod:`~menace_lib.base.parallel`),
              95% intervals, the generator shared with the widgets, the palette
``games``     the one game interface and its tables, noughts and crosses, Hexapawn,
              Connect-4, the registry of games by name, outcomes, the :class:`Agent`
              protocol
``maths``     the Dirichlet distribution and the expected free energy
``machine``   the bead rules, the one matchbox machine (its engine and compiled kernel)
              and MENACE on any game
``play``      the game loop, scripted opponents, training, exact evaluation, learning
              curves, episodes, checkpoints, self-play
``agents``    the one registry of agent kinds and their options, Active Inference, Q
              learning and SARSA, HER, the open and unsymmetrised MENACE, the
              stochastic player
``experiments``  the thesis's suite, the sweep engine, the benchmarks, the verdict words
``interop``   the field's game interfaces: OpenSpiel games as library games, Hexapawn for
              OpenSpiel, any agent as a PettingZoo policy, OpenSpiel's MCTS scored
              exactly (optional extras ``[openspiel]``, ``[pettingzoo]``)
``book``      the book's own code: the claims ledger, Part V's questions, the
              correspondence checks, figures and studies (``ml.book``)
``kit``       the printable matchbox kit
``widgets``   the browser widgets (anywidget)
``cli``       ``python -m menace_lib``, one module per command
============  ===========================================================================

``schemas`` (the saved-file formats as JSON Schemas) and ``data`` are resources of the
``base`` layer. Old flat paths (``menace_lib.games.board``, ``ml.plotting``) still work for one
release, with a warning (:mod:`menace_lib._moved`).

Importing the package is cheap: names load on first use and the game tree is
enumerated lazily.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import _moved
from .base._lazy import public_submodules

__version__ = "0.1.0"

_PUBLIC = {
    "Agent": "games.agent",
    "PolicyMatrix": "games.agent",
    "RESIGN": "games.agent",
    "STOP": "games.agent",
    "Menace": "machine.menace",
    "MenaceConfig": "machine.menace",
    "AgentFileError": "machine.menace",
    "make_opponent": "play.opponents",
    "play_game": "play.loop",
    "play_games": "play.loop",
    "TrainingLog": "play.loop",
    "train": "play.training",
    "validate": "play.training",
    "exact_outcome": "play.evaluation",
    "exact_values": "play.evaluation",
    "policy_kl": "play.evaluation",
    "empirical_policy_kl": "play.evaluation",
    "train_with_curve": "play.learning_curve",
    "LearningCurve": "play.learning_curve",
    "run_sweep": "experiments.sweep",
    "Sweep": "experiments.sweep",
    "SweepResult": "experiments.sweep",
    "run_tasks": "base.parallel",
    "mean_ci": "base.confidence",
    "paired_ci": "base.confidence",
    "AIFConfig": "agents.aif",
    "InstrumentalAIF": "agents.aif",
    "HybridAIF": "agents.aif",
    "PureAIF": "agents.aif",
    "OracleAIF": "agents.aif",
    "RLConfig": "agents.rl",
    "QLearning": "agents.rl",
    "Sarsa": "agents.rl",
    "load_agent": "agents.registry",
    "agent_from_dict": "agents.registry",
    "save_agent": "agents.registry",
    "play_episode": "play.episodes",
    "get_game": "games.registry",
    "game_tables": "games.registry",
    "enumerate_game": "games.game",
    "Tables": "games.game",
    "her_config": "agents.her",
    "exact_curve": "play.exact_learning",
    "markdown_table": "base.display",
    "same_numbers": "base.reproducibility",
    "SuiteResult": "experiments",
    "assert_same_numbers": "base.reproducibility",
    "play_pettingzoo": "interop.pettingzoo",
    "spiel_game": "interop.openspiel",
    "differences": "base.reproducibility",
}

__all__ = ["__version__", *sorted(_PUBLIC)]


# Public modules and packages, reachable as ``ml.games.board``, ``ml.book.variants.compare``, ...
# after the one import ``import menace_lib as ml`` (the book imports nothing else).
_MODULES = public_submodules(__path__)
_moved.install()


def __getattr__(name: str) -> Any:
    """Load a public name or module on first use (keeps ``import`` cheap)."""
    if name in _MODULES:
        # A package's own modules load on first use too (menace_lib.base._lazy), so
        # ``ml.book.variants.compare`` works after the one import, as ``ml.games`` does.
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    if f"{__name__}.{name}" in _moved.MOVED or name in _moved.MOVED_NAMES[__name__]:
        return _moved.old_attribute(__name__, name)
    if name not in _PUBLIC:
        raise AttributeError(f"module 'menace_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC) | _MODULES)
