"""``Translator``: a language's messages with their placeholders filled, and its numbers, percentages and dates."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from foursquare.i18n.catalogue import Message, english, messages
from foursquare.i18n.languages import Language

if TYPE_CHECKING:
    import datetime as dt

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NATIVE_DIGITS = {"beng": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")}


class MissingMessageError(KeyError):
    """No catalogue has a message of that key: a programming error, caught by the catalogue tests."""


class Translator:
    """The messages of one language.

    >>> t = translator("en")
    >>> t("card.name", rank="7", suit="hearts")
    '7 of hearts'
    >>> t("panel.stockValue", count=1), t("panel.stockValue", count=3)
    ('1 card', '3 cards')

    An ``int`` or ``float`` parameter is written with the language's digits (``{count}`` is ``৩`` in
    Bengali); pass a ``str`` for identifiers that stay as typed, such as a deal number or a cell name.
    """

    def __init__(self, language: Language) -> None:
        self.language = language
        self._messages = messages(language.code)

    @property
    def code(self) -> str:
        return self.language.code

    def __call__(self, key: str, /, **params: object) -> str:
        text = self._pick(key, params.get("count"))
        return _PLACEHOLDER.sub(lambda match: self._param(match, params), text)

    def has(self, key: str) -> bool:
        return key in self._messages

    def _pick(self, key: str, count: object) -> str:
        message: Message | None = self._messages.get(key)
        if message is None:
            raise MissingMessageError(f"no message {key!r} in the catalogues")
        if isinstance(message, str):
            return message
        category = self.plural_category(count if isinstance(count, int | float) else 0)
        return message.get(category, message["other"])

    def plural_category(self, count: float) -> str:
        """The CLDR plural category of ``count`` in this language (``"one"``, ``"few"``, ``"other"``…)."""
        category = self.language.locale.plural_form(abs(count))
        return str(category)

    def _param(self, match: re.Match[str], params: dict[str, object]) -> str:
        name = match.group(1)
        if name not in params:
            return match.group(0)
        value = params[name]
        if isinstance(value, int | float) and not isinstance(value, bool):
            return self.number(value)
        return str(value)

    def number(self, value: float, digits: int | None = None) -> str:
        """A number in the language's digits and separators; ``digits`` fixes the decimals shown."""
        # With fixed decimals, still the language's own grouping (Bengali 12,34,567, as Intl writes it).
        whole = str(self.language.locale.decimal_formats[None].pattern).split(";")[0].split(".")[0]
        pattern = None if digits is None else (whole + "." + "0" * digits if digits else whole)
        from babel.numbers import format_decimal  # Babel loads when a number is first written, not at start

        return self._digits(format_decimal(value, format=pattern, locale=self.language.locale))

    def percent(self, fraction: float, digits: int = 0) -> str:
        # The language's own pattern (Croatian "45 %"), with exactly ``digits`` decimals.
        pattern = str(self.language.locale.percent_formats[None].pattern)
        if digits:
            pattern = pattern.replace("0%", "0." + "0" * digits + "%").replace("0\xa0%", "0." + "0" * digits + "\xa0%")
        from babel.numbers import format_percent

        return self._digits(format_percent(fraction, format=pattern, locale=self.language.locale))

    def date(self, value: dt.date) -> str:
        from babel.dates import format_date

        return self._digits(format_date(value, format="medium", locale=self.language.locale))

    def date_time(self, value: dt.datetime) -> str:
        from babel.dates import format_datetime

        return self._digits(format_datetime(value, format="medium", locale=self.language.locale))

    def _digits(self, text: str) -> str:
        # Babel formats with Latin digits; browsers' Intl writes a locale's own (Bengali ০–৯), and so do we.
        table = _NATIVE_DIGITS.get(self.language.locale.default_numbering_system)
        return text.translate(table) if table else text


@cache
def translator(code: str) -> Translator:
    """The translator of a language code of ``LANGUAGES`` (or ``qps``)."""
    from foursquare.i18n.languages import LANGUAGES, PSEUDO

    language = PSEUDO if code == PSEUDO.code else LANGUAGES[code]
    return Translator(language)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills."""
    return set(_PLACEHOLDER.findall(text))


__all__ = ["MissingMessageError", "Translator", "english", "placeholders", "translator"]
