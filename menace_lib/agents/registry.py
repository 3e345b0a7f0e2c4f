"""The one registry of agent kinds: build one by name, save it, read it back.

Every kind of learner is registered here once, as an :class:`AgentKind`: its name, the
reader's label, its configuration class, the class that writes and reads its files
(whose ``FORMAT`` names them), its command-line options, and how to build it. Everything
else reads this registry and never lists kinds or switches on an agent's type:

* saving and loading (:func:`save_agent`, :func:`load_agent`, :func:`agent_from_dict`
  dispatch on a file's ``"format"``);
* the command line (``train KIND`` has one sub-command per kind, with the kind's
  options; :mod:`menace_lib.cli.agent_options`);
* the experiments (:func:`make_agent`, read by
  :func:`menace_lib.experiments.make_agent` and the suite's conditions) and the claims.

Adding a kind is one call of :func:`register_kind` (a built-in kind is one entry of
:func:`_builtin_kinds`); ``tests/test_agent_registry.py`` registers a toy kind and finds
it in every one of those places.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..base.files import AgentFileError, write_agent_json
from ..games.agent import Agent
from ..games.agent_file import read_agent_file
from .options import (
    AIF_OPTIONS,
    MENACE_OPTIONS,
    PEGASUS_OPTIONS,
    RL_OPTIONS,
    SELFPLAY_OPTIONS,
    UNSYMMETRISED_OPTIONS,
    Option,
)

__all__ = [
    "AgentKind",
    "agent_classes",
    "agent_formats",
    "agent_from_dict",
    "agent_kinds",
    "agent_of",
    "document_game",
    "get_kind",
    "kind_of_format",
    "load_agent",
    "make_agent",
    "read_agent",
    "register_kind",
    "save_agent",
    "thesis_kinds",
    "unregister_kind",
]

FAMILIES = ("matchbox", "aif", "td")
"""What a kind's learning looks like: bead counts, Active Inference beliefs, a Q table."""


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent, everything the library needs to know about it.

    Attributes
    ----------
    name
        Its name on the command line and in the experiments (``"hybrid"``).
    label
        The name readers see (``"Hybrid AIF"``).
    help
        One line for ``train --help``.
    config
        Its configuration class: a frozen dataclass whose fields are the kind's settings.
    options
        Field name -> :class:`~menace_lib.agents.options.Option`: the settings offered on
        the command line (a field left out is not offered).
    make
        ``make(config, **extras)`` -> a fresh agent; ``None`` for a kind that trains
        itself (see ``trains``).
    agent
        The class that writes and reads its files (``FORMAT`` and ``from_dict``);
        ``None`` if it saves as another kind (self-play saves a MENACE).
    family
        One of :data:`FAMILIES`.
    defaults
        Settings whose default differs from the configuration class's (Hybrid's λ 0.5).
    check
        ``check(config)`` raises ``ValueError`` for a setting the kind refuses
        (Instrumental's λ must be 0).
    requires
        Field -> ``(other field, value)`` it needs, e.g. ``empty_box`` needs
        ``restock = "none"`` (elsewhere an empty box is refilled and the rule never runs).
    extras
        Keywords ``make`` takes beside the configuration (``"trace"``).
    configure
        ``configure(**fields)`` -> the configuration, when it is not ``config(**fields)``
        (the self-play recipe nests a MENACE configuration).
    trains
        For a kind that trains itself: ``trains(config, games, rng, checkpoints)`` -> a
        run with ``learner``, ``results``, ``rates()`` and snapshots.
    other_games
        Settings for a game other than noughts and crosses (HER's boxes: every
        second-player position), or ``None`` if the kind plays only noughts and crosses.
        A kind that plays other games has a ``game`` field.
    max_cells
        The largest board (cells) the kind learns, where it is below the library's
        :data:`~menace_lib.base.limits.MAX_TABLE_CELLS` (a kind with a game tree holds
        far more than the tables); ``None``: the library's cap.
    benchmark
        ``(settings, regimen)`` of the kind's 500-game timing in ``bench``, or ``None``.
    cost
        Rough seconds per training game (the suite starts the slowest tasks first).
    thesis
        Whether the thesis's experiments compare it (chapters 8 and 9); the other
        machines of the book are not.
    """

    name: str
    label: str
    help: str
    config: type
    options: Mapping[str, Option]
    make: Callable[..., Any] | None
    agent: type | None = None
    family: str = "matchbox"
    defaults: Mapping[str, Any] = field(default_factory=dict)
    check: Callable[[Any], None] | None = None
    requires: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    extras: tuple[str, ...] = ()
    configure: Callable[..., Any] | None = None
    trains: Callable[..., Any] | None = None
    other_games: Mapping[str, Any] | None = None
    benchmark: tuple[Mapping[str, Any], str] | None = None
    cost: float = 1e-3
    thesis: bool = False
    max_cells: int | None = None

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"family {self.family!r}: choose one of {FAMILIES}")
        if (self.make is None) == (self.trains is None):
            raise ValueError(f"kind {self.name!r}: give exactly one of make and trains")
        unknown = sorted(set(self.options) - set(self.settings()))
        if unknown:
            raise ValueError(f"kind {self.name!r}: options {unknown} are not settings")

    def build_config(self, **settings: Any) -> Any:
        """The configuration of ``settings`` over :attr:`defaults` (checked).

        Raises
        ------
        ValueError
            For an unknown or bad setting (the message names the kind).
        """
        try:
            config = (self.configure or self.config)(**{**self.defaults, **settings})
        except TypeError as err:
            raise ValueError(f"{self.name}: {err}") from None
        if self.check is not None:
            self.check(config)
        return config

    def settings(self) -> dict[str, Any]:
        """Every setting of the kind with its default (shown by ``--help``)."""
        config = self.build_config()
        if hasattr(config, "fields") and callable(config.fields):
            return dict(config.fields())
        return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}

    def admit_game(self, game: object, what: str = "--game") -> str:
        """``game`` if this kind can learn it (see
        :func:`menace_lib.games.registry.game_name`), checked before anything is built."""
        from ..games.registry import DEFAULT_GAME, game_name

        name = game_name(game, max_cells=self.max_cells, what=what, who=self.name)
        if name != DEFAULT_GAME and not self.plays_any_game:
            raise ValueError(f"{what} {name!r}: {self.name} plays only {DEFAULT_GAME}")
        return name

    @property
    def plays_any_game(self) -> bool:
        """Whether the kind learns games other than noughts and crosses (``--game``)."""
        return self.other_games is not None


_REGISTERED: dict[str, AgentKind] = {}


def register_kind(kind: AgentKind) -> AgentKind:
    """Add a kind to the registry (the one place a new kind is named); returns it.

    Raises
    ------
    ValueError
        If a kind of that name, or a class with that file format, is registered already.
    """
    if kind.name in _all_kinds():
        raise ValueError(f"agent kind {kind.name!r} is registered already")
    fmt = getattr(kind.agent, "FORMAT", None)
    if fmt is not None and fmt in agent_formats():
        raise ValueError(f"file format {fmt!r} is registered already")
    _REGISTERED[kind.name] = kind
    return kind


def unregister_kind(name: str) -> None:
    """Remove a kind added by :func:`register_kind` (the built-in kinds stay)."""
    if name not in _REGISTERED:
        raise ValueError(f"{name!r} is not a kind added with register_kind")
    del _REGISTERED[name]


def _all_kinds() -> dict[str, AgentKind]:
    return {**_builtin_kinds(), **_REGISTERED}


def agent_kinds() -> Mapping[str, AgentKind]:
    """Every agent kind by name, in the book's order (read-only)."""
    return MappingProxyType(_all_kinds())


def get_kind(name: str) -> AgentKind:
    """The kind called ``name``, or a ``ValueError`` naming the kinds there are."""
    kinds = _all_kinds()
    if not isinstance(name, str) or name not in kinds:
        raise ValueError(f"unknown agent kind {str(name)[:40]!r}; choose one of {tuple(kinds)}")
    return kinds[name]


def thesis_kinds() -> tuple[str, ...]:
    """The kinds the thesis's experiments compare, in the book's order."""
    return tuple(name for name, kind in _all_kinds().items() if kind.thesis)


def make_agent(kind: str, **params: Any) -> Agent:
    """A fresh, untrained agent of ``kind`` with settings ``params``.

    ``params`` are fields of the kind's configuration class (:attr:`AgentKind.config`)
    and its :attr:`AgentKind.extras` (``trace`` for the Active Inference kinds).

    Raises
    ------
    ValueError
        For an unknown kind or setting, a kind that trains itself (``selfplay``), or a
        value its configuration refuses.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.agents import make_agent
    >>> make_agent("hybrid").config.lam
    0.5
    >>> make_agent("menace", filter="all").n_boxes
    338
    """
    spec = get_kind(kind)
    if spec.make is None:
        raise ValueError(f"{kind} trains itself and builds no agent on its own; use train")
    extras = {k: params.pop(k) for k in spec.extras if k in params}
    config = spec.build_config(**params)
    try:
        return spec.make(config, **extras)
    except TypeError as err:
        raise ValueError(f"{kind}: {err}") from None


def agent_classes() -> list[type]:
    """The classes of every agent kind that can be saved."""
    out: list[type] = []
    for kind in _all_kinds().values():
        if kind.agent is not None and kind.agent not in out:
            out.append(kind.agent)
    return out


def agent_formats() -> dict[str, type]:
    """File format name -> the agent class that reads it."""
    return {cls.FORMAT: cls for cls in agent_classes()}


# --- the built-in kinds ------------------------------------------------------------------


def _lam_zero(config: Any) -> None:
    if config.lam != 0:
        raise ValueError(f"instrumental: lam must be 0, got {config.lam!r}")


def _lam_positive(config: Any) -> None:
    if not config.lam > 0:
        raise ValueError(f"hybrid: lam must be > 0, got {config.lam!r}")


_SCHEDULES = {
    "lambda_tau": ("lambda_schedule", "decay"),
    "lambda_kappa": ("lambda_schedule", "concentration"),
}
_RESTOCK_RULES = {"empty_box": ("restock", "none"), "move_restock_beads": ("restock", "move")}


def _aif_kind(name: str, label: str, help: str, cls: type, **extra: Any) -> AgentKind:
    """An Active Inference kind: the options of the fields its class ``USES``; a kind
    that plays other games builds a tree over every position, so its boards are capped
    at :data:`~menace_lib.base.limits.MAX_TREE_CELLS`."""
    from ..base.limits import MAX_TREE_CELLS
    from .aif import AIFConfig, ForgetfulConfig

    if extra.get("other_games") is not None:
        extra.setdefault("max_cells", MAX_TREE_CELLS)

    hidden = {"lam"} if name == "instrumental" else set()  # λ = 0 by definition
    options = {k: o for k, o in AIF_OPTIONS.items() if k in cls.USES - hidden}
    return AgentKind(
        name,
        label,
        help,
        ForgetfulConfig if "decay" in cls.USES else AIFConfig,
        options,
        lambda config, trace=False: cls(config, trace=trace),
        cls,
        family="aif",
        thesis=True,
        defaults=dict(cls.DEFAULTS),
        requires={k: v for k, v in _SCHEDULES.items() if k in options},
        extras=("trace",),
        **extra,
    )


@cache
def _builtin_kinds() -> dict[str, AgentKind]:
    """The library's kinds, in the book's order: the one list of them."""
    from ..base.palette import agent_name
    from ..machine.menace import Menace, MenaceConfig
    from ..play.selfplay import SelfPlayConfig, train_selfplay
    from . import aif
    from .pegasus import PegasusConfig, PegasusMenace
    from .rl import QLearning, RLConfig, Sarsa
    from .unsymmetrised import UnsymmetrisedConfig, UnsymmetrisedMenace

    her = {"filter": "all", "player": 2}  # HER's boxes: every position of the second player
    kinds = [
        AgentKind(
            "menace",
            agent_name("menace"),
            "Michie's matchbox learner",
            MenaceConfig,
            MENACE_OPTIONS,
            Menace,
            Menace,
            requires=_RESTOCK_RULES,
            other_games=her,
            benchmark=({}, "mixed"),
            cost=1e-5,
            thesis=True,
        ),
        _aif_kind(
            "instrumental",
            agent_name("instrumental"),
            "Active Inference, learnt opponent, λ = 0",
            aif.InstrumentalAIF,
            check=_lam_zero,
            other_games=her,
            benchmark=({"lam": 0.0}, "perfect"),
        ),
        _aif_kind(
            "hybrid",
            agent_name("hybrid"),
            "Active Inference, learnt opponent, information gain λ > 0",
            aif.HybridAIF,
            check=_lam_positive,
            other_games=her,
            benchmark=({"lam": 0.5}, "perfect"),
        ),
        _aif_kind(
            "forgetful",
            agent_name("forgetful"),
            "Active Inference, learnt opponent whose counts decay towards the prior",
            aif.ForgetfulAIF,
            other_games=her,
        ),
        _aif_kind(
            "pure",
            agent_name("pure"),
            "Active Inference with learnt outcomes and no game tree",
            aif.PureAIF,
            benchmark=({"lam": 0.5}, "perfect"),
        ),
        _aif_kind(
            "oracle",
            agent_name("oracle"),
            "Active Inference with the tree and a fixed opponent model",
            aif.OracleAIF,
            benchmark=({"lam": 0.5}, "perfect"),
        ),
        *(
            AgentKind(
                name,
                agent_name(name),
                help,
                RLConfig,
                RL_OPTIONS,
                cls,
                cls,
                family="td",
                other_games={"player": 2},
                benchmark=({}, "random"),
                cost=1e-4,
                thesis=True,
            )
            for name, help, cls in (
                ("qlearning", "tabular Q-learning", QLearning),
                ("sarsa", "tabular SARSA", Sarsa),
            )
        ),
        AgentKind(
            "unsymmetrised",
            agent_name("unsymmetrised"),
            "MENACE with a box per raw board (the APL article)",
            UnsymmetrisedConfig,
            UNSYMMETRISED_OPTIONS,
            UnsymmetrisedMenace,
            UnsymmetrisedMenace,
        ),
        AgentKind(
            "pegasus",
            agent_name("pegasus"),
            "Michie's computer MENACE (1963): odds multipliers and a sliding origin",
            PegasusConfig,
            PEGASUS_OPTIONS,
            PegasusMenace,
            PegasusMenace,
            cost=2e-5,
        ),
        AgentKind(
            "selfplay",
            agent_name("selfplay"),
            "MENACE trained against a pool of learning MENACEs (the blog)",
            SelfPlayConfig,
            SELFPLAY_OPTIONS,
            None,
            requires={"move_restock_beads": ("restock", "move")},
            configure=SelfPlayConfig.from_fields,
            trains=train_selfplay,
        ),
    ]
    return {k.name: k for k in kinds}


def kind_of_format(fmt: str) -> AgentKind:
    """The kind whose files have format ``fmt`` (a kind that saves as another, as
    self-play saves a MENACE, is never the answer)."""
    for kind in _all_kinds().values():
        if kind.agent is not None and getattr(kind.agent, "FORMAT", None) == fmt:
            return kind
    raise AgentFileError(f"format: expected one of {sorted(agent_formats())}, got {fmt!r}")


def document_game(data: Any) -> str:
    """The game an agent document names, admitted for its kind, before anything is built.

    The one admission of an agent file: the format is known, every ``config.game`` in
    it (an Active Inference file has two, its own and its MENACE's) names the same
    game, that game is one its kind can learn (its size under the kind's cap), and no
    list of per-position entries (boxes, Q rows, counts) is longer than the game has
    positions. Only then is any table sized by the file built, and only then is each
    entry validated.

    Raises
    ------
    AgentFileError
        Naming the field and the limit.
    """
    from ..games.registry import DEFAULT_GAME, check_entry_counts

    if not isinstance(data, dict):
        raise AgentFileError("agent file: top level must be a JSON object")
    kind = kind_of_format(data.get("format"))  # type: ignore[arg-type]
    parts = {"": data}
    if isinstance(data.get("menace"), dict):
        parts["menace."] = data["menace"]
    games = {}
    for prefix, part in parts.items():
        config = part.get("config", {})
        if not isinstance(config, dict):
            raise AgentFileError(f"{prefix}config: must be an object")
        try:
            games[prefix] = kind.admit_game(
                config.get("game", DEFAULT_GAME), what=f"{prefix}config.game"
            )
        except ValueError as err:
            raise AgentFileError(str(err)) from None
    game = games[""]
    if any(g != game for g in games.values()):
        raise AgentFileError(
            f"menace.config.game {games['menace.']!r} differs from config.game {game!r}"
        )
    try:
        check_entry_counts(game, parts)
    except ValueError as err:
        raise AgentFileError(str(err)) from None
    return game


def agent_from_dict(data: Any) -> Agent:
    """Rebuild any saved agent from its JSON object.

    Parameters
    ----------
    data
        A document written by an agent's ``to_dict`` (its ``"format"`` names the kind).

    Returns
    -------
    Agent
        A new agent of that kind, in the saved state.

    Raises
    ------
    AgentFileError
        If the object names no known format, or its kind rejects a field.

    Examples
    --------
    >>> import menace_lib as ml
    >>> data = ml.Sarsa().to_dict()
    >>> data["format"]
    'menace_lib.rl.sarsa'
    >>> type(ml.agent_from_dict(data)).__name__
    'Sarsa'
    """
    document_game(data)  # the game, its size and the entries' count, before building
    return _build(data)


def _build(data: dict) -> Agent:
    """The agent of an admitted document, built by its kind (the one dispatch)."""
    return agent_formats()[data["format"]].from_dict(data)


def read_agent(path: str | Path) -> tuple[dict, str]:
    """An agent file's document and the game it names, admitted, nothing built yet.

    The one reading of an agent file of any kind: the bytes under the size limit, the
    safe JSON parse (:func:`menace_lib.games.agent_file.read_agent_file`) and the
    admission (:func:`document_game`). :func:`load_agent` builds the agent from it; the
    command line reads the game first, to check it against ``--game``.

    Raises
    ------
    AgentFileError
        If the file is missing, too large, not JSON, or not a known agent format.
    """
    data = read_agent_file(path)
    return data, document_game(data)


def agent_of(document: tuple[dict, str]) -> Agent:
    """The agent of a document :func:`read_agent` admitted."""
    return _build(document[0])


def load_agent(path: str | Path) -> Agent:
    """Read an agent of any kind from a JSON file written by its ``save`` (never pickle).

    Parameters
    ----------
    path
        A JSON file written by :func:`save_agent` (any kind), the play widget or ``train``.

    Returns
    -------
    Agent
        The agent, validated against its JSON Schema.

    Raises
    ------
    AgentFileError
        If the file is missing, too large, not JSON, or not a known agent format.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import menace_lib as ml
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "agent.json"
    >>> _ = ml.save_agent(ml.Menace(), path)
    >>> type(ml.load_agent(path)).__name__
    'Menace'
    """
    return agent_of(read_agent(path))


def save_agent(agent: Agent, path: str | Path, *, option: str | None = None) -> Path:
    """Write any agent's ``to_dict`` as JSON, all or nothing; returns ``path``.

    The document is read back with :func:`agent_from_dict` before anything is
    written, so a saved file always loads with :func:`load_agent`.

    Parameters
    ----------
    agent
        Any agent of a registered kind (:func:`agent_kinds`).
    path
        The file to write (see :func:`menace_lib.base.files.check_output_path`).
    option
        The command-line option ``path`` came from, named in errors.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import menace_lib as ml
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "q.json"
    >>> ml.save_agent(ml.QLearning(), path) == path
    True
    """
    if not isinstance(agent, tuple(agent_classes())):
        raise TypeError(f"agent must be an agent of a registered kind, got {type(agent).__name__}")
    data = agent.to_dict()
    agent_from_dict(data)
    return write_agent_json(path, data, option=option)
