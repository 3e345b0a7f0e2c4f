"""``python -m menace_lib train KIND``: train an agent of any kind and save it as JSON.

Each kind of the registry (:func:`menace_lib.agents.registry.agent_kinds`) is a sub-command
with its own settings (``train hybrid --help`` lists only the Hybrid agent's; see
:mod:`.agent_options`). A kind trains through a regimen of scripted opponents, or, if
it trains itself (``selfplay``: MENACE against a pool of learning MENACEs), by its own
recipe. The agent is saved with :func:`menace_lib.agents.registry.save_agent`,
so ``evaluate`` and :func:`menace_lib.agents.registry.load_agent` read every file.

Learning curves
---------------
``--curve N`` evaluates the agent exactly against the perfect, random and defensive
players every ``N`` training games and after the last one
(:func:`menace_lib.play.learning_curve.train_with_curve`). The curve is printed as a
table, or included under ``"curve"`` in the ``--json`` summary. ``--curve-json PATH``
also writes it to a file as JSON (``LearningCurve.to_dict``: ``games``, the marks, and
``rates[opponent][win|draw|loss]``, one number per mark), and ``--csv PATH`` as CSV,
one row per mark: ``games``, then ``<opponent>_<win|draw|loss>`` for each opponent.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from ..agents.registry import AgentKind, agent_kinds, get_kind
from ..base.display import markdown_table
from ..base.files import STDOUT, check_distinct_files
from ..base.limits import MAX_GAMES, check_work
from ..play.opponents import REGIMEN_ALIASES, REGIMENS, TIE_BREAKS, regimen_name
from .agent_options import add_kind_options, given_params
from .arguments import add_huge_option, add_json_option, count, output_file, seed
from .game_option import TIE_BREAK_HELP, add_game_option, default_tie_break
from .output import emit_json, write_csv

EXAMPLES = """\
python -m menace_lib train menace --games 500 --regimen mixed --seed 0 --output agent.json
python -m menace_lib train menace --curve 50 --csv curve.csv --output agent.json
python -m menace_lib train hybrid --lam 0.7 --regimen optimal --output hybrid.json
python -m menace_lib train qlearning --alpha 0.3 --gamma 0.9 --games 5000 --output q.json
python -m menace_lib train selfplay --games 2000 --output selfplay.json
python -m menace_lib train menace --games 200 --output - | gzip > agent.json.gz"""
CURVE_OPPONENTS = ("perfect", "random", "defensive")


def configure(p: argparse.ArgumentParser) -> None:
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    for name, kind in agent_kinds().items():
        # No abbreviations: `instrumental --lam` must not be read as --lambda-policy.
        sub = kinds.add_parser(
            name, help=kind.help, description=f"Train {kind.help}.", allow_abbrev=False
        )
        _training_options(sub, regimen=kind.trains is None, max_cells=kind.max_cells)
        add_kind_options(sub, kind)


def _training_options(
    p: argparse.ArgumentParser, *, regimen: bool, max_cells: int | None = None
) -> None:
    g = p.add_argument_group("training")
    add_game_option(g, connect4=True, max_cells=max_cells)
    g.add_argument(
        "--games", type=count(MAX_GAMES), default=500, help="training games (default 500)"
    )
    if regimen:
        g.add_argument(
            "--regimen",
            choices=(*REGIMENS, *REGIMEN_ALIASES),
            help="training opponents: one scripted player, or mixed (the thesis's "
            "random → defensive → perfect, 40/20/40; the default; for hexapawn perfect)",
        )
    g.add_argument(
        "--tie-break",
        choices=TIE_BREAKS,
        help=f"the perfect player's tie-break, wherever it plays ({TIE_BREAK_HELP})",
    )
    g.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    out = p.add_argument_group("output")
    out.add_argument(
        "--output",
        type=output_file,
        required=True,
        help="where to write the agent (JSON; '-': stdout)",
    )
    add_json_option(out, "a summary")
    out.add_argument(
        "--curve",
        type=count(MAX_GAMES, 1),
        metavar="N",
        help="exact win/draw/loss against perfect, random and defensive every N games",
    )
    out.add_argument(
        "--curve-json", type=output_file, metavar="PATH", help="also write the curve as JSON"
    )
    out.add_argument("--csv", type=output_file, metavar="PATH", help="also write the curve as CSV")
    add_huge_option(p)


def run(args: argparse.Namespace) -> int:
    kind = get_kind(args.kind)
    params = given_params(args, kind)
    params = _for_game(args, kind, params)
    _check_outputs(args)
    _check_work(args)
    tie_break = _tie_break(args)
    marks = _marks(args)
    rng = np.random.default_rng(args.seed)
    if kind.trains is not None:
        agent, rates, curve = _train_itself(kind, params, args.games, rng, marks, tie_break)
    else:
        agent, rates, curve = _train_regimen(kind, params, args, rng, marks, tie_break)
    from ..agents.registry import save_agent

    save_agent(agent, args.output, option="--output")
    _write_curve(args, curve)
    _report(args, rates, curve)
    return 0


def _for_game(args: argparse.Namespace, kind: AgentKind, params: dict[str, Any]) -> dict:
    """Settings for ``--game``: the kind's own settings for a game other than noughts and
    crosses (MENACE: HER's boxes, every Black-to-move position, Black to move)."""
    if hasattr(args, "regimen") and args.regimen is None:
        args.regimen = "mixed" if args.game == "noughts-and-crosses" else "perfect"
    if args.game == "noughts-and-crosses":
        return params
    if kind.other_games is None:
        players = [k.name for k in agent_kinds().values() if k.plays_any_game]
        raise ValueError(
            f"train {args.kind} does not play --game {args.game}; {', '.join(players)} do"
        )
    kind.admit_game(args.game)  # the kind's own cap (a tree is larger than the tables)
    if args.curve is not None:
        raise ValueError(
            f"--curve evaluates against noughts-and-crosses players; not --game {args.game}"
        )
    if regimen_name(args.regimen) not in ("perfect", "random"):
        raise ValueError(
            f"--regimen {args.regimen} does not apply to --game {args.game}; use perfect or random"
        )
    return {**kind.other_games, **params, "game": args.game}


def _check_outputs(args: argparse.Namespace) -> None:
    """Curve outputs need ``--curve``; no two outputs may name the same file."""
    files = {
        "--output": args.output,
        "--curve-json": args.curve_json,
        "--csv": args.csv,
        "--json": None if args.json == STDOUT else args.json,
    }
    for option in ("--curve-json", "--csv"):
        if files[option] is not None and args.curve is None:
            raise ValueError(f"{option} writes the learning curve: give --curve N as well")
    check_distinct_files(files)


def _check_work(args: argparse.Namespace) -> None:
    """Games, plus an exact evaluation per curve opponent at every mark, within the budget."""
    marks = 0 if args.curve is None else -(-args.games // args.curve) + 1
    check_work(f"train {args.kind}", args.games, marks * len(CURVE_OPPONENTS), allow_huge=args.huge)


def _tie_break(args: argparse.Namespace) -> str:
    """The perfect player's tie-break; refused where no perfect player would play."""
    regimen = getattr(args, "regimen", None)
    plays = args.curve is not None or (regimen and regimen_name(regimen) in ("perfect", "mixed"))
    if args.tie_break is not None and not plays:
        where = f"--regimen {regimen}" if regimen else "self-play"
        raise ValueError(
            f"--tie-break {args.tie_break}: no perfect player plays in {where} "
            "training; it applies with --regimen perfect or mixed, or with --curve"
        )
    return args.tie_break or default_tie_break(args.game)


def _marks(args: argparse.Namespace) -> list[int] | None:
    if args.curve is None:
        return None
    from ..play.learning_curve import curve_marks

    return curve_marks(args.games, args.curve)


def _train_regimen(kind: AgentKind, params: dict, args, rng, marks, tie_break: str) -> tuple:
    from ..agents.registry import make_agent
    from ..play.learning_curve import train_with_curve
    from ..play.opponents import regimen_blocks
    from ..play.training import train

    agent = make_agent(kind.name, **params)  # the configuration checks every setting here
    blocks = regimen_blocks(args.regimen, args.games, tie_break)
    if marks is None:
        log = train(
            agent, blocks, None, rng, tie_break=tie_break, progress=args.progress, record=False
        )
        return agent, _rates(log), None
    curve = train_with_curve(
        agent, blocks, rng, marks, opponents=CURVE_OPPONENTS, tie_break=tie_break, record=False
    )
    return agent, _rates(curve.log), curve


def _train_itself(kind: AgentKind, params: dict, games: int, rng, marks, tie_break: str) -> tuple:
    """A kind that trains itself (self-play): its recipe, and the curve of its snapshots."""
    from ..play.selfplay import selfplay_curve

    config = kind.build_config(**params)  # the configuration checks every setting here
    run = kind.trains(config, games, rng, marks or ())
    curve = selfplay_curve(run, CURVE_OPPONENTS, tie_break) if marks else None
    return run.learner, {"games": len(run.results), **run.rates(), "stopped_early": False}, curve


def _rates(log) -> dict[str, Any]:
    rates = {k: float(v) for k, v in log.rates().items()}
    return {"games": len(log), **rates, "stopped_early": bool(log.stopped_early)}


def _write_curve(args: argparse.Namespace, curve) -> None:
    from ..base.files import write_json

    if curve is None:
        return
    if args.curve_json is not None:
        write_json(args.curve_json, curve.to_dict(), option="--curve-json", indent=2)
    if args.csv is not None:
        write_csv(args.csv, curve.to_rows(), option="--csv")


def _report(args: argparse.Namespace, rates: dict[str, Any], curve) -> None:
    summary = {"kind": args.kind, **rates, "output": str(args.output)}
    if emit_json(args.json, summary if curve is None else {**summary, "curve": curve.to_dict()}):
        return
    print(
        f"trained {args.kind} for {rates['games']} games: win {rates['win']:.3f}, "
        f"draw {rates['draw']:.3f}, loss {rates['loss']:.3f} -> {args.output}"
    )
    if curve is not None and curve.to_rows():  # --games 0 has no marks
        print(markdown_table(curve.to_rows()))
