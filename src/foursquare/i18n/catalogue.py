"""The message catalogues: gettext PO files, one per language, keyed by each message's ``msgctxt``.

``locale/foursquare.pot`` is the English source of every message a person reads; ``locale/<code>/LC_MESSAGES/
foursquare.po`` holds a language's translations (``tools/catalogues.py update`` merges new messages in).
A message's key is its ``msgctxt``; its English text is the ``msgid`` (and ``msgid_plural``); a plural
message's ``msgstr[i]`` follow the CLDR categories of the language in ``plural_categories`` order, which the
file's ``Plural-Forms`` header states for translators' tools.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from foursquare.errors import FoursquareError
from foursquare.i18n.languages import ENGLISH, LANGUAGES, PSEUDO, Language
from foursquare.i18n.pseudo import pseudo_text

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "foursquare"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

#: A message: its text, or for a plural message its forms by CLDR category (``{"one": …, "other": …}``).
Message = str | dict[str, str]


class CatalogueError(FoursquareError):
    """A catalogue file is missing or malformed (a packaging fault, not a player's)."""


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(path: Path, locale: str | None = None) -> Catalog:
    try:
        with path.open("rb") as file:
            return read_po(file, locale=locale, abort_invalid=True)
    except OSError as error:
        raise CatalogueError(f"cannot read the message catalogue {path}: {error.strerror}") from error
    except Exception as error:  # Babel's PoFileError and friends: a broken file, named.
        raise CatalogueError(f"the message catalogue {path} is malformed: {error}") from error


@cache
def english() -> dict[str, Message]:
    """Every message in English, from the template."""
    messages: dict[str, Message] = {}
    for message in read_catalogue(TEMPLATE):
        if not message.id or not message.context:
            continue
        if isinstance(message.id, tuple):
            messages[message.context] = {"one": message.id[0], "other": message.id[1]}
        else:
            messages[message.context] = str(message.id)
    return messages


@cache
def messages(code: str) -> dict[str, Message]:
    """Every message of a language, English where a translation is missing (the tests keep that empty)."""
    if code == ENGLISH.code:
        return english()
    if code == PSEUDO.code:
        return {key: _pseudo(value) for key, value in english().items()}
    language = LANGUAGES[code]
    translated = dict(english())
    translated.update(_translations(language))
    return translated


def translations(code: str) -> dict[str, Message]:
    """Only the messages a language's own file translates (fuzzy and empty entries left out)."""
    return _translations(LANGUAGES[code])


def _translations(language: Language) -> dict[str, Message]:
    categories = language.plural_categories
    found: dict[str, Message] = {}
    for message in read_catalogue(po_path(language.code), locale=language.cldr):
        if not message.id or not message.context or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            string = message.string
            forms = tuple(str(form or "") for form in (string if isinstance(string, tuple) else (string,)))
            if len(forms) == len(categories) and all(forms):
                found[message.context] = dict(zip(categories, forms, strict=True))
        elif message.string:
            found[message.context] = str(message.string)
    return found


def _pseudo(value: Message) -> Message:
    if isinstance(value, str):
        return pseudo_text(value)
    return {category: pseudo_text(text) for category, text in value.items()}
