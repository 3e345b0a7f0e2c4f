"""The rule-agnostic "stochastic player" of the blog post on MENACE.

A matchbox learner that is told almost nothing in advance:

* **Lazy boxes.** It starts with no boxes. The first time it must move in a
  position it opens a box with 5 beads for *every* square, occupied ones
  included; it does not merge symmetric positions, so boxes are keyed by the
  raw board (its base-3 code).
* **Illegal moves.** Drawing an occupied square ends the game at once and all
  beads of that square are removed from that box -- the only way it learns the
  rules. Nothing else is reinforced after such a game (the post reports illegal
  games separately from wins and says learning is sparse while they dominate;
  we read that as "an illegal game teaches only the illegal move").
* **Self-play.** One player plays both sides: boxes met on odd moves (X) are
  reinforced with X's result, boxes met on even moves (O) with O's.
* **Rewards.** Win: the bead goes back with 3 more (+3). Draw: back with 1
  more (+1). Loss: the bead is thrown away (-1).
* **Empty boxes** (our rule; the post does not meet the case): a box whose
  beads are all gone is refilled like a new box (``restock="box"``, the
  same rule as the library's MENACE). The alternative ``restock="none"``
  (a loss for that side, reinforced as usual) lets self-play collapse: once
  one of O's early boxes empties, O resigns there in every later game and X's
  "winning" beads only grow.

Positions reached are always legal: an illegal move ends the game before the
board it would make is ever shown to the player, so every box belongs to one of
the 4,520 non-terminal positions among the 5,478 reachable ones.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..base.limits import (
    MAX_BEADS,
    MAX_GAMES,
    MAX_REINFORCEMENT,
    MAX_ROUNDS,
    check_count,
    check_number,
)
from ..games.board import X, board_to_text
from ..games.statespace import DRAW, O_WIN, ONGOING, X_WIN, tables
from ..machine.beads import scan_beads
from ..play.loop import result_for
from ..play.opponents import TableOpponent, make_opponent

__all__ = [
    "ILLEGAL_END",
    "RESTOCKS",
    "ROUND_FIELDS",
    "StochasticGame",
    "StochasticPlayer",
    "exact_outcome_stochastic",
    "knowledge_report",
    "non_terminal_positions",
    "selfplay_curve",
    "tournament",
]

ILLEGAL_END = -1
"""Outcome code of a game ended by an illegal move (next to X_WIN, O_WIN and DRAW)."""
RESTOCKS = ("box", "none")
"""The restock modes (:mod:`menace_lib.machine.beads`) that fit a machine with one bead count
per square."""
ROUND_FIELDS = ("round", "x_wins", "o_wins", "draws", "illegal", "positions_known")


def non_terminal_positions() -> int:
    """Reachable positions in which someone must move (4,520 of 5,478)."""
    return int((tables().outcome == ONGOING).sum())


@dataclass
class StochasticGame:
    """One self-play game.

    Attributes
    ----------
    outcome
        ``X_WIN``, ``O_WIN``, ``DRAW`` (from :mod:`menace_lib.games.statespace`) or
        ``-1`` for a game ended by an illegal move.
    moves
        Squares drawn, in order (the illegal one included).
    resigned
        The side that resigned at an empty box, else 0.
    """

    outcome: int
    moves: list[int] = field(default_factory=list)
    resigned: int = 0

    @property
    def illegal(self) -> bool:
        return self.outcome == ILLEGAL_END


@dataclass(eq=False)
class StochasticPlayer:
    """Lazy-box MENACE that plays both sides and must learn the rules.

    Parameters
    ----------
    beads
        Beads per square in a new box (5 in the post).
    reinforcement
        Bead change for (win, draw, loss); (3, 1, -1) in the post.
    restock
        ``"box"`` (default: an empty box is refilled) or ``"none"`` (an empty
        box resigns); see :mod:`menace_lib.machine.beads` and the module docstring.
    frozen
        A frozen player neither opens boxes nor learns.

    Attributes
    ----------
    boxes
        Base-3 board code -> nine bead counts (squares 0..8).
    """

    beads: float = 5
    reinforcement: tuple[float, float, float] = (3, 1, -1)
    restock: str = "box"
    frozen: bool = False
    boxes: dict[int, list[float]] = field(default_factory=dict)
    games_played: int = 0

    def __post_init__(self) -> None:
        if self.restock not in RESTOCKS:
            raise ValueError(f"unknown restock {self.restock!r}; choose one of {RESTOCKS}")
        check_number("beads", self.beads, minimum=0, maximum=MAX_BEADS)
        if not self.beads > 0:
            raise ValueError(f"beads must be > 0, got {self.beads!r}")
        if len(self.reinforcement) != 3:
            raise ValueError("reinforcement must be (win, draw, loss)")
        lim = MAX_REINFORCEMENT
        self.reinforcement = tuple(  # type: ignore[assignment]
            check_number(f"reinforcement[{i}]", r, minimum=-lim, maximum=lim)
            for i, r in enumerate(self.reinforcement)
        )

    @property
    def positions_known(self) -> int:
        """Number of boxes opened so far."""
        return len(self.boxes)

    def known_boards(self) -> list[str]:
        """Text form of every position with a box."""
        return [board_to_text(_decode(c)) for c in sorted(self.boxes)]

    def box(self, board_code: int) -> list[float]:
        """The box of a position, opened (5 beads per square) on first sight."""
        w = self.boxes.get(board_code)
        if w is None:
            w = [float(self.beads)] * 9
            if not self.frozen:
                self.boxes[board_code] = w
        return w

    def copy(self) -> StochasticPlayer:
        twin = copy.copy(self)
        twin.boxes = {k: list(w) for k, w in self.boxes.items()}
        return twin

    def frozen_copy(self) -> StochasticPlayer:
        twin = self.copy()
        twin.frozen = True
        return twin

    # --- play ----------------------------------------------------------------

    def play_game(self, rng: np.random.Generator) -> StochasticGame:
        """One self-play game; learns from it unless frozen."""
        outcome, succ, codes, mover = _tables()
        game = StochasticGame(outcome=0)
        drawn: list[tuple[list[float], int, int]] = []  # (box, square, side)
        s = 0
        while outcome[s] == ONGOING:
            side = mover[s]
            w = self.box(codes[s])
            total = sum(w)
            if total <= 0:
                if self.restock == "none":
                    game.resigned = side
                    break
                w[:] = [float(self.beads)] * 9
                total = sum(w)
            j = scan_beads(w, float(rng.random()) * total)
            game.moves.append(j)
            nxt = succ[s][j]
            if nxt < 0:  # occupied: the game ends and the move loses all its beads
                if not self.frozen:
                    w[j] = 0.0
                game.outcome = ILLEGAL_END
                break
            drawn.append((w, j, side))
            s = nxt
        if game.resigned:
            game.outcome = O_WIN if game.resigned == X else X_WIN
        elif not game.illegal:
            game.outcome = outcome[s]
        if not self.frozen and not game.illegal:
            for w, j, side in drawn:
                w[j] = max(0.0, w[j] + self.reinforcement[result_for(side, game.outcome)])
        self.games_played += 1
        return game

    def play_against(self, opponent: TableOpponent, side: int, rng: np.random.Generator) -> str:
        """One game on ``side`` against a scripted opponent, without learning.

        Returns ``"win"``, ``"draw"``, ``"loss"`` or ``"illegal"`` (an occupied
        square, a loss) from ``side``'s view. Unknown positions are played
        uniformly over all nine squares, an empty box resigns (``"loss"``).
        """
        outcome, succ, _, mover = _tables()
        s = 0
        while outcome[s] == ONGOING:
            if mover[s] != side:
                s = succ[s][opponent.move(s, rng)]
                continue
            p = self.policy(s)
            if p.sum() <= 0:
                return "loss"
            j = scan_beads(p.tolist(), float(rng.random()) * float(p.sum()))
            if succ[s][j] < 0:
                return "illegal"
            s = succ[s][j]
        return ("win", "draw", "loss")[result_for(side, outcome[s])]

    # --- policy ----------------------------------------------------------------

    def policy(self, pid: int) -> np.ndarray:
        """Probabilities of the nine squares in position ``pid`` (uniform if unknown).

        All zeros if its box is empty (the player resigns there).
        """
        w = self.boxes.get(int(tables().codes[pid]))
        if w is None:
            return np.full(9, 1.0 / 9)
        total = sum(w)
        return np.asarray(w) / total if total > 0 else np.zeros(9)


@cache
def _tables() -> tuple[list[int], list[list[int]], list[int], list[int]]:
    """Outcome, successors, board codes and side to move as lists (the hot loop's view)."""
    T = tables()
    return T.outcome_list, T.succ_lists, T.codes.tolist(), T.player_list


def _decode(code: int) -> tuple[int, ...]:
    return tuple((code // 3**i) % 3 for i in range(9))


# --- tournament ------------------------------------------------------------------


def tournament(
    player: StochasticPlayer,
    rounds: int,
    games: int,
    rng: np.random.Generator,
    first_round: int = 1,
) -> list[dict[str, int]]:
    """The post's tournament: ``rounds`` rounds of ``games`` self-play games.

    ``first_round`` numbers the rounds (use it to continue a tournament).

    Returns
    -------
    list of dict
        Per round: ``round`` (from ``first_round``), ``x_wins``, ``o_wins``, ``draws``,
        ``illegal`` (games ended by an illegal move) and ``positions_known``
        (boxes after the round). Resignations count as wins for the other side.
    """
    rounds = check_count("rounds", rounds, MAX_ROUNDS)
    games = check_count("games", games, MAX_GAMES)
    if rounds * games > MAX_GAMES:
        raise ValueError(
            f"rounds × games must be at most {MAX_GAMES:,} games in all, got {rounds * games:,}"
        )
    records = []
    for r in range(first_round, first_round + rounds):
        tally = {X_WIN: 0, O_WIN: 0, DRAW: 0, ILLEGAL_END: 0}
        for _ in range(games):
            tally[player.play_game(rng).outcome] += 1
        records.append(
            {
                "round": r,
                "x_wins": tally[X_WIN],
                "o_wins": tally[O_WIN],
                "draws": tally[DRAW],
                "illegal": tally[ILLEGAL_END],
                "positions_known": player.positions_known,
            }
        )
    return records


# --- exact evaluation --------------------------------------------------------------


def exact_outcome_stochastic(
    player: StochasticPlayer,
    side: int = X,
    opponent: str | TableOpponent = "perfect",
    tie_break: str = "lowest",
) -> dict[str, float]:
    """Exact win/draw/loss/illegal probabilities of the frozen player on one side.

    The player keeps its bead proportions over all nine squares; a position
    without a box is played uniformly over all nine squares (what a fresh box
    would do), an occupied square counts as a loss (the game ends there and the
    offender forfeits), and an empty box resigns (a loss).

    Returns
    -------
    dict
        ``win``, ``draw``, ``loss`` (losses *include* illegal moves) and
        ``illegal`` (the part of ``loss`` due to illegal moves), from ``side``'s view.
    """
    T = tables()
    opp = make_opponent(opponent, tie_break) if isinstance(opponent, str) else opponent
    live = T.outcome == ONGOING
    mine = live & (T.player == side)
    P = opp.distribution().copy()
    P[mine] = 0.0
    for pid in np.flatnonzero(mine):
        P[pid] = player.policy(int(pid))
    legal = T.succ >= 0
    # Four columns: win, draw, loss by play, loss by an illegal move.
    V = np.zeros((T.n_positions, 4))
    win, loss = (X_WIN, O_WIN) if side == X else (O_WIN, X_WIN)
    V[T.outcome == win, 0] = 1.0
    V[T.outcome == DRAW, 1] = 1.0
    V[T.outcome == loss, 2] = 1.0
    succ = np.maximum(T.succ, 0)
    for ply in range(8, -1, -1):
        ids = np.flatnonzero(live & (T.ply == ply))
        Pl = np.where(legal[ids], P[ids], 0.0)
        V[ids] = np.einsum("ij,ijk->ik", Pl, V[succ[ids]])
        illegal = np.where(legal[ids], 0.0, P[ids]).sum(axis=1)
        resign = 1.0 - Pl.sum(axis=1) - illegal  # an empty box plays nothing: a loss
        V[ids, 3] += illegal
        V[ids, 2] += np.clip(resign, 0.0, None)
    v = V[0]
    return {
        "win": float(v[0]),
        "draw": float(v[1]),
        "loss": float(v[2] + v[3]),
        "illegal": float(v[3]),
    }


def selfplay_curve(
    checkpoints: Sequence[int],
    rng: np.random.Generator,
    *,
    player: StochasticPlayer | None = None,
    side: int = X,
    opponent: str = "perfect",
    tie_break: str = "lowest",
) -> list[dict[str, float]]:
    """Exact outcome of one side against ``opponent`` after each checkpoint of self-play."""
    player = player if player is not None else StochasticPlayer()
    curve, done = [], 0
    for c in checkpoints:
        if c < done:
            raise ValueError("checkpoints must be ascending")
        for _ in range(c - done):
            player.play_game(rng)
        done = c
        curve.append({"games": c, **exact_outcome_stochastic(player, side, opponent, tie_break)})
    return curve


def knowledge_report(player: StochasticPlayer, tie_break: str = "lowest") -> dict[str, object]:
    """What a stochastic player knows and how it fares against the perfect player.

    Returns the number of boxes, the bounds (non-terminal reachable positions,
    all reachable positions), whether every box is a legal non-terminal
    position, and exact outcomes as X and as O against the perfect player.
    """
    from ..games.board import O

    T = tables()
    codes = np.array(sorted(player.boxes), dtype=np.int64)
    ids = T.code_to_id.lookup(codes) if len(codes) else np.array([], dtype=np.int64)
    legal = bool((ids >= 0).all() and (T.outcome[ids] == ONGOING).all()) if len(ids) else True
    by_side = np.bincount(T.player[ids], minlength=3) if len(ids) else np.zeros(3, int)
    return {
        "positions_known": player.positions_known,
        "x_to_move": int(by_side[X]),
        "o_to_move": int(by_side[O]),
        "non_terminal_positions": non_terminal_positions(),
        "reachable_positions": T.n_positions,
        "all_legal_and_live": legal,
        "as_X_vs_perfect": exact_outcome_stochastic(player, X, "perfect", tie_break),
        "as_O_vs_perfect": exact_outcome_stochastic(player, O, "perfect", tie_break),
    }
