"""A learnt-opponent agent that forgets: Dirichlet counts that decay towards the prior.

The Instrumental and Hybrid agents (:mod:`menace_lib.agents.aif.hybrid`) already learn
the opponent online: a Dirichlet count per opponent reply in every canonical
opponent state, planned with through its posterior mean. Their counts never
decay, so the beliefs built against one opponent linger once another takes its
place. :class:`ForgetfulAIF` is the same agent with one change to the count
update, a standard model of a volatile categorical source: each time the
opponent moves in a state, that state's counts first shrink towards the prior,

``alpha <- alpha_0 + decay * (alpha - alpha_0)``,

and then the observed reply gains 1. A state therefore remembers about
``1 / (1 - decay)`` of its latest observations; ``decay = 1`` is the
Instrumental/Hybrid update exactly. Only states the opponent moves in are
touched, so the cost per game is that of the parent agent.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from ...base.limits import MAX_BEADS
from ...machine.menace import AgentFileError
from .config import DEFAULT_DECAY, AIFConfig, ForgetfulConfig, check_decay
from .hybrid import ActiveInferenceAgent
from .tree import game_lists

__all__ = ["DEFAULT_DECAY", "ForgetfulAIF", "decayed_counts"]

_UNSET: Any = object()
"""``decay`` not given (``None`` is a bad value, refused like any other)."""


def decayed_counts(counts: list[float], move_index: int, prior: float, decay: float) -> list[float]:
    """The forgetting update of one state's counts after the reply ``move_index``.

    Parameters
    ----------
    counts
        The state's Dirichlet counts, one per legal reply.
    move_index
        Index (into ``counts``) of the reply observed.
    prior
        The prior count ``alpha_0`` of every reply.
    decay
        In (0, 1]: the weight kept by past evidence.
    """
    out = [prior + decay * (a - prior) for a in counts]
    out[move_index] = min(out[move_index] + 1.0, MAX_BEADS)  # stops at the limit
    return out


class ForgetfulAIF(ActiveInferenceAgent):
    """:class:`~menace_lib.agents.aif.ActiveInferenceAgent` whose opponent counts decay.

    Parameters
    ----------
    config
        A :class:`~menace_lib.agents.aif.ForgetfulConfig` (or an
        :class:`~menace_lib.agents.aif.AIFConfig` and ``decay``), or its fields as keywords
        (default ``lam = 0``: the Instrumental agent with forgetting).
    decay
        Weight in (0, 1] kept by a state's past counts each time the opponent
        moves there (default :data:`DEFAULT_DECAY`); 1 never forgets. Not with a
        :class:`~menace_lib.agents.aif.ForgetfulConfig`, which holds it.
    trace
        Keep per-game EFE summaries in :attr:`trace`.
    """

    FORMAT: ClassVar[str] = "menace_lib.aif.forgetful"
    USES: ClassVar[frozenset[str]] = ActiveInferenceAgent.USES | {"decay"}
    _STATE_KEYS: ClassVar[tuple[str, ...]] = ("opponent_counts", "opponent_decay")

    def __init__(
        self,
        config: AIFConfig | None = None,
        *,
        decay: float = _UNSET,
        trace: bool = False,
        **fields: Any,
    ) -> None:
        config = _forgetful_config(config, decay, {**self.DEFAULTS, **fields} if fields else {})
        self.decay = config.decay
        super().__init__(config, trace=trace)

    @property
    def name(self) -> str:
        return f"Forgetful AIF (λ={self.lam:g}, decay={self.decay:g})"

    def _learn(self, trajectory, result, final) -> None:
        T, model = game_lists(self.config.game), self.model
        canon, canon_square = T.canon_list, T.canon_square_lists
        prior, decay = self.config.opponent_alpha, self.decay
        for b, m in self.opponent_moves(trajectory, result, final):
            c = canon[b]
            i = model.tree.moves[c].index(canon_square[b][m])
            model.set_counts(c, decayed_counts(model.alpha[c], i, prior, decay))
        self._refresh_model()

    # --- files -------------------------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        return {**super()._state_to_dict(), "opponent_decay": self.decay}

    def _state_from_dict(self, data: dict[str, Any]) -> None:
        try:
            self.decay = check_decay(data.get("opponent_decay"))
        except ValueError as err:
            raise AgentFileError(f"opponent_decay: {err}") from None
        self.config = dataclasses.replace(self.config, decay=self.decay)
        super()._state_from_dict(data)


def _forgetful_config(
    config: AIFConfig | None, decay: float, fields: dict[str, Any]
) -> ForgetfulConfig:
    """The :class:`ForgetfulConfig` of the agent's arguments (see :class:`ForgetfulAIF`)."""
    if config is None:
        extra = {} if decay is _UNSET else {"decay": decay}
        return ForgetfulConfig(**fields, **extra)
    if fields:
        raise TypeError("give either a config or keyword fields, not both")
    if isinstance(config, ForgetfulConfig):
        if decay is not _UNSET:
            raise TypeError("give decay in the ForgetfulConfig or as a keyword, not both")
        return config
    if not isinstance(config, AIFConfig):
        raise TypeError(
            f"config must be a ForgetfulConfig or an AIFConfig, got {config!r}; give settings "
            "as keywords, e.g. ForgetfulAIF(decay=0.8)"
        )
    aif = {f.name: getattr(config, f.name) for f in dataclasses.fields(AIFConfig)}
    return ForgetfulConfig(**aif, decay=DEFAULT_DECAY if decay is _UNSET else decay)
