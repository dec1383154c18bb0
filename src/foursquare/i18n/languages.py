"""The languages Foursquare speaks, and how a request or a terminal picks one.

Codes are BCP 47 language subtags: ``en``, ``uz`` (Latin script), ``hr``, ``fil`` (Tagalog; ``tl`` is its
alias), ``kn`` and ``bn``. Regional and script forms (``bn-BD``, ``uz-Latn-UZ``, ``hr_HR.UTF-8``) choose their
language. ``qps`` is the pseudo-language of the tests (accented, lengthened English): it is never offered in
a menu but may be asked for by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Babel loads when a number, a date or a plural is first written, not when a command starts
    from babel import Locale


@dataclass(frozen=True)
class Language:
    """One language of the game: its code, its name in itself, and the CLDR locale of its plurals and numbers."""

    code: str
    name: str
    #: The locale whose CLDR data (plural rules, digits, dates) this language follows.
    cldr: str
    #: The direction of its script, for ``<html dir>``.
    direction: str = "ltr"

    @property
    def locale(self) -> Locale:
        return _locale(self.cldr)

    @property
    def plural_categories(self) -> tuple[str, ...]:
        """The CLDR plural categories of whole numbers, in the order of the catalogue's ``msgstr[i]``."""
        return plural_categories(self.cldr)


ENGLISH = Language("en", "English", "en")

#: Every language a player can choose, in the order of the language menu.
LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        ENGLISH,
        Language("uz", "Oʻzbekcha", "uz_Latn"),
        Language("hr", "Hrvatski", "hr"),
        Language("fil", "Tagalog", "fil"),
        Language("kn", "ಕನ್ನಡ", "kn"),
        Language("bn", "বাংলা", "bn"),
    )
}

#: The pseudo-language: every message accented, lengthened and bracketed, to find untranslated text.
PSEUDO = Language("qps", "Ƥşéûδô", "en")

#: Other names of a language (ISO 639-1 ``tl`` is Tagalog, which CLDR files as Filipino).
ALIASES = {"tl": "fil", "tgl": "fil", "uzb": "uz", "hrv": "hr", "kan": "kn", "ben": "bn", "eng": "en"}

_ORDER = ("zero", "one", "two", "few", "many", "other")


def plural_categories(cldr: str) -> tuple[str, ...]:
    """The plural categories of a CLDR locale, in gettext's ``msgstr[i]`` order (Babel's ``to_gettext``)."""
    tags = _locale(cldr).plural_form.tags | {"other"}
    return tuple(tag for tag in _ORDER if tag in tags)


@cache
def _locale(cldr: str) -> Locale:
    from babel import Locale

    return Locale.parse(cldr)


def language(code: str) -> Language | None:
    """The language of a code such as ``"bn"``, ``"bn-BD"``, ``"uz_Latn_UZ"``, ``"tl"`` or ``"hr_HR.UTF-8"``.

    None when the code names no language of the game (the caller falls back to English and says so).
    """
    base = _base_subtag(code)
    if base == PSEUDO.code:
        return PSEUDO
    base = ALIASES.get(base, base)
    found = LANGUAGES.get(base)
    if found is not None and found.code == "uz" and _script(code) not in ("", "latn"):
        return None  # Uzbek in Cyrillic or Arabic script: we write only the Latin one.
    return found


def _base_subtag(code: str) -> str:
    tag = code.strip().split(".")[0].split("@")[0]
    return re.split(r"[-_]", tag, maxsplit=1)[0].lower()


def _script(code: str) -> str:
    parts = re.split(r"[-_]", code.strip().split(".")[0].split("@")[0])
    scripts = [part.lower() for part in parts[1:] if len(part) == 4 and part.isalpha()]
    return scripts[0] if scripts else ""


def negotiate(preferences: Iterable[str]) -> Language | None:
    """The first of ``preferences`` (most wanted first) that the game speaks, or None."""
    for tag in preferences:
        if tag.strip() in ("", "*"):
            continue
        found = language(tag)
        if found is not None:
            return found
    return None


def parse_accept_language(header: str) -> list[str]:
    """The language tags of an HTTP ``Accept-Language`` header, most wanted first (``q=0`` dropped)."""
    weighted: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        match = re.search(r"\bq\s*=\s*([^;\s]*)", params)
        if match:  # a malformed weight drops the tag rather than guessing
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if tag.strip() and quality > 0:
            weighted.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def environment_preferences(environ: Mapping[str, str]) -> list[str]:
    """The languages a POSIX environment asks for, as gettext reads them.

    ``LANGUAGE`` (a colon-separated list) counts unless the locale is ``C``/``POSIX``; then the first of
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set.
    """
    locale_name = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    if locale_name in ("C", "POSIX") or locale_name.startswith(("C.", "POSIX.")):
        return []
    preferences = [tag for tag in environ.get("LANGUAGE", "").split(":") if tag]
    if locale_name:
        preferences.append(locale_name)
    return preferences
