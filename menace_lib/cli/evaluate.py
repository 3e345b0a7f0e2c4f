"""``python -m menace_lib evaluate``: evaluate a saved agent, exactly or by sampling."""

from __future__ import annotations

import argparse

import numpy as np

from ..base.limits import MAX_GAMES
from ..play.opponents import GAME_OPPONENTS, OPPONENTS, TIE_BREAKS
from .arguments import add_json_option, count, input_file, seed
from .game_option import TIE_BREAK_HELP, add_game_option, default_tie_break, load_agent_for
from .output import emit_json

EXAMPLES = """\
python -m menace_lib evaluate agent.json
python -m menace_lib evaluate agent.json --opponent random --games 1000 --seed 1
python -m menace_lib evaluate agent.json --json
python -m menace_lib evaluate her.json   # the file names its game (here hexapawn)"""


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "agent", type=input_file("agent"), help="an agent file written by `train` (any kind)"
    )
    add_game_option(p, connect4=True, from_file=True)
    p.add_argument(
        "--opponent",
        default="perfect",
        choices=(*OPPONENTS, *GAME_OPPONENTS[1:2], "optimal", "minimax"),
        help="the scripted opponent (default perfect)",
    )
    p.add_argument(
        "--tie-break",
        choices=TIE_BREAKS,
        help=f"the perfect player's tie-break ({TIE_BREAK_HELP}; only with --opponent perfect)",
    )
    p.add_argument("--exact", action="store_true", help="exact probabilities (default)")
    p.add_argument(
        "--games", type=count(MAX_GAMES, 1), help="sampled validation games instead of --exact"
    )
    p.add_argument("--seed", type=seed, default=None, help="seed for --games (default 1)")
    add_json_option(p, "the win/draw/loss rates")


def run(args: argparse.Namespace) -> int:
    from ..play.evaluation import exact_outcome
    from ..play.opponents import make_opponent
    from ..play.training import validate

    if args.games is not None and args.exact:
        raise ValueError("choose --exact or --games N, not both")
    if args.seed is not None and args.games is None:
        raise ValueError("--seed applies to sampled validation (--games N), not to --exact")
    if args.seed is None:
        args.seed = 1
    if args.tie_break is not None and args.opponent not in ("perfect", "optimal", "minimax"):
        raise ValueError(f"--tie-break {args.tie_break} applies only to --opponent perfect")
    # The file names its game: admitted (size, entries) before anything is built.
    agent = load_agent_for(args.agent, args.game)
    args.game = getattr(agent, "game", "noughts-and-crosses")
    if args.game != "noughts-and-crosses":
        return _other_game(args, agent)
    opponent = make_opponent(args.opponent, args.tie_break or default_tie_break(args.game))
    if args.games is not None:
        rates = validate(agent, args.games, np.random.default_rng(args.seed), opponent)
    else:
        rates = exact_outcome(agent, opponent)
    rates = {k: float(v) for k, v in rates.items()}
    if not emit_json(args.json, rates):
        how = f"{args.games} sampled games" if args.games is not None else "exact"
        print(f"vs {opponent.name} ({how}): " + ", ".join(f"{k} {v:.4f}" for k, v in rates.items()))
    return 0


def _other_game(args: argparse.Namespace, agent) -> int:
    """An agent of another game (HER, Q-learning on Hexapawn), evaluated exactly."""
    from ..play.evaluation import exact_outcome
    from ..play.opponents import make_opponent

    if args.games is not None:
        raise ValueError(f"--games does not apply to --game {args.game}; its evaluation is exact")
    opponent = make_opponent(
        args.opponent, args.tie_break or default_tie_break(args.game), game=args.game
    )
    rates = {k: float(v) for k, v in exact_outcome(agent, opponent).items()}
    if not emit_json(args.json, rates):
        print(f"vs {opponent.name} (exact): " + ", ".join(f"{k} {v:.4f}" for k, v in rates.items()))
    return 0
