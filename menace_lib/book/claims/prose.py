"""The ledger's numbers in the book's sentences: ``{claim}`id:field``` reads them at build time.

A sentence of the book that states a headline number writes, in its source, which claim of
the ledger the number is and which part of the claim's entry it shows; the book's Sphinx
extension (``book/_ext/claim_values.py``), the notebooks download and the handouts put the
ledger's committed value there (:func:`value`, :func:`substitute`). The rendered text shows
the number, never the claim's id, so a sentence cannot drift from the ledger.

Fields
------
``ours``      the ledger's value as written ("move − box −21.9 pp");
``note``      the ledger's note ("exact, 40 seeds, p = 2e-21");
``verdict``   the committed verdict ("reproduced");
``value``     the first number of ``ours`` that carries a unit (pp or %), or else its first
              number, signed, with its unit ("−21.9 pp", "+4.0 pp", "83 %", "83.4");
``size``      the same number without sign or unit ("21.9");
``number``    a number of ``ours`` as printed, whatever its unit ("17,750"): for an entry
              that states several numbers, some with units and some without;
``noted``     a number of the note, as printed ("0.83");
``seeds``     the seed count of the note, or else of the value ("40 seeds");
``measure``   what the number measures, from the note ("exact draw probability");
``p``         the note's p-value ("p = 2 × 10⁻²¹", as maths where a page can show it).

``value``, ``size``, ``number``, ``noted`` and ``p`` take ``@k`` for the k-th number
(``value@2``), counted from 1.
``count:<verdict>`` is the number of claims with that verdict (``count:differs``), or with any
agreeing verdict (``count:agrees``), or of all claims (``count:all``); ``count:distinct`` is the
number of distinct empirical reproductions (a run that several tables print counted once).
"""

from __future__ import annotations

import re
from pathlib import Path

from ...experiments.verdicts import AGREEING, DATA_DIR, VERDICTS, committed, is_historical

__all__ = ["FIELDS", "ROLE", "Part", "count", "parts", "substitute", "text", "value"]

FIELDS = ("ours", "note", "verdict", "value", "size", "number", "noted", "seeds", "measure", "p")
"""The parts of a claim's entry a sentence can show."""

ROLE = re.compile(r"\{claim\}`([^`]+)`")
"""The role in MyST Markdown: ``{claim}`9.8.2-move-underperforms:size```."""

_NUMBER = r"[+\-−]?\d[\d,]*(?:\.\d+)?"
_WITH_UNIT = re.compile(rf"(?<![\w=.])({_NUMBER})\s*(pp|%)")
_PLAIN = re.compile(rf"(?<![\w=.·λ])({_NUMBER})(?![\w.])")
_SEEDS = re.compile(r"(\d+) seeds")
_P = re.compile(r"\bp\s*(?:=|≤|<)\s*(\d(?:\.\d+)?)(?:e([+-]?\d+))?")
_MEASURES = (
    ("exact", "exact draw probability"),
    ("100-game validation", "100-game validation"),
    ("training draw rate", "training draw rate"),
)

Part = tuple[str, str]
"""A piece of rendered text: ``("text", s)`` or ``("math", latex)``."""


def _parse(spec: str) -> tuple[str, str, int]:
    """``"id:field@k"`` -> (id, field, k); the field defaults to ``value``.

    Raises
    ------
    ValueError
        Naming the bad field or index.
    """
    claim_id, _, field = spec.strip().partition(":")
    field = field or "value"
    field, _, index = field.partition("@")
    if field not in FIELDS:
        raise ValueError(f"claim {claim_id!r}: unknown field {field!r}; one of {', '.join(FIELDS)}")
    if index and (not index.isdigit() or int(index) < 1):
        raise ValueError(f"claim {claim_id!r}: index {index!r} must be a whole number ≥ 1")
    if index and field not in ("value", "size", "number", "noted", "p"):
        raise ValueError(
            f"claim {claim_id!r}: only value, size, number, noted and p take an index, "
            f"not {field!r}"
        )
    return claim_id, field, int(index or 1)


def _entry(claim_id: str, data_dir: str | Path) -> dict:
    ledger = committed(data_dir)
    if claim_id not in ledger:
        raise KeyError(f"no claim {claim_id!r} in the ledger")
    return ledger[claim_id]


def _minus(number: str) -> str:
    return "−" + number[1:] if number.startswith("-") else number


def _nth(items: list, k: int, what: str, claim_id: str, source: str) -> object:
    if len(items) < k:
        raise ValueError(f"claim {claim_id!r}: no {what} number {k} in {source!r}")
    return items[k - 1]


def parts(spec: str, data_dir: str | Path = DATA_DIR) -> list[Part]:
    """The rendered pieces of one role body (``"id:field"``), from the committed ledger.

    Raises
    ------
    KeyError
        If the ledger has no such claim.
    ValueError
        If the field is unknown or the entry holds no such number.
    """
    if spec.strip().startswith("count:"):
        return [("text", str(count(spec.strip()[len("count:") :], data_dir)))]
    claim_id, field, k = _parse(spec)
    entry = _entry(claim_id, data_dir)
    ours, note = entry["ours"], entry["note"]
    if field in ("ours", "note", "verdict"):
        return [("text", _minus_all({"ours": ours, "note": note}.get(field, entry["verdict"])))]
    if field in ("value", "size"):
        found = [(m[1], m[2]) for m in _WITH_UNIT.finditer(ours)]
        found = found or [(m[1], "") for m in _PLAIN.finditer(ours)]
        number, unit = _nth(found, k, "", claim_id, ours)
        if field == "size":
            return [("text", number.lstrip("+-−"))]
        return [("text", _minus(number) + (f" {unit}" if unit else ""))]
    if field == "number":
        found = [m[1].rstrip(",") for m in _PLAIN.finditer(ours)]  # "4×4," is 4
        return [("text", _minus(str(_nth(found, k, "", claim_id, ours))))]
    if field == "noted":
        return [
            (
                "text",
                _minus(str(_nth([m[1] for m in _PLAIN.finditer(note)], k, "", claim_id, note))),
            )
        ]
    if field == "seeds":
        if re.search(r"\d+ seeds:", note):
            # "40 seeds: 84.5 ± 5.5" is a second figure; the value itself has the protocol's seeds.
            raise ValueError(
                f"claim {claim_id!r}: the note's seed count belongs to its second figure"
            )
        m = _SEEDS.search(note) or _SEEDS.search(ours)
        if not m:
            raise ValueError(f"claim {claim_id!r}: no seed count in {note!r} or {ours!r}")
        return [("text", f"{m[1]} seeds")]
    if field == "measure":
        for key, name in _MEASURES:
            if key in note:
                return [("text", name)]
        raise ValueError(f"claim {claim_id!r}: no measure named in {note!r}")
    mantissa, exponent = _nth([(m[1], m[2]) for m in _P.finditer(note)], k, "p", claim_id, note)
    if not exponent:
        return [("text", f"p = {mantissa}")]
    return [("text", "p = "), ("math", f"{mantissa} \\times 10^{{{int(exponent)}}}")]


def count(verdict: str, data_dir: str | Path = DATA_DIR) -> int:
    """How many claims of the ledger have ``verdict`` (``"agrees"``: the thesis's claims with
    an agreeing one; ``"all"``; ``"distinct"``: the distinct empirical reproductions).

    Raises
    ------
    ValueError
        Naming the unknown verdict.
    """
    claims = committed(data_dir)
    if verdict == "distinct":
        # A run that several tables print (its claims name the first as ``repeats``) once.
        reproduced = {i for i, c in claims.items() if c["verdict"] == "reproduced"}
        return sum(
            c["verdict"] == "reproduced" and c.get("repeats") not in reproduced
            for c in claims.values()
        )
    wanted = {"all": VERDICTS, "agrees": AGREEING}.get(verdict, (verdict,))
    if not set(wanted) <= set(VERDICTS):
        raise ValueError(
            f"count: unknown verdict {verdict!r}; one of {', '.join(VERDICTS)}, agrees, all "
            "or distinct"
        )
    if verdict == "agrees":  # agreeing *with the thesis*: the historical record's claims aside
        return sum(c["verdict"] in wanted and not is_historical(c) for c in claims.values())
    return sum(c["verdict"] in wanted for c in claims.values())


def _minus_all(text_: str) -> str:
    """ASCII hyphens that are minus signs of numbers, as minus signs."""
    return re.sub(r"(?<![\w.])-(?=\d)", "−", text_)


def text(spec: str, data_dir: str | Path = DATA_DIR, math: str = "${}$") -> str:
    """One role body as Markdown text (maths written with ``math``, ``"${}$"`` by default)."""
    return "".join(s if kind == "text" else math.format(s) for kind, s in parts(spec, data_dir))


def value(claim_id: str, field: str = "value", data_dir: str | Path = DATA_DIR) -> str:
    """One field of a claim as plain text (maths as LaTeX between dollars).

    Examples
    --------
    >>> value("9.8.2-move-underperforms", "size")
    '21.9'
    >>> value("9.8.2-move-underperforms", "seeds")
    '40 seeds'
    """
    return text(f"{claim_id}:{field}", data_dir)


def substitute(markdown: str, data_dir: str | Path = DATA_DIR) -> str:
    """MyST Markdown with every ``{claim}`...``` replaced by the ledger's text.

    For the copies of the book that no Sphinx build renders: the notebooks download and the
    handouts. Raises as :func:`parts` on a role the ledger cannot fill.
    """
    return ROLE.sub(lambda m: text(m[1], data_dir), markdown)
