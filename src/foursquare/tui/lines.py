"""Line mode: one command per line in, plain text out (scripts and tests; the format is the package's docstring)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TextIO

from foursquare.engine import MAX_FACE_DOWN, Game, Move, MoveError, Placement
from foursquare.grid_text import grid_text, unicode_ok
from foursquare.i18n import Translator
from foursquare.tui.session import Session, outcome_line
from foursquare.tui.text import cards, illegal_reason, keys


def play_lines(session: Session, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    """Play from text commands, one per line; the output format is the module docstring's."""
    game, t = session.game, session.t
    empty = t("term.no_cards_placed")

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    def complain(text: str) -> None:
        out.flush()
        print(text, file=err, flush=True)

    def save() -> None:
        error = session.write()
        if error is not None:
            complain(error)

    say(t("term.deal", deal=str(game.deal)) if session.deal_shown else t("term.deal_hidden"))
    diagonal = session.variant.adjacency == "diagonal"
    rules = [t("term.variant_diagonal" if diagonal else "term.variant_orthogonal")]
    if session.variant.count_buried:
        rules.append(t("term.variant_count_buried"))
    say(t("term.variant", rules=t("list.sep").join(rules)))
    if game.is_over():  # a finished record given to continue: nothing left to play
        say(grid_text(game, ascii_only=not unicode_ok(out), empty=empty))
        say(outcome_line(game.outcome(), t))
        return 0
    say(_state_lines(game, t))

    for raw in lines:
        command = raw.strip().lower()
        if not command:
            continue
        if command in ("q", "quit"):
            break
        if command in ("u", "undo"):
            if not game.can_undo:
                complain(t("term.cannot_undo"))
                continue
            placement = game.undo()
            save()
            say(_report_lines("undone", placement, t))
        elif command in ("r", "redo"):
            if not game.can_redo:
                complain(t("term.cannot_redo"))
                continue
            placement = game.redo()
            save()
            say(_report_lines("redone", placement, t))
        else:
            try:
                move = _parse_cell(command)
            except MoveError:
                complain(t("term.bad_command", line=repr(raw.strip()), example='"D4"', **keys()))
                continue
            error = game.illegality(move.row, move.col)
            if error is not None:
                complain(t("term.illegal", cell=_cell(move), why=illegal_reason(t, error.reason)))
                continue
            placement = game.place(move.row, move.col)
            save()
            say(_report_lines("placed", placement, t))
        say(grid_text(game, ascii_only=not unicode_ok(out), empty=empty))
        say(t("term.face_down_count", count=game.face_down, limit=MAX_FACE_DOWN))
        if game.is_over():
            say(outcome_line(game.outcome(), t))
            if not session.deal_shown:
                say(t("term.deal", deal=str(game.deal)))
            return 0
        say(_state_lines(game, t))
    save()
    say(t("term.stopped", placed=cards(t, game.turn)))
    if not session.deal_shown:
        say(t("term.deal", deal=str(game.deal)))
    return 0


def _parse_cell(text: str) -> Move:
    """The cell a line names: ``D4`` (a name, any case) or ``0 1`` (row and column); :class:`MoveError` else."""
    if text[:1].isalpha():
        return Move.from_name(text)
    return Move.parse(text)


def _cell(move: Move) -> str:
    """A cell as the player named it: ``D4``, or ``5 5`` outside the named area."""
    try:
        return move.name
    except MoveError:
        return str(move)


def _state_lines(game: Game, t: Translator) -> str:
    card = game.card_to_place
    assert card is not None
    cells = ", ".join(move.name for move in game.legal_moves)  # identifiers, as a script reads them back
    return "\n".join(
        [t("term.card_to_place", card=card.name, left=cards(t, game.stock_left)), t("term.legal", cells=cells)]
    )


def _report_lines(kind: Literal["placed", "undone", "redone"], placement: Placement, t: Translator) -> str:
    move = placement.move
    undone = kind == "undone"  # an undo turns every flipped card back: it now faces the other way
    flips = [
        t(
            "term.flip_up" if f.face_up != undone else "term.flip_down",
            card=f.card.name,
            cell=f.cell_name,
            line=t(f"flip.line.{f.line}"),
        )
        for f in placement.flips
    ]
    turned = t("list.sep").join(flips) or t("term.nothing")
    return "\n".join(
        [
            t(f"term.{kind}", card=placement.card.name, cell=move.name),
            t("term.turned_back" if undone else "term.turned_over", flips=turned),
        ]
    )


