"""The one skeleton of an agent file, shared by every kind of agent.

Every saved agent is a JSON object ``{"format", "version", "config", "frozen",
"games_trained", ...}``. Reading one always takes the same steps, written here once:
the bytes are read under :data:`~menace_lib.base.limits.MAX_FILE_BYTES` and parsed by the
safe JSON rules (:func:`read_agent_file`); then :func:`open_agent_document` checks the
header, admits the game the file names and the count of its entries (before any table the
file sizes is built), validates the document against its JSON Schema, and refuses
unknown fields. The registry of agent kinds (:mod:`menace_lib.agents.registry`) dispatches
a document to its kind; each kind reads only what is its own (boxes, Q rows, counts).

The settings of every kind are frozen dataclasses written the same way
(:func:`settings_to_dict`, :func:`settings_from_dict`): fields in order, the side as
``"X"``/``"O"``, tuples as lists, and the fields a kind leaves out at their defaults
(so the files of the defaults stay as they were).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any

from .. import schemas
from ..base.files import AgentFileError, check_header, read_json
from .board import O, X

__all__ = [
    "AGENT_FILE",
    "open_agent_document",
    "read_agent_file",
    "settings_from_dict",
    "settings_to_dict",
]

AGENT_FILE = "agent file"
"""What an agent file is called in every message about one."""


def read_agent_file(path: str | os.PathLike[str]) -> Any:
    """The JSON document in the agent file ``path`` (size-limited, safely parsed).

    Raises
    ------
    AgentFileError
        If the file is missing, not a regular file, too large or not JSON.
    """
    return read_json(path, AGENT_FILE)


def open_agent_document(
    data: Any,
    fmt: str,
    version: int,
    *,
    admit: Callable[[dict], Any] | None = None,
    schema: bool | Callable[[dict], Any] = True,
    keys: Iterable[str] | None = None,
    what: str = AGENT_FILE,
) -> None:
    """The checks every kind makes before it reads its own fields, in this order.

    Parameters
    ----------
    data
        The document.
    fmt, version
        The format and version the kind reads.
    admit
        Checks the game the document names and its entries' count before anything is
        built; a ``ValueError`` it raises becomes the :class:`AgentFileError`.
    schema
        ``True``: validate ``data`` against its schema; ``False``: the kind has none; a
        function: validate what it returns for ``data`` instead (a view of it, as
        MENACE's boxes cut to one before their count is known).
    keys
        The top-level fields the kind knows: any other is refused.
    what
        What the document is, for messages (a checkpoint file holds agents).

    Raises
    ------
    AgentFileError
        Naming the first bad field.
    """
    check_header(data, fmt, version, what)
    if admit is not None:
        try:
            admit(data)
        except ValueError as err:
            raise AgentFileError(str(err)) from None
    if schema is not False:
        schemas.validate(data if schema is True else schema(data), what)
    if keys is not None:
        extra = sorted(set(data) - set(keys))
        if extra:
            raise AgentFileError(f"unknown field(s) {extra}")


def settings_to_dict(config: Any, *, omit: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A settings dataclass as its file writes it.

    Every field in order, ``player`` as ``"X"``/``"O"``, tuples as lists; a field named in
    ``omit`` is left out when it holds the value given there (its default), so a file
    written before the field existed reads the same.
    """
    out = {f.name: getattr(config, f.name) for f in fields(config)}
    for name, value in out.items():
        if isinstance(value, tuple):
            out[name] = list(value)
    if "player" in out:
        out["player"] = "XO"[out["player"] - 1]
    for name, default in (omit or {}).items():
        if out[name] == default:
            del out[name]
    return out


def settings_from_dict(
    cls: type,
    data: Any,
    *,
    lists: Mapping[str, str] | None = None,
    tuples: Iterable[str] = (),
) -> Any:
    """The inverse of :func:`settings_to_dict`: ``cls`` built from a file's object.

    ``lists`` maps a field that must be a JSON list to what the message calls it;
    ``tuples`` names the fields handed to ``cls`` as tuples. ``ValueError`` names an
    unknown field or a bad value (the class checks the ranges).
    """
    if not isinstance(data, dict):
        raise ValueError(f"must be an object, got {type(data).__name__}")
    extra = sorted(set(data) - {f.name for f in fields(cls)})
    if extra:
        raise ValueError(f"unknown field(s) {extra}")
    values = dict(data)
    if "player" in values:
        if values["player"] not in ("X", "O"):
            raise ValueError(f"player must be 'X' or 'O', got {values['player']!r}")
        values["player"] = X if values["player"] == "X" else O
    for name, what in (lists or {}).items():
        if name in values and not isinstance(values[name], list):
            raise ValueError(f"{name} must be {what}, got {values[name]!r}")
    for name in tuples:
        if name in values:
            values[name] = tuple(values[name])
    return cls(**values)
