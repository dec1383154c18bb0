"""Foursquare in its players' languages: English, Uzbek, Croatian, Tagalog, Kannada and Bengali.

Every word a person reads comes from the gettext catalogues under ``foursquare/locale/``, keyed by a stable
message key; the web page gets the same catalogues as JSON (``page_messages``), so web and terminal share one
text per message. Plurals follow CLDR (Croatian has three forms; Bengali and Kannada count 0 like 1).

>>> from foursquare.i18n import language, translator
>>> language("bn-BD").code, language("tl").code, language("uz-Latn-UZ").code
('bn', 'fil', 'uz')
>>> translator("hr").language.plural_categories
('one', 'few', 'other')
"""

from __future__ import annotations

from foursquare.i18n.catalogue import LOCALE_DIR, TEMPLATE, CatalogueError, Message, english, messages
from foursquare.i18n.languages import (
    ENGLISH,
    LANGUAGES,
    PSEUDO,
    Language,
    environment_preferences,
    language,
    negotiate,
    parse_accept_language,
    plural_categories,
)
from foursquare.i18n.translator import MissingMessageError, Translator, placeholders, translator

#: Keys of messages only the terminal, the command line or the server's API answers use: not sent to the page.
NOT_FOR_PAGE = ("term.", "cli.", "server.")


def page_messages(code: str) -> dict[str, Message]:
    """The messages the web page shows, for ``GET /api/messages/{code}``: plural ones by CLDR category."""
    return {key: value for key, value in messages(code).items() if not key.startswith(NOT_FOR_PAGE)}


__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "LOCALE_DIR",
    "NOT_FOR_PAGE",
    "PSEUDO",
    "TEMPLATE",
    "CatalogueError",
    "Language",
    "Message",
    "MissingMessageError",
    "Translator",
    "english",
    "environment_preferences",
    "language",
    "messages",
    "negotiate",
    "page_messages",
    "parse_accept_language",
    "placeholders",
    "plural_categories",
    "translator",
]
