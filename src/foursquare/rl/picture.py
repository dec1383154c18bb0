"""The environment's ``rgb_array`` picture: the 7 × 7 area as a player sees it, for videos of episodes.

Every frame has the same size (:data:`HEIGHT` × :data:`WIDTH` × 3, ``uint8``) whatever the position, so that
frames can be stacked or written as a video. It shows the area's cells under their names (columns A–G, rows
1–7, the first card at D4), each pile's top card — face up light, face down dark, a red or black suit — with
its height when above one, and beside the grid the card to place, the cards left in the stock and the
face-down cards against the limit. The frame is green at a win and red at a loss (or when the caller says
the episode was lost otherwise, by an illegal action). It uses no words, only cell names, card names and
numbers, which read the same in every language. It is drawn from the player's :class:`~foursquare.engine.View`,
so nothing of the stock beyond the card to place can be in it.

>>> from foursquare.engine import Game
>>> picture(Game(deal=1).view()).shape == (HEIGHT, WIDTH, 3)
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from foursquare.cards import DECK_SIZE, Card
from foursquare.engine import AREA_REACH, AREA_SIDE, MAX_FACE_DOWN, CellView, View, column_name, row_name

Picture = npt.NDArray[np.uint8]

CELL = 56  # pixels per cell
MARGIN = 28  # room for the column letters and the row numbers
PANEL = 132  # the column beside the grid
BORDER = 6
WIDTH = 2 * BORDER + MARGIN + AREA_SIDE * CELL + PANEL
HEIGHT = 2 * BORDER + MARGIN + AREA_SIDE * CELL

_TABLE = (24, 92, 56)
_EMPTY = (34, 110, 68)
_FACE_UP = (250, 248, 240)
_FACE_DOWN = (44, 62, 120)
_RED = (200, 30, 40)
_BLACK = (20, 20, 20)
_MUTED = (200, 208, 230)
_LABEL = (230, 240, 230)
_WON = (60, 200, 90)
_LOST = (220, 50, 50)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def picture(view: View, lost: bool = False) -> Picture:
    """The frame of the position ``view`` shows (see the module's documentation); ``lost`` draws the frame of a
    loss whatever the view's outcome."""
    image = Image.new("RGB", (WIDTH, HEIGHT), _TABLE)
    draw = ImageDraw.Draw(image)
    status = "lost" if lost else view.outcome.status
    if status != "playing":
        draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=_WON if status == "won" else _LOST, width=BORDER)
    _names(draw)
    piles = {(cell.row, cell.col): cell for cell in view.cells}
    for r in range(-AREA_REACH, AREA_REACH + 1):
        for c in range(-AREA_REACH, AREA_REACH + 1):
            _cell(draw, piles.get((r, c)), r, c)
    _panel(draw, view)
    return np.asarray(image, dtype=np.uint8)


def _cell_box(r: int, c: int) -> tuple[int, int, int, int]:
    x = BORDER + MARGIN + (c + AREA_REACH) * CELL
    y = BORDER + MARGIN + (r + AREA_REACH) * CELL
    return x + 3, y + 3, x + CELL - 3, y + CELL - 3


def _names(draw: ImageDraw.ImageDraw) -> None:
    font = _font(16)
    for i in range(-AREA_REACH, AREA_REACH + 1):
        x0, y0, x1, y1 = _cell_box(-AREA_REACH, i)
        draw.text(((x0 + x1) / 2, BORDER + MARGIN / 2), column_name(i), fill=_LABEL, font=font, anchor="mm")
        x0, y0, x1, y1 = _cell_box(i, -AREA_REACH)
        draw.text((BORDER + MARGIN / 2, (y0 + y1) / 2), row_name(i), fill=_LABEL, font=font, anchor="mm")


def _cell(draw: ImageDraw.ImageDraw, pile: CellView | None, r: int, c: int) -> None:
    box = _cell_box(r, c)
    if pile is None:
        draw.rounded_rectangle(box, radius=6, fill=_EMPTY)
        return
    _card(draw, box, pile.top, pile.top_face_up)
    if pile.height > 1:
        draw.text((box[2] - 4, box[3] - 3), f"x{pile.height}", fill=_MUTED if not pile.top_face_up else _BLACK,
                  font=_font(11), anchor="rd")  # fmt: skip


def _card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: Card, face_up: bool) -> None:
    red = card.suit in "DH"
    if face_up:
        draw.rounded_rectangle(box, radius=6, fill=_FACE_UP, outline=_BLACK)
        colour = _RED if red else _BLACK
    else:
        draw.rounded_rectangle(box, radius=6, fill=_FACE_DOWN, outline=_MUTED)
        colour = (240, 140, 140) if red else _MUTED
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 - 4)
    draw.text(centre, card.name, fill=colour, font=_font(18), anchor="mm")


def _panel(draw: ImageDraw.ImageDraw, view: View) -> None:
    """The card to place, then the stock's count on a card back, then the face-down cards against the limit."""
    left = BORDER + MARGIN + AREA_SIDE * CELL + 24
    top = BORDER + MARGIN + 3
    card = view.card
    next_box = (left, top, left + CELL - 6, top + CELL - 6)
    if card is not None:
        _card(draw, next_box, card, face_up=True)
        draw.rectangle((next_box[0] - 4, next_box[1] - 4, next_box[2] + 4, next_box[3] + 4), outline=_LABEL, width=2)
    stock_box = (left, top + 2 * CELL, left + CELL - 6, top + 3 * CELL - 6)
    draw.rounded_rectangle(stock_box, radius=6, fill=_FACE_DOWN, outline=_MUTED)
    draw.text(((stock_box[0] + stock_box[2]) / 2, (stock_box[1] + stock_box[3]) / 2), str(DECK_SIZE - view.turn),
              fill=_LABEL, font=_font(18), anchor="mm")  # fmt: skip
    down = view.face_down
    y = top + 4 * CELL
    for i in range(MAX_FACE_DOWN + 1):  # one slot per face-down card the limit allows, and one more: the loss
        slot = (left + i * 18, y, left + i * 18 + 14, y + 22)
        fill = (_LOST if i == MAX_FACE_DOWN else _FACE_DOWN) if i < down else None
        draw.rectangle(slot, fill=fill, outline=_LOST if i == MAX_FACE_DOWN else _MUTED)
    draw.text((left, y + 30), f"{down}/{MAX_FACE_DOWN}", fill=_LABEL, font=_font(16), anchor="la")


__all__ = ["HEIGHT", "WIDTH", "Picture", "picture"]
