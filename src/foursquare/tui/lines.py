"""Line mode: one command per line in, plain text out (scripts and tests; the format is the package's docstring)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TextIO

from foursquare.cli.render import grid_text, unicode_ok
from foursquare.engine import MAX_FACE_DOWN, Game, Move, MoveError, Placement
from foursquare.tui.session import Session, cards, outcome_line
from foursquare.tui.text import TEXT


def play_lines(session: Session, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    """Play from text commands, one per line; the output format is the module docstring's."""
    game = session.game

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    def complain(text: str) -> None:
        out.flush()
        print(text, file=err, flush=True)

    def save() -> None:
        error = session.write()
        if error is not None:
            complain(error)

    say(TEXT["deal"].format(deal=game.deal) if session.deal_shown else TEXT["deal_hidden"])
    buried = TEXT["variant_buried"] if session.variant.count_buried else ""
    say(TEXT["variant"].format(adjacency=session.variant.adjacency, buried=buried))
    if game.is_over():  # a finished record given to continue: nothing left to play
        say(grid_text(game, ascii_only=not unicode_ok(out)))
        say(outcome_line(game.outcome()))
        return 0
    say(_state_lines(game))

    for raw in lines:
        command = raw.strip().lower()
        if not command:
            continue
        if command in ("q", "quit"):
            break
        if command in ("u", "undo"):
            if not game.can_undo:
                complain(TEXT["cannot_undo"])
                continue
            placement = game.undo()
            save()
            say(_report_lines("undone", placement))
        elif command in ("r", "redo"):
            if not game.can_redo:
                complain(TEXT["cannot_redo"])
                continue
            placement = game.redo()
            save()
            say(_report_lines("redone", placement))
        else:
            try:
                move = _parse_cell(command)
            except MoveError:
                complain(TEXT["bad_command"].format(line=raw.strip()))
                continue
            error = game.illegality(move.row, move.col)
            if error is not None:
                complain(TEXT["illegal"].format(error=error))
                continue
            placement = game.place(move.row, move.col)
            save()
            say(_report_lines("placed", placement))
        say(grid_text(game, ascii_only=not unicode_ok(out)))
        say(TEXT["face_down_count"].format(count=game.face_down, limit=MAX_FACE_DOWN))
        if game.is_over():
            say(outcome_line(game.outcome()))
            if not session.deal_shown:
                say(TEXT["deal"].format(deal=game.deal))
            return 0
        say(_state_lines(game))
    save()
    say(TEXT["stopped"].format(placed=cards(game.turn)))
    if not session.deal_shown:
        say(TEXT["deal"].format(deal=game.deal))
    return 0


def _parse_cell(text: str) -> Move:
    """The cell a line names: ``D4`` (a name, any case) or ``0 1`` (row and column); :class:`MoveError` else."""
    if text[:1].isalpha():
        return Move.from_name(text)
    return Move.parse(text)


def _state_lines(game: Game) -> str:
    card = game.card_to_place
    assert card is not None
    cells = ", ".join(move.name for move in game.legal_moves)
    return "\n".join(
        [TEXT["card_to_place"].format(card=card.name, left=cards(game.stock_left)), TEXT["legal"].format(cells=cells)]
    )


def _report_lines(kind: Literal["placed", "undone", "redone"], placement: Placement) -> str:
    move = placement.move
    undone = kind == "undone"  # an undo turns every flipped card back: it now faces the other way
    flips = [
        TEXT["flip"].format(
            card=f.card.name, cell=f.cell_name, way="up" if f.face_up != undone else "down", line=f.line
        )
        for f in placement.flips
    ]
    return "\n".join(
        [
            TEXT[kind].format(card=placement.card.name, cell=move.name),
            TEXT["turned_back" if undone else "turned_over"].format(flips=", ".join(flips) or TEXT["nothing"]),
        ]
    )


