"""Michie's computer MENACE (the Pegasus program of 1963): odds multipliers and a sliding origin.

Michie (1963, *The Computer Journal* 6(3):232-236) simulated MENACE on the Ferranti
Pegasus with a different learning rule from the matchboxes' bead counts. The stored
texts of this project quote that paper but do not give its equations in full, so the
rule is implemented from its description, and every detail it leaves open is fixed
here and stated:

* **Boxes.** Michie's 287 boxes (the ``michie`` filter) with one weight per move
  class (``layout="class"``), all weights 1 at the start: uniform play. The weights
  are the machine's odds: multiplying a move's weight by ``M`` multiplies the odds
  on that move against the others of its box by exactly ``M``.
* **Stages, counted back from the end of play.** The machine's last move of a game is
  at stage 8, the one before at stage 7, and so on (``n = 8 - k`` for the move with
  ``k`` of the machine's moves after it). Its multiplier is ``M_n = A * B**(n - 8)``:
  ``A`` for the last move, smaller for earlier ones when ``B > 1``. Every multiplier
  a game can use (``k <= 4``: five moves at most) must exceed 1, so that a good
  result never weakens a move: ``A * B**-4 > 1``.
* **Outcome and sliding origin.** A game scores ``v = +1, 0, -1`` (win, draw, loss).
  The origin ``mu`` is a discounted average of past scores, ``mu <- D * mu + (1 - D)
  * v`` after each game (0 at first, ``D = decay``). Each move of the game has its
  weight multiplied by ``M_n ** (v - mu)`` with the origin from *before* the game, so
  a result better than the machine's recent average strengthens the moves that led to
  it and a worse one weakens them.
* **Range.** A box's weights are rescaled so that the largest is 1 (this changes no
  probability), and no weight falls below :data:`MIN_WEIGHT` times the largest, so a
  move is never lost for good to floating-point underflow.

Everything else -- the boxes, the draw of a move, the game loop, the exact evaluation
of a frozen machine -- is the matchbox machine's (:class:`~menace_lib.machine.menace.Menace`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..base.files import AgentFileError, check_header, read_json, read_progress, write_agent_json
from ..games.board import O, X
from ..games.results import DRAW_RESULT, LOSS, WIN, TrainingLog
from ..machine.engine import run_games_with_hook, training_log
from ..machine.menace import Menace, MenaceConfig

__all__ = ["FORMAT", "MIN_WEIGHT", "OUTCOME_SCORE", "PegasusConfig", "PegasusMenace"]

FORMAT = "menace_lib.pegasus"
FORMAT_VERSION = 1

MIN_WEIGHT = 1e-12
"""Smallest weight relative to the largest of its box (a choice: see the module docstring)."""

OUTCOME_SCORE = {WIN: 1.0, DRAW_RESULT: 0.0, LOSS: -1.0}
"""The score ``v`` of a result for the machine."""

LAST_STAGE = 8
"""The stage of the machine's last move in a game (``M_8 = A``)."""

MAX_MOVES = 5
"""The most moves one side makes in a game of noughts and crosses."""

_MAX_FACTOR = 1e6


@dataclass(frozen=True)
class PegasusConfig:
    """Michie's computer MENACE (see the module docstring).

    Parameters
    ----------
    A
        The multiplier of the machine's last move in a game (``A > 1``).
    B
        How much weaker each earlier move's multiplier is (``B >= 1``; 1: all equal).
    decay
        ``D`` in ``mu <- D * mu + (1 - D) * v``: how slowly the origin slides (``0 <= D < 1``).
    player
        The side the machine plays: 1 (X, moves first) or 2 (O).
    """

    A: float = 2.0
    B: float = 1.1
    decay: float = 0.9
    player: int = X

    def __post_init__(self) -> None:
        for name, value, low in (("A", self.A, 1.0), ("B", self.B, 1.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number, got {value!r}")
            if not (math.isfinite(value) and low <= value <= _MAX_FACTOR) or (
                name == "A" and value == 1.0
            ):
                bound = "> 1" if name == "A" else "≥ 1"
                raise ValueError(
                    f"{name} must be {bound} and at most {_MAX_FACTOR:g}, got {value!r}"
                )
        if self.A * self.B ** -(MAX_MOVES - 1) <= 1.0:
            raise ValueError(
                f"A * B**-{MAX_MOVES - 1} must exceed 1 (every stage's multiplier above 1), "
                f"got A = {self.A!r}, B = {self.B!r}"
            )
        if isinstance(self.decay, bool) or not isinstance(self.decay, (int, float)):
            raise ValueError(f"decay must be a number, got {self.decay!r}")
        if not 0.0 <= self.decay < 1.0:
            raise ValueError(f"decay must lie in [0, 1), got {self.decay!r}")
        if isinstance(self.player, bool) or self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        object.__setattr__(self, "A", float(self.A))
        object.__setattr__(self, "B", float(self.B))
        object.__setattr__(self, "decay", float(self.decay))

    def machine(self) -> MenaceConfig:
        """The matchbox machine it runs on: Michie's 287 boxes, one weight per move class."""
        return MenaceConfig(
            filter="michie",
            layout="class",
            schedule=(1.0,),
            reinforcement=(0.0, 0.0, 0.0),
            restock="none",
            player=self.player,
        )

    def multiplier(self, stage: int) -> float:
        """``M_n = A * B**(n - 8)``."""
        return self.A * self.B ** (stage - LAST_STAGE)


class PegasusMenace(Menace):
    """Michie's computer MENACE on the matchbox machine (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.agents.pegasus.PegasusMenace(ml.agents.pegasus.PegasusConfig(A=2, B=1.1))
    >>> agent.n_boxes
    287
    >>> log = agent.train_against(ml.make_opponent("random"), 100, np.random.default_rng(0))
    >>> agent.games_trained, -1 < agent.mu < 1
    (100, True)
    """

    FORMAT: ClassVar[str] = FORMAT

    def __init__(
        self, config: PegasusConfig | None = None, frozen: bool = False, games_trained: int = 0
    ) -> None:
        config = PegasusConfig() if config is None else config
        if not isinstance(config, PegasusConfig):
            raise TypeError(f"config must be a PegasusConfig, got {type(config).__name__}")
        self.pegasus = config
        super().__init__(config.machine(), frozen, games_trained)
        self.mu = 0.0

    # --- learning ----------------------------------------------------------------

    def reinforce(self, path: Sequence[tuple[int, int]], result: int) -> float:
        """Multiply the odds of every ``(box, colour)`` of a game, in play order; slide ``mu``.

        Returns the change in the sum of all weights (as :meth:`Menace.reinforce` does).
        """
        if self.frozen:
            return 0.0
        if result not in OUTCOME_SCORE:
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        for b, j in path:
            if not (0 <= b < len(self.weights) and 0 <= j < len(self.weights[b])):
                raise ValueError(f"path entry {(b, j)!r} names no move")
        cfg = self.pegasus
        v = OUTCOME_SCORE[result]
        power = v - self.mu
        before = self.total_beads()
        last = len(path) - 1
        for k, (b, j) in enumerate(path):
            stage = LAST_STAGE - (last - k)
            w = self.weights[b]
            w[j] *= cfg.multiplier(stage) ** power
            top = max(w)
            w[:] = [max(x / top, MIN_WEIGHT) for x in w]
        self.mu = cfg.decay * self.mu + (1.0 - cfg.decay) * v
        return self.total_beads() - before

    def train_against(
        self, opponent, games: int, rng: np.random.Generator, *, record: bool = True
    ) -> TrainingLog:
        """Play and learn against a scripted opponent, on the matchbox machine's game loop."""
        moves_of = self.box_layout.raw_moves

        def end_game(trajectory: list, result: int, final: int) -> None:
            if self.frozen:
                return
            path = [(b, moves_of[s].index(m)) for s, m, b in trajectory if b >= 0]
            self.reinforce(path, result)
            self.games_trained += 1

        out = run_games_with_hook(
            self.box_layout,
            self.weights,
            self.initial,
            opponent.next_ids,
            games,
            rng,
            end_game,
            record=record,
        )
        return training_log(out, opponent.name)

    # --- files -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the settings, the origin and every box's weights, in box order."""
        cfg = asdict(self.pegasus)
        cfg["player"] = "XO"[self.pegasus.player - 1]
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "config": cfg,
            "mu": self.mu,
            "frozen": self.frozen,
            "games_trained": self.games_trained,
            "weights": [list(w) for w in self.weights],
        }

    def save(self, path: str | Path, *, option: str | None = None) -> Path:
        """Write :meth:`to_dict` as JSON (atomically)."""
        return write_agent_json(path, self.to_dict(), option=option)

    @classmethod
    def from_dict(cls, data: Any) -> PegasusMenace:
        """Rebuild a machine from :meth:`to_dict` output; ``AgentFileError`` names a bad field."""
        from .. import schemas

        check_header(data, FORMAT, FORMAT_VERSION, "agent file")
        schemas.validate(data, "agent file")
        cfg = dict(data["config"])
        cfg["player"] = X if cfg.get("player", "X") == "X" else O
        try:
            agent = cls(PegasusConfig(**cfg))
        except ValueError as err:
            raise AgentFileError(f"config: {err}") from None
        agent.frozen, agent.games_trained = read_progress(data)
        agent.mu = float(data.get("mu", 0.0))
        weights = data["weights"]
        if len(weights) != agent.n_boxes:
            raise AgentFileError(f"weights: expected {agent.n_boxes} boxes, got {len(weights)}")
        for i, (w, w0) in enumerate(zip(weights, agent.initial, strict=True)):
            if len(w) != len(w0):
                raise AgentFileError(f"weights[{i}]: expected {len(w0)} moves, got {len(w)}")
            if max(w) <= 0:
                raise AgentFileError(f"weights[{i}]: every weight is 0")
        agent.weights = [[float(x) for x in w] for w in weights]
        return agent

    @classmethod
    def load(cls, path: str | Path) -> PegasusMenace:
        """Read a file written by :meth:`save`."""
        return cls.from_dict(read_json(path, "agent file"))
