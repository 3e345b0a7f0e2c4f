"""The library's documented upper limits, in one place.

Each limit is far above any real use and exists so that absurd input is refused
at once with a clear message, instead of running until killed, overflowing to
infinity, or eating all memory. The JSON Schemas in :mod:`menace_lib.schemas`
repeat the numeric ones (a test checks they agree).

=========================  =================  ==============================================
Name                       Value              What it bounds
=========================  =================  ==============================================
``MAX_BEADS``              10^12              any bead count: schedule, clamp level, refill,
                                              every colour (training caps counts here);
                                              AIF bead scale and Dirichlet counts
``MAX_REINFORCEMENT``      10^6               ``|win|``, ``|draw|``, ``|loss|`` reinforcement;
                                              RL rewards and initial Q
``MAX_WEIGHT``             10^12              a weight that multiplies counts or
                                              information: λ and the λ schedule's κ
``MAX_SCHEDULE_LENGTH``    9                  entries in a bead schedule (one per move number)
``MAX_GAMES``              10^7               games in one command or one training call
``MAX_ROUNDS``             10^5               tournament rounds
``MAX_SUITE_GAMES``        10^8               training games in one experiment run, summed
                                              over conditions and seeds
``MAX_SEEDS``              10^4               seeds in one experiment run
``MAX_SEED``               2^63 - 1           a seed
``MAX_CURVE_POINTS``       10^4               exact-evaluation checkpoints per run
``MAX_JOBS``               256                parallel workers (``--jobs``; negative
                                              counts back from the CPU count, as in joblib)
``MAX_GAMES_TRAINED``      2^53               the games counter stored in an agent file
``MAX_FILE_BYTES``         64 MiB             the size of a file the library reads
``MAX_TABLE_CELLS``        20                 cells of a board the library tabulates (every
                                              position enumerated): Connect-4 5x4 or 4x5
``MAX_TREE_CELLS``         16                 cells of a board the Active Inference kinds
                                              with a game tree learn (Connect-4 4x4)
``MAX_WORK``               10^9               a command's estimated total work, in games
                                              (one exact evaluation counts as
                                              ``EXACT_EVALUATION_WORK`` = 100 games); more
                                              needs ``--i-know-this-is-huge``
=========================  =================  ==============================================

With every count at most ``MAX_BEADS`` a box of at most nine colours holds at most
9·10^12 beads, so bead totals stay finite and whole beads stay exact in a float.
"""

from __future__ import annotations

import math
from numbers import Real

__all__ = [
    "MAX_BEADS",
    "MAX_CURVE_POINTS",
    "MAX_FILE_BYTES",
    "MAX_GAMES",
    "MAX_GAMES_TRAINED",
    "MAX_JOBS",
    "MAX_REINFORCEMENT",
    "MAX_ROUNDS",
    "MAX_SCHEDULE_LENGTH",
    "MAX_SEED",
    "MAX_SEEDS",
    "MAX_SUITE_GAMES",
    "MAX_TABLE_CELLS",
    "MAX_TREE_CELLS",
    "MAX_WEIGHT",
    "MAX_WORK",
    "EXACT_EVALUATION_WORK",
    "SECONDS_PER_WORK",
    "HUGE_OPTION",
    "WorkBudgetError",
    "evaluation_work",
    "check_work",
    "check_count",
    "check_number",
]

MAX_BEADS = 1e12
MAX_REINFORCEMENT = 1e6
MAX_WEIGHT = 1e12
MAX_SCHEDULE_LENGTH = 9
MAX_GAMES = 10_000_000
MAX_ROUNDS = 100_000
MAX_SUITE_GAMES = 100_000_000
MAX_SEEDS = 10_000
MAX_SEED = 2**63 - 1
MAX_CURVE_POINTS = 10_000
MAX_JOBS = 256
MAX_GAMES_TRAINED = 2**53
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_TABLE_CELLS = 20  # 5x4 Connect-4: 3.9 M positions, tabulated in about 11 s
MAX_TREE_CELLS = 16  # 4x4: an AIF tree over 5x4's positions needs over 4 GB in Python sets
MAX_WORK = 1_000_000_000
EXACT_EVALUATION_WORK = 100
HUGE_OPTION = "--i-know-this-is-huge"
SECONDS_PER_WORK = 1e-4  # one unit of work (a game) on one core, roughly: for the cost line

# The work budget. One training or validation game is one unit of work; one exact
# evaluation (every reachable position against one opponent) costs about 60 MENACE
# games (measured: 8.7 ms against 142 µs per game), counted as 100. At 10-150 µs a
# game, MAX_WORK is several hours to about a day of one core: 40 times the largest
# published run (tune-priors' default, about 2.5·10^7), far below the absurd
# products every single option allows (10^7 games × an evaluation after each).


EXACT_EVALUATION_POSITIONS = 5478
"""Positions of noughts and crosses, the game :data:`EXACT_EVALUATION_WORK` was measured on."""


def evaluation_work(positions: int) -> int:
    """Exact evaluations of noughts and crosses that one exact evaluation of a game of
    ``positions`` positions costs (an evaluation visits every position once): 1 for
    noughts and crosses and smaller games, 29 for Connect-4 4x4, 720 for 5x4."""
    return max(1, -(-int(positions) // EXACT_EVALUATION_POSITIONS))


class WorkBudgetError(ValueError):
    """A command whose estimated total work is over :data:`MAX_WORK`."""


def check_work(
    what: str, games: int, exact_evaluations: int = 0, *, allow_huge: bool = False
) -> int:
    """The estimated work ``games + exact_evaluations · EXACT_EVALUATION_WORK``, checked.

    Parameters
    ----------
    what
        The command or call, for the message (``"train menace"``).
    games
        Games to train, validate or play, in total.
    exact_evaluations
        Exact evaluations (one opponent each), in total.
    allow_huge
        Skip the budget (the command line's ``--i-know-this-is-huge``).

    Raises
    ------
    WorkBudgetError
        Saying the estimate, what it is made of, the budget and the way past it.
    """
    work = games + exact_evaluations * EXACT_EVALUATION_WORK
    if work > MAX_WORK and not allow_huge:
        parts = f"{games:,} games"
        if exact_evaluations:
            parts += f" + {exact_evaluations:,} exact evaluations × {EXACT_EVALUATION_WORK}"
        raise WorkBudgetError(
            f"{what}: estimated work {work:,} game-equivalents ({parts}) is over the budget "
            f"of {MAX_WORK:,} (about a day of one core); pass {HUGE_OPTION} to run it anyway"
        )
    return work


def check_count(name: str, value: object, maximum: int, *, minimum: int = 0) -> int:
    """``value`` if it is an integer in ``[minimum, maximum]``, else a ValueError naming it.

    Parameters
    ----------
    name
        What is counted, as the caller knows it (``"games"``, ``"--rounds"``).
    value
        The count; ``bool`` and non-integral numbers are refused.
    maximum, minimum
        Inclusive bounds (usually one of this module's limits, and 0 or 1).
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"{name} must be a whole number, got {_show(value)}")
    count = value.__index__()
    if not minimum <= count <= maximum:
        raise ValueError(f"{name} must be from {minimum:,} to {maximum:,}, got {count:,}")
    return count


def check_number(
    name: str, value: object, *, minimum: float | None = None, maximum: float | None = None
) -> float:
    """``value`` as a float if it is a finite real number in ``[minimum, maximum]``.

    Raises
    ------
    ValueError
        Naming ``name`` and the value; ``bool``, text, NaN, infinities and integers
        beyond a float's range are refused.
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a finite number, got {_show(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond a float's range
        raise ValueError(f"{name} must be a finite number, got an integer that large") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {_show(value)}")
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be ≥ {minimum:g}, got {_show(value)}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be ≤ {maximum:g}, got {_show(value)}")
    return number


def _show(value: object, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters for a one-line message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
