"""Old import paths, kept for one release: each warns once and hands over the module's new home.

The library's modules moved into folders by layer (base, games, maths,
machine, play, agents, experiments, then book, kit, widgets
and cli). :data:`MOVED` maps every old dotted path to its new one. An import of an
old path (import menace_lib.board, from menace_lib.variants.compare import ...)
and an attribute of the old name (ml.board) return the very module object at the new
path, never a second copy, after a :class:`DeprecationWarning` that names both paths.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "MOVED_NAMES", "install", "old_attribute", "resolve"]

MOVED: dict[str, str] = {
    "menace_lib.agent": "menace_lib.games.agent",
    "menace_lib.agents.aif.kernel": "menace_lib.agents.aif._kernel",
    "menace_lib.aif": "menace_lib.agents.aif",
    "menace_lib.aif.config": "menace_lib.agents.aif.config",
    "menace_lib.aif.forgetful": "menace_lib.agents.aif.forgetful",
    "menace_lib.aif.hybrid": "menace_lib.agents.aif.hybrid",
    "menace_lib.aif.kernel": "menace_lib.agents.aif._kernel",
    "menace_lib.aif.matchbox": "menace_lib.agents.aif.matchbox",
    "menace_lib.aif.model": "menace_lib.agents.aif.model",
    "menace_lib.aif.oracle": "menace_lib.agents.aif.oracle",
    "menace_lib.aif.policy": "menace_lib.agents.aif.policy",
    "menace_lib.aif.pure": "menace_lib.agents.aif.pure",
    "menace_lib.aif.table": "menace_lib.agents.aif.table",
    "menace_lib.aif.tree": "menace_lib.agents.aif.tree",
    "menace_lib.beads": "menace_lib.machine.beads",
    "menace_lib.bench": "menace_lib.experiments.bench",
    "menace_lib.beyond": "menace_lib.book.beyond",
    "menace_lib.beyond.lambda_schedule": "menace_lib.book.beyond.lambda_schedule",
    "menace_lib.beyond.lambda_tuning": "menace_lib.book.beyond.lambda_tuning",
    "menace_lib.beyond.opponent_model": "menace_lib.book.beyond.opponent_model",
    "menace_lib.beyond.opponent_model_figures": "menace_lib.book.beyond.opponent_model_figures",
    "menace_lib.beyond.priors": "menace_lib.book.beyond.priors",
    "menace_lib.beyond.priors_curve": "menace_lib.book.beyond.priors_curve",
    "menace_lib.beyond.priors_figures": "menace_lib.book.beyond.priors_figures",
    "menace_lib.beyond.priors_tuning": "menace_lib.book.beyond.priors_tuning",
    "menace_lib.beyond.scaling": "menace_lib.book.beyond.scaling",
    "menace_lib.beyond.scaling_aif": "menace_lib.book.beyond.scaling_aif",
    "menace_lib.beyond.scaling_figures": "menace_lib.book.beyond.scaling_figures",
    "menace_lib.beyond.scaling_trainers": "menace_lib.book.beyond.scaling_trainers",
    "menace_lib.beyond.sweep": "menace_lib.experiments.sweep",
    "menace_lib.board": "menace_lib.games.board",
    "menace_lib.census": "menace_lib.book.census",
    "menace_lib.checkpoints": "menace_lib.play.checkpoints",
    "menace_lib.claims": "menace_lib.book.claims",
    "menace_lib.claims.cache": "menace_lib.book.claims.cache",
    "menace_lib.claims.catalogue": "menace_lib.book.claims.catalogue",
    "menace_lib.claims.dynamics": "menace_lib.book.claims.dynamics",
    "menace_lib.claims.evidence": "menace_lib.book.claims.evidence",
    "menace_lib.claims.figures": "menace_lib.book.claims.figures",
    "menace_lib.claims.findings": "menace_lib.book.claims.findings",
    "menace_lib.claims.ledger": "menace_lib.book.claims.ledger",
    "menace_lib.claims.measures": "menace_lib.book.claims.measures",
    "menace_lib.claims.regret": "menace_lib.book.claims.regret",
    "menace_lib.claims.render": "menace_lib.book.claims.render",
    "menace_lib.claims.seeds": "menace_lib.book.claims.seeds",
    "menace_lib.claims.stats": "menace_lib.book.claims.stats",
    "menace_lib.confidence": "menace_lib.base.confidence",
    "menace_lib.connect4": "menace_lib.games.connect4",
    "menace_lib.correspondence": "menace_lib.book.correspondence",
    "menace_lib.correspondence.acting": "menace_lib.book.correspondence.acting",
    "menace_lib.correspondence.checks": "menace_lib.book.correspondence.checks",
    "menace_lib.correspondence.entropy": "menace_lib.book.correspondence.entropy",
    "menace_lib.correspondence.epistemic": "menace_lib.book.correspondence.epistemic",
    "menace_lib.correspondence.learning": "menace_lib.book.correspondence.learning",
    "menace_lib.correspondence.ledger": "menace_lib.book.correspondence.ledger",
    "menace_lib.correspondence.shaping": "menace_lib.book.correspondence.shaping",
    "menace_lib.dirichlet": "menace_lib.maths.dirichlet",
    "menace_lib.display": "menace_lib.base.display",
    "menace_lib.efe": "menace_lib.maths.efe",
    "menace_lib.episodes": "menace_lib.play.episodes",
    "menace_lib.evaluation": "menace_lib.play.evaluation",
    "menace_lib.exact_learning": "menace_lib.play.exact_learning",
    "menace_lib.experiments.figures": "menace_lib.book.suite_figures",
    "menace_lib.experiments.summary": "menace_lib.book.summary",
    "menace_lib.extras": "menace_lib.base.extras",
    "menace_lib.files": "menace_lib.base.files",
    "menace_lib.game": "menace_lib.games.game",
    "menace_lib.game_registry": "menace_lib.games.registry",
    "menace_lib.her": "menace_lib.agents.her",
    "menace_lib.her_compare": "menace_lib.book.her_compare",
    "menace_lib.hexapawn": "menace_lib.games.hexapawn",
    "menace_lib.kind_options": "menace_lib.agents.options",
    "menace_lib.kit_hexapawn": "menace_lib.kit.hexapawn",
    "menace_lib.kit_options": "menace_lib.kit.options",
    "menace_lib.lab": "menace_lib.widgets.lab_games",
    "menace_lib.lazy": "menace_lib.base._lazy",
    "menace_lib.learning_curve": "menace_lib.play.learning_curve",
    "menace_lib.limits": "menace_lib.base.limits",
    "menace_lib.machine.kernel": "menace_lib.machine._kernel",
    "menace_lib.machine_kernel": "menace_lib.machine._kernel",
    "menace_lib.menace": "menace_lib.machine.menace",
    "menace_lib.noughts": "menace_lib.games.noughts",
    "menace_lib.open_menace": "menace_lib.agents.open_menace",
    "menace_lib.opponents": "menace_lib.play.opponents",
    "menace_lib.palette": "menace_lib.base.palette",
    "menace_lib.parallel": "menace_lib.base.parallel",
    "menace_lib.plotting": "menace_lib.book.plotting",
    "menace_lib.prng": "menace_lib.base.prng",
    "menace_lib.progress": "menace_lib.base.progress",
    "menace_lib.pymdp_check": "menace_lib.book.pymdp_check",
    "menace_lib.reproducibility": "menace_lib.base.reproducibility",
    "menace_lib.results": "menace_lib.games.results",
    "menace_lib.rl": "menace_lib.agents.rl",
    "menace_lib.statespace": "menace_lib.games.statespace",
    "menace_lib.themed_png": "menace_lib.book.themed_png",
    "menace_lib.training": "menace_lib.play.training",
    "menace_lib.variants": "menace_lib.book.variants",
    "menace_lib.variants.compare": "menace_lib.book.variants.compare",
    "menace_lib.variants.figures": "menace_lib.book.variants.figures",
    "menace_lib.variants.selfplay": "menace_lib.play.selfplay",
    "menace_lib.variants.stochastic": "menace_lib.agents.stochastic",
    "menace_lib.variants.studies": "menace_lib.book.variants.studies",
    "menace_lib.variants.unsymmetrised": "menace_lib.agents.unsymmetrised",
    "menace_lib.variants.web": "menace_lib.agents.web",
    "menace_lib.verdicts": "menace_lib.experiments.verdicts",
}
"""Old dotted path -> new dotted path of every module that moved."""

MOVED_NAMES: dict[str, dict[str, str]] = {
    # Names that left a module (or the package's face) for the book's code.
    "menace_lib": {
        "tables": "menace_lib.games.statespace",
        "her_results": "menace_lib.book.her_chapter",
        "gardner_figure": "menace_lib.book.her_chapter",
        "draw_position": "menace_lib.book.her_chapter",
        "move_arrows": "menace_lib.book.her_chapter",
        "key_results": "menace_lib.book.summary",
        "key_results_table": "menace_lib.book.summary",
    },
    "menace_lib.agents.her": {
        name: "menace_lib.book.her_chapter"
        for name in (
            "RESULTS_FILE",
            "box_counts",
            "build_results",
            "draw_position",
            "exact_part",
            "gardner_figure",
            "her_results",
            "load_results",
            "move_arrows",
            "sampled_curve",
        )
    },
}
"""Module -> {name: the module that holds it now} for names that moved out of a module."""

OLD_MODULE_NAMES: dict[str, str] = {
    # An old module whose name is now a folder: its public names are still found there,
    # from the module that holds them now.
    "menace_lib.games": "menace_lib.play.loop",
    "menace_lib.machine": "menace_lib.machine.engine",
    "menace_lib.agents": "menace_lib.agents.registry",
    "menace_lib.kit": "menace_lib.kit.noughts",
}


def _warn(old: str, new: str) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path goes in the next release",
        DeprecationWarning,
        stacklevel=4,
    )


def resolve(old: str) -> ModuleType:
    """The module at the new home of the old path old, after a warning."""
    new = MOVED[old]
    _warn(old, new)
    return importlib.import_module(new)


def old_attribute(package: str, name: str) -> object:
    """package.name under its old spelling: a moved module or an old module's name.

    Raises
    ------
    AttributeError
        When name was never there either.
    """
    for old in (package, *(o for o, n in MOVED.items() if n == package)):
        if f"{old}.{name}" in MOVED:
            return resolve(f"{old}.{name}")
    full = f"{package}.{name}"
    if name in MOVED_NAMES.get(package, {}):
        target = MOVED_NAMES[package][name]
        _warn(full, f"{target}.{name}")
        return getattr(importlib.import_module(target), name)
    if package in OLD_MODULE_NAMES:
        target = OLD_MODULE_NAMES[package]
        module = importlib.import_module(target)
        if not name.startswith("_") and hasattr(module, name):
            _warn(full, f"{target}.{name}")
            return getattr(module, name)
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths of :data:`MOVED` and loads them as their new modules."""

    def __init__(self) -> None:
        self._specs: dict[str, object] = {}

    def find_spec(self, fullname, path, target=None):  # noqa: D102 (importlib protocol)
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):  # noqa: D102
        module = resolve(spec.name)
        # The import system stamps the alias's spec on the module; exec_module puts the
        # module's own back, so the module keeps one name and one spec.
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):  # noqa: D102
        for old, own in list(self._specs.items()):
            if own is not None and own.name == module.__name__:
                module.__spec__ = own
                del self._specs[old]


_FINDER = _OldPaths()


def install() -> None:
    """Put the finder of old paths first, so no old path loads a second copy of a module."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
