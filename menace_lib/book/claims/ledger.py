"""A claim as data, the rule that judges it, and the verdict that follows.

A :class:`Claim` holds a short paraphrase of one quantitative statement of the
thesis, its section, the thesis's value as printed, a ``measure`` function that
computes this project's value from :class:`~.evidence.Evidence` (the library and the
cached results), and a :class:`Criterion` (a tolerance or a statistical test). Its
verdict is computed, never typed:

``reproduced``, ``recomputed``, ``by construction``, ``restated``
    the criterion holds; which of the four depends on the claim's :attr:`Claim.kind`
    (see :mod:`menace_lib.experiments.verdicts`): only ``reproduced`` is an empirical
    reproduction;
``differs``
    it does not, and the book explains why: either the claim names the
    explanation and where the book gives it, or the difference is one ten seeds
    produce by chance (the measure says how likely: :attr:`Measured.chance`);
``not reproducible``
    the thesis's value cannot be obtained from its own configuration or reports
    nothing to compare with; the claim states the reason.

A claim whose criterion fails with neither an explanation nor a reason gets the
verdict ``unexplained``: the ledger's test fails on it, so a library change that
moves a number can never pass silently.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...experiments.verdicts import KINDS, VERDICTS, verdict_counts

__all__ = [
    "CHANCE_LEVEL",
    "VERDICTS",
    "AtLeast",
    "AtMost",
    "Claim",
    "Criterion",
    "Entry",
    "Equals",
    "Holds",
    "Link",
    "Measured",
    "NothingToCompare",
    "Within",
    "WithinSpread",
    "KINDS",
    "counts",
    "evaluate",
]


CHANCE_LEVEL = 0.05
"""A difference is put down to chance when the thesis's outcome has at least this probability."""


@dataclass(frozen=True)
class Link:
    """A place in the book: a page (its file name without extension) and an optional anchor."""

    doc: str
    anchor: str = ""
    text: str = ""

    def href(self) -> str:
        """Relative URL of the built page, e.g. ``empirical_results.html#claims-variance``."""
        return f"{self.doc}.html" + (f"#{self.anchor}" if self.anchor else "")


@dataclass(frozen=True)
class Measured:
    """This project's value of a claim.

    Attributes
    ----------
    value
        What the criterion judges (a number, a tuple, a bool, ...).
    text
        The value as the ledger shows it.
    note
        Supporting statistics: the test, its p-value, the seeds behind it.
    chance
        For claims about seeds: the probability of the thesis's outcome had its
        seeds behaved as ours (``None`` where that question does not arise).
    """

    value: Any
    text: str
    note: str = ""
    chance: float | None = None


class Criterion:
    """A rule a measured value must satisfy (:meth:`holds`), and its wording (:meth:`describe`)."""

    def holds(self, value: Any) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


def _close(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        a, b = list(a), list(b)
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b, strict=True))
    return a is not None and math.isfinite(float(a)) and abs(float(a) - float(b)) <= tol + 1e-12


@dataclass(frozen=True)
class Equals(Criterion):
    """The value equals ``target`` exactly (counts, settings)."""

    target: Any

    def holds(self, value: Any) -> bool:
        return value == self.target

    def describe(self) -> str:
        return "equal"


@dataclass(frozen=True)
class Within(Criterion):
    """Every component within ``tol`` of ``target`` (a printed rounding, a tolerance)."""

    target: Any
    tol: float
    why: str = ""

    def holds(self, value: Any) -> bool:
        return _close(value, self.target, self.tol)

    def describe(self) -> str:
        return f"within ±{self.tol:g}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True)
class WithinSpread(Criterion):
    """Our mean within one of the thesis's seed SDs of its mean (judged on the thesis's spread)."""

    mean: float
    sd: float

    def holds(self, value: Any) -> bool:
        return value is not None and abs(float(value) - self.mean) <= self.sd + 1e-9

    def describe(self) -> str:
        return f"|ours − {self.mean:g}| ≤ {self.sd:g} (the thesis's seed SD)"


@dataclass(frozen=True)
class AtLeast(Criterion):
    """The value is at least ``bound``."""

    bound: float
    why: str = ""

    def holds(self, value: Any) -> bool:
        return value is not None and float(value) >= self.bound

    def describe(self) -> str:
        return f"≥ {self.bound:g}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True)
class AtMost(Criterion):
    """The value is at most ``bound``."""

    bound: float
    why: str = ""

    def holds(self, value: Any) -> bool:
        return value is not None and float(value) <= self.bound

    def describe(self) -> str:
        return f"≤ {self.bound:g}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True)
class Holds(Criterion):
    """The measure returns whether the stated condition holds (``why`` says which)."""

    why: str

    def holds(self, value: Any) -> bool:
        return bool(value)

    def describe(self) -> str:
        return self.why


@dataclass(frozen=True)
class NothingToCompare(Criterion):
    """The thesis gives no value to compare ours with; never holds."""

    def holds(self, value: Any) -> bool:
        return False

    def describe(self) -> str:
        return "no thesis value to compare"


@dataclass(frozen=True)
class Claim:
    """One quantitative claim of the thesis (see the module docstring).

    Attributes
    ----------
    id
        Unique, stable identifier (``"9.1-menace"``).
    section
        Thesis section, e.g. ``"9.2"``; its chapter is the part before the dot.
    claim
        Short paraphrase.
    thesis
        The thesis's value as printed.
    measure
        ``measure(evidence) -> Measured``: this project's value.
    criterion
        What the measured value must satisfy for the claim to be reproduced.
    shown
        Where the book shows the value.
    explanation, explained_at
        Why it differs, and where the book says so (for an expected difference).
    reason
        Why the thesis's value cannot be reproduced (makes the verdict
        ``not reproducible`` when the criterion fails).
    also
        Other sections that repeat the claim (e.g. a summary in Chapter 10).
    kind
        ``"empirical"``, ``"computed"``, ``"construction"``, ``"restatement"`` or ``"new"``
        (:data:`menace_lib.experiments.verdicts.KINDS`): what the verdict is when the criterion
        holds.
    row
        The suite row a table-row claim judges (``"9.1/SARSA/defensive"``), or ``""``.
    """

    id: str
    section: str
    claim: str
    thesis: str
    measure: Callable[[Any], Measured]
    criterion: Criterion
    shown: Link
    explanation: str = ""
    explained_at: Link | None = None
    reason: str = ""
    also: tuple[str, ...] = ()
    kind: str = "empirical"
    row: str = ""

    def __post_init__(self) -> None:
        if not self.id or not self.section[:1].isdigit():
            raise ValueError(f"claim needs an id and a numbered section, got {self!r}")
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} is not one of {tuple(KINDS)}")
        if bool(self.explanation) != (self.explained_at is not None):
            raise ValueError(f"{self.id}: an explanation needs a link, and a link a text")
        if self.explanation and self.reason:
            raise ValueError(f"{self.id}: give an explanation or a reason, not both")

    @property
    def chapter(self) -> int:
        return int(self.section.split(".")[0])

    @property
    def chapters(self) -> tuple[int, ...]:
        """The chapters that make the claim: its own and those of :attr:`also`."""
        found = [self.chapter, *(int(s.split(".")[0]) for s in self.also)]
        return tuple(sorted(set(found)))


@dataclass(frozen=True)
class Entry:
    """A claim with its measured value and verdict."""

    claim: Claim
    measured: Measured
    passed: bool
    verdict: str
    why: str
    why_at: Link | None

    def summary(self) -> dict[str, Any]:
        """What the committed snapshot stores: enough to notice any moved number."""
        out = {
            "id": self.claim.id,
            "section": self.claim.section,
            "kind": self.claim.kind,
            "verdict": self.verdict,
            "ours": self.measured.text,
            "note": self.measured.note,
            "why": self.why,
        }
        if self.claim.row:
            out["row"] = self.claim.row
        return out


def evaluate(claim: Claim, evidence: Any, chance_link: Link | None = None) -> Entry:
    """Measure one claim and give its verdict (see the module docstring).

    Raises
    ------
    ValueError
        If the stored results the measure reads are not in their stored form (a
        number written as text, a missing field): one line naming the claim.
    """
    try:
        measured = claim.measure(evidence)
    except (TypeError, KeyError, IndexError, AttributeError) as err:
        where = getattr(evidence, "data_dir", "the results folder")
        raise ValueError(
            f"claim {claim.id}: the results in {str(where)!r} are not in their stored form "
            f"({type(err).__name__}: {str(err)[:120]})"
        ) from None
    if not isinstance(measured, Measured):
        raise TypeError(f"{claim.id}: measure must return Measured, got {type(measured).__name__}")
    passed = claim.criterion.holds(measured.value)
    if passed:
        return Entry(claim, measured, True, KINDS[claim.kind], "", None)
    if claim.reason:
        return Entry(claim, measured, False, "not reproducible", claim.reason, None)
    if measured.chance is not None and measured.chance >= CHANCE_LEVEL:
        why = (
            f"a seed-to-seed difference: the thesis's outcome has probability "
            f"{measured.chance:.2f} had its seeds behaved as ours"
        )
        if claim.explanation:
            why = f"{why}. {claim.explanation}"
        return Entry(claim, measured, False, "differs", why, chance_link or claim.explained_at)
    if claim.explanation:
        return Entry(claim, measured, False, "differs", claim.explanation, claim.explained_at)
    return Entry(claim, measured, False, "unexplained", "", None)


def counts(entries: Sequence[Entry]) -> dict[str, int]:
    """Number of entries per verdict, in :data:`VERDICTS` order, and ``agrees`` (every
    verdict whose criterion holds; ``reproduced`` alone counts empirical reproductions)."""
    return verdict_counts([e.verdict for e in entries])
