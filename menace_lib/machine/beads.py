"""The bead rules of a matchbox, each defined once.

Every MENACE in the library -- the matchbox agent, its table-driven fast loop, the
Active Inference agents' boxes, the other machines, the bead ledger and the widgets'
JavaScript (``widgets/beads.js``) -- follows these rules. The fast loop and the
JavaScript are deliberate copies; ``tests/test_rule_parity.py`` checks them against
this module over the whole option grid.

Vocabulary
----------
weights
    One box's bead counts, one number per colour (a colour is a move).
draw
    ``t = u * Σw`` for a uniform ``u`` in ``[0, 1)``; the first colour with ``t < w``
    wins, scanning colours in ascending order (the thesis code's sampler).
update
    After a game every colour drawn gains ``delta`` beads: the reinforcement for the
    result (win, draw, loss), by default ``(+3, +1, -1)``.
credit
    Which drawn colours the update touches: ``"every"`` colour drawn in the game
    (Michie's rule) or only the ``"last"`` one (Gardner's HER: on a loss only the bead
    of the machine's last move is confiscated; with reinforcement ``(0, 0, -1)``
    nothing else ever changes).
clamp level
    ``floor``: a colour that would fall to or below it is set to it (0 in the thesis
    code; the MENACE Decomposition Algorithm's ``ε > 0`` keeps every move playable).
ceiling
    ``MAX_BEADS`` (10^12, :mod:`menace_lib.base.limits`): a colour that would rise above it
    stops there, so every bead total stays finite (no real run comes near it).
restock
    ``"none"``: nothing refills. ``"move"``: a colour that falls to the clamp level is
    reset to its refill count (its initial count, or ``move_restock_beads``).
    ``"box"``: a box left with no beads is refilled with its initial beads -- after a
    losing update, and before a draw.
empty box
    What MENACE does when it must draw from a box with no beads and nothing refills
    it (``restock="none"``): ``"resign"`` (concede the game, a loss: the physical
    machine), ``"stop"`` (end the training run there: the thesis pipeline) or
    ``"web"`` (stop if the empty box is MENACE's opening box, resign at any other:
    Scroggs' web MENACE).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.limits import MAX_BEADS
from ..games.agent import RESIGN, STOP

RESTOCKS = ("none", "move", "box")
CREDITS = ("every", "last")
EMPTY_BOX_RULES = ("resign", "stop", "web")

__all__ = [
    "CREDITS",
    "EMPTY_BOX_RULES",
    "RESTOCKS",
    "draw_bead",
    "empty_box_move",
    "is_empty",
    "refill_empty",
    "reinforce",
    "scan_beads",
]


def scan_beads(weights: Sequence[float], t: float) -> int:
    """The colour that a point ``t`` in ``[0, Σw)`` falls on, scanning in order.

    Rounding can leave ``t`` past the end; then the last colour with beads wins.
    """
    for j, w in enumerate(weights):
        if t < w:
            return j
        t -= w
    return max((j for j, w in enumerate(weights) if w > 0), default=0)


def draw_bead(weights: Sequence[float], u: float) -> int:
    """Draw one bead from a box that holds some, for a uniform ``u`` in ``[0, 1)``.

    Why a processor cannot change the drawn bead: MENACE's weights are bead counts (sums
    of the schedule's and the reinforcement's dyadic numbers), so every machine adds them
    to the same bit. An Active Inference agent's weights come through ``exp`` and may
    differ in the last bit between numpy's SIMD kernels; the drawn colour then changes
    only if ``u * total`` falls within about one ulp of a cumulative boundary, a chance of
    about ``2**-52`` per draw (one in ten million over every draw of every stored result).
    ``scripts/rerun_stored.py`` and ``make test-baseline`` check it: see
    :mod:`menace_lib.base.reproducibility`.
    """
    return scan_beads(weights, u * sum(weights))


def is_empty(weights: Sequence[float]) -> bool:
    """Whether a box holds no beads at all."""
    return sum(weights) <= 0


def refill_empty(weights: list[float], initial: Sequence[float], restock: str) -> float | None:
    """Before a draw: refill an empty box with its initial beads unless restock is "none".

    Returns the beads added (0 if the box was not empty), or ``None`` if the box is
    empty and stays so -- then :func:`empty_box_move` decides.
    """
    if not is_empty(weights):
        return 0.0
    if restock == "none":
        return None
    added = sum(initial) - sum(weights)
    weights[:] = initial
    return added


def empty_box_move(rule: str, opening: bool) -> int:
    """What MENACE plays at an empty box that nothing refills: RESIGN or STOP.

    Parameters
    ----------
    rule
        One of :data:`EMPTY_BOX_RULES`.
    opening
        Whether the box is the one MENACE opens for its first move of the game.
    """
    if rule == "resign" or (rule == "web" and not opening):
        return RESIGN
    if rule in ("stop", "web"):
        return STOP
    raise ValueError(f"unknown empty-box rule {rule!r}; choose one of {EMPTY_BOX_RULES}")


def reinforce(
    weights: list[list[float]],
    initial: Sequence[Sequence[float]],
    refill: Sequence[Sequence[float]],
    path: Sequence[tuple[int, int]],
    delta: float,
    restock: str,
    floor: float,
    credit: str = "every",
) -> float:
    """Apply the end-of-game update to the ``(box, colour)`` pairs drawn, in place.

    Parameters
    ----------
    weights
        Every box's bead counts; changed in place.
    initial
        Every box's initial counts (what box restock refills).
    refill
        Every colour's move-restock count (the initial counts, or a fixed number).
    path
        The ``(box, colour)`` pairs drawn in the game, in order.
    delta
        The reinforcement for the game's result.
    restock, floor
        The restock mode and the clamp level.
    credit
        ``"every"`` pair of the path is updated, or only the ``"last"`` one.

    Returns
    -------
    float
        The change in the total number of beads.
    """
    if credit not in CREDITS:
        raise ValueError(f"unknown credit {credit!r}; choose one of {CREDITS}")
    if credit == "last":
        path = path[-1:]
    change = 0.0
    for b, j in path:
        w = weights[b]
        old = w[j]
        new = old + delta
        if new <= floor:
            new = refill[b][j] if restock == "move" else floor
        elif new > MAX_BEADS:
            new = MAX_BEADS
        w[j] = new
        change += new - old
    if restock == "box" and delta < 0:
        for b, _ in path:
            w = weights[b]
            if is_empty(w):
                change += sum(initial[b]) - sum(w)
                w[:] = initial[b]
    return change
