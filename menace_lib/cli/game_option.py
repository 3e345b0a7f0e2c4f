"""The ``--game`` option shared by the commands that know more than one game."""

from __future__ import annotations

import argparse

from ..base.limits import MAX_TABLE_CELLS
from ..games.registry import DEFAULT_GAME, GAME_NAMES


def add_game_option(
    p: argparse.ArgumentParser,
    *,
    connect4: bool = False,
    from_file: bool = False,
    max_cells: int | None = None,
) -> None:
    """``--game NAME``: noughts-and-crosses (the default) or hexapawn, and with
    ``connect4`` also ``connect4:WxH`` boards small enough to tabulate.

    With ``from_file`` the command reads an agent file, which names its game: the
    option's default is then ``None`` (the file's game, see :func:`load_agent_for`).
    ``max_cells`` is a kind's own cap on the board, named in the help.
    """
    cells = MAX_CONNECT4_CELLS if max_cells is None else min(max_cells, MAX_CONNECT4_CELLS)
    boards = "4x4" if cells < 20 else "4x4 to 5x4 or 4x5"
    default = None if from_file else DEFAULT_GAME
    said = "the agent file's game, else " if from_file else ""
    if not connect4:
        p.add_argument(
            "--game",
            choices=GAME_NAMES,
            default=default,
            help=f"the game (default {said}{DEFAULT_GAME}; hexapawn is Gardner's, HER's game)",
        )
        return
    p.add_argument(
        "--game",
        type=connect4_or_named,
        default=default,
        metavar="|".join((*GAME_NAMES, "connect4:WxH")),
        help=f"the game (default {said}{DEFAULT_GAME}; hexapawn is Gardner's, HER's game; "
        f"connect4:WxH is Connect-4 on a board of at most {cells} cells: {boards})",
    )


def load_agent_for(path: str, game: str | None):
    """The agent saved in ``path``, whose file names its game.

    ``game`` is the command's ``--game``: ``None`` (not given) takes the file's game;
    a game that contradicts the file is refused in one line. The file's game, its size
    and its entries' count are admitted (:func:`menace_lib.agents.registry.document_game`)
    before any table is built.
    """
    from ..agents.registry import agent_of, read_agent

    document = read_agent(path)
    held = document[1]
    if game is not None and held != game:
        raise ValueError(f"{path} holds a {held} agent, not --game {game}: leave out --game")
    return agent_of(document)


def game_of_file(path: str) -> str:
    """The game the agent file ``path`` names (admitted, nothing built)."""
    from ..agents.registry import read_agent

    return read_agent(path)[1]


def default_tie_break(game: str) -> str:
    """The perfect player's tie-break when ``--tie-break`` is not given: ``lowest`` in
    noughts and crosses (the thesis's), ``uniform`` in every other game (the HER
    chapter's perfect White, who varies its winning lines)."""
    return "lowest" if game == DEFAULT_GAME else "uniform"


TIE_BREAK_HELP = "default lowest in noughts and crosses, uniform in other games"


MAX_CONNECT4_CELLS = MAX_TABLE_CELLS
"""The largest Connect-4 board (cells) the commands tabulate: 5×4 or 4×5 (the library's
one cap, :data:`menace_lib.base.limits.MAX_TABLE_CELLS`)."""


def connect4_or_named(text: str) -> str:
    """A game name for ``--game``: a known game or a small ``connect4:WxH`` board,
    admitted by the library's one parser (:func:`menace_lib.games.registry.game_name`);
    the commands play four in a row on boards at least 4 wide and high."""
    from ..games.registry import CONNECT4, game_name

    m = CONNECT4.fullmatch(text)
    if m is not None:
        width, height = int(m[1]), int(m[2])
        if min(width, height) < 4 or width * height > MAX_CONNECT4_CELLS or m[3]:
            raise argparse.ArgumentTypeError(
                f"Connect-4 board {text[9:][:12]!r}: the commands play 4x4 to 5x4 or 4x5 "
                f"(at most {MAX_CONNECT4_CELLS} cells, four in a row)"
            )
    try:
        return game_name(text)  # the one spelling: connect4:04x4 is refused, not read
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("game ")) from None


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
