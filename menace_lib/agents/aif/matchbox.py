"""The shared base of the Active Inference agents: MENACE's boxes, EFE beads.

Each agent holds an internal :class:`~menace_lib.machine.menace.Menace` (box restock,
``square`` layout) and draws its moves from those boxes exactly as MENACE does,
including the uniform choice in positions without a box. After every training
game it learns (each agent its own way) and then **overwrites** the box of each
state it visited with ``q(a) * bead_scale``, where

    q(a) ∝ prior(a) · exp(-G(a) / lambda_policy)

is the softmax of the expected free energy ``G`` of each legal canonical move.
Boxes never visited keep MENACE's initial beads, and a box stays stale until it
is visited again. :class:`MatchboxAIF` implements the
:class:`~menace_lib.games.agent.Agent` interface once for all of them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...base.files import read_progress
from ...base.limits import MAX_GAMES, MAX_TREE_CELLS, check_count
from ...base.progress import game_ticker
from ...games.agent import PolicyMatrix
from ...games.agent_file import open_agent_document
from ...games.game import ONGOING
from ...games.registry import DEFAULT_GAME, check_entry_counts, game_name
from ...games.results import repeated
from ...machine.engine import run_games_with_hook
from ...machine.menace import AgentFileError, Menace, MenaceConfig
from ...maths.dirichlet import kl_divergence
from ...maths.efe import softmax_policy
from ...play.loop import DRAW_RESULT, LOSS, WIN, TrainingLog
from . import _kernel as kernel
from .config import AIFConfig
from .model import GenerativeModel
from .policy import log_prior, prior_weights, softmax_rows
from .table import EFETable
from .tree import canonical_state, canonical_tree, game_lists

_TREE = "Active Inference (its game tree)"

if TYPE_CHECKING:
    from ...play.opponents import TableOpponent

__all__ = ["FORMAT_VERSION", "MatchboxAIF", "TreeAIF"]

FORMAT_VERSION = 1
COMMON_FIELDS = frozenset(
    {"lam", "lambda_policy", "prefs", "beta_amb", "filter", "player", "bead_scale"}
)
_FILE_KEYS = {"format", "version", "config", "frozen", "games_trained", "menace"}


def _admit(data: dict) -> None:
    """Both games an Active Inference file names (its own, its MENACE's), their size and
    the entries' count, before any entry is read."""
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    game = game_name(
        config.get("game", DEFAULT_GAME), max_cells=MAX_TREE_CELLS, what="config.game", who=_TREE
    )
    inner = data.get("menace") if isinstance(data.get("menace"), dict) else {}
    inner_config = inner.get("config") if isinstance(inner.get("config"), dict) else {}
    game_name(
        inner_config.get("game", DEFAULT_GAME),
        max_cells=MAX_TREE_CELLS,
        what="menace.config.game",
        who=_TREE,
    )
    check_entry_counts(game, {"": data, "menace.": inner})


class MatchboxAIF:
    """MENACE's boxes, with beads overwritten by an EFE policy after each game.

    Parameters
    ----------
    config
        The agent's :class:`~menace_lib.agents.aif.AIFConfig`. Without one, the keyword
        ``fields`` build it on top of the agent's defaults (``PureAIF(lam=0.5)``).
    trace
        Keep a per-game summary of the EFE terms in :attr:`trace`.

    Subclasses set :attr:`FORMAT`, :attr:`USES` (the config fields they read)
    and :attr:`DEFAULTS`, and provide ``_learn`` (update beliefs from a game),
    ``_terms`` (``G``, risk, epistemic and ambiguity per legal canonical move),
    ``_move_G`` (the same ``G`` as floats) and ``_table``.
    """

    FORMAT: ClassVar[str] = ""
    USES: ClassVar[frozenset[str]] = COMMON_FIELDS
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    _risk_includes_entropy = False  # True where risk = KL(d || p) + H(d), A = H(d)

    def __init__(
        self, config: AIFConfig | None = None, *, trace: bool = False, **fields: Any
    ) -> None:
        if config is None:
            config = AIFConfig(**{**self.DEFAULTS, **fields})
        elif not isinstance(config, AIFConfig):
            raise TypeError(
                f"config must be an AIFConfig, got {config!r}; give settings as keywords, "
                f"e.g. {type(self).__name__}(lam=0.5)"
            )
        elif fields:
            raise TypeError("give either a config or keyword fields, not both")
        config.check_applies(type(self).__name__, self.USES)
        self.config = config
        self.player = config.player
        self.lam = config.lam
        self.prefs = config.preferences
        self.menace = Menace(
            MenaceConfig(filter=config.filter, restock="box", player=self.player, game=config.game)
        )
        self.frozen = False
        self.games_trained = 0
        self.trace: list[dict] | None = [] if trace else None
        self._log_priors: dict[int, list[float] | None] = {}

    # --- the Agent interface ---------------------------------------------------------

    @property
    def game(self) -> str:
        """The name of the game the agent plays."""
        return self.config.game

    @property
    def result(self) -> list[int]:
        """Per position: 0/1/2 (win/draw/loss for the agent) at terminals, else -1."""
        return self.menace.result

    def act(self, pid: int, rng: np.random.Generator) -> tuple[int, tuple[int, int, int]]:
        """Draw a move from the boxes, as MENACE does. Record: (pid, square, box)."""
        square, box, _ = self.menace.choose(pid, rng)
        return square, (pid, square, box)

    def end_game(self, trajectory: list, result: int, final: int | None = None) -> None:
        """Learn from one game, then overwrite the beads of every visited box.

        ``final`` is the game's last position; agents that model the opponent
        need it to see a game-ending opponent move (without it they infer one).
        """
        if self.frozen:
            return
        if result not in (WIN, DRAW_RESULT, LOSS):
            raise ValueError(f"result must be 0 (win), 1 (draw) or 2 (loss), got {result!r}")
        self._learn(trajectory, result, final)
        self.games_trained += 1  # before the writes: a λ schedule counts this game
        boxes = list(dict.fromkeys([r[2] for r in trajectory if r[2] >= 0]))
        box_state, weights = self.menace.states, self.menace.weights
        states = [box_state[b] for b in boxes]
        if self.trace is None:
            self._policies(states, self.config.bead_scale, [weights[b] for b in boxes])
        else:
            policies = self._policies(states)
            scale = self.config.bead_scale
            for b, q in zip(boxes, policies, strict=True):
                weights[b][:] = [v * scale for v in q]
            self.trace.append(self._trace_entry(states, policies, result))

    def frozen_copy(self) -> MatchboxAIF:
        """A copy that plays with the current beads and never learns."""
        twin = self._copy()
        twin.frozen = True
        return twin

    def policy_matrix(self) -> PolicyMatrix:
        """Exact move probabilities in every raw position (read from the boxes)."""
        return self.menace.policy_matrix()

    def canonical_policy(self, state: int) -> np.ndarray:
        """Move probabilities over canonical squares in canonical ``state``."""
        return self.policy_matrix().probabilities[int(state)]

    def canonical_policies(self, states: np.ndarray) -> np.ndarray:
        """:meth:`canonical_policy` of each canonical state in ``states``: one matrix call."""
        return self.policy_matrix().probabilities[np.asarray(states, dtype=np.intp)]

    def train_against(
        self,
        opponent: TableOpponent,
        games: int,
        rng: np.random.Generator,
        *,
        record: bool = True,
    ) -> TrainingLog:
        """Play and learn ``games`` games against a scripted opponent.

        The boxes are played by the one matchbox machine
        (:func:`menace_lib.machine.engine.run_games_with_hook`), which calls
        :meth:`end_game` after each game: the same random draws, moves and updates
        as :func:`menace_lib.play.loop.play_games` (``tests/test_aif.py`` checks it).
        ``record`` keeps each game's decision records in ``paths`` and its
        ``(position, square)`` pairs in ``moves``. A long run without records may
        be played by the compiled copy (:mod:`menace_lib.agents.aif._kernel`).
        """
        games = check_count("games", games, MAX_GAMES)
        if kernel.wanted(self, games, record):  # the same games, compiled ([fast] extra)
            results = kernel.train_compiled(self, opponent.next_ids, games, rng)
            if not self.frozen:
                self.games_trained += games
            ticker = game_ticker()
            if ticker is not None:
                ticker(games)
            log = TrainingLog()
            log.results = results
            log.opponents, log.resigned = repeated(opponent.name, games), repeated(False, games)
            return log
        menace = self.menace
        out = run_games_with_hook(
            menace.box_layout,
            menace.weights,
            menace.initial,
            opponent.next_ids,
            games,
            rng,
            self.end_game,
            record=record,
        )
        n = len(out.results)
        log = TrainingLog()  # inside counts_only its columns keep counts
        log.results, log.paths, log.moves = out.results, out.paths, out.moves
        log.opponents, log.resigned = repeated(opponent.name, n), repeated(False, n)
        return log

    def supports_compiled(self) -> bool:
        """Whether :mod:`menace_lib.agents.aif._kernel` can train this agent (see its docstring)."""
        return False

    # --- files -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe description that :meth:`from_dict` reads back."""
        return {
            "format": self.FORMAT,
            "version": FORMAT_VERSION,
            "config": self.config.to_dict(),
            "frozen": self.frozen,
            "games_trained": self.games_trained,
            "menace": self.menace.to_dict(),
            **self._state_to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchboxAIF:
        """Rebuild an agent from :meth:`to_dict` output, validating every field.

        Raises
        ------
        AgentFileError
            Naming the first bad field.
        """
        # every game in the file, its size and the entries' count before the items; the
        # schema is menace_lib/schemas/menace_lib.aif.v1.schema.json
        keys = _FILE_KEYS | set(cls._STATE_KEYS)
        open_agent_document(data, cls.FORMAT, FORMAT_VERSION, admit=_admit, keys=keys)
        try:
            agent = cls(AIFConfig.from_dict(data.get("config")))
        except (TypeError, ValueError) as err:
            raise AgentFileError(f"config: {err}") from None
        frozen, games = read_progress(data)
        try:
            menace = Menace.from_dict(data.get("menace"))
        except AgentFileError as err:
            raise AgentFileError(f"menace.{err}") from None
        if menace.config != agent.menace.config:
            raise AgentFileError(
                f"menace.config: expected {agent.menace.config}, got {menace.config}"
            )
        agent.menace.weights = menace.weights
        agent._state_from_dict(data)
        agent.frozen, agent.games_trained = frozen, games
        agent._after_load()
        return agent

    _STATE_KEYS: ClassVar[tuple[str, ...]] = ()

    def _state_to_dict(self) -> dict[str, Any]:
        return {}

    def _state_from_dict(self, data: dict[str, Any]) -> None:
        return None

    def _after_load(self) -> None:
        """Bring derived values up to date once a loaded agent's state is complete."""
        return None

    def _epistemic_weight(self, c: int) -> float:
        """The epistemic weight box ``c`` is written with now (λ, or its schedule's)."""
        return self.lam

    # --- read-out -------------------------------------------------------------------

    def efe_table(self, where: int | str | Sequence[int]) -> EFETable:
        """The EFE decomposition and policy of every legal move in a position.

        ``where`` is a position id, a board or its text; it is canonicalised, and
        moves are canonical squares. The agent must be the side to move. ``q`` is
        the policy the agent would write into that box now.
        """
        return self._table(self._agent_state(where))

    def _agent_state(self, where) -> int:
        c = canonical_state(where, self.config.game)
        T = game_lists(self.config.game)
        if T.outcome[c] != ONGOING or T.player[c] != self.player:
            raise ValueError(f"it is not {'XO'[self.player - 1]}'s move in {T.text(c)!r}")
        return c

    # --- policies -------------------------------------------------------------------

    def _prior_of(self, c: int) -> np.ndarray | None:
        game = self.config.game
        beads = self.menace.schedule_beads(game_lists(game).ply_list[c])
        return prior_weights(self.config.policy_prior, canonical_tree(game).moves[c], beads)

    def _log_prior_of(self, c: int) -> list[float] | None:
        if c not in self._log_priors:
            self._log_priors[c] = log_prior(self._prior_of(c))
        return self._log_priors[c]

    def _policy_terms(self, c: int) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        """The policy of state ``c`` and its (G, risk, epistemic, ambiguity) arrays,
        by the rule (:func:`~menace_lib.maths.efe.softmax_policy`)."""
        terms = self._terms(c)
        return softmax_policy(terms[0], self.config.lambda_policy, self._prior_of(c)), terms

    def _policies(
        self, states: list[int], scale: float = 1.0, into: list[list[float]] | None = None
    ) -> list[list[float]]:
        """The policy of each state times ``scale``, by the fast copy of the rule
        (the same numbers as :meth:`_policy_terms`), written ``into`` the given
        lists (the boxes' beads) if any."""
        if self.config.policy_prior == "uniform":
            priors = [None] * len(states)
        else:
            priors = [self._log_prior_of(c) for c in states]
        return softmax_rows(
            [self._move_G(c) for c in states], self.config.lambda_policy, priors, scale, into
        )

    def _trace_entry(self, states: list[int], policies: list[list[float]], result: int) -> dict:
        sums = [0.0, 0.0, 0.0, 0.0]  # q-weighted G, risk, epistemic, ambiguity
        weighted = 0.0  # q-weighted epistemic times each box's weight (a λ schedule)
        for c, q in zip(states, policies, strict=True):
            qa = np.array(q)
            terms = [float(qa @ t) for t in self._terms(c)]
            for i, t in enumerate(terms):
                sums[i] += t
            weighted += self._epistemic_weight(c) * terms[2]
        n = len(states)
        G, R, E, A = [s / n for s in sums] if n else [float("nan")] * 4
        contribution = weighted / n if n else float("nan")
        return {
            "game": self.games_trained,
            "result": result,
            "states": n,
            "G": G,
            "risk": R,
            "kl_risk": R - A if self._risk_includes_entropy else R,
            "epistemic": E,
            "epistemic_contribution": contribution if self.config.scheduled else self.lam * E,
            "ambiguity": A,
        }

    def _make_table(self, c: int, terms, outcome: np.ndarray, kl_risk: np.ndarray) -> EFETable:
        q, (G, R, E, A) = self._policy_terms(c) if terms is None else terms
        return EFETable(
            state=c,
            moves=np.array(canonical_tree(self.config.game).moves[c]),
            G=G,
            risk=R,
            epistemic=E,
            ambiguity=A,
            outcome=outcome,
            kl_risk=kl_risk,
            q=q,
            lam=self._epistemic_weight(c),
            beta_amb=self.config.beta_amb,
        )

    def _copy(self):
        twin = copy.copy(self)
        twin.menace = self.menace.copy()
        twin.trace = None if self.trace is None else list(self.trace)
        return twin

    # --- provided by subclasses -------------------------------------------------------

    def _learn(self, trajectory: list, result: int, final: int | None) -> None:
        raise NotImplementedError

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        raise NotImplementedError

    def _move_G(self, c: int) -> list[float]:
        raise NotImplementedError

    def _table(self, c: int) -> EFETable:
        raise NotImplementedError


class TreeAIF(MatchboxAIF):
    """An agent whose EFE comes from a :class:`~menace_lib.agents.aif.GenerativeModel`."""

    model: GenerativeModel

    @property
    def _risk_includes_entropy(self) -> bool:
        return self.model.risk_form == "cross_entropy"

    def _terms(self, c: int) -> tuple[np.ndarray, ...]:
        return self.model.action_values(c)

    def _move_G(self, c: int) -> list[float]:
        return self.model.move_G(c)

    def _epistemic_weight(self, c: int) -> float:
        lam = self.model.agent_lam
        return self.lam if lam is None else lam[c]

    def _policies(
        self, states: list[int], scale: float = 1.0, into: list[list[float]] | None = None
    ) -> list[list[float]]:
        model = self.model
        if (
            model.epistemic != "summed"
            or self.config.policy_prior != "uniform"
            or model.agent_lam is not None
        ):
            return super()._policies(states, scale, into)
        G, children = model.G, model.tree.children  # move_G, inlined for the common case
        rows = [[G[k] for k in children[c]] for c in states]
        return softmax_rows(rows, self.config.lambda_policy, [None] * len(states), scale, into)

    def _table(self, c: int) -> EFETable:
        d = self.model.action_terms(c)["d"]
        kl = np.asarray(kl_divergence(d, self.prefs), dtype=float)
        return self._make_table(c, None, d, kl)
