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
    ``resign``, ``stop`` or ``web``. All bead rules live in :mod:`menace_lib.beads`.
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
    The reproducibility contract, owned by :mod:`menace_lib.reproducibility`: integers
    (games, moves, beads, sampled outcomes, seeds, counts) are equal to the bit on every
    machine; floats are equal within one documented tolerance (relative ``1e-12``, floor
    ``1e-12``), because ``exp`` and ``log`` differ in the last bit between processors.
    Every rerun is compared with a stored result by :func:`same_numbers`.
exact evaluation
    The exact win/draw/loss probabilities of a frozen agent against an opponent, by one
    backward pass over the 5,478 positions (:func:`exact_outcome`), with no sampling noise.

Modules, one idea each
----------------------
Games: :mod:`~menace_lib.game` (the one game interface and enumerator),
:mod:`~menace_lib.game_registry` (the games by name), :mod:`~menace_lib.noughts` and
:mod:`~menace_lib.hexapawn` (two games), :mod:`~menace_lib.board` (noughts and crosses:
positions, symmetries), :mod:`~menace_lib.statespace` (its tables, vectorised, with
Michie's filter), :mod:`~menace_lib.opponents` (scripted players of every game).
Agents: :mod:`~menace_lib.agent` (the interface), :mod:`~menace_lib.beads` (the bead
rules), :mod:`~menace_lib.machine` (the one matchbox machine: box layouts built once,
the table-driven engine, the policy its beads define), :mod:`~menace_lib.menace` (MENACE
on any game; HER is MENACE on Hexapawn), :mod:`~menace_lib.aif`, :mod:`~menace_lib.rl`,
:mod:`~menace_lib.agents` (every kind, saved and loaded), :mod:`~menace_lib.variants`
(the sources' other machines), :mod:`~menace_lib.her` (HER, Gardner's Hexapawn machine),
:mod:`~menace_lib.exact_learning`,
:mod:`~menace_lib.connect4` and :mod:`~menace_lib.open_menace` (Connect-4; boxes made on
first visit). Play and learning: :mod:`~menace_lib.games`, :mod:`~menace_lib.results`,
:mod:`~menace_lib.training`, :mod:`~menace_lib.evaluation`, :mod:`~menace_lib.episodes`,
:mod:`~menace_lib.lab` (the MENACE lab's seeded games, the browser lab's twin) and
:mod:`~menace_lib.prng` (Philox4x32-10, the generator shared with the widgets' JavaScript).
Maths: :mod:`~menace_lib.dirichlet`, :mod:`~menace_lib.efe`,
:mod:`~menace_lib.correspondence`. Experiments: :mod:`~menace_lib.experiments` (the
thesis's suite), :mod:`~menace_lib.learning_curve` (exact curves during training),
:mod:`~menace_lib.confidence` (95% intervals), :mod:`~menace_lib.parallel` (where runs
go: this machine or a Dask cluster) and :mod:`~menace_lib.beyond` (Part V: one sweep per
open question of the thesis).
Presentation: :mod:`~menace_lib.plotting`, :mod:`~menace_lib.display`,
:mod:`~menace_lib.widgets`, :mod:`~menace_lib.checkpoints`. Command line:
:mod:`~menace_lib.cli` (``python -m menace_lib``, one module per command);
:mod:`~menace_lib.bench`. Files and bad input: :mod:`~menace_lib.files` (every file
written all or nothing, every file read size-capped), :mod:`~menace_lib.schemas` (the
saved-file formats as JSON Schemas), :mod:`~menace_lib.limits` (the documented limits).
Reproducibility: :mod:`~menace_lib.reproducibility` (what "the same numbers" means).

Importing the package is cheap: names load on first use and the game tree is
enumerated lazily.
"""

from __future__ import annotations

import importlib
from typing import Any

from .lazy import public_submodules

__version__ = "0.1.0"

_PUBLIC = {
    "tables": "statespace",
    "Agent": "agent",
    "PolicyMatrix": "agent",
    "RESIGN": "agent",
    "STOP": "agent",
    "Menace": "menace",
    "MenaceConfig": "menace",
    "AgentFileError": "menace",
    "make_opponent": "opponents",
    "play_game": "games",
    "play_games": "games",
    "TrainingLog": "games",
    "train": "training",
    "validate": "training",
    "exact_outcome": "evaluation",
    "exact_values": "evaluation",
    "policy_kl": "evaluation",
    "empirical_policy_kl": "evaluation",
    "train_with_curve": "learning_curve",
    "LearningCurve": "learning_curve",
    "run_sweep": "beyond",
    "Sweep": "beyond",
    "SweepResult": "beyond",
    "run_tasks": "parallel",
    "mean_ci": "confidence",
    "paired_ci": "confidence",
    "AIFConfig": "aif",
    "InstrumentalAIF": "aif",
    "HybridAIF": "aif",
    "PureAIF": "aif",
    "OracleAIF": "aif",
    "RLConfig": "rl",
    "QLearning": "rl",
    "Sarsa": "rl",
    "load_agent": "agents",
    "agent_from_dict": "agents",
    "save_agent": "agents",
    "play_episode": "episodes",
    "get_game": "game_registry",
    "game_tables": "game_registry",
    "enumerate_game": "game",
    "her_config": "her",
    "her_results": "her",
    "gardner_figure": "her",
    "draw_position": "her",
    "move_arrows": "her",
    "exact_curve": "exact_learning",
    "markdown_table": "display",
    "same_numbers": "reproducibility",
    "key_results": "experiments.summary",
    "key_results_table": "experiments.summary",
    "SuiteResult": "experiments",
    "assert_same_numbers": "reproducibility",
    "differences": "reproducibility",
}

__all__ = ["__version__", *sorted(_PUBLIC)]


# Public modules and packages, reachable as ``ml.plotting``, ``ml.variants.compare``, ...
# after the one import ``import menace_lib as ml`` (the book imports nothing else).
_MODULES = public_submodules(__path__)


def __getattr__(name: str) -> Any:
    """Load a public name or module on first use (keeps ``import`` cheap)."""
    if name in _MODULES:
        # A package's own modules load on first use too (menace_lib.lazy), so
        # ``ml.variants.compare`` works after the one import, as ``ml.plotting`` does.
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    if name not in _PUBLIC:
        raise AttributeError(f"module 'menace_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC) | _MODULES)
