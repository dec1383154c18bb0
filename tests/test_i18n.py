"""The message catalogues: complete, faithful to the English placeholders and markup, plurals by CLDR.

Every language file must translate every message of the template (no fuzzy, no empty entry), keep the
English ``{placeholders}`` and ``[b]`` markup, fill each CLDR plural form of its language, and state its
conventions in a glossary. These tests read the files as a translator's tool would (Babel).
"""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from foursquare.i18n import (
    LANGUAGES,
    PSEUDO,
    environment_preferences,
    language,
    negotiate,
    parse_accept_language,
    placeholders,
    translator,
)
from foursquare.i18n.catalogue import TEMPLATE, po_path
from foursquare.i18n.pseudo import CLOSE, OPEN

TRANSLATED = [code for code in LANGUAGES if code != "en"]
MARKUP = re.compile(r"\[/?[a-z]+\]")


def catalogue(code: str) -> Catalog:
    with po_path(code).open("rb") as file:
        return read_po(file, locale=LANGUAGES[code].cldr)


def template() -> Catalog:
    with TEMPLATE.open("rb") as file:
        return read_po(file)


def forms(message_string: object) -> list[str]:
    return [str(form or "") for form in (message_string if isinstance(message_string, tuple) else (message_string,))]


def english_forms(message_id: object) -> list[str]:
    return [str(form) for form in (message_id if isinstance(message_id, tuple) else (message_id,))]


def test_every_template_message_has_a_key_and_keys_are_unique() -> None:
    keys = [message.context for message in template() if message.id]
    assert all(keys), "a template message has no msgctxt (its key)"
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str) -> None:
    wanted = {message.context: message for message in template() if message.id}
    have = {message.context: message for message in catalogue(code) if message.id}
    assert sorted(wanted.keys() - have.keys()) == [], "messages missing: run tools/catalogues.py update"
    assert sorted(have.keys() - wanted.keys()) == [], "messages no longer in the template"
    fuzzy = sorted(key for key, message in have.items() if message.fuzzy)
    assert fuzzy == [], "fuzzy (to be checked) translations"
    changed = sorted(key for key, message in have.items() if message.id != wanted[key].id)
    assert changed == [], "translations of an older English text"
    empty = sorted(key for key, message in have.items() if not all(forms(message.string)))
    assert empty == [], "untranslated messages"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_and_markup(code: str) -> None:
    problems = []
    for message in catalogue(code):
        if not message.id or not all(forms(message.string)):
            continue
        english = english_forms(message.id)
        wanted = set().union(*(placeholders(text) for text in english))
        for text in forms(message.string):
            if not placeholders(text) <= wanted:
                problems.append(f"{message.context}: unknown placeholder in {text!r}")
            if sorted(MARKUP.findall(text)) != sorted(MARKUP.findall(english[-1])):
                problems.append(f"{message.context}: markup differs in {text!r}")
        if not isinstance(message.id, tuple) and placeholders(forms(message.string)[0]) != wanted:
            problems.append(f"{message.context}: placeholders {wanted} not all kept")
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_messages_have_every_cldr_form_of_their_language(code: str) -> None:
    lang = LANGUAGES[code]
    categories = lang.plural_categories
    numbers_of = {category: [n for n in range(200) if str(lang.locale.plural_form(n)) == category]
                  for category in categories}
    problems = []
    for message in catalogue(code):
        if not isinstance(message.id, tuple) or not all(forms(message.string)):
            continue
        texts = forms(message.string)
        if len(texts) != len(categories):
            problems.append(f"{message.context}: {len(texts)} forms, {code} has {categories}")
            continue
        needed = placeholders(message.id[1])
        for category, text in zip(categories, texts, strict=True):
            # A form also used for numbers other than 1 (Croatian 21, Bengali 0) must show the number.
            if numbers_of[category] != [1] and not needed <= placeholders(text):
                problems.append(f"{message.context}[{category}] serves {numbers_of[category][:4]}…: {text!r}")
    assert problems == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_plural_forms_header_agrees_with_cldr(code: str) -> None:
    lang = LANGUAGES[code]
    header = catalogue(code).plural_forms
    count, expression = re.fullmatch(r"nplurals=(\d+); plural=(.+?);?", header).groups()
    assert int(count) == len(lang.plural_categories)
    index_of = gettext.c2py(expression)
    for n in range(1000):
        assert lang.plural_categories[index_of(n)] == str(lang.locale.plural_form(n)), (code, n)


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalogue_states_its_glossary(code: str) -> None:
    header = catalogue(code).header_comment
    assert "Glossary" in header and "(see the translator's notes below)" not in header
    assert len(header.splitlines()) >= 5


def test_uzbek_uses_the_modifier_letters_not_apostrophes() -> None:
    bad = []
    for message in catalogue("uz"):
        for text in forms(message.string):
            if re.search(r"[OoGg]['`‘’]", re.sub(r"\{\w+\}", "", text)):
                bad.append(f"{message.context}: {text!r}")
    assert bad == [], "write oʻ and gʻ with U+02BB"


CODE_LIKE = re.compile(r"[-_./()=0-9@]|^[A-Z]+$")
PRODUCT_NAMES = ("foursquare", "splitmix64", "postgresql", "sqlite")
"""Names that stay in Latin letters in every language."""


@pytest.mark.parametrize("code", ["kn", "bn"])
def test_non_latin_translations_leave_no_english_words(code: str) -> None:
    leftovers = []
    for message in catalogue(code):
        if not message.id:
            continue
        english_words = {word.lower() for text in english_forms(message.id) for word in re.findall(r"[A-Za-z]+", text)}
        for text in forms(message.string):
            plain = MARKUP.sub("", re.sub(r"\{\w+\}", "", text))
            for token in plain.split():
                if CODE_LIKE.search(token) or token.lower().strip(",.:;!?“”\"'()") in PRODUCT_NAMES:
                    continue
                words = re.findall(r"[A-Za-z]{3,}", token)
                leftovers += [f"{message.context}: {w}" for w in words if w.lower() in english_words]
    assert leftovers == []


# --- choosing a language ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "code"),
    [("bn-BD", "bn"), ("bn_IN.UTF-8", "bn"), ("uz-Latn-UZ", "uz"), ("uz", "uz"), ("tl", "fil"), ("fil-PH", "fil"),
     ("hr_HR.UTF-8@euro", "hr"), ("KN", "kn"), ("en-GB", "en"), ("qps", "qps")],
)
def test_language_tags_in_every_common_spelling(tag: str, code: str) -> None:
    found = language(tag)
    assert found is not None and found.code == code


@pytest.mark.parametrize("tag", ["de", "uz-Cyrl-UZ", "", "x"])
def test_languages_we_do_not_speak(tag: str) -> None:
    assert language(tag) is None


def test_accept_language_is_read_by_quality() -> None:
    tags = parse_accept_language("de-DE;q=0.9, kn;q=0.95, fr;q=0, *;q=0.1, hr")
    assert tags == ["hr", "kn", "de-DE", "*"]
    assert negotiate(parse_accept_language("de, fr;q=0.8, bn-BD;q=0.5")).code == "bn"
    assert negotiate(parse_accept_language("de, fr")) is None
    assert parse_accept_language("en;q=abc, uz") == ["uz"]


def test_the_environment_as_gettext_reads_it() -> None:
    assert environment_preferences({"LANG": "bn_BD.UTF-8"}) == ["bn_BD.UTF-8"]
    assert environment_preferences({"LANGUAGE": "kn:hr", "LANG": "bn_BD.UTF-8"}) == ["kn", "hr", "bn_BD.UTF-8"]
    assert environment_preferences({"LC_ALL": "hr_HR.UTF-8", "LANG": "bn_BD.UTF-8"}) == ["hr_HR.UTF-8"]
    assert environment_preferences({"LANGUAGE": "kn", "LANG": "C.UTF-8"}) == []
    assert environment_preferences({}) == []


# --- the translator -------------------------------------------------------------------------------


def test_croatian_plurals_follow_cldr() -> None:
    t = translator("hr")
    assert [t.plural_category(n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111)] == [
        "one", "few", "few", "other", "other", "other", "one", "few", "other", "one", "other"]


@pytest.mark.parametrize("code", ["bn", "kn"])
def test_bengali_and_kannada_count_zero_like_one(code: str) -> None:
    t = translator(code)
    assert [t.plural_category(n) for n in (0, 1, 2)] == ["one", "one", "other"]


def test_filipino_has_its_own_plural_rule() -> None:
    t = translator("fil")
    assert [t.plural_category(n) for n in (1, 2, 3, 4, 5, 6, 9, 10, 14)] == [
        "one", "one", "one", "other", "one", "other", "other", "one", "other"]


def test_numbers_use_each_languages_digits() -> None:
    assert translator("bn").number(1234) == "১,২৩৪"
    assert translator("bn").percent(0.25) == "২৫%"
    assert translator("kn").number(1234) == "1,234"
    assert translator("hr").number(1234.5, 1) == "1.234,5"
    assert translator("bn")("card.name", rank="7", suit="x").count("7") == 1  # a str stays as given


def test_the_pseudo_language_brackets_every_message_and_keeps_what_code_reads() -> None:
    t = translator(PSEUDO.code)
    text = t("term.footer_play")
    assert text.startswith(OPEN) and text.endswith(CLOSE)
    assert MARKUP.findall(text) == MARKUP.findall(translator("en")("term.footer_play"))
    assert t("panel.stockValue", count=3).startswith(OPEN + "3 ")
    assert not re.search(r"[A-Za-z]", t("rules.intro").replace("Foursquare", ""))


def test_numbers_with_fixed_decimals_keep_the_languages_grouping() -> None:
    """Bengali groups by lakh and crore as browsers' Intl does, with or without a fixed number of decimals."""
    bn, hr = translator("bn"), translator("hr")
    assert bn.number(1234567) == bn.number(1234567.4, 0) == "১২,৩৪,৫৬৭"
    assert bn.number(1234567.891, 2) == "১২,৩৪,৫৬৭.৮৯"
    assert hr.number(1234567.891, 2) == "1.234.567,89"
