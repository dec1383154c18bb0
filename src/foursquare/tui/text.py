"""The words of the terminal game, in the player's language: every one comes from the message catalogue.

The ``term.*`` messages are the terminal's own; card faces, why cards turned over, why a game ended, why a move
is illegal and the rules are the messages the web page shows too (``rank.*``, ``flip.*``, ``over.reason.*``,
``error.illegal.*``, ``rules.*``). What stays as typed is filled in here, never translated: the keys (``u``,
``?``...), commands (``foursquare play``), cell names (``D4``), card faces (``7♥``) and deal numbers.
Numbers are written with the language's digits (:meth:`Translator.number`).

Widths are measured in terminal cells, not characters: Kannada and Bengali combining marks take no cell of
their own, and their spacing vowel signs one on most terminals though none for rich (:func:`terminal_cells`).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass

from rich.cells import cell_len

from foursquare.cards import SUIT_SYMBOLS, Card
from foursquare.engine import MAX_FACE_DOWN, Flip, Outcome, Placement, Variant
from foursquare.i18n import Translator
from foursquare.tui.keys import KEY_HELP, KEY_HINT, KEY_NEW, KEY_QUIT, KEY_REDO, KEY_START_OVER, KEY_UNDO

#: The keys messages name through placeholders (``{u} undo``): they do not change with the language.
KEY_NAMES = {
    "u": KEY_UNDO,
    "r": KEY_REDO,
    "s": KEY_START_OVER,
    "n": KEY_NEW,
    "h": KEY_HINT,
    "q": KEY_QUIT,
    "y": "y",
    "help": KEY_HELP,
}
#: Commands the player may type, named in messages through ``{command}``.
PROGRAM = "foursquare"
COMMAND_PLAY = f"{PROGRAM} play"
COMMAND_STATS = f"{PROGRAM} stats"
COMMAND_LIST = f"{COMMAND_PLAY} --list"
DATA_DIR_VARIABLE = "FOURSQUARE_DATA_DIR"
#: Set (to anything but an empty string) to play without the mouse, like ``play --no-mouse``.
NO_MOUSE_VARIABLE = "FOURSQUARE_NO_MOUSE"
#: The cells' names run from A1 to G7; a name is typed as a column letter then a row number.
FIRST_CELL, LAST_CELL, ROWS, NAME_EXAMPLE = "A1", "G7", "1-7", "e4"


def keys(bold: bool = False) -> dict[str, str]:
    """The key placeholders of a message, plain or in bold markup (for ``Text.from_markup``)."""
    return {name: f"[b]{key}[/b]" if bold else key for name, key in KEY_NAMES.items()}


def saved_when(t: Translator, stamp: float) -> str:
    """When a file was saved (a timestamp), as the language writes the date, on a 24-hour clock (CLDR's Kannada
    and Bengali 12-hour clocks say AM/PM in Latin letters)."""
    saved = dt.datetime.fromtimestamp(stamp)
    return f"{t.date(saved.date())} {t.number(saved.hour)}:{t.number(saved.minute).rjust(2, t.number(0))}"


def command_analyze(path: str) -> str:
    return f"{PROGRAM} analyze {path}"


def command_deal(deal: int) -> str:
    return f"{COMMAND_PLAY} --deal {deal}"


def cards(t: Translator, count: int) -> str:
    """``1 card``, ``7 cards`` (with each language's plural forms and digits)."""
    return t("term.cards", count=count)


def face(t: Translator, card: Card, suits: bool = True) -> str:
    """A card's face as the board shows it: ``7♥``, the ace's letter from the catalogue (``rank.short.1``, as on
    the web page); ``7H`` where the terminal cannot show suit symbols (ASCII, like the record's names)."""
    if not suits:
        return card.name
    rank = t("rank.short.1") if card.rank == 1 else str(card.rank)
    return rank + SUIT_SYMBOLS[card.suit]


def join(t: Translator, items: list[str]) -> str:
    """``A, B and C`` with the language's separators (``list.sep``, ``list.and``, as on the web page)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t("list.and", a=t("list.sep").join(items[:-1]), b=items[-1])


def variant_parts(t: Translator, variant: Variant) -> list[str]:
    """The house rules in force, in words (empty for the standard game)."""
    parts = []
    if variant.adjacency == "diagonal":
        parts.append(t("term.variant_diagonal"))
    if variant.count_buried:
        parts.append(t("term.variant_count_buried"))
    return parts


def illegal_reason(t: Translator, reason: str) -> str:
    """Why a move is illegal (``error.illegal.*``, the web page's words)."""
    key = f"error.illegal.{reason}"
    return t(key) if t.has(key) else t("error.illegal.bad_cell")


def over_reason(t: Translator, outcome: Outcome) -> str:
    """Why the game ended (``over.reason.*``, the web page's words)."""
    return t(f"over.reason.{outcome.reason or 'sixteen_face_up'}")


@dataclass(frozen=True)
class Sentence:
    """A sentence about the last move, and the card faces in it (to colour them)."""

    text: str
    faces: tuple[tuple[str, Card], ...] = ()


def flip_sentences(
    t: Translator, placement: Placement, suits: bool, undone: bool = False, reasons: bool = True
) -> list[Sentence]:
    """Why cards turned over, a sentence per line checked (the web page's ``flip.*``): "Row: A♥ is lower than
    every other face-up card, so 3♠ on D4 turned face down." After an undo the cards turned back, each now the
    other way, and no reason is given; nor is one without ``reasons`` (a small terminal: "Row: 3♠ on D4 turned
    face down.")."""
    sentences = []
    placed = face(t, placement.card, suits)
    for line in ("row", "column"):
        flips = [f for f in placement.flips if f.line == line]
        if not flips:
            continue
        what = []
        faces: list[tuple[str, Card]] = [(placed, placement.card)]
        for up in (False, True):
            turned: list[Flip] = [f for f in flips if (f.face_up != undone) == up]
            if turned:
                named = [t("flip.cardAt", card=face(t, f.card, suits), cell=f.cell_name) for f in turned]
                what.append(t("flip.up" if up else "flip.down", cards=join(t, named)))
                faces.extend((face(t, f.card, suits), f.card) for f in turned)
        name = t(f"flip.line.{line}")
        if undone or not reasons:
            text = t("flip.sentence", line=name, what=join(t, what))
        else:
            reason = t(f"flip.reason.{flips[0].reason}", card=placed)
            text = t("flip.explained", line=name, reason=reason, what=join(t, what))
        sentences.append(Sentence(text, tuple(faces)))
    return sentences


def cells_sentences(t: Translator, placement: Placement, undone: bool = False) -> list[str]:
    """What turned over, a sentence per line, the cards named by their cells alone ("Row: D4 and E4 turned face
    down."): the shortest telling, for the smallest terminal (the board shows the cards)."""
    sentences = []
    for line in ("row", "column"):
        flips = [f for f in placement.flips if f.line == line]
        what = []
        for up in (False, True):
            cells = [f.cell_name for f in flips if (f.face_up != undone) == up]
            if cells:
                what.append(t("flip.up" if up else "flip.down", cards=join(t, cells)))
        if what:
            sentences.append(t("flip.sentence", line=t(f"flip.line.{line}"), what=join(t, what)))
    return sentences


def cells_sentence(t: Translator, placement: Placement, undone: bool = False) -> str | None:
    """What turned over in one sentence, the row and the column together, the cards named by their cells alone
    ("D4 and E2 turned face down."): shorter still than :func:`cells_sentences`; None when nothing turned."""
    what = []
    for up in (False, True):
        cells = [f.cell_name for f in placement.flips if (f.face_up != undone) == up]
        if cells:
            what.append(t("flip.up" if up else "flip.down", cards=join(t, cells)))
    return t("term.turned_cells", what=join(t, what)) if what else None


def keys_legend(t: Translator) -> list[tuple[str, str]]:
    """The in-game keys and what they do, for ``?`` and ``foursquare play --help`` (plain text)."""
    k = keys()
    named = [
        "i-z, 0-9",
        t("term.key.arrows"),
        "a-g 1-7",
        t("term.key.mouse"),
        f"{KEY_UNDO}, {t('term.key.backspace')}",
        KEY_START_OVER,
        KEY_HINT,
        KEY_HELP,
    ]
    params: dict[str, object] = {
        **k,
        "example": NAME_EXAMPLE,
        "marks": f"#{t.number(1)}{t('list.sep')}#{t.number(2)}...",
        "command": COMMAND_PLAY,
    }
    return [(key, t(f"term.keys.{number}.text", **params)) for number, key in enumerate(named, start=1)]


#: The rules as the web page shows them (docs/rules.md, readings and the deal-1 example included), in order:
#: (kind, key). Kinds: ``title``, ``heading``, ``text``, ``item`` (a numbered step), ``sub`` (a case of the
#: step before), ``reading`` (how an open point of the original sheet is read, with its reason).
RULES: tuple[tuple[str, str], ...] = (
    ("title", "rules.title"),
    ("text", "rules.intro"),
    ("text", "rules.readings"),
    ("heading", "rules.cards.title"),
    ("text", "rules.cards.text"),
    ("text", "rules.cards.stock"),
    ("heading", "rules.laying.title"),
    ("item", "rules.laying.take"),
    ("item", "rules.laying.first"),
    ("item", "rules.laying.later"),
    ("sub", "rules.laying.onPile"),
    ("sub", "rules.laying.nextTo"),
    ("reading", "rules.reading.nextTo"),
    ("reading", "rules.reading.box"),
    ("heading", "rules.turning.title"),
    ("text", "rules.turning.intro"),
    ("item", "rules.turning.row"),
    ("sub", "rules.turning.allDown"),
    ("sub", "rules.turning.tie"),
    ("item", "rules.turning.column"),
    ("item", "rules.turning.topOnly"),
    ("reading", "rules.reading.faceDown"),
    ("reading", "rules.reading.flip"),
    ("reading", "rules.reading.tie"),
    ("heading", "rules.end.title"),
    ("item", "rules.end.intro"),
    ("sub", "rules.end.win"),
    ("sub", "rules.end.faceDown"),
    ("sub", "rules.end.stock"),
    ("text", "rules.end.zero"),
    ("reading", "rules.reading.topCount"),
    ("reading", "rules.reading.winFirst"),
    ("heading", "rules.house.title"),
    ("text", "rules.house.intro"),
    ("sub", "rules.house.diagonal"),
    ("sub", "rules.house.countBuried"),
    ("text", "rules.house.standard"),
    ("heading", "rules.deals.title"),
    ("text", "rules.deals.text"),
    ("heading", "rules.example.title"),
    ("text", "rules.example.deal"),
    ("sub", "rules.example.first"),
    ("sub", "rules.example.second"),
    ("sub", "rules.example.third"),
    ("sub", "rules.example.fourth"),
)


@dataclass(frozen=True)
class RulePart:
    """A paragraph of the rules: its kind (see :data:`RULES`), its text, and a step's number (``1.``)."""

    kind: str
    text: str
    number: str = ""


def rules(t: Translator) -> list[RulePart]:
    """The rules in ``t``'s language, in the order of :data:`RULES`, the steps numbered in the language's
    digits. A key the catalogue lacks is left out (the web page owns the rules' keys)."""
    shown: list[RulePart] = []
    step = 0
    for kind, key in RULES:
        if not t.has(key):
            continue
        number = ""
        if kind == "item":
            step += 1
            number = t.number(step) + "."
        shown.append(RulePart(kind, t(key), number))
    return shown


def symbols_meanings(t: Translator, buried: str) -> dict[str, str]:
    """What each mark of the board means (the help's legend); ``buried`` is the board's mark of a covered
    face-down card (``↓1``)."""
    return {
        "pile": t("term.symbol.pile", key="k"),
        "target": t("term.symbol.target", label="[k]"),
        "back": t("term.symbol.back"),
        "height": t("term.symbol.height", count=2, buried=buried),
        "placed": t("term.symbol.placed"),
        "cursor": t("term.symbol.cursor"),
        "hint": t("term.symbol.hint", h=KEY_HINT),
        "inside": t("term.symbol.inside"),
        "face_down": t("term.symbol.face_down", careful=MAX_FACE_DOWN - 1, limit=MAX_FACE_DOWN),
    }


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells."""
    return text + " " * max(0, width - cell_len(text))


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` terminal cells, broken at spaces (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else indent + word
        if line and cell_len(candidate) > width:
            lines.append(line)
            candidate = indent + word
        line = candidate
    if line:
        lines.append(line)
    return lines


def terminal_cells(text: str) -> int:
    """The cells ``text`` takes on most terminals (xterm, tmux, VTE): as rich counts them, plus one for each
    spacing vowel sign of Bengali or Kannada (ো, ಾ), which rich counts as none and those terminals as one."""
    return cell_len(text) + sum(1 for ch in text if unicodedata.category(ch) == "Mc" and cell_len(ch) == 0)
