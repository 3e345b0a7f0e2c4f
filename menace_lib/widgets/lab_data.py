"""The game tables the MENACE lab ships to the browser, packed small.

The lab (``lab.js``) plays, learns and evaluates exactly in JavaScript, for any layout,
filter and side the reader picks, so it needs the whole game once. Everything here is
read from the library (:func:`menace_lib.games.statespace.tables`,
:func:`menace_lib.play.opponents.make_opponent`, :func:`menace_lib.games.board.move_classes`);
``lab_tables.js`` unpacks it and rebuilds MENACE's boxes the way
:class:`menace_lib.machine.menace.Menace` does (a node test checks every layout, filter and side).

Integer columns travel as fixed-width base-36 strings (``_pack``), about a third of the
size of a JSON list:

``codes``            width 3: base-3 code of each of the 5,478 positions, in id order
``outcome``          width 1: ``ONGOING``/``X_WIN``/``O_WIN``/``DRAW`` per position
``canon_transform``  width 1: the transform taking each position to its canonical image
``rank``             width 1 per position: ``-`` if it never holds a box (not canonical,
                     or the game is over), else the strictest filter that keeps it:
                     0 ``all``, 1 ``decision``, 2 ``michie`` (the filters nest)
``classes``          one string per ranked position, in id order: its move classes on the
                     canonical board, e.g. ``"0268/1357/4"``
``opponents``        per opponent, width 2: a 9-bit mask of the squares it picks from
                     uniformly in each position (0 where the game is over)
``transforms``       the 8 symmetries as digit strings (``TRANSFORMS``), ``inverse`` their
                     inverses
``printed``          the printed kit (:mod:`menace_lib.machine.printed`): ``transform``,
                     one digit per ranked position, the symmetry that draws its box as
                     the kit does (a colour is the lowest printed square of its class);
                     ``numbers``, per ``"<filter>/<side>"``, width 2: each box's number
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from ..games.board import INVERSE, TRANSFORMS, move_classes
from ..games.registry import DEFAULT_GAME
from ..games.statespace import FILTERS, ONGOING, tables
from ..machine.beads import EMPTY_BOX_RULES, RESTOCKS
from ..machine.engine import box_layout
from ..machine.menace import LAYOUTS
from ..machine.printed import printed_layout
from ..play.opponents import TIE_BREAKS, make_opponent

__all__ = ["LAB_OPPONENTS", "lab_data", "opponent_key", "pack", "unpack"]

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
LAB_OPPONENTS = ("random", "defensive", "perfect")
"""The scripted opponents the lab offers (the perfect one under each tie-break)."""


def pack(values: Iterable[int], width: int) -> str:
    """Non-negative integers as fixed-width base-36 digits, concatenated.

    Raises
    ------
    ValueError
        If a value is negative or needs more than ``width`` digits.
    """
    out = []
    limit = 36**width
    for v in values:
        v = int(v)
        if not 0 <= v < limit:
            raise ValueError(f"cannot pack {v} in {width} base-36 digit(s)")
        digits = []
        for _ in range(width):
            v, d = divmod(v, 36)
            digits.append(DIGITS[d])
        out.append("".join(reversed(digits)))
    return "".join(out)


def unpack(text: str, width: int) -> list[int]:
    """The inverse of :func:`pack`."""
    if len(text) % width:
        raise ValueError(f"packed text of length {len(text)} is not a multiple of {width}")
    return [int(text[i : i + width], 36) for i in range(0, len(text), width)]


def opponent_key(name: str, tie_break: str = "lowest") -> str:
    """Key of an opponent in the payload: ``"random"``, ``"perfect-uniform"``, ..."""
    return f"perfect-{tie_break}" if name == "perfect" else name


def _ranks() -> list[str]:
    T = tables()
    rank = ["-"] * T.n_positions
    for level, f in enumerate(FILTERS):
        for player in (1, 2):
            for s in T.matchbox_states(f, player):
                rank[int(s)] = str(level)
    return rank


def _masks(name: str, tie_break: str) -> str:
    choices = make_opponent(name, tie_break).choices
    return pack((sum(1 << m for m in c) for c in choices), 2)


def _printed(rank: list[str]) -> dict[str, Any]:
    """The printed kit's numbers and drawings, packed (see the module docstring)."""
    T = tables()
    transform = ["-"] * T.n_positions
    numbers = {}
    for f in FILTERS:
        for player in (1, 2):
            by_layout = [printed_layout(DEFAULT_GAME, f, layout, player) for layout in LAYOUTS]
            # A box's number does not depend on the layout (nor its drawing): one list.
            assert all(P.numbers == by_layout[0].numbers for P in by_layout), f
            P = by_layout[0]
            states = box_layout(DEFAULT_GAME, f, LAYOUTS[0], player).states
            for b, s in enumerate(states):
                transform[s] = str(P.transforms[b])
            numbers[f"{f}/{player}"] = pack(P.numbers, 2)
    return {
        "transform": "".join(t for t, r in zip(transform, rank, strict=True) if r != "-"),
        "numbers": numbers,
    }


@cache
def lab_data() -> dict[str, Any]:
    """The static payload of every lab widget (see the module docstring)."""
    T = tables()
    rank = _ranks()
    classes = [
        "/".join("".join(str(m) for m in cls) for cls in move_classes(T.position(pid)))
        for pid in range(T.n_positions)
        if rank[pid] != "-"
    ]
    opponents = {}
    for name in LAB_OPPONENTS:
        for tie_break in TIE_BREAKS if name == "perfect" else ("lowest",):
            opponents[opponent_key(name, tie_break)] = _masks(name, tie_break)
    return {
        "n": T.n_positions,
        "codes": pack(T.codes, 3),
        "outcome": pack(T.outcome, 1),
        "ongoing": ONGOING,
        "canon_transform": pack(T.canon_transform, 1),
        "rank": "".join(rank),
        "classes": classes,
        "opponents": opponents,
        "transforms": ["".join(str(v) for v in t) for t in TRANSFORMS],
        "inverse": list(INVERSE),
        "filters": list(FILTERS),
        "layouts": list(LAYOUTS),
        "restocks": list(RESTOCKS),
        "empty_box_rules": list(EMPTY_BOX_RULES),
        "tie_breaks": list(TIE_BREAKS),
        "printed": _printed(rank),
    }
