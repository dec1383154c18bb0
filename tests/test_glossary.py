"""Each language's glossary (``src/foursquare/locale/<code>/glossary.json``) checked against its catalogue.

A glossary names the game's core terms (card, deal, stock, pile, face down, face up, turn over, row, column,
cell, hint, undo, daily, win, lose, score, mean score, streak; and around the game: passkey, account, sign in,
sign out, export, lesson, step, file, folder, page) and, for each, the English pattern that finds
the term in a message and the translations that must then appear: stems and forms, so that inflected
languages pass ("karata", "katagi", "tumaob"), and forbidden alternatives. Its rules forbid what reads wrong
anywhere (a bare Kannada imperative, a Latin digit in a Bengali sentence). A message that uses a term in
another sense (a column of JSON text, a loss of expected score) is named in the term's ``except``, with why.
docs/translating.md describes the format.
"""

from __future__ import annotations

import json
import re
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from foursquare.i18n import LANGUAGES
from foursquare.i18n.catalogue import LOCALE_DIR, po_path

TRANSLATED = [code for code in LANGUAGES if code != "en"]
TERMS = ["card", "deal", "stock", "pile", "face down", "face up", "turn over", "row", "column", "cell", "hint",
         "undo", "daily", "win", "lose", "score", "mean score", "streak",
         # the words around the game (issue 44): the account, the lesson, files and the page
         "passkey", "account", "sign in", "sign out", "export", "lesson", "step", "file", "folder", "page"]
# What a term check ignores on both sides: placeholders, options, markup and quoted code are never translated.
UNTRANSLATED = re.compile(r"\{[^{}]*\}|--[a-z][a-z-]*|\[/?b\]|`[^`]*`")


def glossary_path(code: str) -> Path:
    return LOCALE_DIR / code / "glossary.json"


@cache
def glossary(code: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(glossary_path(code).read_text(encoding="utf-8"))
    return data


@cache
def catalogue(code: str) -> Catalog:
    with po_path(code).open("rb") as file:
        return read_po(file, locale=LANGUAGES[code].cldr)


def forms(value: object) -> list[str]:
    return [str(form or "") for form in (value if isinstance(value, tuple) else (value,))]


def translated(code: str) -> list[Message]:
    """The messages with every form translated and checked (an empty or fuzzy one is test_i18n's)."""
    return [m for m in catalogue(code) if m.id and not m.fuzzy and all(forms(m.string))]


def excepted(key: str | None, patterns: dict[str, str] | list[str]) -> bool:
    return any(fnmatchcase(key or "", pattern) for pattern in patterns)


def search(patterns: list[str], text: str) -> bool:
    return any(re.search(pattern, text, re.IGNORECASE) for pattern in patterns)


def term_problems(messages: list[Message], term: dict[str, Any]) -> list[str]:
    english = re.compile(term["english"], re.IGNORECASE)
    problems = []
    for message in messages:
        if excepted(message.context, term["except"]):
            continue
        if not any(english.search(UNTRANSLATED.sub(" ", text)) for text in forms(message.id)):
            continue
        for text in forms(message.string):
            plain = UNTRANSLATED.sub(" ", text)
            if not search(term["use"], plain):
                problems.append(f"{message.context}: no {term['use']} in {text!r}")
            elif search(term["avoid"], plain):
                problems.append(f"{message.context}: one of {term['avoid']} in {text!r}")
    return problems


def rule_problems(messages: list[Message], rule: dict[str, Any]) -> list[str]:
    problems = []
    for message in messages:
        key = message.context
        if not excepted(key, rule.get("keys", ["*"])):
            continue
        if excepted(key, rule.get("except", {})):
            continue
        for text in forms(message.string):
            rest = text
            for allowed in rule.get("allow", []):
                rest = re.sub(allowed, " ", rest, flags=re.IGNORECASE)
            found = re.search(rule["forbid"], rest, re.IGNORECASE)
            if found:
                problems.append(f"{key}: {found.group(0)!r} in {text!r}")
    return problems


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_language_has_a_glossary_of_the_core_terms_with_one_english(code: str) -> None:
    data = glossary(code)
    assert data["language"] == code
    assert [term["term"] for term in data["terms"]] == TERMS
    english = {term["term"]: term["english"] for term in glossary(TRANSLATED[0])["terms"]}
    for term in data["terms"]:
        assert term["english"] == english[term["term"]], f"{term['term']}: the same English pattern everywhere"
        assert term["use"], f"{term['term']}: no translation"
        for pattern in [term["english"], *term["use"], *term["avoid"]]:
            re.compile(pattern)
        assert all(why for why in term["except"].values()), f"{term['term']}: say why each exception is one"
    for rule in data["rules"]:
        assert rule["why"] and re.compile(rule["forbid"])


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_exception_names_messages_that_exist(code: str) -> None:
    keys = [message.context for message in catalogue(code) if message.id]
    stale = [
        f"{term['term']}: {pattern}"
        for term in glossary(code)["terms"]
        for pattern in term["except"]
        if not any(fnmatchcase(key, pattern) for key in keys)
    ]
    assert stale == [], "exceptions for messages that are gone"


@pytest.mark.parametrize("term", TERMS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_messages_use_the_glossarys_word_for_each_term(code: str, term: str) -> None:
    entry = next(entry for entry in glossary(code)["terms"] if entry["term"] == term)
    assert term_problems(translated(code), entry) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_message_breaks_a_rule_of_its_language(code: str) -> None:
    messages = translated(code)
    rules = glossary(code)["rules"]
    problems = [f"{rule['why']}: {problem}" for rule in rules for problem in rule_problems(messages, rule)]
    assert problems == []


def test_the_checks_catch_what_the_review_found() -> None:
    """The words the language review found wrong fail the checks (so the glossaries cannot drift lax)."""
    wrong = {
        "fil": {"stats.meanScore": "Karaniwang iskor", "stats.streak": "Kasalukuyang sunod-sunod",
                "term.footer_end_medium": "{n} bago {s} pareho {u} bawi {help} tulong {q} alis",
                "over.mistakeRule": "lampas sa ingay ng mga pagtatantiya",
                "over.winnable": "Kung alam ang laman ng kubyerta, maipapanalo ang balasang ito."},
        "hr": {"flip.explained": "{line}: {reason}, pa se okreće {what}.", "lesson.done.again": "Ponovite lekciju"},
        "uz": {"stats.cleanNote": "Toza oʻyin — ortga qaytarish, qaytadan boshlash va maslahatsiz oʻynalgan oʻyin."},
        "kn": {"cli.deal.help": "ಒಂದು ಹಂಚಿಕೆಯ ಕಟ್ಟಿನ ಕ್ರಮವನ್ನು ಮುದ್ರಿಸು", "action.keys": "U ಹಿಂಪಡೆ, R ಮತ್ತೆ ಇಡು",
               "cli.version.help": "Foursquare ಆವೃತ್ತಿಯನ್ನು ತೋರಿಸಿ ನಿರ್ಗಮಿಸಿ",
               "cli.file.no_directory": "{path} ಗೆ ಬರೆಯಲಾಗದು: {folder} ಎಂಬ ಫೋಲ್ಡರ್ ಇಲ್ಲ"},
        "bn": {"rules.deals.text": "(i = 39 থেকে কমিয়ে 1 পর্যন্ত) ৪০টি তাস",
               "cli.version.help": "Foursquare-এর সংস্করণ দেখিয়ে বেরিয়ে যান",
               "server.passkey_host": "পাসকীর জন্য সার্ভারের নাম লাগে: পাতাটি http://localhost:PORT-এ খুলুন"},
    }
    for code, messages in wrong.items():
        english = {message.context: message.id for message in catalogue(code) if message.id}
        for key, text in messages.items():
            fake = [Message(english[key], text, context=key)]
            caught = [problem for term in glossary(code)["terms"] for problem in term_problems(fake, term)]
            caught += [problem for rule in glossary(code)["rules"] for problem in rule_problems(fake, rule)]
            assert caught, (code, key, text)


# US spellings the English catalogue (British: colour, analyse, neighbours) must not use; a command's name
# stays as typed (foursquare analyze), and argparse's own words as Python prints them.
US_SPELLINGS = re.compile(
    r"\b(analyz\w*|\w+iz(e|es|ed|ing|ation)|colors?|neighbors?|behaviors?|favorite|center)\b", re.IGNORECASE
)
ENGLISH_EXCEPTIONS = {"cli.argparse.unrecognized": "argparse's own words, as Python prints them"}
KEPT_SPELLINGS = {"size", "sizes", "prize"}


def us_spellings(text: str) -> list[str]:
    text = re.sub(r"\banalyze needs\b|foursquare analyze|`[^`]*`", " ", text)
    return [m.group(0) for m in US_SPELLINGS.finditer(text) if m.group(0).lower() not in KEPT_SPELLINGS]


def test_the_english_catalogue_spells_the_british_way() -> None:
    assert us_spellings("Analyze") == ["Analyze"] and us_spellings("Analysing the game, its size") == []
    with (LOCALE_DIR / "foursquare.pot").open("rb") as file:
        template = read_po(file)
    found = []
    for message in template:
        if not message.id or message.context in ENGLISH_EXCEPTIONS:
            continue
        for text in forms(message.id):
            words = us_spellings(text)
            if words:
                found.append(f"{message.context}: {words}")
    assert found == []
