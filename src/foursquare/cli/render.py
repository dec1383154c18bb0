"""Pictures of a game for the terminal: a rich table (``autoplay`` on a terminal); the plain-text grid is
:func:`foursquare.grid_text.grid_text`."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from foursquare.engine import Game, column_name, row_name


def grid_table(game: Game) -> Table:
    """The grid as a rich table: face-up cards in their suit's colour, face-down ones dim in brackets; the
    columns headed by their letters and the rows by their numbers (the cells' names)."""
    table = Table(show_header=True, box=None, padding=(0, 1))
    bounds = game.bounds()
    if bounds is None:
        return table
    min_r, max_r, min_c, max_c = bounds
    table.add_column("")
    for c in range(min_c, max_c + 1):
        table.add_column(column_name(c), justify="center")
    last = game.placements[-1].move if game.placements else None
    for r in range(min_r, max_r + 1):
        cells = (_cell_text(game, r, c, last == (r, c)) for c in range(min_c, max_c + 1))
        table.add_row(Text(row_name(r), style="dim"), *cells)
    return table


def _cell_text(game: Game, row: int, col: int, last: bool) -> Text:
    pile = game.pile(row, col)
    if pile is None:
        return Text("·", style="dim")
    height = f"×{pile.height}" if pile.height > 1 else ""
    if not pile.top_face_up:
        return Text(f"({pile.top.symbol}){height}", style="dim")
    style = ("bold red" if pile.top.suit in "DH" else "bold") + (" reverse" if last else "")
    return Text(pile.top.symbol + height, style=style)
