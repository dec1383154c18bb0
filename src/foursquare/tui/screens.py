"""Whole frames of the interactive game: the full layout (framed board, side panel), the compact one for
small terminals (down to ``MIN_WIDTH`` × ``MIN_HEIGHT``), a plain notice below that, and the help screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from foursquare.cards import DECK_SIZE, Card
from foursquare.engine import MAX_FACE_DOWN, Flip, Move, Variant
from foursquare.tui.board import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    COMPACT_WIDTH,
    LastAction,
    Marks,
    big_card,
    card_style,
    compact_board,
    full_board,
    symbols_legend,
)
from foursquare.tui.glyphs import Glyphs
from foursquare.tui.session import Session, cards
from foursquare.tui.text import HELP_PARAGRAPHS, KEYS_LEGEND, TEXT

SIDE_MIN_WIDTH = 26
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
        return full_frame(view, width)
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return compact_frame(view, width, height)
    return too_small_frame(view, width, height)


# --- the parts -------------------------------------------------------------------------------------------


def deal_caption(session: Session, reveal: bool, short: bool = False) -> str:
    """The deal number, or for a random deal a note that it is kept secret until ``reveal``."""
    if session.deal_shown or reveal:
        return TEXT["deal_number"].format(deal=session.game.deal)
    suffix = "_short" if short else ""
    return TEXT[f"deal_winnable{suffix}"] if session.winnable else TEXT[f"deal_random{suffix}"]


def variant_caption(variant: Variant) -> str | None:
    """The house rules in force, or None for the standard game."""
    parts = []
    if variant.adjacency == "diagonal":
        parts.append(TEXT["variant_diagonal"])
    if variant.count_buried:
        parts.append(TEXT["variant_count_buried"])
    return TEXT["variant_short"].format(text=", ".join(parts)) if parts else None


def card_text(card: Card, glyphs: Glyphs) -> Text:
    return Text(glyphs.card(card), style=card_style(card))


def face_down_text(session: Session, short: bool) -> Text:
    game = session.game
    down = game.face_down
    style = "bold red" if down >= MAX_FACE_DOWN else "bold yellow" if down == MAX_FACE_DOWN - 1 else "green"
    line = Text(TEXT["face_down_short" if short else "face_down_label"])
    value = TEXT["face_down_value_short" if short else "face_down_value"]
    line.append(value.format(count=down, limit=MAX_FACE_DOWN), style=style)
    if game.card_to_place is not None and down == MAX_FACE_DOWN - 1:
        line.append(TEXT["face_down_warn_3"], style="yellow")
    elif game.card_to_place is not None and down == MAX_FACE_DOWN:
        line.append(TEXT["face_down_warn_4"], style="bold red")
    return line


def _flip_lines(flips: Sequence[Flip], glyphs: Glyphs, undone: bool = False) -> Text:
    """``  now face up: 2♦ E4, 7♠ F4`` and ``  now face down: A♦ D4`` (each way as the cards now face)."""
    text = Text()
    for up in (True, False):
        turned = [f for f in flips if (f.face_up != undone) == up]
        if not turned:
            continue
        text.append("\n" + TEXT["now_up" if up else "now_down"], style="green" if up else "yellow")
        for index, flip in enumerate(turned):
            text.append("," if index else "")
            text.append(" ")
            text.append_text(card_text(flip.card, glyphs))
            text.append(" " + flip.cell_name)
    return text


def explain(last: LastAction | None, glyphs: Glyphs) -> Text:
    """What the last command did and why, in words."""
    if last is None:
        return Text()
    if last.kind == "resumed":
        return Text(TEXT["last_resumed"])
    if last.kind == "restart" or last.placement is None:
        return Text(TEXT["last_restart"])
    p = last.placement
    name = glyphs.card(p.card)
    if last.kind == "undone":
        text = Text(TEXT["last_undone"].format(card=name, cell=p.move.name))
        if p.flips:
            text.append("\n" + TEXT["turned_back_line"])
            text.append_text(_flip_lines(p.flips, glyphs, undone=True))
        return text
    key = "last_redone" if last.kind == "redone" else "last_placed"
    text = Text(TEXT[key].format(card=name, cell=p.move.name))
    if not p.flips:
        text.append("\n" + TEXT["nothing_turned"])
        return text
    for line in ("row", "column"):
        flips = [f for f in p.flips if f.line == line]
        if not flips:
            continue
        why = TEXT[f"why_{flips[0].reason}"].format(line=TEXT[line], card=name)
        text.append("\n" + why)
        text.append_text(_flip_lines(flips, glyphs))
    return text


def hint_lines(view: View, short: bool) -> list[Text]:
    """The hint's ranked moves (or that it is being worked out)."""
    if view.thinking:
        return [Text(TEXT["thinking"], style="italic")]
    if not view.hints:
        return []
    lines = [] if short else [Text(TEXT["hint_title"], style="bold")]
    for rank, hint in enumerate(view.hints[:HINTS_SHOWN], start=1):
        key = view.marks.keys.get(hint.move)
        note = f"[{key}] " if key else ""
        form = "hint_short" if short else "hint_line"
        words = TEXT[form].format(rank=rank, cell=hint.move.name, card_note=note, win=hint.win, score=hint.score)
        lines.append(Text(words, style="green" if rank == 1 else ""))
    if short:
        return [Text("  ").join(lines)]
    return lines


def end_lines(session: Session) -> list[Text]:
    """The outcome, with the score, the deal number (now revealed) and where the statistics are."""
    outcome = session.game.outcome()
    if outcome.status == "won":
        banner = TEXT["won_banner"].format(score=outcome.score)
        style, body = "green", TEXT["won_score"].format(score=outcome.score)
    else:
        banner = TEXT["lost_banner"]
        style = "red"
        body = TEXT["lost_face_down_long"] if outcome.reason == "too_many_face_down" else TEXT["lost_stock_long"]
    lines = [Text(f" {banner} ", style=f"bold reverse {style}"), Text(body, style="bold")]
    lines.append(Text(TEXT["end_deal"].format(deal=session.game.deal)))
    if session.history is not None:
        lines.append(Text(TEXT["end_stats"]))
    return lines


def analyze_line(session: Session) -> list[Text]:
    """After the end: the command that studies the game (a line of its own: the path may be long)."""
    path = session.record_path
    return [] if path is None else [Text(TEXT["end_analyze"].format(path=path))]


def prompt_line(view: View, short: bool) -> Text:
    card = view.session.game.card_to_place
    if view.message:
        return Text(view.message, style="bold yellow")
    if card is None:
        return Text(TEXT["play_another_short" if short else "play_another"], style="bold")
    return Text(TEXT["key_hint_short" if short else "key_hint"].format(card=view.glyphs.card(card)))


def keys_line(view: View, short: bool) -> Text:
    over = view.session.game.card_to_place is None
    name = ("footer_end" if over else "footer_play") + ("_short" if short else "")
    return Text.from_markup(TEXT[name])


# --- the layouts ------------------------------------------------------------------------------------------


def full_side(view: View) -> RenderableType:
    """Beside the board: the card to place (or the outcome), stock, face-down count, the last move, the hint."""
    session, glyphs = view.session, view.glyphs
    game = session.game
    items: list[RenderableType] = []
    card = game.card_to_place
    if card is not None:
        items.append(Text(TEXT["move"].format(turn=game.turn + 1, total=DECK_SIZE), style="bold"))
        items.append(Text(TEXT["to_place"]))
        items.append(big_card(card, glyphs))
    else:
        items.append(Panel(Group(*end_lines(session)), width=44, border_style="bold"))
    items.append(Text(TEXT["stock_left"].format(left=cards(game.stock_left))))
    items.append(face_down_text(session, short=False))
    caption = variant_caption(session.variant)
    if caption:
        items.append(Text(caption, style="dim"))
    items.append(Text(""))
    hints = hint_lines(view, short=False)
    items.extend(hints or [explain(view.marks.last, glyphs)])
    return Group(*items)


def full_frame(view: View, width: int) -> Frame:
    """Header, the framed board with the side panel beside it, the prompt and the keys."""
    session = view.session
    header = Text(TEXT["title"], style="bold")
    header.append("   " + deal_caption(session, reveal=session.game.is_over()), style="dim")
    board = full_board(session.game, view.marks, view.glyphs)
    layout = Table.grid(padding=(0, 2))
    layout.add_column(width=BOARD_WIDTH, no_wrap=True)
    layout.add_column(width=min(width - BOARD_WIDTH - 2, 60))
    layout.add_row(Text("\n").join(board.lines), full_side(view))
    after = analyze_line(session) if session.game.is_over() else []
    frame = Group(header, layout, *after, prompt_line(view, short=False), keys_line(view, short=False))
    cells = {move: (top + 1, left, h, w) for move, (top, left, h, w) in board.cells.items()}
    return Frame(frame, cells)


def compact_frame(view: View, width: int, height: int) -> Frame:
    """One line each for the header and the card to place, the one-line board, then whatever fits of the last
    move and the hint, and always the prompt and the keys at the bottom."""
    session, glyphs = view.session, view.glyphs
    game = session.game
    card = game.card_to_place
    header = Text(TEXT["title"] + "  ", style="bold")
    header.append(deal_caption(session, reveal=game.is_over(), short=True), style="dim")
    status = Text()
    if card is not None:
        header.append("  " + TEXT["move_short"].format(turn=game.turn + 1, total=DECK_SIZE))
        status.append(TEXT["to_place_short"] + " ", style="bold")
        status.append(glyphs.card(card), style=card_style(card) + " reverse")
        status.append("  ")
    else:
        status.append_text(end_lines(session)[0])
        status.append(" ")
    status.append(TEXT["stock_short"].format(left=game.stock_left) + "  ")
    status.append_text(face_down_text(session, short=True))
    board = compact_board(game, view.marks, glyphs)
    short = width < 70
    room = height - 2 - len(board.lines) - 2
    extra: list[Text] = []
    if card is None:
        extra.extend(end_lines(session)[1:] + analyze_line(session))
    hints = hint_lines(view, short=short)
    extra.extend(hints or explain(view.marks.last, glyphs).split("\n"))
    lines = [header, status, *board.lines, *extra[: max(room, 0)], prompt_line(view, short), keys_line(view, short)]
    overflow: Literal["ellipsis", "crop"] = "ellipsis" if glyphs.suits else "crop"  # "…" is not ASCII
    for line in lines:
        line.no_wrap = True
        line.overflow = overflow
        line.truncate(width, overflow=overflow)
    cells = {move: (top + 2, left, h, w) for move, (top, left, h, w) in board.cells.items()}
    return Frame(Group(*lines), cells)


def too_small_frame(view: View, width: int, height: int) -> Frame:
    """Say plainly how large the terminal must be, and still show the card to place."""
    notice = TEXT["too_small"].format(width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)
    lines = [Text(notice, style="bold yellow")]
    card = view.session.game.card_to_place
    if card is not None:
        line = Text(TEXT["too_small_card"])
        line.append(view.glyphs.card(card), style=card_style(card))
        lines.insert(0, line)
    return Frame(Group(*lines))


def help_lines(glyphs: Glyphs) -> list[RenderableType]:
    """The ``?`` screen: the rules, what every symbol means, and the keys."""
    gap = Text("")
    items: list[RenderableType] = [Text(TEXT["help_title"], style="bold underline"), gap]
    for paragraph in HELP_PARAGRAPHS:
        items.append(Text.from_markup(paragraph))
    items.extend([gap, Text(TEXT["help_symbols"], style="bold")])
    symbols = Table.grid(padding=(0, 2))
    symbols.add_column(no_wrap=True)
    symbols.add_column()
    for sign, meaning in symbols_legend(glyphs):
        symbols.add_row(Text(sign, style="bold"), Text(meaning))  # Text: "[k]" is not markup
    items.append(symbols)
    items.extend([gap, Text(TEXT["help_keys"], style="bold")])
    keys = Table.grid(padding=(0, 2))
    keys.add_column(no_wrap=True)
    keys.add_column()
    for key, meaning in KEYS_LEGEND:
        keys.add_row(Text(key, style="bold"), Text(meaning))
    items.append(keys)
    return items
