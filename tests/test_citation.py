"""CITATION.cff is valid Citation File Format 1.2.0 as far as its keys and types go, and the README's BibTeX
entry names the same work."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import yaml

import foursquare

ROOT = Path(__file__).resolve().parent.parent
# CFF 1.2.0's keys (https://github.com/citation-file-format/citation-file-format/blob/1.2.0/schema-guide.md).
KEYS = {
    "abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi", "identifiers", "keywords",
    "license", "license-url", "message", "preferred-citation", "references", "repository", "repository-artifact",
    "repository-code", "title", "type", "url", "version",
}  # fmt: skip
REFERENCE_TYPES = {"article", "book", "conference-paper", "dataset", "generic", "report", "software", "thesis"}


def citation() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_citation_file_has_the_required_keys_and_types() -> None:
    data = citation()
    assert set(data) <= KEYS, set(data) - KEYS
    assert data["cff-version"] == "1.2.0"
    for key in ("message", "title"):
        assert isinstance(data[key], str) and data[key].strip()
    assert data["type"] in {"software", "dataset"}
    assert data["authors"] and all(isinstance(a, dict) and ({"name"} <= set(a) or {"family-names"} <= set(a))
                                   for a in data["authors"])  # fmt: skip
    assert data["version"] == foursquare.__version__
    datetime.date.fromisoformat(data["date-released"])
    assert all(isinstance(k, str) for k in data["keywords"])
    preferred = data["preferred-citation"]
    assert preferred["type"] in REFERENCE_TYPES and preferred["title"] and preferred["authors"]


def test_readme_bibtex_matches_the_citation_file() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    entry = re.search(r"```bibtex\n(@\w+\{[^`]*\})\n```", readme)
    assert entry is not None, "README.md has no BibTeX entry in a ```bibtex block"
    text = entry.group(1)
    assert text.count("{") == text.count("}")
    preferred = citation()["preferred-citation"]
    assert f"title = {{{preferred['title']}}}" in text
    assert f"year = {{{preferred['year']}}}" in text
