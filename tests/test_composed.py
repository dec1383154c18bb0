"""Every message with placeholders, filled as the code fills them, read as the player reads it, in all six languages.

The placeholders get what the code passes: cell names (D4), card faces (10♦), the nested phrases it really
nests (``server.daily_secret``'s ``{what}`` is ``server.what.analysis`` or ``server.what.record``, a date is
``date.long``, a flip's ``{what}`` is ``flip.down``/``flip.up`` joined with ``list.and``), numbers as the
translator writes them, and every counted message at 0, 1, 2, 5, 21 and 22. The composed sentence then must
not double its punctuation (``2026..``, ``,.``, ``:.``), repeat a word (``ಆಟದ ಆಟದ``), nor use a plural form
that does not read with its number (Croatian *1 potez*, *2 poteza*: a ``one`` form the same as ``few`` is a
single form for all three). The catalogue review (issue 44, part 4) found each of these by reading; this
reads every message, every time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from functools import cache
from itertools import pairwise

import pytest
from babel.dates import format_date
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from foursquare.i18n import LANGUAGES, Translator, translator
from foursquare.i18n.catalogue import LOCALE_DIR

CODES = list(LANGUAGES)
COUNTS = (0, 1, 2, 5, 21, 22)
DAY = dt.date(2026, 12, 7)

Value = Callable[[Translator], object]


def join(t: Translator, items: list[str]) -> str:
    """``A, B and C`` as foursquare.tui.text.join and the page's joinList write it."""
    return items[0] if len(items) == 1 else t("list.and", a=t("list.sep").join(items[:-1]), b=items[-1])


def digits(t: Translator, text: str) -> str:
    """Digits as Intl writes them in a date (Bengali ০–৯, no grouping)."""
    return "".join(t.number(int(c)) if c.isdigit() else c for c in text)


def long_date(t: Translator) -> str:
    """date.long as the page fills it from Intl.DateTimeFormat's parts (the month in its date form)."""
    month = format_date(DAY, "MMMM", locale=t.language.locale)
    return t("date.long", day=digits(t, "7"), month=month, year=digits(t, "2026"))


def flips(t: Translator) -> str:
    down = t("flip.down", cards=join(t, ["D4", "E4"]))
    return join(t, [down, t("flip.up", cards="B4")])


def card_name(t: Translator) -> str:
    return t("card.name", rank="10", suit=t("suit.D"))


def resume(t: Translator) -> str:
    return t("term.what_resume", deal=t("term.deal", deal="1234567"), placed=12)


# What the code passes for a placeholder of this name, unless OVERRIDES says otherwise for a message.
DEFAULTS: dict[str, Value] = {
    "path": lambda t: "/home/ana/.local/share/foursquare/games/3.json", "file": lambda t: "3.json",
    "folder": lambda t: "/home/ana/games", "directory": lambda t: "/home/ana/games",
    "cell": lambda t: "D4", "cells": lambda t: "D4, E2", "card": lambda t: "10♦", "top": lambda t: "7♣",
    "pile": lambda t: 2, "rank": lambda t: "10", "suit": lambda t: t("suit.D"), "cards": lambda t: "D4",
    "value": lambda t: "12x", "score": lambda t: 17, "line": lambda t: 3, "deal": lambda t: "1234567",
    "command": lambda t: "foursquare play", "option": lambda t: "--deal", "other": lambda t: "--winnable",
    "n": lambda t: "n", "q": lambda t: "q", "r": lambda t: "r", "u": lambda t: "u", "s": lambda t: "s",
    "h": lambda t: "h", "y": lambda t: "y", "help": lambda t: "?", "key": lambda t: "x",
    "error": lambda t: "database is locked", "reason": lambda t: "No space left on device",
    "field": lambda t: "row", "max": lambda t: 24, "min": lambda t: 1, "what": lambda t: resume(t),
    "example": lambda t: "D4", "limit": lambda t: 4, "column": lambda t: 12, "number": lambda t: 3,
    "seconds": lambda t: 2.5, "placed": lambda t: 12, "total": lambda t: 40, "turn": lambda t: 7,
    "detail": lambda t: "line 1 column 2", "deals": lambda t: 1000, "pct": lambda t: t.percent(0.42),
    "percent": lambda t: t.percent(0.42), "win": lambda t: t.percent(0.42), "date": long_date,
    "when": lambda t: t.date_time(dt.datetime(2026, 12, 7, 9, 30)), "created": long_date, "used": long_date,
    "seen": lambda t: t.date_time(dt.datetime(2026, 12, 7, 9, 30)), "day": lambda t: DAY.isoformat(),
    "message": lambda t: "invalid choice", "prog": lambda t: "foursquare", "name": lambda t: "Ana's phone",
    "outcome": lambda t: t("term.outcome_won") if t.has("term.outcome_won") else "won",
    "device": lambda t: t("account.device", browser="Firefox", system="Android"),
    "browser": lambda t: "Firefox", "system": lambda t: "Android", "days": lambda t: 30,
    "month": lambda t: format_date(DAY, "MMMM", locale=t.language.locale), "year": lambda t: "2026",
    "page": lambda t: 2, "pages": lambda t: 5, "a": lambda t: "D4", "b": lambda t: "E4",
    "summary": lambda t: join(t, ["17: 3", "18: 1"]), "status": lambda t: 503, "retry_after": lambda t: 30,
    "best": lambda t: "E2", "played": lambda t: "D4", "loss": lambda t: 1.2, "low": lambda t: 0.4,
    "high": lambda t: 2.5, "threshold": lambda t: 0.5, "code": lambda t: "de", "languages": lambda t: "en, hr",
    "codes": lambda t: "en, uz, hr, fil, kn, bn", "host": lambda t: "example.org", "url": lambda t: "http://127.0.0.1:8000/",
    "left": lambda t: 11, "face_down": lambda t: 3, "flips": lambda t: flips(t), "card_note": lambda t: "",
    "width": lambda t: 30, "height": lambda t: 9, "min_width": lambda t: 37, "min_height": lambda t: 11,
    "problems": lambda t: t("server.missing", field="row"), "problem": lambda t: t("server.missing", field="row"),
    "players": lambda t: 5, "won": lambda t: 3, "first": lambda t: 1, "last": lambda t: 40, "moves": lambda t: 2,
}

# Placeholders that hold a number (the others get "<name>", which reads as no word of any language).
NUMBERS = {"ms", "wins", "games", "rate", "mean", "proven", "seed", "p95", "nodes", "speed", "done", "counts",
           "unwinnable", "unresolved", "usable", "before", "after", "playouts", "recheck", "bound", "upper",
           "proof", "speedup", "ratio", "length", "position", "z"}
DEFAULTS.update({
    "argument": lambda t: "--deal", "arguments": lambda t: "--deal, --winnable", "move": lambda t: "3",
    "player": lambda t: "greedy", "headers": lambda t: "X-Forwarded-For", "choices": lambda t: "'a', 'b'",
})

# What the code passes to these messages (the call sites named), where DEFAULTS does not say it.
OVERRIDES: dict[str, dict[str, list[Value]]] = {
    # foursquare.web.routes.analysis.refuse_if_daily_secret: the analysis, or the record.
    "server.daily_secret": {"what": [lambda t: t("server.what.analysis"), lambda t: t("server.what.record")]},
    "server.still_playing": {"what": [lambda t: t("server.what.anotherGame"), lambda t: t("server.what.analysis")]},
    "server.not_available": {"what": [lambda t, w=w: t(f"server.what.{w}") for w in ("winnable", "hint", "analysis")]},
    "server.not_your_game": {"what": [lambda t, d=d: t(f"server.doing.{d}")
                                      for d in ("place", "undo", "redo", "restart", "hint")]},
    "server.bad_request": {"problems": [lambda t: t("server.missing", field="row"),
                                        lambda t: t("server.one_deal_kind")]},
    # foursquare.tui.text and describe.js: the line by name, the turned cards joined.
    "flip.sentence": {"line": [lambda t: t("flip.line.row"), lambda t: t("flip.line.column")], "what": [flips]},
    "flip.explained": {"line": [lambda t: t("flip.line.row")], "what": [flips],
                       "reason": [lambda t, r=r: t(f"flip.reason.{r}", card="10♦")
                                  for r in ("highest", "lowest", "none_face_up")]},
    "term.turned_cells": {"what": [flips]},
    "card.faceUp": {"card": [card_name]}, "card.faceDown": {"card": [card_name]},
    "chart.desc": {"n": [lambda t: 5]}, "chart.point": {"n": [lambda t: 5]}, "replay.mistake": {"n": [lambda t: 5]},
    "over.moveLine": {"n": [lambda t: 5]},
    # account.js: a session's dates are date-times (Intl), a passkey's are date.long.
    "account.sessionDates": {"created": [lambda t: t.date_time(dt.datetime(2026, 12, 7, 9, 30))]},
    "app.pageTitle": {"page": [lambda t: t("stats.title"), lambda t: t("lesson.title")]},
}


def forms(value: object) -> tuple[str, ...]:
    return tuple(str(form or "") for form in (value if isinstance(value, tuple) else (value,)))


@cache
def template() -> list[Message]:
    with (LOCALE_DIR / "foursquare.pot").open("rb") as file:
        return [m for m in read_po(file) if m.id and re.search(r"\{\w+\}", " ".join(forms(m.id)))]


def fillings(key: str, names: list[str]) -> Iterator[dict[str, Value]]:
    """One filling per value of each overridden placeholder (the others at their default)."""
    def fallback(name: str) -> Value:
        return lambda t: 7 if name in NUMBERS else f"<{name}>"

    choices = {name: OVERRIDES.get(key, {}).get(name) or [DEFAULTS.get(name, fallback(name))] for name in names}
    longest = max(len(values) for values in choices.values())
    for i in range(longest):
        yield {name: values[min(i, len(values) - 1)] for name, values in choices.items()}


def composed(t: Translator, message: Message, counts: tuple[int, ...] = COUNTS) -> Iterator[tuple[str, int | None]]:
    """Each sentence the player can read for this message, with the count it was said for."""
    names = sorted(set(re.findall(r"\{(\w+)\}", " ".join(forms(message.id)))) - {"count"})
    plural = isinstance(message.id, tuple)
    for filling in fillings(message.context, names) if names else [{}]:
        params = {name: value(t) for name, value in filling.items()}
        for count in counts if plural else (None,):
            yield t(message.context, **params, **({} if count is None else {"count": count})), count


MARKUP = re.compile(r"\[/?b\]")
# Two marks in a row ("2026..", ",.", ":.", "!.", ". ."), but not an ellipsis ("...").
DOUBLED = re.compile(r"(?<!\.)([.,:;!?।])\s?(?!\.\.)([.,:;!?।])")
# A range as Python writes it in the command line's messages ("0 .. 24"), not two full stops.
RANGE = re.compile(r"(?<=\s)\.\.(?=\s)")
# Marks that rightly follow each other, by language, each with why.
ALLOWED_MARKS: dict[str, dict[str, str]] = {
    "hr": {".,": "a Croatian date ends in the year's ordinal dot (7. prosinca 2026.), and a comma may follow it"},
}
# Words a language rightly says twice in a row, each with why.
REDUPLICATIONS: dict[str, dict[str, str]] = {
    "bn": {"কোন": "কোন কোন is the plural \"which ones\" (কোন কোন খালি ঘরে: on which empty cells)"},
}
EDGES = ".,:;!?।()[]“”„\"'‘’«»—–-…/"


def doubled(code: str, text: str) -> list[str]:
    allowed = ALLOWED_MARKS.get(code, {})
    plain = RANGE.sub(" ", MARKUP.sub("", text))
    return [m.group(0) for m in DOUBLED.finditer(plain) if m.group(0) not in allowed]


def repeated(code: str, text: str) -> list[str]:
    """A word said twice with nothing between (not across a full stop or a bracket: "games. Games")."""
    raw = MARKUP.sub(" ", text).split()
    allowed = REDUPLICATIONS.get(code, {})
    return [f"{a} {b}" for a, b in pairwise(raw)
            if a.casefold() == b.casefold() and any(c.isalpha() for c in a) and a.strip(EDGES) == a
            and a not in allowed]


@pytest.mark.parametrize("code", CODES)
def test_no_composed_sentence_doubles_its_punctuation_or_a_word(code: str) -> None:
    t = translator(code)
    problems = []
    for message in template():
        for text, count in composed(t, message):
            where = f"{message.context}" + ("" if count is None else f" (count {count})")
            problems += [f"{where}: {found!r} in {text!r}" for found in doubled(code, text)]
            problems += [f"{where}: {found!r} twice in {text!r}" for found in repeated(code, text)]
    assert problems == []


@pytest.mark.parametrize("code", CODES)
def test_each_plural_form_reads_with_its_number(code: str) -> None:
    """Said for n, the sentence shows n (unless n is 1 and says so in words); Croatian's one, few and other
    read differently (1 potez, 2 poteza, 5 poteza) wherever the English singular and plural do."""
    t = translator(code)
    problems = []
    for message in template():
        if not isinstance(message.id, tuple):
            continue
        for text, count in composed(t, message):
            if count not in (None, 1) and t.number(count) not in text:
                problems.append(f"{message.context} (count {count}): no {t.number(count)} in {text!r}")
        if code == "hr" and message.id[0] != message.id[1]:
            # 21 is "one", 22 "few", 25 "other": the same words for all three is one form said for all
            # (a preposition may rightly give one and few the same case: hrpa od 21 karte, od 22 karte).
            said = {text.replace(t.number(n), "N") for n in (21, 22, 25)
                    for text, count in composed(t, message, (n,)) if count == n}
            if len(said) == 1:
                problems.append(f"{message.context}: one form for 21, 22 and 25: {said.pop()!r}")
    assert problems == []


def test_the_checks_catch_what_the_review_found() -> None:
    """The sentences the review found wrong (issue 44) fail the checks, so that they cannot drift lax."""
    assert doubled("hr", "Prijavljeni ste pristupnim ključem — račun je izrađen 7. prosinca 2026..") == [".."]
    assert doubled("en", "Nothing to undo,.") == [",."] and doubled("en", "Wait...") == []
    assert doubled("hr", "Izrađen 7. prosinca 2026., zadnji put korišten") == []
    assert repeated("kn", "ದಿನದ ಹಂಚಿಕೆಯ ಆಟದ ಆಟದ ದಾಖಲೆ") == ["ಆಟದ ಆಟದ"]
    assert repeated("bn", "দৈনিক খেলার খেলার রেকর্ড") == ["খেলার খেলার"]
    assert repeated("en", "the recent games. Games with a hint") == []
