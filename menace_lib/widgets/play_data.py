"""The data a play widget ships to the browser, built once from the library.

Everything ``play.js`` needs travels in :func:`play_data` (the ``data`` trait):

* ``sides``: per side (``"X"``, ``"O"``), for every raw position where that MENACE moves,
  the box it opens (``-1``: forced move or a position without a box), the raw square each
  bead colour plays and the raw squares of each colour's move class; per box, its
  canonical board (``boxes``, as agent files name it) and the board as the printed kit
  draws it (``drawings``), the canonical square of each bead colour (``entries``), the
  kit's box number (``numbers``) and each bead's colour index into
  ``BEAD_COLOURS`` (``colours``), both from :mod:`menace_lib.machine.printed`, so the widget
  names a box and a bead as its label does; initial beads and move-restock counts
  (``refill``);
  the bead counts and ``games_trained`` of every checkpoint; and the whole
  :class:`~menace_lib.machine.menace.MenaceConfig` (as
  :meth:`~menace_lib.machine.menace.Menace.to_dict`
  writes it: reinforcement, restock, clamp level ``floor``, ``move_restock_beads``,
  layout, filter, schedule, player), so learning in the browser follows the checkpoint's
  own rules;
* ``terminals``: every finished position with its outcome;
* ``lines``: the eight winning lines (:data:`menace_lib.games.board.LINES`);
* ``defaults``: the settings "Reset to defaults" restores;
* ``max_beads``: the largest bead count (:data:`menace_lib.base.limits.MAX_BEADS`);
* ``agent_file``: the agent-file format, version, default config, JSON Schema
  (:mod:`menace_lib.schemas`) and the browser's size cap, which its export and import
  use (mirroring :meth:`Menace.to_dict` and :meth:`Menace.from_dict`).

Positions are keyed by their base-3 code (:attr:`menace_lib.games.game.Tables.codes`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..base.limits import MAX_BEADS
from ..games.board import INVERSE, LINES, TRANSFORMS, board_to_text
from ..games.statespace import ONGOING, tables
from ..machine.menace import FORMAT, FORMAT_VERSION, Menace
from ..machine.printed import printed
from ..schemas import schema_for
from ._checkpoints import checkpoint_agents
from .play_state import SIDES

__all__ = [
    "DEFAULTS",
    "MAX_AGENT_FILE_BYTES",
    "checkpoint_games",
    "play_data",
    "side_lookup",
    "terminal_table",
]

DEFAULTS: dict[str, Any] = {
    "checkpoint": 1000,
    "human": "O",
    "auto": False,
    "learn": False,
    "seed": 0,
}
"""The play widget's settings when it is made without arguments, or reset."""

MAX_AGENT_FILE_BYTES = 1_000_000
"""Largest agent file the browser imports (a real one is about 22 kB; 40 kB in the
square layout): anything bigger is refused before it is parsed."""


def _compact(value: float) -> float | int:
    """Whole bead counts travel as ints (shorter JSON, and "4" not "4.0" on screen)."""
    return int(value) if float(value).is_integer() else float(value)


def _beads(agent: Menace) -> list[list[float | int]]:
    return [[_compact(x) for x in w] for w in agent.weights]


def _digits(squares: tuple[int, ...] | list[int]) -> str:
    return "".join(str(s) for s in squares)


def checkpoint_games() -> list[int]:
    """Checkpoints a reader can choose (games of training), ascending."""
    agents = checkpoint_agents()
    common = set(agents["X"]) & set(agents["O"])
    return sorted(common)


def side_lookup(agent: Menace) -> dict[str, list]:
    """What the browser needs to move for ``agent`` in any raw position.

    Returns
    -------
    dict
        Parallel lists over the raw, ongoing positions with ``agent``'s side to move:
        ``codes`` (base-3 position codes), ``box`` (box index or -1), ``squares`` (digit
        string: the raw square each bead colour plays, or the fallback moves where there
        is no box) and ``members`` (the raw squares of each colour's move class, classes
        separated by "/" and each starting with the colour's own square; one square per
        class where there is no box).
    """
    T = tables()
    codes, boxes, squares, members = [], [], [], []
    for pid, raw in enumerate(agent.raw_squares):
        if not raw:
            continue  # not this side's move, or the game is over
        b = agent.raw_box[pid]
        codes.append(int(T.codes[pid]))
        boxes.append(b)
        squares.append(_digits(raw))
        if b < 0:
            members.append("/".join(str(s) for s in raw))
            continue
        # The box's classes live on the canonical board; map them back to this one.
        back = TRANSFORMS[INVERSE[int(T.canon_transform[pid])]]
        members.append("/".join(_digits([back[m] for m in cls]) for cls in agent.members[b]))
    return {"codes": codes, "box": boxes, "squares": squares, "members": members}


def terminal_table() -> dict[str, list[int]]:
    """Codes of all terminal positions and their outcome (1 X wins, 2 O wins, 3 draw)."""
    T = tables()
    ids = np.flatnonzero(T.outcome != ONGOING)
    return {"codes": T.codes[ids].tolist(), "outcome": T.outcome[ids].tolist()}


def _side_data(agents: dict[int, Menace]) -> dict[str, Any]:
    """One side's payload; every checkpoint of a side must share one configuration."""
    first = agents[min(agents)]
    config = first.to_dict()["config"]
    for n, agent in sorted(agents.items()):
        theirs = agent.to_dict()["config"]
        if theirs != config:
            diff = sorted(k for k in config if theirs[k] != config[k])
            raise ValueError(
                f"checkpoint {n} of {config['player']} differs from checkpoint {min(agents)} "
                f"in {diff}: the play widget needs one configuration per side"
            )
    T = tables()
    P = printed(first)
    return {
        "lookup": side_lookup(first),
        "boxes": [board_to_text(T.cells[s]) for s in first.states],
        "drawings": [board_to_text(board) for board in P.boards],
        "entries": [_digits(e) for e in first.entries],
        "numbers": list(P.numbers),
        "colours": [_digits(c) for c in P.colours],
        "initial": [[_compact(x) for x in w] for w in first.initial],
        "refill": [[_compact(x) for x in w] for w in first.move_refill],
        "beads": {str(n): _beads(agent) for n, agent in sorted(agents.items())},
        "games_trained": {str(n): agent.games_trained for n, agent in sorted(agents.items())},
        "config": config,
    }


@cache
def play_data() -> dict[str, Any]:
    """The static payload of every :class:`~menace_lib.widgets.PlayWidget` (built once)."""
    agents = checkpoint_agents()
    games = checkpoint_games()
    if DEFAULTS["checkpoint"] not in games:
        raise ValueError(f"default checkpoint {DEFAULTS['checkpoint']} is not among {games}")
    return {
        "checkpoints": games,
        "sides": {side: _side_data({n: agents[side][n] for n in games}) for side in SIDES},
        "terminals": terminal_table(),
        "lines": [list(line) for line in LINES],
        "max_beads": MAX_BEADS,
        "defaults": dict(DEFAULTS),
        "agent_file": {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "config_defaults": Menace().to_dict()["config"],
            "schema": schema_for(FORMAT, FORMAT_VERSION),
            "max_bytes": MAX_AGENT_FILE_BYTES,
        },
    }
