"""Every quantitative claim of the thesis's Chapters 4–10 and of the history, read from data.

The thesis is Woś (2026), *MENACE as a Bayesian Observer*. The claims are records
in ``catalogue.json`` (next to this module), in the order of the thesis; each table
row is its own claim. Left out on purpose: dates and citations (Michie 1961,
Thompson 1933), definitions (eq. 7.4 is used, not claimed) and statements with no
number or direction to test.

The file is checked against the JSON Schema
``menace_lib/schemas/menace_lib.claims.v1.schema.json`` before any record is
built. A record names its measure (a key of :data:`~.measures.MEASURES`, or of
:data:`~.measures.FACTORIES` with ``args``) and its criterion (``rule`` and that
rule's fields, :data:`RULES`). A table-row record gives only ``row`` (a suite key):
its id, the thesis's value, the measure and the criterion follow from the suite
(:func:`row_claim`). Where the thesis cannot be matched, the record says why
(``explanation`` with the place the book explains it, or ``reason`` when the
thesis's number cannot be obtained at all).

Historical records (section ``"H.n"``) check the record the book retells (Michie 1961
and 1963, Gardner 1962, Scroggs' web MENACE): ``source`` names who says it and where,
and ``thesis`` holds that source's value. They come last, in one block.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ...base.files import AgentFileError
from ...experiments import THESIS_SUITE
from ...schemas import validate
from . import findings
from .ledger import (
    AtLeast,
    AtMost,
    Claim,
    Criterion,
    Equals,
    Holds,
    Link,
    NothingToCompare,
    Within,
    WithinFactor,
    WithinSpread,
)
from .measures import CHANCE_LINK, FACTORIES, MEASURES

__all__ = ["CATALOGUE", "CHANCE_LINK", "CLAIMS", "RULES", "claims", "load_records", "row_claim"]

CATALOGUE = "catalogue.json"
"""The data file of the claims, in this package."""

RULES: dict[str, type[Criterion]] = {
    "equals": Equals,
    "within": Within,
    "within_spread": WithinSpread,
    "at_least": AtLeast,
    "at_most": AtMost,
    "holds": Holds,
    "nothing_to_compare": NothingToCompare,
    "within_factor": WithinFactor,
}
"""A record's ``criterion.rule`` -> the criterion it builds (its other fields are the rule's)."""


def _tuples(value: Any) -> Any:
    """Lists (as JSON gives them) to tuples, recursively, as the measures return them."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _slug(text: str) -> str:
    """An ASCII identifier: ``"9.1-Pure AIF-λ=0.25"`` → ``"9.1-pure-aif-lambda-0.25"``."""
    text = text.lower().replace("λ", "lambda")
    out = "".join(ch if ch.isalnum() or ch == "." else "-" for ch in text)
    return "-".join(part for part in out.split("-") if part)


def _pm(mean: float, sd: float) -> str:
    return f"{mean:.1f} ± {sd:.1f}"


def _link(d: dict[str, str] | None) -> Link | None:
    return None if d is None else Link(d["doc"], d.get("anchor", ""), d.get("text", ""))


def row_claim(record: dict[str, Any]) -> Claim:
    """The claim of one results-table row (``record["row"]`` is the suite key)."""
    key = record["row"]
    found = [c for c in THESIS_SUITE if c.key == key]
    if not found:
        raise ValueError(f"claims: no suite row {key!r}")
    c = found[0]
    thesis = _pm(c.thesis_draw, c.thesis_draw_sd)
    if c.thesis_seeds != 10:
        thesis += f" ({c.thesis_seeds} seeds)"
    if key in findings.BIMODAL_KEYS:
        count = findings.thesis_successes(c.thesis_draw, c.thesis_seeds)
        thesis += f" ({count} of {c.thesis_seeds} seeds)"
        criterion: Criterion = Holds(
            f"within {c.thesis_draw_sd:g} (the thesis's SD), with the thesis's count of "
            "seeds that hold the perfect player"
        )
    else:
        criterion = WithinSpread(c.thesis_draw, c.thesis_draw_sd)
    return _claim(
        record,
        id=_slug(f"{c.table}-{c.label}-{c.condition}"),
        thesis=thesis,
        measure=FACTORIES["row"](key),
        criterion=criterion,
        row=key,
    )


def _claim(record: dict[str, Any], **given: Any) -> Claim:
    return Claim(
        section=record["section"],
        claim=record["claim"],
        shown=_link(record["shown"]),
        explanation=record.get("explanation", ""),
        explained_at=_link(record.get("explained_at")),
        reason=record.get("reason", ""),
        also=tuple(record.get("also", ())),
        kind=record["kind"],
        source=record.get("source", ""),
        repeats=record.get("repeats", ""),
        reference=record.get("reference", ""),
        **given,
    )


def _measure(record: dict[str, Any]):
    name = record["measure"]
    if "args" in record:
        if name not in FACTORIES:
            raise ValueError(f"claims: {record['id']}: no measure factory {name!r}")
        return FACTORIES[name](*record["args"])
    if name not in MEASURES:
        raise ValueError(f"claims: {record['id']}: no measure {name!r}")
    return MEASURES[name]


def _criterion(record: dict[str, Any]) -> Criterion:
    fields = dict(record["criterion"])
    rule = RULES[fields.pop("rule")]
    return rule(**{k: _tuples(v) for k, v in fields.items()})


def load_records(text: str | None = None) -> list[dict[str, Any]]:
    """The claim records of ``catalogue.json`` (or of ``text``), checked against the schema.

    Raises
    ------
    AgentFileError
        Naming the first field that breaks the schema (or the JSON syntax).
    """
    if text is None:
        text = (resources.files(__package__) / CATALOGUE).read_text(encoding="utf-8")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise AgentFileError(f"{CATALOGUE}: {e}") from None
    validate(doc, CATALOGUE)
    return doc["claim"]


def claims(records: list[dict[str, Any]] | None = None) -> list[Claim]:
    """Every claim, in the thesis's order, built from its record."""
    out = []
    for record in records if records is not None else load_records():
        if "row" in record:
            out.append(row_claim(record))
        else:
            out.append(
                _claim(
                    record,
                    id=record["id"],
                    thesis=record["thesis"],
                    measure=_measure(record),
                    criterion=_criterion(record),
                )
            )
    ids = [c.id for c in out]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate claim ids: {sorted({i for i in ids if ids.count(i) > 1})}")
    for c in out:
        if c.repeats and (c.repeats not in ids or c.repeats == c.id):
            raise ValueError(f"claims: {c.id} repeats {c.repeats!r}, which is no other claim")
    return out


CLAIMS: list[Claim] = claims()
"""The ledger's claims (built once at import)."""
