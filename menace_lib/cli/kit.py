"""``python -m menace_lib kit``: print a matchbox kit, one label per box, as a PDF."""

from __future__ import annotations

import argparse

from ..base.files import check_distinct_files
from ..games.statespace import FILTERS
from ..machine.menace import LAYOUTS
from .arguments import add_json_option, input_file, output_file
from .game_option import add_game_option, refuse_for_game
from .output import emit_json

EXAMPLES = """\
python -m menace_lib kit --output kit.pdf
python -m menace_lib kit --layout square --filter all --paper letter --output kit.pdf
python -m menace_lib kit --from agent.json --output trained-kit.pdf
python -m menace_lib kit --moves 1-2 --label-size small --output kit12.pdf
python -m menace_lib kit --output - > kit.pdf"""


def _label_size(text: str) -> tuple[float, float]:
    from ..kit.options import parse_label_size

    try:
        return parse_label_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _moves(text: str) -> tuple[int, int]:
    from ..kit.options import parse_moves

    try:
        return parse_moves(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p, from_file=True)
    p.add_argument(
        "--layout",
        choices=LAYOUTS,
        help="bead colours per move class (class, Michie's: the default) or per square",
    )
    p.add_argument(
        "--filter",
        choices=FILTERS,
        help="which positions get a box: michie 287 (default), decision 304, all 338",
    )
    p.add_argument("--player", choices=["X", "O"], help="the side MENACE plays (default X)")
    p.add_argument(
        "--from",
        dest="source",
        type=input_file("--from"),
        metavar="FILE",
        help="print this agent file's current beads (written by `train` or the play widget)",
    )
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="default a4")
    p.add_argument(
        "--label-size",
        type=_label_size,
        default=None,
        metavar="SIZE",
        help="large (63.5x50.8 mm, the default), small (50x35 mm, a small matchbox) or "
        "WIDTHxHEIGHT in mm, from 40x28 to 90x70",
    )
    p.add_argument(
        "--moves",
        type=_moves,
        metavar="FIRST-LAST",
        help="only the boxes of MENACE's moves FIRST to LAST, e.g. 1-2 (13 boxes); the "
        "instructions say how the operator plays the other moves (default: every move)",
    )
    p.add_argument(
        "--output", type=output_file, required=True, help="where to write the PDF ('-': stdout)"
    )
    add_json_option(p, "a summary")


def run(args: argparse.Namespace) -> int:
    if args.game == "hexapawn":
        return _her_kit(args)
    from ..games.board import O, X

    check_distinct_files({"--output": args.output}, {"--from": args.source})
    player = {"X": X, "O": O, None: None}[args.player]
    # The file is read (or refused) before the kit's plotting imports: refusing a file the
    # kit cannot print costs no matplotlib import.
    agent = None if args.source is None else _menace_from(args.source, args.game)
    from ..kit.noughts import kit_agent, write_kit

    if agent is None:
        agent = kit_agent(args.layout or "class", args.filter or "michie", player or X)
    else:
        cfg = agent.config
        for option, given, stored in (
            ("--layout", args.layout, cfg.layout),
            ("--filter", args.filter, cfg.filter),
            ("--player", args.player, "XO"[cfg.player - 1]),
        ):
            if given is not None and given != stored:
                raise ValueError(
                    f"{option} {given} does not match the agent file's {stored!r}: "
                    f"leave {option} out when printing from --from {args.source}"
                )
    summary = write_kit(
        agent,
        args.output,
        args.paper,
        source=args.source,
        option="--output",
        moves=args.moves,
        label_size=args.label_size or _label_size("large"),
    )
    if not emit_json(
        args.json,
        {
            "output": str(summary.path),
            "paper": summary.paper,
            "labels": summary.labels,
            "pages": summary.pages,
            "beads": summary.beads,
            "label_size_mm": list(summary.label_size),
            "moves": list(summary.moves),
        },
    ):
        print(
            f"{summary.labels} labels of {summary.label_size[0]:g}x{summary.label_size[1]:g} mm "
            f"on {summary.pages} pages ({summary.paper}), {summary.beads:g} beads -> "
            f"{summary.path}"
        )
    return 0


def _menace_from(source: str, game: str | None = None):
    """The noughts-and-crosses MENACE saved in ``source``; any other kind of agent, or
    an agent of another game, is refused by name (its game read from the file first)."""
    from ..machine.menace import Menace
    from .game_option import game_of_file, load_agent_for

    held = game_of_file(source)
    if held != "noughts-and-crosses":
        raise ValueError(
            f"--from {source}: the kit prints noughts-and-crosses MENACE's matchboxes, but "
            f"this file holds a {held} agent (kit --game hexapawn prints HER's kit, "
            "without --from)"
        )
    agent = load_agent_for(source, game)
    kind = getattr(agent, "FORMAT", "?")
    if kind != Menace.FORMAT:
        raise ValueError(
            f"--from {source}: the kit prints MENACE's matchboxes, but this file holds a "
            f"{kind!r} agent; `train menace` or `train selfplay` writes a MENACE"
        )
    return agent


def _her_kit(args: argparse.Namespace) -> int:
    """``kit --game hexapawn``: HER's rule card and 19 box fronts (:mod:`..kit_hexapawn`)."""
    refuse_for_game(
        args,
        ("noughts-and-crosses",),
        **{
            "--layout": args.layout is not None,
            "--filter": args.filter is not None,
            "--player": args.player is not None,
            "--from": args.source is not None,
            "--moves": args.moves is not None,
            "--label-size": args.label_size is not None,
        },
    )
    from ..kit.hexapawn import write_her_kit

    kit = write_her_kit(args.output, args.paper, option="--output")
    summary = {"output": str(kit.path), "pages": kit.pages, "boxes": kit.boxes, "beads": kit.beads}
    if not emit_json(args.json, summary):
        print(f"wrote {kit.path}: {kit.pages} pages, {kit.boxes} box fronts, beads {kit.beads}")
    return 0
