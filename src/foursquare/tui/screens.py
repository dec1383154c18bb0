"""Whole frames of the interactive game: the full layout (framed board, side panel), the compact one for
small terminals (down to ``MIN_WIDTH`` × ``MIN_HEIGHT``), a plain notice below that, and the help screen.

Every word is in the player's language (``session.t``), and a frame never grows past the terminal whatever the
language's length: texts are wrapped and measured in terminal cells, a long form gives way to a short one, the
side panel is cut to the room beside the board, and the prompt and the keys always show at the bottom."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from foursquare.cards import DECK_SIZE
from foursquare.engine import MAX_FACE_DOWN, Move, Variant
from foursquare.i18n import Translator
from foursquare.tui.board import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    COMPACT_WIDTH,
    LARGE,
    NORMAL,
    BoardSize,
    Marks,
    big_card,
    card_style,
    compact_board,
    full_board,
    symbols_legend,
)
from foursquare.tui.glyphs import Glyphs
from foursquare.tui.session import Session
from foursquare.tui.text import (
    COMMAND_LIST,
    COMMAND_STATS,
    Sentence,
    cards,
    cells_sentence,
    cells_sentences,
    command_analyze,
    face,
    flip_sentences,
    keys,
    keys_legend,
    over_reason,
    rules,
    terminal_cells,
    variant_parts,
)

SIDE_MIN_WIDTH = 26
SIDE_MAX_WIDTH = 60  # a longer line is hard to read
CENTRED_FROM = 10  # columns or lines to spare before a layout moves away from the top left corner
FULL_WIDTH = BOARD_WIDTH + 2 + SIDE_MIN_WIDTH  # 80: the board with the side panel beside it
FULL_HEIGHT = BOARD_HEIGHT + 4  # 22: header, board, prompt, keys
MIN_WIDTH = COMPACT_WIDTH  # 37: the compact board's five cells
MIN_HEIGHT = 11  # header, status, 5 rows and the letters, the last move, the prompt, the keys
HINTS_SHOWN = 5


@dataclass
class Hint:
    """One ranked move of the hint, as shown."""

    move: Move
    win: float
    score: float


@dataclass
class View:
    """Everything a frame shows."""

    session: Session
    marks: Marks
    glyphs: Glyphs
    message: str | None = None
    hints: list[Hint] = field(default_factory=list)
    thinking: bool = False
    #: What the hint's moves are listed by, highest first: the library's ``foursquare.players.HINT_RANKED_BY``,
    #: which the hint brings along (named here only so that drawing a frame never loads the players).
    ranked_by: str = "expected_score"

    @property
    def t(self) -> Translator:
        return self.session.t


@dataclass
class Frame:
    """A renderable screen and where each cell of the board lies on it (``(top, left, height, width)``)."""

    renderable: RenderableType
    cells: dict[Move, tuple[int, int, int, int]] = field(default_factory=dict)

    def cell_at(self, row: int, col: int) -> Move | None:
        for move, (top, left, height, width) in self.cells.items():
            if top <= row < top + height and left <= col < left + width:
                return move
        return None


def draw_frame(view: View, width: int, height: int) -> Frame:
    """The frame that fits a ``width`` × ``height`` terminal."""
    if width >= FULL_WIDTH and height >= FULL_HEIGHT:
        return full_frame(view, width, height)
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return compact_frame(view, width, height)
    return too_small_frame(view, width, height)


# --- text that fits -----------------------------------------------------------------------------------

#: A console that only lays text out (wraps it, renders tables and panels into lines): it never writes.
_LAYOUT = Console(file=io.StringIO(), width=80, legacy_windows=False, color_system="truecolor")


def as_lines(renderable: RenderableType, width: int) -> list[Text]:
    """``renderable`` laid out ``width`` terminal cells wide, as styled lines of text.

    Laid out narrower where rich's count of a line falls short of the terminal's (:func:`terminal_cells`),
    so that no line of Bengali or Kannada wraps on the terminal."""
    room = max(1, width)
    while True:
        lines = _render_lines(renderable, room)
        overhang = max((terminal_cells(line.plain) - width for line in lines), default=0)
        if overhang <= 0 or room == 1:
            return lines
        room = max(1, room - overhang)


def _render_lines(renderable: RenderableType, width: int) -> list[Text]:
    options = _LAYOUT.options.update(width=width)
    lines = []
    for segments in _LAYOUT.render_lines(renderable, options, pad=False):
        line = Text()
        for segment in segments:
            if not segment.control:
                line.append(segment.text, segment.style)
        lines.append(line)
    return lines


def one_line(text: Text, width: int, ascii_only: bool = False) -> Text:
    """``text`` on one line of at most ``width`` cells (as the terminal counts), cut with "…" (or plainly, in
    ASCII)."""
    overflow: Literal["ellipsis", "crop"] = "crop" if ascii_only else "ellipsis"
    text.no_wrap = True
    text.overflow = overflow
    room = width
    text.truncate(room, overflow=overflow)
    while room > 1 and terminal_cells(text.plain) > width:
        room -= terminal_cells(text.plain) - width
        text.truncate(max(1, room), overflow=overflow)
    return text


def fitting(long: Text, short: Text, width: int) -> Text:
    """The long form when it fits on one line (as the terminal counts), else the short one."""
    return long if terminal_cells(long.plain) <= width else short


# --- the parts -------------------------------------------------------------------------------------------


def deal_caption(session: Session, reveal: bool, short: bool = False) -> str:
    """The deal number, or for a random deal a note that it is kept secret until ``reveal``."""
    t = session.t
    if session.deal_shown or reveal:
        return t("term.deal_number", deal=str(session.game.deal))
    suffix = "_short" if short else ""
    return t(f"term.deal_winnable{suffix}") if session.winnable else t(f"term.deal_random{suffix}")


def variant_caption(variant: Variant, t: Translator) -> str | None:
    """The house rules in force, or None for the standard game."""
    parts = variant_parts(t, variant)
    return t("term.variant_short", text=t("list.sep").join(parts)) if parts else None


def face_down_text(session: Session, short: bool) -> Text:
    game, t = session.game, session.t
    down = game.face_down
    style = "bold red" if down >= MAX_FACE_DOWN else "bold yellow" if down == MAX_FACE_DOWN - 1 else "green"
    line = Text(t("term.face_down_short" if short else "term.face_down_label") + " ")
    value = t("term.face_down_value_short" if short else "term.face_down_value", count=down, limit=MAX_FACE_DOWN)
    line.append(value, style=style)
    if game.card_to_place is not None and down == MAX_FACE_DOWN - 1:
        line.append("  " + t("term.face_down_warn_3"), style="yellow")
    elif game.card_to_place is not None and down == MAX_FACE_DOWN:
        line.append("  " + t("term.face_down_warn_4"), style="bold red")
    return line


def explain(view: View, head: bool = True, reasons: bool = True) -> Text:
    """What the last command did and why, in words (the web page's sentences): a sentence a line, the cards in
    their colours. Shorter for a small terminal: without the first line (``head``: the card placed, which the
    board marks) or without the reasons (``reasons``)."""
    last, t, glyphs = view.marks.last, view.t, view.glyphs
    if last is None:
        return Text()
    if last.kind == "resumed":
        return Text(t("term.last_resumed"))
    if last.kind == "restart" or last.placement is None:
        if view.session.left:
            return Text(t("term.last_restart_kept", command=COMMAND_LIST, **keys()))
        return Text(t("term.last_restart", **keys()))
    p = last.placement
    name = face(t, p.card, glyphs.suits)
    undone = last.kind == "undone"
    if undone:
        first = t("term.last_undone", card=name, cell=p.move.name)
    elif last.kind == "redone":
        first = t("term.last_redone", card=name, cell=p.move.name)
    else:
        first = t("flip.placed", card=name, cell=p.move.name)
    sentences = flip_sentences(t, p, glyphs.suits, undone=undone, reasons=reasons)
    if not sentences and not undone:
        sentences = [Sentence(t("term.nothing_turned"))]
    shown = [first] if head or not sentences else []
    text = Text("\n".join([*shown, *(sentence.text for sentence in sentences)]))
    faces = {name: p.card} | {shown: card for sentence in sentences for shown, card in sentence.faces}
    for words, card in faces.items():
        text.highlight_words([words], card_style(card))
    return text


def explain_forms(view: View) -> list[Text]:
    """:func:`explain`'s forms, longest first, for a small terminal to show the longest that fits whole; the
    last names what turned by its cells alone (``Row: D4 and E5 turned face down.``)."""
    forms = [
        explain(view, head=head, reasons=reasons)
        for reasons, head in ((True, True), (True, False), (False, True), (False, False))
    ]
    last = view.marks.last
    if last is not None and last.placement is not None and last.placement.flips:
        undone = last.kind == "undone"
        for sentences in (
            cells_sentences(view.t, last.placement, undone),
            [cells_sentence(view.t, last.placement, undone)],
        ):
            text = Text("\n".join(sentence for sentence in sentences if sentence))
            text.highlight_regex(r"\b[A-G][1-7]\b", "bold")
            forms.append(text)
    return forms


def hint_lines(view: View, short: bool, width: int | None = None) -> list[Text]:
    """The hint's ranked moves under a title that says what they are ranked by (or that the hint is being worked
    out); a move whose line would not fit in ``width`` (a long language beside the board) is told in a shorter
    form, under the title that explains it. ``short``: the small board's form, the moves on one line after a
    short label (:func:`compact_hint_forms` fits them)."""
    t = view.t
    if view.thinking:
        return [Text(t("term.thinking"), style="italic")]
    if not view.hints:
        return []
    by_score = view.ranked_by == "expected_score"  # the figure the moves are ranked by comes first
    forms: tuple[str, ...] = ("term.hint_line", "term.hint_medium", "term.hint_short")
    if by_score:
        forms = ("term.hint_line_score", "term.hint_medium_score", "term.hint_short_score")
    if short:
        forms = forms[2:]
    label = t(f"term.hint_label.{view.ranked_by}" if short else f"term.hint_title.{view.ranked_by}")
    lines = [Text(label, style="bold")]
    for rank, hint in enumerate(view.hints[:HINTS_SHOWN], start=1):
        key = view.marks.keys.get(hint.move)
        note = f"[{key}] " if key else ""
        figures = {"rank": rank, "cell": hint.move.name, "win": t.percent(hint.win), "score": t.number(hint.score, 1)}
        for form in forms:
            words = t(form, card_note=note, **figures)
            if width is None or terminal_cells(words) <= width:
                break
        lines.append(Text(words, style="green" if rank == 1 else ""))
    return lines


def compact_hint_forms(view: View, width: int) -> list[list[Text]]:
    """The small board's hint as lines ``width`` wide, in forms from all moves down to the best one alone, each
    under the label that says what they are ranked by."""
    lines = hint_lines(view, short=True)
    if len(lines) < 2:
        return [lines]
    label, moves = lines[0], lines[1:]
    return [
        [*as_lines(label, width), *as_lines(Text("  ").join(moves[:count]), width)]
        for count in range(len(moves), 0, -1)
    ]


def end_lines(session: Session) -> list[Text]:
    """The outcome, with the score, the deal number (now revealed) and where the statistics are."""
    t = session.t
    outcome = session.game.outcome()
    if outcome.status == "won":
        banner, style = t("term.won_banner", score=outcome.score), "green"
        body = t("term.won_score", count=outcome.score or 0)
    else:
        banner, style = t("term.lost_banner"), "red"
        body = over_reason(t, outcome)  # the web page's words for why the game ended
    lines = [Text(f" {banner} ", style=f"bold reverse {style}"), Text(body, style="bold")]
    lines.append(Text(t("term.end_deal", deal=str(session.game.deal))))
    if session.history is not None:
        lines.append(Text(t("term.end_stats", command=COMMAND_STATS)))
    return lines


def analyze_line(session: Session) -> list[Text]:
    """After the end: the command that studies the game (a line of its own: the path may be long), if a file
    holds the game as it ended."""
    path = session.record_path
    if path is None or not session.is_kept or not session.game.is_over():
        return []
    return [Text(session.t("term.end_analyze", command=command_analyze(path)), overflow="fold")]


def whole(text: Text, width: int) -> list[Text]:
    """``text`` wrapped to ``width``, a word longer than a line (a path) broken across lines, never cut."""
    text = text.copy()
    text.overflow = "fold"
    return as_lines(text, width)


def prompt_line(view: View, width: int) -> Text:
    """What to do now: the message of the last key, or how to place the card (or play again)."""
    t = view.t
    card = view.session.game.card_to_place
    if view.message:
        return Text(view.message, style="bold yellow")
    if card is None:
        long = Text(t("term.play_another", **keys()), style="bold")
        return fitting(long, Text(t("term.play_another_short", **keys()), style="bold"), width)
    name = face(t, card, view.glyphs.suits)
    long = Text(t("term.key_hint", card=name))
    return fitting(long, Text(t("term.key_hint_short", card=name)), width)


def keys_lines(view: View, width: int, ascii_only: bool) -> tuple[Text, list[Text] | None]:
    """The keys: the longest form that names every key on one line, else the short form (cut to fit), and then
    also every key on two lines where they fit so (the frame shows those if it has the room)."""
    over = view.session.game.card_to_place is None
    name = "term.footer_end" if over else "term.footer_play"
    for form in (name, name + "_medium"):
        text = Text.from_markup(view.t(form, **keys(bold=True)))
        if terminal_cells(text.plain) <= width:
            return text, None
    short = one_line(Text.from_markup(view.t(name + "_short", **keys(bold=True))), width, ascii_only)
    two = _key_pairs(view.t(name + "_medium", **keys(bold=True)), width)
    return short, two if two is not None and len(two) == 2 else None


def _key_pairs(markup: str, width: int) -> list[Text] | None:
    """A key bar's markup in lines of at most ``width`` cells, broken only between one key's words and the next
    key (``[b]u[/b] undo``); None when one key's words alone are too wide."""
    parts = markup.split("[b]")
    units = [Text.from_markup(parts[0] + "[b]" + parts[1])] if len(parts) > 1 else [Text.from_markup(parts[0])]
    units += [Text.from_markup("[b]" + part) for part in parts[2:]]
    lines: list[Text] = []
    for unit in units:
        unit.rstrip()
        if terminal_cells(unit.plain) > width:
            return None
        if lines and terminal_cells(lines[-1].plain + " " + unit.plain) <= width:
            lines[-1].append(" ")
            lines[-1].append_text(unit)
        else:
            lines.append(unit)
    return lines


def fill(blocks: list[tuple[int, list[list[Text]], bool]], room: int) -> list[Text]:
    """Lay blocks out in ``room`` lines: each ``(place, forms, needed)`` in turn (the first has the first pick)
    takes its first form that fits in the lines left, the shortest form of every needed block after it kept
    room for; a needed block none of whose forms fits takes its last, cut to the lines left. The blocks then
    show in the order of their ``place``."""
    chosen: dict[int, list[Text]] = {}
    kept = [min((len(form) for form in forms), default=0) if needed else 0 for _, forms, needed in blocks]
    for i, (place, forms, needed) in enumerate(blocks):
        free = room - sum(kept[i + 1 :])
        form = next((form for form in forms if len(form) <= free), None)
        if form is None and needed and forms:
            form = forms[-1][: max(room, 0)]
        if form:
            chosen[place] = form
            room -= len(form)
    return [line for place in sorted(chosen) for line in chosen[place]]


def bottom(
    view: View,
    width: int,
    room: int,
    ascii_only: bool,
    extra: Sequence[tuple[list[list[Text]], bool]] = (),
    prompt_width: int | None = None,
) -> list[Text]:
    """The lines under the board in ``room`` lines, first served first: the keys on one line; the message of
    the last key; the command that analyses a finished game, whole; then ``extra`` (``(forms, needed)``, shown
    above the message in that order); the prompt (its long form if it fits in ``prompt_width``); every key on
    two lines where one would not name them all."""
    keys_line, two = keys_lines(view, width, ascii_only)
    prompt = prompt_line(view, width if prompt_width is None else prompt_width)
    prompt_forms = [as_lines(prompt, width), [one_line(prompt.copy(), width, ascii_only)]]
    analyze = [line for item in analyze_line(view.session) for line in whole(item, width)]
    blocks: list[tuple[int, list[list[Text]], bool]] = [(9, [[keys_line]], True)]
    if view.message:
        blocks.append((7, prompt_forms, True))
    if analyze:
        blocks.append((1, [analyze], True))
    blocks += [(2 + i, forms, needed) for i, (forms, needed) in enumerate(extra)]
    if not view.message:
        blocks.append((7, prompt_forms, False))
    lines = fill(blocks, room)
    if two is not None and len(lines) + 1 <= room:  # room for every key: the two lines instead of the short one
        lines = [*lines[:-1], *two]
    return lines


# --- the layouts ------------------------------------------------------------------------------------------


def full_side(view: View, width: int, room: int) -> list[Text]:
    """Beside the board, in ``room`` lines ``width`` wide: the card to place (or the outcome), stock, face-down
    count, then the hint, or the last move in the longest form that fits whole."""
    session, glyphs, t = view.session, view.glyphs, view.t
    game = session.game
    items: list[RenderableType] = []
    card = game.card_to_place
    if card is not None:
        items.append(Text(t("term.move", turn=game.turn + 1, total=DECK_SIZE), style="bold"))
        items.append(Text(t("term.to_place")))
        items.append(big_card(card, glyphs, t))
    else:
        items.append(Panel(Group(*end_lines(session)), width=min(44, width), border_style="bold"))
    items.append(Text(t("term.stock_left", left=cards(t, game.stock_left))))
    items.append(face_down_text(session, short=False))
    caption = variant_caption(session.variant, t)
    if caption:
        items.append(Text(caption, style="dim"))
    items.append(Text(""))
    # Item by item: a line that is wider on the terminal than rich counts narrows only its own item's layout.
    lines = [line for item in items for line in as_lines(item, width)]
    hints = hint_lines(view, short=False, width=width)
    if hints:
        tails = [[line for hint in hints for line in as_lines(hint, width)]]
    else:
        tails = [as_lines(form, width) for form in explain_forms(view)]
    tail = next((tail for tail in tails if len(lines) + len(tail) <= room), tails[-1])
    return [*lines, *tail][:room]


def full_frame(view: View, width: int, height: int = FULL_HEIGHT) -> Frame:
    """Header, the framed board with the side panel beside it, the prompt and the keys; on a large terminal all
    of it in the middle (:func:`centred`), not in a corner."""
    session, t = view.session, view.t
    ascii_only = not view.glyphs.suits
    size = board_size(width, height)
    side_width = min(width - size.width - 2, SIDE_MAX_WIDTH)
    used = size.width + 2 + side_width
    left, top = centred(width, height, used, size.height + 4)
    width, height = (used, height - top) if left or top else (width, height)
    header = Text(t("term.title"), style="bold")
    header.append("   " + deal_caption(session, reveal=session.game.is_over()), style="dim")
    board = full_board(session.game, view.marks, view.glyphs, t, size)
    under = bottom(view, width, height - 1 - size.height, ascii_only)
    side = full_side(view, side_width, max(size.height, height - 1 - len(under)))
    lines = [one_line(header, width, ascii_only), *beside(board.lines, side).split("\n"), *under]
    pad = Text(" " * left)
    frame = Group(*[Text("")] * top, *(pad + line for line in lines))
    cells = {move: (y + 1 + top, x + left, h, w) for move, (y, x, h, w) in board.cells.items()}
    return Frame(frame, cells)


def board_size(width: int, height: int) -> BoardSize:
    """The full board's size for a terminal: the larger board where it leaves room to spare beside the widest
    side panel and above and below (from about 144 × 42), else the usual one."""
    spare = CENTRED_FROM
    if width >= LARGE.width + 2 + SIDE_MAX_WIDTH + spare and height >= LARGE.height + 4 + spare:
        return LARGE
    return NORMAL


def centred(width: int, height: int, used_width: int, used_height: int) -> tuple[int, int]:
    """Where a layout ``used_width`` × ``used_height`` starts on a terminal with room to spare, as (left,
    top): in the middle across, and a third of the spare lines down (what grows, grows downwards); at the
    top left when little is spare (up to 100 × 32)."""
    spare_width, spare_height = width - used_width, height - used_height
    left = spare_width // 2 if spare_width >= CENTRED_FROM else 0
    top = spare_height // 3 if spare_height >= CENTRED_FROM else 0
    return left, top


def beside(left: list[Text], right: list[Text], gap: int = 2) -> Text:
    """The lines of ``right`` to the right of those of ``left``, line by line, with nothing padded after them.

    Not a table: a table pads each line of its last column to the column's width as rich counts cells, and
    a Bengali or Kannada line, which takes more cells on the terminal than rich counts, would then overrun
    the terminal and squeeze the board (``right``'s lines already fit as the terminal counts)."""
    width = max((line.cell_len for line in left), default=0)
    rows = []
    for i in range(max(len(left), len(right))):
        row = left[i].copy() if i < len(left) else Text()
        if i < len(right):
            row.pad_right(width - row.cell_len + gap)
            row.append_text(right[i])
        rows.append(row)
    joined = Text("\n").join(rows)
    joined.no_wrap = True
    return joined


def compact_frame(view: View, width: int, height: int) -> Frame:
    """One line each for the header and the card to place, the one-line board, then whatever fits of the last
    move and the hint, and always the prompt and the keys at the bottom."""
    session, glyphs, t = view.session, view.glyphs, view.t
    ascii_only = not glyphs.suits
    game = session.game
    card = game.card_to_place
    header = Text(t("term.title") + "  ", style="bold")
    header.append(deal_caption(session, reveal=game.is_over(), short=True), style="dim")
    if card is not None:
        header.append("  " + t("term.move_short", turn=game.turn + 1, total=DECK_SIZE))
    if terminal_cells(header.plain) > width:  # a long language: the game's name gives way to the deal and the move
        header = header[len(t("term.title")) + 2 :]
    status = compact_status(view, labelled=True)
    if terminal_cells(status.plain) > width:  # a long language: the card without its label, so the counts still show
        status = compact_status(view, labelled=False)
    board = compact_board(game, view.marks, glyphs, t)
    top = [one_line(line, width, ascii_only) for line in [header, status, *board.lines]]
    extra: list[tuple[list[list[Text]], bool]] = []
    if card is None:  # what the status line's banner does not say: the score in words, the deal, the statistics
        extra.extend(([as_lines(line, width)], False) for line in end_lines(session)[1:])
    if view.hints or view.thinking:
        extra.append((compact_hint_forms(view, width), False))
    else:
        # Needed: what the last card turned over always shows, in the longest form that fits whole.
        told = [as_lines(form, width) for form in explain_forms(view)]
        extra.append((told, view.marks.last is not None))
    fit = 0 if width < 70 else width  # below 70 columns the prompt's short form, always
    needs = 1 + len(as_lines(prompt_line(view, width), width)) if view.message else 1  # the keys, the message
    needs += min((len(form) for forms, needed in extra if needed for form in forms), default=0)
    if height - len(top) < needs:  # the header gives way to what the last card turned over
        top = top[1:]
    lines = [*top, *bottom(view, width, max(height - len(top), 2), ascii_only, extra, prompt_width=fit)]
    shift = 2 if len(top) == 2 + len(board.lines) else 1
    cells = {move: (top_ + shift, left, h, w) for move, (top_, left, h, w) in board.cells.items()}
    return Frame(Group(*lines), cells)


def compact_status(view: View, labelled: bool) -> Text:
    """The compact layout's second line: the card to place (or the outcome), the stock and the face-down count."""
    session, t, glyphs = view.session, view.t, view.glyphs
    card = session.game.card_to_place
    status = Text()
    if card is not None:
        if labelled:
            status.append(t("term.to_place_short") + " ", style="bold")
        status.append(face(t, card, glyphs.suits), style=card_style(card) + " reverse")
        status.append("  ")
    else:
        status.append_text(end_lines(session)[0])
        status.append(" ")
    status.append(t("term.stock_short", left=session.game.stock_left) + "  ")
    status.append_text(face_down_text(session, short=True))
    return status


def too_small_frame(view: View, width: int, height: int) -> Frame:
    """Say plainly how large the terminal must be, and still show the card to place."""
    t = view.t
    notice = t("term.too_small", width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)
    lines = [Text(notice, style="bold yellow")]
    card = view.session.game.card_to_place
    if card is not None:
        line = Text(t("term.too_small_card").rstrip() + " ")
        line.append(face(t, card, view.glyphs.suits), style=card_style(card))
        lines.insert(0, line)
    return Frame(Group(*lines))


def _hanging(marker: str, text: Text, indent: int = 0) -> RenderableType:
    """``text`` after ``marker`` (a step's number, a bullet), its later lines under its first."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, width=max(2, cell_len(marker)))
    grid.add_column()
    grid.add_row(Text(marker), text)
    return Padding(grid, (0, 0, 0, indent)) if indent else grid


def help_lines(t: Translator, glyphs: Glyphs) -> list[RenderableType]:
    """The ``?`` screen: the rules (the web page's, ``rules.*``), what every symbol means, and the keys."""
    gap = Text("")
    items: list[RenderableType] = []
    bullet = "•" if glyphs.suits else "-"
    for part in rules(t):
        if part.kind == "title":
            items.extend([Text(part.text, style="bold underline"), gap])
        elif part.kind == "heading":
            items.extend([gap, Text(part.text, style="bold")])
        elif part.kind == "item":
            items.append(_hanging(part.number, Text(part.text)))
        elif part.kind == "sub":
            items.append(_hanging(bullet, Text(part.text), indent=3))
        elif part.kind == "reading":
            reading = Text.assemble((t("rules.readingLabel"), "bold"), " — ", part.text)
            items.append(Padding(reading, (0, 0, 0, 3)))
        else:
            items.append(Text(part.text))
    items.extend([gap, Text(t("term.help_symbols"), style="bold")])
    symbols = Table.grid(padding=(0, 2))
    symbols.add_column(no_wrap=True)
    symbols.add_column()
    for sign, meaning in symbols_legend(glyphs, t):
        symbols.add_row(Text(sign, style="bold"), Text(meaning))  # Text: "[k]" is not markup
    items.append(symbols)
    items.extend([gap, Text(t("term.help_keys"), style="bold")])
    legend = Table.grid(padding=(0, 2))
    legend.add_column(no_wrap=True)
    legend.add_column()
    for key, meaning in keys_legend(t):
        legend.add_row(Text(key, style="bold"), Text(meaning))
    items.append(legend)
    return items
