"""``python -m menace_lib kit``: print a matchbox kit, one label per box, as a PDF."""

from __future__ import annotations

import argparse

from ..files import check_distinct_files
from ..menace import LAYOUTS
from ..statespace import FILTERS
from .arguments import add_json_option, output_file
from .game_option import add_game_option, refuse_for_game
from .output import emit_json

EXAMPLES = """\
python -m menace_lib kit --output kit.pdf
python -m menace_lib kit --layout square --filter all --paper letter --output kit.pdf
python -m menace_lib kit --from agent.json --output trained-kit.pdf
python -m menace_lib kit --output - > kit.pdf"""


def configure(p: argparse.ArgumentParser) -> None:
    add_game_option(p)
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
        metavar="FILE",
        help="print this agent file's current beads (written by `train` or the play widget)",
    )
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="default a4")
    p.add_argument(
        "--output", type=output_file, required=True, help="where to write the PDF ('-': stdout)"
    )
    add_json_option(p, "a summary")


def run(args: argparse.Namespace) -> int:
    if args.game == "hexapawn":
        return _her_kit(args)
    from ..board import O, X
    from ..kit import kit_agent, write_kit

    check_distinct_files({"--output": args.output}, {"--from": args.source})
    player = {"X": X, "O": O, None: None}[args.player]
    if args.source is None:
        agent = kit_agent(args.layout or "class", args.filter or "michie", player or X)
    else:
        agent = _menace_from(args.source)
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
    summary = write_kit(agent, args.output, args.paper, source=args.source, option="--output")
    if not emit_json(
        args.json,
        {
            "output": str(summary.path),
            "paper": summary.paper,
            "labels": summary.labels,
            "pages": summary.pages,
            "beads": summary.beads,
        },
    ):
        print(
            f"{summary.labels} labels on {summary.pages} pages ({summary.paper}), "
            f"{summary.beads:g} beads -> {summary.path}"
        )
    return 0


def _menace_from(source: str):
    """The MENACE saved in ``source``; any other kind of agent is refused by name."""
    from ..agents import load_agent
    from ..menace import Menace

    agent = load_agent(source)
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
        },
    )
    from ..kit_hexapawn import write_her_kit

    kit = write_her_kit(args.output, args.paper, option="--output")
    summary = {"output": str(kit.path), "pages": kit.pages, "boxes": kit.boxes, "beads": kit.beads}
    if not emit_json(args.json, summary):
        print(f"wrote {kit.path}: {kit.pages} pages, {kit.boxes} box fronts, beads {kit.beads}")
    return 0
