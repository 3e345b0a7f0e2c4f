"""The learning tree agents: the thesis's Instrumental and Hybrid Active Inference."""

from __future__ import annotations

from typing import Any, ClassVar

from ...games.registry import game_tables
from ...machine.menace import AgentFileError
from .config import AIFConfig
from .matchbox import COMMON_FIELDS, TreeAIF
from .model import AGENT_NODE, OPPONENT_NODE, shared_model
from .tree import canonical_steps, game_lists

__all__ = ["ActiveInferenceAgent", "HybridAIF", "InstrumentalAIF"]


class ActiveInferenceAgent(TreeAIF):
    """Active Inference with the true game tree and learnt opponent beliefs.

    After each game every opponent move adds 1 to the Dirichlet count of that
    move in its canonical pre-move state (no decay); the tree values are then
    refreshed and every visited box is overwritten with the new policy.
    ``lam = 0`` is the thesis's *Instrumental* AIF (:class:`InstrumentalAIF`),
    ``lam > 0`` its *Hybrid* AIF (:class:`HybridAIF`).

    Parameters
    ----------
    config
        An :class:`~menace_lib.agents.aif.AIFConfig`, or its fields as keywords. Reads
        the common fields and ``opponent_alpha`` (prior count of every opponent
        move, > 0), ``policy_prior``, ``risk_form`` and ``epistemic``.
    trace
        Keep per-game EFE summaries in :attr:`trace`.

    Notes
    -----
    The agent needs the opponent's final move when that move ends the game: the
    play loop passes the final position to :meth:`end_game`. Without it the move
    is inferred as the lowest square that produces the game's result, which is
    exact whenever the move is unique and always against the perfect opponent
    with lowest-square tie-breaking.
    """

    FORMAT: ClassVar[str] = "menace_lib.aif.hybrid"
    USES: ClassVar[frozenset[str]] = COMMON_FIELDS | {
        "lambda_schedule",
        "lambda_tau",
        "lambda_kappa",
        "opponent_alpha",
        "policy_prior",
        "risk_form",
        "epistemic",
        "game",
    }
    _STATE_KEYS: ClassVar[tuple[str, ...]] = ("opponent_counts",)

    def __init__(
        self, config: AIFConfig | None = None, *, trace: bool = False, **fields: Any
    ) -> None:
        super().__init__(config, trace=trace, **fields)
        self.model = shared_model(self.config).copy()
        if self.config.scheduled:
            # Before any game every box weighs λ₀, the shared model's weight: its
            # values hold as they are.
            self._agent_nodes = [c for c in self.model.tree.ids if self.model.kind[c] == AGENT_NODE]
            self._schedule(0)

    @property
    def name(self) -> str:
        kind = "Instrumental" if self.lam == 0 else "Hybrid"
        return f"{kind} AIF (λ={self.lam:g})"

    def opponent_moves(
        self, trajectory: list, result: int, final: int | None = None
    ) -> list[tuple[int, int]]:
        """The opponent's (pre-move position id, raw square) pairs in one game."""
        T = game_lists(self.config.game)
        succ, results = T.succ_lists, self.menace.result
        out = []
        for t, (pid, square, _) in enumerate(trajectory):
            before = succ[pid][square]
            if results[before] >= 0:
                break  # the agent's move ended the game
            if t + 1 < len(trajectory):
                after = trajectory[t + 1][0]
            elif final is not None:
                after = final
            else:  # the opponent ended the game: the lowest square giving this result
                after = next((s for s in succ[before] if s >= 0 and results[s] == result), -1)
            if after < 0 or after not in succ[before]:
                raise ValueError(f"cannot find the opponent's move after {T.text(before)!r}")
            out.append((before, succ[before].index(after)))
        return out

    def supports_compiled(self) -> bool:
        """The compiled training covers this class's own learning with the code's
        readings: a uniform policy prior, the summed epistemic term and a fixed λ."""
        cfg = self.config
        return (
            type(self)._learn is ActiveInferenceAgent._learn
            and cfg.policy_prior == "uniform"
            and cfg.epistemic == "summed"
            and not cfg.scheduled
            and self.model.agent_lam is None
        )

    def _learn(self, trajectory, result, final) -> None:
        slots = self._count_slots(trajectory, final)
        if slots is None:  # the last move must be inferred (or the game is broken): the rule
            T = game_lists(self.config.game)
            canon, canon_square = T.canon_list, T.canon_square_lists
            pairs = self.opponent_moves(trajectory, result, final)
            self.model.observe_moves([(canon[b], canon_square[b][m]) for b, m in pairs])
        else:
            self.model.count_moves(slots)
        self._refresh_model()

    def _refresh_model(self) -> None:
        """Refresh the model's values after new counts, under the λ schedule if any."""
        if self.config.scheduled:
            self._schedule(self.games_trained + 1)  # the game being learnt counts
        self.model.refresh()

    def _schedule(self, games: int) -> None:
        """Give every agent node its epistemic weight after ``games`` games (the
        model then values the whole tree again at its next refresh)."""
        model, cfg = self.model, self.config
        lam = [cfg.lam] * len(model.kind)
        if cfg.lambda_schedule == "decay":
            weight = cfg.epistemic_weight(games)
            for c in self._agent_nodes:
                lam[c] = weight
        else:
            for c in self._agent_nodes:
                lam[c] = cfg.epistemic_weight(games, *model.box_concentration(c))
        model.agent_lam = lam

    def _after_load(self) -> None:
        if self.config.scheduled:
            self._schedule(self.games_trained)
            self.model.recompute()

    def _count_slots(self, trajectory: list, final: int | None) -> list[tuple[int, int]] | None:
        """The opponent's moves as count slots ``(canonical state, move index)``: the
        moves :meth:`opponent_moves` finds, read from a table; ``None`` when a move
        is not a move (or ``final`` is needed and not given)."""
        game = self.config.game
        succ, results = game_lists(game).succ_lists, self.menace.result
        steps = canonical_steps(game)
        slots = []
        last = len(trajectory) - 1
        for t, (pid, square, _) in enumerate(trajectory):
            before = succ[pid][square]
            if results[before] >= 0:
                break  # the agent's move ended the game
            slot = steps[before].get(trajectory[t + 1][0] if t < last else final)
            if slot is None:
                return None
            slots.append(slot)
        return slots

    def _copy(self):
        twin = super()._copy()
        twin.model = self.model.copy()
        return twin

    # --- files -------------------------------------------------------------------------

    def _state_to_dict(self) -> dict[str, Any]:
        """The opponent counts that differ from the prior, per canonical opponent state."""
        model, T = self.model, game_tables(self.config.game)
        prior = self.config.opponent_alpha
        learnt = [
            c
            for c in model.tree.ids
            if model.kind[c] == OPPONENT_NODE and any(a != prior for a in model.alpha[c])
        ]
        return {
            "opponent_counts": [
                {"board": T.text(c), "counts": list(model.alpha[c])} for c in learnt
            ]
        }

    def _state_from_dict(self, data: dict[str, Any]) -> None:
        entries = data.get("opponent_counts", [])
        if not isinstance(entries, list):
            raise AgentFileError("opponent_counts: must be a list")
        T, model, seen = game_tables(self.config.game), self.model, set()
        for i, entry in enumerate(entries):
            where = f"opponent_counts[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"board", "counts"}:
                raise AgentFileError(f"{where}: must be an object with board and counts")
            try:
                c = T.canonical_id_of_text(entry["board"])
            except ValueError as err:
                raise AgentFileError(f"{where}.board: {err}") from None
            if model.kind[c] != OPPONENT_NODE or c in seen:
                raise AgentFileError(
                    f"{where}.board: {entry['board']!r} is not a new canonical opponent state"
                )
            seen.add(c)
            counts = entry["counts"]
            if not isinstance(counts, list) or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) for v in counts
            ):
                raise AgentFileError(f"{where}.counts: must be a list of numbers")
            try:
                model.set_counts(c, counts)
            except ValueError as err:
                raise AgentFileError(f"{where}.counts: {err}") from None
        model.recompute()


class InstrumentalAIF(ActiveInferenceAgent):
    """:class:`ActiveInferenceAgent` with ``lam = 0`` (the thesis's Instrumental AIF).

    Parameters
    ----------
    config
        An :class:`AIFConfig`; its ``lam`` is set to 0 (no epistemic term).
    trace
        Keep each decision's expected-free-energy terms (for the book's figures).
    **fields
        Any :class:`AIFConfig` field, instead of ``config``.

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.InstrumentalAIF()
    >>> agent.config.lam
    0.0
    >>> log = ml.train(agent, "optimal", 50, np.random.default_rng(0))
    >>> len(log)
    50
    """

    FORMAT: ClassVar[str] = "menace_lib.aif.instrumental"

    def __init__(
        self, config: AIFConfig | None = None, *, trace: bool = False, **fields: Any
    ) -> None:
        if (config.lam if isinstance(config, AIFConfig) else fields.get("lam", 0.0)) != 0:
            raise ValueError("InstrumentalAIF fixes lam = 0; use HybridAIF for other values")
        super().__init__(config, trace=trace, **fields)


class HybridAIF(ActiveInferenceAgent):
    """:class:`ActiveInferenceAgent` with ``lam = 0.5`` by default (the thesis's Hybrid AIF).

    Parameters
    ----------
    config
        An :class:`AIFConfig` (default ``lam = 0.5``).
    trace
        Keep each decision's expected-free-energy terms (for the book's figures).
    **fields
        Any :class:`AIFConfig` field, instead of ``config`` (``lam=0.7``).

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.HybridAIF().config.lam, ml.HybridAIF(lam=0.7).config.lam
    (0.5, 0.7)
    """

    DEFAULTS: ClassVar[dict[str, Any]] = {"lam": 0.5}
