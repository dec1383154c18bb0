"""The pseudo-language ``qps``: English accented, lengthened by a third and bracketed.

A test that shows every screen in it finds untranslated text at a glance (unbracketed Latin letters) and
text that would not fit a longer language. Placeholders (``{card}``) and markup (``[b]``…``[/b]``) are kept.
"""

from __future__ import annotations

import re

OPEN, CLOSE = "⟦", "⟧"

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
#: Placeholders and markup tags stay as they are: code reads them.
_KEEP = re.compile(r"\{[^{}]*\}|\[/?[a-z]+\]")


def pseudo_text(text: str) -> str:
    """``"Deal {deal}"`` → ``"⟦Đéåļ~ {deal}⟧"``; empty stays empty."""
    if not text.strip():
        return text
    pieces: list[str] = []
    position = 0
    letters = 0
    for match in _KEEP.finditer(text):
        plain = text[position : match.start()]
        pieces.append(plain.translate(_ACCENTED))
        letters += sum(character.isalpha() for character in plain)
        pieces.append(match.group())
        position = match.end()
    plain = text[position:]
    pieces.append(plain.translate(_ACCENTED))
    letters += sum(character.isalpha() for character in plain)
    padding = "~" * max(1, letters // 3)
    return f"{OPEN}{''.join(pieces)}{padding}{CLOSE}"
