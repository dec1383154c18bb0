"""The message catalogues: gettext PO files, one per language, keyed by each message's ``msgctxt``.

``locale/foursquare.pot`` is the English source of every message a person reads; ``locale/<code>/LC_MESSAGES/
foursquare.po`` holds a language's translations (``tools/catalogues.py update`` merges new messages in).
A message's key is its ``msgctxt``; its English text is the ``msgid`` (and ``msgid_plural``); a plural
message's ``msgstr[i]`` follow the CLDR categories of the language in ``plural_categories`` order, which the
file's ``Plural-Forms`` header states for translators' tools.

A command reads a catalogue at each start, so the files are read by :func:`read_entries`, a reader of the PO
syntax the catalogues use, in a quarter of the time that importing Babel's ``read_po`` and reading with it take
(docs/performance.md, "Start-up"). Anything else in a file (an obsolete ``#~`` entry, a line it does not know) is
left to Babel's reader, which also names what is wrong with a malformed file; tests/test_startup.py checks that
both readers give the same messages for every shipped catalogue.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog
    from babel.messages.catalog import Message as Message_

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
    """The file as Babel reads it (slow: the tools' and the tests' reader, and the fallback of :func:`read_entries`)."""
    from babel.messages.pofile import read_po

    try:
        with path.open("rb") as file:
            return read_po(file, locale=locale, abort_invalid=True)
    except OSError as error:
        raise CatalogueError(f"cannot read the message catalogue {path}: {error.strerror}") from error
    except Exception as error:  # Babel's PoFileError and friends: a broken file, named.
        raise CatalogueError(f"the message catalogue {path} is malformed: {error}") from error


class Entry(NamedTuple):
    """One message of a catalogue file, as :func:`read_entries` gives it (the fields of Babel's ``Message`` that
    the game reads)."""

    context: str | None
    #: The ``msgid``, or for a plural message its ``msgid`` and ``msgid_plural``.
    id: str | tuple[str, str]
    #: The ``msgstr``, or for a plural message its ``msgstr[0]``, ``msgstr[1]``… in order.
    string: str | tuple[str, ...]
    fuzzy: bool


def read_entries(path: Path, locale: str | None = None) -> list[Entry]:
    """The messages of a catalogue file in order, the header (an empty ``msgid``) included, as Babel would read
    them (:func:`read_catalogue`), which reads the files this reader does not."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None  # Babel's reader says what is wrong, in the words the tests expect
    found = None if text is None else _parse(text)
    if found is not None:
        return found
    return [_entry(message) for message in read_catalogue(path, locale=locale)]


def _entry(message: Message_) -> Entry:
    """An entry of Babel's message, its plural forms' missing ones empty."""
    msgid, string = message.id, message.string
    if not isinstance(msgid, str):
        msgid = (str(msgid[0]), str(msgid[1]))
    if not isinstance(string, str):
        string = tuple(str(form or "") for form in string or ())
    return Entry(message.context, msgid, string, message.fuzzy)


_KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s*(".*")$')
_ESCAPED = re.compile(r'\\([\\abfnrtv"])')
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _unquote(quoted: str) -> str | None:
    """The text of one quoted piece (``"a \\"b\\""``), unescaped as Babel does; None if it is not one piece."""
    if len(quoted) < 2 or quoted[0] != '"' or quoted[-1] != '"':
        return None
    inner = quoted[1:-1]
    if "\\" not in inner:
        return None if '"' in inner else inner
    if '"' in _ESCAPED.sub("", inner):
        return None
    return _ESCAPED.sub(lambda match: _ESCAPES.get(match.group(1), match.group(1)), inner)


def _parse(text: str) -> list[Entry] | None:
    """The entries of a PO file in the syntax the catalogues use, or None for anything else."""
    entries: list[Entry] = []
    fields: dict[str, list[str]] = {}
    forms: dict[int, list[str]] = {}
    fuzzy = False
    current: list[str] | None = None

    def finish() -> bool:
        nonlocal fuzzy, current
        if not fields and not forms:
            fuzzy, current = False, None
            return True
        if "msgid" not in fields or ("msgstr" in fields) == bool(forms) or ("msgid_plural" in fields) != bool(forms):
            return False  # not an entry this reader knows
        context = "".join(fields["msgctxt"]) if "msgctxt" in fields else None
        msgid = "".join(fields["msgid"])
        if forms:
            if sorted(forms) != list(range(len(forms))):
                return False
            entries.append(
                Entry(
                    context,
                    (msgid, "".join(fields["msgid_plural"])),
                    tuple("".join(forms[index]) for index in range(len(forms))),
                    fuzzy,
                )
            )
        else:
            entries.append(Entry(context, msgid, "".join(fields["msgstr"]), fuzzy))
        fields.clear()
        forms.clear()
        fuzzy, current = False, None
        return True

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if not finish():
                return None
            continue
        if line[0] == "#":
            if line.startswith("#~"):
                return None  # obsolete entries: Babel's
            if ("msgstr" in fields or forms) and not finish():
                return None
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                fuzzy = True
            continue
        if line[0] == '"':
            piece = _unquote(line)
            if piece is None or current is None:
                return None
            current.append(piece)
            continue
        match = _KEYWORD.match(line)
        if match is None:
            return None
        keyword, index, quoted = match.groups()
        piece = _unquote(quoted)
        if piece is None:
            return None
        if keyword in ("msgctxt", "msgid") and ("msgstr" in fields or forms) and not finish():
            return None
        if index is not None:
            if int(index) in forms:
                return None
            current = forms[int(index)] = [piece]
        else:
            if keyword in fields:
                return None
            current = fields[keyword] = [piece]
    if not finish():
        return None
    return entries


@cache
def english() -> dict[str, Message]:
    """Every message in English, from the template."""
    messages: dict[str, Message] = {}
    for message in read_entries(TEMPLATE):
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
    for message in read_entries(po_path(language.code), locale=language.cldr):
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
