"""Checks of the play widget's synced state: the browser's messages are input too.

A live kernel receives the play widget's state from the browser, and a saved notebook
carries it in its metadata; either can be damaged or hostile. Every check here raises
:class:`PlayStateError` naming the trait, the index and the bad value. ``play_state.js``
holds the same checks for the browser, which shows their message in the widget instead
of playing on from a broken state; a test runs both over the same corpus of bad states.

The agent-file side of the widget (what an exported file must satisfy to be imported) is
:func:`check_agent_fits`: the file itself is read and checked by
:meth:`menace_lib.machine.menace.Menace.from_dict`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import traitlets as t

from ..base.limits import MAX_BEADS
from ..games.board import EMPTY, BoardError, O, X, board_to_text, validate_board
from ..games.statespace import ONGOING, tables
from ..machine.menace import Menace
from ..play.loop import DRAW_RESULT, LOSS, WIN, result_for

__all__ = [
    "RESULT_TEXT",
    "SIDES",
    "PlayStateError",
    "check_agent_fits",
    "check_bead_changes",
    "check_board",
    "check_count",
    "check_last_draw",
    "check_live_beads",
    "check_moves",
    "check_path",
    "check_result",
    "check_seed",
    "check_tally",
]

SIDES = ("X", "O")
RESULT_TEXT = {"menace": "MENACE wins", "draw": "Draw", "human": "You win"}
"""What the widget announces when a game ends, keyed like ``PlayWidget.tally``."""


class PlayStateError(t.TraitError, ValueError):
    """A synced play-widget value that cannot be a real game state.

    A :class:`traitlets.TraitError` (traitlets rolls the whole change back) and a
    :class:`ValueError` (what the widget's other bad-input errors are).
    """


def _is_int(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def _number(where: str, value: Any, minimum: float) -> float:
    """A finite real number ≥ ``minimum`` (bools, strings and NaN are refused)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not math.isfinite(value)
    ):
        raise PlayStateError(f"{where} must be a finite number, got {value!r}")
    if value < minimum:
        raise PlayStateError(f"{where} must be ≥ {minimum:g}, got {value!r}")
    return float(value)


def _list(where: str, value: Any) -> list:
    if not isinstance(value, (list, tuple)):
        raise PlayStateError(f"{where} must be a list, got {value!r}")
    return list(value)


def check_board(value: Any) -> list[int]:
    """Nine squares of 0 (empty), 1 (X) or 2 (O) that can arise in a game."""
    board = _list("board", value)
    if len(board) != 9:
        raise PlayStateError(f"board must list 9 squares, got {len(board)}: {value!r}")
    for i, v in enumerate(board):
        if not _is_int(v) or v not in (EMPTY, X, O):
            raise PlayStateError(f"board[{i}] must be 0 (empty), 1 (X) or 2 (O), got {v!r}")
    try:
        validate_board(tuple(board))
    except BoardError as err:
        raise PlayStateError(f"board: {err}") from None
    return [int(v) for v in board]


def check_moves(value: Any, board: Sequence[int]) -> list[int]:
    """The squares played so far, in order: X first, then alternating, giving ``board``."""
    moves = _list("moves", value)
    for k, m in enumerate(moves):
        if not _is_int(m) or not 0 <= m <= 8:
            raise PlayStateError(f"moves[{k}] must be a square index 0-8, got {m!r}")
    occupied = [i for i, v in enumerate(board) if v != EMPTY]
    alternate = all(board[m] == (X if k % 2 == 0 else O) for k, m in enumerate(moves))
    if sorted(moves) != occupied or not alternate:
        raise PlayStateError(
            f"moves {moves!r} do not lead to board {board_to_text(board)!r} "
            "(X first, then O, one mark per move)"
        )
    return [int(m) for m in moves]


def check_live_beads(
    value: Any, initial: Sequence[Sequence[float]], floor: float, side: str
) -> list[list[float | int]]:
    """One list of bead counts per box of ``side``'s MENACE, each in ``[floor, MAX_BEADS]``."""
    beads = _list("live_beads", value)
    if len(beads) != len(initial):
        raise PlayStateError(
            f"live_beads must list {len(initial)} boxes for MENACE ({side}), got {len(beads)}"
        )
    for b, (row, start) in enumerate(zip(beads, initial, strict=True)):
        row = _list(f"live_beads[{b}]", row)
        if len(row) != len(start):
            raise PlayStateError(
                f"live_beads[{b}] must list {len(start)} bead counts, got {len(row)}: {row!r}"
            )
        for j, x in enumerate(row):
            if _number(f"live_beads[{b}][{j}]", x, floor) > MAX_BEADS:
                raise PlayStateError(f"live_beads[{b}][{j}] must be ≤ {MAX_BEADS:g}, got {x!r}")
        if not math.isfinite(sum(row)):
            raise PlayStateError(f"live_beads[{b}]: the bead total must be finite")
    return beads


def check_path(value: Any, initial: Sequence[Sequence[float]]) -> list[list[int]]:
    """The ``[box, colour]`` pairs MENACE drew this game."""
    path = _list("path", value)
    for k, step in enumerate(path):
        ok = (
            isinstance(step, (list, tuple))
            and len(step) == 2
            and all(_is_int(v) for v in step)
            and 0 <= step[0] < len(initial)
            and 0 <= step[1] < len(initial[step[0]])
        )
        if not ok:
            raise PlayStateError(f"path[{k}] must be [box, colour] of a real bead, got {step!r}")
    return path


def check_tally(value: Any) -> dict[str, int]:
    """Games won by MENACE, drawn and won by the reader: counts ≥ 0."""
    if not isinstance(value, dict) or sorted(value) != sorted(RESULT_TEXT):
        raise PlayStateError(
            f"tally must have exactly the keys {sorted(RESULT_TEXT)}, got {value!r}"
        )
    for key, n in value.items():
        if not _is_int(n) or n < 0:
            raise PlayStateError(f"tally[{key!r}] must be an integer ≥ 0, got {n!r}")
    return value


def check_seed(value: Any) -> int:
    """A widget's seed of the Philox stream: an integer in ``[0, 2**32)``."""
    if not _is_int(value):
        raise PlayStateError(f"seed must be an integer, got {value!r}")
    if not 0 <= value < 2**32:
        raise PlayStateError(f"seed must be in [0, 2**32), got {value!r}")
    return int(value)


def check_count(name: str, value: Any) -> int:
    if not _is_int(value) or value < 0:
        raise PlayStateError(f"{name} must be an integer ≥ 0, got {value!r}")
    return int(value)


def check_result(value: Any, board: Sequence[int], human: str) -> str:
    """A finished board carries its result, seen from MENACE's side (``human`` is the
    reader's side); an unfinished one has none, unless MENACE resigned."""
    allowed = ("", *RESULT_TEXT.values())
    if value not in allowed:
        raise PlayStateError(f"result must be one of {allowed}, got {value!r}")
    T = tables()
    outcome = int(T.outcome[T.id_of(tuple(board))])
    if outcome == ONGOING:
        return value
    menace = X if human == "O" else O
    key = {WIN: "menace", DRAW_RESULT: "draw", LOSS: "human"}[result_for(menace, outcome)]
    if value != RESULT_TEXT[key]:
        raise PlayStateError(
            f"result must be {RESULT_TEXT[key]!r} on this finished board, got {value!r}"
        )
    return value


def _optional_number(where: str, value: Any) -> None:
    if value is not None:
        _number(where, value, 0)


def check_last_draw(value: Any, initial: Sequence[Sequence[float]]) -> dict:
    """MENACE's latest move: {} before it moves, else square, box, colour, beads, p."""
    if not isinstance(value, dict):
        raise PlayStateError(f"last_draw must be an object, got {value!r}")
    if not value:
        return value
    keys = {"square", "box", "colour", "beads", "p"}
    if set(value) != keys:
        raise PlayStateError(f"last_draw must have exactly the keys {sorted(keys)}, got {value!r}")
    square, box, colour = value["square"], value["box"], value["colour"]
    if not _is_int(square) or not -2 <= square <= 8:
        raise PlayStateError(
            f"last_draw.square must be -2 (stopped), -1 (resigned) or 0-8, got {square!r}"
        )
    if not _is_int(box) or not -1 <= box < len(initial):
        raise PlayStateError(f"last_draw.box must be -1 or a box index, got {box!r}")
    size = len(initial[box]) if box >= 0 else 0
    if not _is_int(colour) or not -1 <= colour < max(size, 0):
        raise PlayStateError(f"last_draw.colour must be -1 or a colour of its box, got {colour!r}")
    _optional_number("last_draw.beads", value["beads"])
    _optional_number("last_draw.p", value["p"])
    if value["p"] is not None and value["p"] > 1:
        raise PlayStateError(f"last_draw.p must be ≤ 1, got {value['p']!r}")
    return value


def check_bead_changes(value: Any, initial: Sequence[Sequence[float]], floor: float) -> list:
    """The learning log of the last game: one entry per box MENACE drew from."""
    changes = _list("bead_changes", value)
    keys = {"box", "board", "colour", "square", "before", "after", "played", "move"}
    for k, c in enumerate(changes):
        where = f"bead_changes[{k}]"
        if not isinstance(c, dict) or set(c) != keys:
            raise PlayStateError(f"{where} must have exactly the keys {sorted(keys)}, got {c!r}")
        box, colour = c["box"], c["colour"]
        if not _is_int(box) or not 0 <= box < len(initial):
            raise PlayStateError(f"{where}.box must be a box index, got {box!r}")
        n = len(initial[box])
        if not _is_int(colour) or not 0 <= colour < n:
            raise PlayStateError(f"{where}.colour must be a colour of box {box}, got {colour!r}")
        for name in ("square", "move"):
            if not _is_int(c[name]) or not 0 <= c[name] <= 8:
                raise PlayStateError(f"{where}.{name} must be a square index 0-8, got {c[name]!r}")
        for name in ("board", "played"):
            text = c[name]
            if not isinstance(text, str) or len(text) != 9 or set(text) - set(".XO"):
                raise PlayStateError(f"{where}.{name} must be 9 of '.', 'X', 'O', got {text!r}")
        for name in ("before", "after"):
            row = _list(f"{where}.{name}", c[name])
            if len(row) != n:
                raise PlayStateError(f"{where}.{name} must list {n} bead counts, got {row!r}")
            for j, x in enumerate(row):
                _number(f"{where}.{name}[{j}]", x, floor)
    return changes


def check_agent_fits(agent: Menace, config: dict, side: str, first_checkpoint: int) -> None:
    """Refuse an agent the play widget cannot play as ``side``'s MENACE.

    The widget plays one box structure and one set of rules per side (those of its
    checkpoints, ``config`` in :meth:`Menace.to_dict` form), and counts games from its
    first checkpoint.
    """
    theirs = agent.to_dict()["config"]
    for key, ours in config.items():
        if theirs[key] != ours:
            raise ValueError(
                f"config.{key}: the play widget's {side} MENACE uses {ours!r}, "
                f"this agent has {theirs[key]!r}"
            )
    if agent.games_trained < first_checkpoint:
        raise ValueError(
            f"games_trained: the play widget counts from its first checkpoint "
            f"({first_checkpoint} games); this agent has trained {agent.games_trained}"
        )
