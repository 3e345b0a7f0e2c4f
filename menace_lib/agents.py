"""Every kind of agent, by name and by file format: build one, or read one back.

A saved agent is a JSON object whose ``"format"`` names its kind (for example
``"menace_lib.menace"``). :func:`agent_from_dict` and :func:`load_agent` dispatch on
that name to the class that wrote it, so a caller never needs to know in advance
which kind of agent a file holds. A class joins by having a ``FORMAT`` class
attribute and a ``from_dict`` class method, and by being listed in
:func:`agent_classes`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .agent import Agent
from .files import AgentFileError, read_json, write_agent_json

__all__ = ["agent_classes", "agent_formats", "agent_from_dict", "load_agent", "save_agent"]


def agent_classes() -> list[type]:
    """The classes of every agent kind that can be saved."""
    from . import aif, rl
    from .menace import Menace
    from .variants.unsymmetrised import UnsymmetrisedMenace

    candidates = [
        Menace,
        UnsymmetrisedMenace,
        aif.OracleAIF,
        aif.InstrumentalAIF,
        aif.HybridAIF,
        aif.ForgetfulAIF,
        aif.PureAIF,
        rl.QLearning,
        rl.Sarsa,
    ]
    return [c for c in candidates if c is not None and isinstance(getattr(c, "FORMAT", None), str)]


def agent_formats() -> dict[str, type]:
    """File format name -> the agent class that reads it."""
    return {cls.FORMAT: cls for cls in agent_classes()}


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
    if not isinstance(data, dict):
        raise AgentFileError("agent file: top level must be a JSON object")
    formats = agent_formats()
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt not in formats:
        raise AgentFileError(f"format: expected one of {sorted(formats)}, got {fmt!r}")
    return formats[fmt].from_dict(data)


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
    return agent_from_dict(read_json(path, "agent file"))


def save_agent(agent: Agent, path: str | Path, *, option: str | None = None) -> Path:
    """Write any agent's ``to_dict`` as JSON, all or nothing; returns ``path``.

    The document is read back with :func:`agent_from_dict` before anything is
    written, so a saved file always loads with :func:`load_agent`.

    Parameters
    ----------
    agent
        Any agent whose kind is listed in :func:`agent_classes`.
    path
        The file to write (see :func:`menace_lib.files.check_output_path`).
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
    data = agent.to_dict()
    agent_from_dict(data)
    return write_agent_json(path, data, option=option)
