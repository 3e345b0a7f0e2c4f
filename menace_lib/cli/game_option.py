"""The ``--game`` option shared by the commands that know more than one game."""

from __future__ import annotations

import argparse

from ..games.registry import DEFAULT_GAME, GAME_NAMES


def add_game_option(p: argparse.ArgumentParser, *, connect4: bool = False) -> None:
    """``--game NAME``: noughts-and-crosses (the default) or hexapawn, and with
    ``connect4`` also ``connect4:WxH`` boards small enough to tabulate."""
    if not connect4:
        p.add_argument(
            "--game",
            choices=GAME_NAMES,
            default=DEFAULT_GAME,
            help=f"the game (default {DEFAULT_GAME}; hexapawn is Gardner's, HER's game)",
        )
        return
    p.add_argument(
        "--game",
        type=connect4_or_named,
        default=DEFAULT_GAME,
        metavar="|".join((*GAME_NAMES, "connect4:WxH")),
        help=f"the game (default {DEFAULT_GAME}; hexapawn is Gardner's, HER's game; "
        f"connect4:WxH is Connect-4 on a board of at most {MAX_CONNECT4_CELLS} cells)",
    )


def load_agent_for(path: str, game: str):
    """The agent saved in ``path``, or a one-line error when it plays a game other than
    ``game`` (the command's ``--game``), saying which game to give."""
    from ..agents.registry import load_agent

    agent = load_agent(path)
    held = getattr(agent, "game", DEFAULT_GAME)
    if held != game and game == DEFAULT_GAME:
        raise ValueError(f"{path} holds a {held} agent: add --game {held}")
    if held != game:
        raise ValueError(f"{path} holds a {held} agent, not --game {game}")
    return agent


def default_tie_break(game: str) -> str:
    """The perfect player's tie-break when ``--tie-break`` is not given: ``lowest`` in
    noughts and crosses (the thesis's), ``uniform`` in every other game (the HER
    chapter's perfect White, who varies its winning lines)."""
    return "lowest" if game == DEFAULT_GAME else "uniform"


TIE_BREAK_HELP = "default lowest in noughts and crosses, uniform in other games"


MAX_CONNECT4_CELLS = 20
"""The largest Connect-4 board (cells) the commands tabulate: 5×4 or 4×5."""


def connect4_or_named(text: str) -> str:
    """A game name for ``--game``: a known game or a small ``connect4:WxH`` board."""
    from ..games.registry import CONNECT4

    if text in GAME_NAMES:
        return text
    m = CONNECT4.fullmatch(text)
    if m is None:
        raise argparse.ArgumentTypeError(
            f"unknown game {text[:40]!r}; choose {', '.join(GAME_NAMES)} or connect4:WxH"
        )
    width, height = int(m[1]), int(m[2])
    if min(width, height) < 4 or width * height > MAX_CONNECT4_CELLS or m[3]:
        raise argparse.ArgumentTypeError(
            f"Connect-4 board {text[9:][:12]!r}: the commands play 4x4 to 5x4 or 4x5 "
            f"(at most {MAX_CONNECT4_CELLS} cells, four in a row)"
        )
    return text


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
