"""Pooled self-play: an opening MENACE trained against a pool of learning MENACEs.

The blog chapter "From A/B to RL (3/3)" trains the opening player (X) for 5,000
games against "a rotating pool of second-player MENACE agents" that play a
uniformly random move 5 % of the time. Both sides use Michie's move-class
matchboxes, 4-3-2-1 beads and +3/+1/-1 reinforcement, and both sides learn.

Choices the blog leaves open, fixed here and documented:

* **Pool.** Four members, rotated round-robin: game ``g`` (from 0) is played
  against member ``g % pool_size``.
* **Exploration.** Before each of its moves a pool member draws ``u``; if
  ``u < epsilon`` it plays a uniformly random legal square instead of drawing a
  bead. Such a move drew no bead, so nothing is reinforced for it.
* **Boxes and empty boxes.** The library's defaults otherwise:
  ``MenaceConfig(layout="class")`` -- filter ``michie``, restock ``box`` (a box
  emptied by losses is refilled with its initial beads).

:func:`play_menace_vs_menace` is one game between two ``Menace`` objects and is
what the play widget's "learn while playing" mirrors; :func:`pooled_selfplay`
runs the whole recipe and keeps frozen snapshots at checkpoints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..games.board import O, X, winning_squares
from ..games.statespace import tables
from ..machine.menace import DRAW_RESULT, LOSS, RESULT_NAMES, WIN, Menace, MenaceConfig
from .loop import play_game

if TYPE_CHECKING:
    from .learning_curve import LearningCurve

__all__ = [
    "BLOG_CHECKPOINT_DRAWS",
    "BLOG_FINAL_EVALUATION",
    "BLOG_TRAINING_RATES",
    "CHECKPOINTS",
    "EVALUATION_OPPONENTS",
    "MAX_POOL_SIZE",
    "SELFPLAY_CONFIG",
    "SelfPlayConfig",
    "SelfPlayGame",
    "SelfPlayRun",
    "blog_checkpoint_rows",
    "blog_evaluation_rows",
    "checkpoint_outcomes",
    "final_evaluation",
    "other_side",
    "play_menace_vs_menace",
    "pooled_selfplay",
    "selfplay_config",
    "selfplay_curve",
    "train_selfplay",
]

SELFPLAY_CONFIG = MenaceConfig(layout="class")
"""The blog's machine: move-class boxes, 4-3-2-1 beads, +3/+1/-1 (X side)."""

MAX_POOL_SIZE = 1000
"""The largest opponent pool (each member is a MENACE of its own)."""

CHECKPOINTS = (25, 100, 1000, 5000)
"""Games after which the blog reports the learner against the perfect player."""

BLOG_TRAINING_RATES = {"win": 0.449, "draw": 0.443, "loss": 0.108}
"""Outcome rates of the blog's 5,000 training games (X's side)."""

BLOG_CHECKPOINT_DRAWS = {25: 0.165, 100: 0.180, 1000: 0.661, 5000: 0.931}
"""The blog's perfect-opponent draw rates at each checkpoint (loss = 1 - draw)."""

BLOG_FINAL_EVALUATION = {
    "random": {"win": 0.886, "draw": 0.075, "loss": 0.039},
    "positional": {"win": 0.923, "draw": 0.018, "loss": 0.059},
    "defensive": {"win": 0.004, "draw": 0.932, "loss": 0.064},
    "perfect": {"win": 0.000, "draw": 0.914, "loss": 0.086},
}
"""The blog's evaluation of the 5,000-game learner against fixed opponents."""


def other_side(player: int) -> int:
    """O for X and X for O."""
    if player not in (X, O):
        raise ValueError(f"player must be X ({X}) or O ({O}), got {player!r}")
    return O if player == X else X


def selfplay_config(player: int = X, base: MenaceConfig = SELFPLAY_CONFIG) -> MenaceConfig:
    """``base`` for the given side (the pool plays the other side with the same machine)."""
    return dataclasses.replace(base, player=player)


_RECIPE = ("learner_side", "pool_size", "epsilon")


@dataclass(frozen=True)
class SelfPlayConfig:
    """The pooled self-play recipe: the machine both sides use and how the pool plays.

    Parameters
    ----------
    menace
        The machine for both sides (its ``player`` is set per side); the blog's
        :data:`SELFPLAY_CONFIG` by default.
    learner_side
        ``X`` (the blog) or ``O``: the side the learner plays.
    pool_size
        Learning MENACEs in the opponent pool, 1 to :data:`MAX_POOL_SIZE`.
    epsilon
        Chance in [0, 1] that a pool member plays a random legal move.

    Examples
    --------
    >>> from menace_lib.play.selfplay import SelfPlayConfig
    >>> config = SelfPlayConfig.from_fields(pool_size=2, restock="move")
    >>> config.pool_size, config.menace.restock, config.menace.layout
    (2, 'move', 'class')
    """

    menace: MenaceConfig = SELFPLAY_CONFIG
    learner_side: int = X
    pool_size: int = 4
    epsilon: float = 0.05

    def __post_init__(self) -> None:
        if not isinstance(self.menace, MenaceConfig):
            raise ValueError(f"menace must be a MenaceConfig, got {self.menace!r}")
        other_side(self.learner_side)  # a ValueError for anything but X or O
        size = self.pool_size
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_POOL_SIZE:
            raise ValueError(f"pool_size must be 1 to {MAX_POOL_SIZE}, got {size!r}")
        object.__setattr__(self, "epsilon", _check_epsilon("epsilon", self.epsilon))

    @classmethod
    def from_fields(cls, **fields) -> SelfPlayConfig:
        """The recipe from flat fields: its own, and any of :class:`MenaceConfig`'s
        (which replace those of :data:`SELFPLAY_CONFIG`)."""
        recipe = {k: fields.pop(k) for k in _RECIPE if k in fields}
        return cls(dataclasses.replace(SELFPLAY_CONFIG, **fields), **recipe)

    def fields(self) -> dict:
        """Every setting as one flat mapping (the inverse of :meth:`from_fields`)."""
        menace = {f.name: getattr(self.menace, f.name) for f in dataclasses.fields(self.menace)}
        return {**menace, **{k: getattr(self, k) for k in _RECIPE}}


def train_selfplay(
    config: SelfPlayConfig, games: int, rng: np.random.Generator, checkpoints: Sequence[int] = ()
) -> SelfPlayRun:
    """:func:`pooled_selfplay` with the recipe ``config``."""
    return pooled_selfplay(
        games,
        rng,
        learner_side=config.learner_side,
        pool_size=config.pool_size,
        epsilon=config.epsilon,
        config=config.menace,
        checkpoints=checkpoints,
    )


@dataclass
class SelfPlayGame:
    """One finished game between two MENACEs.

    Attributes
    ----------
    result
        From X's side: 0 win, 1 draw, 2 loss.
    moves
        Squares played, in order (a resignation adds nothing).
    x_path, o_path
        The ``(box, colour)`` pairs each side drew (random moves draw nothing).
    resigned
        ``X`` or ``O`` if that side resigned at an empty box, else 0.
    """

    result: int
    moves: list[int] = field(default_factory=list)
    x_path: list[tuple[int, int]] = field(default_factory=list)
    o_path: list[tuple[int, int]] = field(default_factory=list)
    resigned: int = 0


def _check_epsilon(name: str, epsilon: float) -> float:
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {epsilon!r}")
    return float(epsilon)


def play_menace_vs_menace(
    x_agent: Menace,
    o_agent: Menace,
    rng: np.random.Generator,
    epsilon_o: float = 0.0,
    epsilon_x: float = 0.0,
) -> SelfPlayGame:
    """Play one game between an X-MENACE and an O-MENACE; both learn from it.

    Parameters
    ----------
    x_agent, o_agent
        MENACEs built for X and for O. Each is reinforced with its own result
        after the game unless it is frozen.
    rng
        Source of every draw. Per move: one uniform for ``epsilon`` (only when
        that side's ``epsilon > 0``), then the side's own draw
        (:meth:`Menace.choose`, or one integer for a random move).
    epsilon_o, epsilon_x
        Probability that O (X) plays a uniformly random legal square instead of
        drawing a bead.

    Returns
    -------
    SelfPlayGame
    """
    if x_agent.player != X:
        raise ValueError("x_agent must be a MENACE built for X (config.player = X)")
    if o_agent.player != O:
        raise ValueError("o_agent must be a MENACE built for O (config.player = O)")
    x = _Exploring(x_agent, _check_epsilon("epsilon_x", epsilon_x))
    o = _Exploring(o_agent, _check_epsilon("epsilon_o", epsilon_o))
    played = play_game(x, o, rng)
    if played.stopped:
        raise ValueError("a MENACE stopped at an empty opening box; self-play needs resign")
    x_path = [(b, j) for b, j in played.records[0] if j >= 0]
    o_path = [(b, j) for b, j in played.records[1] if j >= 0]
    moves = sorted(played.moves[0] + played.moves[1])
    game = SelfPlayGame(
        result=played.result(X),
        moves=[square for _, square in moves],
        x_path=x_path,
        o_path=o_path,
        resigned=int(tables().player[played.final]) if played.resigned else 0,
    )
    x_agent.end_game(played.records[0], game.result, played.final)
    o_agent.end_game(played.records[1], _flip(game.result), played.final)
    return game


@dataclass
class _Exploring:
    """A MENACE that plays a uniformly random legal square with probability ``epsilon``."""

    agent: Menace
    epsilon: float

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int]]:
        if self.epsilon > 0.0 and rng.random() < self.epsilon:
            options = tables().legal_lists[pid]
            return options[int(rng.integers(len(options)))], (-1, -1)
        return self.agent.act(pid, rng)


def _flip(result: int) -> int:
    """The same game's result from the other side."""
    return {WIN: LOSS, DRAW_RESULT: DRAW_RESULT, LOSS: WIN}[result]


@dataclass
class SelfPlayRun:
    """A pooled self-play training run.

    Attributes
    ----------
    learner
        The trained MENACE (X in the blog's recipe).
    pool
        The pool members (the other side), also trained.
    results
        Per game, 0 win, 1 draw, 2 loss from the learner's side.
    pool_index
        Per game, which pool member was the opponent.
    paths
        Per game, the learner's drawn ``(box, colour)`` pairs.
    snapshots
        Frozen copies of the learner after each requested checkpoint.
    """

    learner: Menace
    pool: list[Menace]
    results: list[int] = field(default_factory=list)
    pool_index: list[int] = field(default_factory=list)
    paths: list[list[tuple[int, int]]] = field(default_factory=list)
    snapshots: dict[int, Menace] = field(default_factory=dict)

    def rates(self) -> dict[str, float]:
        """Win, draw and loss rates of the training games (learner's side)."""
        n = len(self.results)
        counts = np.bincount(np.asarray(self.results, dtype=np.int64), minlength=3)
        return {name: (float(counts[i]) / n if n else 0.0) for i, name in enumerate(RESULT_NAMES)}

    def visits(self, games: int | None = None) -> np.ndarray:
        """How often the learner drew from each box in the first ``games`` games."""
        counts = np.zeros(self.learner.n_boxes, dtype=np.int64)
        for path in self.paths[:games]:
            for b, _ in path:
                counts[b] += 1
        return counts

    def example_states(self, games: int | None = None) -> dict[str, int]:
        """Three boxes to show, as canonical position ids.

        ``opening``: the empty board. ``win``: the most-visited box (in the first
        ``games`` games) where the learner can complete a line at once. ``block``:
        the most-visited box where it cannot, and the other side threatens exactly
        one line.
        """
        T = tables()
        me, them = self.learner.config.player, other_side(self.learner.config.player)
        visits = self.visits(games)
        best: dict[str, tuple[int, int]] = {}
        for b, s in enumerate(self.learner.states):
            board = T.position(s)
            if winning_squares(board, me):
                kind = "win"
            elif len(winning_squares(board, them)) == 1:
                kind = "block"
            else:
                continue
            if kind not in best or visits[b] > best[kind][0]:
                best[kind] = (int(visits[b]), s)
        out = {"opening": self.learner.states[0]} if me == X else {}
        return out | {k: best[k][1] for k in ("win", "block") if k in best}

    def cumulative_rates(self) -> dict[str, np.ndarray]:
        """Running win, draw and loss fractions after each training game."""
        r = np.asarray(self.results)
        games = np.arange(1, len(r) + 1)
        return {name: np.cumsum(r == i) / games for i, name in enumerate(RESULT_NAMES)}


def pooled_selfplay(
    games: int,
    rng: np.random.Generator,
    *,
    learner_side: int = X,
    pool_size: int = 4,
    epsilon: float = 0.05,
    config: MenaceConfig = SELFPLAY_CONFIG,
    checkpoints: Sequence[int] = CHECKPOINTS,
) -> SelfPlayRun:
    """Train one MENACE for ``games`` games against a rotating pool of MENACEs.

    Parameters
    ----------
    games
        Training games.
    rng
        The only source of randomness (seeded by the caller).
    learner_side
        ``X`` for the blog's recipe; ``O`` trains a second player the same way
        against a pool of X-MENACEs (used for the widget's O checkpoints).
    pool_size
        Number of pool members, rotated round-robin (our choice: the blog does
        not give the size).
    epsilon
        Probability that a pool member plays a uniformly random legal move.
    config
        The machine for both sides; its ``player`` is overridden per side.
    checkpoints
        Game counts after which a frozen copy of the learner is kept; those
        beyond ``games`` are ignored.

    Returns
    -------
    SelfPlayRun
    """
    if games < 0:
        raise ValueError(f"games must be ≥ 0, got {games}")
    if not 1 <= pool_size <= MAX_POOL_SIZE:
        raise ValueError(f"pool_size must be 1 to {MAX_POOL_SIZE}, got {pool_size}")
    _check_epsilon("epsilon", epsilon)
    if any(c < 0 for c in checkpoints):
        raise ValueError(f"checkpoints must be ≥ 0, got {list(checkpoints)}")
    pool_side = other_side(learner_side)
    learner = Menace(selfplay_config(learner_side, config))
    pool = [Menace(selfplay_config(pool_side, config)) for _ in range(pool_size)]
    run = SelfPlayRun(learner, pool)
    wanted = set(checkpoints)
    if 0 in wanted:
        run.snapshots[0] = learner.frozen_copy()
    for g in range(games):
        k = g % pool_size
        if learner_side == X:
            game = play_menace_vs_menace(learner, pool[k], rng, epsilon_o=epsilon)
            run.results.append(game.result)
            run.paths.append(game.x_path)
        else:
            game = play_menace_vs_menace(pool[k], learner, rng, epsilon_x=epsilon)
            run.results.append(_flip(game.result))
            run.paths.append(game.o_path)
        run.pool_index.append(k)
        if g + 1 in wanted:
            run.snapshots[g + 1] = learner.frozen_copy()
    return run


def selfplay_curve(
    run: SelfPlayRun,
    opponents: Sequence[str] = ("perfect", "random", "defensive"),
    tie_break: str = "lowest",
) -> LearningCurve:
    """The learner's exact learning curve, read from a run's snapshots.

    Each snapshot (``pooled_selfplay(..., checkpoints=marks)``) is evaluated exactly
    against each scripted player; the curve's log holds the run's training results.
    """
    from .evaluation import exact_outcome
    from .learning_curve import LearningCurve
    from .loop import TrainingLog
    from .opponents import make_opponent

    marks = sorted(g for g in run.snapshots if g > 0)
    log = TrainingLog(results=list(run.results), paths=list(run.paths))
    log.opponents = [f"pool[{k}]" for k in run.pool_index]
    curve = LearningCurve(games=marks, rates={}, log=log)
    for name in opponents:
        player = make_opponent(name, tie_break)
        exact = [exact_outcome(run.snapshots[g], player) for g in marks]
        curve.rates[name] = {r: [e[r] for e in exact] for r in RESULT_NAMES}
    return curve


EVALUATION_OPPONENTS = ("random", "positional", "defensive", "perfect")
"""The blog's fixed evaluation opponents, by their names in :mod:`menace_lib.play.opponents`."""


def final_evaluation(
    agent: Menace, opponents: Sequence[str] = EVALUATION_OPPONENTS, tie_break: str = "lowest"
) -> dict[str, dict[str, float]]:
    """Exact win/draw/loss of a frozen agent against each named opponent."""
    from .evaluation import exact_outcome

    return {name: exact_outcome(agent, name, tie_break) for name in opponents}


def checkpoint_outcomes(
    seeds: Sequence[int],
    games: int = 5000,
    checkpoints: Sequence[int] = CHECKPOINTS,
    opponent: str = "perfect",
    tie_break: str = "lowest",
) -> dict[int, list[dict[str, float]]]:
    """Exact outcome against ``opponent`` at each checkpoint, one pooled run per seed.

    Seed ``s`` uses ``numpy.random.default_rng(s)``, so seed 0 is the run behind
    the X checkpoints of :mod:`menace_lib.play.checkpoints`.

    Returns
    -------
    dict
        Checkpoint -> per-seed ``{"win", "draw", "loss"}``.
    """
    from .evaluation import exact_outcome

    out: dict[int, list[dict[str, float]]] = {c: [] for c in checkpoints if c <= games}
    for seed in seeds:
        run = pooled_selfplay(games, np.random.default_rng(seed), checkpoints=tuple(out))
        for c in out:
            out[c].append(exact_outcome(run.snapshots[c], opponent, tie_break))
    return out


def blog_checkpoint_rows(
    run: SelfPlayRun,
    seed_outcomes: dict[int, list[dict[str, float]]] | None = None,
    tie_break: str = "lowest",
) -> list[dict[str, object]]:
    """Per checkpoint: the blog's draw rate, ours (this run, exact) and our seed mean ± sd."""
    from .evaluation import exact_outcome

    rows = []
    for games, blog in BLOG_CHECKPOINT_DRAWS.items():
        row: dict[str, object] = {"games": games, "blog draw": blog}
        if games in run.snapshots:
            ours = exact_outcome(run.snapshots[games], "perfect", tie_break)
            row |= {"our draw": ours["draw"], "our loss": ours["loss"]}
        if seed_outcomes and games in seed_outcomes:
            draws = np.array([o["draw"] for o in seed_outcomes[games]])
            row |= {
                f"mean of {len(draws)} seeds": float(draws.mean()),
                "sd": float(draws.std(ddof=1)) if len(draws) > 1 else 0.0,
            }
        rows.append(row)
    return rows


def blog_evaluation_rows(evaluation: dict[str, dict[str, float]]) -> list[dict[str, object]]:
    """Our final evaluation next to the blog's, one row per opponent."""
    rows = []
    for name, ours in evaluation.items():
        blog = BLOG_FINAL_EVALUATION.get(name, {})
        row: dict[str, object] = {"opponent": name}
        for k in RESULT_NAMES:
            row[f"our {k}"] = ours[k]
            row[f"blog {k}"] = blog.get(k, float("nan"))
        rows.append(row)
    return rows
