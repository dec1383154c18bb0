"""Plain-text pictures of a game, for ``replay`` and for ``play`` when input is not a terminal."""

from __future__ import annotations

from foursquare.engine import Game


def grid_text(game: Game) -> str:
    """The occupied box of the grid: ``7H`` face up, ``(7H)`` face down, ``·`` empty; ``x3`` = pile height."""
    bounds = game.bounds()
    if bounds is None:
        return "(no cards placed)"
    min_r, max_r, min_c, max_c = bounds
    width = 9
    header = "      " + "".join(f"{c:^{width}}" for c in range(min_c, max_c + 1))
    lines = [header.rstrip()]
    for r in range(min_r, max_r + 1):
        row = []
        for c in range(min_c, max_c + 1):
            pile = game.pile(r, c)
            if pile is None:
                text = "·"
            else:
                name = pile.top.name if pile.top_face_up else f"({pile.top.name})"
                text = name + (f"x{pile.height}" if pile.height > 1 else "")
            row.append(f"{text:^{width}}")
        lines.append(f"{r:>4}  " + "".join(row).rstrip())
    return "\n".join(lines)


def outcome_text(game: Game) -> str:
    """One line: the outcome, then how many cards were played, are left, and lie face down."""
    outcome = game.outcome()
    status = str(outcome)
    return f"{status}; {game.turn} cards played, {game.stock_left} left in the stock, {game.face_down} face down"
