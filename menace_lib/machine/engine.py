"""One matchbox machine: a box layout built once per game, and one table-driven engine.

Every matchbox learner in the library -- MENACE on noughts and crosses in either
layout and for either side, and HER on Hexapawn -- is a set of bead counts laid out
by a :class:`BoxLayout` and played by :func:`run_games`.

The layout
----------
:func:`box_layout` builds, for a ``(game, filter, layout, player)``, everything that
does not change while a machine learns: the canonical position of each box, the
canonical move each bead colour plays (``square`` layout: one colour per legal move;
``class`` layout: one per orbit of the position's own symmetry group), and, for every
raw position, the box it opens, the raw move of each colour and the position each
colour leads to. It is built once, cached and shared (tuples and a read-only
mapping), so making a machine costs a list copy of its beads, not a rebuild.

The engine
----------
:func:`run_games` plays a machine against a scripted opponent given as per-position
successor tuples: per move one uniform number and a scan over the box's bead counts.
:func:`run_games_with_hook` is the same move step and game loop for a machine that
learns its own way (the Active Inference agents): it draws from the Generator one
number per random choice, as :func:`menace_lib.play.loop.play_game` does, and calls the
agent's ``end_game`` after each game instead of the bead update.
Both are deliberate copies of three owners, inlined for speed -- the bead rules of
:mod:`menace_lib.machine.beads` (draw, update with its credit rule, clamp, restock, empty box),
:meth:`menace_lib.machine.menace.Menace.choose` and :func:`menace_lib.play.loop.play_game` --
and ``tests/test_rule_parity.py`` checks it against them over the whole option grid.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import chain
from typing import Any

import numpy as np

from ..base.limits import MAX_BEADS, MAX_GAMES, check_count
from ..base.progress import game_ticker
from ..games.agent import PolicyMatrix
from ..games.game import ONGOING, Rows, Tables
from ..games.registry import DEFAULT_GAME, game_tables
from ..games.results import LOSS, Tally, TrainingLog, counting, repeated, result_for
from . import _kernel as machine_kernel

LAYOUTS = ("square", "class")
BLOCK = 1 << 14
"""Uniform numbers drawn from the Generator at a time."""

__all__ = [
    "BLOCK",
    "LAYOUTS",
    "BoxIndex",
    "BoxLayout",
    "MachineLog",
    "box_layout",
    "run_games",
    "run_games_with_hook",
]


@dataclass(frozen=True, eq=False)
class BoxLayout:
    """The fixed part of a matchbox machine (see the module docstring), as arrays.

    The arrays are the layout: a few bytes a position (Connect-4 5×5 against the
    perfect player has 21.7 million positions), read by the compiled engine and the
    vectorised passes. The tuples the Python hot loop indexes (``raw_box``,
    ``raw_moves``, ...) are views of them, built on first use.

    Attributes
    ----------
    game, filter, layout, player
        What the layout was built for.
    box_state
        (boxes,) canonical position id of each box (``-1``: a box no position reaches).
    box_plies
        (boxes,) the ply of each box's position (the bead schedule reads it).
    colours
        Per box, the canonical move each colour plays (a class plays its first member).
    classes
        Per box, the canonical moves each colour stands for, in the ``class`` layout;
        ``None`` in the ``square`` layout (one move a colour).
    position_box
        (positions,) the box each raw position opens (``-1``: none, or not the machine's
        move).
    position_result
        (positions,) the finished game's result for the machine (``WIN``,
        ``DRAW_RESULT``, ``LOSS`` of :mod:`menace_lib.games.results`), ``-1`` while it goes on.
    position_opening
        (positions,) whether the machine makes its first move there.
    moves
        Per raw position where the machine moves, the raw move of each colour (a box),
        or of each canonical legal move (no box: a uniform choice); empty elsewhere.
    children
        Per raw position, the position each entry of ``moves`` leads to.
    """

    game: str
    filter: str
    layout: str
    player: int
    box_state: np.ndarray
    box_plies: np.ndarray
    colours: Rows
    classes: tuple[tuple[tuple[int, ...], ...], ...] | None
    position_box: np.ndarray
    position_result: np.ndarray
    position_opening: np.ndarray
    moves: Rows
    children: Rows

    def __post_init__(self) -> None:
        for a in (self.box_state, self.box_plies, self.position_box, self.position_result,
                  self.position_opening):  # fmt: skip
            a.setflags(write=False)

    def __deepcopy__(self, memo: dict) -> BoxLayout:
        return self  # read-only and shared: a copied machine keeps its layout (and caches)

    @property
    def n_boxes(self) -> int:
        return len(self.box_state)

    @property
    def tables(self) -> Tables:
        return game_tables(self.game)

    def nbytes(self) -> int:
        """Bytes the layout's arrays hold (the tuple views, once built, are extra)."""
        arrays = (self.box_state, self.box_plies, self.position_box, self.position_result,
                  self.position_opening)  # fmt: skip
        return sum(a.nbytes for a in arrays) + sum(
            r.nbytes for r in (self.colours, self.moves, self.children)
        )

    # --- views for the Python loops (built on first use) -------------------------------

    @cached_property
    def states(self) -> tuple[int, ...]:
        """Canonical position id of each box."""
        return tuple(self.box_state.tolist())

    @cached_property
    def box_of(self) -> Mapping[int, int]:
        """Canonical position id -> box index (read-only)."""
        return BoxIndex(self.box_state)

    @property
    def entries(self) -> Rows:
        """Per box, the canonical move each colour plays."""
        return self.colours

    @cached_property
    def members(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per box, the canonical moves each colour stands for."""
        if self.classes is not None:
            return self.classes
        return tuple(tuple((m,) for m in e) for e in self.colours)

    @cached_property
    def box_ply(self) -> tuple[int, ...]:
        """Per box, the ply of its position."""
        return tuple(self.box_plies.tolist())

    @cached_property
    def raw_box(self) -> tuple[int, ...]:
        """Per raw position, the box it opens (``-1``: none)."""
        return tuple(self.position_box.tolist())

    @property
    def raw_moves(self) -> Rows:
        """Per raw position, :attr:`moves`."""
        return self.moves

    @property
    def raw_next(self) -> Rows:
        """Per raw position, :attr:`children`."""
        return self.children

    @cached_property
    def result(self) -> tuple[int, ...]:
        """Per raw position, :attr:`position_result`."""
        return tuple(self.position_result.tolist())

    @cached_property
    def opening(self) -> tuple[bool, ...]:
        """Per raw position, :attr:`position_opening`."""
        return tuple(self.position_opening.tolist())


class BoxIndex(Mapping):
    """Canonical position id -> box, by binary search over the boxes' positions: a few
    bytes a box where a dict would need about a hundred. Boxes no position reaches
    (``-1``) are left out."""

    def __init__(self, box_state: np.ndarray) -> None:
        boxes = np.flatnonzero(box_state >= 0)
        order = np.argsort(box_state[boxes], kind="stable")
        self._keys, self._boxes = box_state[boxes][order], boxes[order]

    def __getitem__(self, state: int) -> int:
        if isinstance(state, bool) or not isinstance(state, (int, np.integer)):
            raise KeyError(state)
        i = int(np.searchsorted(self._keys, state))
        if i == len(self._keys) or self._keys[i] != state:
            raise KeyError(state)
        return int(self._boxes[i])

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys.tolist())

    def __len__(self) -> int:
        return len(self._keys)


def _inverse(T: Tables) -> list[int]:
    maps = T.move_maps.tolist()
    ident = list(range(len(maps[0])))
    return [
        next(h for h in range(len(maps)) if [maps[h][maps[g][m]] for m in ident] == ident)
        for g in range(len(maps))
    ]


@cache
def box_layout(
    game: str = DEFAULT_GAME, filter: str = "michie", layout: str = "square", player: int = 1
) -> BoxLayout:
    """The shared, read-only layout of a machine (built once per argument tuple).

    The per-position rows are computed on the tables' arrays, so a game of millions of
    positions (Connect-4 5×4) builds in seconds; only the ``class`` layout asks each
    box for its move classes one by one.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; choose one of {LAYOUTS}")
    T = game_tables(game)
    states = T.matchbox_states(filter, player)  # a game's own filters come with its tables
    if layout == "square":
        classes = None
        colours = Rows.from_mask(T.succ[states] >= 0)
    else:
        classes = tuple(tuple(T.move_classes(int(s))) for s in states)
        colours = Rows.from_tuples([[cls[0] for cls in box] for box in classes], np.int8)
    raw_box, moves, children = _raw_rows(T, states, colours, player)
    result = np.full(T.n_positions, -1, dtype=np.int8)
    for outcome in np.unique(T.outcome[T.outcome != ONGOING]).tolist():
        result[T.outcome == outcome] = result_for(player, outcome)
    mover_plies = T.ply[T.player == player]
    first_ply = int(mover_plies.min()) if len(mover_plies) else 0
    return BoxLayout(
        game=game,
        filter=filter,
        layout=layout,
        player=player,
        box_state=states.astype(np.int64),
        box_plies=T.ply[states].astype(np.int8),
        colours=colours,
        classes=classes,
        position_box=raw_box,
        position_result=result,
        position_opening=T.ply <= first_ply,
        moves=moves,
        children=children,
    )


def _raw_rows(T: Tables, states: np.ndarray, colours: Rows, player: int):
    """Per raw position: its box, the raw move of each colour and where each leads.

    A raw position maps to its canonical image by ``canon_transform``; the image's
    colours (or, with no box, its legal moves) are mapped back by the inverse element.
    Positions where the machine does not move get ``-1`` and empty rows.
    """
    n, n_moves = T.n_positions, T.succ.shape[1]
    lengths = colours.lengths()
    width = int(lengths.max(initial=0))
    padded = np.full((len(lengths) + 1, max(width, 1)), -1, dtype=np.int64)
    padded[colours.row_ids(), np.arange(len(colours.flat)) - colours.start[colours.row_ids()]] = (
        colours.flat
    )
    box_of_state = np.full(n, -1, dtype=np.int32)
    box_of_state[states] = np.arange(len(states), dtype=np.int32)
    mine = np.flatnonzero((T.outcome == ONGOING) & (T.player == player))
    canon = T.canon[mine]
    boxes = box_of_state[canon]
    legal = T.succ[canon] >= 0  # the canonical image's moves, for positions without a box
    canon_moves = np.sort(np.where(legal, np.arange(n_moves), n_moves), axis=1)  # ascending
    canon_moves[canon_moves == n_moves] = -1  # padding after the legal moves
    del legal
    cols = max(width, n_moves)
    chosen = np.full((len(mine), cols), -1, dtype=np.int64)
    has_box = boxes >= 0
    chosen[has_box, : padded.shape[1]] = padded[boxes[has_box]]
    chosen[~has_box, :n_moves] = canon_moves[~has_box]
    del canon_moves, canon
    back = T.move_maps[_inverse(T)][T.canon_transform[mine]]  # (k, n_moves)
    valid = chosen >= 0
    raw = np.where(valid, np.take_along_axis(back, np.maximum(chosen, 0), axis=1), -1)
    del back, chosen
    nxt = np.where(valid, T.succ[mine[:, None], np.maximum(raw, 0)], -1)
    raw_box = np.full(n, -1, dtype=np.int32)
    raw_box[mine] = boxes
    counts = np.zeros(n, dtype=np.int64)
    counts[mine] = valid.sum(axis=1)
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    moves = Rows(start, raw[valid].astype(np.int8))
    children = Rows(start, nxt[valid].astype(np.int32))
    return raw_box, moves, children


@dataclass
class MachineLog:
    """What :func:`run_games` returns: per game its result, bead total and how it ended.

    ``paths`` (the ``(box, colour)`` pairs drawn) and ``moves`` (the ``(position,
    raw move)`` pairs played) are kept when ``record`` is set.
    """

    results: list[int]
    totals: list[float]
    resigned: list[bool]
    paths: list[list[tuple[int, int]]]
    moves: list[list[tuple[int, int]]]
    stopped_early: bool = False


def _successors(layout: BoxLayout, opponent_next: tuple) -> list[tuple[int, ...]]:
    # Iterated, not indexed: a row read by index goes through the Rows class each time.
    return [mine or theirs for mine, theirs in zip(layout.raw_next, opponent_next, strict=True)]


def run_games(
    layout: BoxLayout,
    beads: Any,
    config: Any,
    opponent_next: tuple[tuple[int, ...], ...],
    games: int,
    rng: np.random.Generator,
    *,
    learn: bool = True,
    record: bool = True,
) -> MachineLog:
    """Play ``games`` games of a machine against a scripted opponent, learning after each.

    Parameters
    ----------
    layout
        The machine's :class:`BoxLayout`.
    beads
        Anything with ``weights``, ``initial`` and ``move_refill`` (per box, per colour;
        ``weights`` is changed in place).
    config
        The bead rules: ``reinforcement`` (win, draw, loss), ``restock``, ``floor``,
        ``empty_box`` and ``credit`` (``"every"`` or ``"last"``).
    opponent_next
        Per position, the successors the opponent picks from uniformly.
    learn
        Whether to apply the end-of-game update (a frozen machine only plays).
    record
        Whether to keep every game's paths and moves.
    """
    games = check_count("games", games, MAX_GAMES)
    margin = _margin(layout)
    T = layout.tables
    if machine_kernel.wanted(games, int(T.ply.max()), T.n_positions, record):
        results, totals, resigned, stopped = machine_kernel.run_compiled(
            layout, beads, config, opponent_next, games, rng, learn, margin, BLOCK,
            keep=not counting(),
        )  # fmt: skip
        ticker = game_ticker()
        if ticker is not None:
            ticker(len(results))
        return MachineLog(results, totals, resigned, [], [], stopped)
    with _without_cyclic_gc():
        return _loop(layout, beads, config, opponent_next, games, rng, learn, record, margin)


def train_machine(
    agent: Any, opponent: Any, games: int, rng: np.random.Generator, *, record: bool = True
) -> TrainingLog:
    """A matchbox agent plays and learns ``games`` games against a scripted opponent.

    The shared body of the matchbox agents' ``train_against``: :func:`run_games` on the
    agent's ``box_layout``, ``config`` and beads (learning unless the agent is
    ``frozen``), its ``games_trained`` counted, and the run as a
    :class:`~menace_lib.games.results.TrainingLog`.
    """
    games = check_count("games", games, MAX_GAMES)  # before anything else is read
    out = run_games(
        agent.box_layout,
        agent,
        agent.config,
        opponent.next_ids,
        games,
        rng,
        learn=not agent.frozen,
        record=record,
    )
    if not agent.frozen:
        agent.games_trained += len(out.results)
    return training_log(out, opponent.name)


def training_log(out, opponent: str) -> TrainingLog:
    """The :class:`TrainingLog` of one engine run against the opponent called ``opponent``:
    every machine built on this engine reports its games the one way."""
    return TrainingLog(
        results=out.results,
        paths=out.paths,
        moves=out.moves,
        bead_totals=out.totals,
        opponents=repeated(opponent, len(out.results)),
        resigned=out.resigned,
        stopped_early=out.stopped_early,
    )


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Cyclic garbage collection off inside the block: a run's per-game lists would
    otherwise trigger many needless passes."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _margin(layout: BoxLayout) -> int:
    """Uniform numbers kept in hand before a game: at least one per move of the longest game.

    16 for noughts and crosses (nine moves at most; the stored results drew their blocks
    with this margin), more for longer games such as Connect-4.
    """
    return max(16, int(layout.tables.ply.max()) + 1)


def _loop(layout, beads, cfg, opponent_next, games, rng, learn, record, margin):  # noqa: C901, PLR0912, PLR0915 (one hot loop)
    raw_box, result_of, moves_of = layout.raw_box, layout.result, layout.raw_moves
    opening = layout.opening
    weights, initial, refill = beads.weights, beads.initial, beads.move_refill
    nxt = _successors(layout, opponent_next)
    delta, restock, floor, rule = cfg.reinforcement, cfg.restock, cfg.floor, cfg.empty_box
    last_only = getattr(cfg, "credit", "every") == "last"
    log = MachineLog([], [], [], [], [])
    results, totals, resigned = log.results, log.totals, log.resigned
    kept = _Kept(log, game_ticker(), keep_games=record or not counting())
    total = float(sum(sum(w) for w in weights))
    u = rng.random(BLOCK).tolist()
    k = 0
    for g in range(games):
        if k > BLOCK - margin:
            u = rng.random(BLOCK).tolist()
            k = 0
            kept.flush(g)
        s = 0
        path = []
        gave_up = stop = False
        while True:
            r = result_of[s]
            if r >= 0:
                break
            b = raw_box[s]
            if b >= 0:
                w = weights[b]
                t = u[k] * sum(w)
                k += 1
                if t <= 0.0 and sum(w) <= 0:  # empty box (beads.refill_empty)
                    if restock == "none":  # beads.empty_box_move
                        stop = rule == "stop" or (rule == "web" and opening[s])
                        gave_up = True
                        r = LOSS
                        break
                    total += sum(initial[b]) - sum(w)
                    w[:] = initial[b]
                    t = u[k - 1] * sum(w)
                j = 0
                for x in w:  # beads.scan_beads
                    if t < x:
                        break
                    t -= x
                    j += 1
                else:  # rounding ran past the end: take the last live colour
                    j = max(i for i, x in enumerate(w) if x > 0)
                path.append((b, j, s))
                s = nxt[s][j]
            else:
                options = nxt[s]
                if len(options) == 1:
                    s = options[0]
                else:
                    s = options[int(u[k] * len(options))]
                    k += 1
        if stop:
            log.stopped_early = True
            break
        if learn and path:  # beads.reinforce
            d = delta[r]
            drawn = path[-1:] if last_only else path
            for b, j, _ in drawn:
                w = weights[b]
                old = w[j]
                new = old + d
                if new <= floor:
                    new = refill[b][j] if restock == "move" else floor
                elif new > MAX_BEADS:
                    new = MAX_BEADS
                w[j] = new
                total += new - old
            if restock == "box" and d < 0:
                for b, _, _ in drawn:
                    w = weights[b]
                    if sum(w) <= 0:
                        total += sum(initial[b]) - sum(w)
                        w[:] = initial[b]
        results.append(r)
        totals.append(total)
        resigned.append(gave_up)
        if record:
            log.paths.append([(b, j) for b, j, _ in path])
            log.moves.append([(p, moves_of[p][j]) for _, j, p in path])
    return kept.finish(len(results))


class _Kept:
    """What a run keeps of its games, and whom it tells how many it has played.

    Every few thousand games (when the loop draws its next block of random numbers) the
    loop reports its progress to the :func:`~menace_lib.base.progress.counting_games` ticker;
    inside :func:`~menace_lib.games.results.counts_only` it also folds its per-game lists into
    :class:`~menace_lib.games.results.Tally` counts, so a run of any length keeps the same memory.
    """

    def __init__(self, log: MachineLog, ticker, keep_games: bool) -> None:
        self.log, self.ticker, self.reported = log, ticker, 0
        self.tallies = None if keep_games else (Tally(), Tally(distinct=False), Tally())

    def flush(self, played: int) -> None:
        if self.ticker is not None:
            self.ticker(played - self.reported)
            self.reported = played
        if self.tallies is not None:
            columns = (self.log.results, self.log.totals, self.log.resigned)
            for tally, column in zip(self.tallies, columns, strict=True):
                tally.extend(column)
                column.clear()

    def finish(self, unflushed: int) -> MachineLog:
        log = self.log
        played = (self.tallies[0].n if self.tallies else 0) + unflushed
        self.flush(played)
        if self.tallies is not None:
            log.results, log.totals, log.resigned = self.tallies
        return log


# --- a machine that learns its own way --------------------------------------------


def run_games_with_hook(
    layout: BoxLayout,
    weights: list[list[float]],
    initial: list[list[float]],
    opponent_next: tuple[tuple[int, ...], ...],
    games: int,
    rng: np.random.Generator,
    end_game: Any,
    *,
    record: bool = True,
) -> MachineLog:
    """Play ``games`` games of a machine whose learning is its own, calling ``end_game``.

    The move step and the game loop of :func:`run_games`, for an agent that keeps its
    moves in boxes but learns otherwise (the Active Inference agents overwrite the
    boxes they visited). Random numbers come from ``rng`` one call per choice, in the
    order :func:`menace_lib.play.loop.play_game` asks for them (``rng.random()`` for a
    bead, ``rng.integers(n)`` for a uniform choice among ``n > 1`` moves), so a run
    is the generic loop's run, game for game.

    Parameters
    ----------
    layout
        The machine's :class:`BoxLayout`.
    weights, initial
        Per box, its bead counts (read; the agent changes them) and the beads an
        empty box is refilled with before a draw (box restock, as
        :func:`menace_lib.machine.beads.refill_empty` does).
    opponent_next
        Per position, the successors the opponent picks from uniformly.
    end_game
        Called after each game as ``end_game(trajectory, result, final)``: the
        machine's ``(position, raw move, box)`` records (box ``-1`` where it chose
        uniformly with no box), its result and the game's last position.
    record
        Whether to keep every game's trajectory (``paths``) and its
        ``(position, raw move)`` pairs (``moves``).
    """
    games = check_count("games", games, MAX_GAMES)
    with _without_cyclic_gc():
        return _hook_loop(layout, weights, initial, opponent_next, games, rng, end_game, record)


def _hook_loop(layout, weights, initial, opponent_next, games, rng, end_game, record):  # noqa: PLR0912 (one hot loop)
    result_of, raw_box, moves_of = layout.result, layout.raw_box, layout.raw_moves
    nxt = _successors(layout, opponent_next)
    random, integers = rng.random, rng.integers
    log = MachineLog([], [], [], [], [])
    results, paths, moves = log.results, log.paths, log.moves
    kept = _Kept(log, game_ticker(), keep_games=record or not counting())
    for g in range(games):
        if g and not g % BLOCK:  # report progress, fold the results into counts if asked
            kept.flush(g)
        s = 0
        trajectory = []
        while True:
            r = result_of[s]
            if r >= 0:
                break
            options = nxt[s]
            b = raw_box[s]
            if b >= 0:  # beads.refill_empty and beads.draw_bead (see draw_bead on why a
                # last-bit difference in a weight cannot change the colour drawn)
                u = random()
                w = weights[b]
                total = sum(w)
                if total <= 0:
                    w[:] = initial[b]
                    total = sum(w)
                t = u * total
                j = 0
                for x in w:  # beads.scan_beads
                    if t < x:
                        break
                    t -= x
                    j += 1
                else:  # rounding ran past the end: take the last live colour
                    j = max((i for i, x in enumerate(w) if x > 0), default=0)
            elif len(options) == 1:
                j = 0
            else:
                j = int(integers(len(options)))
            if b >= 0 or moves_of[s]:
                trajectory.append((s, moves_of[s][j], b))
            s = options[j]
        end_game(trajectory, r, s)
        results.append(r)
        if record:
            paths.append(trajectory)
            moves.append([(p, m) for p, m, _ in trajectory])
    return kept.finish(len(results))


# --- the policy a machine's beads define ---------------------------------------------


@cache
def _gather(layout: BoxLayout) -> dict:
    """Indices from a machine's flat bead array to (position, move) cells, from the
    layout's arrays in one vectorised pass."""
    offsets = layout.colours.start
    moves = layout.moves
    pos = moves.row_ids()
    colour = np.arange(len(pos), dtype=np.int64) - moves.start[pos]
    box = layout.position_box[pos]
    boxed = box >= 0
    flat = (offsets[box[boxed]] + colour[boxed]).astype(np.int32)
    fb_rows = pos[~boxed]
    lengths = moves.lengths()
    return {
        "offsets": offsets,
        "rows": pos[boxed].astype(np.int32),
        "cols": moves.flat[boxed],
        "flat": flat,
        "box": box[boxed],
        "fallback": (fb_rows, moves.flat[~boxed], 1.0 / lengths[fb_rows]),
        "agent_rows": lengths > 0,
    }


def policy_matrix(layout: BoxLayout, weights, initial, restock: str):
    """Bead proportions as move probabilities in every raw position where the machine moves.

    An empty box that restock would refill before a draw plays its initial proportions;
    one that nothing refills is a resignation row. Returns a
    :class:`~menace_lib.games.agent.PolicyMatrix` of shape (positions, moves).
    """
    idx = _gather(layout)
    starts = idx["offsets"][:-1]
    flat = np.fromiter(chain.from_iterable(weights), dtype=float)
    sums = np.add.reduceat(flat, starts) if len(flat) else flat
    empty = sums <= 0
    if restock != "none" and empty.any():  # beads.refill_empty
        init = np.fromiter(chain.from_iterable(initial), dtype=float)
        refill = np.repeat(empty, np.diff(idx["offsets"]))
        flat[refill] = init[refill]
        sums = np.add.reduceat(flat, starts)
        empty = sums <= 0
    T = layout.tables
    n = T.n_positions
    P = np.zeros((n, T.succ.shape[1]))
    safe = np.where(empty, 1.0, sums)
    P[idx["rows"], idx["cols"]] = flat[idx["flat"]] / safe[idx["box"]]
    fb_rows, fb_cols, fb_p = idx["fallback"]
    P[fb_rows, fb_cols] = fb_p
    resign = np.zeros(n, dtype=bool)
    if empty.any():
        resign[idx["rows"][empty[idx["box"]]]] = True
    return PolicyMatrix(P, idx["agent_rows"], resign)


def canonical_policy(layout: BoxLayout, probabilities: list[float] | None, state: int):
    """Probability of each canonical move in canonical ``state`` (the machine to move).

    ``probabilities`` are the box's colour probabilities (``None``: the state has no
    box, and every legal move is equally likely). A move class's probability is
    shared evenly among its moves.
    """
    T = layout.tables
    pi = np.zeros(T.succ.shape[1])
    b = layout.box_of.get(int(state), -1)
    if b < 0 or probabilities is None:
        legal = T.legal(int(state))
        pi[legal] = 1.0 / len(legal)
        return pi
    for p, members in zip(probabilities, layout.members[b], strict=True):
        pi[list(members)] += p / len(members)
    return pi
