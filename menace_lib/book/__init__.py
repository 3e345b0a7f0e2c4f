"""The book's own code, beside the library rather than inside it: the claims ledger
(:mod:`.claims`), Part V's questions (:mod:`.beyond`), the correspondence checks
(:mod:`.correspondence`), figures (:mod:`.plotting`, :mod:`.suite_figures`), the
sources' variant studies (:mod:`.variants`), HER's comparison, the pymdp cross-check and
the census of double threats. Nothing in the library imports it.

It is also the book's one door to the library's inner modules: :data:`LIBRARY` names
every such name a chapter uses (``ml.book.load_checkpoints``, ``ml.book.book_data``),
so the book reaches the library through a handful of namespaces -- the names of ``ml``
itself; ``ml.games``, ``ml.maths`` and ``ml.experiments``, whose modules chapters teach;
this folder; and its neighbours ``ml.kit`` and ``ml.widgets``
(``tests/test_book_imports.py`` holds it to that) -- and a name that moves is followed
here, once, not in every chapter.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..base._lazy import folder_getattr

LIBRARY: dict[str, str] = {
    "book_data": "base.files",
    "read_json": "base.files",
    "menace_policy": "agents.noisy",
    "noisy_outcome": "agents.noisy",
    "play_filtering": "agents.noisy",
    "train_noisy": "agents.noisy",
    "BLUE": "base.palette",
    "GREEN": "base.palette",
    "VERMILLION": "base.palette",
    "agent_name": "base.palette",
    "StochasticPlayer": "agents.stochastic",
    "knowledge_report": "agents.stochastic",
    "non_terminal_positions": "agents.stochastic",
    "tournament": "agents.stochastic",
    "UnsymmetrisedMenace": "agents.unsymmetrised",
    "ok_counts": "agents.unsymmetrised",
    "piece_count_ok": "agents.unsymmetrised",
    "symmetry_comparison": "agents.unsymmetrised",
    "symmetry_rows": "agents.unsymmetrised",
    "read_comparison": "agents.web",
    "web_curve": "agents.web",
    "window_rows": "agents.web",
    "load_checkpoints": "play.checkpoints",
    "bead_history": "play.episodes",
    "even_marks": "play.learning_curve",
    "mixed_split": "play.opponents",
    "regimen_blocks": "play.opponents",
    "BLOG_TRAINING_RATES": "play.selfplay",
    "SELFPLAY_CONFIG": "play.selfplay",
    "blog_checkpoint_rows": "play.selfplay",
    "blog_evaluation_rows": "play.selfplay",
    "final_evaluation": "play.selfplay",
    "pooled_selfplay": "play.selfplay",
}
"""Name -> the library module (below ``menace_lib``) that defines it, for every name of
the library's inner modules the book uses; each loads on first use."""

_folder = folder_getattr(__name__, __path__)


def __getattr__(name: str) -> Any:
    """A name of :data:`LIBRARY`, else one of this folder's modules (loaded on first use);
    old flat names warn (menace_lib._moved)."""
    if name in LIBRARY:
        value = getattr(importlib.import_module(f"menace_lib.{LIBRARY[name]}"), name)
        globals()[name] = value
        return value
    return _folder(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(LIBRARY))
