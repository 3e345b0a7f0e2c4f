"""``python -m menace_lib lab``: the MENACE lab's games, played by the library.

The lab widget plays its games in the browser from a seed; this command plays the same
games with the library's own rules (:class:`menace_lib.widgets.lab_games.LabSession`) and
prints what
the lab shows after them: the tally and the exact rates against the perfect and the
random player. ``--game hexapawn`` runs HER (Gardner's rule, or ``--rule michie``)
against a White of your choice; a game the lab cannot show is refused in one line.
"""

from __future__ import annotations

import argparse

from .arguments import add_json_option, count, seed
from .game_option import add_game_option
from .output import emit_json

EXAMPLES = """\
python -m menace_lib lab --games 200
python -m menace_lib lab --game hexapawn --opponent perfect --games 50 --seed 3
python -m menace_lib lab --game hexapawn --rule michie --json"""

MAX_LAB_GAMES = 100_000


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p)  # the lab shows noughts and crosses and hexapawn only
    p.add_argument(
        "--opponent",
        default=None,
        help="who MENACE plays: random, defensive (noughts and crosses), human-like "
        "(Hexapawn), perfect (the default) or menace (a second MENACE, learning too)",
    )
    p.add_argument(
        "--rule",
        choices=("gardner", "michie"),
        default=None,
        help="HER's learning rule (Hexapawn only; default gardner)",
    )
    p.add_argument(
        "--games",
        type=count(MAX_LAB_GAMES),
        default=100,
        help=f"games to play (default 100, at most {MAX_LAB_GAMES:,})",
    )
    p.add_argument("--seed", type=seed, default=1, help="the lab's seed (default 1)")
    add_json_option(p, "the lab's readout")


def settings_for(args: argparse.Namespace):
    """The lab's settings for the command line (one-line ValueError for a bad one)."""
    from ..widgets.lab_games import LAB_GAMES, lab_settings

    if args.game not in LAB_GAMES:
        raise ValueError(f"the lab cannot show {args.game}; it shows {' and '.join(LAB_GAMES)}")
    if args.rule is not None and args.game != "hexapawn":
        raise ValueError(f"--rule applies to --game hexapawn, not to {args.game}")
    if args.seed >= 2**32:
        raise ValueError(f"--seed {args.seed}: the lab's seeds run from 0 to 4,294,967,295")
    changes: dict = {"seed": args.seed}
    if args.opponent is not None:
        changes["opponent"] = args.opponent[:40]
    if args.rule == "michie":
        from ..agents.her import her_config

        c = her_config("michie")
        changes.update(
            schedule=c.schedule,
            reinforcement=c.reinforcement,
            restock=c.restock,
            credit=c.credit,
            empty_box=c.empty_box,
        )
    return lab_settings(args.game, **changes)


def run(args: argparse.Namespace) -> int:
    from ..widgets.lab_games import LabSession

    settings = settings_for(args)
    if settings.opponent == "human":
        raise ValueError("--opponent human: the reader plays in the browser; pick another")
    session = LabSession(settings)
    played = session.play(args.games)
    exact = session.exact(record=False)
    out = {
        "game": settings.game,
        "opponent": settings.opponent,
        "seed": settings.seed,
        "games": played,
        "stopped": session.stopped,
        "tally": dict(session.tally),
        "exact": {k: exact[k] for k in ("win", "draw", "loss", "win_random")},
    }
    if emit_json(args.json, out):
        return 0
    t = session.tally
    who = f"MENACE ({settings.side}) against {settings.opponent}"
    print(f"{settings.game}: {who}, seed {settings.seed}")
    print(
        f"games played       {played:,}"
        + (f" (stopped: {session.stopped})" if session.stopped else "")
    )
    print(f"won / drawn / lost {t['win']} / {t['draw']} / {t['loss']}")
    print(
        f"now, exactly       vs perfect: win {exact['win']:.3f}, draw {exact['draw']:.3f}, "
        f"loss {exact['loss']:.3f}; vs random: win {exact['win_random']:.3f}"
    )
    return 0
