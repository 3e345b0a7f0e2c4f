"""Open any matchbox and watch its beads change with training.

The reader picks one of the 338 canonical X-to-move positions (narrowed to the 304
``decision`` or 287 ``michie`` boxes by the filter) from a grid of board thumbnails and
sees its bead counts at each checkpoint as bars, with the Dirichlet mean, variance and
mutual information ``I(o; theta)`` of the bead counts, computed in the browser by
``efe_math.js``. Two MENACEs are on offer:

``"class"``
    The book's checkpoints (:mod:`menace_lib.play.checkpoints`, X side): move-class boxes
    after 25, 100, 1,000 and 5,000 games of pooled self-play, filter ``michie``.
``"square"``
    The thesis's layout (one bead colour per legal square) under each filter, after 0,
    25, 100 and 500 games: each checkpoint is its own run
    ``training.train(Menace(MenaceConfig(filter=f)), "mixed", n, default_rng(seed))``,
    the thesis's random -> defensive -> perfect curriculum at that budget.

A colour with no beads left is a Dirichlet component with ``alpha_i -> 0``: its mean and
variance are 0 and it drops out of the mutual information (the limit of the formula), so
statistics are computed over the colours that still hold beads.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import anywidget
import numpy as np
import traitlets as t

from ..games.board import (
    TRANSFORMS,
    X,
    board_to_text,
    move_classes,
    square_numbers,
    transform_board,
)
from ..games.registry import DEFAULT_GAME
from ..games.statespace import FILTERS, ONGOING, tables
from ..machine.engine import box_layout
from ..machine.menace import Menace, MenaceConfig
from ..machine.printed import kit_orientation, printed_layout
from ..maths.dirichlet import dirichlet_mean, dirichlet_variance, mutual_information
from ..play.training import train
from ._bundle import bundle, stylesheet
from ._checkpoints import checkpoint_agents

__all__ = ["SQUARE_CHECKPOINTS", "MatchboxInspector", "bead_statistics", "inspector_data"]

SQUARE_CHECKPOINTS = (0, 25, 100, 500)
SOURCES = ("class", "square")
RESETTABLE = ("source", "filter", "selected")


def _pieces(board: str) -> str:
    """Where the pieces are, squares numbered 1-9: "X on 1, 9; O on 5"."""
    cells = board.replace("/", "")
    parts = []
    for piece in "XO":
        squares = square_numbers(i for i, c in enumerate(cells) if c == piece)
        if squares:
            parts.append(f"{piece} on {', '.join(map(str, squares))}")
    return "; ".join(parts) or "empty board"


def _compact(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _digits(squares: Any) -> str:
    return "".join(str(s) for s in squares)


def bead_statistics(beads: Any) -> dict[str, Any]:
    """Total, Dirichlet mean and variance per colour, and ``I(o; theta)`` of one box.

    Colours without beads get mean and variance 0 and are left out of the mutual
    information (see the module docstring). An empty box has ``total`` 0 and no
    statistics (``None``).
    """
    w = np.asarray(beads, dtype=float)
    if w.ndim != 1 or w.size == 0 or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError(f"beads must be a non-empty list of counts >= 0, got {beads!r}")
    live = w > 0
    if not live.any():
        return {"total": 0.0, "mean": None, "variance": None, "mi": None}
    mean = np.zeros_like(w)
    variance = np.zeros_like(w)
    mean[live] = dirichlet_mean(w[live])
    variance[live] = dirichlet_variance(w[live])
    return {
        "total": float(w.sum()),
        "mean": mean.tolist(),
        "variance": variance.tolist(),
        "mi": float(mutual_information(w[live])),
    }


def _beads_by_state(agent: Menace, states: list[int]) -> list[list[float | int] | None]:
    return [
        [_compact(x) for x in agent.weights[agent.box_of[s]]] if s in agent.box_of else None
        for s in states
    ]


@cache
def _square_runs(seed: int) -> dict[str, dict[int, Menace]]:
    runs: dict[str, dict[int, Menace]] = {}
    for f in FILTERS:
        runs[f] = {}
        untrained = Menace(MenaceConfig(filter=f))
        for n in SQUARE_CHECKPOINTS:
            agent = untrained.copy()  # fresh beads, shared lookup tables (cheap)
            if n:
                train(agent, "mixed", n, np.random.default_rng(seed))
            agent.games_trained = n
            runs[f][n] = agent
    return runs


@cache
def inspector_data(seed: int = 0) -> dict[str, Any]:
    """The static payload of every :class:`MatchboxInspector` with this training seed.

    Returns
    -------
    dict
        ``boards`` (text of the 338 X-to-move positions up to symmetry, drawn and ordered
        as the printed kit draws and numbers its boxes: :mod:`menace_lib.machine.printed`),
        ``ply``, ``decision`` and ``michie`` (filter membership) over those positions;
        ``numbers``: per filter, each position's printed box number (null: no box);
        ``transforms``: the eight symmetries as square permutations
        (:data:`menace_lib.games.board.TRANSFORMS`), with which the page's search tries every
        orientation of a board;
        ``square``: ``entries`` (legal squares per box, on the printed drawing, so a
        square's number is its bead colour's index), ``checkpoints`` and ``beads``
        (per filter, per checkpoint, per position: bead list or null where the filter
        has no box); ``class``: ``members`` (move classes per position on the printed
        drawing, each ascending: its first square names its colour), ``checkpoints``,
        ``filter`` and ``beads`` likewise.
    """
    T = tables()
    # The kit's order and drawing (menace_lib.machine.printed): thumbnails stand in the
    # order of the printed boxes, drawn as their labels are, under every filter.
    printed = {f: printed_layout(DEFAULT_GAME, f, "square", X) for f in FILTERS}
    every = printed["all"]
    layout = box_layout(DEFAULT_GAME, "all", "square", X)
    states = [int(layout.states[b]) for b in every.order]
    decision = {int(s) for s in T.matchbox_states("decision", X)}
    michie = {int(s) for s in T.matchbox_states("michie", X)}
    runs = _square_runs(seed)
    class_agents = checkpoint_agents()["X"]
    class_filters = {a.config.filter for a in class_agents.values()}
    perms = [TRANSFORMS[every.transforms[b]] for b in every.order]

    numbers = {}  # per filter, per position: the printed box number (None: no box)
    for f, P in printed.items():
        box_of = box_layout(DEFAULT_GAME, f, "square", X).box_of
        numbers[f] = [P.numbers[box_of[s]] if s in box_of else None for s in states]

    def on_paper(squares, perm) -> str:
        return _digits(sorted(perm[q] for q in squares))

    return {
        "boards": [board_to_text(every.boards[b]) for b in every.order],
        "ply": [int(T.ply[s]) for s in states],
        "decision": [s in decision for s in states],
        "michie": [s in michie for s in states],
        "numbers": numbers,
        "transforms": [list(t) for t in TRANSFORMS],
        "square": {
            "entries": [
                "".join(str(perm[m]) for m in T.legal(s))
                for s, perm in zip(states, perms, strict=True)
            ],
            "checkpoints": list(SQUARE_CHECKPOINTS),
            "beads": {
                f: {str(n): _beads_by_state(runs[f][n], states) for n in SQUARE_CHECKPOINTS}
                for f in FILTERS
            },
        },
        "class": {
            "members": [
                "/".join(on_paper(c, perm) for c in move_classes(T.position(s)))
                for s, perm in zip(states, perms, strict=True)
            ],
            "checkpoints": sorted(class_agents),
            "filter": "/".join(sorted(class_filters)),
            "beads": {str(n): _beads_by_state(a, states) for n, a in sorted(class_agents.items())},
        },
        "seed": seed,
    }


class MatchboxInspector(anywidget.AnyWidget):
    """Pick a matchbox by its board; see its beads and Dirichlet statistics over training.

    Parameters
    ----------
    source
        ``"class"`` (the book's move-class checkpoints) or ``"square"`` (the thesis's
        square layout, trained at widget creation).
    filter
        ``"all"`` (338 boxes), ``"decision"`` (304) or ``"michie"`` (287): which
        positions the thumbnail grid offers (and, for ``"square"``, which MENACE).
    selected
        Index of the position in ``data["boards"]`` (0 = the empty board).
    seed
        Seed of the square-layout training runs.
    """

    _esm = bundle("inspector.js")
    _css = stylesheet()

    source = t.Unicode("class").tag(sync=True)
    filter = t.Unicode("michie").tag(sync=True)
    selected = t.Int(0).tag(sync=True)
    data = t.Dict().tag(sync=True)
    defaults = t.Dict().tag(sync=True)
    """The settings "Reset to defaults" restores: those the widget was built with."""

    def __init__(
        self,
        source: str = "class",
        filter: str = "michie",
        selected: int = 0,
        seed: int = 0,
        **kwargs: Any,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
        super().__init__(
            data=inspector_data(int(seed)),
            source=source,
            filter=filter,
            selected=selected,
            **kwargs,
        )
        self.defaults = {name: getattr(self, name) for name in RESETTABLE}

    def reset(self) -> None:
        """Back to the settings the widget was built with (its "Reset to defaults" button)."""
        for name in RESETTABLE:
            setattr(self, name, self.defaults[name])

    def __repr__(self) -> str:
        """A text form for where the widget cannot be drawn (a notebook not yet run)."""
        source = self.data[self.source]
        board = self.data["boards"][self.selected]
        where = ", ".join(str(n) for n in source["checkpoints"])
        layout = "move classes" if self.source == "class" else "one colour per square"
        shown = len(self.data["boards"]) if self.filter == "all" else sum(self.data[self.filter])
        lines = [
            f"MatchboxInspector: {shown} matchboxes (filter {self.filter}), MENACE with "
            f"{layout} after {where} games of training.",
            f"Open: the box of {board[:3]}/{board[3:6]}/{board[6:]} ({_pieces(board)}).",
        ]
        for n in source["checkpoints"]:
            beads = self.beads(n)
            counts = "no box" if beads is None else ", ".join(f"{b:g}" for b in beads)
            lines.append(f"  after {n:,} games: beads {counts}")
        lines.append("Interactive in a browser: run the notebook, or read the built book.")
        return "\n".join(lines)

    @t.validate("source")
    def _valid_source(self, proposal: t.Bunch) -> str:
        if proposal.value not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}, got {proposal.value!r}")
        return proposal.value

    @t.validate("filter")
    def _valid_filter(self, proposal: t.Bunch) -> str:
        if proposal.value not in FILTERS:
            raise ValueError(f"filter must be one of {FILTERS}, got {proposal.value!r}")
        return proposal.value

    @t.validate("selected")
    def _valid_selected(self, proposal: t.Bunch) -> int:
        n = len(self.data.get("boards", [])) if self.data else len(tables().player_states(1))
        if not 0 <= proposal.value < n:
            raise ValueError(f"selected must be a position index 0-{n - 1}, got {proposal.value!r}")
        return proposal.value

    def select(self, board: Any) -> int:
        """Select the box of any X-to-move position (raw boards are canonicalised).

        Parameters
        ----------
        board
            Board text such as ``"X.O/.X./..O"`` or a 9-tuple.

        Returns
        -------
        int
            The index now in :attr:`selected`.

        Raises
        ------
        ValueError
            If the position cannot arise, is over, or has O to move.
        """
        T = tables()
        pid = T.id_of(board)
        if T.outcome[pid] != ONGOING or T.player[pid] != X:
            raise ValueError(f"{T.text(pid)!r} is not a position with X to move")
        board = T.position(pid)  # its box is drawn as the kit prints it
        text = board_to_text(transform_board(kit_orientation(board), board))
        self.selected = self.data["boards"].index(text)
        return self.selected

    def beads(self, checkpoint: int, index: int | None = None) -> list[float] | None:
        """Bead counts of a position's box at ``checkpoint`` (None: no box there)."""
        index = self.selected if index is None else index
        source = self.data[self.source]
        if checkpoint not in source["checkpoints"]:
            raise ValueError(
                f"unknown checkpoint {checkpoint!r}; choose one of {source['checkpoints']}"
            )
        table = source["beads"] if self.source == "class" else source["beads"][self.filter]
        return table[str(checkpoint)][index]

    def statistics(self, index: int | None = None) -> dict[int, dict[str, Any] | None]:
        """Per checkpoint, :func:`bead_statistics` of the box (None where there is none)."""
        out = {}
        for n in self.data[self.source]["checkpoints"]:
            beads = self.beads(n, index)
            out[n] = None if beads is None else bead_statistics(beads)
        return out
