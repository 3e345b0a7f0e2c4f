"""Scripted opponents and training curricula.

Every scripted opponent is a :class:`TableOpponent`: for each non-terminal
position it lists the successor positions it picks from uniformly. One table
therefore serves three needs at once: fast play (one random draw, or none when
the choice is forced), the exact move distribution that exact evaluation
needs, and either side of the board.

================  ==========================================================
``random``        uniform over the empty squares
``defensive``     block the first (lowest) square where the other side would
                  complete a line, else uniform (the thesis's code)
``defensive-text`` block, else take the centre, else uniform (the thesis's text)
``positional``    no tactics: centre, else a corner, else an edge, uniformly
                  within the kind (our reading of the blog's opponent)
``perfect``       minimax-optimal; ties broken by ``tie_break``:
                  ``lowest`` square (the thesis's code, deterministic),
                  ``uniform`` over all optimal moves, or ``priority``
                  (centre > corner > edge, then lowest)
================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..base.limits import MAX_GAMES, check_count, check_number
from ..games.board import CENTRE, CORNERS, X, winning_squares
from ..games.game import FIRST_WIN, SECOND_WIN, Rows
from ..games.registry import DEFAULT_GAME, game_tables, get_game
from ..games.statespace import ONGOING, tables

OPPONENTS = ("random", "defensive", "defensive-text", "positional", "perfect")
GAME_OPPONENTS = ("random", "human-like", "perfect")
"""The opponents of every game: uniform, one-ply lookahead (take a win at once, else
avoid a move that lets the other side win at once), and minimax."""
TIE_BREAKS = ("lowest", "uniform", "priority")
REGIMENS = ("random", "defensive", "perfect", "mixed", "switching")
REGIMEN_ALIASES = {"optimal": "perfect"}
"""Older names still read (files, caches, command lines): ``optimal`` is ``perfect``."""


def regimen_name(regimen: str) -> str:
    """``regimen`` with an old alias replaced by today's name (``optimal`` -> ``perfect``)."""
    return REGIMEN_ALIASES.get(regimen, regimen)


_PRIORITY = {CENTRE: 0, **dict.fromkeys(CORNERS, 1)}


@dataclass(frozen=True, eq=False)
class TableOpponent:
    """An opponent that picks uniformly among listed successors of each position.

    Attributes
    ----------
    name
        Display name, e.g. ``"perfect(lowest)"``.
    choices
        ``choices[pid]`` is a tuple of squares (ascending, maybe one) for every
        non-terminal position id; empty for terminal positions. Kept as flat arrays
        (:class:`~menace_lib.games.game.Rows`): a few bytes a position, the tuples built
        only when a Python loop reads them.
    """

    name: str
    choices: Rows = field(repr=False)
    game: str = DEFAULT_GAME

    def move(self, pid: int, rng: np.random.Generator) -> int:
        """A square to play in position ``pid``."""
        options = self.choices[pid]
        if not options:
            raise ValueError(f"position {pid} is terminal; no move to make")
        if len(options) == 1:
            return options[0]
        return options[int(rng.integers(len(options)))]

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, None]:
        """:meth:`move` as a player of :func:`menace_lib.play.loop.play_game`."""
        return self.move(pid, rng), None

    @property
    def next_ids(self) -> Rows:
        """Successor position ids per position (the hot loops' view; flat arrays for the
        compiled ones)."""
        return _next_ids(self)

    def distribution(self) -> np.ndarray:
        """Move probabilities, shape (positions, moves)."""
        return _distribution(self)

    def support(self) -> np.ndarray:
        """(positions, moves) bool: the moves it picks from (where :meth:`distribution`
        is not zero), one byte a cell where the distribution takes eight."""
        return _support(self)

    @property
    def deterministic(self) -> bool:
        return bool((self.choices.lengths() <= 1).all())


@cache
def _next_ids(opponent: TableOpponent) -> Rows:
    succ = game_tables(opponent.game).succ
    support = _support(opponent)  # each move once, ascending
    return Rows.from_mask(support, succ[support], np.int32)


@cache
def _distribution(opponent: TableOpponent) -> np.ndarray:
    support = _support(opponent)
    counts = support.sum(axis=1, keepdims=True)
    dist = np.where(support, 1.0 / np.maximum(counts, 1), 0.0)
    dist.setflags(write=False)
    return dist


def _support(opponent: TableOpponent) -> np.ndarray:
    """(positions, moves) bool: the moves the opponent picks from in each position."""
    T = game_tables(opponent.game)
    rows = opponent.choices
    support = np.zeros(T.succ.shape, dtype=bool)
    support[rows.row_ids(), rows.flat] = True
    return support


def _build(name: str, rule) -> TableOpponent:
    T = tables()
    choices = []
    for pid in range(T.n_positions):
        if T.outcome[pid] != ONGOING:
            choices.append(())
        else:
            choices.append(tuple(rule(T, pid)))
    return TableOpponent(name, Rows.from_tuples(choices, np.int8))


def _random_rule(T, pid: int) -> list[int]:
    return T.legal(pid)


def _blocks(T, pid: int) -> list[int]:
    other = X if T.player[pid] != X else 2
    return winning_squares(T.position(pid), other)


def _defensive_rule(T, pid: int) -> list[int]:
    blocks = _blocks(T, pid)
    return blocks[:1] if blocks else T.legal(pid)


def _defensive_text_rule(T, pid: int) -> list[int]:
    blocks = _blocks(T, pid)
    if blocks:
        return blocks[:1]
    legal = T.legal(pid)
    return [CENTRE] if CENTRE in legal else legal


def _positional_rule(T, pid: int) -> list[int]:
    legal = T.legal(pid)
    best = min(_PRIORITY.get(m, 2) for m in legal)
    return [m for m in legal if _PRIORITY.get(m, 2) == best]


def _perfect_rule(tie_break: str):
    def rule(T, pid: int) -> list[int]:
        best = T.optimal_moves(pid)
        if tie_break == "lowest":
            return best[:1]
        if tie_break == "uniform":
            return best
        return [min(best, key=lambda m: (_PRIORITY.get(m, 2), m))]

    return rule


@cache
def make_opponent(name: str, tie_break: str = "lowest", game: str = DEFAULT_GAME) -> TableOpponent:
    """A scripted opponent by name (see the module docstring) for ``game``.

    Noughts and crosses has every opponent of :data:`OPPONENTS`; every other game has
    those of :data:`GAME_OPPONENTS`.

    Parameters
    ----------
    name
        ``"random"``, ``"defensive"``, ``"perfect"`` (or ``"optimal"``/``"minimax"``), ...
    tie_break
        How the perfect player chooses among equally good moves.

    Returns
    -------
    TableOpponent
        A scripted player, shared (cached) between calls.

    Raises
    ------
    ValueError
        For an unknown game, opponent or tie-break name, or an opponent the game lacks.

    Examples
    --------
    >>> import menace_lib as ml
    >>> perfect = ml.make_opponent("perfect", tie_break="lowest")
    >>> perfect.name
    'perfect(lowest)'
    >>> ml.exact_outcome(ml.Menace(), perfect)["win"]
    0.0
    """
    if name in ("optimal", "minimax"):
        name = "perfect"
    if game != DEFAULT_GAME:
        return _game_opponent(game, name, tie_break)
    if name not in OPPONENTS:
        raise ValueError(f"unknown opponent {name!r}; choose one of {OPPONENTS}")
    if name == "perfect":
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {tie_break!r}; choose one of {TIE_BREAKS}")
        return _build(f"perfect({tie_break})", _perfect_rule(tie_break))
    rules = {
        "random": _random_rule,
        "defensive": _defensive_rule,
        "defensive-text": _defensive_text_rule,
        "positional": _positional_rule,
    }
    return _build(name, rules[name])


def _game_opponent(game: str, name: str, tie_break: str) -> TableOpponent:
    get_game(game)  # a clear error for an unknown game
    if name not in GAME_OPPONENTS:
        raise ValueError(f"opponent {name!r} does not play {game}; choose one of {GAME_OPPONENTS}")
    if tie_break not in ("lowest", "uniform"):
        raise ValueError(f"tie-break {tie_break!r} does not fit {game}; use lowest or uniform")
    T = game_tables(game)
    live = (T.outcome == ONGOING)[:, None]
    if name == "human-like":
        return TableOpponent(name, Rows.from_mask(_lookahead_mask(T), dtype=np.int8), game)
    if name == "random":
        return TableOpponent(name, Rows.from_mask(live & (T.succ >= 0)), game)
    best = live & T.optimal
    if tie_break == "lowest":  # the first move of each tie-break set
        best = best & (np.cumsum(best, axis=1) == 1)
    return TableOpponent(f"perfect({tie_break})", Rows.from_mask(best), game)


def _lookahead_mask(T) -> np.ndarray:
    """The human-like player's rule, one ply of lookahead (a winning move, else the moves
    after which the other side cannot win at once, else every legal move), at every position
    at once, as a mask of its moves (none at a finished game): whole-table array passes
    instead of a Python loop over the positions (161,029 on Connect-4 4x4, seconds of CPU in
    every process that plays the player)."""
    legal = (T.succ >= 0) & (T.outcome == ONGOING)[:, None]
    child = np.where(legal, T.succ, 0)
    after = T.outcome[child]  # the outcome of each move's position (read only where legal)
    first = T.player == 1
    mine = np.where(first, FIRST_WIN, SECOND_WIN)[:, None]
    wins = legal & (after == mine)
    # Whether the side to move at a position has a move that wins at once, for each side.
    can_win = {code: (legal & (after == code)).any(axis=1) for code in (FIRST_WIN, SECOND_WIN)}
    # A move hands the other side a win when it leaves a live position where they have one.
    theirs_can_win = np.where(first[:, None], can_win[SECOND_WIN][child], can_win[FIRST_WIN][child])
    safe = legal & ~(theirs_can_win & (after == ONGOING))
    return np.where(
        wins.any(axis=1)[:, None], wins, np.where(safe.any(axis=1)[:, None], safe, legal)
    )


def perfect_move(
    pid: int, tie_break: str = "lowest", rng: np.random.Generator | None = None
) -> int:
    """A minimax-optimal square in position ``pid`` under a tie-break rule."""
    opponent = make_opponent("perfect", tie_break)
    if tie_break == "uniform" and rng is None:
        raise ValueError("tie_break='uniform' needs an rng")
    return opponent.move(pid, rng if rng is not None else np.random.default_rng(0))


# --- curricula ------------------------------------------------------------------


def mixed_split(games: int, fractions: Sequence[float] = (0.4, 0.2)) -> tuple[int, int, int]:
    """The thesis's random → defensive → perfect split (200/100/200 for 500 games).

    Random gets ``floor(2N/5)`` games and defensive ``floor(N/5)``; each block gets at
    least one game while room remains, and perfect takes the rest.
    """
    games = check_count("games", games, MAX_GAMES)
    if len(fractions) != 2:
        raise ValueError(f"fractions must be (random, defensive), got {fractions!r}")
    shares = [
        check_number(f"fractions[{i}]", f, minimum=0, maximum=1) for i, f in enumerate(fractions)
    ]
    if sum(shares) > 1:
        raise ValueError(f"fractions must sum to at most 1, got {fractions!r}")
    n_random = (games * 2) // 5 if fractions == (0.4, 0.2) else int(games * fractions[0])
    n_def = games // 5 if fractions == (0.4, 0.2) else int(games * fractions[1])
    blocks = [n_random, n_def]
    left = games
    out = []
    for n in blocks:
        n = max(n, 1) if left > 0 else 0
        n = min(n, left)
        out.append(n)
        left -= n
    out.append(left)
    return tuple(out)  # type: ignore[return-value]


def regimen_blocks(regimen: str, games: int, tie_break: str = "lowest") -> list[tuple[str, int]]:
    """A training regimen as ``(opponent name, games)`` blocks.

    ``random``, ``defensive`` and ``perfect`` (also read as ``optimal``) are one block
    each; ``mixed`` is the
    thesis's curriculum, random → defensive → perfect; ``switching`` is an opponent
    that plays at random for the first half (``games // 2``) and perfectly for the
    rest (:func:`switching_blocks`).
    """
    regimen = regimen_name(regimen)
    if regimen not in REGIMENS:
        raise ValueError(f"unknown regimen {regimen!r}; choose one of {REGIMENS}")
    if games < 0:
        raise ValueError(f"games must be ≥ 0, got {games}")
    if regimen == "mixed":
        r, d, p = mixed_split(games)
        return [("random", r), ("defensive", d), ("perfect", p)]
    if regimen == "switching":
        return switching_blocks(games)
    return [(regimen, games)]


def switching_blocks(
    games: int, first: str = "random", then: str = "perfect", at: float = 0.5
) -> list[tuple[str, int]]:
    """An opponent that changes once: ``first`` for ``floor(games * at)`` games, then ``then``.

    Both names are scripted opponents (:func:`make_opponent`); a block of no games
    is left out.

    Raises
    ------
    ValueError
        For an unknown opponent, negative ``games`` or ``at`` outside [0, 1].
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be an integer ≥ 0, got {games!r}")
    if not 0.0 <= at <= 1.0:
        raise ValueError(f"at must be in [0, 1], got {at!r}")
    for name in (first, then):
        make_opponent(name)  # raises on an unknown name
    switch = int(games * at)
    return [(name, n) for name, n in ((first, switch), (then, games - switch)) if n > 0]
