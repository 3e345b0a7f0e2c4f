"""The ``--game`` option shared by the commands that know more than one game."""

from __future__ import annotations

import argparse

from ..game_registry import DEFAULT_GAME, GAME_NAMES


def add_game_option(p: argparse.ArgumentParser) -> None:
    """``--game NAME``: noughts-and-crosses (the default) or hexapawn."""
    p.add_argument(
        "--game",
        choices=GAME_NAMES,
        default=DEFAULT_GAME,
        help=f"the game (default {DEFAULT_GAME}; hexapawn is Gardner's, HER's game)",
    )


def refuse_for_game(args: argparse.Namespace, allowed: tuple[str, ...], **given) -> None:
    """A one-line error when an option was given that ``args.game`` does not support.

    ``given`` maps an option's name (``"--regimen"``) to whether it was given.
    """
    if args.game in allowed:
        return
    for option, was_given in given.items():
        if was_given:
            raise ValueError(
                f"{option} does not apply to --game {args.game}; it applies to "
                f"{' and '.join(allowed)}"
            )
