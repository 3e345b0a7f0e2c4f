"""Interactive widgets for the book (anywidget front ends and their JavaScript).

Every widget runs entirely in the browser -- the static site has no kernel -- and
receives its data once, in synced traits, built from the library at construction:

* :class:`PlayWidget`: play noughts and crosses against a MENACE checkpoint;
* :class:`LambdaExplorer`: the expected-free-energy terms, policy and beads as the
  epistemic weight, softmax temperature and preferences change;
* :class:`MatchboxInspector`: any matchbox's beads across training, with the Dirichlet
  mean, variance and mutual information;
* :class:`HerWidget`: play Hexapawn against HER, Gardner's matchbox machine, which
  learns as you play (every box on screen, a link replays the session);
* :class:`Connect4Widget`: play Connect-4 on a 4×4 board against a MENACE trained by
  the library, which can go on learning as you play;
* :class:`LabWidget`: the MENACE lab -- MENACE learning live against any opponent, every
  matchbox on screen, with its exact learning curve;
* :class:`DirichletBox`, :class:`CountVsBeads`, :class:`EfeBox`, :class:`InfoVsReward`:
  the live figures of the Bayesian-observer chapters (:mod:`.live_figures`);
* :class:`SearchExplorer`: the search chapter's live figure, every searcher's loss by
  training games and simulations a move (:mod:`.search_explorer`).

The JavaScript lives next to this file (``play.js``, ``her_play.js``, ``connect4.js``,
``lambda_explorer.js``, ``inspector.js``, ``lab.js``, the live figures'
``dirichlet_box.js``, ``count_vs_beads.js``, ``efe_box.js`` and ``info_reward.js`` (with
``live_parts.js`` and ``box_stats.js``), ``search_explorer.js``, sharing ``common.js``,
``view_parts.js``, ``efe_math.js``, the one game engine ``lab_engine.js`` with
``lab_tables.js``, ``beads.js`` and ``prng.js``, and the lab's ``lab_session.js`` and
other ``lab_*.js``); :mod:`._bundle` inlines the shared modules, each once, because a
widget's ES module is loaded from a ``blob:`` URL.
"""

from __future__ import annotations

from .connect4 import Connect4Widget
from .her_play import HerWidget
from .inspector import MatchboxInspector
from .lab import LabWidget
from .lambda_explorer import LambdaExplorer
from .live_figures import CountVsBeads, DirichletBox, EfeBox, InfoVsReward
from .play import PlayWidget
from .search_explorer import SearchExplorer

__all__ = [
    "Connect4Widget",
    "CountVsBeads",
    "DirichletBox",
    "EfeBox",
    "HerWidget",
    "InfoVsReward",
    "LabWidget",
    "LambdaExplorer",
    "MatchboxInspector",
    "PlayWidget",
    "SearchExplorer",
]

from ..base._lazy import submodule_getattr  # noqa: E402

# ml.widgets.<module> after `import menace_lib as ml` (menace_lib.base._lazy).
__getattr__ = submodule_getattr(__name__, __path__)
