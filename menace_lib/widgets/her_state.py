"""Checks of the HER widget's synced state: the browser's messages are input too.

A live kernel receives the HER widget's state from the browser, and a saved notebook
carries it in its metadata; either can be damaged or hostile. Each check raises
:class:`~menace_lib.widgets.play_state.PlayStateError` (a ``TraitError``, so traitlets
rolls the change back, and a ``ValueError``) naming the trait, the bad value and the
limit, before the value can reach the game tables or the bead rules.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from ..agents.her import RULES, her_config
from ..base.limits import MAX_BEADS
from ..games.game import ONGOING
from ..games.registry import game_tables
from ..machine.menace import Menace
from .play_state import PlayStateError

__all__ = [
    "HER_RESULTS",
    "MAX_DRAWS",
    "MAX_RECORD",
    "check_beads",
    "check_draws",
    "check_last_draw",
    "check_moves",
    "check_path",
    "check_record",
    "check_result",
    "check_tally",
]

GAME = "hexapawn"
HER_RESULTS = ("HER wins", "You win")
"""What the widget announces when a game ends."""
MAX_DRAWS = 2**62
"""Numbers of the seed's stream a session may have read (far beyond any real session)."""
MAX_RECORD = 100_000
"""Finished games a session may record."""


def _is_int(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@cache
def _colours() -> tuple[int, ...]:
    """Colours per box of HER (the same boxes under either rule)."""
    return tuple(len(w) for w in Menace(her_config(RULES[0])).initial)


def check_draws(value: Any) -> int:
    """The position in the seed's stream: an integer in ``[0, MAX_DRAWS)``."""
    if not _is_int(value) or not 0 <= value < MAX_DRAWS:
        raise PlayStateError(f"draws must be an integer in [0, 2**62), got {_show(value)}")
    return int(value)


def check_moves(value: Any) -> list[int]:
    """The game so far: legal moves from the start, none after the game has ended."""
    T = game_tables(GAME)
    if not isinstance(value, list) or len(value) > int(T.ply.max()):
        raise PlayStateError(
            f"moves must be a list of at most {int(T.ply.max())} moves, got {_show(value)}"
        )
    pid = 0
    for i, move in enumerate(value):
        if int(T.outcome[pid]) != ONGOING:
            raise PlayStateError(f"moves[{i}] comes after the end of the game: {_show(value)}")
        if not _is_int(move) or not 0 <= move < T.succ.shape[1] or T.succ[pid, move] < 0:
            raise PlayStateError(f"moves[{i}] is not a legal move there: {_show(move)}")
        pid = int(T.succ[pid, move])
    return [int(m) for m in value]


def check_path(value: Any) -> list[list[int]]:
    """HER's draws this game: at most one per HER move, each a (box, colour) of HER's."""
    colours = _colours()
    if not isinstance(value, list) or len(value) > int(game_tables(GAME).ply.max()) // 2:
        raise PlayStateError(f"path must be a short list of [box, colour], got {_show(value)}")
    for i, pair in enumerate(value):
        ok = isinstance(pair, list) and len(pair) == 2 and all(_is_int(x) for x in pair)
        if not ok or not 0 <= pair[0] < len(colours) or not 0 <= pair[1] < colours[pair[0]]:
            raise PlayStateError(
                f"path[{i}] must be [box, colour] of one of HER's {len(colours)} boxes, "
                f"got {_show(pair)}"
            )
    return [[int(b), int(j)] for b, j in value]


def check_beads(value: Any) -> list[list[float]]:
    """HER's live beads: one list per box, one count per colour, each in [0, MAX_BEADS]."""
    colours = _colours()
    if not isinstance(value, list) or len(value) != len(colours):
        raise PlayStateError(f"beads must list HER's {len(colours)} boxes, got {_show(value)}")
    for b, (box, k) in enumerate(zip(value, colours, strict=True)):
        if not isinstance(box, list) or len(box) != k:
            raise PlayStateError(f"beads[{b}] must hold {k} counts, got {_show(box)}")
        for j, x in enumerate(box):
            real = isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
            if not real or not math.isfinite(x) or not 0 <= x <= MAX_BEADS:
                raise PlayStateError(
                    f"beads[{b}][{j}] must be a number in [0, {MAX_BEADS}], got {_show(x)}"
                )
    return value


def check_result(value: Any) -> str:
    """``""`` while a game is on, else what the widget announced."""
    if value not in ("", *HER_RESULTS):
        raise PlayStateError(f"result must be one of {('', *HER_RESULTS)}, got {_show(value)}")
    return value


def check_tally(value: Any) -> dict[str, int]:
    """Games won by HER and by the reader: counts ≥ 0."""
    if not isinstance(value, dict) or sorted(value) != ["her", "human"]:
        raise PlayStateError(f"tally must have exactly the keys her, human; got {_show(value)}")
    for key, n in value.items():
        if not _is_int(n) or not 0 <= n <= MAX_RECORD:
            raise PlayStateError(f"tally[{key!r}] must be in [0, {MAX_RECORD}], got {_show(n)}")
    return {k: int(n) for k, n in value.items()}


def check_record(value: Any) -> list[list[int]]:
    """White's moves in each finished game (at most :data:`MAX_RECORD` games)."""
    T = game_tables(GAME)
    longest = (int(T.ply.max()) + 1) // 2
    if not isinstance(value, list) or len(value) > MAX_RECORD:
        raise PlayStateError(f"record must be a list of at most {MAX_RECORD} games")
    for i, game in enumerate(value):
        if not isinstance(game, list) or len(game) > longest:
            raise PlayStateError(f"record[{i}] must list at most {longest} moves: {_show(game)}")
        if not all(_is_int(m) and 0 <= m < T.succ.shape[1] for m in game):
            raise PlayStateError(f"record[{i}] holds a move that is no move: {_show(game)}")
    return value


def check_last_draw(value: Any) -> dict[str, int]:
    """HER's latest move: ``{}``, or its move, box and colour (colour -1: it resigned)."""
    if value == {}:
        return value
    colours = _colours()
    keys_ok = isinstance(value, dict) and sorted(value) == ["box", "colour", "move"]
    if not keys_ok or not all(_is_int(v) for v in value.values()):
        raise PlayStateError(f"last_draw must be {{move, box, colour}} integers: {_show(value)}")
    box, colour = value["box"], value["colour"]
    in_box = box == -1 == colour or (0 <= box < len(colours) and -1 <= colour < colours[box])
    if not in_box:
        raise PlayStateError(f"last_draw names no bead of HER's boxes: {_show(value)}")
    if not -1 <= value["move"] < game_tables(GAME).succ.shape[1]:
        raise PlayStateError(f"last_draw's move is no move: {_show(value)}")
    return {k: int(v) for k, v in value.items()}
