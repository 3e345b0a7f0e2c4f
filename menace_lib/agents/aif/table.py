"""The expected free energy of every legal move in one state: :class:`EFETable`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...games.statespace import tables

__all__ = ["EFETable"]


@dataclass(frozen=True, eq=False)
class EFETable:
    """The expected free energy of every legal move in one state.

    Attributes
    ----------
    state
        Canonical position id.
    moves
        Legal canonical squares, ascending (the box's bead colours).
    G, risk, epistemic, ambiguity
        ``G = risk + beta_amb * ambiguity - lam * epistemic``; ``risk`` is the
        quantity that enters ``G`` (propagated ``-ln p`` for the tree agents).
    outcome
        Shape (n, 3): predicted (win, draw, loss) from the agent's side.
    kl_risk
        ``KL(outcome || p)``: the thesis code's *reported* risk.
    q
        The policy written into the box.
    lam, beta_amb
        The weights used.
    """

    state: int
    moves: np.ndarray
    G: np.ndarray
    risk: np.ndarray
    epistemic: np.ndarray
    ambiguity: np.ndarray
    outcome: np.ndarray
    kl_risk: np.ndarray
    q: np.ndarray
    lam: float
    beta_amb: float

    def rows(self) -> list[dict]:
        """One JSON-ready dict per move (for tables and data frames)."""
        return [
            {
                "state": tables().text(self.state),
                "move": int(m),
                "G": float(self.G[i]),
                "risk": float(self.risk[i]),
                "kl_risk": float(self.kl_risk[i]),
                "epistemic": float(self.epistemic[i]),
                "epistemic_contribution": float(self.lam * self.epistemic[i]),
                "ambiguity": float(self.ambiguity[i]),
                "p_win": float(self.outcome[i, 0]),
                "p_draw": float(self.outcome[i, 1]),
                "p_loss": float(self.outcome[i, 2]),
                "q": float(self.q[i]),
            }
            for i, m in enumerate(self.moves)
        ]
