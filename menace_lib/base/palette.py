"""The book's one palette and one vocabulary: every colour and every name a reader sees.

Each agent kind, each bead colour, each game result and each scripted player has exactly
one colour and one name, defined here and read by every figure (:mod:`menace_lib.book.plotting`
and the figure modules), the widgets (``widgets/common.js`` and ``widgets/widgets.css``
copy the values; ``tests/test_palette.py`` checks the copies) and the printable kit
(:mod:`menace_lib.kit.noughts` prints :data:`BEAD_COLOUR_NAMES` next to every swatch).
Which colour a bead of a given box gets is decided once, by :mod:`menace_lib.machine.printed`.

Colours are Okabe & Ito's (2008) "Color Universal Design" set, distinguishable under the
common forms of colour blindness, extended by three colours of Paul Tol's muted scheme
where eight agents need eight colours. Lines of one agent kind under several settings
(Pure AIF at three values of λ, say) share the kind's colour and differ by
:data:`LINESTYLES`, so a colour always means the same agent.

Squares are numbered 0..8 inside the library and 1..9 for readers
(:func:`square_name`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# --- Okabe & Ito ---------------------------------------------------------------------
BLACK = "#000000"
ORANGE = "#E69F00"
SKY = "#56B4E9"
GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"
OKABE_ITO = (ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK)

# --- three of Paul Tol's muted colours -------------------------------------------------
ROSE = "#882255"
OLIVE = "#999933"
TOL_ROSE = "#CC6677"

# Mid-grey reads on white and on near-black backgrounds alike (3.9:1 and 4.6:1: enough for
# lines and marks, not for small text). Reference lines and "not an agent" marks.
GREY = "#808080"
# Text colour per page theme, each over 13:1 on its page (white; the dark theme's #121212).
INK = {"light": "#262626", "dark": "#dcdcdc"}

# --- game results (from the learner's side) and the two players ------------------------
WIN = GREEN
DRAW = ORANGE
LOSS = VERMILLION
RESULT_COLOURS = (WIN, DRAW, LOSS)
RESULT_NAMES = ("win", "draw", "loss")
X_COLOUR = BLUE
O_COLOUR = PURPLE
HIGHLIGHT = YELLOW
MARK = VERMILLION
ACCENT = SKY

# --- beads -----------------------------------------------------------------------------
# One colour per square: a bead that plays square i (0..8) of a box's printed drawing is
# drawn in BEAD_COLOURS[i] (menace_lib.machine.printed), so a reader can follow "the
# top-left bead" across the kit, the widgets and the figures. The 7 non-black Okabe--Ito
# colours, then mid-grey and Tol's rose.
BEAD_COLOURS = (ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, "#999999", ROSE)
# Plain names for the same colours, as a class would buy beads; the widgets and the kit
# print them next to every swatch, so no one has to tell the colours apart by eye alone.
BEAD_COLOUR_NAMES = (
    "orange",
    "sky blue",
    "green",
    "yellow",
    "blue",
    "vermillion",
    "pink",
    "grey",
    "rose",
)
# Games with more move ids than colours (Hexapawn: 27) colour a box's k-th move (in the
# box's order): vermillion, blue, green, orange, the HER kit's four colours.
MOVE_ORDER_COLOURS = (5, 4, 2, 0)
# Michie's layout: one colour per move class of the empty board (figures of the opening
# box). The same colours as the squares they stand for: corner = square 1, edge = square
# 2, centre = square 5.
MOVE_CLASS_COLOURS = {"corner": BEAD_COLOURS[0], "edge": BEAD_COLOURS[1], "centre": BEAD_COLOURS[4]}


class AgentStyle(NamedTuple):
    """How a reader sees one agent kind: its name and its colour."""

    name: str
    colour: str


# Every agent kind of the registry (menace_lib.agents) plus the scripted players. The
# order is the book's order of presentation (legends, keys).
AGENTS: dict[str, AgentStyle] = {
    "menace": AgentStyle("MENACE", BLUE),
    "instrumental": AgentStyle("Instrumental AIF", ORANGE),
    "hybrid": AgentStyle("Hybrid AIF", GREEN),
    "pure": AgentStyle("Pure AIF", VERMILLION),
    "oracle": AgentStyle("Oracle AIF", PURPLE),
    "forgetful": AgentStyle("Forgetful AIF", TOL_ROSE),
    "qlearning": AgentStyle("Q-learning", SKY),
    "sarsa": AgentStyle("SARSA", OLIVE),
    "unsymmetrised": AgentStyle("unsymmetrised MENACE", ROSE),
    "pegasus": AgentStyle("computer MENACE (1963)", GREY),
    "selfplay": AgentStyle("self-play MENACE", BLUE),
}
# The scripted opponents, by the names readers see ("perfect" names the perfect player
# everywhere; the library's regimen name for it is "optimal").
PLAYERS: dict[str, AgentStyle] = {
    "perfect": AgentStyle("perfect", INK["light"]),
    "random": AgentStyle("random", GREY),
    "defensive": AgentStyle("defensive", GREY),
}
_PLAYER_ALIASES = {"optimal": "perfect", "minimax": "perfect"}
# Several settings of one agent kind: the kind's colour, one line style per setting.
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)))


def _agent(kind: str) -> AgentStyle:
    if kind in AGENTS:
        return AGENTS[kind]
    player = _PLAYER_ALIASES.get(kind, kind)
    if player in PLAYERS:
        return PLAYERS[player]
    known = ", ".join([*AGENTS, *PLAYERS])
    raise ValueError(f"unknown agent kind {kind!r}; known kinds: {known}")


def agent_colour(kind: str) -> str:
    """The one colour of agent ``kind`` (``"menace"``, ``"pure"``, ``"perfect"``, ...)."""
    return _agent(kind).colour


def agent_name(kind: str) -> str:
    """The one name readers see for agent ``kind`` (``"pure"`` -> ``"Pure AIF"``)."""
    return _agent(kind).name


def regimen_name(regimen: str) -> str:
    """The training regimen as readers see it: ``"optimal"`` (the library's old name for
    training against the perfect player) -> ``"perfect"``; other regimens keep their name."""
    if not isinstance(regimen, str):
        raise ValueError(f"regimen must be a string, got {regimen!r}")
    return _PLAYER_ALIASES.get(regimen, regimen)


# Configuration fields as readers see them in tables (the thesis's symbols and words).
PARAMETER_NAMES: dict[str, str] = {
    "lam": "λ",
    "lambda_policy": "temperature",
    "beta_amb": "β",
    "filter": "boxes",
    "restock": "restock",
    "opponent_model": "model",
    "learning_rate": "α",
    "discount": "γ",
    "epsilon": "ε",
    "min_epsilon": "least ε",
    "epsilon_decay": "ε decay",
    "defensive": "defensive player",
}


def parameter_name(field: str) -> str:
    """A configuration field as readers see it: ``"lam"`` -> ``"λ"``; others unchanged
    except that underscores become spaces."""
    return PARAMETER_NAMES.get(field, field.replace("_", " "))


def linestyle(index: int) -> str | tuple:
    """The line style of the ``index``-th setting of one agent kind (0 = solid)."""
    if not isinstance(index, (int, np.integer)) or index < 0:
        raise ValueError(f"index must be a non-negative integer, got {index!r}")
    return LINESTYLES[int(index) % len(LINESTYLES)]


def _square(square: int) -> int:
    if not isinstance(square, (int, np.integer)) or not 0 <= square <= 8:
        raise ValueError(f"square must be an integer 0..8, got {square!r}")
    return int(square)


def bead_colour(square: int) -> str:
    """The colour of the bead that plays ``square`` (0..8 inside the library)."""
    return BEAD_COLOURS[_square(square)]


def bead_colour_name(square: int) -> str:
    """The plain name of the bead colour that plays ``square`` (0..8)."""
    return BEAD_COLOUR_NAMES[_square(square)]


def square_name(square: int) -> str:
    """The square as readers count it: library square 0..8 -> ``"1"``..``"9"``."""
    return str(_square(square) + 1)


__all__ = [
    "ACCENT",
    "AGENTS",
    "BEAD_COLOURS",
    "BEAD_COLOUR_NAMES",
    "BLACK",
    "BLUE",
    "DRAW",
    "GREEN",
    "GREY",
    "HIGHLIGHT",
    "INK",
    "LINESTYLES",
    "LOSS",
    "MARK",
    "MOVE_CLASS_COLOURS",
    "MOVE_ORDER_COLOURS",
    "OKABE_ITO",
    "OLIVE",
    "ORANGE",
    "O_COLOUR",
    "PARAMETER_NAMES",
    "PLAYERS",
    "PURPLE",
    "RESULT_COLOURS",
    "RESULT_NAMES",
    "ROSE",
    "SKY",
    "TOL_ROSE",
    "VERMILLION",
    "WIN",
    "X_COLOUR",
    "YELLOW",
    "AgentStyle",
    "agent_colour",
    "agent_name",
    "bead_colour",
    "bead_colour_name",
    "linestyle",
    "parameter_name",
    "regimen_name",
    "square_name",
]
