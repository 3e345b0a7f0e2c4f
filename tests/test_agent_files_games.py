"""Agent files on every game: each kind that plays other games saves and loads there.

A file names positions by their text in the game's symbols (:meth:`Tables.text`), the
one spelling every agent file uses. Here every kind of the registry that plays games
other than noughts and crosses is trained on Hexapawn and on small Connect-4 boards,
saved, loaded, and must be the same agent: the same document, the same policy, and the
same games when both go on learning from one seed. A file whose position is not a
canonical position of its game is refused in one line naming the entry.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from budget import thorough_param

import menace_lib as ml
from menace_lib.agents.registry import agent_kinds, make_agent
from menace_lib.machine.menace import AgentFileError

GAMES = ("hexapawn", "connect4:3x3/3", "connect4:4x4")
KINDS = sorted(name for name, kind in agent_kinds().items() if kind.plays_any_game)


def _trained(kind: str, game: str, games: int = 30):
    agent = make_agent(kind, **{**agent_kinds()[kind].other_games, "game": game})
    agent.train_against(ml.make_opponent("random", game=game), games, np.random.default_rng(7))
    return agent


def test_the_kinds_that_play_other_games_include_the_tree_aif_agents() -> None:
    assert {"menace", "instrumental", "hybrid", "forgetful", "qlearning", "sarsa"} <= set(KINDS)


# Every kind on the small games; on 4x4 (files of 2 MB) one matchbox agent, and in the long
# run one tree agent too: the tree agents' files take the same path as on the small games
# (every kind is checked there), and the 2 MB file's is the matchbox's (about 5 CPU-s more).
SAVED = [(k, g) for g in GAMES[:2] for k in KINDS] + [
    ("menace", GAMES[2]),
    thorough_param("instrumental", GAMES[2], id="instrumental-connect4:4x4"),
]


@pytest.mark.parametrize(("kind", "game"), SAVED)
def test_a_trained_agent_saves_and_loads_as_the_same_agent(tmp_path, kind, game) -> None:
    agent = _trained(kind, game)
    path = ml.save_agent(agent, tmp_path / "agent.json")
    again = ml.load_agent(path)
    assert type(again) is type(agent)
    assert again.to_dict() == agent.to_dict()
    opponent = ml.make_opponent("random", game=game)
    first = agent.train_against(opponent, 20, np.random.default_rng(11))
    second = again.train_against(opponent, 20, np.random.default_rng(11))
    assert first.results == second.results and first.moves == second.moves
    assert again.to_dict() == agent.to_dict()


def test_a_learnt_hexapawn_opponent_model_is_what_the_file_keeps() -> None:
    agent = _trained("hybrid", "hexapawn", games=60)
    data = json.loads(json.dumps(agent.to_dict()))
    assert data["config"]["game"] == "hexapawn"
    boards = [entry["board"] for entry in data["opponent_counts"]]
    T = ml.game_tables("hexapawn")
    assert boards and all(set(b) <= set(".WB") and len(b) == 9 for b in boards)
    for entry in data["opponent_counts"]:
        c = T.canonical_id_of_text(entry["board"])
        assert T.player[c] == 1  # White's states: the opponent's, HER playing Black
        assert entry["counts"] == list(agent.model.alpha[c])


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("BBB..WWW.", "is not a new canonical opponent state"),  # Black to move: HER's own
        (".BB.B.W.W", r"'\.BB\.B\.W\.W' is not a canonical position of hexapawn"),  # a mirror
        ("XXX......", "is not a canonical position of hexapawn"),  # another game's symbols
    ],
)
def test_a_position_that_is_not_the_games_is_refused_naming_the_entry(board, message) -> None:
    data = json.loads(json.dumps(_trained("instrumental", "hexapawn").to_dict()))
    data["opponent_counts"][0]["board"] = board
    with pytest.raises(AgentFileError, match=rf"opponent_counts\[0\]\.board.*{message}"):
        ml.agent_from_dict(data)


@pytest.mark.parametrize("game", ("noughts-and-crosses", "hexapawn", "connect4:3x3/3"))
def test_every_canonical_position_is_named_by_its_text_and_back(game) -> None:
    T = ml.game_tables(game)
    symbols = T.game.symbols
    for c in T.canonical_ids.tolist():
        text = T.text(c)
        assert len(text) == T.cells.shape[1] and set(text) <= set(symbols)
        assert T.canonical_id_of_text(text) == c


def test_noughts_and_crosses_text_is_the_board_text_files_always_had() -> None:
    T, S = ml.game_tables(), ml.game_tables()
    assert [T.text(i) for i in range(T.n_positions)] == [S.text(i) for i in range(T.n_positions)]
    with pytest.raises(ValueError, match=r"'\.X\.\.\.\.\.\.\.' is not a canonical position"):
        T.canonical_id_of_text(".X.......")  # X in a corner is canonical; an edge is not


@pytest.mark.parametrize(
    ("kind", "game"),
    [("instrumental", "hexapawn"), ("menace", "connect4:4x4")],
)
def test_train_then_evaluate_at_the_command_line_meet_the_same_perfect_player(
    tmp_path, capsys, kind, game
) -> None:
    # Both commands default to the perfect player that varies its winning lines
    # (tie-break uniform) in games other than noughts and crosses: the file that
    # train writes is the agent trained against it, and evaluate scores it against it.
    from menace_lib.cli import main
    from menace_lib.play.training import train

    out = tmp_path / "agent.json"
    args = ["train", kind, "--game", game, "--games", "40", "--seed", "5", "--output", str(out)]
    assert main([*args, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(out), "--game", game, "--json"]) == 0
    rates = json.loads(capsys.readouterr().out)
    perfect = ml.make_opponent("perfect", "uniform", game=game)
    agent = make_agent(kind, **{**agent_kinds()[kind].other_games, "game": game})
    train(agent, "perfect", 40, np.random.default_rng(5), tie_break="uniform", record=False)
    assert json.loads(out.read_text()) == json.loads(json.dumps(agent.to_dict()))
    assert rates == {k: float(v) for k, v in ml.exact_outcome(agent, perfect).items()}
