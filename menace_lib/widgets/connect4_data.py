"""The Connect-4 widget's data: a trained 4×4 MENACE in a few kilobytes of integers.

A MENACE for Connect-4 on 4 columns × 4 rows has 27,761 boxes (one per canonical
position where the first player has a choice), far too many to send to a page box by
box. Most of them are never opened in training: a box the machine never drew from
still holds its schedule's beads, which the browser can work out from the position
alone (its number of stones and its free columns). So the page gets only the boxes
whose beads training changed, keyed by their canonical bitboard code
(:mod:`menace_lib.games.connect4`: the smaller code of a position and its mirror image):

* ``codes``: the sorted codes, as the first code and then the gaps between neighbours;
* ``beads``: their bead counts, one after another, one count per free column of the
  box's canonical position, from the left.

Everything else -- the rules, the symmetry, which positions get a box and their
starting beads -- the widget's JavaScript (``connect4.js``) computes from the board;
``tests/test_connect4_widget.py`` checks it against the library over all 161,029
positions. :func:`build_data` trains the machine (``scripts/make_connect4_widget.py``
writes the packaged file), :func:`load_data` reads and checks that file once and
:func:`menace_from_data` turns data back into a library
:class:`~menace_lib.machine.menace.Menace` with the same beads (:func:`trained_menace`: the
packaged one, built once).
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..base.files import AgentFileError, check_header, read_json
from ..games.registry import game_tables, get_game
from ..machine.engine import box_layout
from ..machine.menace import Menace, MenaceConfig
from ..play.evaluation import exact_outcome
from ..play.opponents import make_opponent

FORMAT = "menace_lib.connect4_widget"
VERSION = 1
GAME = "connect4:4x4"
DATA_FILE = Path(__file__).resolve().parents[1] / "data" / "connect4_4x4.json"
MAX_DATA_BYTES = 200_000
"""The packaged file is about 40 kB; anything far larger is not this widget's data."""
TRAINING = {"opponent": "perfect", "tie_break": "uniform", "games": 20_000, "seed": 0}
"""How the packaged MENACE was trained (as ``python -m menace_lib play --game connect4:4x4``)."""
CONFIG_KEYS = ("schedule", "reinforcement", "restock", "empty_box", "floor", "filter", "layout")

__all__ = [
    "DATA_FILE",
    "FORMAT",
    "GAME",
    "TRAINING",
    "VERSION",
    "build_data",
    "config_of",
    "load_data",
    "menace_from_data",
    "read_data",
    "trained_menace",
]


def _config() -> MenaceConfig:
    return MenaceConfig(game=GAME, filter="decision")


def _box_codes(agent: Menace) -> list[int]:
    """The canonical code of each box of ``agent``."""
    codes = agent.tables.codes
    return [int(codes[s]) for s in agent.states]


def _compact(x: float) -> int:
    if not float(x).is_integer():
        raise ValueError(f"bead count {x!r} is not whole: the widget's data holds integers")
    return int(x)


def encode_beads(agent: Menace) -> dict[str, list[int]]:
    """``codes`` (first code, then gaps) and flat ``beads`` of the boxes training changed."""
    changed = sorted(
        (code, w)
        for code, w, w0 in zip(_box_codes(agent), agent.weights, agent.initial, strict=True)
        if w != w0
    )
    codes = [c for c, _ in changed]
    gaps = [c - p for p, c in zip([0, *codes[:-1]], codes, strict=True)]
    return {"codes": gaps, "beads": [_compact(x) for _, w in changed for x in w]}


def build_data(games: int = TRAINING["games"], seed: int = TRAINING["seed"]) -> dict[str, Any]:
    """Train the widget's MENACE against the perfect player and encode it.

    ``games`` training games with ``numpy.random.default_rng(seed)``; the result also
    carries the machine's exact win/draw/loss rates against the perfect player.
    """
    agent = Menace(_config())
    trainer = make_opponent(TRAINING["opponent"], TRAINING["tie_break"], game=GAME)
    agent.train_against(trainer, games, np.random.default_rng(seed), record=False)
    game = get_game(GAME)
    cfg = asdict(agent.config)
    rates = exact_outcome(agent.frozen_copy(), TRAINING["opponent"], TRAINING["tie_break"])
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "width": game.width,
        "height": game.height,
        "line": game.line,
        "player": agent.config.player,
        "config": {k: _plain(cfg[k]) for k in CONFIG_KEYS},
        "training": {**TRAINING, "games": games, "seed": seed},
        "boxes": agent.n_boxes,
        "exact": rates,
        **encode_beads(agent),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def config_of(data: dict[str, Any]) -> MenaceConfig:
    """The :class:`MenaceConfig` the data's MENACE was built with."""
    cfg = data["config"]
    return MenaceConfig(
        game=data["game"],
        player=data["player"],
        **{k: tuple(cfg[k]) if isinstance(cfg[k], list) else cfg[k] for k in CONFIG_KEYS},
    )


def _decode_codes(gaps: list[int]) -> np.ndarray:
    return np.cumsum(np.asarray(gaps, dtype=np.int64))


def _boxes(data: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The box index and the number of colours of each listed code, checked.

    Raises
    ------
    ValueError
        If a code is not one of the machine's boxes, or the bead list does not have one
        count per colour of those boxes.
    """
    cfg = config_of(data)
    layout = box_layout(cfg.game, cfg.filter, cfg.layout, cfg.player)
    T = game_tables(cfg.game)
    codes = _decode_codes(data["codes"])
    ids = T.code_to_id.lookup(codes)  # all at once, -1 for a code no position has
    absent = ids < 0
    if absent.any():
        raise ValueError(f"code {codes[absent][0]} is not a position of {cfg.game}")
    box_of_state = np.full(T.n_positions, -1, dtype=np.int64)
    box_of_state[np.asarray(layout.states, dtype=np.int64)] = np.arange(layout.n_boxes)
    boxes = box_of_state[ids]
    if (boxes < 0).any():
        raise ValueError(f"code {codes[boxes < 0][0]} is not a box of the {cfg.game} MENACE")
    sizes = [len(layout.entries[b]) for b in boxes.tolist()]
    if sum(sizes) != len(data["beads"]):
        raise ValueError(f"beads: {len(data['beads'])} counts, the listed boxes hold {sum(sizes)}")
    return boxes.tolist(), sizes


def menace_from_data(data: dict[str, Any]) -> Menace:
    """A library MENACE holding exactly the data's beads (every other box at its schedule).

    Raises
    ------
    ValueError
        As :func:`read_data`'s checks.
    """
    agent = Menace(config_of(data))
    beads = data["beads"]
    at = 0
    for box, n in zip(*_boxes(data), strict=True):
        agent.weights[box] = [float(x) for x in beads[at : at + n]]
        at += n
    agent.games_trained = int(data["training"]["games"])
    return agent


def read_data(path: Path, *, check_boxes: bool = True) -> dict[str, Any]:
    """Read and check a widget data file (see the module docstring).

    ``check_boxes=False`` skips the check of every code against the machine's boxes (it
    needs the box layout, about a second to build): :func:`menace_from_data` makes it
    anyway, and the browser checks each box's colours as it unpacks them.

    Raises
    ------
    AgentFileError
        If the file is not this widget's data or its beads do not fit the machine.
    """
    doc = read_json(path, "Connect-4 widget data", max_bytes=MAX_DATA_BYTES)
    check_header(doc, FORMAT, VERSION, "Connect-4 widget data")
    if doc.get("game") != GAME:
        raise AgentFileError(f"game: expected {GAME!r}, got {doc.get('game')!r}")
    for key in ("codes", "beads"):
        values = doc.get(key)
        if not isinstance(values, list) or not all(type(v) is int and v >= 0 for v in values):
            raise AgentFileError(f"{key}: expected a list of whole numbers >= 0")
    if not check_boxes:
        return doc
    try:
        _boxes(doc)
    except (ValueError, KeyError, TypeError) as err:
        raise AgentFileError(f"Connect-4 widget data: {err}") from None
    return doc


@cache
def load_data() -> dict[str, Any]:
    """The packaged widget data, read once (shared: do not change it).

    Its boxes are checked by :func:`trained_menace` and by the tests, not here, so a
    page can show the widget without building the machine's layout.
    """
    return read_data(DATA_FILE, check_boxes=False)


@cache
def trained_menace() -> Menace:
    """The packaged MENACE, built once (shared: copy it before changing its beads)."""
    return menace_from_data(load_data())
