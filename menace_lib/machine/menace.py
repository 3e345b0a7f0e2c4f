"""MENACE: one matchbox, one Dirichlet vector of bead counts, per canonical state.

Conventions follow the thesis's own implementation (``shared/reference``), and
where its text differs the choice is documented on the parameter:

* **Boxes.** One per canonical state of the agent's side kept by the filter
  (``all`` 338, ``decision`` 304, ``michie`` 287 for X).
* **Layout.** ``"square"``: one bead colour per legal square of the canonical
  board, symmetric squares *not* merged (the thesis's code; the empty box holds
  9 colours). ``"class"``: one colour per move class, i.e. per orbit of the
  board's own symmetry group (Michie's boxes and the blog; the empty box holds
  corner / edge / centre). A drawn class plays its representative square.
* **Initial beads** ``schedule[min(pieces // 2, len(schedule) - 1)]`` per colour:
  4-3-2-1 by MENACE's move number by default.
* **The bead rules** -- drawing a bead, the end-of-game update ``(win, draw,
  loss) = (+3, +1, -1)`` by default, the clamp level, move and box restock and
  what an empty box does -- are defined once, in :mod:`menace_lib.machine.beads`.
* **Positions without a box** (forced moves, double threats under ``michie``):
  a single legal move is played without a random draw; otherwise a uniform
  choice among the canonical legal moves. Nothing is learnt there.
* **Restock defaults.** ``restock="move"`` refills a colour to its initial count
  (the code's rule; the thesis's ch. 9 says "one bead": ``move_restock_beads=1``).
  ``restock="none"`` with ``empty_box="resign"`` resigns at an empty box, a loss,
  as the physical machine did; ``"stop"`` ends the run (the thesis pipeline);
  ``"web"`` stops only at an empty opening box (Scroggs' web MENACE).
* **Clamp level.** ``floor = 0`` (the code); the thesis's MENACE Decomposition
  Algorithm clamps at some ε > 0 (``floor=ε``), which keeps every move playable.
* **Limits** (:mod:`menace_lib.base.limits`). Every bead count, initial or learnt,
  lies in ``[floor, MAX_BEADS]`` (10^12; the update stops there), so bead totals
  stay finite. Reinforcements are at most ``MAX_REINFORCEMENT`` (10^6) in size.
  Under ``"move"`` or ``"box"`` restock every box must start with beads (a
  schedule of 0 is refused), since a restock could not refill it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .. import schemas
from ..base.files import (
    AgentFileError,
    read_progress,
    write_agent_json,
)
from ..base.limits import MAX_BEADS, MAX_REINFORCEMENT, MAX_SCHEDULE_LENGTH, check_number
from ..games.agent import PolicyMatrix
from ..games.agent_file import (
    open_agent_document,
    read_agent_file,
    settings_from_dict,
    settings_to_dict,
)
from ..games.board import O, X
from ..games.game import BASE_FILTERS, ONGOING
from ..games.registry import DEFAULT_GAME, game_tables, get_game
from ..games.results import DRAW_RESULT, LOSS, RESULT_NAMES, WIN, TrainingLog
from ..games.statespace import FILTERS
from .beads import (
    CREDITS,
    EMPTY_BOX_RULES,
    RESTOCKS,
    draw_bead,
    empty_box_move,
    refill_empty,
    reinforce,
)
from .engine import LAYOUTS, box_layout, canonical_policy, policy_matrix, train_machine

FORMAT = "menace_lib.menace"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class MenaceConfig:
    """How a MENACE is built and how it learns (see the module docstring).

    Parameters
    ----------
    filter
        Which positions get a box: ``"michie"`` (287), ``"decision"`` (304) or ``"all"`` (338).
    schedule
        Initial beads per colour by MENACE's move number (4-3-2-1).
    reinforcement
        Beads added per colour drawn after a win, draw and loss: ``(3, 1, -1)``.
    restock
        ``"none"``, ``"move"`` or ``"box"`` (see :mod:`menace_lib.machine.beads`).
    empty_box
        What an empty, unrefilled box does: ``"resign"``, ``"stop"`` or ``"web"``.
    layout
        ``"square"`` (one colour per legal square) or ``"class"`` (Michie's move classes).
    player
        The side MENACE plays: 1 (X, moves first) or 2 (O).
    floor
        The clamp level: the count no colour falls below.
    move_restock_beads
        With ``restock="move"``, the beads a spent colour gets back.

    Examples
    --------
    >>> import menace_lib as ml
    >>> config = ml.MenaceConfig(filter="decision", schedule=(4, 3, 2, 1))
    >>> ml.Menace(config).n_boxes
    304
    """

    filter: str = "michie"
    schedule: tuple[float, ...] = (4, 3, 2, 1)
    reinforcement: tuple[float, float, float] = (3, 1, -1)
    restock: str = "box"
    empty_box: str = "resign"
    layout: str = "square"
    player: int = X
    floor: float = 0.0
    move_restock_beads: float | None = None
    credit: str = "every"
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        get_game(self.game)  # a ValueError naming the known games
        filters = FILTERS if self.game == DEFAULT_GAME else BASE_FILTERS
        if self.filter not in filters:
            raise ValueError(
                f"unknown filter {self.filter!r} for {self.game}; choose one of {filters}"
            )
        if self.credit not in CREDITS:
            raise ValueError(f"unknown credit {self.credit!r}; choose one of {CREDITS}")
        if self.restock not in RESTOCKS:
            raise ValueError(f"unknown restock {self.restock!r}; choose one of {RESTOCKS}")
        if self.empty_box not in EMPTY_BOX_RULES:
            raise ValueError(
                f"unknown empty_box {self.empty_box!r}; choose one of {EMPTY_BOX_RULES}"
            )
        if self.layout not in LAYOUTS:
            raise ValueError(f"unknown layout {self.layout!r}; choose one of {LAYOUTS}")
        if isinstance(self.player, bool) or self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        schedule = _as_tuple("schedule", self.schedule)
        if not 1 <= len(schedule) <= MAX_SCHEDULE_LENGTH:
            raise ValueError(
                f"schedule must list 1 to {MAX_SCHEDULE_LENGTH} bead counts, got {len(schedule)}"
            )
        reinforcement = _as_tuple("reinforcement", self.reinforcement)
        if len(reinforcement) != 3:
            raise ValueError(f"reinforcement must be (win, draw, loss), got {reinforcement!r}")
        for name, r in zip(RESULT_NAMES, reinforcement, strict=True):
            lim = MAX_REINFORCEMENT
            check_number(f"reinforcement[{name}]", r, minimum=-lim, maximum=lim)
        floor = check_number("floor", self.floor, minimum=0, maximum=MAX_BEADS)
        if self.move_restock_beads is not None:
            refill = check_number(
                "move_restock_beads", self.move_restock_beads, minimum=0, maximum=MAX_BEADS
            )
            if refill <= floor:
                raise ValueError(
                    f"move_restock_beads must exceed floor ({floor:g}), got {refill:g}"
                )
        for i, b in enumerate(schedule):
            if check_number(f"schedule[{i}]", b, minimum=0, maximum=MAX_BEADS) < floor:
                raise ValueError(
                    f"schedule[{i}] = {b!r} is below the clamp level floor = {floor:g}"
                )
        object.__setattr__(self, "schedule", tuple(float(b) for b in schedule))
        object.__setattr__(self, "reinforcement", tuple(float(r) for r in reinforcement))


def _as_tuple(name: str, value: Any) -> tuple:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name} must be a sequence of numbers, got {value!r}")
    return tuple(value)


@dataclass(eq=False)
class Menace:
    """A matchbox learner.

    Parameters
    ----------
    config
        Filter, bead schedule, reinforcement, restock, layout and side.
    frozen
        A frozen MENACE plays but never learns.

    Attributes
    ----------
    states
        Canonical position id of each box.
    entries
        Per box, the canonical square each bead colour plays.
    members
        Per box, the canonical squares each colour stands for (one square in the
        ``square`` layout, a move class in the ``class`` layout).
    initial, weights
        Per box, initial and current bead counts (Python lists: the hot loop
        reads them directly).

    Examples
    --------
    >>> import numpy as np
    >>> import menace_lib as ml
    >>> agent = ml.Menace(ml.MenaceConfig(filter="michie", restock="box"))
    >>> agent.n_boxes
    287
    >>> log = agent.train_against(ml.make_opponent("random"), 200, np.random.default_rng(0))
    >>> agent.games_trained
    200
    """

    FORMAT: ClassVar[str] = FORMAT

    config: MenaceConfig = field(default_factory=MenaceConfig)
    frozen: bool = False
    games_trained: int = 0

    def __post_init__(self) -> None:
        cfg = self.config
        if not isinstance(cfg, MenaceConfig):
            raise TypeError(f"config must be a MenaceConfig, got {type(cfg).__name__}")
        layout = box_layout(cfg.game, cfg.filter, cfg.layout, cfg.player)
        self.box_layout = layout
        plies = layout.box_plies.tolist()
        beads = [self.schedule_beads(p) for p in range(max(plies, default=0) + 1)]
        sizes = layout.colours.lengths().tolist()
        self.initial = [[beads[p]] * k for p, k in zip(plies, sizes, strict=True)]
        self._check_no_empty_box()
        self.weights = [list(w) for w in self.initial]
        refill = cfg.move_restock_beads
        self.move_refill = self.initial if refill is None else [[float(refill)] * k for k in sizes]

    # Shared, read-only views of the layout (built once per game, filter, layout and side,
    # and only when read: the compiled engine reads the layout's arrays instead).

    @property
    def states(self) -> tuple[int, ...]:
        """Canonical position id of each box."""
        return self.box_layout.states

    @property
    def box_of(self):
        """Canonical position id -> box."""
        return self.box_layout.box_of

    @property
    def members(self):
        """Per box, the canonical squares each colour stands for."""
        return self.box_layout.members

    @property
    def entries(self):
        """Per box, the canonical square each bead colour plays."""
        return self.box_layout.entries

    @property
    def raw_box(self) -> tuple[int, ...]:
        """Per raw position, the box it opens (``-1``: none)."""
        return self.box_layout.raw_box

    @property
    def raw_squares(self):
        """Per raw position, the raw square of each colour (or of each legal move)."""
        return self.box_layout.raw_moves

    @property
    def raw_next(self):
        """Per raw position, where each of :attr:`raw_squares` leads."""
        return self.box_layout.raw_next

    @property
    def result(self) -> tuple[int, ...]:
        """Per raw position, the finished game's result for MENACE (``-1``: going on)."""
        return self.box_layout.result

    @property
    def tables(self):
        """The game's :class:`~menace_lib.games.game.Tables`."""
        return game_tables(self.config.game)

    # --- construction helpers ------------------------------------------------

    def schedule_beads(self, pieces: int) -> float:
        """Initial beads per colour for a box with ``pieces`` on the board."""
        sched = self.config.schedule
        return sched[min(pieces // 2, len(sched) - 1)]

    def _check_no_empty_box(self) -> None:
        """Under move or box restock, an empty box could never be refilled: refuse it."""
        cfg = self.config
        if cfg.restock == "none" or min(cfg.schedule) > 0:
            return
        T = self.tables
        for s, w in zip(self.box_layout.box_state.tolist(), self.initial, strict=True):
            if sum(w) <= 0:
                pieces = int(T.ply[s])
                raise ValueError(
                    f"schedule {list(cfg.schedule)} gives 0 beads to boxes with {pieces} "
                    f"pieces (e.g. {T.text(s)!r}); restock {cfg.restock!r} cannot refill an "
                    "empty box: give every box beads, or use restock 'none'"
                )

    # --- policy ----------------------------------------------------------------

    @property
    def n_boxes(self) -> int:
        return self.box_layout.n_boxes

    def _position(self, pid: Any) -> int:
        """``pid`` if it is a position id (fast path for a plain int), else a ValueError."""
        if type(pid) is int and 0 <= pid < len(self.box_layout.position_box):
            return pid
        return self.tables.check_id(pid)

    def box_for(self, pid: int) -> int:
        """Box index opened in raw position ``pid`` (``-1`` if none)."""
        return self.raw_box[self._position(pid)]

    def probabilities(self, box: int) -> list[float]:
        """Bead proportions of one box (its initial proportions if it is empty)."""
        w = self.weights[box]
        total = sum(w)
        if total <= 0:
            w = self.initial[box]
            total = sum(w)
        return [x / total for x in w] if total > 0 else [1 / len(w)] * len(w)

    def move_distribution(self, pid: int) -> dict[int, float]:
        """Probability of each raw square in raw position ``pid`` (agent to move)."""
        T = self.tables
        pid = self._position(pid)
        if T.outcome[pid] != ONGOING or T.player[pid] != self.config.player:
            raise ValueError(f"it is not {self._side}'s move in {T.text(pid)!r}")
        squares = self.raw_squares[pid]
        b = self.raw_box[pid]
        if b < 0:
            return {m: 1 / len(squares) for m in squares}
        if sum(self.weights[b]) <= 0 and self.config.restock == "none":
            return {}
        return dict(zip(squares, self.probabilities(b), strict=True))

    def choose(self, pid: int, rng: np.random.Generator) -> tuple[int, int, int]:
        """Draw a move in raw position ``pid``.

        Returns
        -------
        (square, box, colour)
            ``box`` and ``colour`` are ``-1`` where no box was opened. At an empty
            box that nothing refills, ``square`` is :data:`~menace_lib.games.agent.RESIGN`
            or :data:`~menace_lib.games.agent.STOP` (see ``empty_box``).
        """
        pid = self._position(pid)
        b = self.raw_box[pid]
        squares = self.raw_squares[pid]
        if not squares:
            raise ValueError(f"MENACE ({self._side}) has no move in {self.tables.text(pid)!r}")
        if b < 0:
            if len(squares) == 1:
                return squares[0], -1, -1
            return squares[int(rng.integers(len(squares)))], -1, -1
        u = float(rng.random())
        w = self.weights[b]
        if refill_empty(w, self.initial[b], self.config.restock) is None:
            return empty_box_move(self.config.empty_box, self.box_layout.opening[pid]), b, -1
        j = draw_bead(w, u)
        return squares[j], b, j

    # --- the Agent protocol ----------------------------------------------------

    @property
    def player(self) -> int:
        """The side MENACE plays."""
        return self.config.player

    @property
    def game(self) -> str:
        """The name of the game MENACE plays."""
        return self.config.game

    @property
    def _side(self) -> str:
        if self.config.game == DEFAULT_GAME:
            return "XO"[self.config.player - 1]
        return ("first player", "second player")[self.config.player - 1]

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int]]:
        """:meth:`choose` as an :class:`~menace_lib.games.agent.Agent`: record ``(box, colour)``."""
        square, b, j = self.choose(pid, rng)
        return square, (b, j)

    def end_game(self, trajectory: list, result: int, final: int = -1) -> None:
        """Learn from a finished game whose records :meth:`act` returned."""
        if self.frozen:
            return
        self.reinforce([(b, j) for b, j in trajectory if j >= 0], result)
        self.games_trained += 1

    def train_against(
        self, opponent, games: int, rng: np.random.Generator, *, record: bool = True
    ) -> TrainingLog:
        """Play and learn against a scripted opponent, in the one matchbox engine."""
        return train_machine(self, opponent, games, rng, record=record)

    def policy_matrix(self) -> PolicyMatrix:
        """Bead proportions as move probabilities in every raw position."""
        cfg = self.config
        return policy_matrix(self.box_layout, self.weights, self.initial, cfg.restock)

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities over canonical squares in canonical ``state``."""
        b = self.box_of.get(int(state), -1)
        return canonical_policy(self.box_layout, self.probabilities(b) if b >= 0 else None, state)

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        """:meth:`canonical_policy` of each canonical state in ``states``, stacked."""
        width = self.tables.succ.shape[1]
        return np.array([self.canonical_policy(int(s)) for s in states]).reshape(-1, width)

    # --- learning --------------------------------------------------------------

    def reinforce(self, path: Sequence[tuple[int, int]], result: int) -> float:
        """Apply the end-of-game update to every ``(box, colour)`` drawn in a game.

        Returns the change in the total number of beads. A frozen MENACE does
        nothing and returns 0.
        """
        if self.frozen or not path:
            return 0.0
        if result not in (WIN, DRAW_RESULT, LOSS):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        for b, j in path:
            if not (0 <= b < len(self.weights) and 0 <= j < len(self.weights[b])):
                raise ValueError(f"path entry {(b, j)!r} names no bead colour")
        cfg = self.config
        return reinforce(
            self.weights,
            self.initial,
            self.move_refill,
            path,
            cfg.reinforcement[result],
            cfg.restock,
            cfg.floor,
            cfg.credit,
        )

    def total_beads(self) -> float:
        return float(sum(sum(w) for w in self.weights))

    def copy(self) -> Menace:
        """An independent copy (the game tables are shared, the beads are not)."""
        twin = copy.copy(self)
        twin.weights = [list(w) for w in self.weights]
        return twin

    def frozen_copy(self) -> Menace:
        twin = self.copy()
        twin.frozen = True
        return twin

    # --- persistence -----------------------------------------------------------

    def to_dict(self) -> dict:
        """A JSON-ready description: format, version, config and every box."""
        T = self.tables
        # files of the defaults stay as they were: credit and game only when not those
        cfg = settings_to_dict(self.config, omit={"credit": "every", "game": DEFAULT_GAME})
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "config": cfg,
            "frozen": self.frozen,
            "games_trained": self.games_trained,
            "boxes": [
                {"board": T.text(s), "moves": list(e), "beads": list(w)}
                for s, e, w in zip(self.states, self.entries, self.weights, strict=True)
            ],
        }

    def save(self, path: str | Path, *, option: str | None = None) -> Path:
        """Write the agent as JSON, all or nothing (see :mod:`menace_lib.base.files`).

        The document is checked with the same rules as :meth:`load` before anything is
        written, so a saved file always loads.

        Parameters
        ----------
        path
            The file to write: a new file, or an existing regular file (or a symbolic
            link to one), which is replaced with its mode kept.
        option
            The command-line option ``path`` came from, named in errors.

        Raises
        ------
        OutputPathError
            If ``path`` is a folder, a device, a FIFO, read-only, or in a missing folder.
        """
        data = self.to_dict()
        type(self).from_dict(data)
        return write_agent_json(path, data, option=option)

    @classmethod
    def from_dict(cls, data: Any) -> Menace:
        """Rebuild an agent from :meth:`to_dict` output, validating every field.

        Raises
        ------
        AgentFileError
            Naming the first bad field.
        """
        # The count before the items: the schema first checks everything but the boxes
        # (one box stands for them), then the box count is compared, and only then is
        # each box validated, so a file of a million boxes is refused at once.
        open_agent_document(data, FORMAT, FORMAT_VERSION, schema=_first_box_only)
        boxes = data.get("boxes")
        frozen, games_trained = read_progress(data)
        try:
            config = settings_from_dict(
                MenaceConfig, data["config"], tuples=("schedule", "reinforcement")
            )
            agent = cls(config, frozen=frozen, games_trained=games_trained)
        except (TypeError, ValueError) as err:
            raise AgentFileError(f"config: {err}") from None
        if not isinstance(boxes, list):
            raise AgentFileError("boxes: must be a list")
        if len(boxes) != agent.n_boxes:
            raise AgentFileError(
                f"boxes: filter {config.filter!r} has {agent.n_boxes} boxes, file has {len(boxes)}"
            )
        schemas.validate(data, "agent file")  # now every box
        T = agent.tables
        weights = []
        for b, box in enumerate(boxes):
            where = f"boxes[{b}]"
            if not isinstance(box, dict):
                raise AgentFileError(f"{where}: must be an object")
            expected_board = T.text(agent.states[b])
            if box.get("board") != expected_board:
                raise AgentFileError(
                    f"{where}.board: expected {expected_board!r}, got {box.get('board')!r}"
                )
            if box.get("moves") != list(agent.entries[b]):
                raise AgentFileError(
                    f"{where}.moves: expected {list(agent.entries[b])}, got {box.get('moves')!r}"
                )
            beads = box["beads"]
            if len(beads) != len(agent.entries[b]):
                raise AgentFileError(f"{where}.beads: must list {len(agent.entries[b])} counts")
            weights.append([float(x) for x in beads])
            _check_box_beads(where, weights[-1], config)
        agent.weights = weights
        return agent

    @classmethod
    def load(cls, path: str | Path) -> Menace:
        """Read an agent written by :meth:`save` (JSON only; never pickle).

        Raises
        ------
        AgentFileError
            If the file is missing, not a regular file, over
            :data:`~menace_lib.base.limits.MAX_FILE_BYTES`, not JSON, breaks the schema
            ``menace_lib/schemas/menace_lib.menace.v1.schema.json``, or does not fit
            its own configuration; the message names the first bad field.
        """
        return cls.from_dict(read_agent_file(path))


def _first_box_only(data: dict) -> dict:
    """The document with its boxes cut to the first, for the schema's first pass."""
    boxes = data.get("boxes")
    return {**data, "boxes": boxes[:1]} if isinstance(boxes, list) else data


def _check_box_beads(where: str, beads: list[float], config: MenaceConfig) -> None:
    """The checks on one box's beads that the schema cannot make."""
    for j, x in enumerate(beads):
        if not math.isfinite(x):  # a dict built in code, not read from JSON, may hold NaN
            raise AgentFileError(f"{where}.beads[{j}]: must be a finite number, got {x!r}")
        if x < config.floor:
            raise AgentFileError(
                f"{where}.beads[{j}]: {x!r} is below the clamp level floor={config.floor:g}"
            )
    if config.restock != "none" and sum(beads) <= 0:
        raise AgentFileError(
            f"{where}.beads: an empty box cannot arise under restock {config.restock!r}"
        )


__all__ = [
    "AgentFileError",
    "EMPTY_BOX_RULES",
    "DRAW_RESULT",
    "LAYOUTS",
    "LOSS",
    "Menace",
    "MenaceConfig",
    "RESTOCKS",
    "RESULT_NAMES",
    "WIN",
]
