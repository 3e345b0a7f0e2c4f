"""Every agent kind's settings as command-line options, read from the registry.

Each kind of :func:`menace_lib.agents.registry.agent_kinds` offers exactly the settings in its
:attr:`~menace_lib.agents.registry.AgentKind.options` (the fields of its own configuration class,
defined once in :mod:`menace_lib.agents.options`), so an option that does not apply to a
kind is not offered at all. Options only parse text (a number, a list of numbers, a
side); the range checks are the configuration classes' own, made when the agent is
built, before any training.

An option left out is not passed on, so the configuration's own default applies;
``--help`` shows that default, read from the kind (:meth:`AgentKind.settings`).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..agents.options import Option, numbers, side
from ..agents.registry import AgentKind

__all__ = ["Option", "add_kind_options", "given_params", "numbers", "side"]


def _show(value: Any, name: str = "") -> str:
    if name in ("player", "learner_side"):
        return "XO"[value - 1]
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "unset"
    return str(value)


def add_kind_options(parser: argparse.ArgumentParser, kind: AgentKind) -> None:
    """Add a kind's options to ``parser``; an option left out is absent from the result."""
    group = parser.add_argument_group("agent settings")
    defaults = kind.settings()
    for name, opt in kind.options.items():
        text = f"{opt.help} (default {_show(defaults.get(name), name)})"
        if opt.type is None and opt.choices is None:
            action = argparse.BooleanOptionalAction
            group.add_argument(
                opt.flag, dest=name, action=action, default=argparse.SUPPRESS, help=text
            )
        else:
            group.add_argument(
                opt.flag,
                *opt.aliases,
                dest=name,
                type=opt.type or str,
                choices=opt.choices,
                metavar=opt.metavar,
                default=argparse.SUPPRESS,
                help=text,
            )


def given_params(args: argparse.Namespace, kind: AgentKind) -> dict[str, Any]:
    """The kind's settings given on the command line, checked against ``requires``.

    Raises
    ------
    ValueError
        For a setting that needs another one set otherwise (it would be ignored).
    """
    params = {name: getattr(args, name) for name in kind.options if hasattr(args, name)}
    defaults = kind.settings()
    for name, (other, value) in kind.requires.items():
        if name in params and params.get(other, defaults[other]) != value:
            opt, needed = kind.options[name], kind.options[other]
            raise ValueError(
                f"{opt.flag} {_show(params[name], name)} applies only with {needed.flag} {value}; "
                f"with {needed.flag} {params.get(other, defaults[other])} it is never used"
            )
    return params
