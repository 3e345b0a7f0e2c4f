"""No page of the book disagrees with the claims ledger.

The ledger (menace_lib.book.claims, committed as book/data/claims.json) is the one owner of
every verdict. A page that states a verdict on a claim names the claim by its id in
backticks, followed by the verdict: ``9.8.1-filter-advantage``: differs, or writes the
``{claim}`9.8.1-filter-advantage:verdict``` role, which prints the ledger's word. This test
reads every page's sources and stored outputs and checks each such statement against
the ledger, and that the pages built from the ledger show its counts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from book_pages import page_texts

from menace_lib.book.claims import CLAIMS
from menace_lib.experiments.verdicts import AGREEING, VERDICTS, committed

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
LEDGER = committed(BOOK / "data")
READ = ("text/markdown", "text/plain")  # the outputs a verdict can stand in
_WORDS = "|".join(sorted((re.escape(v) for v in VERDICTS), key=len, reverse=True))
TAGGED = re.compile(
    r"`(?P<id>[0-9][0-9a-z.-]*)`\W{0,4}(?:verdict\W{0,3})?(?P<verdict>" + _WORDS + ")"
)


def _texts(path: Path) -> list[str]:
    """Every cell's source, and the Markdown, plain and printed text the cells stored."""
    return page_texts(path, code=True, kinds=READ, streams=True)


PAGES = sorted(p for p in BOOK.glob("*") if p.suffix in (".md", ".ipynb"))


def tagged_statements(text: str) -> list[tuple[str, str]]:
    """Every (claim id, verdict) a text states with the id-tagged convention."""
    return [(m["id"], m["verdict"]) for m in TAGGED.finditer(text) if m["id"] in LEDGER]


def test_the_convention_is_recognised():
    assert tagged_statements("the filter (`9.8.1-filter-advantage`: differs) and") == [
        ("9.8.1-filter-advantage", "differs")
    ]
    assert tagged_statements("`5.1-games` — recomputed") == [("5.1-games", "recomputed")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_states_a_verdict_the_ledger_does_not_give(page):
    for text in _texts(page):
        for claim_id, verdict in tagged_statements(text):
            assert verdict == LEDGER[claim_id]["verdict"], (
                f"{page.name}: `{claim_id}` is '{verdict}' there, "
                f"'{LEDGER[claim_id]['verdict']}' in the ledger"
            )


def test_the_pages_that_judge_say_so_with_the_ledger():
    # The Discussion states its verdicts with the {claim}`id:verdict` role: the word is the
    # ledger's, read at build time, and the rendered page shows no id.
    discussion = (BOOK / "discussion.md").read_text(encoding="utf-8")
    roles = re.findall(r"\{claim\}`([0-9][0-9a-z.-]*):verdict`", discussion)
    assert len(roles) + len(tagged_statements(discussion)) >= 5
    assert all(r in LEDGER for r in roles)


# ---------------------------------------------------------------- every verdict word
#
# A verdict can be written without an id: "Table 7.1 is reproduced", a table column
# "within thesis SD: yes", a sentence next to a {claim} role. The checks below find every
# word that states a verdict (in the pages' prose, the Markdown tables their code prints and
# the handouts), work out which claims it is about, and fail when the ledger gives none of
# those claims that verdict (or, for a negated word, gives it to all of them).


WORDS: dict[str, frozenset[str]] = {
    r"not reproducible": frozenset({"not reproducible"}),
    r"reproduc(?:ed|es|e|ing|tions?)": frozenset({"reproduced"}),
    r"recomput(?:ed|es|e|ing)": frozenset({"recomputed"}),
    r"differs|differed|differ": frozenset({"differs", "not reproducible", "unexplained"}),
    r"by construction": frozenset({"by construction"}),
    r"restated": frozenset({"restated"}),
    r"match(?:es|ed)?|confirm(?:s|ed)?|agrees?|agreed|consistent(?! across)": frozenset(AGREEING),
}
"""A word (regex) that states a verdict -> the verdicts it can state."""
_WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.I)
_NEGATED = re.compile(r"\b(not|n't|never|no|cannot|nor|neither)\W+(?:\w+\W+){0,2}$", re.I)
# "the thesis's claim that MENACE *matches* ..." reports the thesis's word, not the ledger's.
_REPORTED = re.compile(
    r"(thesis(?:'s)? (?:claims?|says|states|reports|writes)|claim that)\W+(?:\S+\s+){0,6}\S*$",
    re.I,
)
_REF = re.compile(r"\b(Table|Figure|eq\.)\s?(\d+\.\d+)")
_ROLE_ID = re.compile(r"\{claim\}`([0-9][0-9a-z.-]*)(?::[a-z@0-9]+)?`")


def _verdicts_of_word(word: str) -> frozenset[str]:
    for pattern, verdicts in WORDS.items():
        if re.fullmatch(pattern, word, re.I):
            return verdicts
    raise KeyError(word)


def _claims_by_reference() -> dict[str, set[str]]:
    """``Table 9.1`` -> the claims of that table (by their text or their suite row)."""
    out: dict[str, set[str]] = {}
    for c in CLAIMS:
        for kind, number in _REF.findall(c.claim):
            out.setdefault(f"{kind} {number}", set()).add(c.id)
        if c.row:
            out.setdefault(f"Table {c.row.split('/')[0]}", set()).add(c.id)
    return out


REFERENCES = _claims_by_reference()
CLAIM_TEXTS = {re.sub(r"\s+", " ", c.claim): c.id for c in CLAIMS}
ROWS = {tuple(c.row.split("/", 2)): c.id for c in CLAIMS if c.row}  # (table, agent, condition)


def subjects(sentence: str) -> set[str]:
    """The claims a sentence is about: the ids its roles and backticks name, and the
    claims of the tables and equations it cites."""
    found = set(_ROLE_ID.findall(sentence)) | {m["id"] for m in TAGGED.finditer(sentence)}
    found |= {i for i in re.findall(r"`([0-9][0-9a-z.-]*)`", sentence) if i in LEDGER}
    for kind, number in _REF.findall(sentence):
        found |= REFERENCES.get(f"{kind} {number}", set())
    # A table row named by its agent and condition ("SARSA ... defensive").
    for (_, agent, condition), cid in ROWS.items():
        if re.search(rf"\b{re.escape(agent)}\b", sentence) and re.search(
            rf"\b{re.escape(condition)}\b", sentence
        ):
            found.add(cid)
    return {i for i in found if i in LEDGER}


def _sentences(text: str) -> list[str]:
    text = re.sub(r"^(`{3,}|~{3,})(?!\{)[^\n]*\n.*?^\1", "", text, flags=re.M | re.S)
    text = re.sub(r"^\s*\|.*$", "", text, flags=re.M)  # tables are checked cell by cell
    text = re.sub(r"\n\s*[-*] ", "\n\n", text)
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z(*])|\n\s*\n", text)
    return [re.sub(r"\s+", " ", p) for p in parts if p.strip()]


def words_against_ledger(sentence: str) -> list[str]:
    """Every verdict word of a sentence that the ledger contradicts for its subjects."""
    about = subjects(sentence)
    if not about:
        return []
    held = {LEDGER[i]["verdict"] for i in about}
    problems = []
    # A role that prints a verdict states the ledger's word: nothing to check there.
    bare = _ROLE_ID.sub("", sentence)
    for m in _WORD.finditer(bare):
        stated = _verdicts_of_word(m[1])
        before = bare[: m.start()]
        if _REPORTED.search(before[-80:]):
            continue
        negated = bool(_NEGATED.search(before[-40:]))
        wrong = held <= stated if negated else not (held & stated)
        if wrong:
            problems.append(
                f"{'not ' if negated else ''}{m[1]!r} about {sorted(about)}, which the ledger "
                f"calls {sorted(held)}"
            )
    return problems


def _tables(text: str) -> list[list[dict[str, str]]]:
    """The Markdown tables of a text, as rows of {header: cell}."""
    out, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and "---" in lines[i + 1]:
            cells = lambda s: [c.strip() for c in re.split(r"(?<!\\)\|", s.strip())[1:-1]]  # noqa: E731
            head, rows = cells(lines[i]), []
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(dict(zip(head, cells(lines[i]), strict=False)))
                i += 1
            out.append(rows)
        else:
            i += 1
    return out


_JUDGING_COLUMN = re.compile(r"verdict|within|agree|reproduc|match|ledger", re.I)


def _row_claim(row: dict[str, str]) -> str | None:
    """The claim one table row shows: its claim text, or its agent and condition."""
    for value in row.values():
        text = re.sub(r"\s+", " ", value.replace("\\", ""))
        if text in CLAIM_TEXTS:
            return CLAIM_TEXTS[text]
    agent, condition = row.get("agent"), row.get("condition")
    if agent and condition:
        found = [cid for (_, a, c), cid in ROWS.items() if (a, c) == (agent, condition)]
        if len(found) >= 1:
            return found[0]
    return None


def table_cells_against_ledger(text: str) -> list[str]:
    """Every judging cell of a Markdown table that the ledger contradicts for its row."""
    problems = []
    for rows in _tables(text):
        for row in rows:
            claim_id = _row_claim(row)
            if claim_id is None:
                continue
            verdict = LEDGER[claim_id]["verdict"]
            for column, cell in row.items():
                if not _JUDGING_COLUMN.search(column):
                    continue
                value = cell.strip().lower()
                if value in ("yes", "no"):
                    if (value == "yes") != (verdict in AGREEING):
                        problems.append(f"{column!r} = {value!r} for {claim_id}, ledger: {verdict}")
                elif value in VERDICTS and value != verdict:
                    problems.append(f"{column!r} = {value!r} for {claim_id}, ledger: {verdict}")
    return problems


def _prose_and_tables(path: Path) -> list[str]:
    """What a reader sees of a page: its Markdown (roles filled in later) and printed text."""
    return page_texts(path, kinds=READ, streams=True)


def _handouts() -> list[str]:
    """The handouts' Markdown, as the handout script writes it."""
    import importlib.util
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        path = ROOT / "scripts" / "handouts.py"
        spec = importlib.util.spec_from_file_location("handouts_for_verdicts", path)
        handouts = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = handouts  # its dataclasses look their module up there
        spec.loader.exec_module(handouts)
        items = handouts.bx.exercises()
        numbers = handouts.bx.exercise_numbers(items)
        titles = handouts.page_titles()
        sessions = handouts.plan_sessions()
        return [
            handouts.plan_markdown(sessions, titles, numbers),
            handouts.worksheets_markdown(sessions, items, titles, numbers),
            handouts.one_page_markdown(titles, numbers),
            handouts.student_markdown(items, titles, numbers),
        ]
    finally:
        sys.path.remove(str(ROOT / "scripts"))


SURFACES = {p.name: _prose_and_tables(p) for p in PAGES}
SURFACES["handouts"] = _handouts()
SURFACES["handouts/worksheet-tasks.md"] = [
    (BOOK / "handouts" / "worksheet-tasks.md").read_text(encoding="utf-8")
]


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_no_verdict_word_disagrees_with_the_ledger(surface):
    problems = []
    for block in SURFACES[surface]:
        problems += table_cells_against_ledger(block)
        for sentence in _sentences(block):
            problems += [f"{p}: …{sentence[:140]}…" for p in words_against_ledger(sentence)]
    assert not problems, f"{surface}:\n" + "\n".join(problems)


def test_the_word_check_catches_the_old_double_verdicts():
    # Sentences and a table row the book printed while the ledger said otherwise.
    assert words_against_ledger("every printed value of Table 7.1 is reproduced to 3 decimals")
    assert words_against_ledger("Table 9.2's training draw rates are reproduced")
    assert words_against_ledger("the worked example (`7.3-policy`) is not recomputed")
    assert not words_against_ledger("every printed value of Table 7.1 is recomputed")
    assert not words_against_ledger("MENACE does not match it ({claim}`9.11-menace-matches:size`)")
    assert words_against_ledger("MENACE matches it ({claim}`9.11-menace-matches:size` points)")
    assert not words_against_ledger(
        "the thesis's claim that MENACE *matches* it ({claim}`9.11-menace-matches:size`) fails"
    )
    old_table = (
        "| agent | condition | within thesis SD |\n|---|---|---|\n"
        "| SARSA | defensive | yes |\n| SARSA | random | no |\n"
    )
    assert table_cells_against_ledger(old_table) == [
        "'within thesis SD' = 'yes' for 9.1-sarsa-defensive, ledger: differs"
    ]
