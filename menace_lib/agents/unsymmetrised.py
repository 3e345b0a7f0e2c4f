"""Unsymmetrised MENACE: one box per raw position, as in the APL article.

The APL article ("Implementing A Simplified MENACE Player") drops Michie's
symmetry reduction. It keeps a bead row for every board whose counts of
crosses and noughts could occur in play -- its ``ok`` test, ``nx - no ∈ {0, 1}``
-- which 6,046 of the 3⁹ = 19,683 boards pass (5,478 of them are actually
reachable; the rest hold two winning lines or play on after a win). Each row
has nine columns, one per square: 20 beads on every empty square, 0 on every
filled one, and the zeros never change because those moves are never made.
The machine can play either side.

Learning, as the article states it: after the game, for every (position,
square) MENACE drew, add 3 beads for a win, 1 for a draw, and remove 3 for a
loss. Beads are not taken out during the game (the APL player only records
the position and move). The article's code stops before the update is
written, so two edge cases are our reading:

* counts are clamped at 0 (a box cannot hold negative beads);
* a box whose beads are all gone is refilled with its initial beads
  (``restock="box"``, the library's default for MENACE). The article's
  ``pick`` is undefined on an empty box (``?0`` then an index past the
  board), and with -3 per loss against a strong opponent boxes do empty.
  ``restock="none"`` makes MENACE resign instead, as the physical machine
  did.

The bead schedule is a parameter: the article's ``(20,)`` puts 20 beads per
empty square in every box; ``(4, 3, 2, 1)`` reproduces Michie's schedule by
the agent's move number, exactly as :class:`~menace_lib.machine.menace.Menace` does.

The machine runs on the one matchbox machine (:mod:`menace_lib.machine.engine`): its
:func:`article_layout` is a :class:`~menace_lib.machine.engine.BoxLayout` with a box per
board row and a colour per square, played and reinforced by
:func:`~menace_lib.machine.engine.run_games` and read by
:func:`~menace_lib.machine.engine.policy_matrix`, like every other matchbox learner.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

import numpy as np

from ..base.files import AgentFileError, read_progress
from ..base.limits import MAX_BEADS
from ..games.agent import RESIGN, PolicyMatrix
from ..games.agent_file import open_agent_document, settings_from_dict, settings_to_dict
from ..games.board import LINES, O, X, board_to_text
from ..games.game import Rows
from ..games.registry import DEFAULT_GAME
from ..games.statespace import ONGOING, tables
from ..machine.beads import RESTOCKS, draw_bead, reinforce
from ..machine.engine import BoxLayout, policy_matrix, train_machine
from ..machine.menace import Menace, MenaceConfig
from ..play.evaluation import exact_outcome
from ..play.loop import TrainingLog, result_for
from ..play.opponents import TableOpponent, make_opponent

__all__ = [
    "ARTICLE_CONFIG",
    "article_layout",
    "FORMAT",
    "UnsymmetrisedConfig",
    "UnsymmetrisedMenace",
    "games_to_reach",
    "ok_counts",
    "ok_positions",
    "piece_count_ok",
    "symmetry_comparison",
    "symmetry_rows",
    "train_unsymmetrised_against",
]

_POW3 = 3 ** np.arange(9)
FORMAT = "menace_lib.unsymmetrised"
FORMAT_VERSION = 1
_FILE_KEYS = frozenset({"format", "version", "config", "frozen", "games_trained", "boxes"})


def piece_count_ok(boards: np.ndarray) -> np.ndarray:
    """The article's ``ok`` test per board: crosses minus noughts is 0 or 1.

    Parameters
    ----------
    boards
        Shape (n, 9) or (9,), values 0 (empty), 1 (X), 2 (O).
    """
    b = np.asarray(boards)
    if b.shape[-1] != 9:
        raise ValueError(f"boards must have 9 squares in the last axis, got shape {b.shape}")
    diff = (b == X).sum(axis=-1) - (b == O).sum(axis=-1)
    return (diff == 0) | (diff == 1)


@cache
def ok_positions() -> np.ndarray:
    """Every board passing :func:`piece_count_ok`, shape (6046, 9), by base-3 code."""
    codes = np.arange(3**9)
    boards = (codes[:, None] // _POW3[None, :]) % 3
    ok = boards[piece_count_ok(boards)].astype(np.int8)
    ok.setflags(write=False)
    return ok


def ok_counts() -> dict[str, int]:
    """All boards, those passing the piece-count test, and those of them reachable in play."""
    codes = (ok_positions().astype(np.int64) * _POW3).sum(axis=1)
    reachable = int((tables().code_to_id.lookup(codes) >= 0).sum())
    return {"boards": 3**9, "piece_count_ok": len(codes), "reachable": reachable}


@cache
def article_layout(player: int = X) -> BoxLayout:
    """The unsymmetrised machine as a :class:`~menace_lib.machine.engine.BoxLayout` (built once).

    Box ``r`` is row ``r`` of :func:`ok_positions` (reachable or not), with nine colours,
    colour ``j`` playing square ``j``; a position where ``player`` moves opens the box of
    its own board (no symmetry). The colours of taken squares hold no beads, so they
    are never drawn.
    """
    if player not in (X, O):
        raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
    T = tables()
    boards = ok_positions()
    codes = (boards.astype(np.int64) * _POW3).sum(axis=1)
    row_of = np.searchsorted(codes, T.codes)
    mine = (T.outcome == ONGOING) & (T.player == player)
    pid_of_row = np.full(len(codes), -1, dtype=np.int64)
    pid_of_row[row_of] = np.arange(T.n_positions)
    results = np.array(
        [-1 if o == ONGOING else result_for(player, o) for o in T.outcome.tolist()], np.int8
    )
    every = np.ones((len(codes), 9), dtype=bool)  # nine colours a box, colour j square j
    moves = Rows.from_mask(mine[:, None] & np.ones((1, 9), dtype=bool))
    return BoxLayout(
        game=DEFAULT_GAME,
        filter="piece-count",
        layout="square",
        player=player,
        box_state=pid_of_row,
        box_plies=(boards != 0).sum(axis=1).astype(np.int8),
        colours=Rows.from_mask(every),
        classes=None,
        position_box=np.where(mine, row_of, -1).astype(np.int32),
        position_result=results,
        position_opening=T.ply <= (0 if player == X else 1),
        moves=moves,
        children=Rows(moves.start, T.succ[mine].ravel()),  # -1: a taken square, no beads
    )


@dataclass(frozen=True)
class UnsymmetrisedConfig:
    """How an unsymmetrised MENACE is built and learns.

    Attributes
    ----------
    player
        ``X`` or ``O``.
    schedule
        Initial beads per empty square by the agent's move number (the last
        entry repeats); the article's ``(20,)`` is 20 everywhere.
    reinforcement
        Beads added per drawn bead for (win, draw, loss); the article's (3, 1, -3).
    restock
        ``"none"`` (an empty box resigns), ``"box"`` (refill an empty box) or
        ``"move"`` (a colour that reaches 0 gets its initial beads back). The
        default ``"box"`` is our choice (see the module docstring).
    """

    player: int = X
    schedule: tuple[float, ...] = (20,)
    reinforcement: tuple[float, float, float] = (3, 1, -3)
    restock: str = "box"

    def __post_init__(self) -> None:
        if self.player not in (X, O):
            raise ValueError(f"player must be X ({X}) or O ({O}), got {self.player!r}")
        if self.restock not in RESTOCKS:
            raise ValueError(f"unknown restock {self.restock!r}; choose one of {RESTOCKS}")
        # MenaceConfig already validates schedules and reinforcements; reuse it.
        checked = MenaceConfig(schedule=tuple(self.schedule), reinforcement=self.reinforcement)
        object.__setattr__(self, "schedule", checked.schedule)
        object.__setattr__(self, "reinforcement", checked.reinforcement)

    # The article's bead rules beside the settings, as the machine reads them
    # (menace_lib.machine.run_games): counts clamp at 0, an empty box that nothing
    # refills resigns, and every drawn bead is reinforced.
    floor: ClassVar[float] = 0.0
    empty_box: ClassVar[str] = "resign"
    credit: ClassVar[str] = "every"


ARTICLE_CONFIG = UnsymmetrisedConfig()
"""The APL article's machine: 20 beads per empty square, +3 / +1 / -3."""


@dataclass(eq=False)
class UnsymmetrisedMenace:
    """A MENACE with a box for each of the 6,046 piece-count-valid boards.

    An :class:`~menace_lib.games.agent.Agent`, so training and
    :func:`~menace_lib.play.evaluation.exact_outcome` treat it like any other learner.

    Attributes
    ----------
    boards
        (6046, 9) board of each box (row), ascending base-3 code.
    box_layout
        Its :func:`article_layout` (shared, read-only).
    weights, initial
        Per row, nine bead counts (squares 0..8), lists for the hot loop.
    row_of
        Per reachable position id, its row.
    result
        Per position id: for terminals 0 win / 1 draw / 2 loss from this
        agent's side, else -1.
    """

    FORMAT: ClassVar[str] = FORMAT

    config: UnsymmetrisedConfig = field(default_factory=UnsymmetrisedConfig)
    frozen: bool = False
    games_trained: int = 0

    def __post_init__(self) -> None:
        self.boards = ok_positions()
        layout = article_layout(self.config.player)
        self.box_layout = layout
        self.row_of = _row_of_position()
        self.result = layout.result
        beads = [self._beads(p) for p in range(10)]
        self.initial = [
            [beads[p] if e else 0.0 for e in row]
            for p, row in zip(layout.box_ply, _empty_squares(), strict=True)
        ]
        self.weights = [list(w) for w in self.initial]

    @property
    def move_refill(self) -> list[list[float]]:
        """What a spent colour gets back under ``restock="move"``: its initial beads."""
        return self.initial

    @property
    def player(self) -> int:
        return self.config.player

    @property
    def n_boxes(self) -> int:
        return len(self.weights)

    def _beads(self, pieces: int) -> float:
        sched = self.config.schedule
        return sched[min(pieces // 2, len(sched) - 1)]

    def total_beads(self) -> float:
        return float(sum(sum(w) for w in self.weights))

    # --- the Agent protocol ---------------------------------------------------

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int]]:
        """Draw a square in position ``pid``; returns (square, (row, square)).

        At an empty box with ``restock="none"`` MENACE resigns (square
        :data:`~menace_lib.games.agent.RESIGN`).
        """
        T = tables()
        if T.outcome[pid] != ONGOING or T.player[pid] != self.player:
            raise ValueError(f"it is not this MENACE's move in {T.text(pid)!r}")
        row = self.row_of[pid]
        w = self.weights[row]
        u = float(rng.random())  # drawn before the box is looked at, as MENACE does
        if sum(w) <= 0:
            if self.config.restock == "none":
                return RESIGN, (row, -1)
            w[:] = self.initial[row]
        j = draw_bead(w, u)
        return j, (row, j)

    def end_game(self, trajectory: Sequence[tuple[int, int]], result: int, final: int = -1) -> None:
        """Reinforce every drawn (row, square) with the game's result."""
        self.reinforce([(r, j) for r, j in trajectory if j >= 0], result)

    def train_against(
        self, opponent: TableOpponent, games: int, rng: np.random.Generator, *, record=True
    ) -> TrainingLog:
        """Play and learn against a scripted opponent, on the one matchbox engine."""
        return train_machine(self, opponent, games, rng, record=record)

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities in the (canonical) position ``state`` itself."""
        return self.policy_matrix().probabilities[int(state)]

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        """:meth:`canonical_policy` of each state in ``states``: one matrix call."""
        return self.policy_matrix().probabilities[np.asarray(states, dtype=np.intp)]

    def reinforce(self, path: Sequence[tuple[int, int]], result: int) -> float:
        """Add the result's bead change to every drawn ``(row, square)``; returns the change."""
        if self.frozen or not path:
            return 0.0
        if result not in (0, 1, 2):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        delta = self.config.reinforcement[result]
        initial = self.initial
        return reinforce(self.weights, initial, initial, path, delta, self.config.restock, 0.0)

    def copy(self) -> UnsymmetrisedMenace:
        twin = copy.copy(self)
        twin.weights = [list(w) for w in self.weights]
        return twin

    def frozen_copy(self) -> UnsymmetrisedMenace:
        twin = self.copy()
        twin.frozen = True
        return twin

    def move_distribution(self, pid: int) -> dict[int, float]:
        """Probability of each square in position ``pid`` (empty if MENACE resigns)."""
        P, rows, resign = self.policy_matrix()
        if not rows[pid]:
            raise ValueError(f"it is not this MENACE's move in {tables().text(pid)!r}")
        return {int(m): float(P[pid, m]) for m in np.flatnonzero(P[pid] > 0)}

    def policy_matrix(self) -> PolicyMatrix:
        """(P, agent_rows, resign_rows) over all reachable positions, for exact evaluation."""
        return policy_matrix(self.box_layout, self.weights, self.initial, self.config.restock)

    # --- files ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the config and only the boxes whose beads differ from the start.

        Most of the 6,046 boxes are never opened, so listing just the changed ones
        keeps a file small; every other box holds its initial beads.
        """
        cfg = self.config
        changed = [
            r for r, (w, w0) in enumerate(zip(self.weights, self.initial, strict=True)) if w != w0
        ]
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "config": settings_to_dict(cfg),
            "frozen": self.frozen,
            "games_trained": self.games_trained,
            "boxes": [
                {"board": board_to_text(self.boards[r]), "beads": list(self.weights[r])}
                for r in changed
            ],
        }

    @classmethod
    def from_dict(cls, data: Any) -> UnsymmetrisedMenace:
        """Rebuild an agent from :meth:`to_dict` output; ``AgentFileError`` names a bad field."""
        open_agent_document(data, FORMAT, FORMAT_VERSION, schema=False, keys=_FILE_KEYS)
        agent = cls(_config_from_dict(data.get("config")))
        agent.frozen, agent.games_trained = read_progress(data)
        boxes = data.get("boxes", [])
        if not isinstance(boxes, list):
            raise AgentFileError("boxes: must be a list")
        seen: set[int] = set()
        for i, box in enumerate(boxes):
            row, beads = _read_box(f"boxes[{i}]", box, agent)
            if row in seen:
                raise AgentFileError(f"boxes[{i}].board: {box['board']!r} is listed twice")
            seen.add(row)
            agent.weights[row] = beads
        return agent


# --- training against a scripted opponent ---------------------------------------


def train_unsymmetrised_against(
    agent: UnsymmetrisedMenace,
    opponent: TableOpponent,
    games: int,
    rng: np.random.Generator,
) -> TrainingLog:
    """Train against one scripted opponent on the one matchbox engine.

    :meth:`UnsymmetrisedMenace.train_against` with every game recorded: per agent move
    one uniform from ``rng`` (drawn in blocks); the opponent draws one more only when
    it has a choice. Returns per-game results and the drawn ``(row, square)`` pairs.
    """
    return agent.train_against(opponent, games, rng, record=True)


@cache
def _row_of_position() -> tuple[int, ...]:
    """Per position id of noughts and crosses, the row of its board."""
    codes = (ok_positions().astype(np.int64) * _POW3).sum(axis=1)
    return tuple(np.searchsorted(codes, tables().codes).tolist())


@cache
def _empty_squares() -> tuple[tuple[bool, ...], ...]:
    """Per row, which squares are empty (they hold beads)."""
    return tuple(tuple(row) for row in (ok_positions() == 0).tolist())


def _config_from_dict(cfg: Any) -> UnsymmetrisedConfig:
    numbers = "a list of numbers"
    try:
        return settings_from_dict(
            UnsymmetrisedConfig,
            cfg,
            lists={"schedule": numbers, "reinforcement": numbers},
            tuples=("schedule", "reinforcement"),
        )
    except (TypeError, ValueError) as err:
        named = re.fullmatch(r"(player|schedule|reinforcement) (must be .*)", str(err), re.S)
        if named:  # this file names the field as config.<field>
            raise AgentFileError(f"config.{named[1]}: {named[2]}") from None
        raise AgentFileError(f"config: {err}") from None


@cache
def _row_of_text() -> dict[str, int]:
    return {board_to_text(b): r for r, b in enumerate(ok_positions().tolist())}


@cache
def _playable_rows(player: int) -> frozenset[int]:
    """Rows where ``player`` moves in a game not yet over: the only boxes it opens."""
    boards = ok_positions()
    xs, os_ = (boards == X).sum(axis=1), (boards == O).sum(axis=1)
    turn = np.where(xs == os_, X, O)
    done = (boards != 0).all(axis=1)
    for line in LINES:
        cells = boards[:, list(line)]
        done |= (cells[:, 0] != 0) & (cells[:, 0] == cells[:, 1]) & (cells[:, 1] == cells[:, 2])
    return frozenset(np.flatnonzero((turn == player) & ~done).tolist())


def _read_box(where: str, box: Any, agent: UnsymmetrisedMenace) -> tuple[int, list[float]]:
    """One saved box: its row and its nine bead counts, checked."""
    if not isinstance(box, dict) or set(box) != {"board", "beads"}:
        raise AgentFileError(f"{where}: must be an object with board and beads")
    row = _row_of_text().get(box["board"]) if isinstance(box["board"], str) else None
    if row is None:
        raise AgentFileError(f"{where}.board: not a board with a box, got {box['board']!r}")
    if row not in _playable_rows(agent.config.player):
        raise AgentFileError(
            f"{where}.board: {box['board']!r} is finished or the other side's turn: "
            f"player {'XO'[agent.config.player - 1]} never opens its box"
        )
    beads = box["beads"]
    if not isinstance(beads, list) or len(beads) != 9:
        raise AgentFileError(f"{where}.beads: must list 9 counts")
    for j, x in enumerate(beads):
        ok = not isinstance(x, bool) and isinstance(x, (int, float))
        if not ok or not 0 <= x <= MAX_BEADS:
            raise AgentFileError(f"{where}.beads[{j}]: must be a number in [0, 1e12], got {x!r}")
        if agent.initial[row][j] == 0 and x != 0:
            raise AgentFileError(
                f"{where}.beads[{j}]: square {j + 1} is taken, so it holds no beads"
            )
    if agent.config.restock != "none" and sum(beads) <= 0:
        raise AgentFileError(
            f"{where}.beads: an empty box cannot arise under restock {agent.config.restock!r}"
        )
    return row, [float(x) for x in beads]


# --- what symmetry buys --------------------------------------------------------


def games_to_reach(curve: Sequence[dict], threshold: float, key: str = "draw") -> int | None:
    """First checkpoint's ``games`` whose ``key`` rate reaches ``threshold`` (None if never)."""
    for point in curve:
        if point[key] >= threshold:
            return int(point["games"])
    return None


def symmetry_comparison(
    seeds: Sequence[int] = range(10),
    *,
    every: int = 25,
    max_games: int = 1000,
    thresholds: Sequence[float] = (0.8, 0.9),
    opponent: str = "perfect",
    tie_break: str = "uniform",
    schedule: tuple[float, ...] = (4, 3, 2, 1),
    reinforcement: tuple[float, float, float] = (3, 1, -1),
    restock: str = "box",
) -> dict:
    """Games each machine needs to reach exact draw rates against the perfect player.

    Both machines use the same schedule, updates and restock (by default the
    thesis's 4-3-2-1, +3/+1/-1, restock ``box``); they differ only in whether
    symmetric positions share a box: :class:`~menace_lib.machine.menace.Menace` with
    filter ``all`` (338 canonical boxes, one colour per legal square) against
    :class:`UnsymmetrisedMenace` (6,046 raw boxes). Each seed trains both
    against ``opponent`` and evaluates them exactly (draw probability against
    the same opponent) every ``every`` games.

    The default opponent is the perfect player with *uniform* tie-breaks: it
    varies among its optimal replies, which is where shared boxes pay off. With
    the deterministic ``lowest`` tie-break the agent meets only a handful of
    lines and both machines learn them in a few hundred games.

    Returns
    -------
    dict
        ``{"checkpoints": [...], "curves": {"symmetric": (seeds, k), "unsymmetrised": ...},
        "games_to": {"symmetric": {threshold: [per seed, None if not reached]}, ...}}``
    """
    if every <= 0 or max_games < every:
        raise ValueError(f"need 0 < every ≤ max_games, got every={every}, max_games={max_games}")
    opp = make_opponent(opponent, tie_break)
    checkpoints = list(range(every, max_games + 1, every))
    curves: dict[str, list[list[float]]] = {"symmetric": [], "unsymmetrised": []}
    games_to: dict[str, dict[float, list[int | None]]] = {
        name: {t: [] for t in thresholds} for name in curves
    }
    for seed in seeds:
        sym = Menace(
            MenaceConfig(
                filter="all", schedule=schedule, reinforcement=reinforcement, restock=restock
            )
        )
        raw = UnsymmetrisedMenace(
            UnsymmetrisedConfig(schedule=schedule, reinforcement=reinforcement, restock=restock)
        )
        for name, agent in (("symmetric", sym), ("unsymmetrised", raw)):
            rng = np.random.default_rng(seed)
            curve = []
            for _ in checkpoints:
                agent.train_against(opp, every, rng, record=False)
                curve.append(exact_outcome(agent, opp)["draw"])
            curves[name].append(curve)
            points = [{"games": c, "draw": d} for c, d in zip(checkpoints, curve, strict=True)]
            for t in thresholds:
                games_to[name][t].append(games_to_reach(points, t))
    return {
        "checkpoints": checkpoints,
        "curves": {k: np.asarray(v) for k, v in curves.items()},
        "games_to": games_to,
        "opponent": opp.name,
    }


def symmetry_rows(comparison: dict) -> list[dict[str, object]]:
    """Games to reach each draw threshold, per machine: mean, median, range, seeds reaching it."""
    rows = []
    last = comparison["checkpoints"][-1]
    for name, by_threshold in comparison["games_to"].items():
        for t, games in by_threshold.items():
            hit = [g for g in games if g is not None]
            row: dict[str, object] = {"machine": name, "draw rate": f"≥ {t:g}"}
            row["seeds reaching it"] = f"{len(hit)} / {len(games)}"
            if hit:
                row |= {
                    "mean games": f"{np.mean(hit):g}",
                    "median": f"{np.median(hit):g}",
                    "range": f"{min(hit)}–{max(hit)}",
                }
            else:
                row["range"] = f"> {last}"
            rows.append(row)
    return rows
