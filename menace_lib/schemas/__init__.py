"""The published file formats, as JSON Schemas, and their validation.

Each saved kind of document has a schema file here, named
``<format>.v<version>.schema.json``:

=========================================  ==========================================
``menace_lib.menace.v1.schema.json``        a saved MENACE
``menace_lib.aif.v1.schema.json``           the Active Inference agents (five formats)
``menace_lib.rl.v1.schema.json``            Q-learning and SARSA
``menace_lib.checkpoints.v1.schema.json``   the play widget's checkpoint file
``menace_lib.claims.v1.schema.json``        the thesis's claims (``claims/catalogue.json``)
=========================================  ==========================================

``properties.format.const`` (or ``.enum``, for a family of formats that share one
schema) and ``properties.version.const`` say which documents a schema describes; its
``$id`` is ``urn:menace-lib:schema:<format>:<version>``. A document that embeds an
agent (a checkpoint file, an Active Inference agent's matchboxes) leaves it to the
agent's own schema, checked when the agent is loaded.

To add a kind of agent, drop its schema file in this folder; :func:`validate` finds
it by the document's ``format`` and ``version``. A schema checks shapes, types and
ranges (see :mod:`menace_lib.base.limits`) and rejects unknown keys at every level. The
loader of each kind then makes the checks a schema cannot express.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..base.files import AgentFileError, shorten

if TYPE_CHECKING:  # jsonschema takes seconds to import: load it on first validation
    from jsonschema import Draft202012Validator
    from referencing import Registry

__all__ = ["known_formats", "schema_for", "validate"]

_MESSAGE_LIMIT = 200


@cache
def _schemas() -> dict[tuple[str, int], dict[str, Any]]:
    """Every packaged schema, keyed by the (format, version) it describes."""
    found = {}
    for entry in resources.files(__name__).iterdir():
        if entry.name.endswith(".schema.json"):
            schema = json.loads(entry.read_text(encoding="utf-8"))
            props = schema["properties"]
            fmt = props["format"]  # one format (const), or a family sharing a schema (enum)
            for name in fmt["enum"] if "enum" in fmt else [fmt["const"]]:
                found[(name, props["version"]["const"])] = schema
    return found


def _import_jsonschema() -> None:
    """Import jsonschema without its optional ``rfc3987_syntax`` format checker.

    jsonschema imports every optional format checker it finds, and that one builds a
    parser for seconds (a notebook cell that loads a checkpoint would pass the 3 s
    limit). Our schemas use no ``format`` keyword, so it is hidden during the import
    and left importable for anyone else afterwards.
    """
    if "jsonschema" in sys.modules:
        return
    hidden = "rfc3987_syntax" not in sys.modules
    if hidden:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]
    try:
        import jsonschema  # noqa: F401
    finally:
        if hidden:
            del sys.modules["rfc3987_syntax"]


def _unique_schemas() -> dict[str, dict[str, Any]]:
    """Every packaged schema once, by its ``$id`` (a family is listed once per format)."""
    return {s["$id"]: s for s in _schemas().values()}


@cache
def _registry() -> Registry:
    _import_jsonschema()
    from referencing import Registry, Resource

    resources_ = [Resource.from_contents(s) for s in _unique_schemas().values()]
    return Registry().with_resources((r.id(), r) for r in resources_)


@cache
def _validator(fmt: str, version: int) -> Draft202012Validator:
    _import_jsonschema()
    from jsonschema import Draft202012Validator

    schema = _schemas()[(fmt, version)]
    # Resolving a $ref costs more than checking a number, and an agent has thousands
    # of beads: validate against a copy with the local references written out.
    return Draft202012Validator(_inline_refs(schema, schema.get("$defs", {})), registry=_registry())


def _refuse_retrieval(uri: str) -> Any:
    """Every schema is packaged: nothing is ever fetched (the site and tests are offline)."""
    raise ValueError(f"no schema is fetched: {uri}")


@cache
def _fast_registry() -> Any:
    """jsonschema-rs's registry of every packaged schema (built once, as :func:`_registry`)."""
    import jsonschema_rs

    return jsonschema_rs.Registry(list(_unique_schemas().items()), retriever=_refuse_retrieval)


@cache
def _fast_validator(fmt: str, version: int) -> Any:
    """jsonschema-rs's compiled validator of the same schema, or None.

    None when jsonschema-rs is not installed or cannot take the schema: then jsonschema alone
    decides, as it always may.
    """
    try:
        import jsonschema_rs
    except ImportError:
        return None
    try:
        return jsonschema_rs.Draft202012Validator(
            _schemas()[(fmt, version)], registry=_fast_registry(), retriever=_refuse_retrieval
        )
    except Exception:  # noqa: BLE001 - any failure to compile: the full check decides
        return None


def _fast_accepts(fmt: str, version: int, doc: Any) -> bool:
    """True only if jsonschema-rs finds ``doc`` valid; everything else goes to jsonschema.

    jsonschema checks a Connect-4 4×4 agent (34,000 boxes) in about 3 CPU-s, jsonschema-rs in
    0.03. It only ever accepts: a document it refuses (or cannot read, e.g. an integer past
    64 bits) is checked again by jsonschema, which names the first bad field, so every
    message is as before. That it is never more lenient than jsonschema is tested over
    mutated documents (``tests/test_schema_fast_path.py``).
    """
    fast = _fast_validator(fmt, version)
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(doc))
    except Exception:  # noqa: BLE001 - a value it cannot convert: jsonschema decides
        return False


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/NAME"}`` replaced by its definition."""
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/") and len(node) == 1:
        return _inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
    return {k: _inline_refs(v, defs) for k, v in node.items()}


def known_formats() -> list[tuple[str, int]]:
    """The (format, version) pairs that have a schema, sorted."""
    return sorted(_schemas())


def schema_for(fmt: str, version: int) -> dict[str, Any]:
    """The JSON Schema of one format and version (a copy of the packaged file)."""
    try:
        return json.loads(json.dumps(_schemas()[(fmt, version)]))
    except KeyError:
        raise KeyError(f"no schema for format {fmt!r} version {version!r}") from None


def validate(doc: Any, what: str = "file") -> None:
    """Check ``doc`` against the schema its ``format`` and ``version`` name.

    Raises
    ------
    AgentFileError
        If ``doc`` is not an object, names no known format and version, or breaks
        its schema. The message names the first bad field, e.g.
        ``boxes[7].beads[0]: -3 is less than the minimum of 0``.
    """
    if not isinstance(doc, dict):
        raise AgentFileError(f"{what}: top level must be a JSON object")
    fmt, version = doc.get("format"), doc.get("version")
    key = (fmt, version)
    if not any(key == k for k in _schemas()):  # no hashing: fmt may be a list
        raise AgentFileError(
            f"format/version: {shorten(repr(fmt))} version {shorten(repr(version))} is not one of "
            f"{[f'{f} v{v}' for f, v in known_formats()]}"
        )
    whole = isinstance(version, int) or (isinstance(version, float) and version.is_integer())
    if isinstance(version, bool) or not whole:  # JSON's 1.0 is 1, as in a browser
        raise AgentFileError(f"version: must be an integer, got {shorten(repr(version))}")
    version = int(version)
    if _fast_accepts(fmt, version, doc):
        return
    try:
        _import_jsonschema()  # before jsonschema.exceptions, which imports the package
        from jsonschema.exceptions import best_match

        error = best_match(_validator(fmt, version).iter_errors(doc))
    except RecursionError:
        raise AgentFileError(f"{what}: nested too deeply") from None
    if error is not None:
        where = error.json_path.removeprefix("$").removeprefix(".")
        if "propertyNames" in error.schema_path:  # the path stops at the object: name the key
            where += f"[{shorten(repr(error.instance))}]"
        raise AgentFileError(f"{where or 'top level'}: {_plain(error)}")


_TYPE_NAMES = {
    "array": "a list",
    "object": "an object",
    "number": "a number",
    "integer": "a whole number",
    "string": "text",
    "boolean": "true or false",
    "null": "null",
}


def _plain(error: Any) -> str:
    """jsonschema's message, said the way the library's own checks say it."""
    got = shorten(repr(error.instance))
    if error.validator == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        return f"unknown field(s) {shorten(repr(sorted(set(error.instance) - allowed)))}"
    if error.validator == "type":
        kinds = error.validator_value
        kinds = [kinds] if isinstance(kinds, str) else kinds
        return f"must be {' or '.join(_TYPE_NAMES.get(k, k) for k in kinds)}, got {got}"
    if "propertyNames" in error.schema_path:
        return f"key {shorten(error.message, _MESSAGE_LIMIT)}"
    return shorten(error.message, _MESSAGE_LIMIT)
