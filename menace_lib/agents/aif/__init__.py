"""Active Inference agents that write their policy into MENACE's matchboxes.

Four agents of the thesis (chapter 8) share MENACE's machinery
(:class:`MatchboxAIF`): each draws its moves from MENACE's boxes, and after
every training game overwrites the box of each state it visited with the
softmax of the expected free energy ``G`` of its moves. What differs is how
``G`` is known:

``OracleAIF``
    Knows the game tree and assumes a fixed opponent model with fixed beliefs:
    nothing is learnt, so its policy is computed once.
``InstrumentalAIF``, ``HybridAIF`` (both :class:`ActiveInferenceAgent`)
    Know the game tree and learn Dirichlet counts over the opponent's moves in
    every canonical opponent state; ``lam = 0`` is the Instrumental agent,
    ``lam > 0`` the Hybrid one.
``ForgetfulAIF``
    The Instrumental/Hybrid agent whose opponent counts decay towards the prior
    each time they are updated, for an opponent that changes
    (:mod:`~menace_lib.agents.aif.forgetful`).
``PureAIF``
    Knows no tree: one Dirichlet over (win, draw, loss) per (state, move),
    updated with the game's final outcome for every move played.

Every agent takes an :class:`AIFConfig` (or its fields as keywords:
``PureAIF(lam=0.5)``), satisfies :class:`~menace_lib.games.agent.Agent`, and saves to
and loads from a JSON-safe dict with its own ``format``.

Modules: :mod:`~menace_lib.agents.aif.config` (the settings),
:mod:`~menace_lib.agents.aif.tree` (the canonical tree as lists),
:mod:`~menace_lib.agents.aif.model` (the tree agents' :class:`GenerativeModel`),
:mod:`~menace_lib.agents.aif.policy` (prior and softmax), :mod:`~menace_lib.agents.aif.table`
(:class:`EFETable`), :mod:`~menace_lib.agents.aif.matchbox` (the shared base and its
fast training loop), and one module per agent family
(:mod:`~menace_lib.agents.aif.oracle`, :mod:`~menace_lib.agents.aif.hybrid`,
:mod:`~menace_lib.agents.aif.pure`).
"""

from __future__ import annotations

from ...base._lazy import folder_getattr
from .config import (
    DEFAULT_BEAD_SCALE,
    EPISTEMIC_TERMS,
    OPPONENT_MODELS,
    POLICY_PRIORS,
    RISK_FORMS,
    AIFConfig,
    ForgetfulConfig,
)
from .forgetful import ForgetfulAIF
from .hybrid import ActiveInferenceAgent, HybridAIF, InstrumentalAIF
from .matchbox import MatchboxAIF, TreeAIF
from .model import GenerativeModel
from .oracle import OracleAIF
from .pure import PureAIF
from .table import EFETable
from .tree import CanonicalTree, canonical_state, canonical_tree

# Old names warn for one release (menace_lib._moved): the compiled copy is private now.
__getattr__ = folder_getattr(__name__, __path__)

__all__ = [
    "DEFAULT_BEAD_SCALE",
    "EPISTEMIC_TERMS",
    "OPPONENT_MODELS",
    "POLICY_PRIORS",
    "RISK_FORMS",
    "AIFConfig",
    "ActiveInferenceAgent",
    "CanonicalTree",
    "EFETable",
    "ForgetfulAIF",
    "ForgetfulConfig",
    "GenerativeModel",
    "HybridAIF",
    "InstrumentalAIF",
    "MatchboxAIF",
    "OracleAIF",
    "PureAIF",
    "TreeAIF",
    "canonical_state",
    "canonical_tree",
]
