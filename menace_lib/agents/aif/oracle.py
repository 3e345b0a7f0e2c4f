"""The Oracle Active Inference agent: the true tree and a fixed opponent model."""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

import numpy as np

from ...machine.menace import Menace, MenaceConfig
from ...maths.efe import softmax_policy
from .config import AIFConfig
from .matchbox import COMMON_FIELDS, TreeAIF
from .model import AGENT_NODE, GenerativeModel, shared_model
from .policy import prior_weights

__all__ = ["OracleAIF"]


class OracleAIF(TreeAIF):
    """Active Inference with the true game tree and a fixed opponent model.

    Nothing is learnt: beliefs stay at the symmetric ``Dir(1)`` (the thesis code
    ignores ``--opponent-dirichlet-alpha`` here), so the policy of every state is
    computed once per setting and shared between instances.

    Parameters
    ----------
    config
        An :class:`~menace_lib.agents.aif.AIFConfig`, or its fields as keywords (default
        ``lam = 0.5``). Reads the common fields and ``opponent_model``
        (``"uniform"``, ``"adversarial"`` or ``"minimax"``; only the uniform
        model has an epistemic term), ``policy_prior``, ``risk_form``,
        ``epistemic`` and ``lazy``: True (the thesis code, "cache only") installs
        the policy in a box only after its state has been visited, so unvisited
        boxes keep MENACE's initial beads; False installs it in every box at once.
    trace
        Keep per-game EFE summaries in :attr:`trace`.

    Examples
    --------
    >>> import menace_lib as ml
    >>> agent = ml.OracleAIF()
    >>> rates = ml.exact_outcome(agent, "random")
    >>> round(sum(rates.values()), 12)
    1.0
    """

    FORMAT: ClassVar[str] = "menace_lib.aif.oracle"
    USES: ClassVar[frozenset[str]] = COMMON_FIELDS | {
        "opponent_model",
        "policy_prior",
        "risk_form",
        "epistemic",
        "lazy",
    }
    DEFAULTS: ClassVar[dict[str, Any]] = {"lam": 0.5}

    def __init__(
        self, config: AIFConfig | None = None, *, trace: bool = False, **fields: Any
    ) -> None:
        super().__init__(config, trace=trace, **fields)
        self.model = shared_model(self.config)  # beliefs stay at Dir(1): opponent_alpha is 1
        self._cache = _oracle_policies(
            self.model, self.config.lambda_policy, self.config.policy_prior
        )
        if not self.config.lazy:
            weights, scale = self.menace.weights, self.config.bead_scale
            for b, c in enumerate(self.menace.states):
                weights[b][:] = (self._cache[c][0] * scale).tolist()

    @property
    def name(self) -> str:
        return f"Oracle AIF ({self.config.opponent_model}, λ={self.lam:g})"

    def _learn(self, trajectory, result, final) -> None:
        return None  # nothing to learn: visited boxes just receive the fixed policy

    def _policy_terms(self, c: int) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        return self._cache[c]

    def _policies(
        self, states: list[int], scale: float = 1.0, into: list[list[float]] | None = None
    ) -> list[list[float]]:
        rows = [(self._cache[c][0] * scale).tolist() for c in states]
        if into is None:
            return rows
        for target, row in zip(into, rows, strict=True):
            target[:] = row
        return into


@cache
def _oracle_policies(
    model: GenerativeModel, lambda_policy: float, policy_prior: str
) -> dict[int, tuple[np.ndarray, tuple[np.ndarray, ...]]]:
    """Policy and terms of every canonical agent state under a fixed model (what
    :meth:`MatchboxAIF._policy_terms` gives a learning agent)."""
    boxes = Menace(MenaceConfig(player=model.player))  # the initial-bead schedule
    out = {}
    for c in model.tree.ids:
        if model.kind[c] == AGENT_NODE:
            terms = model.action_values(c)
            beads = boxes.schedule_beads(model.tree.ply[c])
            prior = prior_weights(policy_prior, model.tree.moves[c], beads)
            out[c] = (softmax_policy(terms[0], lambda_policy, prior), terms)
    return out
