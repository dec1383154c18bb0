"""The message catalogues: gettext PO files, one per language, keyed by each message's ``msgctxt``.

``locale/foursquare.pot`` is the English source of every message a person reads; ``locale/<code>/LC_MESSAGES/
foursquare.po`` holds a language's translations (``tools/catalogues.py update`` merges new messages in).
A message's key is its ``msgctxt``; its English text is the ``msgid`` (and ``msgid_plural``); a plural
message's ``msgstr[i]`` follow the CLDR categories of the language in ``plural_categories`` order, which the
file's ``Plural-Forms`` header states for translators' tools.

Babel reads the files (:func:`read_catalogue`), but importing and running its reader takes a tenth of a second,
more than a command may take to start (docs/performance.md, "Start-up"). So the build reads each file with Babel
ahead of time (:mod:`foursquare.i18n.compile`, run by setup.py's build and editable install) and writes the
messages as the game uses them, as JSON beside it (``foursquare.po.json``), stamped with the SHA-256 of the file
it was read from. A command loads that (:func:`load`) when its stamp is the file's; otherwise (a fresh checkout,
an edited catalogue) it reads the file with Babel, correct but slower, and writes nothing.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

from foursquare.errors import FoursquareError
from foursquare.i18n.languages import ENGLISH, LANGUAGES, PSEUDO, Language
from foursquare.i18n.pseudo import pseudo_text

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "foursquare"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: The compiled files' layout: a file of another is not read (it is compiled again).
COMPILED_FORMAT = 1

#: A message: its text, or for a plural message its forms by CLDR category (``{"one": …, "other": …}``).
Message = str | dict[str, str]


class CatalogueError(FoursquareError):
    """A catalogue file is missing or malformed (a packaging fault, not a player's)."""


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled_path(source: Path) -> Path:
    """Where the compiled messages of a catalogue file are: beside it, ``foursquare.po.json``."""
    return source.with_name(source.name + ".json")


def read_catalogue(path: Path, locale: str | None = None) -> Catalog:
    """The file as Babel reads it (slow: the build's, the tools' and the tests' reader, and :func:`load`'s
    fallback)."""
    from babel.messages.pofile import read_po

    try:
        with path.open("rb") as file:
            return read_po(file, locale=locale, abort_invalid=True)
    except OSError as error:
        raise CatalogueError(f"cannot read the message catalogue {path}: {error.strerror}") from error
    except Exception as error:  # Babel's PoFileError and friends: a broken file, named.
        raise CatalogueError(f"the message catalogue {path} is malformed: {error}") from error


def read_messages(path: Path, language: Language | None = None) -> dict[str, Message]:
    """The messages of a catalogue file as Babel reads them: for the template (``language`` None) every message
    in English; for a language's file only what it translates (fuzzy and empty entries, and plural messages
    missing a form, left out), plural forms by the language's CLDR categories."""
    found: dict[str, Message] = {}
    if language is None:
        for message in read_catalogue(path):
            if not message.id or not message.context:
                continue
            if isinstance(message.id, str):
                found[message.context] = message.id
            else:
                found[message.context] = {"one": str(message.id[0]), "other": str(message.id[1])}
        return found
    categories = language.plural_categories
    for message in read_catalogue(path, locale=language.cldr):
        if not message.id or not message.context or message.fuzzy:
            continue
        if isinstance(message.id, str):
            if message.string:
                found[message.context] = str(message.string)
            continue
        string = message.string
        forms = tuple(str(form or "") for form in (string if isinstance(string, tuple | list) else (string,)))
        if len(forms) == len(categories) and all(forms):
            found[message.context] = dict(zip(categories, forms, strict=True))
    return found


def stamp(data: bytes) -> str:
    """The stamp of a catalogue file's content: its SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()


def load(path: Path, language: Language | None = None) -> dict[str, Message]:
    """:func:`read_messages` of a catalogue file, from its compiled file when that was compiled from this very
    content (a few milliseconds, and no Babel), else read by Babel; nothing is written."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogueError(f"cannot read the message catalogue {path}: {error.strerror}") from error
    compiled = _compiled(compiled_path(path))
    if compiled is not None and compiled.get("sha256") == stamp(data):
        messages: dict[str, Message] = compiled["messages"]
        return messages
    return read_messages(path, language)


def _compiled(path: Path) -> dict[str, Any] | None:
    """The content of a compiled file, or None when there is none (or not one of :data:`COMPILED_FORMAT`)."""
    try:
        content = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(content, dict) or content.get("format") != COMPILED_FORMAT:
        return None
    if not isinstance(content.get("messages"), dict):
        return None
    return content


@cache
def english() -> dict[str, Message]:
    """Every message in English, from the template."""
    return load(TEMPLATE)


@cache
def messages(code: str) -> dict[str, Message]:
    """Every message of a language, English where a translation is missing (the tests keep that empty)."""
    if code == ENGLISH.code:
        return english()
    if code == PSEUDO.code:
        return {key: _pseudo(value) for key, value in english().items()}
    translated = dict(english())
    translated.update(translations(code))
    return translated


def translations(code: str) -> dict[str, Message]:
    """Only the messages a language's own file translates (fuzzy and empty entries left out)."""
    return _translations(LANGUAGES[code])


def _translations(language: Language) -> dict[str, Message]:
    return load(po_path(language.code), language)


def _pseudo(value: Message) -> Message:
    if isinstance(value, str):
        return pseudo_text(value)
    return {category: pseudo_text(text) for category, text in value.items()}
