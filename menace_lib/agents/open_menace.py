"""MENACE beyond enumeration: boxes made on first visit, for boards too big to tabulate.

Connect-4 on 6×5, 6×6 or the standard 7×6 board has far too many positions for integer
tables (4.5 × 10¹² on 7×6). A physical MENACE would not need them either: a box is only
needed once its position comes up. :class:`OpenMenace` keeps a dictionary from a
canonical position code (:mod:`menace_lib.games.connect4`'s bitboard code, the smaller of a
position's and its mirror image's) to a box, made with the bead schedule the first time
the position is met. Beads are drawn and updated by the one owner of the bead rules,
:mod:`menace_lib.machine.beads`.

Memory is bounded: ``max_boxes`` boxes at most (:data:`MAX_OPEN_BOXES` by default); a run
that would need more stops with an error that says how many boxes and games it reached.

The opponents here need no tables either: random, one-ply "win or block", and a
depth-limited search. Evaluation is sampled (:func:`sampled_outcome`), with a Wilson 95 %
interval. On boards small enough to tabulate, :meth:`OpenMenace.to_menace` hands the
same beads to a table-driven :class:`~menace_lib.machine.menace.Menace`, so the sampled and the
exact evaluation can be compared (``tests/test_open_menace.py``).

Positions are ``(first, mask)`` bitboard pairs; this module's :func:`play_open` is the
game loop for them (the tables' loop, :func:`menace_lib.play.loop.play_game`, needs ids).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..base.confidence import proportion_ci
from ..games.connect4 import Bitboards, ConnectFour
from ..machine.beads import draw_bead, refill_empty, reinforce
from ..machine.menace import Menace, MenaceConfig
from ..play.loop import DRAW_RESULT, LOSS, RESULT_NAMES, WIN

MAX_OPEN_BOXES = 20_000_000
"""Default box limit (about 4 GB of Python lists on a 7-column board)."""
BYTES_PER_BOX = 200
"""Rough memory of one box (the dict entry and three short lists of floats)."""

Board = tuple[int, int]  # (first player's stones, occupied cells)


class BoxLimitError(RuntimeError):
    """A run needed more boxes than its limit allows."""


@dataclass
class Rules:
    """Connect-4 moves on one position at a time, as Python integers.

    The scalar form of :class:`menace_lib.games.connect4.Bitboards` (which works on arrays of
    positions while the tables are built): the masks and line shifts are taken from it, so
    the two cannot drift apart, and ``tests/test_open_menace.py`` checks every rule against
    it and against :class:`~menace_lib.games.connect4.ConnectFour` on every 4×4 position. The
    scalar copy exists because a game played one move at a time on numpy scalars is about
    ten times slower.
    """

    game: ConnectFour
    h1: int = field(init=False)

    def __post_init__(self) -> None:
        boards = Bitboards(self.game)
        self.h1 = self.game.height + 1
        self.bottom = boards.bottom
        self.shifts = boards.shifts

    def legal(self, mask: int) -> list[int]:
        top = self.game.height - 1
        return [c for c in range(self.game.width) if not (mask >> (c * self.h1 + top)) & 1]

    def play(self, board: Board, column: int, first_moves: bool) -> Board:
        first, mask = board
        new_mask = mask | (mask + (1 << (column * self.h1)))
        return (first | (new_mask ^ mask) if first_moves else first, new_mask)

    def has_line(self, stones: int) -> bool:
        for s in self.shifts:
            run = stones
            for k in range(1, self.game.line):
                run &= stones >> (k * s)
            if run:
                return True
        return False

    def code(self, board: Board) -> int:
        return board[0] + board[1] + self.bottom

    def mirror(self, bits: int) -> int:
        w, col = self.game.width, (1 << self.h1) - 1
        return sum(((bits >> (c * self.h1)) & col) << ((w - 1 - c) * self.h1) for c in range(w))

    def canonical(self, board: Board) -> tuple[int, bool]:
        """The canonical code and whether it is the mirror image."""
        code = self.code(board)
        flipped = self.mirror(board[0]) + self.mirror(board[1]) + self.bottom
        return (flipped, True) if flipped < code else (code, False)


class OpenMenace:
    """MENACE for Connect-4 on any board, its boxes made on first visit.

    Parameters
    ----------
    game
        The board.
    config
        Bead rules and schedule, as for :class:`~menace_lib.machine.menace.Menace` (its filter,
        layout and game are not used: every position with a choice gets a box, one
        colour per legal column).
    max_boxes
        The most boxes the machine may make.
    """

    def __init__(
        self,
        game: ConnectFour,
        config: MenaceConfig | None = None,
        *,
        max_boxes: int = MAX_OPEN_BOXES,
    ) -> None:
        self.game, self.rules = game, Rules(game)
        # The bead rules only: the board is ``game``, which may be too big to tabulate
        # (7x6), so the config does not name it (to_menace does, for boards that fit).
        self.config = config or MenaceConfig(filter="decision")
        if self.config.restock == "none" and self.config.empty_box != "resign":
            raise ValueError(
                f"empty_box {self.config.empty_box!r}: a machine with boxes made on first "
                "visit only resigns at an empty box (use 'resign' or a restock)"
            )
        if not 1 <= int(max_boxes) <= MAX_OPEN_BOXES:
            raise ValueError(f"max_boxes {max_boxes!r}: expected 1 to {MAX_OPEN_BOXES:,}")
        self.max_boxes = int(max_boxes)
        self.index: dict[int, int] = {}
        self.weights: list[list[float]] = []
        self.initial: list[list[float]] = []
        self.refill: list[list[float]] = []
        self.games_trained = 0

    def box(self, board: Board, pieces: int) -> tuple[int, list[int]]:
        """The box of a position (made now if new) and its colours as raw columns."""
        code, flipped = self.rules.canonical(board)
        b = self.index.get(code)
        if b is None:
            if len(self.index) >= self.max_boxes:
                raise BoxLimitError(
                    f"box limit {self.max_boxes:,} reached after {self.games_trained:,} games "
                    f"(about {self.max_boxes * BYTES_PER_BOX / 1e6:,.0f} MB); raise max_boxes"
                )
            b = self._make(code, pieces)
        columns = self.rules.legal(self._canonical_mask(code))
        width = self.game.width
        return b, [width - 1 - c for c in columns] if flipped else columns

    def _canonical_mask(self, code: int) -> int:
        mask = 0
        for c in range(self.game.width):
            col = (code >> (c * self.rules.h1)) & ((1 << self.rules.h1) - 1)
            mask |= ((1 << (col.bit_length() - 1)) - 1) << (c * self.rules.h1)
        return mask

    def _make(self, code: int, pieces: int) -> int:
        n = len(self.rules.legal(self._canonical_mask(code)))
        beads = [self._schedule(pieces)] * n
        refill = self.config.move_restock_beads
        self.index[code] = len(self.weights)
        self.weights.append(list(beads))
        self.initial.append(list(beads))
        self.refill.append(list(beads) if refill is None else [float(refill)] * n)
        return len(self.weights) - 1

    def _schedule(self, pieces: int) -> float:
        s = self.config.schedule
        return s[min(pieces // 2, len(s) - 1)]


Opponent = Callable[[Rules, Board, bool, np.random.Generator], int]


def random_player(rules: Rules, board: Board, first: bool, rng: np.random.Generator) -> int:
    """Any legal column, uniformly."""
    legal = rules.legal(board[1])
    return legal[int(rng.integers(len(legal)))]


def win_or_block(rules: Rules, board: Board, first: bool, rng: np.random.Generator) -> int:
    """A column that wins now; else one that stops the other side winning next; else random."""
    legal = rules.legal(board[1])
    for me in (first, not first):  # my win first, then the other side's threat
        hits = [c for c in legal if _wins(rules, board, c, me)]
        if hits:
            return hits[int(rng.integers(len(hits)))]
    return legal[int(rng.integers(len(legal)))]


def searcher(depth: int) -> Opponent:
    """A player that searches ``depth`` plies (win +1, loss -1, unknown 0), ties at random."""

    def play(rules: Rules, board: Board, first: bool, rng: np.random.Generator) -> int:
        legal = rules.legal(board[1])
        scores = [
            -_negamax(rules, rules.play(board, c, first), not first, depth - 1) for c in legal
        ]
        best = [c for c, s in zip(legal, scores, strict=True) if s == max(scores)]
        return best[int(rng.integers(len(best)))]

    play.__name__ = f"search-{depth}"
    return play


def _wins(rules: Rules, board: Board, column: int, first: bool) -> bool:
    after = rules.play(board, column, first)
    stones = after[0] if first else after[1] ^ after[0]
    return rules.has_line(stones)


def _negamax(rules: Rules, board: Board, first: bool, depth: int) -> int:
    """Value for the side to move (``first``): the side that just moved may have won."""
    stones = board[1] ^ board[0] if first else board[0]
    if rules.has_line(stones):
        return -1
    legal = rules.legal(board[1])
    if not legal or depth <= 0:
        return 0
    best = -1
    for c in legal:
        best = max(best, -_negamax(rules, rules.play(board, c, first), not first, depth - 1))
        if best == 1:
            break
    return best


def play_open(
    agent: OpenMenace, opponent: Opponent, rng: np.random.Generator, learn: bool = True
) -> int:
    """One game, MENACE moving as its config's player; returns WIN, DRAW_RESULT or LOSS."""
    rules, cfg = agent.rules, agent.config
    board: Board = (0, 0)
    first_to_move, pieces, path = True, 0, []
    me_first = cfg.player == 1
    result = DRAW_RESULT
    while pieces < agent.game.n_cells:
        legal = rules.legal(board[1])
        if first_to_move == me_first and len(legal) > 1:  # a box only where there is a choice
            b, columns = agent.box(board, pieces)
            w = agent.weights[b]
            if refill_empty(w, agent.initial[b], cfg.restock) is None:
                result = LOSS  # an empty box that nothing refills resigns
                break
            j = draw_bead(w, float(rng.random()))
            path.append((b, j))
            column = columns[j]
        elif first_to_move == me_first:
            column = legal[0]
        else:
            column = opponent(rules, board, first_to_move, rng)
        board = rules.play(board, column, first_to_move)
        pieces += 1
        stones = board[0] if first_to_move else board[1] ^ board[0]
        if rules.has_line(stones):
            result = WIN if first_to_move == me_first else LOSS
            break
        first_to_move = not first_to_move
    if learn:
        delta = cfg.reinforcement[result]
        reinforce(
            agent.weights,
            agent.initial,
            agent.refill,
            path,
            delta,
            cfg.restock,
            cfg.floor,
            cfg.credit,
        )
        agent.games_trained += 1
    return result


def train_open(
    agent: OpenMenace, opponent: Opponent, games: int, rng: np.random.Generator
) -> list[int]:
    """Play and learn ``games`` games; the results, from MENACE's side."""
    return [play_open(agent, opponent, rng) for _ in range(games)]


def sampled_outcome(
    agent: OpenMenace, opponent: Opponent, games: int, rng: np.random.Generator
) -> dict:
    """Win, draw and loss rates of the frozen machine over ``games`` games (Wilson 95 % CIs)."""
    frozen = OpenMenace(agent.game, agent.config, max_boxes=agent.max_boxes)
    frozen.index, frozen.initial, frozen.refill = dict(agent.index), agent.initial, agent.refill
    frozen.weights = [list(w) for w in agent.weights]
    results = [play_open(frozen, opponent, rng, learn=False) for _ in range(games)]
    return {name: proportion_ci(results.count(i), games) for i, name in enumerate(RESULT_NAMES)}


def to_menace(agent: OpenMenace) -> Menace:
    """The same beads in a table-driven MENACE (boards small enough to enumerate).

    Boxes never visited keep the schedule's beads; visited ones get the open machine's.
    """
    menace = Menace(
        MenaceConfig(
            **{
                **agent.config.__dict__,
                "game": agent.game.name,
                "filter": "decision",
                "layout": "square",
            }
        )
    )
    T = menace.tables
    for code, b in agent.index.items():
        state = T.code_to_id.get(code)
        box = menace.box_layout.box_of.get(state, -1) if state is not None else -1
        if box >= 0:
            menace.weights[box][:] = agent.weights[b]
    return menace
