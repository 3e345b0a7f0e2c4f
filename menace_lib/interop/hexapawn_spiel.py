"""Hexapawn into the field: Gardner's game as an OpenSpiel Python game, ``python_hexapawn``.

Importing this module (which ``import menace_lib.interop`` does when OpenSpiel is installed)
registers the game with OpenSpiel, so that ``pyspiel.load_game("python_hexapawn")`` works;
through Shimmy it is a PettingZoo environment too
(:func:`menace_lib.interop.pettingzoo.hexapawn_env`). OpenSpiel's own
``breakthrough`` on a 3×3 board is not Hexapawn: its pawns may also step diagonally
without capturing.

The rules are the library's (:mod:`menace_lib.games.hexapawn`), written once: a state
holds a library position and asks :data:`~menace_lib.games.hexapawn.HEXAPAWN` for its
legal moves, the next position and the result. Actions are the library's moves,
``3 * cell + direction`` (27 ids; cell 0..8 row by row from Black's home row, direction
0, 1, 2 = towards the lower column, straight, towards the higher column). OpenSpiel's
player 0 is White, who moves first (the library's first player); the winner scores +1,
the loser -1 (Hexapawn has no draws).

The observation tensor is the board as three planes (empty, White, Black) over the 3×3
cells, rows from Black's home row, as OpenSpiel's board games show it; like
``breakthrough`` it leaves out the side to move, which the observation string and
``str(state)`` include.

This file follows OpenSpiel's template ``open_spiel/python/games/tic_tac_toe.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.extras import require

require("openspiel", "the OpenSpiel Hexapawn")

import pyspiel  # noqa: E402 - after the one-line check for the extra

from ..games.game import FIRST_WIN, ONGOING, SECOND_WIN  # noqa: E402
from ..games.hexapawn import HEXAPAWN, START  # noqa: E402
from ..games.registry import game_tables  # noqa: E402

__all__ = ["GAME_INFO", "GAME_TYPE", "SHORT_NAME", "HexapawnGame", "HexapawnState"]

SHORT_NAME = "python_hexapawn"
_SYMBOLS = ".WB"  # a cell: empty, White pawn, Black pawn (the library's cell values)

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Hexapawn (Gardner, 1962)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=HEXAPAWN.n_moves,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    # The longest game, read off the library's tables (every position is reachable).
    max_game_length=int(game_tables("hexapawn").ply.max()),
)


class HexapawnGame(pyspiel.Game):
    """Hexapawn as an OpenSpiel game (no parameters)."""

    def __init__(self, params: dict | None = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})

    def new_initial_state(self) -> HexapawnState:
        return HexapawnState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class HexapawnState(pyspiel.State):
    """A Hexapawn state: ``position`` is the library's position (cells and side to move)."""

    def __init__(self, game: HexapawnGame) -> None:
        super().__init__(game)
        self.position = START

    def current_player(self) -> int:
        if HEXAPAWN.result(self.position) != ONGOING:
            return pyspiel.PlayerId.TERMINAL
        return HEXAPAWN.to_move(self.position) - 1

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(HEXAPAWN.legal_moves(self.position))

    def _apply_action(self, action: int) -> None:
        self.position = HEXAPAWN.play(self.position, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return HEXAPAWN.move_name(self.position, int(action))
        except ValueError:  # an action of another position: name its pawn and direction
            cell, d = divmod(int(action), 3)
            return f"cell {cell} direction {d}"

    def is_terminal(self) -> bool:
        return HEXAPAWN.result(self.position) != ONGOING

    def returns(self) -> list[float]:
        result = HEXAPAWN.result(self.position)
        if result == FIRST_WIN:
            return [1.0, -1.0]
        if result == SECOND_WIN:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        return _text(self.position)


class BoardObserver:
    """The board as planes (empty, White, Black) × 3 rows × 3 columns (PyObserver)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"Hexapawn's observation takes no parameters; got {params}")
        shape = (3, 3, 3)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: HexapawnState, player: int) -> None:
        obs = self.dict["observation"]
        obs.fill(0)
        for cell, value in enumerate(state.position[:9]):
            obs[value, cell // 3, cell % 3] = 1

    def string_from(self, state: HexapawnState, player: int) -> str:
        return _text(state.position)


def _text(position: tuple[int, ...]) -> str:
    """Three rows from Black's home row, then the side to move: ``'BBB\\n...\\nWWW\\nW'``."""
    rows = ("".join(_SYMBOLS[c] for c in position[3 * r : 3 * r + 3]) for r in range(3))
    return "\n".join((*rows, "W" if position[9] == 1 else "B"))


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, HexapawnGame)
